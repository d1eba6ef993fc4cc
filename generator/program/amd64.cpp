#include "program/amd64.hpp"

#include <array>
#include <iterator>
#include <string>

namespace spongegen::amd64 {

std::string_view register_name(Reg reg) {
  static constexpr std::array<std::string_view, 16> kNames = {
      "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
      "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15",
  };
  if (reg.cls != RegClass::gp64 || reg.index >= kNames.size()) {
    throw GenerationError("not an amd64 general-purpose register (class " +
                          std::to_string(static_cast<int>(reg.cls)) + ", index " +
                          std::to_string(reg.index) + ")");
  }
  return kNames[reg.index];
}

Reg sysv_argument(int index) {
  static constexpr Reg kArguments[] = {rdi, rsi, rdx, rcx, r8, r9};
  if (index < 0 || index >= static_cast<int>(std::size(kArguments))) {
    throw GenerationError("System V: argument " + std::to_string(index) +
                          " is not passed in a register");
  }
  return kArguments[index];
}

bool is_callee_saved_sysv(Reg reg) {
  return reg == rbx || reg == rbp || reg == rsp || reg == r12 || reg == r13 || reg == r14 ||
         reg == r15;
}

}  // namespace spongegen::amd64
