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

void add_round_constant_table(Program& program, LabelId label) {
  const auto& constants = keccak::model().round_constants;
  program.tables.push_back(QuadTable{
      label, "iota's round constants, one per round", {constants.begin(), constants.end()}});
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
      figures.largest_absorb_instructions =
          std::max(figures.largest_absorb_instructions, entry.static_instructions);
    }
  }
  if (!found) throw GenerationError(audit.kernel + ": no entry " + permute_symbol);
  return figures;
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
