// NIST SP 800-185 on Keccak-f[1600]: cSHAKE, KMAC, KMACXOF, TupleHash, ParallelHash and their
// XOF forms. The streaming classes follow the SHAKE classes: update() absorbs, squeeze() reads
// the output in pieces of any size (update() then throws std::logic_error until reset()); the
// fixed-output forms have digest(out), which fills `out` (any length, the length is part of
// the input) and leaves the object unchanged. A ParallelHash block size of 0 throws
// std::invalid_argument.
#pragma once

#include "sponge/export.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "sponge/byte_io.hpp"
#include "sponge/keccak.hpp"
#include "sponge/threads.hpp"

SPONGE_API_BEGIN
namespace sponge {

namespace detail {

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
// SecurityBits, "", "") = SHAKE, and the leaf outputs absorbed by the main sponge. Whole
// blocks go through absorb_whole_blocks and from there hash_whole_leaves (leaf_hashing.hpp),
// the leaf hashing KangarooTwelve shares; with `threads` other than 1, a long enough run of
// them is split across threads (parallel_leaves.hpp).
class ParallelHashTree {
 public:
  // Throws std::invalid_argument for a block size of 0.
  ParallelHashTree(int security_bits, std::size_t block_size,
                   std::span<const std::uint8_t> customization, unsigned threads = 1);
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
  std::size_t threads_;            // 1: this thread only; 0: one per CPU
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
  // Whole blocks that arrive in one update() call, many enough, are hashed on up to
  // threads.count threads (0: one per CPU); the output is the same for any count. These forms
  // allocate (parallel_leaves.hpp says what); the others never do.
  ParallelHash(std::size_t block_size, Threads threads)
      : ParallelHash(block_size, std::span<const std::uint8_t>(), threads) {}
  ParallelHash(std::size_t block_size, std::span<const std::uint8_t> customization, Threads threads)
      : tree_(SecurityBits, block_size, customization, threads.count) {}
  ParallelHash(std::size_t block_size, std::string_view customization, Threads threads)
      : ParallelHash(block_size, as_bytes(customization), threads) {}
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
// The same on up to `threads` threads (0: one per CPU), 1 MiB of input or more a thread; the
// output is the functions' above, byte for byte. These allocate (the leaves' outputs, the
// threads); a thread that cannot be started leaves its share to the others.
void parallelhash128_parallel(std::span<const std::uint8_t> in, std::size_t block_size,
                              std::span<const std::uint8_t> customization,
                              std::span<std::uint8_t> out, unsigned threads);
void parallelhash256_parallel(std::span<const std::uint8_t> in, std::size_t block_size,
                              std::span<const std::uint8_t> customization,
                              std::span<std::uint8_t> out, unsigned threads);
void parallelhashxof128_parallel(std::span<const std::uint8_t> in, std::size_t block_size,
                                 std::span<const std::uint8_t> customization,
                                 std::span<std::uint8_t> out, unsigned threads);
void parallelhashxof256_parallel(std::span<const std::uint8_t> in, std::size_t block_size,
                                 std::span<const std::uint8_t> customization,
                                 std::span<std::uint8_t> out, unsigned threads);

}  // namespace sponge
SPONGE_API_END
