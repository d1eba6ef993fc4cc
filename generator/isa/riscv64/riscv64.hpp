// riscv64 registers, the LP64 ABI's facts and the typed instruction emitter the riscv64
// kernel builders use.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "program/program.hpp"

namespace spongegen::riscv64 {

// x0..x31 by number; the ABI's names below.
constexpr Reg x(int index) {
  return Reg{RegClass::gp64, static_cast<std::uint8_t>(index)};
}
inline constexpr Reg zero = x(0);  // reads as 0; writes are discarded
inline constexpr Reg ra = x(1);    // the return address
inline constexpr Reg sp = x(2);
// v0..v31, the vector registers (V, RVV 1.0).
constexpr Reg v(int index) {
  return Reg{RegClass::rvv, static_cast<std::uint8_t>(index)};
}
// vtype e64, m1, ta, ma: 64-bit elements, one register a group, tail and mask agnostic.
inline constexpr std::int64_t kVtypeE64M1TaMa = 0xd8;
// a0..a7: the arguments (x10..x17).
constexpr Reg a(int index) {
  return x(10 + index);
}

std::string register_name(Reg reg);
// The register whose name is `name` (the ABI's "a0", "s11", "t6", or "x10"), or nothing.
std::optional<Reg> parse_register(std::string_view name);

// LP64: where the index-th integer or pointer argument arrives (a0-a7).
Reg lp64_argument(int index);

// LP64: sp, s0-s11 (x8, x9, x18-x27) are callee-saved; gp (x3) and tp (x4) belong to the
// program (the global and thread pointers): a kernel never writes them, as a signal handler
// may use them while it runs.
bool is_callee_saved(Reg reg);
bool is_reserved(Reg reg);

// [base + disp], printed disp(base).
inline Mem at(Reg base, std::int32_t disp = 0) {
  return Mem{base, disp};
}

class Emitter : public FunctionBuilder {
 public:
  using FunctionBuilder::FunctionBuilder;

  void addi(Reg d, Reg a, std::int64_t imm) { emit(Mnemonic::riscv64_addi, {d, a, Imm{imm}}); }
  void and_(Reg d, Reg a, Reg b) { emit(Mnemonic::riscv64_and, {d, a, b}); }
  // d = a & ~b (Zbb)
  void andn(Reg d, Reg a, Reg b) { emit(Mnemonic::riscv64_andn, {d, a, b}); }
  // to `label` if a == 0, if a != 0
  void beqz(Reg a, LabelId label) { emit(Mnemonic::riscv64_beqz, {a, LabelRef{label}}); }
  void bnez(Reg a, LabelId label) { emit(Mnemonic::riscv64_bnez, {a, LabelRef{label}}); }
  void j(LabelId label) { emit(Mnemonic::riscv64_j, {LabelRef{label}}); }
  void ld(Reg d, Mem mem) { emit(Mnemonic::riscv64_ld, {d, mem}); }
  // d = imm20 << 12, sign-extended from bit 31
  void lui(Reg d, std::int64_t imm20) { emit(Mnemonic::riscv64_lui, {d, Imm{imm20}}); }
  void mv(Reg d, Reg a) { emit(Mnemonic::riscv64_mv, {d, a}); }
  void not_(Reg d, Reg a) { emit(Mnemonic::riscv64_not, {d, a}); }
  void or_(Reg d, Reg a, Reg b) { emit(Mnemonic::riscv64_or, {d, a, b}); }
  // d = a | ~b (Zbb)
  void orn(Reg d, Reg a, Reg b) { emit(Mnemonic::riscv64_orn, {d, a, b}); }
  void ret() { emit(Mnemonic::riscv64_ret, {}); }
  // d = a rotated right by `amount` (Zbb)
  void rori(Reg d, Reg a, int amount) { emit(Mnemonic::riscv64_rori, {d, a, Imm{amount}}); }
  void sd(Reg s, Mem mem) { emit(Mnemonic::riscv64_sd, {s, mem}); }
  void slli(Reg d, Reg a, int amount) { emit(Mnemonic::riscv64_slli, {d, a, Imm{amount}}); }
  void srli(Reg d, Reg a, int amount) { emit(Mnemonic::riscv64_srli, {d, a, Imm{amount}}); }
  void xor_(Reg d, Reg a, Reg b) { emit(Mnemonic::riscv64_xor, {d, a, b}); }
  void xori(Reg d, Reg a, std::int64_t imm) { emit(Mnemonic::riscv64_xori, {d, a, Imm{imm}}); }
  // Traps (an illegal instruction): where an entry stops when its precondition fails.
  void unimp() { emit(Mnemonic::riscv64_unimp, {}); }

  // V (RVV 1.0). d = vl = min(avl, VLMAX) for the element width and grouping `vtype`.
  void vsetivli(Reg d, int avl, std::int64_t vtype) {
    emit(Mnemonic::riscv64_vsetivli, {d, Imm{avl}, Imm{vtype}});
  }
  // vl 64-bit elements from or to at(base) (a vector load or store has no displacement).
  void vle64(Reg vd, Mem mem) { emit(Mnemonic::riscv64_vle64_v, {vd, mem}); }
  void vse64(Reg vs, Mem mem) { emit(Mnemonic::riscv64_vse64_v, {vs, mem}); }
  void vxor(Reg d, Reg a, Reg b) { emit(Mnemonic::riscv64_vxor_vv, {d, a, b}); }
  void vand(Reg d, Reg a, Reg b) { emit(Mnemonic::riscv64_vand_vv, {d, a, b}); }
  void vor(Reg d, Reg a, Reg b) { emit(Mnemonic::riscv64_vor_vv, {d, a, b}); }
  void vnot(Reg d, Reg a) { emit(Mnemonic::riscv64_vnot_v, {d, a}); }
  // Each element shifted by `amount` (0-31), or by the low 6 bits of the scalar `amount`.
  void vsll(Reg d, Reg a, int amount) { emit(Mnemonic::riscv64_vsll_vi, {d, a, Imm{amount}}); }
  void vsrl(Reg d, Reg a, int amount) { emit(Mnemonic::riscv64_vsrl_vi, {d, a, Imm{amount}}); }
  void vsll(Reg d, Reg a, Reg amount) { emit(Mnemonic::riscv64_vsll_vx, {d, a, amount}); }
  void vsrl(Reg d, Reg a, Reg amount) { emit(Mnemonic::riscv64_vsrl_vx, {d, a, amount}); }
  // Each element XORed with the scalar `s`.
  void vxor(Reg d, Reg a, Reg s, bool) { emit(Mnemonic::riscv64_vxor_vx, {d, a, s}); }
  // d[i] = a[i + 1] for i < vl - 1, d[vl - 1] = s.
  void vslide1down(Reg d, Reg a, Reg s) { emit(Mnemonic::riscv64_vslide1down_vx, {d, a, s}); }
};

}  // namespace spongegen::riscv64
