// Four SHAKE streams at once (Shake128x4, Shake256x4; sponge.hpp): on every compiled batch
// kernel this CPU runs, random sequences of update and squeeze calls (inputs 0..3 * rate + 1
// bytes, equal and unequal, many small squeezes and big ones) give exactly what four separate
// Shake128 / Shake256 objects give for the same calls; the ML-KEM shape; misuse (update after
// squeeze, outputs of different lengths); the C API from C++; the public classes on the active
// batch kernel.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "batch/batch_kernel.hpp"
#include "sponge/sponge.h"
#include "sponge/sponge.hpp"
#include "support/batch_kernels_check.hpp"
#include "support/test_support.hpp"

namespace {

using sponge::detail::KeccakBatchKernel;
using sponge_test::Bytes;

// The single-stream class of a four-stream one.
template <typename X4>
using SingleOf = std::conditional_t<X4::rate_bytes == 168, sponge::Shake128, sponge::Shake256>;

// Runs one random program of update and squeeze calls on `x4` and on four single-stream
// objects, and compares every output. Returns false (after one FAIL_CHECK) on a mismatch.
template <typename X4>
bool run_program(X4& x4, sponge_test::Rng& rng, const Bytes& pool, const std::string& what) {
  constexpr std::size_t rate = X4::rate_bytes;
  std::array<SingleOf<X4>, 4> singles;
  const std::size_t updates = rng.below_or_equal(4);
  for (std::size_t u = 0; u < updates; ++u) {
    const bool equal = rng.below_or_equal(1) == 0;
    const std::size_t common = rng.below_or_equal(3 * rate + 1);
    typename X4::Inputs inputs;
    for (std::size_t s = 0; s < 4; ++s) {
      const std::size_t length = equal ? common : rng.below_or_equal(3 * rate + 1);
      const std::size_t offset = rng.below_or_equal(pool.size() - length);
      inputs[s] = std::span(pool).subspan(offset, length);
      singles[s].update(inputs[s]);
    }
    x4.update(inputs);
  }
  const std::size_t squeezes = 1 + rng.below_or_equal(6);
  for (std::size_t q = 0; q < squeezes; ++q) {
    std::size_t length = 0;
    switch (rng.below_or_equal(3)) {
      case 0:
        length = rng.below_or_equal(9);
        break;  // many small
      case 1:
        length = rng.below_or_equal(rate + 1);
        break;  // around one block
      case 2:
        length = rate;
        break;  // whole blocks (ML-KEM)
      default:
        length = rng.below_or_equal(3 * rate + 1);  // one big
    }
    std::array<Bytes, 4> got, expected;
    typename X4::Outputs outputs;
    for (std::size_t s = 0; s < 4; ++s) {
      got[s].assign(length, 0);
      expected[s].assign(length, 0);
      outputs[s] = got[s];
      singles[s].squeeze(expected[s]);
    }
    x4.squeeze(outputs);
    for (std::size_t s = 0; s < 4; ++s) {
      if (got[s] != expected[s]) {
        FAIL_CHECK(what << ": stream " << s << " squeeze " << q << " (" << length
                        << " bytes) differs from the single-stream object");
        return false;
      }
    }
  }
  return true;
}

// The kernel four streams run on when `kernel` is asked for: itself when its state count
// divides four, else the first compiled kernel this CPU runs by default whose count does
// (amd64-avx512-x8 -> amd64-avx2-x4), found here from the kernel list, not the library's code.
const KeccakBatchKernel& four_stream_kernel(const KeccakBatchKernel& kernel) {
  if (4 % kernel.states == 0) return kernel;
  for (const KeccakBatchKernel* candidate : sponge::detail::compiled_batch_kernels()) {
    if (candidate->chosen_by_default && 4 % candidate->states == 0 && candidate->cpu_supports()) {
      return *candidate;
    }
  }
  FAIL("no compiled batch kernel runs four streams");
  return kernel;
}

template <typename X4>
void check_random_programs(const KeccakBatchKernel& kernel, std::uint64_t seed, int programs) {
  sponge_test::Rng rng(seed);
  const Bytes pool = rng.bytes(8 * X4::rate_bytes);
  X4 x4(kernel);
  CHECK(&x4.kernel() == &four_stream_kernel(kernel));
  for (int program = 0; program < programs; ++program) {
    x4.reset();
    const std::string what = std::string(kernel.name) + " rate " + std::to_string(X4::rate_bytes) +
                             " program " + std::to_string(program);
    if (!run_program(x4, rng, pool, what)) return;
  }
}

// `length` bytes of each stream of `x4` after `inputs`, the inputs equal in length.
template <typename X4>
std::array<Bytes, 4> squeeze_all(X4& x4, std::size_t length) {
  std::array<Bytes, 4> out;
  typename X4::Outputs outputs;
  for (std::size_t s = 0; s < 4; ++s) {
    out[s].assign(length, 0);
    outputs[s] = out[s];
  }
  x4.squeeze(outputs);
  return out;
}

}  // namespace

TEST_CASE_TEMPLATE("shake_x4: every runnable batch kernel equals four single-stream XOFs", X4,
                   sponge::Shake128x4, sponge::Shake256x4) {
  for (const KeccakBatchKernel* kernel : tested_batch_kernels()) {
    check_random_programs<X4>(*kernel, 0x5EA4 + X4::rate_bytes, 300);
    MESSAGE("batch kernel " << kernel->name << " (" << kernel->states
                            << " states): 300 random programs checked");
  }
}

TEST_CASE_TEMPLATE("shake_x4: lengths around block boundaries, equal and staggered", X4,
                   sponge::Shake128x4, sponge::Shake256x4) {
  constexpr std::size_t rate = X4::rate_bytes;
  const Bytes pool = sponge_test::Rng(0xB0DA).bytes(4 * rate + 8);
  const std::size_t lengths[] = {0, 1, 7, 8, rate - 1, rate, rate + 1, 2 * rate, 3 * rate + 1};
  for (const KeccakBatchKernel* kernel : tested_batch_kernels()) {
    for (const std::size_t first : lengths) {
      for (const std::size_t second : lengths) {
        X4 x4(*kernel);
        std::array<SingleOf<X4>, 4> singles;
        // First call: equal lengths; second call: stream s gets second + s bytes (out of step
        // for s > 0), then a third equal call.
        for (int call = 0; call < 3; ++call) {
          typename X4::Inputs inputs;
          for (std::size_t s = 0; s < 4; ++s) {
            const std::size_t length = call == 0 ? first : call == 1 ? second + s : second;
            inputs[s] = std::span(pool).subspan(s, length);
            singles[s].update(inputs[s]);
          }
          x4.update(inputs);
        }
        const auto out = squeeze_all(x4, 2 * rate + 3);
        for (std::size_t s = 0; s < 4; ++s) {
          Bytes expected(2 * rate + 3);
          singles[s].squeeze(expected);
          INFO(kernel->name << " first " << first << " second " << second << " stream " << s);
          CHECK(out[s] == expected);
        }
      }
    }
  }
}

TEST_CASE("shake_x4: the ML-KEM shape, seed || i || j and 168-byte blocks") {
  const Bytes seed = sponge_test::Rng(0x3C3C).bytes(32);
  for (const KeccakBatchKernel* kernel : tested_batch_kernels()) {
    std::array<Bytes, 4> inputs;
    typename sponge::Shake128x4::Inputs spans;
    for (std::size_t k = 0; k < 4; ++k) {
      inputs[k] = seed;
      inputs[k].push_back(static_cast<std::uint8_t>(k / 2));
      inputs[k].push_back(static_cast<std::uint8_t>(k % 2));
      spans[k] = inputs[k];
    }
    sponge::Shake128x4 x4(*kernel);
    x4.update(spans);
    std::array<Bytes, 4> got;
    for (int block = 0; block < 5; ++block) {
      const auto out = squeeze_all(x4, 168);
      for (std::size_t k = 0; k < 4; ++k)
        got[k].insert(got[k].end(), out[k].begin(), out[k].end());
    }
    for (std::size_t k = 0; k < 4; ++k) {
      Bytes expected(5 * 168);
      sponge::shake128(inputs[k], expected);
      INFO(kernel->name << " stream " << k);
      CHECK(got[k] == expected);
    }
  }
}

TEST_CASE_TEMPLATE(
    "shake_x4: update after squeeze throws std::logic_error; unequal outputs "
    "throw std::invalid_argument and write nothing",
    X4, sponge::Shake128x4, sponge::Shake256x4) {
  const Bytes abc = {'a', 'b', 'c'};
  const typename X4::Inputs inputs = {abc, abc, std::span(abc).first(1), {}};
  X4 x4;
  x4.update(inputs);
  const auto first = squeeze_all(x4, 10);
  CHECK_THROWS_AS(x4.update(inputs), std::logic_error);
  try {
    x4.update(inputs);
  } catch (const std::logic_error& error) {
    const std::string message = error.what();
    CHECK(message.find("update") != std::string::npos);
    CHECK(message.find("squeeze") != std::string::npos);
  }
  // Outputs of different lengths: nothing written, the streams not advanced.
  std::array<Bytes, 4> uneven = {Bytes(5, 0xA5), Bytes(5, 0xA5), Bytes(6, 0xA5), Bytes(5, 0xA5)};
  const typename X4::Outputs uneven_spans = {uneven[0], uneven[1], uneven[2], uneven[3]};
  CHECK_THROWS_AS(x4.squeeze(uneven_spans), std::invalid_argument);
  for (const Bytes& out : uneven)
    CHECK(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == 0xA5; }));
  // The failed calls changed nothing: the streams continue.
  const auto next = squeeze_all(x4, 10);
  for (std::size_t s = 0; s < 4; ++s) {
    Bytes expected(20);
    SingleOf<X4> single;
    single.update(inputs[s]);
    single.squeeze(expected);
    CHECK(first[s] == Bytes(expected.begin(), expected.begin() + 10));
    CHECK(next[s] == Bytes(expected.begin() + 10, expected.end()));
  }
  // reset(): four empty messages, absorbing again.
  x4.reset();
  CHECK_NOTHROW(x4.update(inputs));
  x4.reset();
  const auto empty = squeeze_all(x4, 32);
  Bytes expected(32);
  SingleOf<X4>().squeeze(expected);
  for (const Bytes& out : empty)
    CHECK(out == expected);
}

TEST_CASE("shake_x4: the public classes and the C API on the active batch kernel") {
  const std::string active(sponge::active_kernel(sponge::KernelFamily::keccak_p1600_batch));
  const char* expected_kernel = std::getenv("SPONGE_EXPECTED_BATCH_KERNEL");
  if (expected_kernel != nullptr && *expected_kernel != '\0') CHECK(active == expected_kernel);
  sponge::Shake128x4 x4;
  // The active kernel, or (eight states) the widest default one whose count divides four.
  const KeccakBatchKernel& active_kernel = sponge::detail::active_batch_kernel();
  CHECK(active_kernel.name == active);
  CHECK(&x4.kernel() == &four_stream_kernel(active_kernel));
  CHECK(4 % x4.kernel().states == 0);
  if (active_kernel.states == 8) CHECK(x4.kernel().states == 4);
  check_random_programs<sponge::Shake128x4>(x4.kernel(), 0xAC71, 100);
  check_random_programs<sponge::Shake256x4>(x4.kernel(), 0xAC72, 100);

  sponge_test::Rng rng(0xC4);
  const Bytes pool = rng.bytes(1000);
  for (const std::size_t length : {0, 1, 33, 34, 135, 136, 137, 168, 169, 500}) {
    const std::uint8_t* inputs[4];
    for (std::size_t s = 0; s < 4; ++s)
      inputs[s] = pool.data() + 100 * s;
    sponge_shake128_x4 state128;
    sponge_shake256_x4 state256;
    REQUIRE(sponge_shake128_x4_init(&state128) == SPONGE_OK);
    REQUIRE(sponge_shake256_x4_init(&state256) == SPONGE_OK);
    // In two pieces: a streaming absorb.
    CHECK(sponge_shake128_x4_absorb(&state128, inputs, length / 3) == SPONGE_OK);
    CHECK(sponge_shake256_x4_absorb(&state256, inputs, length / 3) == SPONGE_OK);
    const std::uint8_t* rest[4];
    for (std::size_t s = 0; s < 4; ++s)
      rest[s] = inputs[s] + length / 3;
    CHECK(sponge_shake128_x4_absorb(&state128, rest, length - length / 3) == SPONGE_OK);
    CHECK(sponge_shake256_x4_absorb(&state256, rest, length - length / 3) == SPONGE_OK);
    std::array<Bytes, 4> out128, out256;
    std::uint8_t* outputs128[4];
    std::uint8_t* outputs256[4];
    for (std::size_t s = 0; s < 4; ++s) {
      out128[s].assign(400, 0);
      out256[s].assign(400, 0);
      outputs128[s] = out128[s].data();
      outputs256[s] = out256[s].data();
    }
    CHECK(sponge_shake128_x4_squeeze(&state128, outputs128, 150) == SPONGE_OK);
    CHECK(sponge_shake256_x4_squeeze(&state256, outputs256, 150) == SPONGE_OK);
    for (std::size_t s = 0; s < 4; ++s) {
      outputs128[s] += 150;
      outputs256[s] += 150;
    }
    CHECK(sponge_shake128_x4_squeeze(&state128, outputs128, 250) == SPONGE_OK);
    CHECK(sponge_shake256_x4_squeeze(&state256, outputs256, 250) == SPONGE_OK);
    CHECK(sponge_shake128_x4_absorb(&state128, inputs, 1) == SPONGE_ERROR_MISUSE);
    CHECK(sponge_shake128_x4_clear(&state128) == SPONGE_OK);
    CHECK(sponge_shake256_x4_clear(&state256) == SPONGE_OK);
    CHECK(std::all_of(std::begin(state128.opaque), std::end(state128.opaque),
                      [](std::uint64_t word) { return word == 0; }));
    CHECK(sponge_shake128_x4_squeeze(&state128, outputs128, 1) == SPONGE_ERROR_MISUSE);
    for (std::size_t s = 0; s < 4; ++s) {
      const auto message = std::span(pool).subspan(100 * s, length);
      Bytes expected(400);
      sponge::shake128(message, expected);
      CHECK(out128[s] == expected);
      sponge::shake256(message, expected);
      CHECK(out256[s] == expected);
    }
  }
}
