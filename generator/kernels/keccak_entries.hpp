// What every Keccak-f[1600] kernel shares, whatever its ISA: a permute entry and one fused
// absorb entry per rate (named and documented alike), iota's round-constant table, and the
// entry sizes its file header reports.
#pragma once

#include <string>

#include "kernels/kernel.hpp"
#include "model/keccak.hpp"

namespace spongegen::kernels {

// Each adds the function to the kernel's Program, registers the entry, and returns the
// function for the builder's emitter (valid until the next function is added).
Function& add_permute_entry(BuiltKernel& kernel, const std::string& permute_symbol);
Function& add_absorb_entry(BuiltKernel& kernel, const std::string& permute_symbol,
                           const keccak::Rate& rate);

void add_round_constant_table(Program& program, LabelId label);

// Static instruction counts of the permute entry and of the largest absorb entry.
struct EntrySizes {
  std::size_t permute = 0;
  std::size_t largest_absorb = 0;
};
EntrySizes entry_sizes(const Program& program, const std::string& permute_symbol);

}  // namespace spongegen::kernels
