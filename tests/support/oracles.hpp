// The independent implementations the sponge is compared with: OpenSSL's EVP for SHA3 and
// SHAKE, OpenSSL's EVP_MAC for KMAC, Crypto++ for Keccak-256 (original padding). Shared by
// the differential tests and the fuzz targets.
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

// OpenSSL 3's KMAC128 or KMAC256 (EVP_MAC "KMAC-128" / "KMAC-256"), or KMACXOF when `xof`
// (the "xof" parameter): `out_len` bytes. OpenSSL accepts keys of kOpensslKmacMinKeyBytes to
// kOpensslKmacMaxKeyBytes bytes and customization strings of up to
// kOpensslKmacMaxCustomizationBytes bytes (SP 800-185 has no such limits); throws
// std::runtime_error outside them or when OpenSSL fails.
inline constexpr std::size_t kOpensslKmacMinKeyBytes = 4;
inline constexpr std::size_t kOpensslKmacMaxKeyBytes = 512;
inline constexpr std::size_t kOpensslKmacMaxCustomizationBytes = 512;
Bytes openssl_kmac(int security_bits, std::span<const std::uint8_t> key,
                   std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
                   std::size_t out_len, bool xof);

// Crypto++ Keccak_256 of `in` (32 bytes).
Bytes cryptopp_keccak256(std::span<const std::uint8_t> in);

}  // namespace sponge_test
