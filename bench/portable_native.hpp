// The runtime's portable kernels compiled a second time, for the machine the benchmark runs
// on (-O3 -march=native, bench/CMakeLists.txt): the in-tree stand-in for the compiled-C peers
// a user builds with -march flags. Those sources are compiled with the namespace `sponge`
// renamed, so this copy and the library's live side by side in one binary; this header names
// neither namespace and hands the copy's entries over as plain function pointers, which
// sponge_bench.cpp puts into a Keccak and an Ascon kernel named "portable-native".
#pragma once

#include <cstddef>
#include <cstdint>

struct PortableNativeEntries {
  using Permute = void (*)(std::uint64_t* state) noexcept;
  using Absorb = void (*)(std::uint64_t* state, const std::uint8_t* block) noexcept;
  using AsconAbsorb = void (*)(std::uint64_t* state, const std::uint8_t* blocks,
                               std::size_t block_count) noexcept;
  using AsconCrypt = void (*)(std::uint64_t* state, const std::uint8_t* in, std::uint8_t* out,
                              std::size_t block_count) noexcept;
  // Keccak, indexed like the kernel table (kRates, kRates12).
  Permute keccak_permute;
  Absorb keccak_absorb[5];
  Permute keccak_permute12;
  Absorb keccak_absorb12[2];
  // Ascon-p[320].
  Permute ascon_permute12, ascon_permute8, ascon_permute6;
  AsconAbsorb ascon_absorb_hash, ascon_absorb_ad;
  AsconCrypt ascon_encrypt, ascon_decrypt;
};

const PortableNativeEntries& portable_native_entries() noexcept;
