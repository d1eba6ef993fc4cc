// Four SHAKE streams on a batch kernel (KeccakSpongeX4, sponge.hpp).
//
// Layout: the four states as 4 / N groups of N lane-interleaved states, N being the batch
// kernel's state count (4: one group, what amd64-avx2-x4 and portable-x4 permute per call;
// 2: two groups, arm64-sha3-x2; 1: four plain 25-lane states, `single`). Permuting all four
// streams is one kernel call per group; no re-layout between calls, and squeezing reads the
// lanes where they are. A kernel whose N does not divide 4 (amd64-avx512-x8) is replaced at
// construction by the first compiled kernel this CPU runs by default whose N does
// (amd64-avx2-x4 on an AVX-512 CPU; at least `single`).
//
// Absorbing, like KeccakSponge, XORs input into the states as it arrives (no buffer, so
// unequal lengths need no storage): while every stream stands at the same position, the
// bytes that complete the current block and then the full blocks every stream has go
// through the batch kernel in lockstep (the fused absorb entry, one block per stream per
// call). Whatever is left of each input, and everything once the streams are out of step,
// goes stream by stream: partial blocks XORed in here, full blocks through the single-state
// kernel's fused entry on a copy of the stream's 25 lanes (wiped afterwards). Equal-length
// inputs from equal positions therefore stay in lockstep forever; unequal ones cost what
// four Shake objects would. Padding puts each stream's domain byte at its own position, then
// one permutation of all four: from there every squeeze is in lockstep (one output length
// per call), and each new output block is one permutation of all four.
#include <algorithm>
#include <limits>
#include <stdexcept>

#include "batch/batch_kernel.hpp"
#include "keccak/keccak_kernel.hpp"
#include "sponge/sponge.hpp"
#include "support/byte_order.hpp"
#include "support/wipe.hpp"

namespace sponge::detail {

extern const KeccakBatchKernel kSingleBatchKernel;  // batch_kernels.cpp

static_assert(sizeof(KeccakSpongeX4) == 25 * 4 * 8 + 8 + 4 * 4 + 2 + 1 + 1 + 4,
              "KeccakSpongeX4 has padding bytes");

namespace {

constexpr std::size_t kStreams = KeccakSpongeX4::kStreams;

bool divides_streams(const KeccakBatchKernel& kernel) noexcept {
  return kStreams % static_cast<std::size_t>(kernel.states) == 0;
}

// The first compiled kernel this CPU runs by default whose state count divides four, found
// once: cpu_supports() asks CPUID, which in a virtual machine costs a trap (measured: 117 us a
// construction when it was asked every time, against 1.4 us for the whole ML-KEM expansion).
const KeccakBatchKernel& default_four_stream_kernel() noexcept {
  static const KeccakBatchKernel& chosen = []() -> const KeccakBatchKernel& {
    for (const KeccakBatchKernel* candidate : compiled_batch_kernels()) {
      if (candidate->chosen_by_default && divides_streams(*candidate) &&
          candidate->cpu_supports()) {
        return *candidate;
      }
    }
    return kSingleBatchKernel;
  }();
  return chosen;
}

const KeccakBatchKernel& usable_kernel(const KeccakBatchKernel& kernel) noexcept {
  return divides_streams(kernel) ? kernel : default_four_stream_kernel();
}

}  // namespace

KeccakSpongeX4::KeccakSpongeX4(std::size_t rate_bytes, std::uint8_t domain_byte) noexcept
    : KeccakSpongeX4(active_batch_kernel(), rate_bytes, domain_byte) {}

KeccakSpongeX4::KeccakSpongeX4(const KeccakBatchKernel& kernel, std::size_t rate_bytes,
                               std::uint8_t domain_byte) noexcept
    : kernel_(&usable_kernel(kernel)),
      rate_bytes_(static_cast<std::uint16_t>(rate_bytes)),
      domain_byte_(domain_byte),
      squeezing_(0),
      group_states_(static_cast<std::uint32_t>(kernel_->states)) {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  reset();
}

KeccakSpongeX4::~KeccakSpongeX4() {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  zero_words(states_);
  // The fields tell the function and each message's length modulo the rate.
  kernel_ = nullptr;
  for (std::uint32_t& position : position_)
    position = 0;
  rate_bytes_ = 0;
  domain_byte_ = 0;
  squeezing_ = 0;
  group_states_ = 0;
  keep_stores(this);
  clear_caller_saved_registers();
}

void KeccakSpongeX4::reset() noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  zero_words(states_);
  for (std::uint32_t& position : position_)
    position = 0;
  squeezing_ = 0;
  clear_caller_saved_registers();
}

void KeccakSpongeX4::require_absorbing() const {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  if (squeezing_ != 0) {
    throw std::logic_error("sponge: update() called after squeeze(); call reset() first");
  }
}

std::size_t KeccakSpongeX4::lane_index(std::size_t stream, std::size_t lane) const noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  const std::size_t n = group_states_;
  return 25 * n * (stream / n) + n * lane + stream % n;
}

void KeccakSpongeX4::xor_into_stream(std::size_t stream, std::size_t offset,
                                     const std::uint8_t* data, std::size_t length) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  for (; length != 0 && offset % 8 != 0; --length, ++offset, ++data)
    states_[lane_index(stream, offset / 8)] ^= std::uint64_t{*data} << (8 * (offset % 8));
  // As in xor_into_state: an unoptimised build keeps `word` (input: secret) on the stack.
  std::uint64_t word = 0;
  for (; length >= 8; length -= 8, offset += 8, data += 8) {
    word = load_le64(data);
    states_[lane_index(stream, offset / 8)] ^= word;
  }
  word = 0;
  for (; length != 0; --length, ++offset, ++data)
    states_[lane_index(stream, offset / 8)] ^= std::uint64_t{*data} << (8 * (offset % 8));
}

void KeccakSpongeX4::copy_from_stream(std::size_t stream, std::size_t offset, std::uint8_t* out,
                                      std::size_t length) const noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  for (; length != 0 && offset % 8 != 0; --length, ++offset)
    *out++ =
        static_cast<std::uint8_t>(states_[lane_index(stream, offset / 8)] >> (8 * (offset % 8)));
  for (; length >= 8; length -= 8, offset += 8, out += 8)
    store_le64(out, states_[lane_index(stream, offset / 8)]);
  for (; length != 0; --length, ++offset)
    *out++ =
        static_cast<std::uint8_t>(states_[lane_index(stream, offset / 8)] >> (8 * (offset % 8)));
}

void KeccakSpongeX4::permute_all() noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  const std::size_t n = group_states_;
  const BatchPermuteFn permute = kernel_->permute;
  for (std::size_t group = 0; group < kStreams / n; ++group)
    permute(states_ + 25 * n * group);
}

void KeccakSpongeX4::absorb_blocks_all(const std::uint8_t* const* blocks) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  const std::size_t n = group_states_;
  const BatchAbsorbFn absorb = kernel_->absorb_for(rate_bytes_, kFullRounds);
  for (std::size_t group = 0; group < kStreams / n; ++group)
    absorb(states_ + 25 * n * group, blocks + n * group);
}

void KeccakSpongeX4::absorb_blocks_stream(std::size_t stream, const std::uint8_t* blocks,
                                          std::size_t block_count) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  const AbsorbFn absorb = active_keccak_kernel().absorb_for(rate_bytes_, kFullRounds);
  const std::size_t rate = rate_bytes_;
  if (group_states_ == 1) {  // the stream's lanes are a plain state already
    std::uint64_t* lanes = states_ + 25 * stream;
    for (std::size_t block = 0; block < block_count; ++block, blocks += rate)
      absorb(lanes, blocks);
    return;
  }
  std::uint64_t lanes[25];
  std::uint64_t* column = states_ + lane_index(stream, 0);
  copy_column_to_lanes(column, group_states_, lanes);
  for (std::size_t block = 0; block < block_count; ++block, blocks += rate)
    absorb(lanes, blocks);
  copy_lanes_to_column(lanes, column, group_states_);
  wipe_words(lanes);
}

void KeccakSpongeX4::absorb_stream(std::size_t stream, const std::uint8_t* data,
                                   std::size_t length) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  const std::size_t rate = rate_bytes_;
  std::size_t position = position_[stream];
  if (position != 0) {
    const std::size_t take = std::min(length, rate - position);
    xor_into_stream(stream, position, data, take);
    position += take;
    data += take;
    length -= take;
    if (position < rate) {
      position_[stream] = static_cast<std::uint32_t>(position);
      return;
    }
    // The block is full: XORing no bytes and permuting through the fused entry would read
    // a block, so the stream's lanes go through the permutation on their own.
    if (group_states_ == 1) {
      active_keccak_kernel().permute(states_ + 25 * stream);
    } else {
      std::uint64_t lanes[25];
      std::uint64_t* column = states_ + lane_index(stream, 0);
      copy_column_to_lanes(column, group_states_, lanes);
      active_keccak_kernel().permute(lanes);
      copy_lanes_to_column(lanes, column, group_states_);
      wipe_words(lanes);
    }
  }
  if (length >= rate) {
    absorb_blocks_stream(stream, data, length / rate);
    data += length / rate * rate;
    length %= rate;
  }
  xor_into_stream(stream, 0, data, length);
  position_[stream] = static_cast<std::uint32_t>(length);
}

void KeccakSpongeX4::absorb(const std::uint8_t* const* inputs, const std::size_t* lengths) {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  require_absorbing();
  const std::size_t rate = rate_bytes_;
  const std::uint8_t* data[kStreams];
  std::size_t left[kStreams];
  for (std::size_t s = 0; s < kStreams; ++s) {
    data[s] = inputs[s];
    left[s] = lengths[s];
  }
  const bool in_step = std::all_of(position_, position_ + kStreams, [&](std::uint32_t position) {
    return position == position_[0];
  });
  if (in_step) {
    // Lockstep: complete the current block in every stream, then the full blocks all have.
    const std::size_t position = position_[0];
    const std::size_t fewest = *std::min_element(left, left + kStreams);
    bool at_block_start = position == 0;
    if (!at_block_start && fewest >= rate - position) {
      for (std::size_t s = 0; s < kStreams; ++s) {
        xor_into_stream(s, position, data[s], rate - position);
        data[s] += rate - position;
        left[s] -= rate - position;
      }
      permute_all();
      for (std::uint32_t& stream_position : position_)
        stream_position = 0;
      at_block_start = true;
    }
    if (at_block_start) {
      const std::size_t blocks = *std::min_element(left, left + kStreams) / rate;
      for (std::size_t block = 0; block < blocks; ++block) {
        absorb_blocks_all(data);
        for (std::size_t s = 0; s < kStreams; ++s) {
          data[s] += rate;
          left[s] -= rate;
        }
      }
    }
  }
  for (std::size_t s = 0; s < kStreams; ++s)
    absorb_stream(s, data[s], left[s]);
}

void KeccakSpongeX4::squeeze(std::uint8_t* const* outputs, std::size_t length) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  const std::size_t rate = rate_bytes_;
  if (squeezing_ == 0) {
    constexpr std::uint8_t kLastBit = 0x80;
    for (std::size_t s = 0; s < kStreams; ++s) {
      xor_into_stream(s, position_[s], &domain_byte_, 1);
      xor_into_stream(s, rate - 1, &kLastBit, 1);
    }
    permute_all();
    for (std::uint32_t& position : position_)
      position = 0;
    squeezing_ = 1;
  }
  std::size_t position = position_[0];
  std::size_t written = 0;
  while (length != 0) {
    if (position == rate) {
      permute_all();
      position = 0;
    }
    const std::size_t take = std::min(length, rate - position);
    for (std::size_t s = 0; s < kStreams; ++s)
      copy_from_stream(s, position, outputs[s] + written, take);
    position += take;
    written += take;
    length -= take;
  }
  for (std::uint32_t& stream_position : position_)
    stream_position = static_cast<std::uint32_t>(position);
}

void throw_unequal_x4_outputs() {
  throw std::invalid_argument(
      "sponge: Shake128x4/Shake256x4 squeeze() needs four outputs of one "
      "length");
}

}  // namespace sponge::detail
