// Differential tests against independent implementations: OpenSSL's EVP for SHA3 and SHAKE,
// Crypto++ for Keccak-256 (original padding). Deterministic random messages.
#include <doctest/doctest.h>
#include <openssl/evp.h>

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
