// No lane reaches the stack through lazy binding when a program hashes through OpenSSL's EVP
// with the sponge provider: the driver (lazy_binding_driver.hpp) runs each scenario in fresh
// processes at every 16-byte offset of its first frame and scans the dead stack after it.
//
// libcrypto loads the module with dlopen(RTLD_NOW) (crypto/dso/dso_dlfcn.c; DL_LAZY only on
// OpenBSD and NetBSD), and the module is linked -z now besides, so the module's own calls
// are bound at load. What stays lazy is the program's PLT: this program is linked -z lazy,
// and each EVP function a scenario calls is called there for the first time, so the
// dynamic linker's resolver saves the vector registers on the stack at every EVP call,
// with whatever the previous call into the provider left in them. The provider's context
// and the library's state die inside the scenario (EVP_MD_CTX_free, EVP_MAC_CTX_free,
// EVP_CIPHER_CTX_free); the scan runs after.
//
//   evp_residue_lazy_binding                         every scenario at every offset (the test)
//   evp_residue_lazy_binding <scenario> <offset>     one process at that offset (16-byte steps)
//   evp_residue_lazy_binding <scenario> random <n>   n processes at the randomised alignment
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <cstdint>
#include <cstdlib>
#include <span>

#include "lazy_binding_driver.hpp"

namespace {

using namespace sponge_test::residue;
using namespace sponge_test::lazy_binding;

constexpr const char* kSponge = "provider=sponge";

// A failed EVP call ends the child abnormally, which the driver reports as a failure: a
// scenario whose hash did not run cannot pass by finding nothing.
void require(bool holds) {
  if (!holds) std::abort();
}

// A library context with the built module, as a program configured for it would have.
OSSL_LIB_CTX* context_with_provider() {
  OSSL_LIB_CTX* context = OSSL_LIB_CTX_new();
  require(context != nullptr);
  require(OSSL_PROVIDER_set_default_search_path(context, SPONGE_PROVIDER_DIR) == 1);
  require(OSSL_PROVIDER_load(context, "sponge") != nullptr);
  return context;
}

// The digest `name` of the secret, `out_bytes` of output (EVP_DigestFinalXOF when `xof`).
void evp_digest(const char* name, std::size_t bytes, std::size_t out_bytes, bool xof) {
  OSSL_LIB_CTX* library = context_with_provider();
  EVP_MD* md = EVP_MD_fetch(library, name, kSponge);
  require(md != nullptr);
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  require(context != nullptr);
  require(EVP_DigestInit_ex2(context, md, nullptr) == 1);
  require(EVP_DigestUpdate(context, secret, bytes / 3) == 1);
  require(EVP_DigestUpdate(context, secret + bytes / 3, bytes - bytes / 3) == 1);
  if (xof) {
    require(EVP_DigestFinalXOF(context, output, out_bytes) == 1);
  } else {
    unsigned int length = 0;
    require(EVP_DigestFinal_ex(context, output, &length) == 1 && length == out_bytes);
  }
  EVP_MD_CTX_free(context);
  EVP_MD_free(md);
  OSSL_LIB_CTX_free(library);
}

// KMAC through EVP_MAC with the secret as the key, a public message and customization.
void evp_kmac(const char* name, std::size_t key_bytes, std::size_t out_bytes, int xof) {
  OSSL_LIB_CTX* library = context_with_provider();
  EVP_MAC* mac = EVP_MAC_fetch(library, name, kSponge);
  require(mac != nullptr);
  EVP_MAC_CTX* context = EVP_MAC_CTX_new(mac);
  require(context != nullptr);
  std::size_t size = out_bytes;
  // OSSL_PARAM's data is not const for either direction; a parameter being set is only read.
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_octet_string(
          OSSL_MAC_PARAM_CUSTOM, const_cast<std::uint8_t*>(kCustomization), sizeof kCustomization),
      OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
      OSSL_PARAM_construct_int(OSSL_MAC_PARAM_XOF, &xof), OSSL_PARAM_construct_end()};
  require(EVP_MAC_CTX_set_params(context, params) == 1);
  require(EVP_MAC_init(context, secret, key_bytes, nullptr) == 1);
  require(EVP_MAC_update(context, kPublicMessage, sizeof kPublicMessage) == 1);
  std::size_t length = 0;
  require(EVP_MAC_final(context, output, &length, out_bytes) == 1 && length == out_bytes);
  EVP_MAC_CTX_free(context);
  EVP_MAC_free(mac);
  OSSL_LIB_CTX_free(library);
}

namespace lazy_binding = sponge_test::lazy_binding;

// The AEAD scenarios' ciphertext and tag, and the decrypted plaintext.
unsigned char ciphertext[lazy_binding::kSecretCapacity];
unsigned char opened[lazy_binding::kSecretCapacity];
unsigned char tag[16];

// Ascon-AEAD128 through EVP_CIPHER of secret = key (16 bytes) || text: encrypts the text into
// `ciphertext` and `tag`, or decrypts `ciphertext` into `opened` against `tag`; returns
// EVP_CipherFinal_ex's verdict.
bool evp_ascon(OSSL_LIB_CTX* library, bool encrypting, std::size_t bytes) {
  EVP_CIPHER* cipher = EVP_CIPHER_fetch(library, "ASCON-AEAD128", kSponge);
  require(cipher != nullptr);
  EVP_CIPHER_CTX* context = EVP_CIPHER_CTX_new();
  require(context != nullptr);
  require(EVP_CipherInit_ex2(context, cipher, secret, lazy_binding::kAsconNonce, encrypting ? 1 : 0,
                             nullptr) == 1);
  int length = 0;
  require(EVP_CipherUpdate(context, nullptr, &length, lazy_binding::kAsconAssociatedData,
                           sizeof lazy_binding::kAsconAssociatedData) == 1);
  const int text_bytes = static_cast<int>(bytes - 16);
  require(EVP_CipherUpdate(context, encrypting ? ciphertext : opened, &length,
                           encrypting ? secret + 16 : ciphertext, text_bytes) == 1);
  if (!encrypting) require(EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, 16, tag) == 1);
  const bool authentic = EVP_CipherFinal_ex(context, output, &length) == 1;
  if (encrypting) {
    require(authentic);
    require(EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, 16, tag) == 1);
  }
  EVP_CIPHER_CTX_free(context);
  EVP_CIPHER_free(cipher);
  return authentic;
}

// Encrypts the secret's text, then decrypts it, the tag right or altered.
void evp_ascon_round_trip(std::size_t bytes, bool forge) {
  OSSL_LIB_CTX* library = context_with_provider();
  evp_ascon(library, true, bytes);
  tag[5] ^= forge ? 0x20 : 0x00;
  require(evp_ascon(library, false, bytes) == !forge);
  OSSL_LIB_CTX_free(library);
}

const Scenario kScenarios[] = {
    {"EVP SHA3-256 of 30 B, context freed", 30,
     [](std::size_t bytes) { evp_digest("SHA3-256", bytes, 32, false); }, sha3_256_model},
    {"EVP SHA3-256 of 2 blocks + 50 B", 2 * 136 + 50,
     [](std::size_t bytes) { evp_digest("SHA3-256", bytes, 32, false); }, sha3_256_model},
    {"EVP SHAKE256 of 200 B, 64 B by EVP_DigestFinalXOF", 200,
     [](std::size_t bytes) { evp_digest("SHAKE256", bytes, 64, true); },
     [] {
       return plain_sponge({136, 0x1F, 64});
     }},
    {"EVP KECCAK-256 of 100 B", 100,
     [](std::size_t bytes) { evp_digest("KECCAK-256", bytes, 32, false); },
     [] {
       return plain_sponge({136, 0x01, 32});
     }},
    {"EVP_MAC KMAC256, 40-byte key", 40,
     [](std::size_t bytes) { evp_kmac("KMAC256", bytes, 64, 0); },
     [] { return kmac(256, false, bytes_of(kPublicMessage), bytes_of(kCustomization), 64); }},
    {"EVP_MAC KMAC128 XOF, 32-byte key, 48 B", 32,
     [](std::size_t bytes) { evp_kmac("KMAC128", bytes, 48, 1); },
     [] { return kmac(128, true, bytes_of(kPublicMessage), bytes_of(kCustomization), 48); }},
    {"EVP ASCON-HASH256 of 30 B", 30,
     [](std::size_t bytes) { evp_digest("ASCON-HASH256", bytes, 32, false); }, nullptr,
     lazy_binding::ascon_hash256_lanes},
    {"EVP_CIPHER Ascon-AEAD128 encrypt, 16-byte key and 40 B", 16 + 40,
     [](std::size_t bytes) {
       OSSL_LIB_CTX* library = context_with_provider();
       evp_ascon(library, true, bytes);
       OSSL_LIB_CTX_free(library);
     },
     nullptr, lazy_binding::ascon_aead128_lanes},
    {"EVP_CIPHER Ascon-AEAD128 encrypt, then decrypt, right tag", 16 + 40,
     [](std::size_t bytes) { evp_ascon_round_trip(bytes, false); }, nullptr,
     lazy_binding::ascon_aead128_lanes},
    {"EVP_CIPHER Ascon-AEAD128 encrypt, then decrypt, wrong tag", 16 + 40,
     [](std::size_t bytes) { evp_ascon_round_trip(bytes, true); }, nullptr,
     lazy_binding::ascon_aead128_lanes},
};

}  // namespace

int main(int argc, char** argv) {
  return sponge_test::lazy_binding::run_lazy_binding_test(kScenarios, argc, argv);
}
