#include "readers/elf_object.hpp"

#include <fmt/format.h>

#include <string_view>
#include <vector>

namespace spongegen::readers {
namespace {

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

}  // namespace

ObjectText read_elf_text(const std::string& object) {
  const ElfObject elf(object);
  return ObjectText{elf.text(), elf.text_symbols(), elf.relocated_offsets()};
}

}  // namespace spongegen::readers
