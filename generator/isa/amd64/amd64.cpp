#include "isa/amd64/amd64.hpp"

#include <array>
#include <iterator>
#include <string>

namespace spongegen::amd64 {

std::string register_name(Reg reg) {
  static constexpr std::array<std::string_view, 16> kNames = {
      "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
      "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15",
  };
  static constexpr std::array<std::string_view, 8> kNames32 = {"eax", "ecx", "edx", "ebx",
                                                               "esp", "ebp", "esi", "edi"};
  const std::string index = std::to_string(reg.index);
  switch (reg.cls) {
    case RegClass::gp64:
      if (reg.index < kNames.size()) return std::string(kNames[reg.index]);
      break;
    case RegClass::gp32:
      if (reg.index < kNames32.size()) return std::string(kNames32[reg.index]);
      if (reg.index < 16) return "r" + index + "d";
      break;
    case RegClass::xmm:
      if (reg.index < 32) return "xmm" + index;
      break;
    case RegClass::ymm:
      if (reg.index < 32) return "ymm" + index;
      break;
    case RegClass::zmm:
      if (reg.index < 32) return "zmm" + index;
      break;
    default:
      break;
  }
  throw GenerationError("not an amd64 register (class " +
                        std::to_string(static_cast<int>(reg.cls)) + ", index " + index + ")");
}

std::optional<Reg> parse_register(std::string_view name) {
  for (RegClass cls :
       {RegClass::gp64, RegClass::gp32, RegClass::xmm, RegClass::ymm, RegClass::zmm}) {
    const int count = cls == RegClass::gp64 || cls == RegClass::gp32 ? 16 : 32;
    for (int index = 0; index < count; ++index) {
      const Reg candidate{cls, static_cast<std::uint8_t>(index)};
      if (register_name(candidate) == name) return candidate;
    }
  }
  return std::nullopt;
}

std::string_view memory_size_keyword(int bytes) {
  switch (bytes) {
    case 1:
      return "byte ptr";
    case 4:
      return "dword ptr";
    case 8:
      return "qword ptr";
    case 16:
      return "xmmword ptr";
    case 32:
      return "ymmword ptr";
    case 64:
      return "zmmword ptr";
  }
  throw GenerationError("amd64: no memory operand of " + std::to_string(bytes) + " bytes");
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
