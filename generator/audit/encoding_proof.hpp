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
  std::vector<std::string> mismatches;  // one per function that differs, naming the instruction
};

// `object` is the object the system assembler made from the kernel's .S file: ELF64, or an
// x86-64 COFF object (Windows: the System V functions as <symbol>_sysv and the Windows
// entries under the C names are compared). Throws MalformedObject when it is not a
// well-formed one (readers/object_file.hpp).
ProofResult prove_encoding(const Program& program, const std::string& object);

}  // namespace spongegen::audit
