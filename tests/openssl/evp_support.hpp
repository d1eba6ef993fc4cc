// The sponge provider through EVP, for the provider's tests, fuzz target and benchmark: a
// library context with the built module (SPONGE_PROVIDER_DIR) and OpenSSL's default provider
// loaded side by side, and one-call digest, MAC and AEAD helpers that fetch by name and
// property query.
#pragma once

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sponge_evp {

using Bytes = std::vector<std::uint8_t>;

inline constexpr const char* kSponge = "provider=sponge";
inline constexpr const char* kDefault = "provider=default";

// The process's library context with both providers; aborts with OpenSSL's errors printed
// when the module cannot be loaded (a test must fail, never skip).
OSSL_LIB_CTX* library();
// A library context with OpenSSL's default provider alone: the reference side of every
// comparison. (In library(), the default provider's KMAC would fetch its inner KECCAK-KMAC
// digest with no property query, and could get the sponge provider's.)
OSSL_LIB_CTX* default_only_library();
// default_only_library() for kDefault, library() otherwise: what the helpers below fetch from.
OSSL_LIB_CTX* library_for(const char* properties);

// The last OpenSSL error's reason string ("" when there is none); clears the queue.
std::string take_error_reason();

// Parameters for EVP calls, built up one at a time; the octets are copied.
class Params {
 public:
  Params& octets(const char* key, std::span<const std::uint8_t> bytes);
  Params& size(const char* key, std::size_t value);
  Params& integer(const char* key, int value);
  Params& uint(const char* key, unsigned value);
  // The array, terminated; null when empty.
  const OSSL_PARAM* get();

 private:
  struct Entry {
    std::string key;
    int kind;
    Bytes bytes;
    std::size_t size_value;
    int int_value;
    unsigned uint_value;
  };
  std::vector<Entry> entries_;
  std::vector<OSSL_PARAM> built_;
};

// How a message reaches EVP: one update, one update per byte, or two (split at a third).
enum class Feed { kAllAtOnce, kByteAtATime, kSplit };

// The digest `name` under `properties` of `message` with `params` at init; `out_bytes` of
// output through EVP_DigestFinalXOF when `xof`, else EVP_DigestFinal_ex. Empty on failure.
Bytes digest(const char* name, const char* properties, std::span<const std::uint8_t> message,
             std::size_t out_bytes, bool xof, const OSSL_PARAM* params = nullptr,
             Feed feed = Feed::kAllAtOnce);

// KMAC (or another MAC) `name`: key and params (custom, size, xof) set before init.
Bytes mac(const char* name, const char* properties, std::span<const std::uint8_t> key,
          std::span<const std::uint8_t> message, const OSSL_PARAM* params = nullptr,
          Feed feed = Feed::kAllAtOnce);

// Ascon-AEAD128 through EVP: ciphertext || tag, or on decryption the plaintext; `ok` false
// when EVP_DecryptFinal_ex refused the tag.
Bytes aead_encrypt(std::span<const std::uint8_t> key, std::span<const std::uint8_t> nonce,
                   std::span<const std::uint8_t> associated_data,
                   std::span<const std::uint8_t> plaintext, Feed feed = Feed::kAllAtOnce);
Bytes aead_decrypt(std::span<const std::uint8_t> key, std::span<const std::uint8_t> nonce,
                   std::span<const std::uint8_t> associated_data,
                   std::span<const std::uint8_t> ciphertext_and_tag, bool& ok,
                   Feed feed = Feed::kAllAtOnce);

// The provider's completed-final counter (SPONGE_PROV_PARAM_FINALS).
std::uint64_t sponge_finals();

}  // namespace sponge_evp
