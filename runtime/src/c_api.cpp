// The C API: argument checks, then the C++ one-shot functions.
#include "sponge/sponge.h"

#include <algorithm>

#include "sponge/sponge.hpp"

namespace {

template <auto Hash>
sponge_status fixed_output(const uint8_t* in, size_t in_len, uint8_t* out) noexcept {
  if (in == nullptr && in_len != 0) return SPONGE_ERROR_NULL_INPUT;
  if (out == nullptr) return SPONGE_ERROR_NULL_OUTPUT;
  const auto digest = Hash(std::span<const std::uint8_t>(in, in_len));
  std::copy(digest.begin(), digest.end(), out);
  return SPONGE_OK;
}

template <auto Xof>
sponge_status extendable_output(const uint8_t* in, size_t in_len, uint8_t* out,
                                size_t out_len) noexcept {
  if (in == nullptr && in_len != 0) return SPONGE_ERROR_NULL_INPUT;
  if (out == nullptr && out_len != 0) return SPONGE_ERROR_NULL_OUTPUT;
  Xof(std::span<const std::uint8_t>(in, in_len), std::span<std::uint8_t>(out, out_len));
  return SPONGE_OK;
}

// The overload sets of the C++ API, narrowed to their byte-span members.
using FixedSpanFn32 = std::array<std::uint8_t, 32> (*)(std::span<const std::uint8_t>) noexcept;
using FixedSpanFn28 = std::array<std::uint8_t, 28> (*)(std::span<const std::uint8_t>) noexcept;
using FixedSpanFn48 = std::array<std::uint8_t, 48> (*)(std::span<const std::uint8_t>) noexcept;
using FixedSpanFn64 = std::array<std::uint8_t, 64> (*)(std::span<const std::uint8_t>) noexcept;
using XofSpanFn = void (*)(std::span<const std::uint8_t>, std::span<std::uint8_t>) noexcept;

}  // namespace

extern "C" {

sponge_status sponge_keccak256(const uint8_t* in, size_t in_len, uint8_t out[32]) {
  return fixed_output<static_cast<FixedSpanFn32>(sponge::keccak256)>(in, in_len, out);
}
sponge_status sponge_sha3_224(const uint8_t* in, size_t in_len, uint8_t out[28]) {
  return fixed_output<static_cast<FixedSpanFn28>(sponge::sha3_224)>(in, in_len, out);
}
sponge_status sponge_sha3_256(const uint8_t* in, size_t in_len, uint8_t out[32]) {
  return fixed_output<static_cast<FixedSpanFn32>(sponge::sha3_256)>(in, in_len, out);
}
sponge_status sponge_sha3_384(const uint8_t* in, size_t in_len, uint8_t out[48]) {
  return fixed_output<static_cast<FixedSpanFn48>(sponge::sha3_384)>(in, in_len, out);
}
sponge_status sponge_sha3_512(const uint8_t* in, size_t in_len, uint8_t out[64]) {
  return fixed_output<static_cast<FixedSpanFn64>(sponge::sha3_512)>(in, in_len, out);
}
sponge_status sponge_shake128(const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
  return extendable_output<static_cast<XofSpanFn>(sponge::shake128)>(in, in_len, out, out_len);
}
sponge_status sponge_shake256(const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
  return extendable_output<static_cast<XofSpanFn>(sponge::shake256)>(in, in_len, out, out_len);
}

const char* sponge_status_message(sponge_status status) {
  switch (status) {
    case SPONGE_OK:
      return "success";
    case SPONGE_ERROR_NULL_INPUT:
      return "input pointer is NULL but input length is not zero";
    case SPONGE_ERROR_NULL_OUTPUT:
      return "output pointer is NULL";
  }
  return "unknown sponge_status";
}

const char* sponge_active_kernel(void) {
  // Kernel names are string literals, so the view is NUL-terminated.
  return sponge::active_kernel().data();
}

}  // extern "C"
