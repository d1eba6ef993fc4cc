// The encoding proof: the system assembler, given the committed .S, must produce exactly
// the bytes asmjit produces for the Program the generator builds. Then the text a reviewer
// audits, and the machine code the generator validated and JIT-tested, are the same code.
#pragma once

#include <string>
#include <vector>

#include "program/program.hpp"

namespace spongegen::audit {

struct ProofResult {
  std::size_t functions_compared = 0;
  std::size_t bytes_compared = 0;
  std::size_t relocation_bytes_masked = 0;
  // One per region that differs, named: "function <symbol>" (with the instruction),
  // "table <label>", "alignment padding before <region>", or the bytes past the Program's end.
  std::vector<std::string> mismatches;
};

// `object` is the object the system assembler made from the kernel's .S file: ELF64, or an
// x86-64 COFF object (Windows: the System V functions as <symbol>_sysv and the Windows
// entries under the C names are compared). Every byte of its .text is compared with asmjit's
// layout of the Program: the functions, the constant tables, the alignment padding between
// them, and no byte past the end (relocated bytes masked). Throws MalformedObject when it is
// not a well-formed one (readers/object_file.hpp).
ProofResult prove_encoding(const Program& program, const std::string& object);

}  // namespace spongegen::audit
