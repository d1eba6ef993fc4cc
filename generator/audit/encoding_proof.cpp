#include "audit/encoding_proof.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string_view>

#include "writers/asmjit_encoder.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::audit {
namespace {

// The bytes of an untrusted object file and the checked reads both formats need: every
// offset and size read from the file is checked against it before use, in arithmetic that
// cannot wrap around, and a failed check names the format ("malformed ELF object: ...").
class ObjectBytes {
 public:
  ObjectBytes(const std::string& bytes, std::string format) : bytes_(bytes), format_(format) {}

  [[noreturn]] void malformed(const std::string& what) const {
    throw MalformedObject("malformed " + format_ + " object: " + what);
  }

  // Whether `length` bytes at `offset` lie inside the file, tested without overflow.
  bool in_file(std::uint64_t offset, std::uint64_t length) const {
    return offset <= bytes_.size() && length <= bytes_.size() - offset;
  }

  void require_in_file(std::uint64_t offset, std::uint64_t length, const std::string& what) const {
    if (!in_file(offset, length)) {
      malformed(fmt::format("{} ({:#x} bytes at offset {:#x}) lies outside the {}-byte file", what,
                            length, offset, bytes_.size()));
    }
  }

  template <typename T>
  T read(std::uint64_t at) const {
    require_in_file(at, sizeof(T), "a field");
    T value;
    std::memcpy(&value, bytes_.data() + at, sizeof(T));
    return value;
  }

 protected:
  const std::string& bytes_;

 private:
  std::string format_;
};

// Just enough ELF64 (little-endian, as on x86-64 and AArch64 Linux) to find the .text
// bytes, the function symbols and the relocations against .text; every index read from the
// file is checked too.
class ElfObject : private ObjectBytes {
 public:
  explicit ElfObject(const std::string& bytes) : ObjectBytes(bytes, "ELF") {
    constexpr std::size_t kHeaderBytes = 64, kSectionHeaderBytes = 64;
    if (bytes.size() < kHeaderBytes) {
      malformed(fmt::format("{} bytes, fewer than an ELF64 header", bytes.size()));
    }
    if (bytes.compare(0, 4,
                      "\x7f"
                      "ELF") != 0 ||
        bytes[4] != 2 || bytes[5] != 1) {
      malformed("not a little-endian ELF64 object");
    }
    const std::uint64_t table = read<std::uint64_t>(0x28);
    const std::uint16_t entry_size = read<std::uint16_t>(0x3a);
    const std::uint16_t count = read<std::uint16_t>(0x3c);
    const std::uint16_t names_index = read<std::uint16_t>(0x3e);
    if (count == 0) malformed("no section headers (e_shnum is 0)");
    if (entry_size < kSectionHeaderBytes) {
      malformed(fmt::format("section headers of {} bytes (e_shentsize), ELF64's are {}", entry_size,
                            kSectionHeaderBytes));
    }
    require_in_file(table, std::uint64_t{count} * entry_size, "the section header table");
    for (std::uint16_t i = 0; i < count; ++i) {
      const std::uint64_t at = table + std::uint64_t{i} * entry_size;
      Section section{read<std::uint32_t>(at),
                      read<std::uint32_t>(at + 4),
                      read<std::uint64_t>(at + 0x18),
                      read<std::uint64_t>(at + 0x20),
                      read<std::uint32_t>(at + 0x28),
                      read<std::uint32_t>(at + 0x2c),
                      {}};
      if (section.type != kNoBits) {
        require_in_file(section.offset, section.size, fmt::format("section {}'s contents", i));
      }
      sections_.push_back(section);
    }
    const Section& names = section_at(names_index, "e_shstrndx (the section name table)");
    for (std::size_t i = 0; i < sections_.size(); ++i) {
      sections_[i].name =
          string_at(names, sections_[i].name_offset, fmt::format("section {}'s name", i));
    }
  }

  std::size_t text_index() const { return index_of(".text"); }

  std::string text() const {
    const Section& text = sections_[text_index()];
    if (text.type == kNoBits) malformed(".text has no contents in the file (SHT_NOBITS)");
    return bytes_.substr(text.offset, text.size);
  }

  // Global and local symbols defined in .text: name -> (value, size), each inside .text.
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> text_symbols() const {
    constexpr std::uint64_t kSymbolBytes = 24;
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> symbols;
    const Section& symtab = sections_[index_of(".symtab")];
    const Section& strtab = section_at(symtab.link, "the symbol table's sh_link (string table)");
    const std::uint64_t text_size = sections_[text_index()].size;
    for (std::uint64_t i = 0; i < symtab.size / kSymbolBytes; ++i) {
      const std::uint64_t at = symtab.offset + i * kSymbolBytes;
      if (read<std::uint16_t>(at + 6) != text_index()) continue;
      const std::string name =
          string_at(strtab, read<std::uint32_t>(at), fmt::format("symbol {}'s name", i));
      const std::uint64_t value = read<std::uint64_t>(at + 8), size = read<std::uint64_t>(at + 16);
      if (value > text_size || size > text_size - value) {
        malformed(fmt::format("symbol {} ({:#x} bytes at {:#x}) lies outside .text ({:#x} bytes)",
                              name, size, value, text_size));
      }
      symbols[name] = {value, size};
    }
    return symbols;
  }

  // Offsets into .text that relocations will patch (4 bytes each).
  std::set<std::uint64_t> relocated_offsets() const {
    constexpr std::uint64_t kRelocationBytes = 24;
    std::set<std::uint64_t> offsets;
    for (const Section& section : sections_) {
      if (section.type != kRela || section.info != text_index()) continue;
      for (std::uint64_t i = 0; i < section.size / kRelocationBytes; ++i) {
        offsets.insert(read<std::uint64_t>(section.offset + i * kRelocationBytes));
      }
    }
    return offsets;
  }

 private:
  static constexpr std::uint32_t kRela = 4, kNoBits = 8;  // sh_type values

  struct Section {
    std::uint32_t name_offset, type;
    std::uint64_t offset, size;
    std::uint32_t link, info;
    std::string name;
  };

  const Section& section_at(std::uint64_t index, const std::string& what) const {
    if (index >= sections_.size()) {
      malformed(fmt::format("{} is section {}, but the object has {} sections", what, index,
                            sections_.size()));
    }
    return sections_[index];
  }

  // The NUL-terminated string at `offset` in a string table section; it must end inside
  // the table.
  std::string string_at(const Section& table, std::uint64_t offset, const std::string& what) const {
    if (table.type == kNoBits || offset >= table.size) {
      malformed(fmt::format("{} at offset {:#x} lies past its string table ({:#x} bytes)", what,
                            offset, table.size));
    }
    const std::string_view rest(bytes_.data() + table.offset + offset, table.size - offset);
    const std::size_t end = rest.find('\0');
    if (end == std::string_view::npos) malformed(what + " runs past the end of its string table");
    return std::string(rest.substr(0, end));
  }

  std::size_t index_of(const std::string& name) const {
    for (std::size_t i = 0; i < sections_.size(); ++i) {
      if (sections_[i].name == name) return i;
    }
    malformed("the object has no " + name + " section");
  }

  std::vector<Section> sections_;
};

// Just enough COFF (x86-64, as GNU as for mingw-w64 and clang for the MSVC target write it)
// to find the .text bytes, the symbols defined in .text and the relocations against it.
class CoffObject : private ObjectBytes {
 public:
  static constexpr std::uint16_t kMachineAmd64 = 0x8664;

  explicit CoffObject(const std::string& bytes) : ObjectBytes(bytes, "COFF") {
    constexpr std::uint64_t kHeaderBytes = 20, kSectionBytes = 40;
    if (bytes.size() < kHeaderBytes) malformed("fewer bytes than a COFF header");
    if (read<std::uint16_t>(0) != kMachineAmd64) malformed("not an x86-64 COFF object");
    const std::uint16_t sections = read<std::uint16_t>(2);
    symbols_at_ = read<std::uint32_t>(8);
    symbol_count_ = read<std::uint32_t>(12);
    const std::uint64_t table = kHeaderBytes + read<std::uint16_t>(16);
    require_in_file(table, std::uint64_t{sections} * kSectionBytes, "the section table");
    for (std::uint16_t i = 0; i < sections; ++i) {
      const std::uint64_t at = table + std::uint64_t{i} * kSectionBytes;
      if (bytes_.compare(at, 8, std::string(".text\0\0\0", 8)) != 0) continue;
      text_index_ = i + 1;  // COFF section numbers count from 1
      text_size_ = read<std::uint32_t>(at + 16);
      text_at_ = read<std::uint32_t>(at + 20);
      relocations_at_ = read<std::uint32_t>(at + 24);
      relocation_count_ = read<std::uint16_t>(at + 32);
      break;
    }
    if (text_index_ == 0) malformed("no .text section");
    require_in_file(text_at_, text_size_, ".text's contents");
    require_in_file(relocations_at_, std::uint64_t{relocation_count_} * 10, ".text's relocations");
    require_in_file(symbols_at_, std::uint64_t{symbol_count_} * kSymbolBytes, "the symbol table");
  }

  std::string text() const { return bytes_.substr(text_at_, text_size_); }

  // Name -> (offset in .text, 0): COFF symbols carry no size.
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> text_symbols() const {
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> symbols;
    const std::uint64_t strings = symbols_at_ + std::uint64_t{symbol_count_} * kSymbolBytes;
    for (std::uint32_t i = 0; i < symbol_count_; ++i) {
      const std::uint64_t at = symbols_at_ + std::uint64_t{i} * kSymbolBytes;
      const auto section = read<std::int16_t>(at + 12);
      const std::uint8_t aux = static_cast<std::uint8_t>(bytes_[at + 17]);
      if (section == static_cast<std::int16_t>(text_index_)) {
        std::string name;
        if (read<std::uint32_t>(at) == 0) {  // a long name: an offset into the string table
          const std::uint64_t offset = strings + read<std::uint32_t>(at + 4);
          if (offset >= bytes_.size()) malformed("a symbol name past the end of the file");
          name = std::string(bytes_.c_str() + offset,
                             strnlen(bytes_.c_str() + offset, bytes_.size() - offset));
        } else {
          name = bytes_.substr(at, 8);
          name.resize(strnlen(name.c_str(), 8));
        }
        const std::uint32_t value = read<std::uint32_t>(at + 8);
        if (value > text_size_) malformed("symbol " + name + " lies past the end of .text");
        symbols[name] = {value, 0};
      }
      i += aux;
    }
    return symbols;
  }

  std::set<std::uint64_t> relocated_offsets() const {
    std::set<std::uint64_t> offsets;
    for (std::uint32_t i = 0; i < relocation_count_; ++i)
      offsets.insert(read<std::uint32_t>(relocations_at_ + std::uint64_t{i} * 10));
    return offsets;
  }

 private:
  static constexpr std::uint64_t kSymbolBytes = 18;

  std::uint32_t symbols_at_ = 0, symbol_count_ = 0;
  std::uint32_t text_index_ = 0, text_size_ = 0, text_at_ = 0;
  std::uint32_t relocations_at_ = 0, relocation_count_ = 0;
};

bool is_coff_amd64(const std::string& bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x64 &&
         static_cast<unsigned char>(bytes[1]) == 0x86;
}

std::string hex_bytes(const std::string& bytes, std::size_t from, std::size_t count) {
  std::string out;
  for (std::size_t i = from; i < std::min(bytes.size(), from + count); ++i) {
    out += fmt::format("{:02x}", static_cast<unsigned char>(bytes[i]));
  }
  return out;
}

}  // namespace

namespace {

// One function of the object against asmjit's encoding of it; `size` is the object's (ELF)
// or none (COFF, 0: asmjit's size is compared, within .text).
void compare_function(const Program& program, const std::string& name_in_object,
                      const Function& function, const writers::EncodedFunction& mine,
                      const std::string& text, const std::string& code,
                      const std::map<std::string, std::pair<std::uint64_t, std::uint64_t>>& symbols,
                      const std::set<std::uint64_t>& relocated, ProofResult& result) {
  const auto symbol = symbols.find(name_in_object);
  if (symbol == symbols.end()) {
    result.mismatches.push_back(name_in_object + ": not defined in the object's .text");
    return;
  }
  const auto [address, object_size] = symbol->second;
  ++result.functions_compared;
  const std::uint64_t size = object_size != 0 ? object_size : mine.size;
  if (size != mine.size || address > text.size() || size > text.size() - address) {
    result.mismatches.push_back(fmt::format("{}: {} bytes from the assembler, {} from asmjit",
                                            name_in_object, size, mine.size));
    return;
  }
  std::vector<const Instruction*> instructions;
  for (const Item& item : function.items) {
    if (const auto* instruction = std::get_if<Instruction>(&item)) {
      instructions.push_back(instruction);
    }
  }
  for (std::size_t i = 0; i < size; ++i) {
    bool masked = false;
    for (std::uint64_t reloc : relocated)
      masked |= address + i >= reloc && address + i < reloc + 4;
    if (masked) {
      ++result.relocation_bytes_masked;
      continue;
    }
    ++result.bytes_compared;
    if (text.at(address + i) == code.at(mine.offset + i)) continue;
    std::size_t index = 0;
    while (index + 1 < mine.instruction_offsets.size() &&
           mine.instruction_offsets[index + 1] <= i) {
      ++index;
    }
    const std::size_t start = mine.instruction_offsets.at(index);
    const std::size_t length =
        (index + 1 < mine.instruction_offsets.size() ? mine.instruction_offsets[index + 1]
                                                     : mine.size) -
        start;
    result.mismatches.push_back(fmt::format(
        "{}: instruction {} '{}' at +{:#x}: assembler {} , asmjit {}", name_in_object, index,
        writers::format_instruction(program, *instructions.at(index)), start,
        hex_bytes(text, address + start, length), hex_bytes(code, mine.offset + start, length)));
    return;
  }
}

}  // namespace

ProofResult prove_encoding(const Program& program, const std::string& object) {
  const writers::EncodedProgram encoded = writers::encode(program);
  const std::string code(encoded.code.begin(), encoded.code.end());
  ProofResult result;
  if (is_coff_amd64(object)) {
    // Windows x64: the System V functions under <symbol>_sysv, then the Windows entries.
    const CoffObject coff(object);
    const std::string text = coff.text();
    const auto symbols = coff.text_symbols();
    const auto relocated = coff.relocated_offsets();
    for (std::size_t f = 0; f < program.functions.size(); ++f) {
      compare_function(program, program.functions[f].symbol + "_sysv", program.functions[f],
                       encoded.functions[f], text, code, symbols, relocated, result);
    }
    for (std::size_t f = 0; f < program.win64_entries.size(); ++f) {
      compare_function(program, program.win64_entries[f].symbol, program.win64_entries[f],
                       encoded.win64_entries[f], text, code, symbols, relocated, result);
    }
    return result;
  }
  const ElfObject elf(object);
  const std::string text = elf.text();
  const auto symbols = elf.text_symbols();
  const auto relocated = elf.relocated_offsets();
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    compare_function(program, program.functions[f].symbol, program.functions[f],
                     encoded.functions[f], text, code, symbols, relocated, result);
  }
  return result;
}

}  // namespace spongegen::audit
