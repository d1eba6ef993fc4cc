// The two C++ batch kernels (batch_kernel.hpp): portable-x4, four interleaved states on the
// portable permutation, and single, the pseudo-kernel of one state on the active single-state
// kernel. Both are built from entry lists in the generated lists' form, like kernel_portable.cpp.
#include <cstdlib>

#include "batch/batch_kernel.hpp"
#include "support/byte_order.hpp"
#include "support/wipe.hpp"

namespace sponge::detail {
namespace {

bool always_supported() noexcept {
  return true;
}

// ---------------------------------------------------------------------------------------
// portable-x4: each state's column is copied into 25 lanes, the block XORed in, the lanes
// permuted by the portable reference and copied back. Slow (the copies), but written from
// the layout's definition alone, which is what a reference for the generated kernel needs.
// ---------------------------------------------------------------------------------------
constexpr int kPortableStates = 4;

template <PermuteFn Permute>
void permute_portable_x4(std::uint64_t* states) noexcept {
  std::uint64_t lanes[25];
  for (int s = 0; s < kPortableStates; ++s) {
    copy_column_to_lanes(states + s, kPortableStates, lanes);
    Permute(lanes);
    copy_lanes_to_column(lanes, states + s, kPortableStates);
  }
  wipe_words(lanes);
}

template <std::size_t RateBytes, PermuteFn Permute>
void absorb_portable_x4(std::uint64_t* states, const std::uint8_t* const* blocks) noexcept {
  std::uint64_t lanes[25];
  for (int s = 0; s < kPortableStates; ++s) {
    copy_column_to_lanes(states + s, kPortableStates, lanes);
    for (std::size_t lane = 0; lane < RateBytes / 8; ++lane)
      lanes[lane] ^= load_le64(blocks[s] + 8 * lane);
    Permute(lanes);
    copy_lanes_to_column(lanes, states + s, kPortableStates);
  }
  wipe_words(lanes);
}

#define SPONGE_PORTABLE_X4_ENTRIES(X)                                                        \
  X(permute, "keccak-f1600", 24, 0, 4, permute_portable_x4<keccak_f1600_portable>)           \
  X(absorb, "keccak-f1600", 24, 72, 4, (absorb_portable_x4<72, keccak_f1600_portable>))      \
  X(absorb, "keccak-f1600", 24, 104, 4, (absorb_portable_x4<104, keccak_f1600_portable>))    \
  X(absorb, "keccak-f1600", 24, 136, 4, (absorb_portable_x4<136, keccak_f1600_portable>))    \
  X(absorb, "keccak-f1600", 24, 144, 4, (absorb_portable_x4<144, keccak_f1600_portable>))    \
  X(absorb, "keccak-f1600", 24, 168, 4, (absorb_portable_x4<168, keccak_f1600_portable>))    \
  X(permute, "keccak-p1600", 12, 0, 4, permute_portable_x4<keccak_p1600_12_portable>)        \
  X(absorb, "keccak-p1600", 12, 136, 4, (absorb_portable_x4<136, keccak_p1600_12_portable>)) \
  X(absorb, "keccak-p1600", 12, 168, 4, (absorb_portable_x4<168, keccak_p1600_12_portable>))

constexpr KeccakEntry kPortableX4Entries[] = {SPONGE_PORTABLE_X4_ENTRIES(SPONGE_KECCAK_ENTRY)};

// ---------------------------------------------------------------------------------------
// single: one state, which with N = 1 is laid out as a plain 25-lane state, on the active
// single-state kernel (looked up per call: one function-local static read). The scheduler
// never runs it through the interleaved path; the table exists so the kernel tests and
// SPONGE_BATCH_KERNEL treat it like any batch kernel.
// ---------------------------------------------------------------------------------------
template <int Rounds>
void permute_single(std::uint64_t* states) noexcept {
  active_keccak_kernel().permute_for(Rounds)(states);
}

template <std::size_t RateBytes, int Rounds>
void absorb_single(std::uint64_t* states, const std::uint8_t* const* blocks) noexcept {
  active_keccak_kernel().absorb_for(RateBytes, Rounds)(states, blocks[0]);
}

#define SPONGE_SINGLE_ENTRIES(X)                                  \
  X(permute, "keccak-f1600", 24, 0, 1, permute_single<24>)        \
  X(absorb, "keccak-f1600", 24, 72, 1, (absorb_single<72, 24>))   \
  X(absorb, "keccak-f1600", 24, 104, 1, (absorb_single<104, 24>)) \
  X(absorb, "keccak-f1600", 24, 136, 1, (absorb_single<136, 24>)) \
  X(absorb, "keccak-f1600", 24, 144, 1, (absorb_single<144, 24>)) \
  X(absorb, "keccak-f1600", 24, 168, 1, (absorb_single<168, 24>)) \
  X(permute, "keccak-p1600", 12, 0, 1, permute_single<12>)        \
  X(absorb, "keccak-p1600", 12, 136, 1, (absorb_single<136, 12>)) \
  X(absorb, "keccak-p1600", 12, 168, 1, (absorb_single<168, 12>))

constexpr KeccakEntry kSingleEntries[] = {SPONGE_SINGLE_ENTRIES(SPONGE_KECCAK_ENTRY)};

}  // namespace

extern const KeccakBatchKernel kPortableX4BatchKernel = make_keccak_batch_kernel(
    "portable-x4", always_supported, kPortableStates, false, kPortableX4Entries);

extern const KeccakBatchKernel kSingleBatchKernel =
    make_keccak_batch_kernel("single", always_supported, 1, true, kSingleEntries);

void copy_column_to_lanes(const std::uint64_t* column, std::size_t stride,
                          std::uint64_t* lanes) noexcept {
  for (std::size_t i = 0; i < 25; ++i)
    lanes[i] = column[stride * i];
}

void copy_lanes_to_column(const std::uint64_t* lanes, std::uint64_t* column,
                          std::size_t stride) noexcept {
  for (std::size_t i = 0; i < 25; ++i)
    column[stride * i] = lanes[i];
}

BatchAbsorbFn KeccakBatchKernel::absorb_for(std::size_t rate_bytes, int rounds) const noexcept {
  return absorb_entry_for(absorb, absorb12, rate_bytes, rounds);
}

BatchAbsorbBlocksFn KeccakBatchKernel::absorb_blocks_for(std::size_t rate_bytes,
                                                         int rounds) const noexcept {
  return absorb_entry_for(absorb_blocks, absorb_blocks12, rate_bytes, rounds);
}

}  // namespace sponge::detail
