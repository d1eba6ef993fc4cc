// Differential tests against independent implementations: OpenSSL's EVP for SHA3 and SHAKE,
// OpenSSL's EVP_MAC for KMAC (and cSHAKE through KMAC's framing), Crypto++ for Keccak-256
// (original padding). Deterministic random messages.
#include <doctest/doctest.h>
#include <openssl/evp.h>

#include <array>
#include <string>
#include <vector>

#include "batch/batch_hash.hpp"
#include "sponge/sponge.hpp"
#include "support/oracles.hpp"
#include "support/test_support.hpp"

using sponge_test::Bytes;
using sponge_test::cryptopp_keccak256;
using sponge_test::openssl_hash;
using sponge_test::to_hex;

namespace {

// Messages: every length 0..2*168+1 (all block boundaries of every rate), then 300 random
// lengths up to 4096, then three 1 MiB inputs. `xof_len` picks a random SHAKE output length.
struct Case {
  Bytes msg;
  std::size_t xof_len;
};

std::vector<Case> make_cases() {
  sponge_test::Rng rng(0x5EED);
  std::vector<Case> cases;
  for (std::size_t length = 0; length <= 2 * 168 + 1; ++length) {
    cases.push_back({rng.bytes(length), 1 + rng.below_or_equal(999)});
  }
  for (int i = 0; i < 300; ++i) {
    const std::size_t length = rng.below_or_equal(4096);
    cases.push_back({rng.bytes(length), 1 + rng.below_or_equal(999)});
  }
  for (int i = 0; i < 3; ++i) {
    cases.push_back({rng.bytes((std::size_t{1} << 20) + static_cast<std::size_t>(i)),
                     1 + rng.below_or_equal(999)});
  }
  return cases;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all = make_cases();
  return all;
}

template <typename H>
void check_against_openssl(const EVP_MD* md) {
  REQUIRE(md != nullptr);
  std::size_t compared = 0;
  for (const Case& c : cases()) {
    const std::size_t out_len = sponge_test::is_xof<H> ? c.xof_len : H::digest_bytes;
    INFO("message of " << c.msg.size() << " bytes, output " << out_len);
    const Bytes expected = openssl_hash(md, c.msg, out_len, sponge_test::is_xof<H>);
    CHECK(to_hex(sponge_test::one_shot<H>(c.msg, out_len)) == to_hex(expected));
    CHECK(to_hex(sponge_test::streamed<H>(c.msg, c.msg.size() / 3, out_len)) == to_hex(expected));
    ++compared;
  }
  MESSAGE("compared " << compared << " messages with OpenSSL");
  CHECK(compared == cases().size());
}

}  // namespace

TEST_CASE("differential: a sanity check that the oracles disagree on different input") {
  const Bytes a{'a'};
  const Bytes b{'b'};
  CHECK(openssl_hash(EVP_sha3_256(), a, 32, false) != openssl_hash(EVP_sha3_256(), b, 32, false));
  CHECK(cryptopp_keccak256(a) != cryptopp_keccak256(b));
  CHECK(cases().size() == 2 * 168 + 2 + 300 + 3);
}

TEST_CASE("differential: SHA3-224 vs OpenSSL") {
  check_against_openssl<sponge::Sha3_224>(EVP_sha3_224());
}
TEST_CASE("differential: SHA3-256 vs OpenSSL") {
  check_against_openssl<sponge::Sha3_256>(EVP_sha3_256());
}
// The batch path on every batch kernel this CPU runs: all cases' messages as one batch
// (mixed lengths, three of 1 MiB), and the public function on the active batch kernel.
TEST_CASE("differential: SHA3-256 batch (every batch kernel) vs OpenSSL") {
  std::vector<std::span<const std::uint8_t>> messages;
  std::vector<Bytes> expected;
  for (const Case& c : cases()) {
    messages.push_back(c.msg);
    expected.push_back(openssl_hash(EVP_sha3_256(), c.msg, 32, false));
  }
  std::vector<std::array<std::uint8_t, 32>> digests(messages.size());
  const auto compare = [&](const std::string& what) {
    std::size_t equal = 0;
    for (std::size_t i = 0; i < messages.size(); ++i)
      equal += sponge_test::to_bytes(digests[i]) == expected[i] ? 1 : 0;
    INFO(what);
    CHECK(equal == messages.size());
  };
  for (const sponge::detail::KeccakBatchKernel* kernel : sponge::detail::compiled_batch_kernels()) {
    if (!kernel->cpu_supports()) {
      MESSAGE("batch kernel " << kernel->name << " is compiled but this CPU cannot run it");
      continue;
    }
    digests.assign(messages.size(), {});
    sponge::detail::hash_batch(*kernel, {136, 0x06, 32, 24},
                               sponge::detail::BatchMessages(messages), digests[0].data());
    compare("batch kernel " + std::string(kernel->name));
  }
  digests.assign(messages.size(), {});
  sponge::sha3_256_batch(messages, digests);
  compare("sha3_256_batch");
  MESSAGE("compared batches of " << messages.size() << " messages with OpenSSL");
}

TEST_CASE("differential: SHA3-384 vs OpenSSL") {
  check_against_openssl<sponge::Sha3_384>(EVP_sha3_384());
}
TEST_CASE("differential: SHA3-512 vs OpenSSL") {
  check_against_openssl<sponge::Sha3_512>(EVP_sha3_512());
}
TEST_CASE("differential: SHAKE128 vs OpenSSL") {
  check_against_openssl<sponge::Shake128>(EVP_shake128());
}
TEST_CASE("differential: SHAKE256 vs OpenSSL") {
  check_against_openssl<sponge::Shake256>(EVP_shake256());
}

TEST_CASE("differential: Keccak-256 vs Crypto++ Keccak_256") {
  std::size_t compared = 0;
  for (const Case& c : cases()) {
    INFO("message of " << c.msg.size() << " bytes");
    const Bytes expected = cryptopp_keccak256(c.msg);
    CHECK(to_hex(sponge_test::one_shot<sponge::Keccak256>(c.msg, 32)) == to_hex(expected));
    CHECK(to_hex(sponge_test::streamed<sponge::Keccak256>(c.msg, c.msg.size() / 3, 32)) ==
          to_hex(expected));
    ++compared;
  }
  MESSAGE("compared " << compared << " messages with Crypto++");
  CHECK(compared == cases().size());
}

namespace {

// KMAC's input to cSHAKE (SP 800-185 section 4.3), written here from the standard:
// bytepad(encode_string(K), rate) || X || right_encode(L), L in bits (0 for KMACXOF).
Bytes left_encode(std::uint64_t value) {
  Bytes digits;
  for (; value != 0; value >>= 8)
    digits.insert(digits.begin(), static_cast<std::uint8_t>(value));
  if (digits.empty()) digits.push_back(0);
  digits.insert(digits.begin(), static_cast<std::uint8_t>(digits.size()));
  return digits;
}
Bytes kmac_cshake_input(std::size_t rate, const Bytes& key, const Bytes& message,
                        std::uint64_t output_bits) {
  Bytes input = left_encode(rate);
  const Bytes key_bits = left_encode(8 * key.size());
  input.insert(input.end(), key_bits.begin(), key_bits.end());
  input.insert(input.end(), key.begin(), key.end());
  input.resize((input.size() + rate - 1) / rate * rate, 0);
  input.insert(input.end(), message.begin(), message.end());
  // right_encode: the left_encode digits with the count moved to the end.
  Bytes length = left_encode(output_bits);
  length.push_back(length.front());
  length.erase(length.begin());
  input.insert(input.end(), length.begin(), length.end());
  return input;
}

struct KmacVariant {
  int security_bits;
  bool xof;
};

// KMAC through the one-shot function (which runs the class), and cSHAKE on KMAC's framing.
void check_kmac_against_openssl(KmacVariant variant) {
  sponge_test::Rng rng(0xC0FFEE + static_cast<std::uint64_t>(variant.security_bits) +
                       (variant.xof ? 1 : 0));
  const std::size_t rate = variant.security_bits == 128 ? 168 : 136;
  std::size_t compared = 0;
  for (const Case& c : cases()) {
    if (c.msg.size() > 4096) continue;  // the 1 MiB cases add nothing to the framing
    const Bytes key = rng.bytes(sponge_test::kOpensslKmacMinKeyBytes +
                                rng.below_or_equal(sponge_test::kOpensslKmacMaxKeyBytes -
                                                   sponge_test::kOpensslKmacMinKeyBytes));
    const Bytes customization = rng.bytes(rng.below_or_equal(200));
    const std::size_t out_len = c.xof_len;
    INFO("KMAC" << variant.security_bits << std::string(variant.xof ? "XOF" : "") << ": message of "
                << c.msg.size() << " bytes, key " << key.size() << ", customization "
                << customization.size() << ", output " << out_len);
    const std::string expected = to_hex(sponge_test::openssl_kmac(
        variant.security_bits, key, c.msg, customization, out_len, variant.xof));
    Bytes ours(out_len);
    using KmacFn = void (*)(std::span<const std::uint8_t>, std::span<const std::uint8_t>,
                            std::span<const std::uint8_t>, std::span<std::uint8_t>) noexcept;
    const KmacFn one_shot = variant.security_bits == 128
                                ? (variant.xof ? sponge::kmacxof128 : sponge::kmac128)
                                : (variant.xof ? sponge::kmacxof256 : sponge::kmac256);
    one_shot(key, c.msg, customization, ours);
    CHECK(to_hex(ours) == expected);
    const std::uint64_t output_bits = variant.xof ? 0 : 8 * out_len;
    const Bytes framed = kmac_cshake_input(rate, key, c.msg, output_bits);
    const Bytes kmac_name = {'K', 'M', 'A', 'C'};
    (variant.security_bits == 128 ? sponge::cshake128 : sponge::cshake256)(framed, kmac_name,
                                                                           customization, ours);
    CHECK(to_hex(ours) == expected);
    ++compared;
  }
  MESSAGE("compared " << compared << " KMAC" << variant.security_bits
                      << std::string(variant.xof ? "XOF" : "")
                      << " and cSHAKE results with OpenSSL");
  CHECK(compared == 2 * 168 + 2 + 300);
}

}  // namespace

TEST_CASE("KMAC128/256, KMACXOF128/256 and cSHAKE on KMAC's framing against OpenSSL EVP_MAC") {
  for (const KmacVariant variant : {KmacVariant{128, false}, KmacVariant{256, false},
                                    KmacVariant{128, true}, KmacVariant{256, true}})
    check_kmac_against_openssl(variant);
}

TEST_CASE("cSHAKE with empty N and S is SHAKE: against OpenSSL") {
  std::size_t compared = 0;
  for (const Case& c : cases()) {
    if (c.msg.size() > 4096) continue;
    Bytes ours(c.xof_len);
    sponge::cshake128(c.msg, {}, {}, ours);
    CHECK(to_hex(ours) == to_hex(openssl_hash(EVP_shake128(), c.msg, c.xof_len, true)));
    sponge::cshake256(c.msg, {}, {}, ours);
    CHECK(to_hex(ours) == to_hex(openssl_hash(EVP_shake256(), c.msg, c.xof_len, true)));
    ++compared;
  }
  CHECK(compared == 2 * 168 + 2 + 300);
}
