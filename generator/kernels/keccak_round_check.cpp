#include "kernels/keccak_round_check.hpp"

#include <fmt/format.h>

#include "keccak/keccak_portable.hpp"  // the runtime's portable reference (runtime/src)
#include "model/keccak.hpp"
#include "program/program.hpp"
#include "support/splitmix64.hpp"

namespace spongegen::kernels {

KeccakLanes keccak_round_without_iota(const KeccakLanes& lanes) {
  KeccakLanes out = lanes;
  sponge::detail::keccak_p1600_rounds_portable(out.data(), 0, 1);
  out[0] ^= keccak::model().round_constants[0];
  return out;
}

void check_round_schedule(std::string_view what,
                          const std::function<KeccakLanes(const KeccakLanes&)>& schedule,
                          int trials) {
  SplitMix64 random{1};
  for (int trial = 0; trial < trials; ++trial) {
    KeccakLanes lanes;
    for (auto& lane : lanes)
      lane = random.next();
    if (schedule(lanes) != keccak_round_without_iota(lanes)) {
      throw GenerationError(
          fmt::format("{} computes a wrong round (random state {})", what, trial));
    }
  }
}

}  // namespace spongegen::kernels
