#include "audit/encoding_proof.hpp"

#include "isa/target.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <set>
#include <utility>

#include "readers/coff_object.hpp"
#include "readers/elf_object.hpp"
#include "writers/asmjit_encoder.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::audit {
namespace {

std::string hex_bytes(const std::string& bytes, std::size_t from, std::size_t count) {
  std::string out;
  for (std::size_t i = from; i < std::min(bytes.size(), from + count); ++i) {
    out += fmt::format("{:02x}", static_cast<unsigned char>(bytes[i]));
  }
  return out;
}

bool relocated(const readers::ObjectText& object, std::uint64_t at) {
  for (std::uint64_t reloc : object.relocated_offsets) {
    if (at >= reloc && at < reloc + 4) return true;
  }
  return false;
}

// One function of the object against asmjit's encoding of it; `size` is the object's (ELF)
// or none (COFF, 0: asmjit's size is compared, within .text). The function must also sit
// where asmjit's layout puts it, so that the rest of .text lines up region by region.
void compare_function(const Program& program, const std::string& name_in_object,
                      const Function& function, const writers::EncodedFunction& mine,
                      const readers::ObjectText& object, const std::string& code,
                      ProofResult& result) {
  const std::string& text = object.bytes;
  const auto symbol = object.symbols.find(name_in_object);
  if (symbol == object.symbols.end()) {
    result.mismatches.push_back("function " + name_in_object +
                                ": not defined in the object's .text");
    return;
  }
  const auto [address, object_size] = symbol->second;
  ++result.functions_compared;
  const std::uint64_t size = object_size != 0 ? object_size : mine.size;
  if (size != mine.size || address > text.size() || size > text.size() - address) {
    result.mismatches.push_back(
        fmt::format("function {}: {} bytes from the assembler, {} from asmjit", name_in_object,
                    size, mine.size));
    return;
  }
  if (address != mine.offset) {
    result.mismatches.push_back(
        fmt::format("function {}: at .text+{:#x} in the object, +{:#x} in asmjit's layout",
                    name_in_object, address, mine.offset));
    return;
  }
  std::vector<const Instruction*> instructions;
  for (const Item& item : function.items) {
    if (const auto* instruction = std::get_if<Instruction>(&item)) {
      instructions.push_back(instruction);
    }
  }
  for (std::size_t i = 0; i < size; ++i) {
    if (relocated(object, address + i)) {
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
        "function {}: instruction {} '{}' at +{:#x}: assembler {} , asmjit {}", name_in_object,
        index, writers::format_instruction(program, *instructions.at(index)), start,
        hex_bytes(text, address + start, length), hex_bytes(code, mine.offset + start, length)));
    return;
  }
}

// A stretch of .text as the Program defines it that is not a function: a constant table,
// or the alignment padding before a function or table.
struct Region {
  std::size_t start, end;
  std::string what;
  bool padding;
};

// The tables and the padding of the object's .text, in order; `end` gets where the
// Program's code ends in this object format (ELF: after the tables; COFF: after the
// Windows entries too).
std::vector<Region> data_regions(const writers::EncodedProgram& encoded, bool coff,
                                 std::size_t& end) {
  std::vector<Region> laid;  // every region, functions included
  for (const writers::EncodedFunction& function : encoded.functions) {
    laid.push_back({function.offset, function.offset + function.size,
                    "function " + function.symbol + (coff ? "_sysv" : ""), false});
  }
  for (const writers::EncodedTable& table : encoded.tables)
    laid.push_back({table.offset, table.offset + table.size, "table " + table.label, false});
  if (coff) {
    for (const writers::EncodedFunction& entry : encoded.win64_entries)
      laid.push_back({entry.offset, entry.offset + entry.size, "function " + entry.symbol, false});
  }
  std::sort(laid.begin(), laid.end(),
            [](const Region& a, const Region& b) { return a.start < b.start; });
  std::vector<Region> regions;
  end = 0;
  for (const Region& region : laid) {
    if (region.start > end) {
      regions.push_back({end, region.start, "alignment padding before " + region.what, true});
    }
    if (region.what.rfind("table ", 0) == 0) regions.push_back(region);
    end = std::max(end, region.end);
  }
  return regions;
}

// Where the bytes from `start` to `end` stop being no-ops (`end` if they never do).
std::size_t first_non_filler(Isa isa, const std::string& bytes, std::size_t start,
                             std::size_t end) {
  std::size_t at = start;
  while (at < end) {
    const std::size_t length = target(isa).filler_length(bytes, at, end);
    if (length == 0) return at;
    at += length;
  }
  return end;
}

// The alignment the writer asks for at most (.p2align 6, before a table): a COFF assembler
// pads .text up to it with no-ops.
constexpr std::size_t kLargestAlignment = 64;

// Every byte of .text that is not a function's: the tables byte for byte against asmjit's,
// the alignment padding only no-ops (its fill is the assembler's choice), and nothing past
// the Program's last byte but a COFF section's padding.
void compare_data(Isa isa, const writers::EncodedProgram& encoded, bool coff,
                  const readers::ObjectText& object, const std::string& code, ProofResult& result) {
  const std::string& text = object.bytes;
  std::size_t end = 0;
  for (const Region& region : data_regions(encoded, coff, end)) {
    const std::size_t region_end = std::min(region.end, text.size());
    if (region.padding) {
      result.bytes_compared += region_end - std::min(region.start, region_end);
      const std::size_t at = first_non_filler(isa, text, region.start, region_end);
      if (at == region_end) continue;
      result.mismatches.push_back(fmt::format(
          "{}: at .text+{:#x} (+{:#x}): assembler {} , not a no-op", region.what, at,
          at - region.start, hex_bytes(text, at, std::min<std::size_t>(region_end - at, 8))));
      continue;
    }
    for (std::size_t at = region.start; at < region_end; ++at) {
      if (relocated(object, at)) {
        ++result.relocation_bytes_masked;
        continue;
      }
      ++result.bytes_compared;
      if (text[at] == code.at(at)) continue;
      result.mismatches.push_back(
          fmt::format("{}: at .text+{:#x} (+{:#x}): assembler {} , our encoding {}", region.what,
                      at, at - region.start, hex_bytes(text, at, 1), hex_bytes(code, at, 1)));
      break;
    }
  }
  if (text.size() < end) {
    result.mismatches.push_back(fmt::format(
        ".text ends at +{:#x}, before the Program's code ends at +{:#x}", text.size(), end));
    return;
  }
  const std::size_t past = text.size() - end;
  result.bytes_compared += past;
  // COFF sections, and riscv64's with any object format, end padded to their alignment.
  const bool pads_end = coff || target(isa).assembler_pads_section_end();
  const bool section_padding = pads_end && past < kLargestAlignment &&
                               first_non_filler(isa, text, end, text.size()) == text.size();
  if (past != 0 && !section_padding) {
    result.mismatches.push_back(fmt::format(
        "past the end of the Program's code: .text holds {} bytes from +{:#x} that the Program "
        "does not define",
        past, end));
  }
}

}  // namespace

ProofResult prove_encoding(const Program& program, const std::string& object) {
  const writers::EncodedProgram encoded = writers::encode(program);
  const std::string code(encoded.code.begin(), encoded.code.end());
  ProofResult result;
  // Windows x64 (COFF): the System V functions under <symbol>_sysv, then the Windows entries.
  const bool coff = readers::is_coff_amd64(object);
  const readers::ObjectText text =
      coff ? readers::read_coff_text(object) : readers::read_elf_text(object);
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    compare_function(program, program.functions[f].symbol + (coff ? "_sysv" : ""),
                     program.functions[f], encoded.functions[f], text, code, result);
  }
  if (coff) {
    for (std::size_t f = 0; f < program.win64_entries.size(); ++f) {
      compare_function(program, program.win64_entries[f].symbol, program.win64_entries[f],
                       encoded.win64_entries[f], text, code, result);
    }
  }
  compare_data(program.isa, encoded, coff, text, code, result);
  return result;
}

}  // namespace spongegen::audit
