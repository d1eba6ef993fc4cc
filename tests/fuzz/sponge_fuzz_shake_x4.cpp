// sponge_fuzz_shake_x4: a program of update, squeeze and reset calls from the fuzz input run on
// Shake128x4 / Shake256x4 on every batch kernel this CPU runs, and through the C API on the
// active one, against four single-stream Shake128 / Shake256 objects. An update after a
// squeeze must throw std::logic_error (C: SPONGE_ERROR_MISUSE) and change nothing. The input
// of stream 3 and its output end at a PROT_NONE page when the operation says so.
//
// Input (bytes past the end read as zero; make_corpus.py writes examples):
//   variant (% 2: SHAKE128, SHAKE256), pool seed u16, then up to 48 operations:
//   op byte: kind = op % 4 (0 update, equal lengths; 1 update, four lengths; 2 squeeze;
//   3 reset), bit 4: stream 3 at the guard page; then for kind 0 and 2 a length u16
//   (% (3 * rate + 2)), for kind 1 four lengths u16 (each % (3 * rate + 2)); for kinds 0 and 1
//   one offset byte per stream into the pool.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "batch/batch_kernel.hpp"
#include "fuzz/fuzz_support.hpp"
#include "sponge/sponge.h"
#include "sponge/sponge.hpp"
#include "support/test_support.hpp"

namespace {

using sponge_fuzz::FuzzInput;

constexpr std::size_t kMaxOperations = 48;
constexpr std::size_t kMaxLength = 3 * 168 + 1;
constexpr std::size_t kPoolBytes = 256 + kMaxLength;

const sponge_fuzz::GuardedRegion& guard_region() {
  static const sponge_fuzz::GuardedRegion region(kMaxLength);
  return region;
}

const std::vector<const sponge::detail::KeccakBatchKernel*>& batch_kernels() {
  static const auto kernels = sponge_test::runnable_batch_kernels();
  return kernels;
}

// The C API of one variant.
template <typename X4>
struct CApi;
template <>
struct CApi<sponge::Shake128x4> {
  using State = sponge_shake128_x4;
  static constexpr auto init = sponge_shake128_x4_init;
  static constexpr auto absorb = sponge_shake128_x4_absorb;
  static constexpr auto squeeze = sponge_shake128_x4_squeeze;
  static constexpr auto clear = sponge_shake128_x4_clear;
};
template <>
struct CApi<sponge::Shake256x4> {
  using State = sponge_shake256_x4;
  static constexpr auto init = sponge_shake256_x4_init;
  static constexpr auto absorb = sponge_shake256_x4_absorb;
  static constexpr auto squeeze = sponge_shake256_x4_squeeze;
  static constexpr auto clear = sponge_shake256_x4_clear;
};

template <typename X4, typename Single>
void run(FuzzInput& input) {
  constexpr std::size_t rate = X4::rate_bytes;
  const std::uint16_t seed = input.u16();
  const sponge_test::Bytes pool = sponge_test::Rng(seed).bytes(kPoolBytes);

  std::vector<X4> x4s;
  for (const auto* kernel : batch_kernels())
    x4s.emplace_back(*kernel);
  std::array<Single, 4> singles;
  using C = CApi<X4>;
  typename C::State c_state;
  C::init(&c_state);
  bool c_in_step = true;  // false once an unequal update (which C cannot express) was made
  bool squeezing = false;

  for (std::size_t operation = 0; operation < kMaxOperations && !input.empty(); ++operation) {
    const std::uint8_t op = input.byte();
    const bool at_guard = (op & 0x10) != 0;
    const std::string what = "operation " + std::to_string(operation);
    switch (op % 4) {
      case 0:
      case 1: {
        std::array<std::size_t, 4> lengths;
        if (op % 4 == 0) {
          lengths.fill(input.u16() % (3 * rate + 2));
        } else {
          for (std::size_t& length : lengths)
            length = input.u16() % (3 * rate + 2);
        }
        typename X4::Inputs inputs;
        for (std::size_t s = 0; s < 4; ++s)
          inputs[s] = std::span(pool).subspan(input.byte(), lengths[s]);
        if (at_guard) {
          const std::span<std::uint8_t> guarded = guard_region().ending_at_guard(lengths[3]);
          std::copy(inputs[3].begin(), inputs[3].end(), guarded.begin());
          inputs[3] = guarded;
        }
        for (X4& x4 : x4s) {
          bool threw = false;
          try {
            x4.update(inputs);
          } catch (const std::logic_error&) {
            threw = true;
          }
          if (threw != squeezing)
            sponge_fuzz::fail(what + ": update threw " + std::to_string(threw));
        }
        if (op % 4 == 0) {
          const std::uint8_t* pointers[4];
          for (std::size_t s = 0; s < 4; ++s)
            pointers[s] = inputs[s].data();
          const sponge_status status = C::absorb(&c_state, pointers, lengths[0]);
          if (status != (squeezing ? SPONGE_ERROR_MISUSE : SPONGE_OK))
            sponge_fuzz::fail(what + ": C absorb returned " + std::to_string(status));
        } else if (!squeezing) {
          c_in_step = false;
        }
        if (!squeezing) {
          for (std::size_t s = 0; s < 4; ++s)
            singles[s].update(inputs[s]);
        }
        break;
      }
      case 2: {
        const std::size_t length = input.u16() % (3 * rate + 2);
        std::array<sponge_test::Bytes, 4> expected;
        for (std::size_t s = 0; s < 4; ++s) {
          expected[s].assign(length, 0);
          singles[s].squeeze(expected[s]);
        }
        std::array<sponge_test::Bytes, 4> heap;
        typename X4::Outputs outputs;
        for (std::size_t s = 0; s < 4; ++s) {
          heap[s].assign(length, 0);
          outputs[s] = heap[s];
        }
        if (at_guard) outputs[3] = guard_region().ending_at_guard(length);
        for (std::size_t k = 0; k < x4s.size(); ++k) {
          x4s[k].squeeze(outputs);
          const std::string on = what + " on " + std::string(batch_kernels()[k]->name);
          for (std::size_t s = 0; s < 4; ++s) {
            sponge_fuzz::require_equal(on + ", stream " + std::to_string(s), expected[s],
                                       outputs[s]);
          }
        }
        std::uint8_t* pointers[4];
        for (std::size_t s = 0; s < 4; ++s)
          pointers[s] = outputs[s].data();
        if (C::squeeze(&c_state, pointers, length) != SPONGE_OK)
          sponge_fuzz::fail(what + ": C squeeze failed");
        if (c_in_step) {
          for (std::size_t s = 0; s < 4; ++s) {
            sponge_fuzz::require_equal(what + " (C API), stream " + std::to_string(s), expected[s],
                                       outputs[s]);
          }
        }
        squeezing = true;
        break;
      }
      default:
        for (X4& x4 : x4s)
          x4.reset();
        for (Single& single : singles)
          single.reset();
        C::init(&c_state);
        c_in_step = true;
        squeezing = false;
    }
  }
  C::clear(&c_state);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sponge_fuzz::start_target("sponge_fuzz_shake_x4");
  std::string names;
  for (const auto* kernel : batch_kernels())
    names += (names.empty() ? "" : ", ") + std::string(kernel->name);
  std::fprintf(stderr, "sponge_fuzz_shake_x4: batch kernels this CPU runs: %s; active: %s\n",
               names.c_str(), sponge_active_batch_kernel());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput input(data, size);
  if (input.byte() % 2 == 0) {
    run<sponge::Shake128x4, sponge::Shake128>(input);
  } else {
    run<sponge::Shake256x4, sponge::Shake256>(input);
  }
  return 0;
}
