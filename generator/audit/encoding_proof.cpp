#include "audit/encoding_proof.hpp"

#include <fmt/format.h>

#include <cstring>
#include <map>
#include <set>

#include "writers/asmjit_encoder.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::audit {
namespace {

// Just enough ELF64 (little-endian, as on x86-64 and AArch64 Linux) to find the .text
// bytes, the function symbols and the relocations against .text.
class ElfObject {
 public:
  explicit ElfObject(const std::string& bytes) : bytes_(bytes) {
    if (bytes.size() < 64 ||
        bytes.compare(0, 4,
                      "\x7f"
                      "ELF") != 0 ||
        bytes[4] != 2 || bytes[5] != 1) {
      throw GenerationError("not a little-endian ELF64 object");
    }
    const std::uint64_t section_headers = read<std::uint64_t>(0x28);
    const std::uint16_t header_size = read<std::uint16_t>(0x3a);
    const std::uint16_t count = read<std::uint16_t>(0x3c);
    const std::uint16_t names_index = read<std::uint16_t>(0x3e);
    for (std::uint16_t i = 0; i < count; ++i) {
      const std::size_t at = section_headers + std::size_t{i} * header_size;
      sections_.push_back({read<std::uint32_t>(at),
                           read<std::uint32_t>(at + 4),
                           read<std::uint64_t>(at + 0x18),
                           read<std::uint64_t>(at + 0x20),
                           read<std::uint32_t>(at + 0x28),
                           read<std::uint32_t>(at + 0x2c),
                           {}});
    }
    const Section& names = sections_.at(names_index);
    for (Section& section : sections_)
      section.name = string_at(names, section.name_offset);
  }

  std::size_t text_index() const { return index_of(".text"); }

  std::string text() const {
    const Section& text = sections_.at(text_index());
    return bytes_.substr(text.offset, text.size);
  }

  // Global and local symbols defined in .text: name -> (value, size).
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> text_symbols() const {
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> symbols;
    const Section& symtab = sections_.at(index_of(".symtab"));
    const Section& strtab = sections_.at(symtab.link);
    for (std::uint64_t at = symtab.offset; at + 24 <= symtab.offset + symtab.size; at += 24) {
      if (read<std::uint16_t>(at + 6) != text_index()) continue;
      symbols[string_at(strtab, read<std::uint32_t>(at))] = {read<std::uint64_t>(at + 8),
                                                             read<std::uint64_t>(at + 16)};
    }
    return symbols;
  }

  // Offsets into .text that relocations will patch (4 bytes each).
  std::set<std::uint64_t> relocated_offsets() const {
    std::set<std::uint64_t> offsets;
    for (const Section& section : sections_) {
      if (section.type != 4 /* SHT_RELA */ || section.info != text_index()) continue;
      for (std::uint64_t at = section.offset; at + 24 <= section.offset + section.size; at += 24) {
        offsets.insert(read<std::uint64_t>(at));
      }
    }
    return offsets;
  }

 private:
  struct Section {
    std::uint32_t name_offset, type;
    std::uint64_t offset, size;
    std::uint32_t link, info;
    std::string name;
  };

  template <typename T>
  T read(std::size_t at) const {
    if (at + sizeof(T) > bytes_.size()) throw GenerationError("truncated ELF object");
    T value;
    std::memcpy(&value, bytes_.data() + at, sizeof(T));
    return value;
  }

  std::string string_at(const Section& table, std::uint32_t offset) const {
    return std::string(bytes_.c_str() + table.offset + offset);
  }

  std::size_t index_of(const std::string& name) const {
    for (std::size_t i = 0; i < sections_.size(); ++i) {
      if (sections_[i].name == name) return i;
    }
    throw GenerationError("the object has no " + name + " section");
  }

  const std::string& bytes_;
  std::vector<Section> sections_;
};

std::string hex_bytes(const std::string& bytes, std::size_t from, std::size_t count) {
  std::string out;
  for (std::size_t i = from; i < std::min(bytes.size(), from + count); ++i) {
    out += fmt::format("{:02x}", static_cast<unsigned char>(bytes[i]));
  }
  return out;
}

}  // namespace

ProofResult prove_encoding(const Program& program, const std::string& object) {
  const ElfObject elf(object);
  const std::string text = elf.text();
  const auto symbols = elf.text_symbols();
  const auto relocated = elf.relocated_offsets();
  const writers::EncodedProgram encoded = writers::encode(program);
  const std::string code(encoded.code.begin(), encoded.code.end());
  ProofResult result;
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    const Function& function = program.functions[f];
    const writers::EncodedFunction& mine = encoded.functions[f];
    const auto symbol = symbols.find(function.symbol);
    if (symbol == symbols.end()) {
      result.mismatches.push_back(function.symbol + ": not defined in the object's .text");
      continue;
    }
    const auto [address, size] = symbol->second;
    ++result.functions_compared;
    if (size != mine.size) {
      result.mismatches.push_back(fmt::format("{}: {} bytes from the assembler, {} from asmjit",
                                              function.symbol, size, mine.size));
      continue;
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
          "{}: instruction {} '{}' at +{:#x}: assembler {} , asmjit {}", function.symbol, index,
          writers::format_instruction(program, *instructions.at(index)), start,
          hex_bytes(text, address + start, length), hex_bytes(code, mine.offset + start, length)));
      break;
    }
  }
  return result;
}

}  // namespace spongegen::audit
