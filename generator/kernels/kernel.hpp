// What every kernel builder returns, and the list of kernels spongegen writes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "program/program.hpp"

namespace spongegen::kernels {

// One callable entry of a kernel.
struct Entry {
  std::string symbol;
  int absorb_rate_bytes = 0;  // 0: permute only; else XOR this many bytes of a block first
};

struct BuiltKernel {
  Program program;
  std::vector<Entry> entries;
};

struct KernelSpec {
  std::string name;       // as the runtime's dispatcher and SPONGE_KERNEL name it
  std::string file_name;  // in generated/
  Isa isa;
  std::function<BuiltKernel()> build;
};

// Every kernel spongegen generates, in output order.
const std::vector<KernelSpec>& all_kernels();

BuiltKernel build_keccak_amd64_bmi2();
BuiltKernel build_keccak_arm64_sha3();

}  // namespace spongegen::kernels
