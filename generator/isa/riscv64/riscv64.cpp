#include "isa/riscv64/riscv64.hpp"

#include <fmt/format.h>

#include <array>

namespace spongegen::riscv64 {
namespace {

constexpr std::array<std::string_view, 32> kNames = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

}  // namespace

std::string register_name(Reg reg) {
  if (reg.cls == RegClass::gp64 && reg.index < kNames.size()) {
    return std::string(kNames[reg.index]);
  }
  if (reg.cls == RegClass::rvv && reg.index < 32) return fmt::format("v{}", reg.index);
  throw GenerationError("not a riscv64 register (class " +
                        std::to_string(static_cast<int>(reg.cls)) + ", index " +
                        std::to_string(reg.index) + ")");
}

std::optional<Reg> parse_register(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return x(static_cast<int>(i));
  }
  if (name == "fp") return x(8);
  if (name.size() >= 2 && name.size() <= 3 && (name[0] == 'x' || name[0] == 'v')) {
    int index = 0;
    for (char c : name.substr(1)) {
      if (c < '0' || c > '9') return std::nullopt;
      index = index * 10 + (c - '0');
    }
    if (index < 32 && (name.size() == 2 || name[1] != '0'))
      return name[0] == 'x' ? x(index) : v(index);
  }
  return std::nullopt;
}

Reg lp64_argument(int index) {
  if (index < 0 || index > 7) throw GenerationError("LP64 passes 8 arguments in registers");
  return a(index);
}

bool is_callee_saved(Reg reg) {
  if (reg.cls != RegClass::gp64) return false;
  return reg.index == 2 || reg.index == 8 || reg.index == 9 || (reg.index >= 18 && reg.index <= 27);
}

bool is_reserved(Reg reg) {
  return reg.cls == RegClass::gp64 && (reg.index == 3 || reg.index == 4);
}

}  // namespace spongegen::riscv64
