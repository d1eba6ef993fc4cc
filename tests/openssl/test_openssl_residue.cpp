// The residue test through EVP: a KMAC key, an Ascon-AEAD128 key and a customization string
// given to the provider leave no trace in the memory its contexts give back. This program
// replaces the global operator delete, which the module's deletes reach too (the C++
// runtime's replacement rule: the module links libstdc++ dynamically), and searches each block
// the provider frees for any 8-byte window of the secrets, before the block returns to the
// allocator. A context re-initialised with a second key is checked for the first one too.
// The same replacement counts the provider's allocations: none per update, for every kind of
// context. Not built with sanitizers, whose allocators this replacement would bypass.
#include <doctest/doctest.h>

#include <malloc.h>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "evp_support.hpp"
#include "sponge_provider.h"

using sponge_evp::Bytes;
using sponge_evp::kSponge;

namespace {

// The secrets being watched for, and what the scan found. Set only while no other thread runs.
std::atomic<bool> watching{false};
Bytes watched[2];
std::size_t blocks_scanned = 0;
std::size_t traces_found = 0;
std::atomic<std::size_t> allocations{0};

bool contains_window(const unsigned char* block, std::size_t size, const Bytes& secret) {
  constexpr std::size_t kWindow = 8;
  if (secret.size() < kWindow || size < kWindow) return false;
  for (std::size_t start = 0; start + kWindow <= secret.size(); ++start)
    for (std::size_t at = 0; at + kWindow <= size; ++at)
      if (std::memcmp(block + at, secret.data() + start, kWindow) == 0) return true;
  return false;
}

void scan(void* pointer) {
  if (pointer == nullptr || !watching.load(std::memory_order_relaxed)) return;
  const std::size_t size = malloc_usable_size(pointer);
  ++blocks_scanned;
  for (const Bytes& secret : watched)
    if (contains_window(static_cast<const unsigned char*>(pointer), size, secret)) ++traces_found;
}

Bytes pattern(std::uint8_t seed, std::size_t length) {
  Bytes bytes(length);
  for (std::size_t i = 0; i < length; ++i)
    bytes[i] = static_cast<std::uint8_t>(seed * 37 + i * 101 + 11);
  return bytes;
}

// Runs `body` with the scan on, watching `first` and `second`; returns the blocks scanned.
template <typename Body>
std::size_t watch(const Bytes& first, const Bytes& second, Body body) {
  watched[0] = first;
  watched[1] = second;
  blocks_scanned = traces_found = 0;
  watching = true;
  body();
  watching = false;
  return blocks_scanned;
}

// Out of line: inlined into a std::vector's destructor, GCC 12 at -O2 -g takes the free of
// what the replaced operator new returned for a mismatched pair (-Wmismatched-new-delete).
[[gnu::noinline]] void scan_and_free(void* pointer) noexcept {
  scan(pointer);
  std::free(pointer);
}

}  // namespace

void operator delete(void* pointer) noexcept {
  scan_and_free(pointer);
}
void operator delete(void* pointer, std::size_t) noexcept {
  scan_and_free(pointer);
}
void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  void* pointer = std::malloc(size == 0 ? 1 : size);
  if (pointer == nullptr) throw std::bad_alloc();
  return pointer;
}

TEST_CASE("residue: a KMAC key leaves no trace in freed memory, across re-init") {
  const Bytes first = pattern(1, 48), second = pattern(2, 48), message = pattern(3, 300);
  sponge_evp::library();  // loads the module before the scan
  const std::size_t scanned = watch(first, second, [&] {
    EVP_MAC* mac = EVP_MAC_fetch(sponge_evp::library(), "KMAC256", kSponge);
    REQUIRE(mac != nullptr);
    EVP_MAC_CTX* context = EVP_MAC_CTX_new(mac);
    REQUIRE(EVP_MAC_init(context, first.data(), first.size(), nullptr));
    REQUIRE(EVP_MAC_update(context, message.data(), message.size()));
    EVP_MAC_CTX* copy = EVP_MAC_CTX_dup(context);  // a duplicate holds the key too
    REQUIRE(copy != nullptr);
    EVP_MAC_CTX_free(copy);
    // Re-initialised with the second key, mid-message: the first must be gone.
    sponge_evp::Params custom;
    custom.octets(OSSL_MAC_PARAM_CUSTOM, pattern(4, 20));
    REQUIRE(EVP_MAC_init(context, second.data(), second.size(), custom.get()));
    REQUIRE(EVP_MAC_update(context, message.data(), message.size()));
    unsigned char out[64];
    std::size_t length = 0;
    REQUIRE(EVP_MAC_final(context, out, &length, sizeof out));
    EVP_MAC_CTX_free(context);
    EVP_MAC_free(mac);
  });
  CHECK(scanned >= 2);  // the duplicate and the context at least
  CHECK(traces_found == 0);
}

TEST_CASE("residue: an Ascon-AEAD128 key leaves no trace, finished or abandoned mid-message") {
  const Bytes key = pattern(5, 16), other_key = pattern(6, 16), nonce = pattern(7, 16);
  const Bytes message = pattern(8, 100);
  sponge_evp::library();
  const std::size_t scanned = watch(key, other_key, [&] {
    EVP_CIPHER* cipher = EVP_CIPHER_fetch(sponge_evp::library(), "ASCON-AEAD128", kSponge);
    REQUIRE(cipher != nullptr);
    for (int finish = 0; finish < 2; ++finish) {
      EVP_CIPHER_CTX* context = EVP_CIPHER_CTX_new();
      REQUIRE(EVP_EncryptInit_ex2(context, cipher, key.data(), nonce.data(), nullptr));
      Bytes out(message.size());
      int length = 0;
      REQUIRE(EVP_EncryptUpdate(context, out.data(), &length, message.data(),
                                static_cast<int>(message.size())));
      // Re-initialised with another key mid-message, then finished or freed as it is.
      REQUIRE(EVP_EncryptInit_ex2(context, nullptr, other_key.data(), nonce.data(), nullptr));
      REQUIRE(EVP_EncryptUpdate(context, out.data(), &length, message.data(), 50));
      if (finish == 1) REQUIRE(EVP_EncryptFinal_ex(context, out.data(), &length));
      EVP_CIPHER_CTX_free(context);
    }
    EVP_CIPHER_free(cipher);
  });
  CHECK(scanned >= 2);
  CHECK(traces_found == 0);
}

TEST_CASE("residue: the scan finds a key that is left behind (the test can fail)") {
  const Bytes key = pattern(9, 32);
  const std::size_t scanned = watch(key, key, [&] {
    auto* leaked = new Bytes(key);  // a block that still holds the key when it is freed
    delete leaked;                  // frees the vector's buffer (scanned: holds the key)
  });
  CHECK(scanned >= 1);
  CHECK(traces_found >= 1);
}

TEST_CASE("no heap allocation per update, in every kind of provider context") {
  const Bytes chunk = pattern(10, 1000), key = pattern(11, 32), nonce = pattern(12, 16);
  Bytes out(chunk.size());
  for (const char* name : {"SHA3-256", "SHAKE128", "KECCAK-256", "KT128", "TurboSHAKE256",
                           "CSHAKE-128", "PARALLELHASH-256", "ASCON-HASH256", "ASCON-CXOF128"}) {
    INFO(name);
    EVP_MD* md = EVP_MD_fetch(sponge_evp::library(), name, kSponge);
    REQUIRE(md != nullptr);
    EVP_MD_CTX* context = EVP_MD_CTX_new();
    sponge_evp::Params params;
    if (std::strcmp(name, "KT128") == 0 || std::strcmp(name, "CSHAKE-128") == 0)
      params.octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, key);
    REQUIRE(EVP_DigestInit_ex2(context, md, params.get()));
    const std::size_t before = allocations.load();
    for (int i = 0; i < 100; ++i)
      REQUIRE(EVP_DigestUpdate(context, chunk.data(), chunk.size()));
    CHECK(allocations.load() == before);
    EVP_MD_CTX_free(context);
    EVP_MD_free(md);
  }
  EVP_MAC* mac = EVP_MAC_fetch(sponge_evp::library(), "KMAC256", kSponge);
  EVP_MAC_CTX* mac_context = EVP_MAC_CTX_new(mac);
  REQUIRE(EVP_MAC_init(mac_context, key.data(), key.size(), nullptr));
  std::size_t before = allocations.load();
  for (int i = 0; i < 100; ++i)
    REQUIRE(EVP_MAC_update(mac_context, chunk.data(), chunk.size()));
  CHECK(allocations.load() == before);
  EVP_MAC_CTX_free(mac_context);
  EVP_MAC_free(mac);
  EVP_CIPHER* cipher = EVP_CIPHER_fetch(sponge_evp::library(), "ASCON-AEAD128", kSponge);
  EVP_CIPHER_CTX* cipher_context = EVP_CIPHER_CTX_new();
  REQUIRE(EVP_EncryptInit_ex2(cipher_context, cipher, key.data(), nonce.data(), nullptr));
  int length = 0;
  before = allocations.load();
  REQUIRE(EVP_EncryptUpdate(cipher_context, nullptr, &length, chunk.data(), 100));
  for (int i = 0; i < 100; ++i)
    REQUIRE(EVP_EncryptUpdate(cipher_context, out.data(), &length, chunk.data(),
                              static_cast<int>(chunk.size())));
  CHECK(allocations.load() == before);
  EVP_CIPHER_CTX_free(cipher_context);
  EVP_CIPHER_free(cipher);
}
