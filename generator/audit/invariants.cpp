#include "audit/invariants.hpp"

#include <map>
#include <optional>
#include <set>

#include "audit/register_residue.hpp"
#include "audit/semantics.hpp"
#include "isa/amd64/amd64.hpp"
#include "isa/amd64/win64_unwind.hpp"
#include "isa/target.hpp"
#include "program/cfi_rows.hpp"
#include "program/instruction_table.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::audit {
namespace {

bool callee_saved(Isa isa, const Location& location) {
  const auto* reg = std::get_if<RegisterLocation>(&location);
  return reg != nullptr && target(isa).is_callee_saved(*reg);
}

bool is_stack_base(Isa isa, const Mem& mem) {
  return target(isa).is_stack_base(mem);
}

// Bytes a memory access covers: the memory operand's size, else (arm64) the registers'.
int access_bytes(const Instruction& instruction, const Mem& mem) {
  if (mem.bytes != 0) return mem.bytes;
  const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
  const Reg* reg = std::get_if<Reg>(&instruction.operands.at(0));
  const int bytes = reg != nullptr ? register_bytes(*reg) : 8;
  return spec.has(kPair) ? 2 * bytes : bytes;
}

class EntryChecker {
 public:
  EntryChecker(const Program& program, std::size_t function, std::vector<std::string>& problems)
      : program_(program), symbol_(program.functions[function].symbol), problems_(problems) {
    const Isa isa = program.isa;
    // Public on entry: the arguments the entry's signature declares (pointers, whose
    // values are addresses, not data), the stack pointer and arm64's return address.
    // A parameter that is an array of pointers (`const uint8_t* const blocks[4]`) holds
    // addresses too: what is loaded through it, while it is unchanged, is public.
    const auto& parameters = program.functions[function].shape.parameters;
    for (std::size_t index = 0; index < parameters.size(); ++index) {
      const Location argument =
          register_location(isa, target(isa).argument_register(static_cast<int>(index)));
      public_.insert(argument);
      if (parameters[index].extent > 0 && parameters[index].c_type.find('*') != std::string::npos) {
        pointer_arrays_.insert(argument);
      }
    }
    for (const Reg& reg : target(isa).public_at_entry())
      public_.insert(register_location(isa, reg));
    walk_entry(program, function, [&](const Step& step) {
      if (const auto* instruction = std::get_if<Instruction>(step.item)) check(*instruction);
    });
  }

 private:
  void report(const Instruction& instruction, const std::string& what) {
    problems_.push_back(symbol_ + ": '" + writers::format_instruction(program_, instruction) +
                        "': " + what);
  }

  // One instruction through each check, in this order: the taint and the stack depth the
  // checks read are those before the instruction.
  void check(const Instruction& instruction) {
    const Effects effects = effects_of(program_.isa, instruction);
    const int sp_before = sp_offset_;
    check_secret_independence(instruction, effects);
    check_stack(instruction, effects, sp_before);
    check_callee_saved(instruction, effects);
    check_vector_upper_halves(instruction);
    if (effects.is_return) check_return(instruction);
    propagate_taint(instruction, effects, sp_before);
  }

  // No memory address and no branch condition depends on loaded (secret) data.
  void check_secret_independence(const Instruction& instruction, const Effects& effects) {
    const Isa isa = program_.isa;
    for (const auto* list : {&effects.loads, &effects.stores}) {
      for (const Mem* mem : *list) {
        if (mem->addressing == Addressing::pc_relative) continue;
        if (!public_.count(register_location(isa, mem->base))) {
          report(instruction, "its address depends on loaded data");
        }
      }
    }
    if (effects.is_conditional_branch) {
      for (const Location& read : effects.reads) {
        if (!public_.count(read)) report(instruction, "its condition depends on loaded data");
      }
    }
  }

  // Stack accesses stay inside the entry's frame; tracks the stack depth and the saves.
  void check_stack(const Instruction& instruction, const Effects& effects, int sp_before) {
    const Isa isa = program_.isa;
    const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
    for (const auto* list : {&effects.loads, &effects.stores}) {
      for (const Mem* mem : *list) {
        if (!is_stack_base(isa, *mem)) continue;
        const int base =
            mem->addressing == Addressing::pre_index ? sp_before + mem->disp : sp_before;
        const int disp = mem->addressing == Addressing::offset ? mem->disp : 0;
        const int start = base + disp, end = start + access_bytes(instruction, *mem);
        if (disp < 0 || end > 0) report(instruction, "stack access outside the entry's frame");
      }
    }
    if (spec.has(kPush)) {
      sp_offset_ -= 8;
      slot_of_push(instruction);
    } else if (spec.has(kPop)) {
      restore(register_location(isa, std::get<Reg>(instruction.operands[0])), sp_offset_);
      sp_offset_ += 8;
    } else {
      sp_offset_ += effects.stack_adjust;
      saves_and_restores(instruction, effects, sp_before);
    }
  }

  // The ABI: callee-saved registers written must have been saved. Any write other than
  // the restore itself means the register no longer holds the caller's value: a later
  // store of it is not a save, and it must be restored again before the return.
  void check_callee_saved(const Instruction& instruction, const Effects& effects) {
    const Isa isa = program_.isa;
    const Location stack_pointer = stack_pointer_location(isa);
    for (const Location& write : effects.writes) {
      if (is_memory(write) || write == stack_pointer || write == kFlags) continue;
      if (!callee_saved(isa, write) || restoring_.count(write)) continue;
      if (!saved_.count(write)) {
        report(instruction,
               "writes callee-saved " + location_name(isa, write) + " without saving it first");
      }
      clobbered_.insert(write);
      restored_.erase(write);
    }
    restoring_.clear();
  }

  // AVX: code after the return may be SSE code, which pays a state transition (or, on
  // some cores, a false dependency) while the upper halves of ymm/zmm registers are dirty.
  void check_vector_upper_halves(const Instruction& instruction) {
    const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
    if (spec.has(kClearsVectorRegisters)) dirty_upper_halves_ = false;
    for (std::size_t i = 0; i < instruction.operands.size(); ++i) {
      const Reg* reg = std::get_if<Reg>(&instruction.operands[i]);
      const Access access = spec.operands[i].access;
      if (reg != nullptr && (reg->cls == RegClass::ymm || reg->cls == RegClass::zmm) &&
          (access == Access::write || access == Access::read_write)) {
        dirty_upper_halves_ = true;
      }
    }
  }

  // At a return: the stack pointer back, clean upper halves, no state-derived data left in
  // the released frame, every saved register restored.
  void check_return(const Instruction& instruction) {
    const Isa isa = program_.isa;
    if (sp_offset_ != 0) report(instruction, "returns with the stack pointer moved");
    if (dirty_upper_halves_) {
      report(instruction,
             "returns with dirty upper halves of ymm/zmm registers (no vzeroall "
             "or vzeroupper since the last write)");
    }
    if (!secret_slots_.empty()) {
      std::string offsets;
      for (const int slot : secret_slots_)
        offsets.append(offsets.empty() ? "" : " ").append(std::to_string(slot));
      report(instruction, "returns leaving state-derived data in its released frame, at " +
                              std::to_string(secret_slots_.size()) +
                              " slots (bytes from the entry's stack pointer): " + offsets);
    }
    for (const auto& [location, slot] : saved_) {
      if (!restored_.count(location)) {
        report(instruction, "returns without restoring " + location_name(isa, location));
      }
    }
  }

  // Taint: a written register (or stack slot) is public if the instruction reads only
  // public registers and loads nothing but constants and public stack slots (where a
  // public value was stored, such as a spilled pointer); a pointer written back by
  // pre/post-indexing stays as public as it was.
  void propagate_taint(const Instruction& instruction, const Effects& effects, int sp_before) {
    const Isa isa = program_.isa;
    const Location stack_pointer = stack_pointer_location(isa);
    auto stack_slot = [&](const Location& location) -> std::optional<int> {
      const auto* memory = std::get_if<MemoryLocation>(&location);
      if (memory == nullptr || memory->label != kNoLabel ||
          Location(memory->base) != stack_pointer) {
        return std::nullopt;
      }
      return sp_before + memory->offset;
    };
    bool reads_public = true;
    for (const Location& read : effects.writes_constant ? std::vector<Location>{} : effects.reads) {
      if (const auto* memory = std::get_if<MemoryLocation>(&read);
          memory != nullptr && memory->label != kNoLabel) {
        continue;  // a constant table
      }
      if (const auto slot = stack_slot(read)) {
        if (!public_slots_.count(*slot)) reads_public = false;
        continue;
      }
      if (const auto* memory = std::get_if<MemoryLocation>(&read);
          memory != nullptr && pointer_arrays_.count(Location(memory->base))) {
        continue;  // an element of a pointer-array argument
      }
      if (is_memory(read) || !public_.count(read)) reads_public = false;
    }
    // A save of a callee-saved register holds the caller's value, not the state's.
    const bool saves_caller_register = is_callee_saved_save(instruction);
    for (const Location& write : effects.writes) {
      if (const auto slot = stack_slot(write)) {
        if (reads_public) {
          public_slots_.insert(*slot);
          secret_slots_.erase(*slot);
        } else {
          public_slots_.erase(*slot);
          if (!saves_caller_register) secret_slots_.insert(*slot);
        }
        continue;
      }
      if (is_memory(write)) continue;
      pointer_arrays_.erase(write);
      bool written_back_base = false;
      for (const auto* list : {&effects.loads, &effects.stores}) {
        for (const Mem* mem : *list) {
          if (mem->addressing != Addressing::pc_relative &&
              register_location(isa, mem->base) == write) {
            written_back_base = true;
          }
        }
      }
      // The stack pointer moved by a constant (push, pop, sub/add of an immediate, or
      // pre/post-indexing) is as public as it was.
      const bool constant_step = effects.stack_adjust != 0;
      if (written_back_base || (write == stack_pointer && constant_step)) continue;
      if (reads_public) {
        public_.insert(write);
      } else {
        public_.erase(write);
      }
    }
  }

  // The registers a push, or a store of registers to memory (str, stp), saves; 0 for any
  // other instruction.
  static std::size_t stored_registers(const Instruction& instruction, const Effects& effects) {
    const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
    if (spec.has(kPush)) return 1;
    if (effects.stores.empty() || spec.cls != InstructionClass::other) return 0;
    std::size_t registers = 0;
    while (registers < instruction.operands.size() &&
           std::holds_alternative<Reg>(instruction.operands[registers]) &&
           spec.operands[registers].access == Access::read) {
      ++registers;
    }
    return registers;
  }

  // A callee-saved register that still holds its caller's value.
  bool holds_caller_value(const Location& reg) const {
    return callee_saved(program_.isa, reg) && !clobbered_.count(reg);
  }

  bool is_callee_saved_save(const Instruction& instruction) const {
    const Isa isa = program_.isa;
    const std::size_t registers = stored_registers(instruction, effects_of(isa, instruction));
    if (registers == 0) return false;
    for (std::size_t i = 0; i < registers; ++i) {
      if (!holds_caller_value(register_location(isa, std::get<Reg>(instruction.operands[i])))) {
        return false;
      }
    }
    return true;
  }

  void slot_of_push(const Instruction& instruction) {
    const Location reg = register_location(program_.isa, std::get<Reg>(instruction.operands[0]));
    if (holds_caller_value(reg)) saved_[reg] = sp_offset_;
  }

  // A load of a saved register from its own slot restores it. A load from any other slot
  // is an ordinary write (a kernel may use a saved register as a temporary and spill to
  // the frame); restoring from a wrong slot shows at the return as a register not restored.
  void restore(const Location& reg, int slot) {
    if (!callee_saved(program_.isa, reg)) return;
    const auto saved = saved_.find(reg);
    if (saved == saved_.end() || saved->second != slot) return;
    restored_.insert(reg);
    restoring_.insert(reg);
  }

  // Stores of callee-saved registers to the stack (str, stp) and loads back (ldr, ldp):
  // the registers are the operands before the one memory operand, each its own size.
  void saves_and_restores(const Instruction& instruction, const Effects& effects, int sp_before) {
    const bool store = !effects.stores.empty(), load = !effects.loads.empty();
    if (store == load) return;  // neither, or a read-modify-write (no save)
    const Mem& mem = *(store ? effects.stores.front() : effects.loads.front());
    if (!is_stack_base(program_.isa, mem)) return;
    const int base = mem.addressing == Addressing::pre_index ? sp_before + mem.disp : sp_before;
    const int disp = mem.addressing == Addressing::offset ? mem.disp : 0;
    int slot = base + disp;
    for (const Operand& operand : instruction.operands) {
      const Reg* reg = std::get_if<Reg>(&operand);
      if (reg == nullptr) break;
      const Location location = register_location(program_.isa, *reg);
      if (store && holds_caller_value(location)) saved_[location] = slot;
      if (load) restore(location, slot);
      slot += register_bytes(*reg);
    }
  }

  const Program& program_;
  std::string symbol_;
  std::vector<std::string>& problems_;
  std::set<Location> public_;
  std::set<Location> pointer_arrays_;  // unchanged argument registers of pointer arrays
  std::set<int> public_slots_;     // stack slots (offsets from the entry's sp) holding public data
  std::set<int> secret_slots_;     // stack slots holding data derived from the state or input
  std::map<Location, int> saved_;  // callee-saved register -> its stack slot
  std::set<Location> restored_;
  std::set<Location> restoring_;     // restored by the current instruction
  std::set<Location> clobbered_;     // callee-saved registers written since their save
  int sp_offset_ = 0;                // bytes below the entry's stack pointer, negative
  bool dirty_upper_halves_ = false;  // a ymm/zmm register written since the last vzeroall
};

// The pushes and CFA offset the CFI records of a prologue describe (CFI saves no xmm
// register and does not tell an allocation from a push), to compare with the unwind codes'.
Win64Frame frame_of_cfi(const Function& function, std::size_t end_item) {
  Win64Frame frame;
  const CfiRows rows = cfi_rows(function.items, frame.cfa_offset);
  frame.cfa_offset = rows.cfa.at(end_item);
  for (const SavedRule& rule : rows.rule_sets[rows.saved[end_item]])
    frame.pushed.emplace_back(rule.reg, rule.offset);
  return frame;
}

bool moves_stack_pointer(const Instruction& instruction) {
  const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
  if (spec.has(kPush) || spec.has(kPop)) return true;
  if (!spec.has(kAddsImmediateToStack) && !spec.has(kSubtractsImmediateFromStack)) return false;
  const auto* reg = std::get_if<Reg>(&instruction.operands.at(0));
  return reg != nullptr && *reg == amd64::rsp;
}

// The Windows x64 unwind data of one amd64 function (a System V function, or a Windows entry
// when `windows_entry`): its codes describe the frame its CFI describes, and each return is
// the epilogue the Windows unwinder recognises by its bytes (add rsp, N; the pops in the
// reverse order of the pushes; ret), with no other stack pointer move outside the prologue.
void check_win64_unwind(const Program& program, const Function& function, bool windows_entry,
                        std::vector<std::string>& problems) {
  const std::string where = (windows_entry ? "Windows entry " : "") + function.symbol;
  const Win64Prologue prologue = win64_prologue(function);
  const Win64Frame frame = win64_frame(prologue);
  if (!windows_entry) {
    const Win64Frame cfi = frame_of_cfi(function, prologue.end_item);
    if (cfi.pushed != frame.pushed || cfi.cfa_offset != frame.cfa_offset) {
      problems.push_back(where +
                         ": the Windows unwind codes and the CFI describe different frames");
    }
  }
  std::vector<Instruction> epilogue;
  const std::int64_t allocated = frame.allocated;
  if (allocated != 0) epilogue.push_back({Mnemonic::amd64_add, {amd64::rsp, Imm{allocated}}, {}});
  for (auto it = frame.pushed.rbegin(); it != frame.pushed.rend(); ++it)
    epilogue.push_back({Mnemonic::amd64_pop, {it->first}, {}});
  std::vector<std::size_t> instructions;  // item indices of the instructions, in order
  for (std::size_t i = 0; i < function.items.size(); ++i) {
    if (std::holds_alternative<Instruction>(function.items[i])) instructions.push_back(i);
  }
  std::set<std::size_t> in_epilogue;
  for (std::size_t k = 0; k < instructions.size(); ++k) {
    const auto& ret = std::get<Instruction>(function.items[instructions[k]]);
    if (ret.mnemonic != Mnemonic::amd64_ret) continue;
    // The instructions where the epilogue should be count as it (reported once, here).
    bool matches = k >= epilogue.size();
    for (std::size_t j = 0; matches && j < epilogue.size(); ++j)
      in_epilogue.insert(instructions[k - epilogue.size() + j]);
    for (std::size_t j = 0; matches && j < epilogue.size(); ++j) {
      const auto& actual =
          std::get<Instruction>(function.items[instructions[k - epilogue.size() + j]]);
      matches = actual.mnemonic == epilogue[j].mnemonic && actual.operands == epilogue[j].operands;
    }
    if (!matches) {
      problems.push_back(where + ": a ret not preceded by the epilogue Windows unwinds (add rsp, " +
                         std::to_string(allocated) + " and the pops in reverse push order)");
    }
  }
  for (const std::size_t item : instructions) {
    if (item < prologue.end_item || in_epilogue.count(item) != 0) continue;
    const auto& instruction = std::get<Instruction>(function.items[item]);
    if (moves_stack_pointer(instruction)) {
      problems.push_back(where + ": '" + writers::format_instruction(program, instruction) +
                         "' moves the stack pointer outside the prologue and the epilogues");
    }
  }
}

// A function that jumps into another's code (an absorb entry into the permute entry's rounds)
// runs there on its own frame, which the Windows unwinder reads from the other function's
// codes: the two prologues must build the same frame.
void check_shared_frames(const Program& program, std::vector<std::string>& problems) {
  std::map<LabelId, std::size_t> owner;
  std::vector<Win64Frame> frames;
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    frames.push_back(win64_frame(win64_prologue(program.functions[f])));
    for (const Item& item : program.functions[f].items) {
      if (const auto* label = std::get_if<LabelDef>(&item)) owner[label->id] = f;
    }
  }
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    for (const Item& item : program.functions[f].items) {
      const auto* instruction = std::get_if<Instruction>(&item);
      if (instruction == nullptr || instruction->operands.empty()) continue;
      const auto* target = std::get_if<LabelRef>(&instruction->operands[0]);
      if (target == nullptr || !owner.contains(target->id) || owner[target->id] == f) continue;
      const std::size_t other = owner[target->id];
      if (frames[f] != frames[other]) {
        problems.push_back(program.functions[f].symbol + " jumps into " +
                           program.functions[other].symbol +
                           ", whose Windows unwind codes describe another frame");
      }
    }
  }
}

// No lane survives in a register: at every return of every entry, each caller-saved register
// the call wrote was last written by a zeroing idiom (kernels/register_clearing.hpp).
void check_register_residue(const Program& program, std::size_t entry,
                            std::vector<std::string>& problems) {
  const ReturnResidue residue = register_residue(program, entry);
  const Function& at = program.functions[residue.function];
  for (const RegisterLocation& reg : residue.registers) {
    problems.push_back(
        program.functions[entry].symbol + ": returns (" + at.symbol + ", '" +
        writers::format_instruction(program, std::get<Instruction>(at.items[residue.item])) +
        "') with caller-saved " + location_name(program.isa, reg) +
        " holding what it computed: its last write is no zeroing idiom");
  }
}

}  // namespace

std::vector<std::string> check_invariants(const Program& program) {
  std::vector<std::string> problems;
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    EntryChecker(program, f, problems);
    check_register_residue(program, f, problems);
  }
  if (target(program.isa).has_win64_entries()) {
    for (const Function& function : program.functions)
      check_win64_unwind(program, function, false, problems);
    for (const Function& entry : program.win64_entries)
      check_win64_unwind(program, entry, true, problems);
    check_shared_frames(program, problems);
  }
  return problems;
}

}  // namespace spongegen::audit
