// The dispatcher's view of an Ascon-p[320] kernel (family KernelFamily::ascon_p320, forced
// with SPONGE_ASCON_KERNEL). The modes of ascon.cpp call only through this table, so a
// generated kernel plugs in with one entry list and one line in dispatch.cpp's table, as the
// Keccak kernels do.
//
// The state is five 64-bit words x0..x4 in memory (`std::uint64_t state[5]`, SP 800-232's
// S0..S4). Every entry reads the state, runs, and writes it back; block pointers may have any
// alignment; bytes are little-endian (SP 800-232). A block count may be 0 (the entry then
// changes nothing). The entries, and the entry list kind each comes from
// (X(kind, permutation, rounds, rate_bytes, lanes, symbol), as generated/sponge_kernels.h):
//
//   permute12, permute8, permute6   (permute, "ascon-p320", 12 | 8 | 6, 0, 1, f)
//       void f(uint64_t state[5])
//       p12, p8 or p6 on the state.
//   absorb_hash                     (absorb, "ascon-p320", 12, 8, 1, f)
//       void f(uint64_t state[5], const uint8_t* blocks, size_t block_count)
//       for each 8-byte block: x0 ^= block; P12.  Ascon-Hash256, XOF128, CXOF128.
//   absorb_ad                       (absorb, "ascon-p320", 8, 16, 1, f)
//       same signature; for each 16-byte block: x0 ^= block[0..8), x1 ^= block[8..16); P8.
//       Ascon-AEAD128's associated data.
//   encrypt                         (encrypt, "ascon-p320", 8, 16, 1, f)
//       void f(uint64_t state[5], const uint8_t* in, uint8_t* out, size_t block_count)
//       for each 16-byte block: x0 ^= in[0..8), x1 ^= in[8..16); out = x0 || x1; P8.
//   decrypt                         (decrypt, "ascon-p320", 8, 16, 1, f)
//       same signature; for each block: out = (x0 || x1) ^ in; x0 || x1 = in; P8.
//
// For encrypt and decrypt, `out` may equal `in` (in-place), but must not partly overlap it:
// an entry loads a block's input before it stores that block's output.
//
// Unlike the Keccak entries (one block per call), the mode entries run many blocks per call:
// an Ascon block is 8 or 16 bytes and a permutation only ~450 instructions, so loading and
// storing the state around every block would cost a visible share. A caller that needs
// progress or cancellation on a huge buffer passes it in chunks.
//
// A kernel leaves no state word in the stack it releases (registers it saved and restored
// are the caller's values): the portable kernel clears its frames after the rounds, a
// generated kernel keeps the state in registers and clears its own spills.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string_view>

#include "ascon/ascon_portable.hpp"

namespace sponge::detail {

using AsconPermuteFn = void (*)(std::uint64_t* state) noexcept;
using AsconAbsorbFn = void (*)(std::uint64_t* state, const std::uint8_t* blocks,
                               std::size_t block_count) noexcept;
using AsconCryptFn = void (*)(std::uint64_t* state, const std::uint8_t* in, std::uint8_t* out,
                              std::size_t block_count) noexcept;

// The block sizes of the modes: the hash rate (one word) and the AEAD rate (two words).
inline constexpr std::size_t kAsconHashRate = 8;
inline constexpr std::size_t kAsconAeadRate = 16;

struct AsconKernel {
  std::string_view name;
  bool (*cpu_supports)() noexcept;
  AsconPermuteFn permute12;
  AsconPermuteFn permute8;
  AsconPermuteFn permute6;
  AsconAbsorbFn absorb_hash;  // 8-byte blocks, P12
  AsconAbsorbFn absorb_ad;    // 16-byte blocks, P8
  AsconCryptFn encrypt;       // 16-byte blocks, P8
  AsconCryptFn decrypt;       // 16-byte blocks, P8
};

// One entry of a kernel as its entry list declares it (see make_ascon_kernel).
enum class AsconEntryKind { permute, absorb, encrypt, decrypt };

struct AsconEntry {
  AsconEntryKind kind;
  int rounds;
  std::size_t rate_bytes;  // 0 for a permute entry
  int lanes;               // states per call; 1 for every entry today
  AsconPermuteFn permute;
  AsconAbsorbFn absorb;
  AsconCryptFn crypt;
};

constexpr AsconEntry ascon_entry_permute(int rounds, std::size_t rate_bytes, int lanes,
                                         AsconPermuteFn function) {
  return {AsconEntryKind::permute, rounds, rate_bytes, lanes, function, nullptr, nullptr};
}
constexpr AsconEntry ascon_entry_absorb(int rounds, std::size_t rate_bytes, int lanes,
                                        AsconAbsorbFn function) {
  return {AsconEntryKind::absorb, rounds, rate_bytes, lanes, nullptr, function, nullptr};
}
constexpr AsconEntry ascon_entry_encrypt(int rounds, std::size_t rate_bytes, int lanes,
                                         AsconCryptFn function) {
  return {AsconEntryKind::encrypt, rounds, rate_bytes, lanes, nullptr, nullptr, function};
}
constexpr AsconEntry ascon_entry_decrypt(int rounds, std::size_t rate_bytes, int lanes,
                                         AsconCryptFn function) {
  return {AsconEntryKind::decrypt, rounds, rate_bytes, lanes, nullptr, nullptr, function};
}

// Turns an entry list X(kind, permutation, rounds, rate_bytes, lanes, symbol) into
// AsconEntry initializers.
#define SPONGE_ASCON_ENTRY(kind, permutation, rounds, rate_bytes, lanes, symbol) \
  ::sponge::detail::ascon_entry_##kind(rounds, rate_bytes, lanes, symbol),

namespace ascon_table {

template <std::size_t N>
constexpr const AsconEntry& find(const AsconEntry (&entries)[N], AsconEntryKind kind, int rounds,
                                 std::size_t rate_bytes) {
  for (const AsconEntry& entry : entries) {
    if (entry.kind == kind && entry.rounds == rounds && entry.rate_bytes == rate_bytes &&
        entry.lanes == 1) {
      return entry;
    }
  }
  // Reached only in constant evaluation (make_ascon_kernel), where it stops the build.
  throw std::logic_error("an Ascon kernel lacks an entry the table needs");
}

}  // namespace ascon_table

// A kernel's table from its entry list, at compile time: an entry the table needs and the
// list lacks fails the build, so a kernel can never ship with a hole.
template <std::size_t N>
constexpr AsconKernel make_ascon_kernel(std::string_view name, bool (*cpu_supports)() noexcept,
                                        const AsconEntry (&entries)[N]) {
  using ascon_table::find;
  using Kind = AsconEntryKind;
  return {name,
          cpu_supports,
          find(entries, Kind::permute, 12, 0).permute,
          find(entries, Kind::permute, 8, 0).permute,
          find(entries, Kind::permute, 6, 0).permute,
          find(entries, Kind::absorb, 12, kAsconHashRate).absorb,
          find(entries, Kind::absorb, 8, kAsconAeadRate).absorb,
          find(entries, Kind::encrypt, 8, kAsconAeadRate).crypt,
          find(entries, Kind::decrypt, 8, kAsconAeadRate).crypt};
}

// Every Ascon-p[320] kernel compiled into this library, best first; "portable" is last.
std::span<const AsconKernel* const> ascon_compiled_kernels() noexcept;

// The kernel chosen for this process (SPONGE_ASCON_KERNEL forces one by name).
const AsconKernel& active_ascon_kernel() noexcept;

}  // namespace sponge::detail
