// The batch scheduler (batch_hash.hpp) and the batch hash functions of sponge.hpp.
//
// Each of the kernel's N slots holds one message. A step absorbs, in all slots at once,
// either the fewest full blocks any slot has left before its final block (lockstep, one
// kernel call), or, when some slot is at its final block, one block: such a slot reads a
// padded copy of its last partial block (a rate-sized buffer per slot), the others their next
// full block. When every active slot is at its final block (messages of equal length, or all
// shorter than a block) the step needs no copies: the tails and padding are XORed straight
// into the columns and the kernel's permute entry runs. An idle slot (no message left to
// load) reads an active slot's block, or in a permute-only step just permutes its zero
// column; its column is never read. When a slot's final block is absorbed its digest is
// squeezed from its column (every digest here fits in one rate block), the column is zeroed
// and the next message is loaded. When no message is pending and one slot is left, its column moves
// into a 25-lane state and the message ends on the active single-state kernel: a whole N-state
// permutation for one message would waste N - 1 states' work.
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "batch/batch_hash.hpp"
#include "sponge/sponge.hpp"
#include "support/byte_order.hpp"
#include "support/wipe.hpp"

namespace sponge::detail {
namespace {

constexpr std::size_t kMaxRateBytes = 168;
constexpr std::size_t kIdle = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kPassenger = kIdle - 1;  // the slot holds the BatchPassenger

// Where one slot's message stands.
struct Slot {
  std::size_t message = kIdle;  // index in the batch, or kIdle
  const std::uint8_t* next = nullptr;
  std::size_t full_blocks_left = 0;  // full blocks before the final, padded block
  const std::uint8_t* tail = nullptr;
  std::size_t tail_bytes = 0;  // bytes of the final block that come from the message
};

Slot slot_for(const BatchMessages& messages, std::size_t index, std::size_t rate) noexcept {
  const std::span<const std::uint8_t> message = messages[index];
  const std::size_t full_blocks = message.size() / rate;
  return {index, message.data(), full_blocks,
          message.data() == nullptr ? nullptr : message.data() + full_blocks * rate,
          message.size() % rate};
}

// The final block of a message: its last `tail_bytes` bytes, the domain byte, zeros, and
// 0x80 XORed into the last byte.
void pad_final_block(std::uint8_t* block, const Slot& slot,
                     const BatchHashFunction& function) noexcept {
  std::memset(block, 0, function.rate_bytes);
  if (slot.tail_bytes != 0) std::memcpy(block, slot.tail, slot.tail_bytes);
  block[slot.tail_bytes] ^= function.domain_byte;
  block[function.rate_bytes - 1] ^= 0x80;
}

// `count` full blocks from `blocks` into `lanes`, through the single-state kernel's fused
// entry.
void absorb_on_single_kernel(std::uint64_t* lanes, const std::uint8_t* blocks, std::size_t count,
                             const BatchHashFunction& function) noexcept {
  if (count == 0) return;
  const AbsorbFn absorb_block =
      active_keccak_kernel().absorb_for(function.rate_bytes, function.rounds);
  for (std::size_t k = 0; k < count; ++k, blocks += function.rate_bytes)
    absorb_block(lanes, blocks);
}

// The rest of one message on the single-state kernel, from `lanes` (a fresh or a moved
// state): its remaining full blocks through the fused entry, the final block XORed in
// here, the permutation, the digest.
void finish_on_single_kernel(std::uint64_t (&lanes)[25], const Slot& slot,
                             const BatchHashFunction& function, std::uint8_t* digest) noexcept {
  const KeccakKernel& kernel = active_keccak_kernel();
  const std::size_t rate = function.rate_bytes;
  absorb_on_single_kernel(lanes, slot.next, slot.full_blocks_left, function);
  xor_into_state(lanes, 0, slot.tail, slot.tail_bytes);
  xor_into_state(lanes, slot.tail_bytes, &function.domain_byte, 1);
  constexpr std::uint8_t kLastBit = 0x80;
  xor_into_state(lanes, rate - 1, &kLastBit, 1);
  kernel.permute_for(function.rounds)(lanes);
  copy_state_bytes(lanes, 0, digest, function.digest_bytes);
}

// Message by message: the `single` pseudo-kernel.
void hash_one_at_a_time(const BatchHashFunction& function, const BatchMessages& messages,
                        std::uint8_t* digests) noexcept {
  std::uint64_t lanes[25];
  for (std::size_t i = 0; i < messages.size(); ++i) {
    zero_words(lanes);
    finish_on_single_kernel(lanes, slot_for(messages, i, function.rate_bytes), function,
                            digests + i * function.digest_bytes);
  }
  wipe_words(lanes);
}

// The digest bytes of state `s` of `states` (N interleaved), straight from the state's memory
// into the digest, so no lane passes through a local: a lane stored through store_le64 would
// leave its last copy in that function's frame wherever the compiler keeps the argument in
// memory (an ASan build does), and a SHA3-224 digest ends in half a lane whose other half
// stays secret.
void squeeze_column(const std::uint64_t* states, int n, int s, std::size_t digest_bytes,
                    std::uint8_t* digest) noexcept {
  for (std::size_t byte = 0; byte < digest_bytes; byte += 8) {
    const std::uint64_t* lane = &states[n * static_cast<int>(byte / 8) + s];
    copy_state_bytes(lane, 0, digest + byte, std::min<std::size_t>(8, digest_bytes - byte));
  }
}

void zero_column(std::uint64_t* states, int n, int s) noexcept {
  for (int i = 0; i < 25; ++i)
    states[n * i + s] = 0;
}

}  // namespace

void hash_batch(const KeccakBatchKernel& kernel, const BatchHashFunction& function,
                const BatchMessages& messages, std::uint8_t* digests,
                const BatchPassenger* passenger) noexcept {
  if (passenger != nullptr && passenger->block_count == 0) passenger = nullptr;
  if (passenger != nullptr &&
      (kernel.states == 1 || messages.size() >= std::size_t(kernel.states))) {
    absorb_on_single_kernel(passenger->lanes, passenger->blocks, passenger->block_count, function);
    passenger = nullptr;
  }
  if (kernel.states == 1) {
    hash_one_at_a_time(function, messages, digests);
    return;
  }
  const int n = kernel.states;
  const std::size_t rate = function.rate_bytes;
  const std::size_t count = messages.size();
  const BatchAbsorbFn absorb = kernel.absorb_for(rate, function.rounds);
  const BatchAbsorbBlocksFn absorb_blocks = kernel.absorb_blocks_for(rate, function.rounds);

  // 32-byte lanes that straddle cache lines cost the AVX2 kernel 3% (its header): aligned.
  alignas(64) std::uint64_t states[25 * kMaxBatchStates];
  zero_words(states);
  // The padded final blocks, one per slot, as words so wipe_words clears them.
  std::uint64_t padded[kMaxBatchStates][kMaxRateBytes / 8];
  std::uint64_t lanes[25];
  Slot slots[kMaxBatchStates];

  std::size_t next_message = 0;
  int active = 0;
  const auto load = [&](int s) {
    if (next_message < count) {
      slots[s] = slot_for(messages, next_message++, rate);
      ++active;
    } else {
      slots[s] = Slot{};
    }
  };
  for (int s = 0; s < n; ++s)
    load(s);
  // The passenger takes the last slot, which no message holds (fewer messages than states).
  if (passenger != nullptr) {
    Slot& slot = slots[n - 1];
    slot = Slot{kPassenger, passenger->blocks, passenger->block_count, nullptr, 0};
    copy_lanes_to_column(passenger->lanes, states + (n - 1), static_cast<std::size_t>(n));
    ++active;
  }
  // The passenger's blocks are done: its lanes go back to it and its slot takes the next
  // message, if any.
  const auto drop_passenger = [&](int s) {
    copy_column_to_lanes(states + s, static_cast<std::size_t>(n), passenger->lanes);
    zero_column(states, n, s);
    --active;
    load(s);
  };
  // After a step of `step` blocks: each slot whose final block it absorbed gives its digest,
  // and its column is zeroed for the next message (loaded here; its first block is in the
  // next step) unless the caller zeroes every column at once; every other active slot moves
  // on by the blocks absorbed.
  const auto end_step = [&](std::size_t step, bool zero_finished_columns) {
    for (int s = 0; s < n; ++s) {
      Slot& slot = slots[s];
      if (slot.message == kIdle) continue;
      if (slot.message == kPassenger) {
        slot.next += step * rate;
        slot.full_blocks_left -= step;
        if (slot.full_blocks_left == 0) drop_passenger(s);
        continue;
      }
      if (slot.full_blocks_left == 0) {
        squeeze_column(states, n, s, function.digest_bytes,
                       digests + slot.message * function.digest_bytes);
        if (zero_finished_columns) zero_column(states, n, s);
        --active;
        load(s);
      } else {
        slot.next += step * rate;
        slot.full_blocks_left -= step;
      }
    }
  };
  const BatchPermuteFn permute = kernel.permute_for(function.rounds);

  while (active > 0) {
    if (active == 1 && next_message == count) {
      const int s = static_cast<int>(
          std::find_if(slots, slots + n, [](const Slot& slot) { return slot.message != kIdle; }) -
          slots);
      if (slots[s].message == kPassenger) {
        copy_column_to_lanes(states + s, static_cast<std::size_t>(n), passenger->lanes);
        absorb_on_single_kernel(passenger->lanes, slots[s].next, slots[s].full_blocks_left,
                                function);
        break;
      }
      copy_column_to_lanes(states + s, static_cast<std::size_t>(n), lanes);
      finish_on_single_kernel(lanes, slots[s], function,
                              digests + slots[s].message * function.digest_bytes);
      break;
    }

    bool final_step = false, all_final = true;
    std::size_t step = std::numeric_limits<std::size_t>::max();
    for (int s = 0; s < n; ++s) {
      if (slots[s].message == kIdle) continue;
      if (slots[s].full_blocks_left == 0) {
        final_step = true;
      } else {
        all_final = false;
        step = std::min(step, slots[s].full_blocks_left);
      }
    }
    if (final_step) step = 1;

    if (all_final) {
      // Every active slot is at its final block (equal lengths, or short messages): its tail
      // and padding go straight into its column, and one permutation finishes them all,
      // without the padded copies and the kernel's gather of their lanes.
      for (int s = 0; s < n; ++s) {
        const Slot& slot = slots[s];
        if (slot.message == kIdle) continue;
        std::uint64_t* column = states + s;
        xor_into_lanes(column, static_cast<std::size_t>(n), 0, slot.tail, slot.tail_bytes);
        xor_into_lanes(column, static_cast<std::size_t>(n), slot.tail_bytes, &function.domain_byte,
                       1);
        constexpr std::uint8_t kLastBit = 0x80;
        xor_into_lanes(column, static_cast<std::size_t>(n), rate - 1, &kLastBit, 1);
      }
      permute(states);
      // Every column is finished: the whole array is zeroed with wide stores, measured 11%
      // faster for 32-byte messages on amd64-avx512-x8 than 25 strided stores a column.
      end_step(1, false);
      zero_words(states);
      continue;
    }

    const std::uint8_t* blocks[kMaxBatchStates];
    const std::uint8_t* an_active_block = nullptr;
    for (int s = 0; s < n; ++s) {
      Slot& slot = slots[s];
      if (slot.message == kIdle) continue;
      if (slot.full_blocks_left == 0) {
        auto* block = reinterpret_cast<std::uint8_t*>(padded[s]);
        pad_final_block(block, slot, function);
        blocks[s] = block;
      } else {
        blocks[s] = slot.next;
      }
      an_active_block = blocks[s];
    }
    for (int s = 0; s < n; ++s) {
      if (slots[s].message == kIdle) blocks[s] = an_active_block;
    }

    if (absorb_blocks != nullptr) {
      absorb_blocks(states, blocks, step);  // the lanes stay in registers across the step
    } else {
      for (std::size_t block = 0; block < step; ++block) {
        absorb(states, blocks);
        for (int s = 0; s < n; ++s)
          blocks[s] += rate;  // idle slots follow the active block they share
      }
    }

    end_step(step, true);
  }
  wipe_words(lanes);
  wipe_words(states);
  for (auto& block : padded)
    wipe_words(block);
}

namespace {

template <typename Hash>
void batch(std::span<const std::span<const std::uint8_t>> messages,
           std::span<std::array<std::uint8_t, Hash::digest_bytes>> digests) {
  static_assert(sizeof(std::array<std::uint8_t, Hash::digest_bytes>) == Hash::digest_bytes);
  if (messages.size() != digests.size()) {
    throw std::invalid_argument("sponge: a batch hash needs one digest per message");
  }
  hash_batch(active_batch_kernel(),
             {Hash::rate_bytes, Hash::domain_byte, Hash::digest_bytes, kFullRounds},
             BatchMessages(messages), reinterpret_cast<std::uint8_t*>(digests.data()));
}

}  // namespace
}  // namespace sponge::detail

namespace sponge {

void keccak256_batch(std::span<const std::span<const std::uint8_t>> messages,
                     std::span<std::array<std::uint8_t, 32>> digests) {
  detail::batch<Keccak256>(messages, digests);
}
void sha3_224_batch(std::span<const std::span<const std::uint8_t>> messages,
                    std::span<std::array<std::uint8_t, 28>> digests) {
  detail::batch<Sha3_224>(messages, digests);
}
void sha3_256_batch(std::span<const std::span<const std::uint8_t>> messages,
                    std::span<std::array<std::uint8_t, 32>> digests) {
  detail::batch<Sha3_256>(messages, digests);
}
void sha3_384_batch(std::span<const std::span<const std::uint8_t>> messages,
                    std::span<std::array<std::uint8_t, 48>> digests) {
  detail::batch<Sha3_384>(messages, digests);
}
void sha3_512_batch(std::span<const std::span<const std::uint8_t>> messages,
                    std::span<std::array<std::uint8_t, 64>> digests) {
  detail::batch<Sha3_512>(messages, digests);
}

}  // namespace sponge
