// Which caller-saved registers an entry leaves holding data at its returns: the analysis
// behind the clearing every entry ends with (kernels/register_clearing.hpp) and the
// invariant that checks it (audit/invariants.hpp).
#pragma once

#include <cstddef>
#include <set>
#include <vector>

#include "audit/semantics.hpp"
#include "program/program.hpp"

namespace spongegen::audit {

// Whether the caller may find `reg` changed after a call of one of the program's entries:
// amd64 System V rax, rcx, rdx, rsi, rdi, r8-r11 and every vector register; Go's ABI0 every
// register but rsp, rbp (the toolchain's epilogue restores it) and r14 (g); arm64 x0-x18
// (Go: x0-x26 but x18) and every vector register (v8-v15's upper halves are the caller's
// to save). Never the stack pointer or the flags.
bool is_caller_saved(const Program& program, const RegisterLocation& reg);

// One return a call of an entry reaches, and the caller-saved registers that hold data there:
// each was written by the call and its last write was not a zeroing idiom (xor or eor of a
// register with itself, vzeroall). arm64's v8-v15 count as clean once the epilogue reloads
// their D or Q register from the stack: that write zeroes the upper half, the caller's to
// save, and restores the lower, the caller's value.
struct ReturnResidue {
  std::size_t function;  // the return's place: Program::functions[function].items[item]
  std::size_t item;
  std::set<RegisterLocation> registers;
};

// Follows what a call of Program::functions[entry] executes (walk_entry), to its return.
ReturnResidue register_residue(const Program& program, std::size_t entry);

}  // namespace spongegen::audit
