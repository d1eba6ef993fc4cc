// What every Keccak-f[1600] kernel shares, whatever its ISA: a permute entry and one fused
// absorb entry per rate (named and documented alike), iota's round-constant table, and the
// figures its file header quotes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernel.hpp"
#include "model/keccak.hpp"
#include "program/audit_figures.hpp"

namespace spongegen::kernels {

// "sponge_keccakp1600_12_amd64_bmi2_absorb168": the variant's stem, the kernel's suffix,
// and for an absorb entry its rate.
std::string entry_symbol(const keccak::RoundVariant& variant, std::string_view kernel_suffix,
                         int absorb_rate_bytes);

// Each adds the entry's function, with its EntryShape, to the kernel's Program and returns
// it for the builder's emitter (valid until the next function is added). A kernel of
// `states` > 1 permutes that many independent states, lane-interleaved (lane i of state s
// at state[states * i + s]); its absorb entries take one block pointer per state.
Function& add_permute_entry(BuiltKernel& kernel, const keccak::RoundVariant& variant,
                            std::string_view kernel_suffix, int states = 1);
Function& add_absorb_entry(BuiltKernel& kernel, const keccak::RoundVariant& variant,
                           std::string_view kernel_suffix, const keccak::Rate& rate,
                           int states = 1);

void add_round_constant_table(Program& program, LabelId label);

// What a kernel's file header quotes about its code, from its audit (at the default issue
// width; HeaderInputs), so the header and `spongegen audit` can never disagree.
struct HeaderFigures {
  audit::EntryAudit permute;                    // the permute entry
  std::size_t largest_absorb_instructions = 0;  // static, of the largest absorb entry
  int issue_width = audit::kDefaultIssueWidth;
};
HeaderFigures header_figures(const audit::KernelAudit& audit, const std::string& permute_symbol);

// "a, b and c", for names in header prose.
std::string english_list(const std::vector<std::string>& names);

// "two", "twelve": a count in header prose (one to twelve; larger counts as digits).
std::string count_word(int count);

}  // namespace spongegen::kernels
