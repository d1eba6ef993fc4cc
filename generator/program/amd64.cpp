#include "program/amd64.hpp"

#include <array>

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

bool is_callee_saved_sysv(Reg reg) {
  return reg == rbx || reg == rbp || reg == rsp || reg == r12 || reg == r13 || reg == r14 ||
         reg == r15;
}

}  // namespace spongegen::amd64
