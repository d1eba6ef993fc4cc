// Linked into every test executable: asserts that the kernel under test is the one the
// CTest registration asked for (SPONGE_EXPECTED_KERNEL), or, with no SPONGE_KERNEL, the
// best kernel this CPU can run.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "kernel.hpp"
#include "sponge/sponge.h"
#include "sponge/sponge.hpp"

TEST_CASE("the active kernel is the one this test run asked for") {
  const std::string active(sponge::active_kernel());
  const char* expected = std::getenv("SPONGE_EXPECTED_KERNEL");
  const char* forced = std::getenv("SPONGE_KERNEL");
  MESSAGE("active kernel: " << active);
  if (expected != nullptr && *expected != '\0') {
    CHECK(active == std::string(expected));
  } else {
    // No SPONGE_EXPECTED_KERNEL: the registration without SPONGE_KERNEL, where the
    // dispatcher must pick the first compiled kernel the CPU supports.
    CHECK((forced == nullptr || *forced == '\0'));
    std::string best;
    for (const sponge::detail::KeccakKernel* kernel : sponge::detail::compiled_kernels()) {
      if (kernel->cpu_supports()) {
        best = std::string(kernel->name);
        break;
      }
    }
    CHECK(!best.empty());
    CHECK(active == best);
  }
  CHECK(std::string(sponge_active_kernel()) == active);  // the C API agrees
}
