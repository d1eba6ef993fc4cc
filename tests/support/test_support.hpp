// Shared helpers of the sponge tests: hex, a deterministic random source, the known-answer
// file reader, and uniform "one-shot" and "streamed" views of the seven hash functions.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "sponge/sponge.hpp"

namespace sponge::detail {
struct KeccakBatchKernel;  // runtime/src/batch/batch_kernel.hpp
}

namespace sponge_test {

// Whether this test program may start threads: not a dynamically linked one under qemu-user,
// which hangs in pthread_create (tests/CMakeLists.txt, SPONGE_TEST_NO_THREADS); a statically
// linked copy runs the threaded cases there.
#if defined(SPONGE_TEST_NO_THREADS)
inline constexpr bool kThreadsRun = false;
#else
inline constexpr bool kThreadsRun = true;
#endif

// The compiled batch kernels this CPU runs, best first; the names of the others go to
// `not_runnable` when it is given (a test names them in its output).
std::vector<const sponge::detail::KeccakBatchKernel*> runnable_batch_kernels(
    std::vector<std::string>* not_runnable = nullptr);

using Bytes = std::vector<std::uint8_t>;

// ---------------------------------------------------------------------------------------
// Hex and bytes.
// ---------------------------------------------------------------------------------------
std::string to_hex(std::span<const std::uint8_t> bytes);
// Upper or lower case, no separators. Throws std::invalid_argument on odd length or bad digits.
Bytes from_hex(std::string_view hex);

template <std::size_t N>
Bytes to_bytes(const std::array<std::uint8_t, N>& array) {
  return Bytes(array.begin(), array.end());
}

// splitmix64: a tiny, fully specified generator, so every run sees the same "random" data.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) noexcept : state_(seed) {}
  std::uint64_t next() noexcept;
  // Uniform enough in [0, bound] for test data (bound well below 2^32).
  std::size_t below_or_equal(std::size_t bound) noexcept { return next() % (bound + 1); }
  Bytes bytes(std::size_t length);

 private:
  std::uint64_t state_;
};

// ---------------------------------------------------------------------------------------
// Known-answer files.
// ---------------------------------------------------------------------------------------

// The KAT folder the build was configured with (CMake cache variable SPONGE_KAT_DIR).
std::string kat_dir();

struct KatEntry {
  std::size_t line = 0;      // line of the output (MD / Output / Squeezed) in the file
  std::size_t msg_bits = 0;  // Len, or 8 * message bytes when the file gives no Len
  Bytes msg;                 // exactly msg_bits / 8 bytes (the "00" of Len = 0 is dropped)
  Bytes out;                 // the expected digest or output
};

struct KatFile {
  std::string path;
  std::vector<KatEntry> entries;      // the byte-aligned entries, in file order
  std::size_t bit_entries_skipped{};  // entries with Len % 8 != 0 (not byte messages)
};

// Reads a CAVP .rsp or Keccak-team KAT file (`Len`/`Msg`/`MD|Output|Squeezed`, optional
// `COUNT`, per-entry `Outputlen` or `[Outputlen = n]` sections, LF or CRLF line ends) from
// `relative_path` under kat_dir(). Throws std::runtime_error naming the full path when the
// file is missing or malformed: a missing KAT must fail a test, never skip it.
KatFile read_kat(std::string_view relative_path);

// The "Input of permutation" / "State after permutation" pairs of the Keccak team's
// KeccakF-1600-IntermediateValues.txt, as 25 lanes each (bytes little-endian).
struct PermutationExample {
  std::array<std::uint64_t, 25> input;
  std::array<std::uint64_t, 25> output;
};
std::vector<PermutationExample> read_permutation_examples(std::string_view relative_path);

// The block files of rfc9861/ and sp800-185/: vectors are blocks of `Key = value` lines
// separated by blank lines; `#` lines are comments. Fields keep file order (TupleHash's
// `Element` repeats). Throws std::runtime_error naming the path and line on a missing file
// or field.
struct KatBlock {
  std::string where;  // "path:line" of the block's first field
  std::vector<std::pair<std::string, std::string>> fields;
  const std::string& value(std::string_view key) const;  // the first field named `key`
  std::vector<std::string> values(std::string_view key) const;
  std::size_t number(std::string_view key) const;  // a decimal field
  Bytes hex(std::string_view key) const;           // a hex field ("" is empty)
};
struct KatBlockFile {
  std::string path;
  std::vector<KatBlock> blocks;
};
KatBlockFile read_kat_blocks(std::string_view relative_path);

// RFC 9861's byte strings as rfc9861/ writes them: `empty`, `ptn N` (byte i = i mod 251),
// `repeat XX N`.
Bytes rfc9861_bytes(std::string_view notation);

// An XOF object fed `in` in two updates (split at `split`) and squeezed in two pieces (a
// third of `out_len`, then the rest).
template <typename Xof>
Bytes squeezed_in_pieces(Xof& xof, std::span<const std::uint8_t> in, std::size_t split,
                         std::size_t out_len) {
  xof.update(in.first(split));
  xof.update(in.subspan(split));
  Bytes out(out_len);
  const std::span<std::uint8_t> whole(out);
  xof.squeeze(whole.first(out_len / 3));
  xof.squeeze(whole.subspan(out_len / 3));
  return out;
}

// ---------------------------------------------------------------------------------------
// The seven functions (and test-only Hasher instances) behind one interface.
// ---------------------------------------------------------------------------------------
template <typename H>
inline constexpr bool is_xof = H::digest_bytes == 0;

// The public one-shot function for H; for a Hasher without one (the test-only Keccak
// instances), update + digest. `out_len` is the output length of an XOF and must equal
// H::digest_bytes otherwise.
template <typename H>
Bytes one_shot(std::span<const std::uint8_t> in, std::size_t out_len) {
  using sponge::Keccak256, sponge::Sha3_224, sponge::Sha3_256, sponge::Sha3_384, sponge::Sha3_512,
      sponge::Shake128, sponge::Shake256;
  if constexpr (is_xof<H>) {
    Bytes out(out_len);
    if constexpr (std::is_same_v<H, Shake128>) {
      sponge::shake128(in, out);
    } else if constexpr (std::is_same_v<H, Shake256>) {
      sponge::shake256(in, out);
    } else {
      H xof;
      xof.update(in);
      xof.squeeze(out);
    }
    return out;
  } else {
    if (out_len != H::digest_bytes) return {};  // makes the caller's comparison fail
    if constexpr (std::is_same_v<H, Keccak256>) return to_bytes(sponge::keccak256(in));
    if constexpr (std::is_same_v<H, Sha3_224>) return to_bytes(sponge::sha3_224(in));
    if constexpr (std::is_same_v<H, Sha3_256>) return to_bytes(sponge::sha3_256(in));
    if constexpr (std::is_same_v<H, Sha3_384>) return to_bytes(sponge::sha3_384(in));
    if constexpr (std::is_same_v<H, Sha3_512>) return to_bytes(sponge::sha3_512(in));
    H hash;
    hash.update(in);
    return to_bytes(hash.digest());
  }
}

// The streaming class: update(in[0, split)) then update(in[split, end)), then digest(), or
// for an XOF squeeze() in two pieces (out_len / 3 bytes, then the rest).
template <typename H>
Bytes streamed(std::span<const std::uint8_t> in, std::size_t split, std::size_t out_len) {
  H hash;
  if constexpr (is_xof<H>) {
    return squeezed_in_pieces(hash, in, split, out_len);
  } else {
    hash.update(in.first(split));
    hash.update(in.subspan(split));
    if (out_len != H::digest_bytes) return {};
    return to_bytes(hash.digest());
  }
}

}  // namespace sponge_test
