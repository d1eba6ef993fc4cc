// The update() and squeeze() overloads the streaming classes of every family share (bytes as
// std::span<const std::uint8_t>, std::string_view or std::span<const std::byte>).
#pragma once

#include "sponge/export.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

SPONGE_API_BEGIN
namespace sponge {

namespace detail {

// A byte view of text or std::byte data, as the functions take it.
inline std::span<const std::uint8_t> as_bytes(std::string_view text) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}
inline std::span<const std::uint8_t> as_bytes(std::span<const std::byte> data) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(data.data()), data.size()};
}
inline std::span<std::uint8_t> as_writable_bytes(std::span<std::byte> out) noexcept {
  return {reinterpret_cast<std::uint8_t*>(out.data()), out.size()};
}

// The update() overloads of a streaming class, which provides absorb_bytes(span).
template <typename Derived>
class ByteInput {
 public:
  Derived& update(std::span<const std::uint8_t> data) {
    static_cast<Derived*>(this)->absorb_bytes(data);
    return static_cast<Derived&>(*this);
  }
  Derived& update(std::span<const std::byte> data) { return update(as_bytes(data)); }
  Derived& update(std::string_view text) { return update(as_bytes(text)); }
};

// The squeeze() overloads of an XOF class, which provides squeeze_bytes(span).
template <typename Derived>
class ByteOutput {
 public:
  void squeeze(std::span<std::uint8_t> out) { static_cast<Derived*>(this)->squeeze_bytes(out); }
  void squeeze(std::span<std::byte> out) { squeeze(as_writable_bytes(out)); }
};

}  // namespace detail

}  // namespace sponge
SPONGE_API_END
