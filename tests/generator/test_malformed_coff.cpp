// prove-encoding on a damaged or hostile COFF object (the Windows x64 form of an amd64
// kernel): "malformed COFF object: ..." and exit status 1, never a crash. Each case damages
// one field of the committed amd64 kernel as clang assembles it for the MSVC target
// (SPONGEGEN_TEST_COFF_OBJECT).
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "malformed_object.hpp"

using namespace spongegen_test;

namespace {

// IMAGE_FILE_HEADER, IMAGE_SECTION_HEADER and IMAGE_SYMBOL field offsets (the PE/COFF spec).
constexpr std::size_t kOptionalHeaderSize = 16, kSymbolTable = 8, kSymbolCount = 12;
constexpr std::size_t kFileHeaderBytes = 20, kSectionHeaderBytes = 40, kSymbolBytes = 18;
constexpr std::size_t kRawData = 20, kRelocations = 24, kRelocationCount = 32;
constexpr std::size_t kSymbolValue = 8, kSymbolSection = 12, kSymbolAux = 17;

// The section header of .text and its 1-based section number.
std::pair<std::size_t, std::int16_t> text_section(const std::string& object) {
  const std::size_t table = kFileHeaderBytes + get<std::uint16_t>(object, kOptionalHeaderSize);
  for (std::uint16_t i = 0; i < get<std::uint16_t>(object, 2); ++i) {
    const std::size_t header = table + i * kSectionHeaderBytes;
    if (object.compare(header, 6, std::string(".text\0", 6)) == 0) {
      return {header, static_cast<std::int16_t>(i + 1)};
    }
  }
  FAIL("the object has no .text section");
  return {0, 0};
}

// Applies `change` to every symbol record defined in .text.
void for_text_symbols(std::string& object, const std::function<void(std::size_t)>& change) {
  const std::int16_t text = text_section(object).second;
  const std::size_t table = get<std::uint32_t>(object, kSymbolTable);
  for (std::uint32_t i = 0; i < get<std::uint32_t>(object, kSymbolCount); ++i) {
    const std::size_t symbol = table + i * kSymbolBytes;
    if (get<std::int16_t>(object, symbol + kSymbolSection) == text) change(symbol);
    i += static_cast<std::uint8_t>(object[symbol + kSymbolAux]);
  }
}

}  // namespace

TEST_CASE("prove-encoding reports a malformed COFF object, exit status 1, and does not crash") {
  const std::string original = read_binary_file(SPONGEGEN_TEST_COFF_OBJECT);
  const std::size_t text = text_section(original).first;
  REQUIRE(get<std::uint16_t>(original, text + kRelocationCount) > 0);

  check_damages(SPONGEGEN_TEST_COFF_OBJECT, "COFF",
                {
                    {"a file cut off inside the COFF header", [](std::string& o) { o.resize(12); }},
                    {"a section table past the end of the file",
                     [](std::string& o) { put<std::uint16_t>(o, kOptionalHeaderSize, 0xfff0); }},
                    {"no .text section", [&](std::string& o) { o[text + 1] = 'x'; }},
                    {".text's contents past the end of the file",
                     [&](std::string& o) { put<std::uint32_t>(o, text + kRawData, 0xfffffff0u); }},
                    {".text's relocations past the end of the file",
                     [&](std::string& o) {
                       put<std::uint32_t>(o, text + kRelocations,
                                          static_cast<std::uint32_t>(o.size() - 4));
                     }},
                    {"a symbol table past the end of the file",
                     [](std::string& o) { put<std::uint32_t>(o, kSymbolTable, 0xfffffff0u); }},
                    {"more symbols than the file holds",
                     [](std::string& o) { put<std::uint32_t>(o, kSymbolCount, 0x0fffffffu); }},
                    {"a long symbol name past the end of the file",
                     [](std::string& o) {
                       for_text_symbols(o, [&](std::size_t symbol) {
                         if (get<std::uint32_t>(o, symbol) == 0)
                           put<std::uint32_t>(o, symbol + 4, 0x7ffffff0u);
                       });
                     }},
                    {"a .text symbol past the end of .text",
                     [](std::string& o) {
                       for_text_symbols(o, [&](std::size_t symbol) {
                         put<std::uint32_t>(o, symbol + kSymbolValue, 0xfffffff0u);
                       });
                     }},
                });
}
