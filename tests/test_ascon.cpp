// Ascon-p[320] and the Ascon modes beyond the known answers: the 16-operation substitution
// against the specification's form, the constants of shared/ASCON.md, every kernel entry
// against the permutation composed from the portable rounds, streaming at every split
// against one-shot, in-place operation, tag forgery, and CXOF128's customization limit.
// Every kernel case runs on each compiled Ascon kernel this CPU runs (the kernel table).
#include <doctest/doctest.h>

#include <array>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "ascon/ascon_kernel.hpp"
#include "ascon/ascon_modes.hpp"
#include "ascon/ascon_portable.hpp"
#include "sponge/sponge.h"
#include "sponge/sponge.hpp"
#include "support/byte_order.hpp"
#include "support/test_support.hpp"

using sponge::detail::AsconKernel;
using sponge::detail::AsconWords;
using sponge_test::Bytes;
using sponge_test::to_hex;

namespace {

using State = std::array<std::uint64_t, 5>;

std::vector<const AsconKernel*> runnable_kernels() {
  std::vector<const AsconKernel*> kernels;
  for (const AsconKernel* kernel : sponge::detail::ascon_compiled_kernels()) {
    if (kernel->cpu_supports()) kernels.push_back(kernel);
  }
  REQUIRE(!kernels.empty());
  return kernels;
}

// The substitution layer as SP 800-232 writes it (shared/ASCON.md): 22 operations.
AsconWords substitution_as_specified(AsconWords s) {
  std::uint64_t x[5] = {s.x0, s.x1, s.x2, s.x3, s.x4};
  x[0] ^= x[4];
  x[4] ^= x[3];
  x[2] ^= x[1];
  std::uint64_t t[5];
  for (int i = 0; i < 5; ++i)
    t[i] = x[i] ^ (~x[(i + 1) % 5] & x[(i + 2) % 5]);
  t[1] ^= t[0];
  t[0] ^= t[4];
  t[3] ^= t[2];
  t[2] = ~t[2];
  return {t[0], t[1], t[2], t[3], t[4]};
}

// Column `column` of the five words as a 5-bit value, x0 the most significant bit.
unsigned column_value(const AsconWords& s, int column) {
  const std::uint64_t words[5] = {s.x0, s.x1, s.x2, s.x3, s.x4};
  unsigned value = 0;
  for (int i = 0; i < 5; ++i)
    value = value << 1 | static_cast<unsigned>(words[i] >> column & 1);
  return value;
}

State random_state(sponge_test::Rng& rng) {
  return {rng.next(), rng.next(), rng.next(), rng.next(), rng.next()};
}

std::string hex_words(const State& state) {
  std::string text;
  for (const std::uint64_t word : state) {
    char digits[17];
    std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(word));
    text += (text.empty() ? "" : " ");
    text += digits;
  }
  return text;
}

std::array<std::uint8_t, 16> bytes16(std::uint8_t first) {
  std::array<std::uint8_t, 16> bytes;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::uint8_t>(first + i);
  return bytes;
}

}  // namespace

TEST_CASE("Ascon substitution: the 16-operation form is the specification's S-box") {
  // Bit-sliced: column c holds input c % 32, so all 32 inputs go through at once (twice).
  AsconWords input{};
  std::uint64_t* words[5] = {&input.x0, &input.x1, &input.x2, &input.x3, &input.x4};
  for (int column = 0; column < 64; ++column) {
    const unsigned value = static_cast<unsigned>(column % 32);
    for (int i = 0; i < 5; ++i)
      *words[i] |= std::uint64_t{value >> (4 - i) & 1} << column;
  }
  AsconWords fast = input;
  sponge::detail::ascon_substitute(fast);
  const AsconWords specified = substitution_as_specified(input);
  // The S-box table of the Ascon specification, x0 the most significant bit.
  constexpr unsigned kSbox[32] = {0x04, 0x0b, 0x1f, 0x14, 0x1a, 0x15, 0x09, 0x02, 0x1b, 0x05, 0x08,
                                  0x12, 0x1d, 0x03, 0x06, 0x1c, 0x1e, 0x13, 0x07, 0x0e, 0x00, 0x0d,
                                  0x11, 0x18, 0x10, 0x0c, 0x01, 0x19, 0x16, 0x0a, 0x0f, 0x17};
  for (int column = 0; column < 64; ++column) {
    INFO("S-box input " << column % 32);
    CHECK(column_value(fast, column) == column_value(specified, column));
    CHECK(column_value(specified, column) == kSbox[column % 32]);
  }
}

TEST_CASE("Ascon round constants and the start rounds of p12, p8, p6") {
  constexpr std::uint64_t kExpected[12] = {0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5,
                                           0x96, 0x87, 0x78, 0x69, 0x5a, 0x4b};
  for (int round = 0; round < 12; ++round)
    CHECK(sponge::detail::ascon_round_constant(round) == kExpected[round]);
  CHECK(sponge::detail::ascon_round_constant(sponge::detail::ascon_first_round(8)) == 0xb4);
  CHECK(sponge::detail::ascon_round_constant(sponge::detail::ascon_first_round(6)) == 0x96);
}

TEST_CASE("Ascon P12 of the zero state and the Hash256 and XOF128 initial states, every kernel") {
  for (const AsconKernel* kernel : runnable_kernels()) {
    INFO("kernel " << kernel->name);
    State zero{};
    kernel->permute12(zero.data());
    CHECK(hex_words(zero) ==
          "78ea7ae5cfebb108 9b9bfb8513b560f7 6937f83e03d11a50 3fe53f36f2c1178c 045d648e4def12c9");
    State hash{sponge::detail::kAsconHash256Iv, 0, 0, 0, 0};
    kernel->permute12(hash.data());
    CHECK(hex_words(hash) ==
          "9b1e5494e934d681 4bc3a01e333751d2 ae65396c6b34b81a 3c7fd4a4d56a4db3 1a5c464906c5976d");
    State stored;
    std::copy(std::begin(sponge::detail::kAsconHash256Initial),
              std::end(sponge::detail::kAsconHash256Initial), stored.begin());
    CHECK(stored == hash);
    State xof{sponge::detail::kAsconXof128Iv, 0, 0, 0, 0};
    kernel->permute12(xof.data());
    CHECK(hex_words(xof) ==
          "da82ce768d9447eb cc7ce6c75f1ef969 e7508fd780085631 0ee0ea53416b58cc e0547524db6f0bde");
    std::copy(std::begin(sponge::detail::kAsconXof128Initial),
              std::end(sponge::detail::kAsconXof128Initial), stored.begin());
    CHECK(stored == xof);
  }
}

TEST_CASE("Ascon kernel entries against the portable rounds, on random states and blocks") {
  sponge_test::Rng rng(0xA5C0);
  const auto rounds = [](State state, int count) {
    sponge::detail::ascon_p320_rounds_portable(state.data(), 12 - count, 12);
    return state;
  };
  for (const AsconKernel* kernel : runnable_kernels()) {
    INFO("kernel " << kernel->name);
    for (int trial = 0; trial < 20; ++trial) {
      const State start = random_state(rng);
      for (const auto& [count, permute] :
           {std::pair{12, kernel->permute12}, {8, kernel->permute8}, {6, kernel->permute6}}) {
        State state = start;
        permute(state.data());
        CHECK(state == rounds(start, count));
      }
      const std::size_t blocks = trial % 5;  // 0 .. 4 blocks, 0 must change nothing
      // Misaligned input: the entries take blocks at any address.
      const Bytes buffer = rng.bytes(1 + 16 * blocks);
      const std::uint8_t* in = buffer.data() + 1;

      State expected = start;
      for (std::size_t b = 0; b < blocks; ++b) {
        expected[0] ^= sponge::detail::load_le64(in + 8 * b);
        expected = rounds(expected, 12);
      }
      State state = start;
      kernel->absorb_hash(state.data(), in, blocks);
      CHECK(state == expected);

      expected = start;
      for (std::size_t b = 0; b < blocks; ++b) {
        expected[0] ^= sponge::detail::load_le64(in + 16 * b);
        expected[1] ^= sponge::detail::load_le64(in + 16 * b + 8);
        expected = rounds(expected, 8);
      }
      state = start;
      kernel->absorb_ad(state.data(), in, blocks);
      CHECK(state == expected);

      // Encryption: the same state walk as the AD absorb, with the rate written out.
      Bytes ciphertext(16 * blocks + 1);
      state = start;
      kernel->encrypt(state.data(), in, ciphertext.data() + 1, blocks);
      CHECK(state == expected);
      State walk = start;
      for (std::size_t b = 0; b < blocks; ++b) {
        walk[0] ^= sponge::detail::load_le64(in + 16 * b);
        walk[1] ^= sponge::detail::load_le64(in + 16 * b + 8);
        CHECK(sponge::detail::load_le64(ciphertext.data() + 1 + 16 * b) == walk[0]);
        CHECK(sponge::detail::load_le64(ciphertext.data() + 9 + 16 * b) == walk[1]);
        walk = rounds(walk, 8);
      }
      // Decryption of that ciphertext returns the input and the same state; in place too.
      Bytes plaintext(16 * blocks);
      state = start;
      kernel->decrypt(state.data(), ciphertext.data() + 1, plaintext.data(), blocks);
      CHECK(state == expected);
      CHECK(plaintext == Bytes(in, in + 16 * blocks));
      state = start;
      kernel->decrypt(state.data(), ciphertext.data() + 1, ciphertext.data() + 1, blocks);
      CHECK(state == expected);
      CHECK(Bytes(ciphertext.begin() + 1, ciphertext.end()) == plaintext);
    }
  }
}

TEST_CASE("the active Ascon kernel is the one this test run asked for") {
  const std::string active(sponge::active_kernel(sponge::KernelFamily::ascon_p320));
  MESSAGE("active Ascon kernel: " << active);
  const char* expected = std::getenv("SPONGE_EXPECTED_ASCON_KERNEL");
  if (expected != nullptr && *expected != '\0') {
    CHECK(active == expected);
  } else {
    CHECK(active == std::string(runnable_kernels().front()->name));
  }
  CHECK(std::string(sponge_active_ascon_kernel()) == active);
}

TEST_CASE("Ascon hash and XOF classes at every split equal the one-shot functions") {
  sponge_test::Rng rng(0xA5C1);
  const Bytes message = rng.bytes(50);  // past six 8-byte blocks
  const Bytes customization = rng.bytes(20);
  for (const AsconKernel* kernel : runnable_kernels()) {
    INFO("kernel " << kernel->name);
    for (std::size_t length : {0, 1, 7, 8, 9, 16, 23, 50}) {
      const std::span<const std::uint8_t> input = std::span(message).first(length);
      const auto digest = sponge::detail::ascon_hash256_on(*kernel, input);
      Bytes xof_out(45), cxof_out(45);
      sponge::detail::ascon_xof128_on(*kernel, input, xof_out);
      sponge::detail::ascon_cxof128_on(*kernel, input, customization, cxof_out);
      for (std::size_t split = 0; split <= length; ++split) {
        INFO("length " << length << ", split " << split);
        sponge::AsconHash256 hash(*kernel);
        hash.update(input.first(split)).update(input.subspan(split));
        CHECK(hash.digest() == digest);
        CHECK(hash.digest() == digest);  // digest() leaves the object as it was
        sponge::AsconXof128 xof(*kernel);
        CHECK(sponge_test::squeezed_in_pieces(xof, input, split, xof_out.size()) == xof_out);
        sponge::AsconCxof128 cxof(*kernel, customization);
        CHECK(sponge_test::squeezed_in_pieces(cxof, input, split, cxof_out.size()) == cxof_out);
        // reset() returns to the start (for CXOF128, to the state after the customization).
        cxof.reset();
        CHECK(sponge_test::squeezed_in_pieces(cxof, input, 0, cxof_out.size()) == cxof_out);
      }
      // Squeezed a byte at a time.
      sponge::AsconXof128 xof(*kernel);
      xof.update(input);
      Bytes bytewise(xof_out.size());
      for (std::uint8_t& byte : bytewise)
        xof.squeeze(std::span(&byte, 1));
      CHECK(bytewise == xof_out);
    }
  }
  // The one-shot functions on the dispatcher's kernel agree.
  Bytes out(32);
  sponge::ascon_xof128(message, out);
  Bytes again(32);
  sponge::AsconXof128 xof;
  xof.update(message);
  xof.squeeze(again);
  CHECK(out == again);
}

TEST_CASE("Ascon-AEAD128 streaming at every split of associated data and text equals one-shot") {
  sponge_test::Rng rng(0xA5C2);
  const auto key = bytes16(0x00), nonce = bytes16(0x40);
  const Bytes associated_data = rng.bytes(37), plaintext = rng.bytes(41);
  for (const AsconKernel* kernel : runnable_kernels()) {
    INFO("kernel " << kernel->name);
    Bytes ciphertext(plaintext.size());
    std::array<std::uint8_t, 16> tag{};
    sponge::detail::ascon_aead128_encrypt_on(*kernel, key, nonce, associated_data, plaintext,
                                             ciphertext, tag);
    for (std::size_t ad_split = 0; ad_split <= associated_data.size(); ad_split += 3) {
      for (std::size_t split = 0; split <= plaintext.size(); ++split) {
        INFO("associated data split " << ad_split << ", text split " << split);
        const std::span<const std::uint8_t> ad(associated_data), pt(plaintext), ct(ciphertext);
        sponge::AsconAead128Encryptor encryptor(*kernel, key, nonce);
        encryptor.update_associated_data(ad.first(ad_split));
        encryptor.update_associated_data(ad.subspan(ad_split));
        Bytes streamed(plaintext.size());
        encryptor.update(pt.first(split), std::span(streamed).first(split));
        encryptor.update(pt.subspan(split), std::span(streamed).subspan(split));
        CHECK(encryptor.finish() == tag);
        CHECK(streamed == ciphertext);

        Bytes opened(plaintext.size());
        sponge::AsconAead128Decryptor decryptor(*kernel, key, nonce, opened);
        decryptor.update_associated_data(ad.first(ad_split));
        decryptor.update_associated_data(ad.subspan(ad_split));
        decryptor.update(ct.first(split));
        decryptor.update(ct.subspan(split));
        CHECK(decryptor.finish(tag));
        CHECK(opened == plaintext);
        CHECK(decryptor.plaintext_bytes() == plaintext.size());
      }
    }
  }
}

// The one-shot functions run the kernel's entries on a local state, apart from the streaming
// classes: every length up to three blocks and one byte, on every kernel, against the classes
// on the portable kernel.
TEST_CASE("Ascon one-shot functions equal the streaming classes on the portable kernel") {
  sponge_test::Rng rng(0xA5C4);
  const AsconKernel& portable = *sponge::detail::ascon_compiled_kernels().back();
  REQUIRE(portable.name == "portable");
  const Bytes message = rng.bytes(3 * 16 + 1);
  const auto key = bytes16(0x30), nonce = bytes16(0x50);
  for (const AsconKernel* kernel : runnable_kernels()) {
    INFO("kernel " << kernel->name);
    for (std::size_t length = 0; length <= 3 * 8 + 1; ++length) {
      INFO("message " << length << " bytes");
      const std::span<const std::uint8_t> input = std::span(message).first(length);
      sponge::AsconHash256 hash(portable);
      hash.update(input);
      CHECK(sponge::detail::ascon_hash256_on(*kernel, input) == hash.digest());
      // Every output length up to three words and a byte; the guard bytes stay untouched.
      for (std::size_t out_length = 0; out_length <= 3 * 8 + 1; ++out_length) {
        INFO("output " << out_length << " bytes");
        sponge::AsconXof128 xof(portable);
        xof.update(input);
        Bytes expected(out_length + 2, 0xEE);
        xof.squeeze(std::span(expected).subspan(1, out_length));
        Bytes out(out_length + 2, 0xEE);
        sponge::detail::ascon_xof128_on(*kernel, input, std::span(out).subspan(1, out_length));
        CHECK(out == expected);
      }
    }
    for (std::size_t ad_length = 0; ad_length <= 3 * 16 + 1; ++ad_length) {
      for (std::size_t length = 0; length <= 3 * 16 + 1; ++length) {
        INFO("associated data " << ad_length << " bytes, text " << length << " bytes");
        const std::span<const std::uint8_t> ad = std::span(message).first(ad_length);
        const std::span<const std::uint8_t> plaintext = std::span(message).last(length);
        sponge::AsconAead128Encryptor encryptor(portable, key, nonce);
        encryptor.update_associated_data(ad);
        Bytes expected(length);
        encryptor.update(plaintext, expected);
        const sponge::AsconAead128Tag expected_tag = encryptor.finish();
        Bytes ciphertext(length + 1, 0xEE);
        std::array<std::uint8_t, 16> tag{};
        sponge::detail::ascon_aead128_encrypt_on(*kernel, key, nonce, ad, plaintext,
                                                 std::span(ciphertext).first(length), tag);
        CHECK(Bytes(ciphertext.begin(), ciphertext.begin() + length) == expected);
        CHECK(ciphertext[length] == 0xEE);
        CHECK(tag == expected_tag);
        const std::span<const std::uint8_t> sealed = std::span(ciphertext).first(length);
        Bytes opened(length + 1, 0xEE);
        CHECK(sponge::detail::ascon_aead128_decrypt_on(*kernel, key, nonce, ad, sealed, tag,
                                                       std::span(opened).first(length)));
        CHECK(Bytes(opened.begin(), opened.begin() + length) ==
              Bytes(plaintext.begin(), plaintext.end()));
        CHECK(opened[length] == 0xEE);
        // A wrong tag: refused, and the plaintext zeroed.
        std::array<std::uint8_t, 16> wrong = tag;
        wrong[length % 16] ^= 0x01;
        CHECK_FALSE(sponge::detail::ascon_aead128_decrypt_on(*kernel, key, nonce, ad, sealed, wrong,
                                                             std::span(opened).first(length)));
        CHECK(Bytes(opened.begin(), opened.begin() + length) == Bytes(length, 0));
      }
    }
  }
}

TEST_CASE("Ascon-AEAD128 in place: encryption and decryption in one buffer") {
  sponge_test::Rng rng(0xA5C3);
  const auto key = bytes16(0x10), nonce = bytes16(0x20);
  const Bytes associated_data = rng.bytes(5);
  for (const AsconKernel* kernel : runnable_kernels()) {
    for (std::size_t length : {0, 1, 15, 16, 17, 64, 100}) {
      INFO("kernel " << kernel->name << ", " << length << " bytes");
      const Bytes plaintext = rng.bytes(length);
      Bytes separate(length);
      std::array<std::uint8_t, 16> tag{}, in_place_tag{};
      sponge::detail::ascon_aead128_encrypt_on(*kernel, key, nonce, associated_data, plaintext,
                                               separate, tag);
      Bytes buffer = plaintext;
      sponge::detail::ascon_aead128_encrypt_on(*kernel, key, nonce, associated_data, buffer, buffer,
                                               in_place_tag);
      CHECK(buffer == separate);
      CHECK(in_place_tag == tag);
      CHECK(sponge::detail::ascon_aead128_decrypt_on(*kernel, key, nonce, associated_data, buffer,
                                                     tag, buffer));
      CHECK(buffer == plaintext);
      // Streamed in place in odd pieces.
      sponge::AsconAead128Decryptor decryptor(*kernel, key, nonce, buffer);
      buffer = separate;
      decryptor.update_associated_data(associated_data);
      for (std::size_t at = 0; at < length; at += 7) {
        const std::size_t piece = std::min<std::size_t>(7, length - at);
        decryptor.update(std::span(buffer).subspan(at, piece));
      }
      CHECK(decryptor.finish(tag));
      CHECK(buffer == plaintext);
    }
  }
}

// Encryption into a buffer that partly overlaps the plaintext would read plaintext bytes it
// already overwrote, and the tag would authenticate that corrupted text: refused at every
// offset around the 16-byte block, output ahead of the input and behind it, one-shot (C++
// and C) and streamed, with the ciphertext (and the one-shot tag) zeroed.
TEST_CASE("Ascon-AEAD128 encryption refuses partly overlapping plaintext and ciphertext") {
  sponge_test::Rng rng(0xA5C6);
  const auto key = bytes16(0x60), nonce = bytes16(0x70);
  const Bytes associated_data = rng.bytes(3);
  constexpr std::size_t kLength = 100, kMargin = 40;
  // New bytes in the same storage (the spans into it stay valid).
  const auto refill = [&rng](Bytes& buffer) {
    const Bytes fresh = rng.bytes(buffer.size());
    std::copy(fresh.begin(), fresh.end(), buffer.begin());
  };
  std::vector<std::ptrdiff_t> offsets;
  for (std::ptrdiff_t d = 1; d <= 33; ++d) {
    offsets.push_back(d);
    offsets.push_back(-d);
  }
  for (const AsconKernel* kernel : runnable_kernels()) {
    for (const std::ptrdiff_t offset : offsets) {
      for (const std::size_t length :
           {std::size_t{1} + static_cast<std::size_t>(offset < 0 ? -offset : offset), kLength}) {
        INFO("kernel " << kernel->name << ", output at input " << (offset > 0 ? "+" : "") << offset
                       << ", " << length << " bytes");
        Bytes buffer = rng.bytes(length + 2 * kMargin);
        const std::span<std::uint8_t> in = std::span(buffer).subspan(kMargin, length);
        const std::span<std::uint8_t> out =
            std::span(buffer).subspan(static_cast<std::size_t>(kMargin + offset), length);
        std::array<std::uint8_t, 16> tag;
        tag.fill(0xA5);
        CHECK_THROWS_AS(sponge::detail::ascon_aead128_encrypt_on(*kernel, key, nonce,
                                                                 associated_data, in, out, tag),
                        std::invalid_argument);
        CHECK(Bytes(out.begin(), out.end()) == Bytes(length, 0));
        CHECK(tag == std::array<std::uint8_t, 16>{});

        refill(buffer);
        sponge::AsconAead128Encryptor encryptor(*kernel, key, nonce);
        encryptor.update_associated_data(associated_data);
        CHECK_THROWS_AS(encryptor.update(in, out), std::invalid_argument);
        CHECK(Bytes(out.begin(), out.end()) == Bytes(length, 0));

        refill(buffer);
        tag.fill(0xA5);
        CHECK(sponge_ascon_aead128_encrypt(key.data(), nonce.data(), associated_data.data(),
                                           associated_data.size(), in.data(), in.size(), out.data(),
                                           tag.data()) == SPONGE_ERROR_OVERLAP);
        CHECK(Bytes(out.begin(), out.end()) == Bytes(length, 0));
        CHECK(tag == std::array<std::uint8_t, 16>{});
      }
    }
    // Adjacent buffers do not overlap: encrypted as usual, before and after the input.
    for (const std::ptrdiff_t offset : {std::ptrdiff_t{kLength}, -std::ptrdiff_t{kLength}}) {
      const Bytes plaintext = rng.bytes(kLength);
      Bytes expected(kLength);
      std::array<std::uint8_t, 16> expected_tag{}, tag{};
      sponge::detail::ascon_aead128_encrypt_on(*kernel, key, nonce, associated_data, plaintext,
                                               expected, expected_tag);
      Bytes buffer(3 * kLength);
      std::copy(plaintext.begin(), plaintext.end(), buffer.begin() + kLength);
      const std::span<std::uint8_t> out = std::span(buffer).subspan(
          static_cast<std::size_t>(std::ptrdiff_t{kLength} + offset), kLength);
      sponge::detail::ascon_aead128_encrypt_on(*kernel, key, nonce, associated_data,
                                               std::span(buffer).subspan(kLength, kLength), out,
                                               tag);
      CHECK(Bytes(out.begin(), out.end()) == expected);
      CHECK(tag == expected_tag);
    }
  }
}

// Decryption into a buffer that partly overlaps the ciphertext: refused the same way, at every
// offset around the block, one-shot (C++ and C) and streamed, the plaintext output zeroed; a
// streamed refusal leaves the piece undecrypted, so finish() reports a mismatch.
TEST_CASE("Ascon-AEAD128 decryption refuses partly overlapping ciphertext and plaintext") {
  sponge_test::Rng rng(0xA5C7);
  const auto key = bytes16(0x61), nonce = bytes16(0x71);
  const Bytes associated_data = rng.bytes(3);
  constexpr std::size_t kLength = 100, kMargin = 40;
  for (const AsconKernel* kernel : runnable_kernels()) {
    for (std::ptrdiff_t distance = 1; distance <= 33; ++distance) {
      for (const std::ptrdiff_t offset : {distance, -distance}) {
        INFO("kernel " << kernel->name << ", output at input " << (offset > 0 ? "+" : "")
                       << offset);
        const Bytes plaintext = rng.bytes(kLength);
        Bytes ciphertext(kLength);
        std::array<std::uint8_t, 16> tag{};
        sponge::detail::ascon_aead128_encrypt_on(*kernel, key, nonce, associated_data, plaintext,
                                                 ciphertext, tag);
        Bytes buffer(kLength + 2 * kMargin, 0x5A);
        const auto fill = [&] {
          std::fill(buffer.begin(), buffer.end(), std::uint8_t{0x5A});
          std::copy(ciphertext.begin(), ciphertext.end(), buffer.begin() + kMargin);
        };
        const std::span<const std::uint8_t> in = std::span(buffer).subspan(kMargin, kLength);
        const std::span<std::uint8_t> out =
            std::span(buffer).subspan(static_cast<std::size_t>(kMargin + offset), kLength);

        fill();
        CHECK_THROWS_AS((void)sponge::detail::ascon_aead128_decrypt_on(
                            *kernel, key, nonce, associated_data, in, tag, out),
                        std::invalid_argument);
        CHECK(Bytes(out.begin(), out.end()) == Bytes(kLength, 0));

        fill();
        {
          sponge::AsconAead128Decryptor decryptor(*kernel, key, nonce, out);
          decryptor.update_associated_data(associated_data);
          CHECK_THROWS_AS(decryptor.update(in), std::invalid_argument);
          CHECK(Bytes(out.begin(), out.end()) == Bytes(kLength, 0));
          CHECK_FALSE(decryptor.finish(tag));
        }

        fill();
        CHECK(sponge_ascon_aead128_decrypt(key.data(), nonce.data(), associated_data.data(),
                                           associated_data.size(), in.data(), in.size(), tag.data(),
                                           out.data()) == SPONGE_ERROR_OVERLAP);
        CHECK(Bytes(out.begin(), out.end()) == Bytes(kLength, 0));
      }
    }
    // In place is allowed: the plaintext comes back.
    const Bytes plaintext = rng.bytes(kLength);
    Bytes buffer(kLength);
    std::array<std::uint8_t, 16> tag{};
    sponge::detail::ascon_aead128_encrypt_on(*kernel, key, nonce, associated_data, plaintext,
                                             buffer, tag);
    CHECK(sponge::detail::ascon_aead128_decrypt_on(*kernel, key, nonce, associated_data, buffer,
                                                   tag, buffer));
    CHECK(buffer == plaintext);
  }
}

TEST_CASE("Ascon-AEAD128 rejects every single-bit change of ciphertext, tag and associated data") {
  sponge_test::Rng rng(0xA5C4);
  const auto key = bytes16(0x30), nonce = bytes16(0x50);
  for (const AsconKernel* kernel : runnable_kernels()) {
    for (const auto& [ad_length, text_length] :
         {std::pair<std::size_t, std::size_t>{1, 0}, {3, 1}, {16, 16}, {17, 33}}) {
      INFO("kernel " << kernel->name << ", AD " << ad_length << ", text " << text_length);
      const Bytes associated_data = rng.bytes(ad_length), plaintext = rng.bytes(text_length);
      Bytes ciphertext(text_length);
      std::array<std::uint8_t, 16> tag{};
      sponge::detail::ascon_aead128_encrypt_on(*kernel, key, nonce, associated_data, plaintext,
                                               ciphertext, tag);
      std::size_t rejected = 0, attempts = 0;
      // Opens with one input altered; the output must come back all zero.
      const auto forged_rejected = [&](const Bytes& ad, const Bytes& ct,
                                       const std::array<std::uint8_t, 16>& forged_tag) {
        ++attempts;
        Bytes opened(ct.size(), 0xA5);
        const bool accepted = sponge::detail::ascon_aead128_decrypt_on(*kernel, key, nonce, ad, ct,
                                                                       forged_tag, opened);
        if (!accepted && opened == Bytes(ct.size(), 0)) ++rejected;
      };
      for (std::size_t bit = 0; bit < 8 * ciphertext.size(); ++bit) {
        Bytes forged = ciphertext;
        forged[bit / 8] ^= static_cast<std::uint8_t>(1 << bit % 8);
        forged_rejected(associated_data, forged, tag);
      }
      for (std::size_t bit = 0; bit < 8 * tag.size(); ++bit) {
        auto forged = tag;
        forged[bit / 8] ^= static_cast<std::uint8_t>(1 << bit % 8);
        forged_rejected(associated_data, ciphertext, forged);
      }
      for (std::size_t bit = 0; bit < 8 * associated_data.size(); ++bit) {
        Bytes forged = associated_data;
        forged[bit / 8] ^= static_cast<std::uint8_t>(1 << bit % 8);
        forged_rejected(forged, ciphertext, tag);
      }
      CHECK(attempts == 8 * (text_length + 16 + ad_length));
      CHECK(rejected == attempts);
      // The untouched message still opens (the rejections are not a broken decryption).
      Bytes opened(text_length);
      CHECK(sponge::detail::ascon_aead128_decrypt_on(*kernel, key, nonce, associated_data,
                                                     ciphertext, tag, opened));
      CHECK(opened == plaintext);
    }
  }
}

TEST_CASE("Ascon-AEAD128: the C API agrees with C++ and reports a forgery") {
  sponge_test::Rng rng(0xA5C5);
  const auto key = bytes16(0x01), nonce = bytes16(0x02);
  const Bytes associated_data = rng.bytes(20), plaintext = rng.bytes(50);
  Bytes ciphertext(plaintext.size()), c_ciphertext(plaintext.size());
  std::array<std::uint8_t, 16> tag{}, c_tag{};
  sponge::ascon_aead128_encrypt(key, nonce, associated_data, plaintext, ciphertext, tag);
  REQUIRE(sponge_ascon_aead128_encrypt(key.data(), nonce.data(), associated_data.data(),
                                       associated_data.size(), plaintext.data(), plaintext.size(),
                                       c_ciphertext.data(), c_tag.data()) == SPONGE_OK);
  CHECK(c_ciphertext == ciphertext);
  CHECK(c_tag == tag);
  Bytes opened(plaintext.size());
  CHECK(sponge_ascon_aead128_decrypt(key.data(), nonce.data(), associated_data.data(),
                                     associated_data.size(), ciphertext.data(), ciphertext.size(),
                                     tag.data(), opened.data()) == SPONGE_OK);
  CHECK(opened == plaintext);
  auto wrong_nonce = nonce;
  wrong_nonce[15] ^= 1;
  CHECK(sponge_ascon_aead128_decrypt(key.data(), wrong_nonce.data(), associated_data.data(),
                                     associated_data.size(), ciphertext.data(), ciphertext.size(),
                                     tag.data(), opened.data()) == SPONGE_ERROR_AUTHENTICATION);
  CHECK(opened == Bytes(plaintext.size(), 0));
  // Argument errors leave the output untouched.
  Bytes untouched(plaintext.size(), 0xA5);
  CHECK(sponge_ascon_aead128_decrypt(nullptr, nonce.data(), nullptr, 0, ciphertext.data(),
                                     ciphertext.size(), tag.data(),
                                     untouched.data()) == SPONGE_ERROR_NULL_INPUT);
  CHECK(sponge_ascon_aead128_decrypt(key.data(), nonce.data(), nullptr, 1, ciphertext.data(),
                                     ciphertext.size(), tag.data(),
                                     untouched.data()) == SPONGE_ERROR_NULL_INPUT);
  CHECK(sponge_ascon_aead128_decrypt(key.data(), nonce.data(), nullptr, 0, ciphertext.data(),
                                     ciphertext.size(), tag.data(),
                                     nullptr) == SPONGE_ERROR_NULL_OUTPUT);
  CHECK(sponge_ascon_aead128_encrypt(key.data(), nonce.data(), nullptr, 0, plaintext.data(),
                                     plaintext.size(), untouched.data(),
                                     nullptr) == SPONGE_ERROR_NULL_OUTPUT);
  CHECK(untouched == Bytes(plaintext.size(), 0xA5));
  // Empty text and associated data may be NULL.
  CHECK(sponge_ascon_aead128_encrypt(key.data(), nonce.data(), nullptr, 0, nullptr, 0, nullptr,
                                     c_tag.data()) == SPONGE_OK);
  CHECK(sponge_ascon_aead128_decrypt(key.data(), nonce.data(), nullptr, 0, nullptr, 0, c_tag.data(),
                                     nullptr) == SPONGE_OK);
}

TEST_CASE("Ascon-CXOF128: a customization string over 256 bytes is rejected, 256 accepted") {
  const Bytes longest(256, 0x5A), too_long(257, 0x5A);
  const Bytes message = {1, 2, 3};
  Bytes out(32, 0xA5);
  CHECK_THROWS_AS(sponge::AsconCxof128{too_long}, std::invalid_argument);
  CHECK_THROWS_AS(sponge::ascon_cxof128(message, too_long, out), std::invalid_argument);
  CHECK(out == Bytes(32, 0xA5));  // nothing computed, nothing written
  CHECK(sponge_ascon_cxof128(too_long.data(), too_long.size(), message.data(), message.size(),
                             out.data(), out.size()) == SPONGE_ERROR_INVALID_PARAMETER);
  CHECK(out == Bytes(32, 0xA5));
  CHECK(sponge_ascon_cxof128(longest.data(), longest.size(), message.data(), message.size(),
                             out.data(), out.size()) == SPONGE_OK);
  Bytes expected(32);
  sponge::ascon_cxof128(message, longest, expected);
  CHECK(out == expected);
  // The customization changes the output (a longest Z is absorbed, not truncated).
  Bytes shorter(32);
  sponge::ascon_cxof128(message, std::span(longest).first(255), shorter);
  CHECK(shorter != expected);
}
