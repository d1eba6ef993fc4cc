// Invariants every kernel must keep, checked on its Program by following what each entry
// executes. Generation fails when one is broken; the audit reports them; the tests run them.
//
//  - secret independence: no memory address and no conditional branch depends on data
//    loaded from the state, the block or the stack (only on the argument pointers, the
//    stack pointer, constants and values derived from those);
//  - the stack: every stack access lies inside what the entry allocated (below its entry
//    stack pointer, at or above the current one: no red zone, no caller frame), and the
//    stack pointer is back where it started at the return;
//  - no residue: at the return, no slot of the released frame still holds data derived
//    from the state or the input (the last write to each such slot stored public data,
//    e.g. zero); saves of callee-saved registers hold the caller's values and are exempt;
//  - no register residue: at every return, each caller-saved register (general-purpose or
//    vector) the call wrote was last written by a zeroing idiom (audit/register_residue.hpp);
//  - the ABI: every callee-saved register the entry writes was saved first, and is
//    restored from the same slot before the return;
//  - Windows unwind (amd64): each function's Windows unwind codes describe the frame its
//    CFI describes, each return follows the epilogue the Windows unwinder recognises (add
//    rsp, the pops in reverse order, ret), nothing else moves the stack pointer, and a
//    function that jumps into another's code builds that function's frame; the Windows
//    entries' epilogues likewise.
#pragma once

#include <string>
#include <vector>

#include "program/program.hpp"

namespace spongegen::audit {

// One message per broken invariant, naming the entry and the instruction; empty if all hold.
std::vector<std::string> check_invariants(const Program& program);

}  // namespace spongegen::audit
