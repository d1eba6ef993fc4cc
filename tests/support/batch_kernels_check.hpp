// The batch kernels a doctest case iterates: those this CPU runs, with the others named in
// the test output (tests/support/test_support.hpp has the plain list).
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "batch/batch_kernel.hpp"
#include "support/test_support.hpp"

inline std::vector<const sponge::detail::KeccakBatchKernel*> tested_batch_kernels() {
  std::vector<std::string> not_runnable;
  auto kernels = sponge_test::runnable_batch_kernels(&not_runnable);
  for (const std::string& name : not_runnable)
    MESSAGE("batch kernel " << name << " is compiled but this CPU cannot run it: not tested here");
  return kernels;
}
