// Linked into every test executable: asserts that the kernel under test is the one the
// CTest registration asked for (SPONGE_EXPECTED_KERNEL), or, with no SPONGE_KERNEL, the
// kernel the caller of the test run expects the dispatcher to pick
// (SPONGE_EXPECTED_DEFAULT_KERNEL, set outside the process: a broken CPU detection cannot
// vouch for itself). Without SPONGE_EXPECTED_DEFAULT_KERNEL a native build falls back to
// "the preferred kernel (arm64: by core) if this CPU runs it, else the first compiled
// kernel whose cpu_supports() is true"; a cross build
// (SPONGE_TEST_REQUIRE_EXPECTED_DEFAULT_KERNEL) fails instead.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "keccak/keccak_kernel.hpp"
#include "sponge/sponge.h"
#include "sponge/sponge.hpp"

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

}  // namespace

TEST_CASE("the active kernel is the one this test run asked for") {
  const std::string active(sponge::active_kernel());
  const std::string expected = environment("SPONGE_EXPECTED_KERNEL");
  const std::string forced = environment("SPONGE_KERNEL");
  MESSAGE("active kernel: " << active);
  if (!expected.empty()) {
    CHECK(active == expected);
  } else {
    // The registration without SPONGE_KERNEL: the dispatcher's own choice.
    CHECK(forced.empty());
    // The preferred kernel (arm64: by core) if this CPU runs it, else the first it runs.
    const std::string preferred(sponge::detail::preferred_keccak_kernel());
    std::string best;
    for (const sponge::detail::KeccakKernel* kernel : sponge::detail::compiled_kernels()) {
      if (kernel->cpu_supports() && kernel->name == preferred) best = preferred;
    }
    for (const sponge::detail::KeccakKernel* kernel : sponge::detail::compiled_kernels()) {
      if (!best.empty()) break;
      if (kernel->cpu_supports()) best = std::string(kernel->name);
    }
    CHECK(!best.empty());
    CHECK(active == best);  // the dispatcher agrees with the kernels' own CPU checks
    const std::string expected_default = environment("SPONGE_EXPECTED_DEFAULT_KERNEL");
    if (!expected_default.empty()) {
      MESSAGE("SPONGE_EXPECTED_DEFAULT_KERNEL=" << expected_default);
      CHECK(active == expected_default);  // and both agree with the outside expectation
    } else {
#if SPONGE_TEST_REQUIRE_EXPECTED_DEFAULT_KERNEL
      FAIL(
          "cross build: set SPONGE_EXPECTED_DEFAULT_KERNEL to the kernel the emulated CPU "
          "must get (arm64-scalar under QEMU_CPU=max and QEMU_CPU=cortex-a72); scripts/test "
          "does");
#endif
    }
  }
  CHECK(std::string(sponge_active_kernel()) == active);  // the C API agrees
}
