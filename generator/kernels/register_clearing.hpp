// Before it returns, every entry clears the caller-saved registers it wrote, so that no lane
// of the state, the input or a key stays in a register for a later spill (a lazy-binding PLT
// resolver, a signal frame, any callee) to write where nobody wipes it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "program/program.hpp"

namespace spongegen::kernels {

// What the clearing added to a Program.
struct ClearingSummary {
  std::size_t returns = 0;           // returns given a clearing sequence
  std::size_t fewest = 0;            // instructions before the fewest-cleared return
  std::size_t most = 0;              // and the most
  std::vector<std::string> cleared;  // the registers cleared at some return, in order
};

// Inserts, right before the epilogue of every return of every function (after the body,
// before the restores: amd64 add rsp / pops; arm64 the loads from the stack and autiasp),
// the zeroing of each caller-saved register some call reaching that return leaves holding
// data (audit/register_residue.hpp): amd64 `xor r32, r32` per general-purpose register,
// one vzeroall for any of ymm0-ymm15, `vpxorq zmmN, zmmN, zmmN` for zmm16-zmm31; arm64
// `eor xN, xN, xN` and `eor vN.16b, vN.16b, vN.16b`. The CFI and the epilogue forms are
// untouched. Run on the finished Program, before the Windows x64 entries are added.
ClearingSummary emit_clear_caller_saved(Program& program);

// The header lines saying so, with the cost measured on the program's kernel where it was
// measured (for a Go file, on its System V file).
std::vector<std::string> clearing_header_lines(const Program& program,
                                               const ClearingSummary& summary);

}  // namespace spongegen::kernels
