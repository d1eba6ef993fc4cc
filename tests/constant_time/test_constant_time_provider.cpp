// The constant-time test through OpenSSL: the sponge provider, loaded by libcrypto into a
// library context, runs each secret-taking algorithm under valgrind's memcheck with its
// secrets marked undefined, reached the way a program reaches it (EVP_DigestInit_ex2 /
// Update / Final, EVP_MAC, EVP_CIPHER). The module is the test's own build of the provider
// (tests/constant_time/CMakeLists.txt), on the library copy whose declassification hook is
// compiled in, so the AEAD verdict the provider computes is declassified where it is
// branched on, and nothing else. Memcheck reports every branch and address computed from a
// secret, in the provider, the library, the kernel, or libcrypto's glue between them.
//
// Each case runs twice, inputs defined and then undefined, and the outputs must match
// (constant_time_check.hpp), so a case whose EVP calls failed cannot pass.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

#include "constant_time_check.hpp"
#include "evp_support.hpp"
#include "sponge_provider.h"

namespace {

using namespace sponge_constant_time;
using sponge_evp::Feed;
using sponge_evp::kSponge;
using sponge_evp::Params;

constexpr std::size_t kXofBytes = 200;  // past one SHAKE128 block of output

const Bytes kCustom = {'c', 'u', 's', 't', 'o', 'm'};

// Copies `result` into `out`; a failed EVP call returns fewer bytes, which the comparison
// with the reference run then reports.
void copy_out(const Bytes& result, std::span<std::uint8_t> out) {
  std::memcpy(out.data(), result.data(), std::min(result.size(), out.size()));
}

// A digest through EVP of a secret message (and secret parameters, `secret_params`), fed in
// two updates; `out_bytes` through EVP_DigestFinalXOF when `xof`, else EVP_DigestFinal_ex.
void check_digest(const char* name, std::size_t rate, std::size_t out_bytes, bool xof,
                  const std::function<Params()>& public_params = nullptr) {
  for (std::size_t length : lengths_around(rate)) {
    const Bytes message = pattern_bytes(length, 100);
    check(named(std::string("EVP ") + name, length), {message}, out_bytes,
          [&](std::span<std::uint8_t> out) {
            Params params = public_params ? public_params() : Params();
            copy_out(sponge_evp::digest(name, kSponge, message, out_bytes, xof, params.get(),
                                        Feed::kSplit),
                     out);
          });
  }
}

void check_digests() {
  check_digest("SHA3-256", 136, 32, false);
  check_digest("KECCAK-256", 136, 32, false);
  // EVP_DigestFinalXOF passes the length to the provider as the xoflen parameter.
  check_digest("SHAKE256", 136, kXofBytes, true);
  check_digest("SHAKE256", 136, 64, true,
               [] { return std::move(Params().size(OSSL_DIGEST_PARAM_XOFLEN, 64)); });
  check_digest("TurboSHAKE128", 168, kXofBytes, true,
               [] { return std::move(Params().uint(SPONGE_DIGEST_PARAM_DOMAIN, 0x0B)); });
  check_digest("KT128", 168, 64, true, [] {
    return std::move(Params().octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, kCustom));
  });
  check_digest("PARALLELHASH-128", 168, 32, true, [] {
    return std::move(Params()
                         .size(SPONGE_DIGEST_PARAM_LEAF_BYTES, 64)
                         .octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, kCustom));
  });
  check_digest("PARALLELHASH-256", 136, kXofBytes, true, [] {
    return std::move(Params()
                         .size(SPONGE_DIGEST_PARAM_LEAF_BYTES, 64)
                         .integer(SPONGE_DIGEST_PARAM_XOF, 1)
                         .octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, kCustom));
  });
  check_digest("ASCON-HASH256", 8, 32, false);
  check_digest("ASCON-XOF128", 8, 77, true);

  // cSHAKE and Ascon-CXOF128 with the function name and customization secret too: the
  // provider copies them from the parameters and absorbs them at init.
  for (std::size_t length : lengths_around(168)) {
    const Bytes message = pattern_bytes(length, 101), name = pattern_bytes(length % 300, 102);
    const Bytes custom = pattern_bytes(length % 257, 103);
    for (const char* algorithm : {"CSHAKE-128", "CSHAKE-256", "ASCON-CXOF128"}) {
      const bool ascon = std::strcmp(algorithm, "ASCON-CXOF128") == 0;
      check(named(std::string("EVP ") + algorithm + " (message, N and S)", length),
            {message, name, custom}, kXofBytes, [&](std::span<std::uint8_t> out) {
              Params params;
              params.octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, custom);
              if (!ascon) params.octets(SPONGE_DIGEST_PARAM_FUNCTION_NAME, name);
              copy_out(sponge_evp::digest(algorithm, kSponge, message, kXofBytes, true,
                                          params.get(), Feed::kSplit),
                       out);
            });
    }
  }
}

// KMAC128/256 and KMACXOF through EVP_MAC: the key and the message secret.
void check_kmac() {
  for (std::size_t length : lengths_around(136)) {
    const Bytes key = pattern_bytes(32 + length % 40, 110), message = pattern_bytes(length, 111);
    for (const char* algorithm : {"KMAC128", "KMAC256"}) {
      for (int xof = 0; xof < 2; ++xof) {
        const std::size_t out_bytes = xof ? kXofBytes : 64;
        check(named(std::string("EVP_MAC ") + algorithm + (xof ? " XOF" : "") + " (key, message)",
                    length),
              {key, message}, out_bytes, [&](std::span<std::uint8_t> out) {
                Params params;
                params.octets(OSSL_MAC_PARAM_CUSTOM, kCustom)
                    .size(OSSL_MAC_PARAM_SIZE, out_bytes)
                    .integer(OSSL_MAC_PARAM_XOF, xof);
                copy_out(
                    sponge_evp::mac(algorithm, kSponge, key, message, params.get(), Feed::kSplit),
                    out);
              });
      }
    }
  }
}

// Ascon-AEAD128 through EVP_CIPHER. Encryption: key, nonce, associated data and plaintext
// secret. Decryption: key, nonce and ciphertext secret, the tag right and wrong; the output
// is the plaintext EVP released, then the verdict (public: EVP_DecryptFinal_ex's result).
void check_aead() {
  for (std::size_t length : lengths_around(16)) {
    const Bytes key = pattern_bytes(16, 120), nonce = pattern_bytes(16, 121);
    const Bytes plaintext = pattern_bytes(length, 122), ad = pattern_bytes(length / 2 + 3, 123);
    check(named("EVP_CIPHER Ascon-AEAD128 encrypt", length), {key, nonce, plaintext, ad},
          length + 16, [&](std::span<std::uint8_t> out) {
            copy_out(sponge_evp::aead_encrypt(key, nonce, ad, plaintext, Feed::kSplit), out);
          });
    Bytes sealed = sponge_evp::aead_encrypt(key, nonce, ad, plaintext);
    if (sealed.size() != length + 16) {
      std::fprintf(stderr, "FAIL: Ascon-AEAD128 encryption through EVP failed\n");
      ++cases_failed;
      return;
    }
    Bytes forged = sealed;
    forged[length + length % 16] ^= 0x04;  // a wrong tag
    for (const Bytes* received : {&sealed, &forged}) {
      const std::string which = received == &sealed ? " (right tag)" : " (wrong tag)";
      // The ciphertext is secret here; the tag is public (it travels beside it).
      const std::span<const std::uint8_t> ciphertext(received->data(), length);
      check(named("EVP_CIPHER Ascon-AEAD128 decrypt" + which, length), {key, nonce, ciphertext},
            length + 1, [&](std::span<std::uint8_t> out) {
              bool authentic = false;
              const Bytes opened =
                  sponge_evp::aead_decrypt(key, nonce, ad, *received, authentic, Feed::kSplit);
              copy_out(opened, out.first(length));
              out[length] = authentic ? 1 : 0;
            });
    }
  }
}

// The Keccak-p kernel the provider's copy of the library runs on.
std::string provider_kernel() {
  OSSL_PROVIDER* provider = OSSL_PROVIDER_load(sponge_evp::library(), "sponge");
  const char* kernel = nullptr;
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_ptr(SPONGE_PROV_PARAM_KERNEL, const_cast<char**>(&kernel), 0),
      OSSL_PARAM_construct_end()};
  const bool got = OSSL_PROVIDER_get_params(provider, params) == 1 && kernel != nullptr;
  OSSL_PROVIDER_unload(provider);
  return got ? kernel : "(unknown)";
}

}  // namespace

int main() {
  // Outside valgrind the client requests do nothing and every case would pass untested.
  if (!RUNNING_ON_VALGRIND) {
    std::fprintf(stderr, "test_constant_time_provider: run me under valgrind --tool=memcheck\n");
    return 1;
  }
  std::printf("the provider from %s, Keccak kernel %s\n", SPONGE_PROVIDER_DIR,
              provider_kernel().c_str());
  check_digests();
  check_kmac();
  check_aead();
  std::printf("%d cases, %d failed\n", cases_run, cases_failed);
  return cases_failed == 0 && cases_run > 0 ? 0 : 1;
}
