// Leaf hashing of the tree modes (KangarooTwelve, ParallelHash), written once: a leaf is a
// sponge over one chunk of the input whose output the parent node absorbs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "sponge/sponge.hpp"
#include "wipe.hpp"

namespace sponge::detail {

// Squeezes the `output_bytes` (<= 64) of the finished `leaf` into `absorb_output`, then resets
// the leaf for the next chunk. The output is as secret as the message: the buffer that held
// it is zeroed.
template <typename AbsorbOutput>
void finish_leaf(KeccakSponge& leaf, std::size_t output_bytes,
                 AbsorbOutput&& absorb_output) noexcept {
  std::uint64_t output[8];
  auto* bytes = reinterpret_cast<std::uint8_t*>(output);
  leaf.squeeze(bytes, output_bytes);
  absorb_output(std::span<const std::uint8_t>(bytes, output_bytes));
  wipe_words(output);
  leaf.reset();
}

// Hashes `leaf_count` whole leaves of `leaf_bytes` each, from `leaves`, in order. Whole leaves
// reach the tree modes here in runs: the one place a multi-state kernel will hash several at
// once.
template <typename AbsorbOutput>
void hash_whole_leaves(KeccakSponge& leaf, const std::uint8_t* leaves, std::size_t leaf_bytes,
                       std::size_t leaf_count, std::size_t output_bytes,
                       AbsorbOutput&& absorb_output) noexcept {
  for (std::size_t i = 0; i < leaf_count; ++i) {
    leaf.absorb(leaves + i * leaf_bytes, leaf_bytes);
    finish_leaf(leaf, output_bytes, absorb_output);
  }
}

}  // namespace sponge::detail
