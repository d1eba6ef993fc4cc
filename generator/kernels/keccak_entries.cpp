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

EntrySizes entry_sizes(const Program& program, const std::string& permute_symbol) {
  EntrySizes sizes;
  for (const Function& function : program.functions) {
    const auto count = static_cast<std::size_t>(
        std::count_if(function.items.begin(), function.items.end(),
                      [](const Item& item) { return std::holds_alternative<Instruction>(item); }));
    if (function.symbol == permute_symbol) {
      sizes.permute = count;
    } else {
      sizes.largest_absorb = std::max(sizes.largest_absorb, count);
    }
  }
  return sizes;
}

}  // namespace spongegen::kernels
