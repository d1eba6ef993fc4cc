#include "audit/invariants.hpp"

#include <map>
#include <optional>
#include <set>

#include "audit/semantics.hpp"
#include "program/amd64.hpp"
#include "program/arm64.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::audit {
namespace {

bool callee_saved(Isa isa, const Location& location) {
  if (isa == Isa::amd64) {
    const int index = std::stoi(location.substr(1));
    const Reg reg{RegClass::gp64, static_cast<std::uint8_t>(index)};
    return reg != amd64::rsp && amd64::is_callee_saved_sysv(reg);
  }
  if (location == "sp") return false;
  const int index = std::stoi(location.substr(1));
  if (location.front() == 'x') return index >= 19 && index <= 30;
  return index >= 8 && index <= 15;  // the low halves of v8-v15
}

bool is_stack_base(Isa isa, const Mem& mem) {
  return isa == Isa::amd64 ? mem.base == amd64::rsp && mem.addressing != Addressing::pc_relative
                           : mem.base.cls == RegClass::sp;
}

int access_bytes(const Instruction& instruction) {
  return instruction.mnemonic == Mnemonic::arm64_ldp || instruction.mnemonic == Mnemonic::arm64_stp
             ? 16
             : 8;
}

class EntryChecker {
 public:
  EntryChecker(const Program& program, std::size_t function, std::vector<std::string>& problems)
      : program_(program), symbol_(program.functions[function].symbol), problems_(problems) {
    const Isa isa = program.isa;
    // Public on entry: the arguments the entry's signature declares (pointers, whose
    // values are addresses, not data), the stack pointer and arm64's return address.
    const int arguments = static_cast<int>(program.functions[function].shape.parameters.size());
    for (int index = 0; index < arguments; ++index) {
      public_.insert(register_location(
          isa, isa == Isa::amd64 ? amd64::sysv_argument(index) : arm64::aapcs64_argument(index)));
    }
    if (isa == Isa::amd64) {
      public_.insert(register_location(isa, amd64::rsp));
    } else {
      for (Reg reg : {arm64::x(30), arm64::sp})
        public_.insert(register_location(isa, reg));
    }
    walk_entry(program, function, [&](const Step& step) {
      if (const auto* instruction = std::get_if<Instruction>(step.item)) check(*instruction);
    });
  }

 private:
  void report(const Instruction& instruction, const std::string& what) {
    problems_.push_back(symbol_ + ": '" + writers::format_instruction(program_, instruction) +
                        "': " + what);
  }

  void check(const Instruction& instruction) {
    const Isa isa = program_.isa;
    const Effects effects = effects_of(isa, instruction);
    const Location stack_pointer = isa == Isa::amd64 ? "r4" : "sp";

    // Secret independence.
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

    // The stack.
    const int sp_before = sp_offset_;
    for (const auto* list : {&effects.loads, &effects.stores}) {
      for (const Mem* mem : *list) {
        if (!is_stack_base(isa, *mem)) continue;
        const int base =
            mem->addressing == Addressing::pre_index ? sp_before + mem->disp : sp_before;
        const int disp = mem->addressing == Addressing::offset ? mem->disp : 0;
        const int start = base + disp, end = start + access_bytes(instruction);
        if (disp < 0 || end > 0) report(instruction, "stack access outside the entry's frame");
      }
    }
    if (instruction.mnemonic == Mnemonic::amd64_push) {
      sp_offset_ -= 8;
      slot_of_push(instruction);
    } else if (instruction.mnemonic == Mnemonic::amd64_pop) {
      restore(instruction, register_location(isa, std::get<Reg>(instruction.operands[0])),
              sp_offset_);
      sp_offset_ += 8;
    } else if ((instruction.mnemonic == Mnemonic::amd64_sub ||
                instruction.mnemonic == Mnemonic::amd64_add) &&
               std::holds_alternative<Reg>(instruction.operands[0]) &&
               std::get<Reg>(instruction.operands[0]) == amd64::rsp) {
      const auto value = static_cast<int>(std::get<Imm>(instruction.operands[1]).value);
      sp_offset_ += instruction.mnemonic == Mnemonic::amd64_sub ? -value : value;
    } else {
      sp_offset_ += effects.stack_adjust;
      if (isa == Isa::arm64) arm64_saves_and_restores(instruction, sp_before);
    }

    // The ABI: callee-saved registers written must have been saved.
    for (const Location& write : effects.writes) {
      if (write.rfind("m:", 0) == 0 || write == stack_pointer || write == kFlags) continue;
      if (callee_saved(isa, write) && !saved_.count(write) && !restoring_.count(write)) {
        report(instruction,
               "writes callee-saved " + location_name(isa, write) + " without saving it first");
      }
    }
    restoring_.clear();

    if (effects.is_return) {
      if (sp_offset_ != 0) report(instruction, "returns with the stack pointer moved");
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
    const std::string stack_prefix = "m:" + stack_pointer + ":";
    auto stack_slot = [&](const Location& location) -> std::optional<int> {
      if (location.rfind(stack_prefix, 0) != 0) return std::nullopt;
      return sp_before + std::stoi(location.substr(stack_prefix.size()));
    };
    bool reads_public = true;
    for (const Location& read : effects.reads) {
      if (read.rfind("m:label", 0) == 0) continue;
      if (const auto slot = stack_slot(read)) {
        if (!public_slots_.count(*slot)) reads_public = false;
        continue;
      }
      if (read.rfind("m:", 0) == 0 || !public_.count(read)) reads_public = false;
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
      if (write.rfind("m:", 0) == 0) continue;
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
      const bool constant_step =
          effects.stack_adjust != 0 || ((instruction.mnemonic == Mnemonic::amd64_sub ||
                                         instruction.mnemonic == Mnemonic::amd64_add) &&
                                        std::holds_alternative<Imm>(instruction.operands[1]));
      if (written_back_base || (write == stack_pointer && constant_step)) continue;
      if (reads_public) {
        public_.insert(write);
      } else {
        public_.erase(write);
      }
    }
  }

  bool is_callee_saved_save(const Instruction& instruction) const {
    const Isa isa = program_.isa;
    std::size_t registers = 0;
    if (instruction.mnemonic == Mnemonic::amd64_push ||
        instruction.mnemonic == Mnemonic::arm64_str) {
      registers = 1;
    } else if (instruction.mnemonic == Mnemonic::arm64_stp) {
      registers = 2;
    }
    if (registers == 0) return false;
    for (std::size_t i = 0; i < registers; ++i) {
      if (!callee_saved(isa, register_location(isa, std::get<Reg>(instruction.operands[i])))) {
        return false;
      }
    }
    return true;
  }

  void slot_of_push(const Instruction& instruction) {
    const Location reg = register_location(program_.isa, std::get<Reg>(instruction.operands[0]));
    if (callee_saved(program_.isa, reg)) saved_[reg] = sp_offset_;
  }

  void restore(const Instruction& instruction, const Location& reg, int slot) {
    if (!callee_saved(program_.isa, reg)) return;
    const auto saved = saved_.find(reg);
    if (saved == saved_.end() || saved->second != slot) {
      report(instruction,
             "restores " + location_name(program_.isa, reg) + " from a slot it was not saved to");
    }
    restored_.insert(reg);
    restoring_.insert(reg);
  }

  // stp/ldp/str/ldr of callee-saved registers to and from the stack.
  void arm64_saves_and_restores(const Instruction& instruction, int sp_before) {
    const bool store =
        instruction.mnemonic == Mnemonic::arm64_stp || instruction.mnemonic == Mnemonic::arm64_str;
    const bool load =
        instruction.mnemonic == Mnemonic::arm64_ldp || instruction.mnemonic == Mnemonic::arm64_ldr;
    if (!store && !load) return;
    const std::size_t registers =
        instruction.mnemonic == Mnemonic::arm64_stp || instruction.mnemonic == Mnemonic::arm64_ldp
            ? 2
            : 1;
    const Mem& mem = std::get<Mem>(instruction.operands[registers]);
    if (!is_stack_base(Isa::arm64, mem)) return;
    const int base = mem.addressing == Addressing::pre_index ? sp_before + mem.disp : sp_before;
    const int disp = mem.addressing == Addressing::offset ? mem.disp : 0;
    for (std::size_t i = 0; i < registers; ++i) {
      const Location reg = register_location(Isa::arm64, std::get<Reg>(instruction.operands[i]));
      const int slot = base + disp + 8 * static_cast<int>(i);
      if (store && callee_saved(Isa::arm64, reg)) saved_[reg] = slot;
      if (load) restore(instruction, reg, slot);
    }
  }

  const Program& program_;
  std::string symbol_;
  std::vector<std::string>& problems_;
  std::set<Location> public_;
  std::set<int> public_slots_;     // stack slots (offsets from the entry's sp) holding public data
  std::set<int> secret_slots_;     // stack slots holding data derived from the state or input
  std::map<Location, int> saved_;  // callee-saved register -> its stack slot
  std::set<Location> restored_;
  std::set<Location> restoring_;  // restored by the current instruction
  int sp_offset_ = 0;             // bytes below the entry's stack pointer, negative
};

}  // namespace

std::vector<std::string> check_invariants(const Program& program) {
  std::vector<std::string> problems;
  for (std::size_t f = 0; f < program.functions.size(); ++f)
    EntryChecker(program, f, problems);
  return problems;
}

}  // namespace spongegen::audit
