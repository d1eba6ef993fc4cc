// RFC 9861: TurboSHAKE128/256 and KangarooTwelve (KT128, KT256) on Keccak-p[1600,12].
//
// TurboSHAKE is the ordinary sponge on 12 rounds. KangarooTwelve hashes
// S = M || C || length_encode(|C|): up to one 8 KiB chunk, S itself with D = 0x07; beyond,
// the final node is S_0 || 03 00 00 00 00 00 00 00 || CV_1 .. CV_n || length_encode(n) || FF FF
// with D = 0x06, where CV_i is TurboSHAKE(S_i, D = 0x0B) of chunk i. Neither |S| nor n is
// known while streaming, so the marker is absorbed when the first byte past chunk 0 arrives
// and the final node's domain byte is chosen at the first squeeze.
#include <algorithm>
#include <stdexcept>

#include "sponge/sponge.hpp"
#include "support/wipe.hpp"
#include "tree/integer_encoding.hpp"
#include "tree/leaf_hashing.hpp"
#include "tree/parallel_leaves.hpp"

namespace sponge::detail {
namespace {

constexpr std::uint8_t kSingleNodeDomainByte = 0x07;
constexpr std::uint8_t kFinalNodeDomainByte = 0x06;
constexpr std::uint8_t kLeafDomainByte = 0x0B;
constexpr std::uint8_t kFinalNodeMarker[8] = {0x03, 0, 0, 0, 0, 0, 0, 0};
constexpr std::uint8_t kFinalNodeEnd[2] = {0xFF, 0xFF};

void absorb_encoded(KeccakSponge& sponge, const EncodedInteger& encoded) noexcept {
  sponge.absorb(encoded.bytes().data(), encoded.bytes().size());
}

}  // namespace

std::uint8_t checked_turboshake_domain(std::uint8_t domain_byte) {
  if (domain_byte < 0x01 || domain_byte > 0x7F) {
    throw std::invalid_argument("sponge: TurboSHAKE domain byte must be in 0x01..0x7F");
  }
  return domain_byte;
}

KangarooTwelveTree::KangarooTwelveTree(std::size_t rate_bytes, std::size_t chaining_value_bytes,
                                       std::span<const std::uint8_t> customization,
                                       unsigned threads) noexcept
    : final_node_(rate_bytes, kSingleNodeDomainByte, KeccakSponge::kReducedRounds),
      leaf_(rate_bytes, kLeafDomainByte, KeccakSponge::kReducedRounds),
      customization_(customization),
      input_bytes_(0),
      leaves_(0),
      chaining_value_bytes_(chaining_value_bytes),
      threads_(threads) {}

KangarooTwelveTree::~KangarooTwelveTree() {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  // How long the message was, and which function, is not left behind either (the sponges
  // wipe themselves).
  input_bytes_ = 0;
  leaves_ = 0;
  customization_ = {};
  chaining_value_bytes_ = 0;
  threads_ = 0;
  keep_stores(this);
}

void KangarooTwelveTree::reset() noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  final_node_.reset();
  final_node_.set_domain_byte(kSingleNodeDomainByte);
  leaf_.reset();
  input_bytes_ = 0;
  leaves_ = 0;
}

void KangarooTwelveTree::absorb(const std::uint8_t* data, std::size_t length) {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  final_node_.require_absorbing();
  absorb_tree_input(data, length);
}

void KangarooTwelveTree::absorb_tree_input(const std::uint8_t* data, std::size_t length) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  if (input_bytes_ == 0 && length >= 2 * kChunkBytes) {
    // The whole leaves after chunk 0 that the multi-state kernel's groups leave over: they
    // go first, with chunk 0's whole blocks for the final node in the group's spare state.
    const int states = active_batch_kernel().states;
    const std::size_t spare_group = states > 1 ? (length / kChunkBytes - 1) % states : 0;
    if (spare_group != 0) {
      absorb_first_chunk_beside_leaves(data, spare_group);
      const std::size_t taken = (1 + spare_group) * kChunkBytes;
      data += taken;
      length -= taken;
    }
  }
  if (input_bytes_ < kChunkBytes) {
    const std::size_t take = std::min<std::uint64_t>(length, kChunkBytes - input_bytes_);
    final_node_.absorb(data, take);
    input_bytes_ += take;
    data += take;
    length -= take;
  }
  if (length == 0) return;
  if (input_bytes_ == kChunkBytes) final_node_.absorb(kFinalNodeMarker, sizeof kFinalNodeMarker);
  const std::size_t leaf_bytes = (input_bytes_ - kChunkBytes) % kChunkBytes;
  if (leaf_bytes != 0) {
    const std::size_t take = std::min(length, kChunkBytes - leaf_bytes);
    leaf_.absorb(data, take);
    input_bytes_ += take;
    data += take;
    length -= take;
    if (leaf_bytes + take == kChunkBytes) finish_leaf();
  }
  const std::size_t whole_chunks = length / kChunkBytes;
  absorb_whole_chunks(data, whole_chunks);
  input_bytes_ += whole_chunks * kChunkBytes;
  data += whole_chunks * kChunkBytes;
  length -= whole_chunks * kChunkBytes;
  leaf_.absorb(data, length);
  input_bytes_ += length;
}

// Chunk 0 and the `leaf_count` (1 .. N - 1) whole leaves after it, all in `data`, on the
// N-state kernel in one group: the final node's whole blocks of chunk 0 ride in the state the
// leaves leave spare, instead of a single-state permutation each (48 for KT128, 60 for KT256:
// about 5% of KT256 of 1 MiB on amd64-avx512-x8, whose last group of leaves had a state
// idle). The final node then absorbs chunk 0's last bytes, the marker and the leaves' chaining
// values, as it would have.
void KangarooTwelveTree::absorb_first_chunk_beside_leaves(const std::uint8_t* data,
                                                          std::size_t leaf_count) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  const std::size_t rate = final_node_.rate_bytes();
  const std::size_t whole_blocks = kChunkBytes / rate;
  const BatchPassenger chunk0{final_node_.lanes_at_block_boundary(), data, whole_blocks};
  const BatchHashFunction function{leaf_.rate_bytes(), leaf_.domain_byte(), chaining_value_bytes_,
                                   leaf_.rounds()};
  std::uint64_t outputs[kMaxBatchStates * kMaxLeafOutputBytes / 8];
  auto* bytes = reinterpret_cast<std::uint8_t*>(outputs);
  hash_leaf_group(active_batch_kernel(), function, data + kChunkBytes, kChunkBytes, leaf_count,
                  bytes, &chunk0);
  final_node_.absorb(data + whole_blocks * rate, kChunkBytes - whole_blocks * rate);
  final_node_.absorb(kFinalNodeMarker, sizeof kFinalNodeMarker);
  for (std::size_t i = 0; i < leaf_count; ++i)
    final_node_.absorb(bytes + i * chaining_value_bytes_, chaining_value_bytes_);
  wipe_words(outputs);
  input_bytes_ = (1 + leaf_count) * kChunkBytes;
  leaves_ += leaf_count;
}

void KangarooTwelveTree::absorb_whole_chunks(const std::uint8_t* chunks,
                                             std::size_t chunk_count) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  hash_whole_leaves_on_threads(leaf_, chunks, kChunkBytes, chunk_count, chaining_value_bytes_,
                               static_cast<unsigned>(threads_),
                               [this](std::span<const std::uint8_t> chaining_value) {
                                 final_node_.absorb(chaining_value.data(), chaining_value.size());
                               });
  leaves_ += chunk_count;
}

void KangarooTwelveTree::finish_leaf() noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  detail::finish_leaf(leaf_, chaining_value_bytes_,
                      [this](std::span<const std::uint8_t> chaining_value) {
                        final_node_.absorb(chaining_value.data(), chaining_value.size());
                      });
  ++leaves_;
}

void KangarooTwelveTree::finish_input() noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  absorb_tree_input(customization_.data(), customization_.size());
  const EncodedInteger customization_length = EncodedInteger::length(customization_.size());
  absorb_tree_input(customization_length.bytes().data(), customization_length.bytes().size());
  if (input_bytes_ <= kChunkBytes) return;  // a single node, D = 0x07 already
  if ((input_bytes_ - kChunkBytes) % kChunkBytes != 0) finish_leaf();
  absorb_encoded(final_node_, EncodedInteger::length(leaves_));
  final_node_.absorb(kFinalNodeEnd, sizeof kFinalNodeEnd);
  final_node_.set_domain_byte(kFinalNodeDomainByte);
}

void KangarooTwelveTree::squeeze(std::uint8_t* out, std::size_t length) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  if (!final_node_.squeezing()) finish_input();
  final_node_.squeeze(out, length);
}

}  // namespace sponge::detail

namespace sponge {

void turboshake128(std::span<const std::uint8_t> in, std::span<std::uint8_t> out,
                   std::uint8_t domain_byte) {
  TurboShake128 xof(domain_byte);
  xof.update(in);
  xof.squeeze(out);
}
void turboshake256(std::span<const std::uint8_t> in, std::span<std::uint8_t> out,
                   std::uint8_t domain_byte) {
  TurboShake256 xof(domain_byte);
  xof.update(in);
  xof.squeeze(out);
}
void kt128(std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
           std::span<std::uint8_t> out) noexcept {
  Kt128 xof(customization);
  xof.update(in);
  xof.squeeze(out);
}
void kt256(std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
           std::span<std::uint8_t> out) noexcept {
  Kt256 xof(customization);
  xof.update(in);
  xof.squeeze(out);
}
void kt128_parallel(std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
                    std::span<std::uint8_t> out, unsigned threads) noexcept {
  Kt128 xof(customization, Threads{threads});
  xof.update(in);
  xof.squeeze(out);
}
void kt256_parallel(std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
                    std::span<std::uint8_t> out, unsigned threads) noexcept {
  Kt256 xof(customization, Threads{threads});
  xof.update(in);
  xof.squeeze(out);
}

}  // namespace sponge
