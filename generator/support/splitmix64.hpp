// splitmix64: a tiny, seedable random stream that gives the same numbers on every host,
// for the generator's searches and self-checks (reproducible output, reproducible failures).
#pragma once

#include <cstddef>
#include <cstdint>

namespace spongegen {

struct SplitMix64 {
  std::uint64_t state;

  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t bound) { return static_cast<std::size_t>(next() % bound); }
};

}  // namespace spongegen
