// The OSSL_PARAM reading and writing the provider needs, done here rather than through
// libcrypto's OSSL_PARAM_get_* so the module links no OpenSSL library: it runs inside whichever
// libcrypto 3 loaded it, and reaches that one only through the core's dispatch table.
#pragma once

#include <openssl/core.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace sponge_provider {

// An unsigned integer parameter (OSSL_PARAM_UNSIGNED_INTEGER, or a non-negative
// OSSL_PARAM_INTEGER) of 1 to 8 bytes, in the host's byte order as OpenSSL writes them.
// False for any other type, size or a negative value.
inline bool read_unsigned(const OSSL_PARAM& param, std::uint64_t& value) {
  if (param.data == nullptr || param.data_size == 0 || param.data_size > 8) return false;
  if (param.data_type != OSSL_PARAM_UNSIGNED_INTEGER && param.data_type != OSSL_PARAM_INTEGER)
    return false;
  std::uint64_t bits = 0;
  const auto* bytes = static_cast<const unsigned char*>(param.data);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  for (std::size_t i = 0; i < param.data_size; ++i)
    bits = bits << 8 | bytes[i];
  const bool negative = (bytes[0] & 0x80) != 0;
#else
  for (std::size_t i = param.data_size; i-- > 0;)
    bits = bits << 8 | bytes[i];
  const bool negative = (bytes[param.data_size - 1] & 0x80) != 0;
#endif
  if (param.data_type == OSSL_PARAM_INTEGER && negative) return false;
  value = bits;
  return true;
}

// Octets from an OSSL_PARAM_OCTET_STRING or OSSL_PARAM_UTF8_STRING (OpenSSL's KMAC takes its
// customization as either).
inline bool read_octets(const OSSL_PARAM& param, std::span<const std::uint8_t>& octets) {
  if (param.data_type != OSSL_PARAM_OCTET_STRING && param.data_type != OSSL_PARAM_UTF8_STRING)
    return false;
  if (param.data == nullptr && param.data_size != 0) return false;
  octets = {static_cast<const std::uint8_t*>(param.data), param.data_size};
  return true;
}

// Writes `value` into an integer parameter of the caller's size; false when it does not fit.
inline bool write_unsigned(OSSL_PARAM& param, std::uint64_t value) {
  if (param.data_type != OSSL_PARAM_UNSIGNED_INTEGER && param.data_type != OSSL_PARAM_INTEGER)
    return false;
  if (param.data == nullptr) {  // a size query
    param.return_size = sizeof(std::uint64_t);
    return true;
  }
  const std::size_t size = param.data_size;
  if (size == 0 || size > 8) return false;
  const unsigned bits = static_cast<unsigned>(size * 8);
  if (bits < 64 && value >> (param.data_type == OSSL_PARAM_INTEGER ? bits - 1 : bits) != 0)
    return false;
  auto* bytes = static_cast<unsigned char*>(param.data);
  for (std::size_t i = 0; i < size; ++i) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    bytes[size - 1 - i] = static_cast<unsigned char>(value >> (8 * i));
#else
    bytes[i] = static_cast<unsigned char>(value >> (8 * i));
#endif
  }
  param.return_size = size;
  return true;
}

inline bool write_octets(OSSL_PARAM& param, std::span<const std::uint8_t> octets) {
  if (param.data_type != OSSL_PARAM_OCTET_STRING) return false;
  param.return_size = octets.size();
  if (param.data == nullptr) return true;
  if (param.data_size < octets.size()) return false;
  if (!octets.empty()) std::memcpy(param.data, octets.data(), octets.size());
  return true;
}

// A pointer to a constant string (OSSL_PARAM_UTF8_PTR), or a copy (OSSL_PARAM_UTF8_STRING).
inline bool write_text(OSSL_PARAM& param, const char* text) {
  const std::size_t length = std::strlen(text);
  param.return_size = length;
  if (param.data_type == OSSL_PARAM_UTF8_PTR) {
    if (param.data == nullptr) return true;
    *static_cast<const char**>(param.data) = text;
    return true;
  }
  if (param.data_type != OSSL_PARAM_UTF8_STRING) return false;
  if (param.data == nullptr) return true;
  if (param.data_size < length + 1) return false;
  std::memcpy(param.data, text, length + 1);
  return true;
}

// The end marker and constructors of the parameter descriptions the provider publishes.
constexpr OSSL_PARAM param_end() {
  return {nullptr, 0, nullptr, 0, 0};
}
constexpr OSSL_PARAM param_size(const char* key) {
  return {key, OSSL_PARAM_UNSIGNED_INTEGER, nullptr, sizeof(std::size_t), 0};
}
constexpr OSSL_PARAM param_uint(const char* key) {
  return {key, OSSL_PARAM_UNSIGNED_INTEGER, nullptr, sizeof(unsigned), 0};
}
constexpr OSSL_PARAM param_int(const char* key) {
  return {key, OSSL_PARAM_INTEGER, nullptr, sizeof(int), 0};
}
constexpr OSSL_PARAM param_octets(const char* key) {
  return {key, OSSL_PARAM_OCTET_STRING, nullptr, 0, 0};
}
constexpr OSSL_PARAM param_text_ptr(const char* key) {
  return {key, OSSL_PARAM_UTF8_PTR, nullptr, 0, 0};
}

}  // namespace sponge_provider
