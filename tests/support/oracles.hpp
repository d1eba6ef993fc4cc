// The independent implementations the sponge is compared with: OpenSSL's EVP for SHA3 and
// SHAKE, Crypto++ for Keccak-256 (original padding). Shared by the differential tests and
// the fuzz targets.
#pragma once

#include <openssl/evp.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "support/test_support.hpp"

namespace sponge_test {

// One-shot OpenSSL digest of `in`: `out_len` bytes of an XOF (EVP_DigestFinalXOF), or the
// fixed digest, whose size must be `out_len`. Throws std::runtime_error when OpenSSL fails.
Bytes openssl_hash(const EVP_MD* md, std::span<const std::uint8_t> in, std::size_t out_len,
                   bool xof);

// Crypto++ Keccak_256 of `in` (32 bytes).
Bytes cryptopp_keccak256(std::span<const std::uint8_t> in);

}  // namespace sponge_test
