#include "readers/coff_object.hpp"

#include <fmt/format.h>

#include <cstring>

namespace spongegen::readers {
namespace {

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

}  // namespace

bool is_coff_amd64(const std::string& object) {
  return object.size() >= 2 && static_cast<unsigned char>(object[0]) == 0x64 &&
         static_cast<unsigned char>(object[1]) == 0x86;
}

ObjectText read_coff_text(const std::string& object) {
  const CoffObject coff(object);
  return ObjectText{coff.text(), coff.text_symbols(), coff.relocated_offsets()};
}

}  // namespace spongegen::readers
