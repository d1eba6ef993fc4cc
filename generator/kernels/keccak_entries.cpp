#include "kernels/keccak_entries.hpp"
#include <array>

#include <fmt/format.h>

#include <algorithm>

namespace spongegen::kernels {
namespace {

Function& add_entry(BuiltKernel& kernel, std::string symbol, std::string summary,
                    EntryShape shape) {
  kernel.program.functions.push_back(
      Function{std::move(symbol), std::move(summary), std::move(shape), {}});
  return kernel.program.functions.back();
}

std::string permutation_title(const keccak::RoundVariant& variant) {
  return variant.rounds == keccak::kRounds ? "Keccak-f[1600]"
                                           : fmt::format("Keccak-p[1600, {}]", variant.rounds);
}

}  // namespace

std::string entry_symbol(const keccak::RoundVariant& variant, std::string_view kernel_suffix,
                         int absorb_rate_bytes) {
  std::string symbol = fmt::format("sponge_{}_{}", variant.symbol_stem, kernel_suffix);
  if (absorb_rate_bytes != 0) symbol += fmt::format("_absorb{}", absorb_rate_bytes);
  return symbol;
}

Function& add_permute_entry(BuiltKernel& kernel, const keccak::RoundVariant& variant,
                            std::string_view kernel_suffix, int states) {
  const std::string summary =
      states == 1 ? permutation_title(variant) + " on the 25 lanes at state."
                  : fmt::format("{} on each of the {} lane-interleaved states at state.",
                                permutation_title(variant), states);
  return add_entry(kernel, entry_symbol(variant, kernel_suffix, 0), summary,
                   EntryShape{EntryKind::permute,
                              std::string(variant.permutation),
                              variant.rounds,
                              0,
                              states,
                              {{"uint64_t", "state", keccak::kLanes * states}}});
}

Function& add_absorb_entry(BuiltKernel& kernel, const keccak::RoundVariant& variant,
                           std::string_view kernel_suffix, const keccak::Rate& rate, int states) {
  std::vector<Parameter> parameters{{"uint64_t", "state", keccak::kLanes * states}};
  std::string summary;
  if (states == 1) {
    parameters.push_back({"const uint8_t", "block", rate.bytes});
    summary = fmt::format("XOR {} lanes of block into state, then {} ({}).", rate.lanes(),
                          permutation_title(variant), rate.used_by);
  } else {
    parameters.push_back({"const uint8_t* const", "blocks", states});
    summary = fmt::format(
        "XOR {} lanes of blocks[s] into state s for each of the {} states, "
        "then {} on each ({}).",
        rate.lanes(), states, permutation_title(variant), rate.used_by);
  }
  return add_entry(kernel, entry_symbol(variant, kernel_suffix, rate.bytes), summary,
                   EntryShape{EntryKind::absorb, std::string(variant.permutation), variant.rounds,
                              rate.bytes, states, std::move(parameters)});
}

Function& add_absorb_blocks_entry(BuiltKernel& kernel, const keccak::RoundVariant& variant,
                                  std::string_view kernel_suffix, const keccak::Rate& rate,
                                  int states) {
  std::vector<Parameter> parameters{{"uint64_t", "state", keccak::kLanes * states}};
  std::string summary;
  if (states == 1) {
    parameters.push_back({"const uint8_t*", "blocks", 0});
    summary = fmt::format(
        "For each of block_count consecutive blocks at blocks: XOR its {} lanes into state, then "
        "{} ({}).",
        rate.lanes(), permutation_title(variant), rate.used_by);
  } else {
    parameters.push_back({"const uint8_t* const", "blocks", states});
    summary = fmt::format(
        "For each of block_count blocks: XOR the next {} lanes of blocks[s] into state s for "
        "each of the {} states, then {} on each ({}).",
        rate.lanes(), states, permutation_title(variant), rate.used_by);
  }
  parameters.push_back({"size_t", "block_count", 0});
  return add_entry(kernel, entry_symbol(variant, kernel_suffix, rate.bytes) + "_blocks", summary,
                   EntryShape{EntryKind::absorb, std::string(variant.permutation), variant.rounds,
                              rate.bytes, states, std::move(parameters)});
}

void add_round_constant_table(Program& program, LabelId label) {
  const auto& constants = keccak::model().round_constants;
  program.tables.push_back(QuadTable{
      label, "iota's round constants, one per round", {constants.begin(), constants.end()}});
}

void emit_prefetch_next_blocks(amd64::Emitter& e, const keccak::Rate& rate,
                               std::span<const Reg> blocks) {
  constexpr int kCacheLineBytes = 64;
  e.comment("the lines of each state's next block, asked for ahead of their use");
  for (const Reg block : blocks) {
    for (int line = 0; line < rate.bytes; line += kCacheLineBytes)
      e.prefetcht0(amd64::sized(1, block, rate.bytes + line));
  }
}

HeaderFigures header_figures(const audit::KernelAudit& audit, const std::string& permute_symbol) {
  HeaderFigures figures;
  figures.issue_width = audit.issue_width;
  bool found = false;
  for (const audit::EntryAudit& entry : audit.entries) {
    if (entry.symbol == permute_symbol) {
      figures.permute = entry;
      found = true;
    } else if (entry.shape.kind == EntryKind::absorb) {
      // A multi-state entry with a block count carries its block loop (and, but for
      // riscv64-v's, its own rounds): counted apart from the entries that jump into the
      // shared rounds.
      const bool block_entry = entry.shape.lanes > 1 && entry.shape.takes_block_count();
      std::size_t& largest = block_entry ? figures.largest_block_entry_instructions
                                         : figures.largest_absorb_instructions;
      largest = std::max(largest, entry.static_instructions);
      if (block_entry) {
        figures.block_entry_saved_registers =
            std::max(figures.block_entry_saved_registers, entry.saved_registers.size());
      }
    }
  }
  if (!found) throw GenerationError(audit.kernel + ": no entry " + permute_symbol);
  return figures;
}

std::vector<std::string> block_entry_bound_lines() {
  return {
      "Bound of a call: block_count permutations, the caller's to choose; nothing in the",
      "kernel limits it, and nothing needs to: the OS preempts native code at any",
      "instruction, and a caller that wants progress or cancellation gets it between",
      "calls. The runtime's calls are one lockstep step each, the blocks until the first",
      "message of the group ends (48 for KT128's 8 KiB leaves).",
  };
}

std::vector<std::string> block_entry_measured_lines() {
  return {
      "Measured (AMD EPYC, Zen 5, family 26 model 2, 2 vCPUs, KVM; 2026-12-04; medians of",
      "9 interleaved repetitions, two runs; bench/sponge_bench --benchmark_filter=",
      "kt128-leaf-blocks): the 48 whole blocks of KT128's leaves, the kernel's states a",
      "group of 8 KiB chunks, for all the leaves of 1 and 16 MiB:",
      "                                   1 MiB             16 MiB",
  };
}

std::string english_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

std::string count_word(int count) {
  constexpr std::array<std::string_view, 13> kWords = {"zero", "one",    "two",   "three", "four",
                                                       "five", "six",    "seven", "eight", "nine",
                                                       "ten",  "eleven", "twelve"};
  if (count >= 0 && count < static_cast<int>(kWords.size())) {
    return std::string(kWords[static_cast<std::size_t>(count)]);
  }
  return std::to_string(count);
}

}  // namespace spongegen::kernels
