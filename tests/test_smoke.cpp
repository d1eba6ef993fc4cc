#include <doctest/doctest.h>

#include <cstdio>
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
