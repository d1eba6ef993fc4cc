// The sponge OpenSSL provider through EVP, in-process: every algorithm is served at provider
// sponge; SHA3, SHAKE, KECCAK-KMAC and KMAC give the default provider's bytes at every length
// from 0 to three rate blocks and at 1 MiB; every known-answer file in tests/kat through
// EVP_MD_fetch / EVP_MAC_fetch / EVP_CIPHER_fetch with "provider=sponge", one byte at a time
// and all at once; contexts copied mid-stream and reused after final; every misuse refused
// with its reason; eight threads at once (the ".threads" registration, run under TSan).
#include <doctest/doctest.h>

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "evp_support.hpp"
#include "sponge/sponge.hpp"
#include "sponge_provider.h"
#include "support/test_support.hpp"

using sponge_evp::Bytes;
using sponge_evp::Feed;
using sponge_evp::kDefault;
using sponge_evp::kSponge;
using sponge_evp::Params;
using sponge_test::to_hex;

namespace {

struct MdCtx {
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  EVP_MD* md = nullptr;
  explicit MdCtx(const char* name) : md(EVP_MD_fetch(sponge_evp::library(), name, kSponge)) {
    REQUIRE(md != nullptr);
    REQUIRE(context != nullptr);
  }
  ~MdCtx() {
    EVP_MD_CTX_free(context);
    EVP_MD_free(md);
  }
};

struct MacCtx {
  EVP_MAC* mac;
  EVP_MAC_CTX* context;
  explicit MacCtx(const char* name)
      : mac(EVP_MAC_fetch(sponge_evp::library(), name, kSponge)), context(EVP_MAC_CTX_new(mac)) {
    REQUIRE(context != nullptr);
  }
  ~MacCtx() {
    EVP_MAC_CTX_free(context);
    EVP_MAC_free(mac);
  }
};

struct CipherCtx {
  EVP_CIPHER* cipher = EVP_CIPHER_fetch(sponge_evp::library(), "ASCON-AEAD128", kSponge);
  EVP_CIPHER_CTX* context = EVP_CIPHER_CTX_new();
  CipherCtx() { REQUIRE(cipher != nullptr); }
  ~CipherCtx() {
    EVP_CIPHER_CTX_free(context);
    EVP_CIPHER_free(cipher);
  }
};

const Bytes& random_megabyte() {
  static const Bytes bytes = sponge_test::Rng(0x5eed).bytes(1 << 20);
  return bytes;
}

struct DigestCase {
  const char* name;
  std::size_t rate;
  std::size_t out_bytes;
  bool xof;
};

// OpenSSL 3.0's default provider has these; the provider must give its bytes.
constexpr DigestCase kSharedDigests[] = {
    {"SHA3-224", 144, 28, false},        {"SHA3-256", 136, 32, false},
    {"SHA3-384", 104, 48, false},        {"SHA3-512", 72, 64, false},
    {"SHAKE128", 168, 16, false},        {"SHAKE-256", 136, 32, false},
    {"SHAKE-128", 168, 500, true},       {"SHAKE256", 136, 300, true},
    {"KECCAK-KMAC-128", 168, 32, false}, {"KECCAK-KMAC-256", 136, 200, true},
};

}  // namespace

TEST_CASE("the provider serves every algorithm at provider sponge") {
  const char* digests[] = {"SHA3-224",
                           "SHA3-256",
                           "SHA3-384",
                           "SHA3-512",
                           "SHAKE-128",
                           "SHAKE128",
                           "SHAKE-256",
                           "SHAKE256",
                           "2.16.840.1.101.3.4.2.8",
                           "KECCAK-224",
                           "KECCAK-256",
                           "KECCAK-384",
                           "KECCAK-512",
                           "KECCAK-KMAC-128",
                           "KECCAK-KMAC-256",
                           "TurboSHAKE128",
                           "TurboSHAKE256",
                           "KT128",
                           "KT256",
                           "CSHAKE-128",
                           "CSHAKE-256",
                           "PARALLELHASH-128",
                           "PARALLELHASH-256",
                           "ASCON-HASH256",
                           "ASCON-XOF128",
                           "ASCON-CXOF128"};
  for (const char* name : digests) {
    INFO(name);
    EVP_MD* md = EVP_MD_fetch(sponge_evp::library(), name, kSponge);
    REQUIRE(md != nullptr);
    CHECK(std::string(OSSL_PROVIDER_get0_name(EVP_MD_get0_provider(md))) == "sponge");
    EVP_MD_free(md);
  }
  for (const char* name : {"KMAC128", "KMAC-256"}) {
    EVP_MAC* mac = EVP_MAC_fetch(sponge_evp::library(), name, kSponge);
    REQUIRE(mac != nullptr);
    CHECK(std::string(OSSL_PROVIDER_get0_name(EVP_MAC_get0_provider(mac))) == "sponge");
    EVP_MAC_free(mac);
  }
  EVP_CIPHER* cipher = EVP_CIPHER_fetch(sponge_evp::library(), "ASCON-AEAD128", kSponge);
  REQUIRE(cipher != nullptr);
  CHECK(EVP_CIPHER_get_key_length(cipher) == 16);
  CHECK(EVP_CIPHER_get_iv_length(cipher) == 16);
  CHECK((EVP_CIPHER_get_flags(cipher) & EVP_CIPH_FLAG_AEAD_CIPHER) != 0);
  EVP_CIPHER_free(cipher);
  // SHA3's OIDs and flags as OpenSSL's own: an XOF is flagged, SHA3 is not.
  EVP_MD* shake = EVP_MD_fetch(sponge_evp::library(), "2.16.840.1.101.3.4.2.11", kSponge);
  REQUIRE(shake != nullptr);
  CHECK((EVP_MD_get_flags(shake) & EVP_MD_FLAG_XOF) != 0);
  CHECK(EVP_MD_get_size(shake) == 16);
  CHECK(EVP_MD_get_block_size(shake) == 168);
  EVP_MD_free(shake);
}

TEST_CASE(
    "SHA3, SHAKE and KECCAK-KMAC equal the default provider at lengths 0 to 3 blocks and 1 MiB") {
  const Bytes& data = random_megabyte();
  std::size_t compared = 0;
  for (const DigestCase& digest : kSharedDigests) {
    INFO(digest.name);
    for (std::size_t length = 0; length <= 3 * digest.rate; ++length) {
      const std::span<const std::uint8_t> message(data.data(), length);
      const Bytes expected =
          sponge_evp::digest(digest.name, kDefault, message, digest.out_bytes, digest.xof);
      REQUIRE(expected.size() == digest.out_bytes);
      INFO("length " << length);
      CHECK(sponge_evp::digest(digest.name, kSponge, message, digest.out_bytes, digest.xof) ==
            expected);
      CHECK(sponge_evp::digest(digest.name, kSponge, message, digest.out_bytes, digest.xof, nullptr,
                               Feed::kSplit) == expected);
      ++compared;
    }
    CHECK(sponge_evp::digest(digest.name, kSponge, data, digest.out_bytes, digest.xof) ==
          sponge_evp::digest(digest.name, kDefault, data, digest.out_bytes, digest.xof));
  }
  MESSAGE("compared " << compared << " lengths with the default provider");
}

TEST_CASE("KMAC128 and KMAC256 equal the default provider's KMAC") {
  const Bytes& data = random_megabyte();
  const Bytes keys[] = {Bytes(data.begin() + 7, data.begin() + 11), Bytes(32, 0x42),
                        Bytes(data.begin(), data.begin() + 512)};
  const Bytes customizations[] = {{}, {'a', 'b', 'c'}, Bytes(data.begin() + 3, data.begin() + 515)};
  for (const char* name : {"KMAC128", "KMAC256"}) {
    const std::size_t rate = std::strcmp(name, "KMAC128") == 0 ? 168 : 136;
    for (std::size_t length = 0; length <= 3 * rate; ++length) {
      const Bytes& key = keys[length % 3];
      Params params;
      params.octets(OSSL_MAC_PARAM_CUSTOM, customizations[length / 3 % 3])
          .size(OSSL_MAC_PARAM_SIZE, 1 + length % 100)
          .integer(OSSL_MAC_PARAM_XOF, static_cast<int>(length / 7 % 2));
      const std::span<const std::uint8_t> message(data.data(), length);
      const Bytes expected = sponge_evp::mac(name, kDefault, key, message, params.get());
      REQUIRE(expected.size() == 1 + length % 100);
      INFO(name << " length " << length);
      CHECK(sponge_evp::mac(name, kSponge, key, message, params.get()) == expected);
      CHECK(sponge_evp::mac(name, kSponge, key, message, params.get(), Feed::kSplit) == expected);
    }
    CHECK(sponge_evp::mac(name, kSponge, keys[1], data) ==
          sponge_evp::mac(name, kDefault, keys[1], data));
  }
}

// ---------------------------------------------------------------------------------------
// Known-answer files through EVP.
// ---------------------------------------------------------------------------------------

namespace {

// Checks every byte-aligned entry of a FIPS 202 / Keccak KAT file through digest `name`.
std::size_t check_kat_file(const char* file, const char* name, bool xof) {
  const sponge_test::KatFile kat = sponge_test::read_kat(file);
  std::size_t checked = 0;
  for (const sponge_test::KatEntry& entry : kat.entries) {
    INFO(kat.path << ":" << entry.line);
    for (Feed feed : {Feed::kAllAtOnce, Feed::kByteAtATime})
      CHECK(to_hex(sponge_evp::digest(name, kSponge, entry.msg, entry.out.size(), xof, nullptr,
                                      feed)) == to_hex(entry.out));
    ++checked;
  }
  return checked;
}

}  // namespace

TEST_CASE("KAT fips202 and keccak-legacy through EVP, one byte at a time and all at once") {
  for (const char* bits : {"224", "256", "384", "512"}) {
    const std::string name = std::string("SHA3-") + bits;
    for (const char* kind : {"ShortMsg", "LongMsg"})
      CHECK(check_kat_file(("fips202-cavp/SHA3_" + std::string(bits) + kind + ".rsp").c_str(),
                           name.c_str(), false) > 0);
    CHECK(check_kat_file(("fips202-xkcp/ShortMsgKAT_SHA3-" + std::string(bits) + ".txt").c_str(),
                         name.c_str(), false) == 256);
    CHECK(check_kat_file(("keccak-legacy/ShortMsgKAT_" + std::string(bits) + ".txt").c_str(),
                         ("KECCAK-" + std::string(bits)).c_str(), false) == 256);
  }
  CHECK(check_kat_file("keccak-legacy/LongMsgKAT_256.txt", "KECCAK-256", false) == 65);
  for (const char* bits : {"128", "256"}) {
    const std::string name = std::string("SHAKE") + bits;
    for (const char* kind : {"ShortMsg", "LongMsg", "VariableOut"})
      CHECK(check_kat_file(("fips202-cavp/SHAKE" + std::string(bits) + kind + ".rsp").c_str(),
                           name.c_str(), true) > 0);
    CHECK(check_kat_file(("fips202-xkcp/ShortMsgKAT_SHAKE" + std::string(bits) + ".txt").c_str(),
                         name.c_str(), true) == 256);
  }
}

TEST_CASE("KAT rfc9861 TurboSHAKE and KT through EVP") {
  // Byte at a time up to the 17^4-byte vectors; the 17^5 and 17^6 ones (1.4 and 24 MB) once.
  constexpr std::size_t kLargestByteAtATime = 17 * 17 * 17 * 17;
  struct File {
    const char* path;
    const char* name;
    bool kt;
    std::size_t vectors;
  };
  for (const File& file : {File{"rfc9861/turboshake128.txt", "TurboSHAKE128", false, 16},
                           File{"rfc9861/turboshake256.txt", "TurboSHAKE256", false, 15},
                           File{"rfc9861/kt128.txt", "KT128", true, 18},
                           File{"rfc9861/kt256.txt", "KT256", true, 18}}) {
    const sponge_test::KatBlockFile kat = sponge_test::read_kat_blocks(file.path);
    std::size_t checked = 0;
    for (const sponge_test::KatBlock& block : kat.blocks) {
      INFO(block.where);
      const Bytes message = sponge_test::rfc9861_bytes(block.value("Message"));
      Params params;
      if (file.kt)
        params.octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION,
                      sponge_test::rfc9861_bytes(block.value("Customization")));
      else
        params.uint(SPONGE_DIGEST_PARAM_DOMAIN, sponge_test::from_hex(block.value("Domain")).at(0));
      const std::size_t length = block.number("OutputLength");
      const std::size_t offset = block.number("OutputOffset");
      for (Feed feed : {Feed::kAllAtOnce, Feed::kByteAtATime, Feed::kSplit}) {
        if (feed == Feed::kByteAtATime && message.size() > kLargestByteAtATime) continue;
        const Bytes out =
            sponge_evp::digest(file.name, kSponge, message, length, true, params.get(), feed);
        REQUIRE(out.size() == length);
        CHECK(to_hex(std::span(out).subspan(offset)) == block.value("Output"));
      }
      ++checked;
    }
    CHECK(checked == file.vectors);
  }
}

TEST_CASE("KAT sp800-185 cSHAKE, KMAC, KMACXOF, ParallelHash and ParallelHashXOF through EVP") {
  std::size_t checked = 0;
  for (const char* path : {"sp800-185/cshake.txt", "sp800-185/kmac.txt", "sp800-185/kmacxof.txt",
                           "sp800-185/parallelhash.txt", "sp800-185/parallelhashxof.txt"}) {
    for (const sponge_test::KatBlock& block : sponge_test::read_kat_blocks(path).blocks) {
      INFO(block.where);
      const std::string function = block.value("Function");
      const std::string security = function.substr(function.size() - 3);
      const Bytes data = block.hex("Data"), customization = block.hex("Customization");
      const std::size_t out_bytes = block.number("OutputBits") / 8;
      for (Feed feed : {Feed::kAllAtOnce, Feed::kByteAtATime}) {
        Bytes out;
        Params params;
        if (function.starts_with("cSHAKE")) {
          params.octets(SPONGE_DIGEST_PARAM_FUNCTION_NAME, block.hex("FunctionName"))
              .octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, customization);
          out = sponge_evp::digest(("CSHAKE-" + security).c_str(), kSponge, data, out_bytes, true,
                                   params.get(), feed);
        } else if (function.starts_with("KMAC")) {
          params.octets(OSSL_MAC_PARAM_CUSTOM, customization)
              .size(OSSL_MAC_PARAM_SIZE, out_bytes)
              .integer(OSSL_MAC_PARAM_XOF, function.starts_with("KMACXOF") ? 1 : 0);
          out = sponge_evp::mac(("KMAC" + security).c_str(), kSponge, block.hex("Key"), data,
                                params.get(), feed);
        } else {
          params.size(SPONGE_DIGEST_PARAM_LEAF_BYTES, block.number("BlockSize"))
              .octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, customization)
              .integer(SPONGE_DIGEST_PARAM_XOF, function.starts_with("ParallelHashXOF") ? 1 : 0);
          out = sponge_evp::digest(("PARALLELHASH-" + security).c_str(), kSponge, data, out_bytes,
                                   true, params.get(), feed);
        }
        CHECK(to_hex(out) == block.value("Output"));
      }
      ++checked;
    }
  }
  CHECK(checked == 4 + 6 + 6 + 6 + 6);
}

TEST_CASE("KAT ascon-sp800-232 Ascon-Hash256, XOF128, CXOF128 and AEAD128 through EVP") {
  struct File {
    const char* path;
    const char* name;
    std::size_t vectors;
  };
  for (const File& file :
       {File{"ascon-sp800-232/asconhash256/LWC_HASH_KAT_128_256.txt", "ASCON-HASH256", 1025},
        File{"ascon-sp800-232/asconxof128/LWC_XOF_KAT_128_512.txt", "ASCON-XOF128", 1025},
        File{"ascon-sp800-232/asconcxof128/LWC_CXOF_KAT_128_512.txt", "ASCON-CXOF128", 1089}}) {
    const sponge_test::KatBlockFile kat = sponge_test::read_kat_blocks(file.path);
    CHECK(kat.blocks.size() == file.vectors);
    const bool hash = std::strcmp(file.name, "ASCON-HASH256") == 0;
    const bool customized = std::strcmp(file.name, "ASCON-CXOF128") == 0;
    for (const sponge_test::KatBlock& block : kat.blocks) {
      INFO(block.where);
      const Bytes message = block.hex("Msg"), expected = block.hex("MD");
      Params params;
      if (customized) params.octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, block.hex("Z"));
      for (Feed feed : {Feed::kAllAtOnce, Feed::kByteAtATime})
        CHECK(to_hex(sponge_evp::digest(file.name, kSponge, message, expected.size(), !hash,
                                        params.get(), feed)) == to_hex(expected));
    }
  }
  const sponge_test::KatBlockFile kat =
      sponge_test::read_kat_blocks("ascon-sp800-232/asconaead128/LWC_AEAD_KAT_128_128.txt");
  CHECK(kat.blocks.size() == 1089);
  for (const sponge_test::KatBlock& block : kat.blocks) {
    INFO(block.where);
    const Bytes key = block.hex("Key"), nonce = block.hex("Nonce"), plaintext = block.hex("PT"),
                associated_data = block.hex("AD"), expected = block.hex("CT");
    for (Feed feed : {Feed::kAllAtOnce, Feed::kByteAtATime}) {
      CHECK(to_hex(sponge_evp::aead_encrypt(key, nonce, associated_data, plaintext, feed)) ==
            to_hex(expected));
      bool ok = false;
      CHECK(to_hex(sponge_evp::aead_decrypt(key, nonce, associated_data, expected, ok, feed)) ==
            to_hex(plaintext));
      CHECK(ok);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Context copies and reuse.
// ---------------------------------------------------------------------------------------

TEST_CASE("EVP_MD_CTX_copy mid-stream: the copy and the original continue independently") {
  const Bytes& data = random_megabyte();
  const std::span<const std::uint8_t> first(data.data(), 1000), second(data.data() + 1000, 9000),
      other(data.data() + 20000, 77);
  const Bytes customization = {'c', 'u', 's', 't'};
  for (const char* name :
       {"SHA3-256", "SHAKE128", "KECCAK-256", "KECCAK-KMAC-256", "TurboSHAKE128", "KT128", "KT256",
        "CSHAKE-128", "PARALLELHASH-256", "ASCON-HASH256", "ASCON-XOF128", "ASCON-CXOF128"}) {
    INFO(name);
    Params params;
    const bool customizable =
        std::strncmp(name, "KT", 2) == 0 || std::strcmp(name, "ASCON-CXOF128") == 0 ||
        std::strcmp(name, "CSHAKE-128") == 0 || std::strcmp(name, "PARALLELHASH-256") == 0;
    if (customizable) params.octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, customization);
    const bool xof = std::strncmp(name, "SHA3", 3) != 0 && std::strncmp(name, "KECCAK-2", 8) != 0 &&
                     std::strcmp(name, "ASCON-HASH256") != 0;
    const std::size_t out_bytes = 40;
    const Bytes whole(data.begin(), data.begin() + 10000);
    Bytes forked(first.size() + other.size());
    std::memcpy(forked.data(), first.data(), first.size());
    std::memcpy(forked.data() + first.size(), other.data(), other.size());
    MdCtx original(name);
    REQUIRE(EVP_DigestInit_ex2(original.context, original.md, params.get()));
    REQUIRE(EVP_DigestUpdate(original.context, first.data(), first.size()));
    EVP_MD_CTX* copy = EVP_MD_CTX_new();
    REQUIRE(EVP_MD_CTX_copy_ex(copy, original.context));
    REQUIRE(EVP_DigestUpdate(original.context, other.data(), other.size()));
    REQUIRE(EVP_DigestUpdate(copy, second.data(), second.size()));
    Bytes from_original(64), from_copy(64);
    unsigned length = 0;
    if (xof) {
      REQUIRE(EVP_DigestFinalXOF(original.context, from_original.data(), out_bytes));
      from_original.resize(out_bytes);
    } else {
      REQUIRE(EVP_DigestFinal_ex(original.context, from_original.data(), &length));
      from_original.resize(length);
    }
    // The original is freed before the copy finishes: the copy owns all it needs.
    EVP_MD_CTX_reset(original.context);
    if (xof) {
      REQUIRE(EVP_DigestFinalXOF(copy, from_copy.data(), out_bytes));
      from_copy.resize(out_bytes);
    } else {
      REQUIRE(EVP_DigestFinal_ex(copy, from_copy.data(), &length));
      from_copy.resize(length);
    }
    EVP_MD_CTX_free(copy);
    CHECK(from_copy == sponge_evp::digest(name, kSponge, whole, out_bytes, xof, params.get()));
    CHECK(from_original == sponge_evp::digest(name, kSponge, forked, out_bytes, xof, params.get()));
  }
  // KMAC: EVP_MAC_CTX_dup mid-stream.
  const Bytes key(32, 7);
  MacCtx kmac("KMAC256");
  REQUIRE(EVP_MAC_init(kmac.context, key.data(), key.size(), nullptr));
  REQUIRE(EVP_MAC_update(kmac.context, first.data(), first.size()));
  EVP_MAC_CTX* copy = EVP_MAC_CTX_dup(kmac.context);
  REQUIRE(copy != nullptr);
  REQUIRE(EVP_MAC_update(copy, second.data(), second.size()));
  Bytes out(64);
  std::size_t length = 0;
  REQUIRE(EVP_MAC_final(copy, out.data(), &length, out.size()));
  EVP_MAC_CTX_free(copy);
  CHECK(out == sponge_evp::mac("KMAC256", kDefault, key,
                               std::span<const std::uint8_t>(data.data(), 10000)));
}

TEST_CASE("a context is reusable after final: init again gives a fresh start, parameters reset") {
  const Bytes message = {'a', 'b', 'c'};
  MdCtx shake("SHAKE128");
  Bytes out(100);
  for (int round = 0; round < 3; ++round) {
    Params params;
    params.size(OSSL_DIGEST_PARAM_XOFLEN, 100);
    REQUIRE(EVP_DigestInit_ex2(shake.context, shake.md, round == 1 ? params.get() : nullptr));
    REQUIRE(EVP_DigestUpdate(shake.context, message.data(), message.size()));
    unsigned length = 0;
    if (round == 1) {
      REQUIRE(EVP_DigestFinalXOF(shake.context, out.data(), 100));
      length = 100;
    } else {
      REQUIRE(EVP_DigestFinal_ex(shake.context, out.data(), &length));
      CHECK(length == 16);  // xoflen went back to the default with the next init
    }
    CHECK(Bytes(out.begin(), out.begin() + length) ==
          sponge_evp::digest("SHAKE128", kDefault, message, length, true));
  }
  // A customization string does not outlive the init it was given to.
  MdCtx kt("KT128");
  Params custom;
  custom.octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, message);
  REQUIRE(EVP_DigestInit_ex2(kt.context, kt.md, custom.get()));
  REQUIRE(EVP_DigestFinalXOF(kt.context, out.data(), 32));
  Bytes expected(32);
  sponge::kt128({}, message, expected);
  CHECK(Bytes(out.begin(), out.begin() + 32) == expected);
  REQUIRE(EVP_DigestInit_ex2(kt.context, kt.md, nullptr));
  REQUIRE(EVP_DigestFinalXOF(kt.context, out.data(), 32));
  sponge::kt128({}, {}, expected);
  CHECK(Bytes(out.begin(), out.begin() + 32) == expected);
  // KMAC: init again with no key keeps the key (OpenSSL's KMAC does the same).
  const Bytes key(16, 3);
  MacCtx kmac("KMAC128");
  for (int round = 0; round < 2; ++round) {
    REQUIRE(EVP_MAC_init(kmac.context, round == 0 ? key.data() : nullptr,
                         round == 0 ? key.size() : 0, nullptr));
    REQUIRE(EVP_MAC_update(kmac.context, message.data(), message.size()));
    std::size_t length = 0;
    REQUIRE(EVP_MAC_final(kmac.context, out.data(), &length, out.size()));
    CHECK(Bytes(out.begin(), out.begin() + length) ==
          sponge_evp::mac("KMAC128", kDefault, key, message));
  }
}

// ---------------------------------------------------------------------------------------
// Misuse: refused with the provider's reason, never a crash or a wrong answer.
// ---------------------------------------------------------------------------------------

TEST_CASE("misuse is refused with a reason string") {
  const Bytes message = {1, 2, 3};
  Bytes out(256);
  unsigned length = 0;
  ERR_clear_error();
  SUBCASE("unknown and mistyped digest parameters") {
    MdCtx sha3("SHA3-256");
    Params unknown;
    unknown.size(OSSL_DIGEST_PARAM_XOFLEN, 64);
    CHECK(EVP_DigestInit_ex2(sha3.context, sha3.md, unknown.get()) == 0);
    CHECK(sponge_evp::take_error_reason() == "unknown parameter");
    MdCtx shake("SHAKE256");
    Params bogus;
    bogus.size("bogus", 1);
    CHECK(EVP_DigestInit_ex2(shake.context, shake.md, bogus.get()) == 0);
    CHECK(sponge_evp::take_error_reason() == "unknown parameter");
    Params mistyped;
    mistyped.octets(OSSL_DIGEST_PARAM_XOFLEN, message);
    REQUIRE(EVP_DigestInit_ex2(shake.context, shake.md, nullptr));
    CHECK(EVP_MD_CTX_set_params(shake.context, mistyped.get()) == 0);
    CHECK(sponge_evp::take_error_reason() == "invalid parameter value");
  }
  SUBCASE("xoflen 0, and an output longer than the buffer EVP_DigestFinal_ex passes") {
    MdCtx shake("SHAKE128");
    REQUIRE(EVP_DigestInit_ex2(shake.context, shake.md, nullptr));
    Params zero;
    zero.size(OSSL_DIGEST_PARAM_XOFLEN, 0);
    CHECK(EVP_MD_CTX_set_params(shake.context, zero.get()) == 0);
    CHECK(sponge_evp::take_error_reason() == "output length of zero");
    Params longer;
    longer.size(OSSL_DIGEST_PARAM_XOFLEN, 64);
    REQUIRE(EVP_MD_CTX_set_params(shake.context, longer.get()));
    CHECK(EVP_DigestFinal_ex(shake.context, out.data(), &length) == 0);
    CHECK(sponge_evp::take_error_reason() == "output buffer too small");
  }
  SUBCASE("final twice, update after final; init again recovers") {
    MdCtx sha3("SHA3-512");
    REQUIRE(EVP_DigestInit_ex2(sha3.context, sha3.md, nullptr));
    REQUIRE(EVP_DigestFinal_ex(sha3.context, out.data(), &length));
    CHECK(EVP_DigestFinal_ex(sha3.context, out.data(), &length) == 0);
    CHECK(sponge_evp::take_error_reason() == "final called twice");
    CHECK(EVP_DigestUpdate(sha3.context, message.data(), message.size()) == 0);
    CHECK(sponge_evp::take_error_reason() == "update after final");
    REQUIRE(EVP_DigestInit_ex2(sha3.context, sha3.md, nullptr));
    REQUIRE(EVP_DigestFinal_ex(sha3.context, out.data(), &length));
    CHECK(Bytes(out.begin(), out.begin() + length) ==
          sponge_evp::digest("SHA3-512", kDefault, {}, 64, false));
  }
  SUBCASE("a prefix parameter after data, and out-of-range values") {
    MdCtx cshake("CSHAKE-128");
    REQUIRE(EVP_DigestInit_ex2(cshake.context, cshake.md, nullptr));
    REQUIRE(EVP_DigestUpdate(cshake.context, message.data(), message.size()));
    Params late;
    late.octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, message);
    CHECK(EVP_MD_CTX_set_params(cshake.context, late.get()) == 0);
    CHECK(sponge_evp::take_error_reason() == "parameter set after data was absorbed");
    MdCtx turbo("TurboSHAKE128");
    Params domain;
    domain.uint(SPONGE_DIGEST_PARAM_DOMAIN, 0x80);
    CHECK(EVP_DigestInit_ex2(turbo.context, turbo.md, domain.get()) == 0);
    CHECK(sponge_evp::take_error_reason() == "invalid parameter value");
    MdCtx cxof("ASCON-CXOF128");
    Params too_long;
    too_long.octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, Bytes(257, 1));
    CHECK(EVP_DigestInit_ex2(cxof.context, cxof.md, too_long.get()) == 0);
    CHECK(sponge_evp::take_error_reason() == "invalid parameter value");
    MdCtx parallel("PARALLELHASH-128");
    Params zero_block;
    zero_block.size(SPONGE_DIGEST_PARAM_LEAF_BYTES, 0);
    CHECK(EVP_DigestInit_ex2(parallel.context, parallel.md, zero_block.get()) == 0);
    CHECK(sponge_evp::take_error_reason() == "invalid parameter value");
  }
  SUBCASE("KMAC: no key, a short key, size 0, unknown parameter, final twice") {
    MacCtx kmac("KMAC128");
    CHECK(EVP_MAC_init(kmac.context, nullptr, 0, nullptr) == 0);
    CHECK(sponge_evp::take_error_reason() == "no key set");
    CHECK(EVP_MAC_init(kmac.context, message.data(), 2, nullptr) == 0);
    CHECK(sponge_evp::take_error_reason() == "invalid key length");
    Params zero;
    zero.size(OSSL_MAC_PARAM_SIZE, 0);
    CHECK(EVP_MAC_CTX_set_params(kmac.context, zero.get()) == 0);
    CHECK(sponge_evp::take_error_reason() == "output length of zero");
    Params unknown;
    unknown.size("digest-size", 1);
    CHECK(EVP_MAC_CTX_set_params(kmac.context, unknown.get()) == 0);
    CHECK(sponge_evp::take_error_reason() == "unknown parameter");
    const Bytes key(8, 1);
    REQUIRE(EVP_MAC_init(kmac.context, key.data(), key.size(), nullptr));
    std::size_t mac_length = 0;
    REQUIRE(EVP_MAC_final(kmac.context, out.data(), &mac_length, out.size()));
    CHECK(EVP_MAC_final(kmac.context, out.data(), &mac_length, out.size()) == 0);
    CHECK(sponge_evp::take_error_reason() == "final called twice");
    CHECK(EVP_MAC_update(kmac.context, message.data(), message.size()) == 0);
    CHECK(sponge_evp::take_error_reason() == "update after final");
  }
  SUBCASE("Ascon-AEAD128: wrong tag, tag and nonce lengths, no tag, final twice") {
    const Bytes key(16, 9), nonce(16, 4);
    Bytes sealed = sponge_evp::aead_encrypt(key, nonce, message, message);
    REQUIRE(sealed.size() == message.size() + 16);
    sealed.back() ^= 1;
    bool ok = true;
    sponge_evp::aead_decrypt(key, nonce, message, sealed, ok);
    CHECK(!ok);
    CHECK(sponge_evp::take_error_reason() == "tag mismatch");
    CipherCtx aead;
    CHECK(EVP_DecryptInit_ex2(aead.context, aead.cipher, key.data(), nonce.data(), nullptr));
    CHECK(EVP_CIPHER_CTX_ctrl(aead.context, EVP_CTRL_AEAD_SET_TAG, 8, sealed.data()) <= 0);
    CHECK(sponge_evp::take_error_reason() == "invalid tag length");
    CHECK(EVP_CIPHER_CTX_ctrl(aead.context, EVP_CTRL_AEAD_SET_IVLEN, 12, nullptr) <= 0);
    CHECK(sponge_evp::take_error_reason() == "invalid nonce length");
    int out_length = 0;
    CHECK(EVP_DecryptFinal_ex(aead.context, out.data(), &out_length) == 0);
    CHECK(sponge_evp::take_error_reason() == "tag not set");
    CipherCtx sealer;
    REQUIRE(EVP_EncryptInit_ex2(sealer.context, sealer.cipher, key.data(), nonce.data(), nullptr));
    REQUIRE(EVP_EncryptFinal_ex(sealer.context, out.data(), &out_length));
    CHECK(EVP_EncryptFinal_ex(sealer.context, out.data(), &out_length) == 0);
    CHECK(sponge_evp::take_error_reason() == "final called twice");
    CHECK(EVP_EncryptUpdate(sealer.context, out.data(), &out_length, message.data(), 3) == 0);
    CHECK(sponge_evp::take_error_reason() == "update after final");
    EVP_CIPHER_CTX* copy = EVP_CIPHER_CTX_new();
    CHECK(EVP_CIPHER_CTX_copy(copy, sealer.context) == 0);  // no duplicate: one nonce, one message
    EVP_CIPHER_CTX_free(copy);
    ERR_clear_error();
  }
}

// ---------------------------------------------------------------------------------------
// Threads: one context per thread, eight at once (registered as .threads, run under TSan).
// ---------------------------------------------------------------------------------------

TEST_CASE("threads: eight threads hash through the provider at once") {
  constexpr int kThreads = 8;
  const Bytes& data = random_megabyte();
  const std::span<const std::uint8_t> message(data.data(), 50000);
  std::array<std::uint8_t, 32> sha3 = sponge::sha3_256(message);
  Bytes kt(64);
  sponge::kt128(message, {}, kt);
  const Bytes key(32, 5);
  Bytes kmac(64);
  sponge::kmac256(key, message, {}, kmac);
  const std::uint64_t finals_before = sponge_evp::sponge_finals();
  std::array<int, kThreads> failures{};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round) {
        if (sponge_evp::digest("SHA3-256", kSponge, message, 32, false, nullptr, Feed::kSplit) !=
            Bytes(sha3.begin(), sha3.end()))
          ++failures[t];
        if (sponge_evp::digest("KT128", kSponge, message, 64, true, nullptr, Feed::kSplit) != kt)
          ++failures[t];
        if (sponge_evp::mac("KMAC256", kSponge, key, message, nullptr, Feed::kSplit) != kmac)
          ++failures[t];
        const Bytes sealed = sponge_evp::aead_encrypt(
            Bytes(16, 1), Bytes(16, static_cast<std::uint8_t>(t)), {}, message.first(1000));
        bool ok = false;
        if (sponge_evp::aead_decrypt(Bytes(16, 1), Bytes(16, static_cast<std::uint8_t>(t)), {},
                                     sealed,
                                     ok) != Bytes(message.begin(), message.begin() + 1000) ||
            !ok)
          ++failures[t];
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  for (int t = 0; t < kThreads; ++t)
    CHECK(failures[t] == 0);
  // 8 threads x 5 rounds x 5 finals (SHA3, KT, KMAC, seal, open), counted by the provider.
  CHECK(sponge_evp::sponge_finals() - finals_before == kThreads * 5 * 5);
}
