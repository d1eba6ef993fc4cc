#include "audit/encoding_proof.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <set>

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

// One function of the object against asmjit's encoding of it; `size` is the object's (ELF)
// or none (COFF, 0: asmjit's size is compared, within .text).
void compare_function(const Program& program, const std::string& name_in_object,
                      const Function& function, const writers::EncodedFunction& mine,
                      const readers::ObjectText& object, const std::string& code,
                      ProofResult& result) {
  const std::string& text = object.bytes;
  const auto symbol = object.symbols.find(name_in_object);
  if (symbol == object.symbols.end()) {
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
    for (std::uint64_t reloc : object.relocated_offsets)
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
  // Windows x64 (COFF): the System V functions under <symbol>_sysv, then the Windows entries.
  const bool coff = readers::is_coff_amd64(object);
  const readers::ObjectText text =
      coff ? readers::read_coff_text(object) : readers::read_elf_text(object);
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    compare_function(program, program.functions[f].symbol + (coff ? "_sysv" : ""),
                     program.functions[f], encoded.functions[f], text, code, result);
  }
  if (!coff) return result;
  for (std::size_t f = 0; f < program.win64_entries.size(); ++f) {
    compare_function(program, program.win64_entries[f].symbol, program.win64_entries[f],
                     encoded.win64_entries[f], text, code, result);
  }
  return result;
}

}  // namespace spongegen::audit
