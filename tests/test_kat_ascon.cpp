// Known answers of NIST SP 800-232: every vector in SPONGE_KAT_DIR/ascon-sp800-232 (see
// tests/kat/SOURCES.md) on every compiled Ascon kernel this CPU runs, taken from the Ascon
// kernel table: Ascon-AEAD128 encryption and decryption of each of the 1,089 vectors,
// Ascon-Hash256, Ascon-XOF128 and Ascon-CXOF128. OpenSSL 3.0 and Crypto++ 8.7 (Debian 12)
// have no Ascon, so these files and the self-consistency tests (test_ascon.cpp) are the
// reference.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "ascon/ascon_kernel.hpp"
#include "ascon/ascon_modes.hpp"
#include "sponge/sponge.hpp"
#include "support/test_support.hpp"

using sponge_test::Bytes;
using sponge_test::to_hex;

namespace {

// The compiled Ascon kernels this CPU can run; fails the test when there is none.
std::vector<const sponge::detail::AsconKernel*> runnable_ascon_kernels() {
  std::vector<const sponge::detail::AsconKernel*> kernels;
  for (const sponge::detail::AsconKernel* kernel : sponge::detail::ascon_compiled_kernels()) {
    if (kernel->cpu_supports()) {
      kernels.push_back(kernel);
    } else {
      MESSAGE("Ascon kernel " << kernel->name << ": this CPU cannot run it");
    }
  }
  REQUIRE(!kernels.empty());
  CHECK(kernels.back()->name == "portable");  // the fallback is always there, and last
  return kernels;
}

template <std::size_t N>
std::span<const std::uint8_t, N> fixed(const Bytes& bytes) {
  REQUIRE(bytes.size() == N);
  return std::span<const std::uint8_t, N>(bytes.data(), N);
}

}  // namespace

TEST_CASE("KAT ascon-sp800-232 Ascon-AEAD128: encrypt and decrypt every vector, every kernel") {
  const sponge_test::KatBlockFile kat =
      sponge_test::read_kat_blocks("ascon-sp800-232/asconaead128/LWC_AEAD_KAT_128_128.txt");
  REQUIRE(kat.blocks.size() == 1089);
  for (const sponge::detail::AsconKernel* kernel : runnable_ascon_kernels()) {
    std::size_t checked = 0;
    for (const sponge_test::KatBlock& block : kat.blocks) {
      INFO("kernel " << kernel->name << ", " << block.where);
      const Bytes key = block.hex("Key"), nonce = block.hex("Nonce");
      const Bytes plaintext = block.hex("PT"), associated_data = block.hex("AD");
      const Bytes expected = block.hex("CT");
      REQUIRE(expected.size() == plaintext.size() + 16);
      Bytes ciphertext(plaintext.size());
      std::array<std::uint8_t, 16> tag{};
      sponge::detail::ascon_aead128_encrypt_on(*kernel, fixed<16>(key), fixed<16>(nonce),
                                               associated_data, plaintext, ciphertext, tag);
      Bytes sealed = ciphertext;
      sealed.insert(sealed.end(), tag.begin(), tag.end());
      CHECK(to_hex(sealed) == to_hex(expected));

      const Bytes expected_ciphertext(expected.begin(), expected.end() - 16);
      const Bytes expected_tag(expected.end() - 16, expected.end());
      Bytes opened(expected_ciphertext.size(), 0xA5);
      CHECK(sponge::detail::ascon_aead128_decrypt_on(*kernel, fixed<16>(key), fixed<16>(nonce),
                                                     associated_data, expected_ciphertext,
                                                     fixed<16>(expected_tag), opened));
      CHECK(to_hex(opened) == to_hex(plaintext));
      ++checked;
    }
    CHECK(checked == 1089);
  }
}

TEST_CASE("KAT ascon-sp800-232 Ascon-Hash256, every kernel, one-shot and streamed") {
  const sponge_test::KatBlockFile kat =
      sponge_test::read_kat_blocks("ascon-sp800-232/asconhash256/LWC_HASH_KAT_128_256.txt");
  REQUIRE(kat.blocks.size() == 1025);  // messages of 0 .. 1024 bytes
  for (const sponge::detail::AsconKernel* kernel : runnable_ascon_kernels()) {
    for (const sponge_test::KatBlock& block : kat.blocks) {
      INFO("kernel " << kernel->name << ", " << block.where);
      const Bytes message = block.hex("Msg");
      const std::string expected = to_hex(block.hex("MD"));
      CHECK(to_hex(sponge::detail::ascon_hash256_on(*kernel, message)) == expected);
      // Streamed: an odd first piece, so the blocks after it start mid-buffer.
      sponge::AsconHash256 hash(*kernel);
      const std::size_t split = message.size() / 3;
      hash.update(std::span(message).first(split));
      hash.update(std::span(message).subspan(split));
      CHECK(to_hex(hash.digest()) == expected);
    }
  }
  // The public one-shot function, on the dispatcher's kernel.
  CHECK(to_hex(sponge::ascon_hash256(std::span<const std::uint8_t>())) ==
        to_hex(kat.blocks.front().hex("MD")));
}

TEST_CASE("KAT ascon-sp800-232 Ascon-XOF128, every kernel, one-shot and squeezed in pieces") {
  const sponge_test::KatBlockFile kat =
      sponge_test::read_kat_blocks("ascon-sp800-232/asconxof128/LWC_XOF_KAT_128_512.txt");
  REQUIRE(kat.blocks.size() == 1025);
  for (const sponge::detail::AsconKernel* kernel : runnable_ascon_kernels()) {
    for (const sponge_test::KatBlock& block : kat.blocks) {
      INFO("kernel " << kernel->name << ", " << block.where);
      const Bytes message = block.hex("Msg");
      const Bytes expected = block.hex("MD");
      REQUIRE(expected.size() == 64);
      Bytes out(expected.size());
      sponge::detail::ascon_xof128_on(*kernel, message, out);
      CHECK(to_hex(out) == to_hex(expected));
      sponge::AsconXof128 xof(*kernel);
      CHECK(to_hex(sponge_test::squeezed_in_pieces(xof, message, message.size() / 2,
                                                   expected.size())) == to_hex(expected));
    }
  }
}

TEST_CASE("KAT ascon-sp800-232 Ascon-CXOF128, every kernel, one-shot and streamed") {
  const sponge_test::KatBlockFile kat =
      sponge_test::read_kat_blocks("ascon-sp800-232/asconcxof128/LWC_CXOF_KAT_128_512.txt");
  REQUIRE(kat.blocks.size() == 1089);  // Msg 0 .. 32 bytes x Z 0 .. 32 bytes
  for (const sponge::detail::AsconKernel* kernel : runnable_ascon_kernels()) {
    for (const sponge_test::KatBlock& block : kat.blocks) {
      INFO("kernel " << kernel->name << ", " << block.where);
      const Bytes message = block.hex("Msg"), customization = block.hex("Z");
      const Bytes expected = block.hex("MD");
      Bytes out(expected.size());
      sponge::detail::ascon_cxof128_on(*kernel, message, customization, out);
      CHECK(to_hex(out) == to_hex(expected));
      sponge::AsconCxof128 xof(*kernel, customization);
      CHECK(to_hex(sponge_test::squeezed_in_pieces(xof, message, message.size() / 2,
                                                   expected.size())) == to_hex(expected));
    }
  }
}
