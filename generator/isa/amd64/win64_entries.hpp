// Windows x64 entries for every amd64 kernel, written once for all of them.
//
// The kernels' code is System V code. A Windows caller passes the arguments in rcx, rdx, r8
// and r9 and expects rdi, rsi and xmm6-xmm15 preserved, which System V lets a function
// clobber. Each Windows entry is a thin adapter in front of one System V entry: it saves rdi
// and rsi (and xmm6-xmm15 when the kernel writes vector registers), moves the arguments into
// the System V registers, calls the System V entry, restores and returns. Both have Windows
// unwind codes (isa/amd64/win64_unwind.hpp), so RtlVirtualUnwind walks out of either.
#pragma once

#include <string>
#include <vector>

#include "program/program.hpp"

namespace spongegen::kernels {

// Fills program.win64_entries (one per function) and returns the Windows x64 decisions and
// costs, as header lines to follow the builder's. Throws for an entry with more than four
// parameters (the fifth would arrive on the Windows stack; no kernel has one).
std::vector<std::string> add_win64_entries(Program& program);

}  // namespace spongegen::kernels
