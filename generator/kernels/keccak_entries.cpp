#include "kernels/keccak_entries.hpp"

#include <algorithm>

namespace spongegen::kernels {
namespace {

Function& add_entry(BuiltKernel& kernel, std::string symbol, std::string signature,
                    std::string summary, int absorb_rate_bytes) {
  kernel.entries.push_back(Entry{symbol, absorb_rate_bytes});
  kernel.program.functions.push_back(
      Function{std::move(symbol), std::move(signature), std::move(summary), {}});
  return kernel.program.functions.back();
}

}  // namespace

Function& add_permute_entry(BuiltKernel& kernel, const std::string& permute_symbol) {
  return add_entry(kernel, permute_symbol, "void " + permute_symbol + "(uint64_t state[25])",
                   "Keccak-f[1600] on the 25 lanes at state.", 0);
}

Function& add_absorb_entry(BuiltKernel& kernel, const std::string& permute_symbol,
                           const keccak::Rate& rate) {
  const std::string symbol = permute_symbol + "_absorb" + std::to_string(rate.bytes);
  return add_entry(kernel, symbol,
                   "void " + symbol + "(uint64_t state[25], const uint8_t block[" +
                       std::to_string(rate.bytes) + "])",
                   "XOR " + std::to_string(rate.lanes()) +
                       " lanes of block into state, then permute (" + std::string(rate.used_by) +
                       ").",
                   rate.bytes);
}

void add_round_constant_table(Program& program, LabelId label) {
  const auto& constants = keccak::model().round_constants;
  program.tables.push_back(QuadTable{
      label, "iota's round constants, one per round", {constants.begin(), constants.end()}});
}

HeaderFigures header_figures(const Program& program, const std::string& permute_symbol) {
  HeaderFigures figures;
  bool found = false;
  for (const audit::EntryAudit& entry :
       audit::audit_program(program, audit::kDefaultIssueWidth).entries) {
    if (entry.symbol == permute_symbol) {
      figures.permute = entry;
      found = true;
    } else {
      figures.largest_absorb_instructions =
          std::max(figures.largest_absorb_instructions, entry.static_instructions);
    }
  }
  if (!found) throw GenerationError(program.kernel_name + ": no entry " + permute_symbol);
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

}  // namespace spongegen::kernels
