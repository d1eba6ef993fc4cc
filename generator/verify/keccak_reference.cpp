// The reference the JIT self-check runs for a Keccak entry: the runtime's portable rounds.
#include "keccak/keccak_portable.hpp"  // the runtime's portable reference (runtime/src)
#include "kernels/kernel.hpp"
#include "model/keccak.hpp"

namespace spongegen::kernels {

namespace {

void absorb_then_permute(std::uint64_t* state, const std::uint8_t* block, const EntryShape& shape) {
  for (int lane = 0; lane < shape.rate_bytes / 8; ++lane) {
    std::uint64_t value = 0;
    for (int byte = 0; byte < 8; ++byte)
      value |= std::uint64_t{block[8 * lane + byte]} << (8 * byte);
    state[lane] ^= value;
  }
  sponge::detail::keccak_p1600_rounds_portable(state, keccak::kRounds - shape.rounds,
                                               keccak::kRounds);
}

}  // namespace

// A multi-state entry is the single-state reference on each state, taken out of and put
// back into the lane-interleaved layout (lane i of state s at state[lanes * i + s]).
void keccak_reference_call(const EntryShape& shape, const EntryCall& call) {
  // The block entries take block_count blocks a state.
  const std::size_t blocks = shape.takes_block_count() ? call.block_count : 1;
  if (shape.lanes == 1) {
    for (std::size_t b = 0; b < blocks; ++b)
      absorb_then_permute(call.state, call.in + b * std::size_t(shape.rate_bytes), shape);
    return;
  }
  for (int s = 0; s < shape.lanes; ++s) {
    std::uint64_t one[keccak::kLanes];
    for (int lane = 0; lane < keccak::kLanes; ++lane)
      one[lane] = call.state[shape.lanes * lane + s];
    for (std::size_t b = 0; b < blocks; ++b) {
      const std::uint8_t* block =
          shape.rate_bytes == 0 ? nullptr : call.blocks[s] + b * std::size_t(shape.rate_bytes);
      absorb_then_permute(one, block, shape);
    }
    for (int lane = 0; lane < keccak::kLanes; ++lane)
      call.state[shape.lanes * lane + s] = one[lane];
  }
}

}  // namespace spongegen::kernels
