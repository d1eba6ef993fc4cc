// The reference the JIT self-check runs for a Keccak entry: the runtime's portable rounds.
#include "keccak_portable.hpp"  // the runtime's portable reference (runtime/src)
#include "kernels/kernel.hpp"
#include "model/keccak.hpp"

namespace spongegen::kernels {

void keccak_reference_call(const EntryShape& shape, const EntryCall& call) {
  std::uint64_t* state = call.state;
  const std::uint8_t* block = call.in;
  for (int lane = 0; lane < shape.rate_bytes / 8; ++lane) {
    std::uint64_t value = 0;
    for (int byte = 0; byte < 8; ++byte)
      value |= std::uint64_t{block[8 * lane + byte]} << (8 * byte);
    state[lane] ^= value;
  }
  sponge::detail::keccak_p1600_rounds_portable(state, keccak::kRounds - shape.rounds,
                                               keccak::kRounds);
}

}  // namespace spongegen::kernels
