#include "isa/arm64/arm64.hpp"

namespace spongegen::arm64 {

std::string register_name(Reg reg) {
  const std::string index = std::to_string(reg.index);
  switch (reg.cls) {
    case RegClass::gp64:
      if (reg.index <= 30) return "x" + index;
      break;
    case RegClass::gp32:
      if (reg.index <= 30) return "w" + index;
      break;
    case RegClass::sp:
      return "sp";
    case RegClass::fp64:
      if (reg.index <= 31) return "d" + index;
      break;
    case RegClass::fp128:
      if (reg.index <= 31) return "q" + index;
      break;
    case RegClass::vec:
      if (reg.index <= 31 && reg.arrangement == Arrangement::b16) return "v" + index + ".16b";
      if (reg.index <= 31 && reg.arrangement == Arrangement::d2) return "v" + index + ".2d";
      break;
    default:
      break;
  }
  throw GenerationError("not an arm64 register (class " +
                        std::to_string(static_cast<int>(reg.cls)) + ", index " + index + ")");
}

std::optional<Reg> parse_register(std::string_view name) {
  if (name == "sp") return sp;
  for (int index = 0; index <= 31; ++index) {
    for (Reg candidate : {x(index), w(index), d(index), q(index), v16b(index), v2d(index)}) {
      const bool simd = candidate.cls == RegClass::fp64 || candidate.cls == RegClass::fp128 ||
                        candidate.cls == RegClass::vec;
      if (!simd && index > 30) {
        continue;  // x31 and w31 are not names: sp and the zero register are
      }
      if (register_name(candidate) == name) return candidate;
    }
  }
  return std::nullopt;
}

Reg aapcs64_argument(int index) {
  if (index < 0 || index > 7) {
    throw GenerationError("AAPCS64: argument " + std::to_string(index) +
                          " is not passed in a register");
  }
  return x(index);
}

bool is_callee_saved(Reg reg) {
  if (reg.cls == RegClass::gp64 || reg.cls == RegClass::gp32) {
    return reg.index >= 19 && reg.index <= 30;
  }
  if (reg.cls == RegClass::sp) return true;
  return reg.index >= 8 && reg.index <= 15;  // d8-d15, whichever view
}

}  // namespace spongegen::arm64
