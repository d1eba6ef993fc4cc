// The constant-time harness shared by test_constant_time.cpp (the C and C++ APIs) and
// test_constant_time_provider.cpp (the OpenSSL provider through EVP): secrets marked undefined
// to valgrind's memcheck, each case run twice (inputs defined, then undefined) with its output
// compared, and only the output declared defined.
#pragma once

#include <valgrind/memcheck.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sponge_constant_time {

using Bytes = std::vector<std::uint8_t>;

inline Bytes pattern_bytes(std::size_t length, std::uint32_t seed) {
  Bytes bytes(length);
  std::uint32_t x = seed * 2654435761u + 1;
  for (auto& byte : bytes) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    byte = static_cast<std::uint8_t>(x >> 11);
  }
  return bytes;
}

inline void poison(std::span<const std::uint8_t> secret) {
  VALGRIND_MAKE_MEM_UNDEFINED(secret.data(), secret.size());
}
inline void unpoison(std::span<const std::uint8_t> bytes) {
  VALGRIND_MAKE_MEM_DEFINED(bytes.data(), bytes.size());
}

inline int cases_run = 0;
inline int cases_failed = 0;

// Runs `compute` into an `out_bytes` buffer twice: with the `secrets` defined (the reference),
// then with them undefined, declassifying only the output; the two outputs must match.
inline void check(const std::string& name,
                  std::initializer_list<std::span<const std::uint8_t>> secrets,
                  std::size_t out_bytes,
                  const std::function<void(std::span<std::uint8_t>)>& compute) {
  Bytes reference(out_bytes, 0xA5), out(out_bytes, 0x5A);
  compute(reference);
  for (auto secret : secrets)
    poison(secret);
  compute(out);
  for (auto secret : secrets)
    unpoison(secret);
  unpoison(out);  // public by contract: the output the caller asked for
  ++cases_run;
  if (out != reference) {
    ++cases_failed;
    std::fprintf(stderr, "FAIL %s: the output differs from the run on defined inputs\n",
                 name.c_str());
  }
}

inline std::string named(std::string_view function, std::size_t length) {
  return std::string(function) + "(" + std::to_string(length) + " bytes)";
}

// Message lengths around a rate: empty, one byte, one block less and more one byte, two
// blocks and a partial one, and a long message.
inline std::vector<std::size_t> lengths_around(std::size_t rate) {
  return {0, 1, rate - 1, rate, rate + 1, 2 * rate + 5, 2500};
}

}  // namespace sponge_constant_time
