#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "sponge/sponge.hpp"

namespace {
template <std::size_t N>
std::string hex(const std::array<std::uint8_t, N>& bytes) {
  std::string out;
  char buf[3];
  for (auto b : bytes) {
    std::snprintf(buf, sizeof buf, "%02x", b);
    out += buf;
  }
  return out;
}
}  // namespace

TEST_CASE("keccak256 of the empty string and abc") {
  CHECK(hex(sponge::keccak256(std::string_view(""))) ==
        "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
  CHECK(hex(sponge::keccak256(std::string_view("abc"))) ==
        "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
  CHECK(hex(sponge::sha3_256(std::string_view("abc"))) ==
        "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
}

TEST_CASE("every one-shot overload gives the same output: uint8_t, std::byte, string_view") {
  const std::string_view text = "The quick brown fox jumps over the lazy dog";
  const auto bytes = std::as_bytes(std::span(text.data(), text.size()));
  const std::span<const std::uint8_t> octets(reinterpret_cast<const std::uint8_t*>(text.data()),
                                             text.size());
  CHECK(sponge::sha3_256(bytes) == sponge::sha3_256(octets));
  CHECK(sponge::keccak256(bytes) == sponge::keccak256(text));

  using Xof = void (*)(std::span<const std::uint8_t>, std::span<std::uint8_t>) noexcept;
  for (const Xof xof : {static_cast<Xof>(sponge::shake128), static_cast<Xof>(sponge::shake256)}) {
    std::array<std::uint8_t, 200> expected{};
    xof(octets, expected);
    const bool is_128 = xof == static_cast<Xof>(sponge::shake128);
    std::array<std::uint8_t, 200> from_bytes_to_octets{};
    std::array<std::byte, 200> from_bytes{}, from_text{};
    if (is_128) {
      sponge::shake128(bytes, from_bytes_to_octets);
      sponge::shake128(bytes, from_bytes);
      sponge::shake128(text, from_text);
    } else {
      sponge::shake256(bytes, from_bytes_to_octets);
      sponge::shake256(bytes, from_bytes);
      sponge::shake256(text, from_text);
    }
    CHECK(from_bytes_to_octets == expected);
    CHECK(std::memcmp(from_bytes.data(), expected.data(), expected.size()) == 0);
    CHECK(std::memcmp(from_text.data(), expected.data(), expected.size()) == 0);
  }
  // SHAKE128("") starts 7f9c2ba4 (FIPS 202 example values).
  std::array<std::byte, 4> empty_out{};
  sponge::shake128(std::span<const std::byte>(), empty_out);
  CHECK(empty_out ==
        std::array{std::byte{0x7f}, std::byte{0x9c}, std::byte{0x2b}, std::byte{0xa4}});
}
