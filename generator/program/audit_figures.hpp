// The figures the audit computes of a Program, as plain data: the audit (audit/audit.hpp)
// fills them, `spongegen audit` prints them, and a kernel's header prose quotes them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "program/program.hpp"

namespace spongegen::audit {

// Instruction classes. A memory operand also counts as a load and/or a store, so
// `xor rax, qword ptr [rdi]` is one ALU instruction and one load.
struct InstructionMix {
  std::uint64_t total = 0;
  std::uint64_t loads = 0;           // instructions that read memory
  std::uint64_t stores = 0;          // instructions that write memory
  std::uint64_t alu = 0;             // xor, eor, add, sub, mov between registers, adr
  std::uint64_t rotate = 0;          // rorx, xar, rax1
  std::uint64_t andn = 0;            // andn, bcax (chi's and-not)
  std::uint64_t ternary = 0;         // eor3 (and vpternlog, when a builder uses it)
  std::uint64_t vector_permute = 0;  // vpermq and the like (none yet)
  std::uint64_t branch = 0;          // jmp, ret, b, cbnz
  std::uint64_t other = 0;           // endbr64, bti (hint), push/pop and plain loads/stores

  InstructionMix& operator+=(const InstructionMix& other);
  friend bool operator==(const InstructionMix&, const InstructionMix&) = default;
};

struct EntryAudit {
  std::string symbol;
  EntryShape shape;                          // what one call computes, as declared
  InstructionMix per_round;                  // the first round the entry runs
  InstructionMix per_permutation;            // everything one call executes
  std::size_t static_instructions = 0;       // in this entry's own function
  std::size_t code_bytes = 0;                // of this entry's own function (asmjit encoding)
  std::uint64_t loop_overhead = 0;           // executed only to run the loops (loop_overhead())
  int frame_bytes = 0;                       // stack the call uses below its return address
  std::vector<std::string> saved_registers;  // callee-saved registers it saves
  std::vector<std::string> registers_used;
  int round_chain_cycles = 0;              // longest dependency chain in one round
  std::uint64_t latency_bound_cycles = 0;  // round chain x rounds
  double issue_bound_cycles = 0;           // per-permutation instructions / issue width
  // A Program read from a .S older than the round markers has no rounds: then per_round,
  // the round chain and the latency bound are unknown (not 0).
  bool round_figures_known = true;
  // A loop branch outside any round region has no known trip count: then per_permutation,
  // loop_overhead and the issue bound are unknown (the walk counted one pass).
  bool executed_figures_known = true;
};

// One Windows x64 entry (amd64): the adapter in front of a System V entry.
struct Win64EntryAudit {
  std::string symbol;
  std::size_t instructions = 0;  // the adapter's, its call and ret included
  std::size_t code_bytes = 0;
  int frame_bytes = 0;                       // its pushes and allocation
  std::vector<std::string> saved_registers;  // from its unwind codes: pushes, then xmm saves
};

struct KernelAudit {
  std::string kernel;
  Isa isa;
  int issue_width;
  std::vector<EntryAudit> entries;
  std::vector<Win64EntryAudit> win64_entries;
};

// The issue width `spongegen audit` assumes unless told (--width), and the generated
// headers quote.
inline constexpr int kDefaultIssueWidth = 6;

}  // namespace spongegen::audit
