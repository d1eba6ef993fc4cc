// RFC 9861 on Keccak-p[1600,12]: TurboSHAKE128/256 and KangarooTwelve (KT128, KT256). The
// streaming classes follow the SHAKE classes: update() absorbs, squeeze() reads the output in
// pieces of any size (update() then throws std::logic_error until reset()). A TurboSHAKE
// domain byte outside 0x01..0x7F throws std::invalid_argument.
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
// absorbs. Whole chunks go through absorb_whole_chunks and from there hash_whole_leaves
// (leaf_hashing.hpp), the one place a multi-state kernel hashes several leaves at once, for
// ParallelHash too; with `threads` other than 1, a long enough run of them is split across
// threads (parallel_leaves.hpp).
class KangarooTwelveTree {
 public:
  static constexpr std::size_t kChunkBytes = 8192;

  KangarooTwelveTree(std::size_t rate_bytes, std::size_t chaining_value_bytes,
                     std::span<const std::uint8_t> customization, unsigned threads = 1) noexcept;
  KangarooTwelveTree(const KangarooTwelveTree&) = default;
  KangarooTwelveTree& operator=(const KangarooTwelveTree&) = default;
  ~KangarooTwelveTree();

  void absorb(const std::uint8_t* data, std::size_t length);
  void squeeze(std::uint8_t* out, std::size_t length) noexcept;
  void reset() noexcept;

 private:
  void absorb_tree_input(const std::uint8_t* data, std::size_t length) noexcept;
  void absorb_first_chunk_beside_leaves(const std::uint8_t* data, std::size_t leaf_count) noexcept;
  void absorb_whole_chunks(const std::uint8_t* chunks, std::size_t chunk_count) noexcept;
  void finish_leaf() noexcept;
  void finish_input() noexcept;

  KeccakSponge final_node_;
  KeccakSponge leaf_;
  std::span<const std::uint8_t> customization_;
  std::uint64_t input_bytes_;         // bytes of S absorbed so far
  std::uint64_t leaves_;              // leaves whose chaining value the final node has absorbed
  std::size_t chaining_value_bytes_;  // a word, like every field: no padding to wipe
  std::size_t threads_;               // 1: this thread only; 0: one per CPU
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
  // Whole chunks that arrive in one update() call, many enough, are hashed on up to
  // threads.count threads (0: one per CPU); the output is the same for any count. These forms
  // allocate (parallel_leaves.hpp says what); the others never do.
  explicit KangarooTwelve(Threads threads) noexcept
      : KangarooTwelve(std::span<const std::uint8_t>(), threads) {}
  KangarooTwelve(std::span<const std::uint8_t> customization, Threads threads) noexcept
      : tree_(RateBytes, ChainingValueBytes, customization, threads.count) {}
  KangarooTwelve(std::string_view customization, Threads threads) noexcept
      : KangarooTwelve(as_bytes(customization), threads) {}
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

}  // namespace detail

using TurboShake128 = detail::TurboShake<168>;
using TurboShake256 = detail::TurboShake<136>;
using Kt128 = detail::KangarooTwelve<168, 32>;
using Kt256 = detail::KangarooTwelve<136, 64>;

// One-shot forms. `out` receives out.size() bytes.
// Throws std::invalid_argument for a domain byte outside 0x01..0x7F.
void turboshake128(std::span<const std::uint8_t> in, std::span<std::uint8_t> out,
                   std::uint8_t domain_byte = TurboShake128::kDefaultDomainByte);
void turboshake256(std::span<const std::uint8_t> in, std::span<std::uint8_t> out,
                   std::uint8_t domain_byte = TurboShake256::kDefaultDomainByte);
void kt128(std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
           std::span<std::uint8_t> out) noexcept;
void kt256(std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
           std::span<std::uint8_t> out) noexcept;
// The same on up to `threads` threads (0: one per CPU), 1 MiB of input or more a thread; the
// output is kt128's and kt256's, byte for byte. These allocate (the leaves' outputs, the
// threads); a thread that cannot be started leaves its share to the others.
void kt128_parallel(std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
                    std::span<std::uint8_t> out, unsigned threads) noexcept;
void kt256_parallel(std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
                    std::span<std::uint8_t> out, unsigned threads) noexcept;

}  // namespace sponge
SPONGE_API_END
