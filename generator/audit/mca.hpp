// llvm-mca's estimate of an entry on a core the machine does not have: the audit counts
// instructions, llvm-mca models where they issue, how long each waits, and which port binds.
//
// The snippet is every instruction the entry executes inside its rounds (the walk of the
// audit, so a loop body appears as often as it turns), in the writer's own syntax; llvm-mca
// repeats it, which models back-to-back permutations. Figures are a model's, never a
// measurement: a reviewer compares variants with them, the README says which is which.
#pragma once

#include <string>
#include <vector>

#include "program/program.hpp"

namespace spongegen::audit {

struct McaEstimate {
  std::string cpu;
  bool ok = false;
  std::string problem;           // when !ok: what llvm-mca said
  double cycles = 0;             // per pass of the snippet (one permutation's rounds)
  double block_rthroughput = 0;  // llvm-mca's resource bound for the snippet
  int rounds = 0;
};

// The core models llvm-mca (LLVM 14) has for the kernels' ISAs, in the order the audit prints.
std::vector<std::string> default_mca_cpus(Isa isa);

// The rounds' instructions of entry `function`, as llvm-mca reads them, and how many rounds.
std::string mca_snippet(const Program& program, std::size_t function, int& rounds);

// Runs llvm-mca (llvm-mca-14, else llvm-mca, from PATH) on the snippet for one core model.
McaEstimate run_llvm_mca(const Program& program, std::size_t function, const std::string& cpu);

// "  znver3              cycles/round  ... " lines for an entry on every core given.
std::string format_mca(const Program& program, std::size_t function,
                       const std::vector<std::string>& cpus);

}  // namespace spongegen::audit
