// prove-encoding reads an object file the user names: a damaged or hostile one must give
// "malformed ELF object: ..." and exit status 1, never a crash or a library's raw message.
// Each case damages one field of the committed amd64 kernel as the system assembler
// builds it (SPONGEGEN_TEST_OBJECT).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "malformed_object.hpp"

using namespace spongegen_test;

namespace {

// ELF64 header and section header field offsets (the System V gABI).
constexpr std::size_t kShoff = 0x28, kShentsize = 0x3a, kShnum = 0x3c, kShstrndx = 0x3e;
constexpr std::size_t kShName = 0x00, kShOffset = 0x18, kShSize = 0x20, kShLink = 0x28;
constexpr std::size_t kSymbolSize = 24, kStShndx = 6, kStValue = 8;

// Where the section header of section `index` starts (the object is the trusted original).
std::size_t section_header(const std::string& object, std::size_t index) {
  return get<std::uint64_t>(object, kShoff) + index * get<std::uint16_t>(object, kShentsize);
}

std::size_t section_index(const std::string& object, const std::string& name) {
  const std::size_t names = section_header(object, get<std::uint16_t>(object, kShstrndx));
  const std::size_t names_offset = get<std::uint64_t>(object, names + kShOffset);
  for (std::size_t i = 0; i < get<std::uint16_t>(object, kShnum); ++i) {
    const std::size_t header = section_header(object, i);
    if (object.c_str() + names_offset + get<std::uint32_t>(object, header + kShName) == name) {
      return i;
    }
  }
  FAIL("the object has no section " << name);
  return 0;
}

}  // namespace

TEST_CASE("prove-encoding reports a malformed ELF object, exit status 1, and does not crash") {
  const std::string original = read_binary_file(SPONGEGEN_TEST_OBJECT);
  const std::size_t text = section_index(original, ".text");
  const std::size_t symtab = section_index(original, ".symtab");
  check_damages(
      SPONGEGEN_TEST_OBJECT, "ELF",
      {
          {"a section name offset past the section name table",
           [&](std::string& o) {
             put<std::uint32_t>(o, section_header(o, text) + kShName, 0xffffff00u);
           }},
          {"a section header table offset that wraps around",
           [](std::string& o) { put<std::uint64_t>(o, kShoff, ~std::uint64_t{0} - 1); }},
          {"a section header table past the end of the file",
           [](std::string& o) { put<std::uint64_t>(o, kShoff, o.size() - 8); }},
          {"e_shstrndx past the last section",
           [](std::string& o) { put<std::uint16_t>(o, kShstrndx, get<std::uint16_t>(o, kShnum)); }},
          {"section headers smaller than ELF64's",
           [](std::string& o) { put<std::uint16_t>(o, kShentsize, 8); }},
          {"no section headers", [](std::string& o) { put<std::uint16_t>(o, kShnum, 0); }},
          {".text whose offset and size wrap around",
           [&](std::string& o) {
             put<std::uint64_t>(o, section_header(o, text) + kShSize, ~std::uint64_t{0} - 15);
           }},
          {".text past the end of the file",
           [&](std::string& o) {
             put<std::uint64_t>(o, section_header(o, text) + kShOffset, o.size());
           }},
          {"the symbol table's string table index past the last section",
           [&](std::string& o) {
             put<std::uint32_t>(o, section_header(o, symtab) + kShLink, 999);
           }},
          {"a symbol name offset past its string table",
           [&](std::string& o) {
             const std::size_t symbols =
                 get<std::uint64_t>(o, section_header(o, symtab) + kShOffset);
             put<std::uint32_t>(o, symbols + kSymbolSize, 0xfffffff0u);
           }},
          {"a .text symbol past the end of .text",
           [&](std::string& o) {
             const std::size_t header = section_header(o, symtab);
             const std::size_t symbols = get<std::uint64_t>(o, header + kShOffset);
             const std::size_t count = get<std::uint64_t>(o, header + kShSize) / kSymbolSize;
             for (std::size_t i = 0; i < count; ++i) {
               const std::size_t symbol = symbols + i * kSymbolSize;
               if (get<std::uint16_t>(o, symbol + kStShndx) == text) {
                 put<std::uint64_t>(o, symbol + kStValue, ~std::uint64_t{0} - 3);
               }
             }
           }},
          {"a file cut off inside the ELF header", [](std::string& o) { o.resize(40); }},
      });
}
