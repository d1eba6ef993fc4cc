#include "audit/audit.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "audit/semantics.hpp"
#include "isa/amd64/amd64.hpp"
#include "isa/amd64/win64_unwind.hpp"
#include "isa/target.hpp"
#include "program/cfi_rows.hpp"
#include "writers/asmjit_encoder.hpp"

namespace spongegen::audit {

InstructionMix& InstructionMix::operator+=(const InstructionMix& o) {
  total += o.total;
  loads += o.loads;
  stores += o.stores;
  alu += o.alu;
  rotate += o.rotate;
  andn += o.andn;
  ternary += o.ternary;
  vector_permute += o.vector_permute;
  branch += o.branch;
  other += o.other;
  return *this;
}

LatencyModel latency_model(Isa isa) {
  return target(isa).latency_model();
}

namespace {

InstructionMix mix_of(const Effects& effects) {
  InstructionMix mix;
  mix.total = 1;
  mix.loads = effects.loads.empty() ? 0 : 1;
  mix.stores = effects.stores.empty() ? 0 : 1;
  switch (effects.cls) {
    case InstructionClass::alu:
      mix.alu = 1;
      break;
    case InstructionClass::rotate:
      mix.rotate = 1;
      break;
    case InstructionClass::andn:
      mix.andn = 1;
      break;
    case InstructionClass::ternary:
      mix.ternary = 1;
      break;
    case InstructionClass::vector_permute:
      mix.vector_permute = 1;
      break;
    case InstructionClass::branch:
      mix.branch = 1;
      break;
    case InstructionClass::other:
      mix.other = 1;
      break;
  }
  return mix;
}

// Longest dependency chain through one round's instructions, in cycles.
int chain_cycles(Isa isa, const std::vector<const Instruction*>& round) {
  const LatencyModel model = latency_model(isa);
  std::map<Location, int> ready;
  int longest = 0;
  for (const Instruction* instruction : round) {
    const Effects effects = effects_of(isa, *instruction);
    int start = 0;
    for (const Location& read : effects.reads) {
      start = std::max(start, ready[read] + (is_memory(read) ? model.load : 0));
    }
    const auto* first_write =
        effects.writes.empty() ? nullptr : std::get_if<RegisterLocation>(&effects.writes.front());
    const bool simd = first_write != nullptr && first_write->file == RegisterFile::vector;
    int latency = simd ? model.simd : model.scalar_alu;
    if (effects.cls == InstructionClass::branch) latency = 0;
    const int finish = start + latency;
    for (const Location& write : effects.writes)
      ready[write] = finish;
    longest = std::max(longest, finish);
  }
  return longest;
}

struct Executed {
  const Instruction* instruction;
  bool in_round;
};

// Instructions a call executes inside its rounds only to run its loops, which unrolled
// rounds would not execute: each loop branch, the instructions its condition depends on
// (a backward slice over the executed sequence), and the instructions that read a value
// that slice wrote, such as amd64's loads of the round-constant pointer the loop counts
// with. The stack pointer is left out of the second rule: every frame access reads it.
std::uint64_t loop_overhead(Isa isa, const std::vector<Executed>& executed) {
  std::vector<Effects> effects;
  for (const Executed& step : executed)
    effects.push_back(effects_of(isa, *step.instruction));
  std::vector<bool> decides_branch(executed.size());
  std::set<Location> needed;
  for (std::size_t i = executed.size(); i-- > 0;) {
    const Effects& e = effects[i];
    const bool member =
        e.is_conditional_branch || std::any_of(e.writes.begin(), e.writes.end(),
                                               [&](auto& w) { return needed.count(w) != 0; });
    if (!member) continue;
    decides_branch[i] = true;
    for (const Location& write : e.writes)
      needed.erase(write);
    needed.insert(e.reads.begin(), e.reads.end());
  }
  const Location stack_pointer = stack_pointer_location(isa);
  std::map<Location, bool> written_by_loop;
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < executed.size(); ++i) {
    const Effects& e = effects[i];
    const bool reads_loop_value = std::any_of(e.reads.begin(), e.reads.end(), [&](auto& r) {
      return r != stack_pointer && written_by_loop[r];
    });
    if (executed[i].in_round && (decides_branch[i] || reads_loop_value)) ++count;
    for (const Location& write : e.writes)
      written_by_loop[write] = decides_branch[i];
  }
  return count;
}

}  // namespace

KernelAudit audit_program(const Program& program, int issue_width) {
  return audit_program(program, writers::encode(program), issue_width);
}

KernelAudit audit_program(const Program& program, const writers::EncodedProgram& encoded,
                          int issue_width) {
  KernelAudit kernel{program.kernel_name, program.isa, issue_width, {}, {}};
  for (std::size_t f = 0; f < program.win64_entries.size(); ++f) {
    const Function& entry = program.win64_entries[f];
    Win64EntryAudit audit{entry.symbol, 0, encoded.win64_entries.at(f).size, 0, {}};
    for (const Item& item : entry.items)
      audit.instructions += std::holds_alternative<Instruction>(item);
    const Win64Frame frame = win64_frame(win64_prologue(entry));
    audit.frame_bytes = static_cast<int>(frame.cfa_offset) - 8;  // below the return address
    for (const auto& [reg, offset] : frame.pushed)
      audit.saved_registers.push_back(amd64::register_name(reg));
    for (const Reg& reg : frame.saved_xmm)
      audit.saved_registers.push_back(amd64::register_name(reg));
    kernel.win64_entries.push_back(std::move(audit));
  }
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    EntryAudit entry;
    entry.symbol = program.functions[f].symbol;
    entry.shape = program.functions[f].shape;
    entry.code_bytes = encoded.functions.at(f).size;
    for (const Item& item : program.functions[f].items) {
      entry.static_instructions += std::holds_alternative<Instruction>(item);
    }
    const int initial_cfa = target(program.isa).call_pushes_bytes();  // the return address
    int cfa = initial_cfa;
    std::uint64_t rounds = 0;
    // Registers in a readable order: by register file, then number (r9 before r10).
    std::set<Location> used;
    std::vector<const Instruction*> first_round;
    std::vector<Executed> executed;
    walk_entry(program, f, [&](const Step& step) {
      if (const auto* marker = std::get_if<RoundMarker>(step.item)) {
        if (marker->begin) ++rounds;
        return;
      }
      if (const auto* cfi = std::get_if<Cfi>(step.item)) {
        cfa = static_cast<int>(cfa_after(*cfi, cfa));
        if (cfi->kind == CfiKind::offset) {
          entry.saved_registers.push_back(
              location_name(program.isa, register_location(program.isa, cfi->reg)));
        }
        entry.frame_bytes = std::max(entry.frame_bytes, cfa - initial_cfa);
        return;
      }
      const auto* instruction = std::get_if<Instruction>(step.item);
      if (instruction == nullptr) return;
      const Effects effects = effects_of(program.isa, *instruction);
      if (effects.is_conditional_branch && step.round_index < 0) {
        entry.executed_figures_known = false;
      }
      const InstructionMix mix = mix_of(effects);
      entry.per_permutation += mix;
      executed.push_back({instruction, step.round_index >= 0});
      if (step.round_index == 0) {
        entry.per_round += mix;
        first_round.push_back(instruction);
      }
      for (const auto* list : {&effects.reads, &effects.writes}) {
        for (const Location& location : *list) {
          if (!is_memory(location) && location != kFlags) used.insert(location);
        }
      }
    });
    for (const Location& location : used) {
      entry.registers_used.push_back(location_name(program.isa, location));
    }
    entry.round_figures_known = rounds > 0;
    entry.loop_overhead = loop_overhead(program.isa, executed);
    entry.round_chain_cycles = chain_cycles(program.isa, first_round);
    entry.latency_bound_cycles = static_cast<std::uint64_t>(entry.round_chain_cycles) * rounds;
    entry.issue_bound_cycles =
        static_cast<double>(entry.per_permutation.total) / static_cast<double>(issue_width);
    kernel.entries.push_back(std::move(entry));
  }
  return kernel;
}

}  // namespace spongegen::audit
