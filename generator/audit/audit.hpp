// The audit: what each entry of a kernel executes, figured from its Program.
//
// A reviewer of a kernel tweak sees here, without reading thousands of lines, the
// instruction mix per round and per permutation, the memory traffic, the frame and the
// saved registers, the code size, and two lower bounds on the cycles one permutation
// takes: the dependency-chain (latency) bound and the issue-width bound.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "program/audit_figures.hpp"
#include "program/program.hpp"
#include "writers/asmjit_encoder.hpp"

namespace spongegen::audit {

// The latency model behind the dependency-chain bound: cycles from an instruction's inputs
// to its result. Deliberately generic (recent out-of-order cores are within a cycle of it);
// the numbers are printed with every report.
struct LatencyModel {
  int load;        // load to use, L1 hit
  int scalar_alu;  // xor, andn, rorx, add, sub, mov
  int simd;        // eor, eor3, bcax, xar, rax1
};
LatencyModel latency_model(Isa isa);

KernelAudit audit_program(const Program& program, int issue_width);
// The same, from the Program's encoding (writers::encode) when the caller has it already.
KernelAudit audit_program(const Program& program, const writers::EncodedProgram& encoded,
                          int issue_width);

// Text table (fmt) and JSON (nlohmann_json) of several kernels.
std::string format_table(const std::vector<KernelAudit>& audits);
std::string format_json(const std::vector<KernelAudit>& audits);

// What changed between two audits of the same kernels (old first), and the instructions
// that changed, grouped by round. Returns an empty string when nothing changed.
std::string format_diff(const std::vector<std::pair<Program, KernelAudit>>& before,
                        const std::vector<std::pair<Program, KernelAudit>>& after);

}  // namespace spongegen::audit
