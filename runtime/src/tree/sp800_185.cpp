// NIST SP 800-185 on Keccak-f[1600]: cSHAKE, KMAC, KMACXOF, TupleHash, ParallelHash and
// their XOF forms.
//
// Every function is cSHAKE(X, L, N, S) = the sponge with domain bits 00 (padding byte 0x04)
// over bytepad(encode_string(N) || encode_string(S), rate) || X, or plain SHAKE when N and S
// are both empty. The prefix (and KMAC's bytepad(encode_string(K), rate)) is absorbed once
// into a saved starting state; reset() copies it back. The fixed-output forms end X with
// right_encode(L in bits), the XOF forms with right_encode(0).
#include <algorithm>
#include <stdexcept>

#include "sponge/sponge.hpp"
#include "support/wipe.hpp"
#include "tree/integer_encoding.hpp"
#include "tree/leaf_hashing.hpp"
#include "tree/parallel_leaves.hpp"

namespace sponge::detail {
namespace {

constexpr std::uint8_t kShakeDomainByte = 0x1F;
constexpr std::uint8_t kCshakeDomainByte = 0x04;

void absorb_encoded(KeccakSponge& sponge, const EncodedInteger& encoded) noexcept {
  sponge.absorb(encoded.bytes().data(), encoded.bytes().size());
}

void absorb_string_encoded(KeccakSponge& sponge, std::span<const std::uint8_t> data) {
  absorb_encoded(sponge, EncodedInteger::left_bit_count(data.size()));
  sponge.absorb(data.data(), data.size());
}

}  // namespace

Sp800185Sponge::Sp800185Sponge(std::size_t rate_bytes, std::span<const std::uint8_t> function_name,
                               std::span<const std::uint8_t> customization) noexcept
    : initial_(rate_bytes, function_name.empty() && customization.empty() ? kShakeDomainByte
                                                                          : kCshakeDomainByte),
      sponge_(initial_) {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  if (function_name.empty() && customization.empty()) return;
  absorb_encoded(initial_, EncodedInteger::left(rate_bytes));
  absorb_string_encoded(initial_, function_name);
  absorb_string_encoded(initial_, customization);
  initial_.absorb_zeros_to_block_boundary();
  sponge_ = initial_;
}

void Sp800185Sponge::absorb_key(std::span<const std::uint8_t> key) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  absorb_encoded(initial_, EncodedInteger::left(initial_.rate_bytes()));
  absorb_string_encoded(initial_, key);
  initial_.absorb_zeros_to_block_boundary();
  sponge_ = initial_;
}

void Sp800185Sponge::absorb_encoded_string(std::span<const std::uint8_t> data) {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  sponge_.require_absorbing();
  absorb_string_encoded(sponge_, data);
}

void Sp800185Sponge::absorb_left_encoded(std::uint64_t value) {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  sponge_.require_absorbing();
  absorb_encoded(sponge_, EncodedInteger::left(value));
}

void Sp800185Sponge::absorb_right_encoded(std::uint64_t value) {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  sponge_.require_absorbing();
  absorb_encoded(sponge_, EncodedInteger::right(value));
}

void Sp800185Sponge::digest(std::span<std::uint8_t> out) const {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  sponge_.require_absorbing();
  KeccakSponge finished = sponge_;
  absorb_encoded(finished, EncodedInteger::right(std::uint64_t{8} * out.size()));
  finished.squeeze(out.data(), out.size());
}

void Sp800185Sponge::squeeze_xof(std::span<std::uint8_t> out) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  if (!sponge_.squeezing()) absorb_encoded(sponge_, EncodedInteger::right(0));
  sponge_.squeeze(out.data(), out.size());
}

ParallelHashTree::ParallelHashTree(int security_bits, std::size_t block_size,
                                   std::span<const std::uint8_t> customization, unsigned threads)
    : sponge_(security_bits == 128 ? kSp800185Rate<128> : kSp800185Rate<256>, kParallelHashName,
              customization),
      leaf_(sponge_.rate_bytes(), kShakeDomainByte),
      block_size_(block_size),
      leaf_bytes_(0),
      leaves_(0),
      leaf_output_bytes_(static_cast<std::size_t>(security_bits) / 4),
      threads_(threads) {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  if (block_size == 0) throw std::invalid_argument("sponge: ParallelHash block size must not be 0");
  sponge_.absorb_left_encoded(block_size_);
}

ParallelHashTree::~ParallelHashTree() {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  // How long the message was, and which function, is not left behind either (the sponges
  // wipe themselves).
  block_size_ = 0;
  leaf_bytes_ = 0;
  leaves_ = 0;
  leaf_output_bytes_ = 0;
  threads_ = 0;
  keep_stores(this);
}

void ParallelHashTree::reset() noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  sponge_.reset();
  sponge_.absorb_left_encoded(block_size_);
  leaf_.reset();
  leaf_bytes_ = 0;
  leaves_ = 0;
}

void ParallelHashTree::absorb(const std::uint8_t* data, std::size_t length) {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  sponge_.require_absorbing();
  if (leaf_bytes_ != 0) {
    const std::size_t take = std::min(length, block_size_ - leaf_bytes_);
    leaf_.absorb(data, take);
    leaf_bytes_ += take;
    data += take;
    length -= take;
    if (leaf_bytes_ == block_size_) finish_leaf();
  }
  const std::size_t whole_blocks = length / block_size_;
  absorb_whole_blocks(data, whole_blocks);
  data += whole_blocks * block_size_;
  length -= whole_blocks * block_size_;
  leaf_.absorb(data, length);
  leaf_bytes_ += length;
}

void ParallelHashTree::absorb_whole_blocks(const std::uint8_t* blocks,
                                           std::size_t block_count) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  hash_whole_leaves_on_threads(
      leaf_, blocks, block_size_, block_count, leaf_output_bytes_, static_cast<unsigned>(threads_),
      [this](std::span<const std::uint8_t> output) { sponge_.absorb(output); });
  leaves_ += block_count;
}

void ParallelHashTree::finish_leaf() noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  detail::finish_leaf(leaf_, leaf_output_bytes_,
                      [this](std::span<const std::uint8_t> output) { sponge_.absorb(output); });
  leaf_bytes_ = 0;
  ++leaves_;
}

void ParallelHashTree::finish_leaves() noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  if (leaf_bytes_ != 0) finish_leaf();
  sponge_.absorb_right_encoded(leaves_);
}

Sp800185Sponge ParallelHashTree::finished() const noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  ParallelHashTree copy = *this;
  copy.finish_leaves();
  return copy.sponge_;
}

void ParallelHashTree::squeeze(std::span<std::uint8_t> out) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  if (!sponge_.squeezing()) finish_leaves();
  sponge_.squeeze_xof(out);
}

}  // namespace sponge::detail

namespace sponge {
namespace {

template <typename Xof, typename... Parameters>
void squeeze_one_shot(std::span<const std::uint8_t> in, std::span<std::uint8_t> out,
                      Parameters... parameters) {
  Xof xof(parameters...);
  xof.update(in);
  xof.squeeze(out);
}

template <typename Mac, typename... Parameters>
void digest_one_shot(std::span<const std::uint8_t> in, std::span<std::uint8_t> out,
                     Parameters... parameters) {
  Mac mac(parameters...);
  mac.update(in);
  mac.digest(out);
}

auto element_of(std::span<const std::span<const std::uint8_t>> elements) noexcept {
  return [elements](std::size_t i) { return elements[i]; };
}

}  // namespace

void cshake128(std::span<const std::uint8_t> in, std::span<const std::uint8_t> function_name,
               std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) noexcept {
  squeeze_one_shot<Cshake128>(in, out, function_name, customization);
}
void cshake256(std::span<const std::uint8_t> in, std::span<const std::uint8_t> function_name,
               std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) noexcept {
  squeeze_one_shot<Cshake256>(in, out, function_name, customization);
}
void kmac128(std::span<const std::uint8_t> key, std::span<const std::uint8_t> in,
             std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) noexcept {
  digest_one_shot<Kmac128>(in, out, key, customization);
}
void kmac256(std::span<const std::uint8_t> key, std::span<const std::uint8_t> in,
             std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) noexcept {
  digest_one_shot<Kmac256>(in, out, key, customization);
}
void kmacxof128(std::span<const std::uint8_t> key, std::span<const std::uint8_t> in,
                std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) noexcept {
  squeeze_one_shot<KmacXof128>(in, out, key, customization);
}
void kmacxof256(std::span<const std::uint8_t> key, std::span<const std::uint8_t> in,
                std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) noexcept {
  squeeze_one_shot<KmacXof256>(in, out, key, customization);
}
void tuplehash128(std::span<const std::span<const std::uint8_t>> elements,
                  std::span<const std::uint8_t> customization,
                  std::span<std::uint8_t> out) noexcept {
  detail::tuple_one_shot<TupleHash128>(elements.size(), element_of(elements), customization, out);
}
void tuplehash256(std::span<const std::span<const std::uint8_t>> elements,
                  std::span<const std::uint8_t> customization,
                  std::span<std::uint8_t> out) noexcept {
  detail::tuple_one_shot<TupleHash256>(elements.size(), element_of(elements), customization, out);
}
void tuplehashxof128(std::span<const std::span<const std::uint8_t>> elements,
                     std::span<const std::uint8_t> customization,
                     std::span<std::uint8_t> out) noexcept {
  detail::tuple_one_shot<TupleHashXof128>(elements.size(), element_of(elements), customization,
                                          out);
}
void tuplehashxof256(std::span<const std::span<const std::uint8_t>> elements,
                     std::span<const std::uint8_t> customization,
                     std::span<std::uint8_t> out) noexcept {
  detail::tuple_one_shot<TupleHashXof256>(elements.size(), element_of(elements), customization,
                                          out);
}
void parallelhash128(std::span<const std::uint8_t> in, std::size_t block_size,
                     std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) {
  digest_one_shot<ParallelHash128>(in, out, block_size, customization);
}
void parallelhash256(std::span<const std::uint8_t> in, std::size_t block_size,
                     std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) {
  digest_one_shot<ParallelHash256>(in, out, block_size, customization);
}
void parallelhashxof128(std::span<const std::uint8_t> in, std::size_t block_size,
                        std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) {
  squeeze_one_shot<ParallelHashXof128>(in, out, block_size, customization);
}
void parallelhashxof256(std::span<const std::uint8_t> in, std::size_t block_size,
                        std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) {
  squeeze_one_shot<ParallelHashXof256>(in, out, block_size, customization);
}
void parallelhash128_parallel(std::span<const std::uint8_t> in, std::size_t block_size,
                              std::span<const std::uint8_t> customization,
                              std::span<std::uint8_t> out, unsigned threads) {
  digest_one_shot<ParallelHash128>(in, out, block_size, customization, Threads{threads});
}
void parallelhash256_parallel(std::span<const std::uint8_t> in, std::size_t block_size,
                              std::span<const std::uint8_t> customization,
                              std::span<std::uint8_t> out, unsigned threads) {
  digest_one_shot<ParallelHash256>(in, out, block_size, customization, Threads{threads});
}
void parallelhashxof128_parallel(std::span<const std::uint8_t> in, std::size_t block_size,
                                 std::span<const std::uint8_t> customization,
                                 std::span<std::uint8_t> out, unsigned threads) {
  squeeze_one_shot<ParallelHashXof128>(in, out, block_size, customization, Threads{threads});
}
void parallelhashxof256_parallel(std::span<const std::uint8_t> in, std::size_t block_size,
                                 std::span<const std::uint8_t> customization,
                                 std::span<std::uint8_t> out, unsigned threads) {
  squeeze_one_shot<ParallelHashXof256>(in, out, block_size, customization, Threads{threads});
}

}  // namespace sponge
