// sponge: Keccak-256, SHA3-224/256/384/512 and SHAKE128/256 on generated kernels; the
// Keccak-p[1600,12] functions of RFC 9861 (TurboSHAKE128/256, KT128/KT256); the SP 800-185
// functions (cSHAKE, KMAC, KMACXOF, TupleHash, ParallelHash and their XOF forms); Ascon
// (NIST SP 800-232: Ascon-Hash256, Ascon-XOF128, Ascon-CXOF128, Ascon-AEAD128).
//
// No hashing path allocates heap memory. The one-shot functions are noexcept, except where a
// parameter can be out of range (a TurboSHAKE domain byte, a ParallelHash block size): those
// throw std::invalid_argument (so do an Ascon-CXOF128 customization string over 256 bytes
// and AEAD buffers of different lengths). The streaming classes throw std::logic_error only on
// misuse (absorbing or taking a digest after squeezing has begun); building an exception is the one
// allocation. The batch functions throw std::invalid_argument when the digest count differs
// from the message count.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sponge {

// ---------------------------------------------------------------------------------------
// The sponge engine shared by every function. Rate, domain byte, round count (24 or 12) and
// output length are its only parameters; the permutation is reached through the kernel
// dispatcher.
// ---------------------------------------------------------------------------------------
namespace detail {

class KeccakSponge {
 public:
  static constexpr std::size_t kStateBytes = 200;

  static constexpr int kFullRounds = 24;     // Keccak-f[1600]
  static constexpr int kReducedRounds = 12;  // Keccak-p[1600,12] (RFC 9861)

  KeccakSponge(std::size_t rate_bytes, std::uint8_t domain_byte, int rounds = kFullRounds) noexcept;
  KeccakSponge(const KeccakSponge&) = default;
  KeccakSponge& operator=(const KeccakSponge&) = default;
  // Wipes the state: what was hashed (a key, a password) does not linger in memory.
  ~KeccakSponge();

  void absorb(const std::uint8_t* data, std::size_t length);
  // Throws std::logic_error once squeezing has begun (absorb() checks it too).
  void require_absorbing() const;
  // Pads a copy of the sponge and squeezes `length` (<= rate) bytes from it; `this` is
  // left as it was, so absorbing may continue.
  void peek_digest(std::uint8_t* out, std::size_t length) const;
  void squeeze(std::uint8_t* out, std::size_t length) noexcept;
  void reset() noexcept;

  std::size_t rate_bytes() const noexcept { return rate_bytes_; }
  // The padding's domain byte and the permutation's rounds (24, or 12): with the rate, what
  // a multi-state kernel needs to hash this sponge's function on several messages at once.
  std::uint8_t domain_byte() const noexcept { return domain_byte_; }
  int rounds() const noexcept { return rounds_; }
  bool squeezing() const noexcept { return squeezing_; }
  // Absorbs zeros up to the next block boundary (the end of SP 800-185's bytepad). XORing
  // zeros changes nothing, so this only permutes a partly filled block. Must be absorbing.
  void absorb_zeros_to_block_boundary() noexcept;
  // The padding's domain byte, for modes that learn it only at the end (KangarooTwelve).
  void set_domain_byte(std::uint8_t domain_byte) noexcept { domain_byte_ = domain_byte; }

 private:
  void pad_and_permute() noexcept;
  void permute() noexcept;

  // No padding between or after the fields (sponge.cpp checks): copies carry padding bytes
  // along as they are, and a destroyed sponge leaves only zeros.
  std::uint64_t lanes_[25];
  std::uint16_t rate_bytes_;
  // Bytes of the current rate block already XORed in (absorbing) or read out (squeezing).
  std::uint16_t position_;
  std::uint16_t rounds_;
  std::uint8_t domain_byte_;
  bool squeezing_;
};

// One fixed-output hash (digest of `DigestBytes`), or one XOF when DigestBytes is 0.
template <std::size_t RateBytes, std::uint8_t DomainByte, std::size_t DigestBytes>
class Hasher {
 public:
  static constexpr std::size_t rate_bytes = RateBytes;
  static constexpr std::size_t digest_bytes = DigestBytes;
  static constexpr std::uint8_t domain_byte = DomainByte;

  Hasher() noexcept : sponge_(RateBytes, DomainByte) {}

  // Absorbs any amount. Throws std::logic_error once squeeze() has been called.
  Hasher& update(std::span<const std::uint8_t> data) {
    sponge_.absorb(data.data(), data.size());
    return *this;
  }
  Hasher& update(std::span<const std::byte> data) {
    sponge_.absorb(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
    return *this;
  }
  Hasher& update(std::string_view text) {
    sponge_.absorb(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    return *this;
  }

  // The digest of everything absorbed so far. Leaves the object unchanged, so it may be
  // called again, and update() may continue. Throws std::logic_error after squeeze().
  std::array<std::uint8_t, DigestBytes> digest() const requires(DigestBytes != 0) {
    std::array<std::uint8_t, DigestBytes> out;
    sponge_.peek_digest(out.data(), out.size());
    return out;
  }

  // Pads on the first call, then reads output; successive calls continue the stream.
  void squeeze(std::span<std::uint8_t> out) noexcept { sponge_.squeeze(out.data(), out.size()); }
  void squeeze(std::span<std::byte> out) noexcept {
    sponge_.squeeze(reinterpret_cast<std::uint8_t*>(out.data()), out.size());
  }

  // Back to the empty message, absorbing.
  void reset() noexcept { sponge_.reset(); }

 private:
  KeccakSponge sponge_;
};

}  // namespace detail

using Keccak256 = detail::Hasher<136, 0x01, 32>;
using Sha3_224 = detail::Hasher<144, 0x06, 28>;
using Sha3_256 = detail::Hasher<136, 0x06, 32>;
using Sha3_384 = detail::Hasher<104, 0x06, 48>;
using Sha3_512 = detail::Hasher<72, 0x06, 64>;
using Shake128 = detail::Hasher<168, 0x1F, 0>;
using Shake256 = detail::Hasher<136, 0x1F, 0>;

// ---------------------------------------------------------------------------------------
// One-shot functions.
// ---------------------------------------------------------------------------------------
std::array<std::uint8_t, 32> keccak256(std::span<const std::uint8_t> data) noexcept;
std::array<std::uint8_t, 28> sha3_224(std::span<const std::uint8_t> data) noexcept;
std::array<std::uint8_t, 32> sha3_256(std::span<const std::uint8_t> data) noexcept;
std::array<std::uint8_t, 48> sha3_384(std::span<const std::uint8_t> data) noexcept;
std::array<std::uint8_t, 64> sha3_512(std::span<const std::uint8_t> data) noexcept;
void shake128(std::span<const std::uint8_t> in, std::span<std::uint8_t> out) noexcept;
void shake256(std::span<const std::uint8_t> in, std::span<std::uint8_t> out) noexcept;

// ---------------------------------------------------------------------------------------
// Batch hashing: digests[i] = hash(messages[i]) for every i, messages of any and mixed
// lengths, on a multi-state kernel that permutes several states per call (active_kernel(
// KernelFamily::keccak_p1600_batch); SPONGE_BATCH_KERNEL forces one). Where this CPU runs no
// multi-state kernel, the messages are hashed one at a time on the active kernel. The digests
// equal the one-shot functions' on every kernel.
//
// digests.size() must equal messages.size(): otherwise std::invalid_argument is thrown and
// nothing is written. Messages may overlap each other. digests[i] may overlap messages[i]
// (in-place hashing: a message is read completely before its digest is written), but must
// not overlap any other message, which may still be read after digests[i] is written; the
// digests must not overlap each other. No allocation (an exception aside); every state and
// padded block the batch went through is wiped before return.
// ---------------------------------------------------------------------------------------
void keccak256_batch(std::span<const std::span<const std::uint8_t>> messages,
                     std::span<std::array<std::uint8_t, 32>> digests);
void sha3_224_batch(std::span<const std::span<const std::uint8_t>> messages,
                    std::span<std::array<std::uint8_t, 28>> digests);
void sha3_256_batch(std::span<const std::span<const std::uint8_t>> messages,
                    std::span<std::array<std::uint8_t, 32>> digests);
void sha3_384_batch(std::span<const std::span<const std::uint8_t>> messages,
                    std::span<std::array<std::uint8_t, 48>> digests);
void sha3_512_batch(std::span<const std::span<const std::uint8_t>> messages,
                    std::span<std::array<std::uint8_t, 64>> digests);

// ---------------------------------------------------------------------------------------
// Four SHAKE streams at once: the shape of ML-KEM's and ML-DSA's matrix expansion (four
// seed || i || j inputs, then 168-byte blocks squeezed from each). Shake128x4 / Shake256x4
// hold four independent SHAKE states lane-interleaved for the batch kernel
// (active_kernel(KernelFamily::keccak_p1600_batch)); every output byte equals what four
// separate Shake128 / Shake256 objects give for the same calls.
//
// update(inputs) absorbs inputs[s] into stream s. Inputs of any, different lengths are
// correct; inputs of equal length (from equal positions) are the fast path: their blocks go
// through the batch kernel in lockstep, one call per block for a four-state kernel, two for
// a two-state one, four for `single`. A stream out of step with the others permutes alone,
// on the single-state kernel. Like Shake128, update() throws std::logic_error once
// squeeze() has been called, until reset(). squeeze(outputs) needs outputs of one length per
// call (std::invalid_argument otherwise, nothing written); any length, any number of calls.
// A whole-block squeeze costs one batch permutation of all four states. No allocation (an
// exception aside); the destructor and reset() wipe the states.
// ---------------------------------------------------------------------------------------
namespace detail {

struct KeccakBatchKernel;  // runtime/src/batch_kernel.hpp: the dispatcher's view of a kernel

// Four Keccak sponges of one rate and domain byte on a batch kernel of N states, N dividing
// 4 (1, 2 or 4; a kernel of more states is replaced by the first one this CPU runs by default
// whose N divides 4, at least `single`): the states are laid out
// as 4 / N groups of N interleaved states, each group what one kernel call permutes (lane i
// of stream s at states_[25 * N * (s / N) + N * i + s % N]).
class KeccakSpongeX4 {
 public:
  static constexpr std::size_t kStreams = 4;

  KeccakSpongeX4(std::size_t rate_bytes, std::uint8_t domain_byte) noexcept;
  KeccakSpongeX4(const KeccakBatchKernel& kernel, std::size_t rate_bytes,
                 std::uint8_t domain_byte) noexcept;
  KeccakSpongeX4(const KeccakSpongeX4&) = default;
  KeccakSpongeX4& operator=(const KeccakSpongeX4&) = default;
  // Wipes the states and every field.
  ~KeccakSpongeX4();

  // Absorbs lengths[s] bytes at inputs[s] into stream s (inputs[s] may be null when
  // lengths[s] is 0). Throws std::logic_error once squeezing has begun.
  void absorb(const std::uint8_t* const* inputs, const std::size_t* lengths);
  void require_absorbing() const;
  // Pads on the first call, then writes `length` bytes of stream s to outputs[s].
  void squeeze(std::uint8_t* const* outputs, std::size_t length) noexcept;
  void reset() noexcept;
  bool squeezing() const noexcept { return squeezing_ != 0; }
  // The batch kernel the states are laid out for.
  const KeccakBatchKernel& kernel() const noexcept { return *kernel_; }

 private:
  std::size_t lane_index(std::size_t stream, std::size_t lane) const noexcept;
  void xor_into_stream(std::size_t stream, std::size_t offset, const std::uint8_t* data,
                       std::size_t length) noexcept;
  void copy_from_stream(std::size_t stream, std::size_t offset, std::uint8_t* out,
                        std::size_t length) const noexcept;
  void permute_all() noexcept;
  void absorb_blocks_all(const std::uint8_t* const* blocks) noexcept;
  void absorb_stream(std::size_t stream, const std::uint8_t* data, std::size_t length) noexcept;
  void absorb_blocks_stream(std::size_t stream, const std::uint8_t* blocks,
                            std::size_t block_count) noexcept;

  // No padding between or after the fields (shake_x4.cpp checks), so a destroyed object
  // leaves only zeros.
  alignas(32) std::uint64_t states_[25 * kStreams];
  const KeccakBatchKernel* kernel_;
  // Per stream: bytes of the current block absorbed, or read out (equal while squeezing).
  std::uint32_t position_[kStreams];
  std::uint16_t rate_bytes_;
  std::uint8_t domain_byte_;
  std::uint8_t squeezing_;
  std::uint32_t group_states_;  // N, the kernel's states
};

// Throws the std::invalid_argument of squeeze() with outputs of different lengths.
[[noreturn]] void throw_unequal_x4_outputs();

// Four SHAKE streams of rate `RateBytes` (168: SHAKE128, 136: SHAKE256).
template <std::size_t RateBytes>
class ShakeX4 {
 public:
  static constexpr std::size_t streams = KeccakSpongeX4::kStreams;
  static constexpr std::size_t rate_bytes = RateBytes;
  static constexpr std::uint8_t domain_byte = 0x1F;
  using Inputs = std::array<std::span<const std::uint8_t>, KeccakSpongeX4::kStreams>;
  using Outputs = std::array<std::span<std::uint8_t>, KeccakSpongeX4::kStreams>;

  // On the dispatcher's batch kernel.
  ShakeX4() noexcept : sponge_(RateBytes, domain_byte) {}
  // On a given compiled batch kernel (the tests and benchmarks run each one).
  explicit ShakeX4(const KeccakBatchKernel& kernel) noexcept
      : sponge_(kernel, RateBytes, domain_byte) {}

  // Absorbs inputs[s] into stream s, any lengths. Throws std::logic_error once squeeze()
  // has been called.
  ShakeX4& update(const Inputs& inputs) {
    const std::uint8_t* data[streams];
    std::size_t lengths[streams];
    for (std::size_t s = 0; s < streams; ++s) {
      data[s] = inputs[s].data();
      lengths[s] = inputs[s].size();
    }
    sponge_.absorb(data, lengths);
    return *this;
  }

  // Pads on the first call, then fills outputs[s] from stream s; successive calls continue
  // the streams. The outputs must be of one length: std::invalid_argument otherwise, and
  // nothing is written or squeezed.
  void squeeze(const Outputs& outputs) {
    std::uint8_t* data[streams];
    for (std::size_t s = 0; s < streams; ++s) {
      if (outputs[s].size() != outputs[0].size()) throw_unequal_x4_outputs();
      data[s] = outputs[s].data();
    }
    sponge_.squeeze(data, outputs[0].size());
  }

  // Back to four empty messages, absorbing.
  void reset() noexcept { sponge_.reset(); }

  bool squeezing() const noexcept { return sponge_.squeezing(); }
  const KeccakBatchKernel& kernel() const noexcept { return sponge_.kernel(); }

 private:
  KeccakSpongeX4 sponge_;
};

}  // namespace detail

using Shake128x4 = detail::ShakeX4<168>;
using Shake256x4 = detail::ShakeX4<136>;

namespace detail {
inline std::span<const std::uint8_t> as_bytes(std::string_view text) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}
inline std::span<const std::uint8_t> as_bytes(std::span<const std::byte> data) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(data.data()), data.size()};
}
}  // namespace detail

inline std::array<std::uint8_t, 32> keccak256(std::string_view text) noexcept {
  return keccak256(detail::as_bytes(text));
}
inline std::array<std::uint8_t, 32> keccak256(std::span<const std::byte> data) noexcept {
  return keccak256(detail::as_bytes(data));
}
inline std::array<std::uint8_t, 28> sha3_224(std::string_view text) noexcept {
  return sha3_224(detail::as_bytes(text));
}
inline std::array<std::uint8_t, 28> sha3_224(std::span<const std::byte> data) noexcept {
  return sha3_224(detail::as_bytes(data));
}
inline std::array<std::uint8_t, 32> sha3_256(std::string_view text) noexcept {
  return sha3_256(detail::as_bytes(text));
}
inline std::array<std::uint8_t, 32> sha3_256(std::span<const std::byte> data) noexcept {
  return sha3_256(detail::as_bytes(data));
}
inline std::array<std::uint8_t, 48> sha3_384(std::string_view text) noexcept {
  return sha3_384(detail::as_bytes(text));
}
inline std::array<std::uint8_t, 48> sha3_384(std::span<const std::byte> data) noexcept {
  return sha3_384(detail::as_bytes(data));
}
inline std::array<std::uint8_t, 64> sha3_512(std::string_view text) noexcept {
  return sha3_512(detail::as_bytes(text));
}
inline std::array<std::uint8_t, 64> sha3_512(std::span<const std::byte> data) noexcept {
  return sha3_512(detail::as_bytes(data));
}
inline void shake128(std::string_view in, std::span<std::uint8_t> out) noexcept {
  shake128(detail::as_bytes(in), out);
}
inline void shake256(std::string_view in, std::span<std::uint8_t> out) noexcept {
  shake256(detail::as_bytes(in), out);
}
namespace detail {
inline std::span<std::uint8_t> as_writable_bytes(std::span<std::byte> out) noexcept {
  return {reinterpret_cast<std::uint8_t*>(out.data()), out.size()};
}
}  // namespace detail
inline void shake128(std::span<const std::byte> in, std::span<std::uint8_t> out) noexcept {
  shake128(detail::as_bytes(in), out);
}
inline void shake128(std::span<const std::byte> in, std::span<std::byte> out) noexcept {
  shake128(detail::as_bytes(in), detail::as_writable_bytes(out));
}
inline void shake128(std::string_view in, std::span<std::byte> out) noexcept {
  shake128(detail::as_bytes(in), detail::as_writable_bytes(out));
}
inline void shake256(std::span<const std::byte> in, std::span<std::uint8_t> out) noexcept {
  shake256(detail::as_bytes(in), out);
}
inline void shake256(std::span<const std::byte> in, std::span<std::byte> out) noexcept {
  shake256(detail::as_bytes(in), detail::as_writable_bytes(out));
}
inline void shake256(std::string_view in, std::span<std::byte> out) noexcept {
  shake256(detail::as_bytes(in), detail::as_writable_bytes(out));
}

// ---------------------------------------------------------------------------------------
// RFC 9861: TurboSHAKE128/256 and KangarooTwelve (KT128, KT256), on Keccak-p[1600,12].
// SP 800-185: cSHAKE, KMAC, KMACXOF, TupleHash, ParallelHash and their XOF forms, on
// Keccak-f[1600]. The streaming classes follow the SHAKE classes: update() absorbs,
// squeeze() reads the output in pieces of any size (update() then throws std::logic_error
// until reset()); the fixed-output forms have digest(out), which fills `out` (any length, the
// length is part of the input) and leaves the object unchanged.
// ---------------------------------------------------------------------------------------
namespace detail {

// The update() overloads of a streaming class, which provides absorb_bytes(span).
template <typename Derived>
class ByteInput {
 public:
  Derived& update(std::span<const std::uint8_t> data) {
    static_cast<Derived*>(this)->absorb_bytes(data);
    return static_cast<Derived&>(*this);
  }
  Derived& update(std::span<const std::byte> data) { return update(as_bytes(data)); }
  Derived& update(std::string_view text) { return update(as_bytes(text)); }
};

// The squeeze() overloads of an XOF class, which provides squeeze_bytes(span).
template <typename Derived>
class ByteOutput {
 public:
  void squeeze(std::span<std::uint8_t> out) { static_cast<Derived*>(this)->squeeze_bytes(out); }
  void squeeze(std::span<std::byte> out) { squeeze(as_writable_bytes(out)); }
};

// The domain byte, or std::invalid_argument when it is outside RFC 9861's 0x01..0x7F.
std::uint8_t checked_turboshake_domain(std::uint8_t domain_byte);

// TurboSHAKE with rate `RateBytes`: the SHAKE sponge on 12 rounds, with a domain byte D in
// 0x01..0x7F (0x1F by default, as RFC 9861 recommends for plain hashing).
template <std::size_t RateBytes>
class TurboShake : public ByteInput<TurboShake<RateBytes>>,
                   public ByteOutput<TurboShake<RateBytes>> {
 public:
  static constexpr std::uint8_t kDefaultDomainByte = 0x1F;
  // Throws std::invalid_argument for a domain byte outside 0x01..0x7F.
  explicit TurboShake(std::uint8_t domain_byte = kDefaultDomainByte)
      : sponge_(RateBytes, checked_turboshake_domain(domain_byte), KeccakSponge::kReducedRounds) {}
  void reset() noexcept { sponge_.reset(); }

 private:
  friend ByteInput<TurboShake>;
  friend ByteOutput<TurboShake>;
  void absorb_bytes(std::span<const std::uint8_t> data) {
    sponge_.absorb(data.data(), data.size());
  }
  void squeeze_bytes(std::span<std::uint8_t> out) noexcept {
    sponge_.squeeze(out.data(), out.size());
  }
  KeccakSponge sponge_;
};

// KangarooTwelve's tree over S = M || C || length_encode(|C|): S in 8 KiB chunks; beyond
// the first, each chunk is a leaf whose chaining value (TurboSHAKE, D = 0x0B) the final node
// absorbs. Computed sequentially; whole chunks go through absorb_whole_chunks and from there
// hash_whole_leaves (leaf_hashing.hpp), the one place a multi-state kernel will hash several
// leaves at once, for ParallelHash too.
class KangarooTwelveTree {
 public:
  static constexpr std::size_t kChunkBytes = 8192;

  KangarooTwelveTree(std::size_t rate_bytes, std::size_t chaining_value_bytes,
                     std::span<const std::uint8_t> customization) noexcept;
  KangarooTwelveTree(const KangarooTwelveTree&) = default;
  KangarooTwelveTree& operator=(const KangarooTwelveTree&) = default;
  ~KangarooTwelveTree();

  void absorb(const std::uint8_t* data, std::size_t length);
  void squeeze(std::uint8_t* out, std::size_t length) noexcept;
  void reset() noexcept;

 private:
  void absorb_tree_input(const std::uint8_t* data, std::size_t length) noexcept;
  void absorb_whole_chunks(const std::uint8_t* chunks, std::size_t chunk_count) noexcept;
  void finish_leaf() noexcept;
  void finish_input() noexcept;

  KeccakSponge final_node_;
  KeccakSponge leaf_;
  std::span<const std::uint8_t> customization_;
  std::uint64_t input_bytes_;         // bytes of S absorbed so far
  std::uint64_t leaves_;              // leaves whose chaining value the final node has absorbed
  std::size_t chaining_value_bytes_;  // a word, like every field: no padding to wipe
};

// KT128 (RateBytes 168, 32-byte chaining values) or KT256 (136, 64).
template <std::size_t RateBytes, std::size_t ChainingValueBytes>
class KangarooTwelve : public ByteInput<KangarooTwelve<RateBytes, ChainingValueBytes>>,
                       public ByteOutput<KangarooTwelve<RateBytes, ChainingValueBytes>> {
 public:
  // The customization string C is not copied (no allocation): like a std::string_view, it
  // must outlive the object, or its last reset().
  explicit KangarooTwelve(std::span<const std::uint8_t> customization = {}) noexcept
      : tree_(RateBytes, ChainingValueBytes, customization) {}
  explicit KangarooTwelve(std::string_view customization) noexcept
      : KangarooTwelve(as_bytes(customization)) {}
  void reset() noexcept { tree_.reset(); }

 private:
  friend ByteInput<KangarooTwelve>;
  friend ByteOutput<KangarooTwelve>;
  void absorb_bytes(std::span<const std::uint8_t> data) { tree_.absorb(data.data(), data.size()); }
  void squeeze_bytes(std::span<std::uint8_t> out) noexcept {
    tree_.squeeze(out.data(), out.size());
  }
  KangarooTwelveTree tree_;
};

// The SP 800-185 sponge: cSHAKE with its prefix (N, S and, for KMAC, the key) absorbed into
// a saved starting state that reset() returns to, and the closing right_encode of the
// output length (0 for the XOF forms).
class Sp800185Sponge {
 public:
  // cSHAKE(N = function_name, S = customization); plain SHAKE when both are empty.
  Sp800185Sponge(std::size_t rate_bytes, std::span<const std::uint8_t> function_name,
                 std::span<const std::uint8_t> customization) noexcept;
  // KMAC: then bytepad(encode_string(key), rate) into the starting state.
  void absorb_key(std::span<const std::uint8_t> key) noexcept;

  void absorb(std::span<const std::uint8_t> data) { sponge_.absorb(data.data(), data.size()); }
  void absorb_encoded_string(std::span<const std::uint8_t> data);  // encode_string(data)
  void absorb_left_encoded(std::uint64_t value);
  void absorb_right_encoded(std::uint64_t value);
  bool squeezing() const noexcept { return sponge_.squeezing(); }
  void require_absorbing() const { sponge_.require_absorbing(); }
  std::size_t rate_bytes() const noexcept { return sponge_.rate_bytes(); }

  // Fixed output: right_encode(8 * out.size()) and the squeeze, on a copy.
  void digest(std::span<std::uint8_t> out) const;
  // XOF: right_encode(0) on the first call, then the output stream.
  void squeeze_xof(std::span<std::uint8_t> out) noexcept;
  // cSHAKE: the output stream, with no length encoding.
  void squeeze_output(std::span<std::uint8_t> out) noexcept {
    sponge_.squeeze(out.data(), out.size());
  }
  void reset() noexcept { sponge_ = initial_; }

 private:
  KeccakSponge initial_;
  KeccakSponge sponge_;
};

// Rate of the 128- and 256-bit security SP 800-185 functions.
template <int SecurityBits>
inline constexpr std::size_t kSp800185Rate = SecurityBits == 128 ? 168 : 136;

inline constexpr std::uint8_t kKmacName[] = {'K', 'M', 'A', 'C'};
inline constexpr std::uint8_t kTupleHashName[] = {'T', 'u', 'p', 'l', 'e', 'H', 'a', 's', 'h'};
inline constexpr std::uint8_t kParallelHashName[] = {'P', 'a', 'r', 'a', 'l', 'l',
                                                     'e', 'l', 'H', 'a', 's', 'h'};

// digest(out) for the fixed-output forms, squeeze(out) for the XOF forms, over the
// Sp800185Sponge `sponge_` of Derived (which may first complete it in finished()).
template <typename Derived, bool Xof>
class Sp800185Output;
template <typename Derived>
class Sp800185Output<Derived, false> {
 public:
  // Fills `out`; its length L is part of the input (right_encode(8L)). Leaves the object
  // unchanged, so it may be called again and update() may continue.
  void digest(std::span<std::uint8_t> out) const {
    static_cast<const Derived*>(this)->finished().digest(out);
  }
  void digest(std::span<std::byte> out) const { digest(as_writable_bytes(out)); }
};
template <typename Derived>
class Sp800185Output<Derived, true> : public ByteOutput<Derived> {};

// cSHAKE128/256.
template <int SecurityBits>
class Cshake : public ByteInput<Cshake<SecurityBits>>, public ByteOutput<Cshake<SecurityBits>> {
 public:
  Cshake(std::span<const std::uint8_t> function_name,
         std::span<const std::uint8_t> customization) noexcept
      : sponge_(kSp800185Rate<SecurityBits>, function_name, customization) {}
  Cshake(std::string_view function_name, std::string_view customization) noexcept
      : Cshake(as_bytes(function_name), as_bytes(customization)) {}
  void reset() noexcept { sponge_.reset(); }

 private:
  friend ByteInput<Cshake>;
  friend ByteOutput<Cshake>;
  void absorb_bytes(std::span<const std::uint8_t> data) { sponge_.absorb(data); }
  void squeeze_bytes(std::span<std::uint8_t> out) noexcept { sponge_.squeeze_output(out); }
  Sp800185Sponge sponge_;
};

// KMAC128/256 (Xof false) and KMACXOF128/256 (Xof true). The key is a secret: it is only
// ever in the sponge states, which are wiped like every state.
template <int SecurityBits, bool Xof>
class Kmac : public ByteInput<Kmac<SecurityBits, Xof>>,
             public Sp800185Output<Kmac<SecurityBits, Xof>, Xof> {
 public:
  Kmac(std::span<const std::uint8_t> key, std::span<const std::uint8_t> customization) noexcept
      : sponge_(kSp800185Rate<SecurityBits>, kKmacName, customization) {
    sponge_.absorb_key(key);
  }
  Kmac(std::string_view key, std::string_view customization) noexcept
      : Kmac(as_bytes(key), as_bytes(customization)) {}
  void reset() noexcept { sponge_.reset(); }

 private:
  friend ByteInput<Kmac>;
  friend ByteOutput<Kmac>;
  friend Sp800185Output<Kmac, Xof>;
  void absorb_bytes(std::span<const std::uint8_t> data) { sponge_.absorb(data); }
  void squeeze_bytes(std::span<std::uint8_t> out) noexcept { sponge_.squeeze_xof(out); }
  const Sp800185Sponge& finished() const noexcept { return sponge_; }
  Sp800185Sponge sponge_;
};

// TupleHash128/256 and TupleHashXOF128/256: add() absorbs one whole element of the tuple
// (encode_string(X_i)), so ("ab", "c") and ("a", "bc") differ.
template <int SecurityBits, bool Xof>
class TupleHash : public Sp800185Output<TupleHash<SecurityBits, Xof>, Xof> {
 public:
  explicit TupleHash(std::span<const std::uint8_t> customization = {}) noexcept
      : sponge_(kSp800185Rate<SecurityBits>, kTupleHashName, customization) {}
  explicit TupleHash(std::string_view customization) noexcept
      : TupleHash(as_bytes(customization)) {}
  // Throws std::logic_error after squeeze().
  TupleHash& add(std::span<const std::uint8_t> element) {
    sponge_.absorb_encoded_string(element);
    return *this;
  }
  TupleHash& add(std::span<const std::byte> element) { return add(as_bytes(element)); }
  TupleHash& add(std::string_view element) { return add(as_bytes(element)); }
  void reset() noexcept { sponge_.reset(); }

 private:
  friend ByteOutput<TupleHash>;
  friend Sp800185Output<TupleHash, Xof>;
  void squeeze_bytes(std::span<std::uint8_t> out) noexcept { sponge_.squeeze_xof(out); }
  const Sp800185Sponge& finished() const noexcept { return sponge_; }
  Sp800185Sponge sponge_;
};

// ParallelHash's leaves: the input in blocks of B bytes, each hashed with cSHAKE(X_i, 2 *
// SecurityBits, "", "") = SHAKE, and the leaf outputs absorbed by the main sponge.
// Sequential; whole blocks go through absorb_whole_blocks and from there hash_whole_leaves
// (leaf_hashing.hpp), the leaf hashing KangarooTwelve shares.
class ParallelHashTree {
 public:
  // Throws std::invalid_argument for a block size of 0.
  ParallelHashTree(int security_bits, std::size_t block_size,
                   std::span<const std::uint8_t> customization);
  ParallelHashTree(const ParallelHashTree&) = default;
  ParallelHashTree& operator=(const ParallelHashTree&) = default;
  ~ParallelHashTree();

  void absorb(const std::uint8_t* data, std::size_t length);
  // The main sponge with the last leaf, right_encode(n) absorbed: ready for the output length.
  Sp800185Sponge finished() const noexcept;
  void squeeze(std::span<std::uint8_t> out) noexcept;
  void reset() noexcept;

 private:
  void absorb_whole_blocks(const std::uint8_t* blocks, std::size_t block_count) noexcept;
  void finish_leaf() noexcept;
  void finish_leaves() noexcept;

  Sp800185Sponge sponge_;
  KeccakSponge leaf_;
  std::size_t block_size_;
  std::size_t leaf_bytes_;         // bytes of the current, unfinished leaf
  std::uint64_t leaves_;           // leaves absorbed by sponge_
  std::size_t leaf_output_bytes_;  // a word, like every field: no padding to wipe
};

// ParallelHash128/256 (Xof false) and ParallelHashXOF128/256 (Xof true) with block size B.
template <int SecurityBits, bool Xof>
class ParallelHash : public ByteInput<ParallelHash<SecurityBits, Xof>>,
                     public Sp800185Output<ParallelHash<SecurityBits, Xof>, Xof> {
 public:
  // Throws std::invalid_argument for a block size of 0.
  explicit ParallelHash(std::size_t block_size, std::span<const std::uint8_t> customization = {})
      : tree_(SecurityBits, block_size, customization) {}
  ParallelHash(std::size_t block_size, std::string_view customization)
      : ParallelHash(block_size, as_bytes(customization)) {}
  void reset() noexcept { tree_.reset(); }

 private:
  friend ByteInput<ParallelHash>;
  friend ByteOutput<ParallelHash>;
  friend Sp800185Output<ParallelHash, Xof>;
  void absorb_bytes(std::span<const std::uint8_t> data) { tree_.absorb(data.data(), data.size()); }
  void squeeze_bytes(std::span<std::uint8_t> out) noexcept { tree_.squeeze(out); }
  Sp800185Sponge finished() const noexcept { return tree_.finished(); }
  ParallelHashTree tree_;
};

// TupleHash of the `count` elements element_at(0 ..), into `out`: the one-shot forms of
// the C++ and the C API.
template <typename Tuple, typename ElementAt>
void tuple_one_shot(std::size_t count, ElementAt element_at,
                    std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) {
  Tuple tuple(customization);
  for (std::size_t i = 0; i < count; ++i)
    tuple.add(element_at(i));
  if constexpr (requires { tuple.digest(out); }) {
    tuple.digest(out);
  } else {
    tuple.squeeze(out);
  }
}

}  // namespace detail

using TurboShake128 = detail::TurboShake<168>;
using TurboShake256 = detail::TurboShake<136>;
using Kt128 = detail::KangarooTwelve<168, 32>;
using Kt256 = detail::KangarooTwelve<136, 64>;
using Cshake128 = detail::Cshake<128>;
using Cshake256 = detail::Cshake<256>;
using Kmac128 = detail::Kmac<128, false>;
using Kmac256 = detail::Kmac<256, false>;
using KmacXof128 = detail::Kmac<128, true>;
using KmacXof256 = detail::Kmac<256, true>;
using TupleHash128 = detail::TupleHash<128, false>;
using TupleHash256 = detail::TupleHash<256, false>;
using TupleHashXof128 = detail::TupleHash<128, true>;
using TupleHashXof256 = detail::TupleHash<256, true>;
using ParallelHash128 = detail::ParallelHash<128, false>;
using ParallelHash256 = detail::ParallelHash<256, false>;
using ParallelHashXof128 = detail::ParallelHash<128, true>;
using ParallelHashXof256 = detail::ParallelHash<256, true>;

// One-shot forms. `out` receives out.size() bytes; for the fixed-output functions (KMAC,
// TupleHash, ParallelHash) that length is the L of SP 800-185 and changes every byte.
// Throws std::invalid_argument for a domain byte outside 0x01..0x7F.
void turboshake128(std::span<const std::uint8_t> in, std::span<std::uint8_t> out,
                   std::uint8_t domain_byte = TurboShake128::kDefaultDomainByte);
void turboshake256(std::span<const std::uint8_t> in, std::span<std::uint8_t> out,
                   std::uint8_t domain_byte = TurboShake256::kDefaultDomainByte);
void kt128(std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
           std::span<std::uint8_t> out) noexcept;
void kt256(std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
           std::span<std::uint8_t> out) noexcept;
void cshake128(std::span<const std::uint8_t> in, std::span<const std::uint8_t> function_name,
               std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) noexcept;
void cshake256(std::span<const std::uint8_t> in, std::span<const std::uint8_t> function_name,
               std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) noexcept;
void kmac128(std::span<const std::uint8_t> key, std::span<const std::uint8_t> in,
             std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) noexcept;
void kmac256(std::span<const std::uint8_t> key, std::span<const std::uint8_t> in,
             std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) noexcept;
void kmacxof128(std::span<const std::uint8_t> key, std::span<const std::uint8_t> in,
                std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) noexcept;
void kmacxof256(std::span<const std::uint8_t> key, std::span<const std::uint8_t> in,
                std::span<const std::uint8_t> customization, std::span<std::uint8_t> out) noexcept;
void tuplehash128(std::span<const std::span<const std::uint8_t>> elements,
                  std::span<const std::uint8_t> customization,
                  std::span<std::uint8_t> out) noexcept;
void tuplehash256(std::span<const std::span<const std::uint8_t>> elements,
                  std::span<const std::uint8_t> customization,
                  std::span<std::uint8_t> out) noexcept;
void tuplehashxof128(std::span<const std::span<const std::uint8_t>> elements,
                     std::span<const std::uint8_t> customization,
                     std::span<std::uint8_t> out) noexcept;
void tuplehashxof256(std::span<const std::span<const std::uint8_t>> elements,
                     std::span<const std::uint8_t> customization,
                     std::span<std::uint8_t> out) noexcept;
// Throw std::invalid_argument for a block size of 0.
void parallelhash128(std::span<const std::uint8_t> in, std::size_t block_size,
                     std::span<const std::uint8_t> customization, std::span<std::uint8_t> out);
void parallelhash256(std::span<const std::uint8_t> in, std::size_t block_size,
                     std::span<const std::uint8_t> customization, std::span<std::uint8_t> out);
void parallelhashxof128(std::span<const std::uint8_t> in, std::size_t block_size,
                        std::span<const std::uint8_t> customization, std::span<std::uint8_t> out);
void parallelhashxof256(std::span<const std::uint8_t> in, std::size_t block_size,
                        std::span<const std::uint8_t> customization, std::span<std::uint8_t> out);

// ---------------------------------------------------------------------------------------
// Ascon (NIST SP 800-232) on Ascon-p[320], dispatched on its own (KernelFamily::ascon_p320):
// Ascon-Hash256, Ascon-XOF128, Ascon-CXOF128 and Ascon-AEAD128. The hash classes follow the
// SHAKE classes: update() absorbs, digest() (Hash256) or squeeze() (the XOFs, in pieces of any
// size) gives output, and update() throws std::logic_error once squeezing has begun, until
// reset(). Every state and key is wiped when an object is destroyed, and an AEAD object's as
// soon as finish() returns.
//
// Ascon-AEAD128: a 16-byte key, a 16-byte nonce, a 16-byte tag; the ciphertext is as long as
// the plaintext. The caller must never use a nonce twice with the same key: that is the
// caller's duty, which this library cannot check (a repeated nonce reveals the XOR of the two
// plaintexts and voids authenticity). Decryption compares the tag in constant time; on a
// mismatch it reports failure and zeroes the plaintext output, so no unverified plaintext is
// released. Plaintext and ciphertext may be the same buffer (in-place), but must not partly
// overlap.
// ---------------------------------------------------------------------------------------
namespace detail {

struct AsconKernel;  // runtime/src/ascon_kernel.hpp: the dispatcher's view of a kernel

// The sponge of the hash functions: a 64-bit rate (x0), P12 after every block.
class AsconHashSponge {
 public:
  static constexpr std::size_t kRateBytes = 8;

  // Starts from `initial` (the state after the initialisation, which the caller computed).
  AsconHashSponge(const AsconKernel& kernel, const std::uint64_t (&initial)[5]) noexcept;
  AsconHashSponge(const AsconHashSponge&) = default;
  AsconHashSponge& operator=(const AsconHashSponge&) = default;
  ~AsconHashSponge();

  // Throws std::logic_error once squeezing has begun.
  void absorb(const std::uint8_t* data, std::size_t length);
  void require_absorbing() const;
  // Pads the last (partial or empty) block and permutes; absorbing may continue with a new
  // block sequence (CXOF128's customization string ends this way).
  void finish_absorbing() noexcept;
  // Pads on the first call, then reads output; successive calls continue the stream.
  void squeeze(std::uint8_t* out, std::size_t length) noexcept;
  void restart(const std::uint64_t (&initial)[5]) noexcept;
  void copy_state(std::uint64_t (&out)[5]) const noexcept;
  const AsconKernel& kernel() const noexcept { return *kernel_; }

 private:
  // Word-sized fields only: no padding bytes, so a destroyed sponge leaves only zeros.
  std::uint64_t words_[5];
  const AsconKernel* kernel_;
  std::uint64_t position_;  // bytes of the current block absorbed, or of x0 read out
  std::uint64_t squeezing_;
};

// The AEAD state: key, state words, the phase, and the position in the current block.
class AsconAeadState {
 public:
  static constexpr std::size_t kRateBytes = 16;

  AsconAeadState(const AsconKernel& kernel, const std::uint8_t* key,
                 const std::uint8_t* nonce) noexcept;
  AsconAeadState(const AsconAeadState&) = delete;
  AsconAeadState& operator=(const AsconAeadState&) = delete;
  ~AsconAeadState();

  // Throw std::logic_error out of order: associated data after text, anything after finish.
  void absorb_associated_data(const std::uint8_t* data, std::size_t length);
  void encrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t length);
  void decrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t length);
  // The tag; wipes the state and the key. Throws std::logic_error after finish.
  void finish(std::uint8_t* tag);

 private:
  enum Phase : std::uint64_t { kNoAssociatedData, kAssociatedData, kText, kFinished };
  void require_phase_at_most(Phase phase, const char* operation) const;
  void begin_text() noexcept;
  void wipe() noexcept;

  std::uint64_t words_[5];
  std::uint64_t key_[2];
  const AsconKernel* kernel_;
  std::uint64_t position_;  // bytes of the current 16-byte block
  Phase phase_;
};

}  // namespace detail

// Ascon-Hash256: 32-byte digest.
class AsconHash256 : public detail::ByteInput<AsconHash256> {
 public:
  static constexpr std::size_t digest_bytes = 32;
  AsconHash256() noexcept;
  // On a given compiled kernel (the tests and benchmarks run each one); the default
  // constructor uses the dispatcher's choice.
  explicit AsconHash256(const detail::AsconKernel& kernel) noexcept;
  // The digest of everything absorbed so far; leaves the object unchanged.
  std::array<std::uint8_t, 32> digest() const;
  void reset() noexcept;

 private:
  friend detail::ByteInput<AsconHash256>;
  void absorb_bytes(std::span<const std::uint8_t> data) {
    sponge_.absorb(data.data(), data.size());
  }
  detail::AsconHashSponge sponge_;
};

// Ascon-XOF128: output of any length.
class AsconXof128 : public detail::ByteInput<AsconXof128>, public detail::ByteOutput<AsconXof128> {
 public:
  AsconXof128() noexcept;
  explicit AsconXof128(const detail::AsconKernel& kernel) noexcept;
  void reset() noexcept;

 private:
  friend detail::ByteInput<AsconXof128>;
  friend detail::ByteOutput<AsconXof128>;
  void absorb_bytes(std::span<const std::uint8_t> data) {
    sponge_.absorb(data.data(), data.size());
  }
  void squeeze_bytes(std::span<std::uint8_t> out) noexcept {
    sponge_.squeeze(out.data(), out.size());
  }
  detail::AsconHashSponge sponge_;
};

// Ascon-CXOF128: Ascon-XOF128 with a customization string Z of at most 256 bytes, absorbed
// (with its length) in the constructor; reset() returns to the state after it.
class AsconCxof128 : public detail::ByteInput<AsconCxof128>,
                     public detail::ByteOutput<AsconCxof128> {
 public:
  static constexpr std::size_t kMaxCustomizationBytes = 256;  // 2048 bits (SP 800-232)
  // Throws std::invalid_argument when the customization string is longer than 256 bytes.
  explicit AsconCxof128(std::span<const std::uint8_t> customization = {});
  explicit AsconCxof128(std::string_view customization)
      : AsconCxof128(detail::as_bytes(customization)) {}
  AsconCxof128(const detail::AsconKernel& kernel, std::span<const std::uint8_t> customization);
  AsconCxof128(const AsconCxof128&) = default;
  AsconCxof128& operator=(const AsconCxof128&) = default;
  ~AsconCxof128();
  void reset() noexcept;

 private:
  friend detail::ByteInput<AsconCxof128>;
  friend detail::ByteOutput<AsconCxof128>;
  void absorb_bytes(std::span<const std::uint8_t> data) {
    sponge_.absorb(data.data(), data.size());
  }
  void squeeze_bytes(std::span<std::uint8_t> out) noexcept {
    sponge_.squeeze(out.data(), out.size());
  }
  detail::AsconHashSponge sponge_;
  std::uint64_t customized_[5];  // the state after Z: where reset() returns
};

inline constexpr std::size_t kAsconAead128KeyBytes = 16;
inline constexpr std::size_t kAsconAead128NonceBytes = 16;
inline constexpr std::size_t kAsconAead128TagBytes = 16;
using AsconAead128Key = std::span<const std::uint8_t, kAsconAead128KeyBytes>;
using AsconAead128Nonce = std::span<const std::uint8_t, kAsconAead128NonceBytes>;
using AsconAead128Tag = std::array<std::uint8_t, kAsconAead128TagBytes>;

// Streaming Ascon-AEAD128 encryption: associated data in pieces of any size, then plaintext
// in pieces of any size (each piece's ciphertext is written at once), then finish() for the
// tag. Not copyable: a copy would invite encrypting two messages under one nonce.
class AsconAead128Encryptor {
 public:
  AsconAead128Encryptor(AsconAead128Key key, AsconAead128Nonce nonce) noexcept;
  AsconAead128Encryptor(const detail::AsconKernel& kernel, AsconAead128Key key,
                        AsconAead128Nonce nonce) noexcept;
  // Throws std::logic_error after update() or finish().
  AsconAead128Encryptor& update_associated_data(std::span<const std::uint8_t> data);
  // Encrypts `plaintext` into `ciphertext` (the same size: std::invalid_argument otherwise;
  // the same buffer is allowed; partly overlapping buffers: std::invalid_argument, this
  // piece not encrypted and `ciphertext` zeroed). Throws std::logic_error after finish().
  void update(std::span<const std::uint8_t> plaintext, std::span<std::uint8_t> ciphertext);
  // The tag. The state and key are wiped; any later call throws std::logic_error.
  AsconAead128Tag finish();

 private:
  detail::AsconAeadState state_;
};

// Streaming Ascon-AEAD128 decryption into one caller buffer, `plaintext`, fixed at
// construction: update() writes each ciphertext piece's plaintext into the next bytes of it,
// and finish() verifies the tag; on a mismatch it zeroes the whole buffer and returns false.
// Until finish() has returned true the buffer holds unverified plaintext, which the caller
// must not use or release.
class AsconAead128Decryptor {
 public:
  AsconAead128Decryptor(AsconAead128Key key, AsconAead128Nonce nonce,
                        std::span<std::uint8_t> plaintext) noexcept;
  AsconAead128Decryptor(const detail::AsconKernel& kernel, AsconAead128Key key,
                        AsconAead128Nonce nonce, std::span<std::uint8_t> plaintext) noexcept;
  AsconAead128Decryptor(const AsconAead128Decryptor&) = delete;
  AsconAead128Decryptor& operator=(const AsconAead128Decryptor&) = delete;
  ~AsconAead128Decryptor();
  // Throws std::logic_error after update() or finish().
  AsconAead128Decryptor& update_associated_data(std::span<const std::uint8_t> data);
  // Throws std::length_error when the ciphertext so far is longer than the plaintext buffer
  // (nothing of this piece is written), std::logic_error after finish(). The ciphertext may
  // lie in the plaintext buffer itself, at the bytes this piece's plaintext goes to.
  void update(std::span<const std::uint8_t> ciphertext);
  // True when `tag` is the tag of what was decrypted (compared in constant time). False: the
  // whole plaintext buffer is zeroed. Either way the state and key are wiped; a later call
  // throws std::logic_error. The plaintext is the first plaintext_bytes() of the buffer.
  [[nodiscard]] bool finish(std::span<const std::uint8_t, kAsconAead128TagBytes> tag);
  std::size_t plaintext_bytes() const noexcept { return written_; }

 private:
  detail::AsconAeadState state_;
  std::span<std::uint8_t> plaintext_;
  std::size_t written_ = 0;
};

// One-shot forms.
std::array<std::uint8_t, 32> ascon_hash256(std::span<const std::uint8_t> data) noexcept;
inline std::array<std::uint8_t, 32> ascon_hash256(std::string_view text) noexcept {
  return ascon_hash256(detail::as_bytes(text));
}
void ascon_xof128(std::span<const std::uint8_t> in, std::span<std::uint8_t> out) noexcept;
// Throws std::invalid_argument, computing nothing, when `customization` is longer than 256 bytes.
void ascon_cxof128(std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
                   std::span<std::uint8_t> out);
// `ciphertext` must be as long as `plaintext` (std::invalid_argument otherwise), and be it or
// not overlap it (partly overlapping: std::invalid_argument, `ciphertext` and `tag` zeroed).
void ascon_aead128_encrypt(AsconAead128Key key, AsconAead128Nonce nonce,
                           std::span<const std::uint8_t> associated_data,
                           std::span<const std::uint8_t> plaintext,
                           std::span<std::uint8_t> ciphertext,
                           std::span<std::uint8_t, kAsconAead128TagBytes> tag);
// True when the tag matches. False: `plaintext` is zeroed. `plaintext` must be as long as
// `ciphertext` (std::invalid_argument otherwise).
[[nodiscard]] bool ascon_aead128_decrypt(AsconAead128Key key, AsconAead128Nonce nonce,
                                         std::span<const std::uint8_t> associated_data,
                                         std::span<const std::uint8_t> ciphertext,
                                         std::span<const std::uint8_t, kAsconAead128TagBytes> tag,
                                         std::span<std::uint8_t> plaintext);

// ---------------------------------------------------------------------------------------
// The permutation and the kernel in use.
// ---------------------------------------------------------------------------------------

// Keccak-f[1600] on 25 lanes, lane (x, y) at index x + 5y, through the dispatcher.
void keccak_f1600(std::uint64_t state[25]) noexcept;

// The name of the kernel the dispatcher chose: "portable", "amd64-bmi2", "arm64-sha3".
// The choice is made once per process, on first use. The environment variable
// SPONGE_KERNEL forces a kernel by name; a name that is unknown or that this CPU cannot run
// ends the process with a message on stderr (a hash must never silently run on a kernel
// other than the one asked for).
std::string_view active_kernel() noexcept;

// The permutation families, each dispatched on its own: its own kernel table and its own
// override variable, with the rules above.
enum class KernelFamily {
  keccak_p1600,  // Keccak-f[1600] and Keccak-p[1600, 12]; forced with SPONGE_KERNEL
  ascon_p320,    // Ascon-p[320] (p12, p8, p6); forced with SPONGE_ASCON_KERNEL
  // The multi-state Keccak-p[1600] kernel of the batch hashes ("portable-x4", "single", a
  // generated kernel such as "amd64-avx2-x4"); forced with SPONGE_BATCH_KERNEL. "single"
  // hashes one message at a time on the keccak_p1600 kernel.
  keccak_p1600_batch,
};
// The kernel chosen for one family; active_kernel() is active_kernel(keccak_p1600).
std::string_view active_kernel(KernelFamily family) noexcept;

}  // namespace sponge
