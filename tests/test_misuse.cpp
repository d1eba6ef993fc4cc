// Misuse of the streaming classes, and the C API: status codes, untouched outputs on
// error, agreement with the C++ functions.
#include <doctest/doctest.h>

#include <memory>
#include <new>
#include <set>
#include <stdexcept>
#include <string>

#include "c_api_check.h"
#include "sponge/sponge.h"
#include "sponge/sponge.hpp"
#include "support/test_support.hpp"

using sponge_test::Bytes;
using sponge_test::to_bytes;

namespace {

// The what() of the std::logic_error that `action` throws ("" if it throws nothing else).
template <typename Action>
std::string logic_error_message(Action&& action) {
  try {
    action();
  } catch (const std::logic_error& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE_TEMPLATE("update() after squeeze() throws std::logic_error naming both", H,
                   sponge::Keccak256, sponge::Sha3_224, sponge::Sha3_256, sponge::Sha3_384,
                   sponge::Sha3_512, sponge::Shake128, sponge::Shake256) {
  H hash;
  hash.update(std::string_view("abc"));
  std::uint8_t out[8];
  hash.squeeze(out);
  CHECK_THROWS_AS(hash.update(std::string_view("more")), std::logic_error);
  const std::string message =
      logic_error_message([&] { hash.update(std::span<const std::uint8_t>()); });
  CHECK(message.find("update") != std::string::npos);
  CHECK(message.find("squeeze") != std::string::npos);
  // A failed update changed nothing: squeezing continues the same stream.
  std::uint8_t next[8];
  hash.squeeze(next);
  H again;
  again.update(std::string_view("abc"));
  std::uint8_t both[16];
  again.squeeze(both);
  CHECK(Bytes(next, next + 8) == Bytes(both + 8, both + 16));

  // reset() makes the object usable again, as the empty message.
  hash.reset();
  constexpr std::size_t out_len = sponge_test::is_xof<H> ? 64 : H::digest_bytes;
  Bytes empty(out_len);
  hash.squeeze(empty);
  CHECK(empty == sponge_test::one_shot<H>({}, out_len));
  hash.reset();
  hash.update(std::string_view("abc"));
  Bytes abc(out_len);
  hash.squeeze(abc);
  CHECK(abc == sponge_test::one_shot<H>(Bytes{'a', 'b', 'c'}, out_len));
}

TEST_CASE_TEMPLATE("digest() after squeeze() throws std::logic_error naming both", H,
                   sponge::Keccak256, sponge::Sha3_224, sponge::Sha3_256, sponge::Sha3_384,
                   sponge::Sha3_512) {
  H hash;
  hash.update(std::string_view("abc"));
  std::uint8_t out[1];
  hash.squeeze(out);
  CHECK_THROWS_AS((void)hash.digest(), std::logic_error);
  const std::string message = logic_error_message([&] { (void)hash.digest(); });
  CHECK(message.find("digest") != std::string::npos);
  CHECK(message.find("squeeze") != std::string::npos);
  hash.reset();
  CHECK(to_bytes(hash.digest()) == sponge_test::one_shot<H>({}, H::digest_bytes));
  hash.update(std::string_view("abc"));
  CHECK(to_bytes(hash.digest()) == sponge_test::one_shot<H>(Bytes{'a', 'b', 'c'}, H::digest_bytes));
}

namespace {

using FixedFn = sponge_status (*)(const uint8_t*, size_t, uint8_t*);

template <typename H>
void check_fixed_c_function(FixedFn c_function) {
  constexpr std::size_t digest_bytes = H::digest_bytes;
  sponge_test::Rng rng(digest_bytes);
  for (const std::size_t length : {0, 1, 71, 72, 73, 135, 136, 137, 1000}) {
    CAPTURE(length);
    const Bytes input = rng.bytes(length);
    Bytes out(digest_bytes, 0);
    CHECK(c_function(input.data(), input.size(), out.data()) == SPONGE_OK);
    CHECK(out == sponge_test::one_shot<H>(input, digest_bytes));
  }
  // NULL input with zero length is the empty message.
  Bytes empty(digest_bytes, 0);
  CHECK(c_function(nullptr, 0, empty.data()) == SPONGE_OK);
  CHECK(empty == sponge_test::one_shot<H>({}, digest_bytes));
  // NULL input with a length: error, output untouched (guard bytes around it too).
  Bytes sentinel(digest_bytes + 16, 0xA5);
  CHECK(c_function(nullptr, 1, sentinel.data() + 8) == SPONGE_ERROR_NULL_INPUT);
  CHECK(sentinel == Bytes(digest_bytes + 16, 0xA5));
  CHECK(c_function(nullptr, 12345, sentinel.data() + 8) == SPONGE_ERROR_NULL_INPUT);
  CHECK(sentinel == Bytes(digest_bytes + 16, 0xA5));
  // NULL output.
  const std::uint8_t abc[] = {'a', 'b', 'c'};
  CHECK(c_function(abc, sizeof abc, nullptr) == SPONGE_ERROR_NULL_OUTPUT);
  CHECK(c_function(nullptr, 0, nullptr) == SPONGE_ERROR_NULL_OUTPUT);
}

using XofFn = sponge_status (*)(const uint8_t*, size_t, uint8_t*, size_t);

template <typename H>
void check_xof_c_function(XofFn c_function) {
  sponge_test::Rng rng(H::rate_bytes);
  for (const std::size_t length : {0, 1, 135, 136, 137, 167, 168, 169, 1000}) {
    for (const std::size_t out_len : {1, 32, 168, 500}) {
      CAPTURE(length);
      CAPTURE(out_len);
      const Bytes input = rng.bytes(length);
      Bytes out(out_len, 0);
      CHECK(c_function(input.data(), input.size(), out.data(), out.size()) == SPONGE_OK);
      CHECK(out == sponge_test::one_shot<H>(input, out_len));
    }
  }
  Bytes empty(64, 0);
  CHECK(c_function(nullptr, 0, empty.data(), empty.size()) == SPONGE_OK);
  CHECK(empty == sponge_test::one_shot<H>({}, 64));
  Bytes sentinel(64, 0xA5);
  CHECK(c_function(nullptr, 1, sentinel.data(), sentinel.size()) == SPONGE_ERROR_NULL_INPUT);
  CHECK(sentinel == Bytes(64, 0xA5));
  const std::uint8_t abc[] = {'a', 'b', 'c'};
  CHECK(c_function(abc, sizeof abc, nullptr, 1) == SPONGE_ERROR_NULL_OUTPUT);
  CHECK(c_function(abc, sizeof abc, nullptr, 0) == SPONGE_OK);
  CHECK(c_function(nullptr, 0, nullptr, 0) == SPONGE_OK);
  // A zero-length output with a real pointer writes nothing.
  std::uint8_t untouched = 0xA5;
  CHECK(c_function(abc, sizeof abc, &untouched, 0) == SPONGE_OK);
  CHECK(untouched == 0xA5);
}

}  // namespace

TEST_CASE("C API fixed-output functions: status codes and agreement with C++") {
  check_fixed_c_function<sponge::Keccak256>(sponge_keccak256);
  check_fixed_c_function<sponge::Sha3_224>(sponge_sha3_224);
  check_fixed_c_function<sponge::Sha3_256>(sponge_sha3_256);
  check_fixed_c_function<sponge::Sha3_384>(sponge_sha3_384);
  check_fixed_c_function<sponge::Sha3_512>(sponge_sha3_512);
}

TEST_CASE("C API SHAKE functions: status codes and agreement with C++") {
  check_xof_c_function<sponge::Shake128>(sponge_shake128);
  check_xof_c_function<sponge::Shake256>(sponge_shake256);
}

TEST_CASE("C API status messages are distinct and non-empty") {
  std::set<std::string> messages;
  for (const sponge_status status :
       {SPONGE_OK, SPONGE_ERROR_NULL_INPUT, SPONGE_ERROR_NULL_OUTPUT,
        SPONGE_ERROR_INVALID_PARAMETER, SPONGE_ERROR_AUTHENTICATION, SPONGE_ERROR_NULL_STATE,
        SPONGE_ERROR_MISUSE, SPONGE_ERROR_OVERLAP}) {
    const char* message = sponge_status_message(status);
    REQUIRE(message != nullptr);
    CHECK(std::string(message).size() > 0);
    messages.insert(message);
  }
  CHECK(messages.size() == 8);
  // An out-of-range value still gets a string, not NULL.
  const char* unknown = sponge_status_message(static_cast<sponge_status>(-99));
  REQUIRE(unknown != nullptr);
  CHECK(messages.count(unknown) == 0);
}

TEST_CASE("C API called from plain C") {
  char first_failure[256] = "";
  int checks_run = 0;
  const int failures = sponge_c_api_check(first_failure, sizeof first_failure, &checks_run);
  INFO("first failure: " << first_failure);
  CHECK(failures == 0);
  CHECK(checks_run == 161);
}

// Destroys a hasher built in `storage` after `use`, and counts the bytes it left non-zero.
template <typename Hasher, typename... Arguments>
std::pair<std::size_t, std::size_t> nonzero_bytes_before_and_after_destruction(
    const Bytes& secret, Arguments... arguments) {
  alignas(Hasher) unsigned char storage[sizeof(Hasher)] = {};
  auto* hash = new (storage) Hasher(arguments...);
  hash->update(secret);
  std::size_t before = 0;
  for (unsigned char byte : storage)
    before += byte != 0;
  std::destroy_at(hash);
  // The object's lifetime has ended, so GCC treats its bytes as indeterminate: read them
  // through a volatile view after a compiler barrier, as an attacker reading memory would.
  __asm__ volatile("" : : "r"(storage) : "memory");
  const volatile unsigned char* left = storage;
  std::size_t after = 0;
  for (std::size_t i = 0; i < sizeof storage; ++i)
    after += left[i] != 0;
  return {before, after};
}

TEST_CASE("a destroyed hasher leaves no trace of its state in memory") {
  // The lanes, and the fields that tell the function and the message length (rate, domain
  // byte, position). Less than a block: the message stays XORed into the state.
  const Bytes secret(100, 0xA5);
  const auto [before, after] = nonzero_bytes_before_and_after_destruction<sponge::Sha3_256>(secret);
  CHECK(before >= 100 + 2);  // the message, the rate and the position are there
  CHECK(after == 0);
}

TEST_CASE("destroyed RFC 9861 and SP 800-185 hashers leave no trace: states, key, counters") {
  const Bytes secret(9000, 0xA5);  // more than a KT chunk: the tree's counters are non-zero
  const Bytes key(32, 0x5A);
  int hasher = 0;
  const auto check = [&](std::pair<std::size_t, std::size_t> counts) {
    const int index = hasher++;
    INFO("hasher " << index << " of the list below");
    CHECK(counts.first > 100);
    CHECK(counts.second == 0);
  };
  check(nonzero_bytes_before_and_after_destruction<sponge::Kmac256>(secret, std::span(key),
                                                                    std::span(key)));
  check(nonzero_bytes_before_and_after_destruction<sponge::KmacXof128>(secret, std::span(key),
                                                                       std::span(key)));
  check(nonzero_bytes_before_and_after_destruction<sponge::TurboShake128>(secret, 0x0B));
  check(nonzero_bytes_before_and_after_destruction<sponge::Kt128>(secret, std::span(key)));
  check(nonzero_bytes_before_and_after_destruction<sponge::Kt256>(secret, std::span(key)));
  check(nonzero_bytes_before_and_after_destruction<sponge::Cshake256>(secret, std::span(key),
                                                                      std::span(key)));
  check(nonzero_bytes_before_and_after_destruction<sponge::ParallelHash128>(secret, 100,
                                                                            std::span(key)));
}

TEST_CASE("TurboSHAKE domain bytes outside 0x01..0x7F and ParallelHash block size 0 throw") {
  for (const int domain : {0x00, 0x80, 0xFF}) {
    const auto byte = static_cast<std::uint8_t>(domain);
    CHECK_THROWS_AS(sponge::TurboShake128{byte}, std::invalid_argument);
    CHECK_THROWS_AS(sponge::TurboShake256{byte}, std::invalid_argument);
    Bytes out(8);
    CHECK_THROWS_AS(sponge::turboshake128({}, out, byte), std::invalid_argument);
  }
  CHECK_NOTHROW(sponge::TurboShake128{0x01});
  CHECK_NOTHROW(sponge::TurboShake256{0x7F});
  CHECK_THROWS_AS(sponge::ParallelHash256(0), std::invalid_argument);
  Bytes out(8);
  CHECK_THROWS_AS(sponge::parallelhashxof128({}, 0, {}, out), std::invalid_argument);
}

TEST_CASE("RFC 9861 and SP 800-185 XOFs: update after squeeze throws until reset") {
  const auto check = [](auto xof, auto add) {
    std::uint8_t out[10];
    add(xof);
    xof.squeeze(out);
    CHECK_THROWS_AS(add(xof), std::logic_error);
    xof.reset();
    CHECK_NOTHROW(add(xof));
  };
  const auto update = [](auto& xof) { xof.update(std::string_view("abc")); };
  check(sponge::TurboShake128{}, update);
  check(sponge::Kt256{}, update);
  check(sponge::Cshake128("N", "S"), update);
  check(sponge::KmacXof256("key", ""), update);
  check(sponge::ParallelHashXof128(3), update);
  check(sponge::TupleHashXof256{}, [](auto& xof) { xof.add(std::string_view("abc")); });
}

TEST_CASE("destroyed Ascon hashers leave no trace: state, position, customized state") {
  const Bytes secret(100, 0xA5);
  const Bytes customization(40, 0x5A);
  for (const auto& [name, counts] :
       {std::pair{"AsconHash256",
                  nonzero_bytes_before_and_after_destruction<sponge::AsconHash256>(secret)},
        {"AsconXof128", nonzero_bytes_before_and_after_destruction<sponge::AsconXof128>(secret)},
        {"AsconCxof128", nonzero_bytes_before_and_after_destruction<sponge::AsconCxof128>(
                             secret, std::span<const std::uint8_t>(customization))}}) {
    INFO(name);
    CHECK(counts.first >= 40);  // state words and the kernel pointer are there
    CHECK(counts.second == 0);
  }
}

namespace {

// Destroys an AEAD object built in `storage` after `use`, and counts its non-zero bytes.
template <typename Aead, typename Use, typename... Arguments>
std::pair<std::size_t, std::size_t> aead_nonzero_bytes(Use use, Arguments... arguments) {
  alignas(Aead) unsigned char storage[sizeof(Aead)] = {};
  auto* aead = new (storage) Aead(arguments...);
  use(*aead);
  std::size_t before = 0;
  for (unsigned char byte : storage)
    before += byte != 0;
  std::destroy_at(aead);
  __asm__ volatile("" : : "r"(storage) : "memory");
  const volatile unsigned char* left = storage;
  std::size_t after = 0;
  for (std::size_t i = 0; i < sizeof storage; ++i)
    after += left[i] != 0;
  return {before, after};
}

}  // namespace

TEST_CASE("destroyed Ascon-AEAD128 objects leave no trace of key or state, finished or not") {
  std::array<std::uint8_t, 16> key{}, nonce{};
  key.fill(0x5A);
  nonce.fill(0x3C);
  Bytes text(21, 0xA5), out(21);
  const auto unfinished = aead_nonzero_bytes<sponge::AsconAead128Encryptor>(
      [&](sponge::AsconAead128Encryptor& aead) {
        aead.update_associated_data(text);
        aead.update(text, out);
      },
      sponge::AsconAead128Key(key), sponge::AsconAead128Nonce(nonce));
  CHECK(unfinished.first >= 56);  // state words and key
  CHECK(unfinished.second == 0);
  const auto decrypting = aead_nonzero_bytes<sponge::AsconAead128Decryptor>(
      [&](sponge::AsconAead128Decryptor& aead) { aead.update(text); }, sponge::AsconAead128Key(key),
      sponge::AsconAead128Nonce(nonce), std::span(out));
  CHECK(decrypting.first >= 56);
  CHECK(decrypting.second == 0);
}

TEST_CASE("Ascon-AEAD128 out of order: std::logic_error; wrong lengths: nothing written") {
  std::array<std::uint8_t, 16> key{}, nonce{};
  Bytes text(20, 0x11), out(20, 0xA5);
  sponge::AsconAead128Encryptor encryptor(key, nonce);
  encryptor.update(text, out);
  CHECK_THROWS_AS(encryptor.update_associated_data(text), std::logic_error);
  CHECK_THROWS_AS(encryptor.update(text, std::span(out).first(19)), std::invalid_argument);
  const auto tag = encryptor.finish();
  const std::string message = logic_error_message([&] { encryptor.update(text, out); });
  CHECK(message.find("finish") != std::string::npos);
  CHECK_THROWS_AS((void)encryptor.finish(), std::logic_error);

  Bytes opened(19, 0xA5);
  sponge::AsconAead128Decryptor decryptor(key, nonce, opened);
  CHECK_THROWS_AS(decryptor.update(out), std::length_error);  // 20 bytes into 19
  CHECK(opened == Bytes(19, 0xA5));                           // nothing written
  CHECK(decryptor.plaintext_bytes() == 0);
  CHECK_FALSE(decryptor.finish(tag));  // the tag of 20 bytes, not of none
  CHECK_THROWS_AS((void)decryptor.finish(tag), std::logic_error);

  sponge::AsconXof128 xof;
  std::uint8_t squeezed[4];
  xof.squeeze(squeezed);
  CHECK_THROWS_AS(xof.update(text), std::logic_error);
  xof.reset();
  xof.update(text);  // usable again
}
