// Streaming: every split point of messages up to three rate blocks, digest() as a const,
// repeatable peek, squeezing in pieces of every size, and empty updates. For all seven
// functions; the one-shot functions are the reference. Then every split point for classes of
// the RFC 9861 and SP 800-185 families (12 and 24 rounds, keyed, leaves, KT's chunk boundary).
#include <doctest/doctest.h>

#include <type_traits>

#include "sponge/sponge.hpp"
#include "support/test_support.hpp"

using sponge_test::Bytes;
using sponge_test::is_xof;
using sponge_test::one_shot;
using sponge_test::to_hex;

namespace {

// The output length compared for H: its digest, or one rate block and a byte of an XOF (so
// the squeeze crosses a block; longer squeezes have their own test below).
template <typename H>
constexpr std::size_t output_bytes() {
  if constexpr (is_xof<H>) {
    return H::rate_bytes + 1;
  } else {
    return H::digest_bytes;
  }
}

template <typename H>
Bytes finish(H& hash) {
  if constexpr (is_xof<H>) {
    Bytes out(output_bytes<H>());
    hash.squeeze(out);
    return out;
  } else {
    return sponge_test::to_bytes(hash.digest());
  }
}

}  // namespace

#define SPONGE_ALL_HASHES                                                                    \
  sponge::Keccak256, sponge::Sha3_224, sponge::Sha3_256, sponge::Sha3_384, sponge::Sha3_512, \
      sponge::Shake128, sponge::Shake256

TEST_CASE_TEMPLATE("update(a) then update(b) equals one-shot at every split point", H,
                   SPONGE_ALL_HASHES) {
  constexpr std::size_t rate = H::rate_bytes;
  const Bytes message = sponge_test::Rng(rate).bytes(3 * rate + 1);
  std::size_t compared = 0;
  std::size_t mismatches = 0;
  for (std::size_t length = 0; length <= message.size(); ++length) {
    const std::span<const std::uint8_t> msg = std::span(message).first(length);
    const Bytes expected = one_shot<H>(msg, output_bytes<H>());
    for (std::size_t split = 0; split <= length; ++split) {
      H hash;
      hash.update(msg.first(split));
      hash.update(msg.subspan(split));
      const Bytes got = finish(hash);
      ++compared;
      if (got != expected) {
        ++mismatches;
        // Report only the first few, with the split, instead of flooding the log.
        if (mismatches <= 5) {
          CHECK_MESSAGE(to_hex(got) == to_hex(expected),
                        "length " << length << ", split " << split);
        }
      }
    }
  }
  MESSAGE("rate " << rate << ": " << compared << " split messages compared");
  CHECK(compared == (message.size() + 1) * (message.size() + 2) / 2);
  CHECK(mismatches == 0);
}

TEST_CASE_TEMPLATE("three pieces with an empty one equal one-shot", H, SPONGE_ALL_HASHES) {
  constexpr std::size_t rate = H::rate_bytes;
  const Bytes message = sponge_test::Rng(3 * rate).bytes(2 * rate + 3);
  const std::span<const std::uint8_t> msg(message);
  const Bytes expected = one_shot<H>(msg, output_bytes<H>());
  for (const std::size_t first : {std::size_t{0}, std::size_t{1}, rate - 1, rate, rate + 1}) {
    CAPTURE(first);
    H empty_middle;
    empty_middle.update(msg.first(first));
    empty_middle.update(std::span<const std::uint8_t>());
    empty_middle.update(msg.subspan(first));
    CHECK(finish(empty_middle) == expected);

    H empty_first_and_last;
    empty_first_and_last.update(std::string_view());
    empty_first_and_last.update(msg.first(first));
    empty_first_and_last.update(msg.subspan(first));
    empty_first_and_last.update(std::span<const std::byte>());
    CHECK(finish(empty_first_and_last) == expected);
  }
  // Only empty pieces: the empty message.
  H only_empty;
  only_empty.update(std::span<const std::uint8_t>());
  only_empty.update(std::string_view());
  CHECK(finish(only_empty) == one_shot<H>({}, output_bytes<H>()));
}

TEST_CASE_TEMPLATE("the byte, string_view and span<byte> overloads agree", H, SPONGE_ALL_HASHES) {
  const std::string_view text = "The quick brown fox jumps over the lazy dog";
  const Bytes bytes(text.begin(), text.end());
  const Bytes expected = one_shot<H>(bytes, output_bytes<H>());
  H from_text;
  from_text.update(text);
  CHECK(finish(from_text) == expected);
  H from_std_bytes;
  from_std_bytes.update(std::as_bytes(std::span(bytes)));
  CHECK(finish(from_std_bytes) == expected);
}

TEST_CASE_TEMPLATE("digest() is const, repeatable, and update() continues after it", H,
                   sponge::Keccak256, sponge::Sha3_224, sponge::Sha3_256, sponge::Sha3_384,
                   sponge::Sha3_512) {
  constexpr std::size_t rate = H::rate_bytes;
  const Bytes message = sponge_test::Rng(rate + 1).bytes(2 * rate + 5);
  const std::span<const std::uint8_t> msg(message);
  static_assert(std::is_same_v<decltype(std::declval<const H&>().digest()),
                               std::array<std::uint8_t, H::digest_bytes>>);
  for (const std::size_t first : {std::size_t{0}, std::size_t{1}, rate - 1, rate, rate + 1}) {
    CAPTURE(first);
    H hash;
    hash.update(msg.first(first));
    const H& view = hash;
    const auto first_digest = view.digest();
    CHECK(sponge_test::to_bytes(first_digest) == one_shot<H>(msg.first(first), H::digest_bytes));
    CHECK(view.digest() == first_digest);  // repeatable: digest() changed nothing
    hash.update(msg.subspan(first));
    CHECK(sponge_test::to_bytes(hash.digest()) == one_shot<H>(msg, H::digest_bytes));
  }
}

TEST_CASE_TEMPLATE("squeezing in pieces of every size 1..2*rate equals one big squeeze", H,
                   SPONGE_ALL_HASHES) {
  constexpr std::size_t rate = H::rate_bytes;
  const Bytes message = sponge_test::Rng(7 * rate).bytes(rate + 9);
  constexpr std::size_t total = 4 * rate + 3;
  H reference;
  reference.update(message);
  Bytes big(total);
  reference.squeeze(big);
  if constexpr (is_xof<H>) {
    CHECK(big == one_shot<H>(message, total));
  } else {
    // On a fixed-output class the stream starts with the digest.
    const Bytes digest = one_shot<H>(message, H::digest_bytes);
    CHECK(Bytes(big.begin(), big.begin() + H::digest_bytes) == digest);
  }
  std::size_t mismatches = 0;
  for (std::size_t piece = 1; piece <= 2 * rate; ++piece) {
    H hash;
    hash.update(message);
    Bytes pieces(total);
    for (std::size_t offset = 0; offset < total; offset += piece) {
      hash.squeeze(std::span(pieces).subspan(offset, std::min(piece, total - offset)));
    }
    if (pieces != big) {
      ++mismatches;
      if (mismatches <= 5) CHECK_MESSAGE(to_hex(pieces) == to_hex(big), "piece size " << piece);
    }
  }
  CHECK(mismatches == 0);
  // A zero-length squeeze in the middle changes nothing, and span<std::byte> works too.
  H mixed;
  mixed.update(message);
  Bytes mixed_out(total);
  const std::span<std::uint8_t> out(mixed_out);
  mixed.squeeze(out.first(rate - 1));
  mixed.squeeze(out.subspan(rate - 1, 0));
  mixed.squeeze(std::as_writable_bytes(out.subspan(rate - 1)));
  CHECK(mixed_out == big);
}

namespace {

// update(a) then update(b) at every split point of `message`, against `one_shot`, for an
// object made by `make` that squeezes or digests `out_len` bytes. Returns the splits compared.
template <typename Make, typename OneShot>
std::size_t check_every_split(const Bytes& message, std::size_t first_split, Make make,
                              OneShot one_shot_of, std::size_t out_len) {
  Bytes expected(out_len);
  one_shot_of(message, std::span<std::uint8_t>(expected));
  std::size_t compared = 0;
  for (std::size_t split = first_split; split <= message.size(); ++split) {
    auto object = make();
    object.update(std::span(message).first(split));
    object.update(std::span(message).subspan(split));
    Bytes out(out_len);
    if constexpr (requires { object.digest(std::span<std::uint8_t>(out)); }) {
      object.digest(std::span<std::uint8_t>(out));
    } else {
      object.squeeze(std::span<std::uint8_t>(out));
    }
    INFO("split at " << split << " of " << message.size());
    CHECK(to_hex(out) == to_hex(expected));
    ++compared;
  }
  return compared;
}

}  // namespace

TEST_CASE("RFC 9861 and SP 800-185 classes: update(a) then update(b) at every split point") {
  sponge_test::Rng rng(0x5917);
  const Bytes key = rng.bytes(40), customization = rng.bytes(20);
  const Bytes short_message = rng.bytes(2 * 168 + 1);
  // Every split of messages across two blocks of either rate, 12 and 24 rounds.
  CHECK(check_every_split(
            short_message, 0, [] { return sponge::TurboShake256(0x06); },
            [](auto in, auto out) { sponge::turboshake256(in, out, 0x06); }, 137) == 338);
  CHECK(check_every_split(
            short_message, 0, [&] { return sponge::Kmac128(key, customization); },
            [&](auto in, auto out) { sponge::kmac128(key, in, customization, out); }, 32) == 338);
  CHECK(check_every_split(
            short_message, 0, [&] { return sponge::Cshake256(key, customization); },
            [&](auto in, auto out) { sponge::cshake256(in, key, customization, out); },
            200) == 338);
  // ParallelHash with B = 7: every split lands at every position in a leaf.
  CHECK(check_every_split(
            short_message, 0, [&] { return sponge::ParallelHashXof256(7, customization); },
            [&](auto in, auto out) { sponge::parallelhashxof256(in, 7, customization, out); },
            100) == 338);
  // KangarooTwelve: every split from 200 bytes before the end of the first chunk to the end
  // of a 400-byte leaf, so the chunk boundary, the marker and a streamed leaf meet a split.
  const Bytes tree_message = rng.bytes(8192 + 400);
  CHECK(check_every_split(
            tree_message, 8192 - 200, [&] { return sponge::Kt128(customization); },
            [&](auto in, auto out) { sponge::kt128(in, customization, out); }, 64) == 601);
}
