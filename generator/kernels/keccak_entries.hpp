// What every Keccak-f[1600] kernel shares, whatever its ISA: a permute entry and one fused
// absorb entry per rate (named and documented alike), iota's round-constant table, and the
// figures its file header quotes.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "isa/amd64/amd64.hpp"
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

// The entry that absorbs block_count blocks a state in one call: blocks[s] points at state
// s's block_count consecutive rate blocks (with one state, blocks points at them). Named
// <absorb entry>_blocks.
Function& add_absorb_blocks_entry(BuiltKernel& kernel, const keccak::RoundVariant& variant,
                                  std::string_view kernel_suffix, const keccak::Rate& rate,
                                  int states);

void add_round_constant_table(Program& program, LabelId label);

// amd64 multi-state absorb entries: prefetcht0 of each cache line of every state's next
// block (at blocks[s] + rate). A caller absorbing long messages (KT128's 8 KiB leaves) reads
// four or eight streams at once, which the hardware prefetchers do not keep ahead of (the
// kernels' headers give the figures). A hint, not a load: past the end of a message it reads
// nothing and cannot fault.
void emit_prefetch_next_blocks(amd64::Emitter& e, const keccak::Rate& rate,
                               std::span<const Reg> blocks);

// What a kernel's file header quotes about its code, from its audit (at the default issue
// width; HeaderInputs), so the header and `spongegen audit` can never disagree.
struct HeaderFigures {
  audit::EntryAudit permute;                    // the permute entry
  std::size_t largest_absorb_instructions = 0;  // static, of the largest absorb entry
  // Static, of the largest multi-state entry that loops over blocks (its rounds included).
  std::size_t largest_block_entry_instructions = 0;
  std::size_t block_entry_saved_registers = 0;  // the most any of those saves
  int issue_width = audit::kDefaultIssueWidth;
};
HeaderFigures header_figures(const audit::KernelAudit& audit, const std::string& permute_symbol);

// The paragraph the multi-state kernels' headers share about their block entries: the bound
// of one call.
std::vector<std::string> block_entry_bound_lines();
// How the amd64 kernels' figures of their block entries were taken, up to the table's
// heading.
std::vector<std::string> block_entry_measured_lines();

// "a, b and c", for names in header prose.
std::string english_list(const std::vector<std::string>& names);

// "two", "twelve": a count in header prose (one to twelve; larger counts as digits).
std::string count_word(int count);

}  // namespace spongegen::kernels
