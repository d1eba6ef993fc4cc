// arm64 operands and the typed instruction emitter the arm64 kernel builders use.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "program/program.hpp"

namespace spongegen::arm64 {

constexpr Reg x(int index) {
  return Reg{RegClass::gp64, static_cast<std::uint8_t>(index)};
}
constexpr Reg d(int index) {
  return Reg{RegClass::fp64, static_cast<std::uint8_t>(index)};
}
// The whole 128-bit SIMD register, as ldr, str, ldp and stp name it.
constexpr Reg q(int index) {
  return Reg{RegClass::fp128, static_cast<std::uint8_t>(index)};
}
inline constexpr Reg sp{RegClass::sp, 31};

// A SIMD register seen as 16 bytes (bitwise operations) or as two 64-bit lanes.
constexpr Reg v16b(int index) {
  return Reg{RegClass::vec, static_cast<std::uint8_t>(index), Arrangement::b16};
}
constexpr Reg v2d(int index) {
  return Reg{RegClass::vec, static_cast<std::uint8_t>(index), Arrangement::d2};
}
constexpr Reg w(int index) {
  return Reg{RegClass::gp32, static_cast<std::uint8_t>(index)};
}

// A general-purpose register rotated right (or shifted) by `amount` before use.
constexpr ShiftedReg ror(Reg reg, int amount) {
  return ShiftedReg{reg, Shift::ror, static_cast<std::uint8_t>(amount)};
}
constexpr ShiftedReg lsl(Reg reg, int amount) {
  return ShiftedReg{reg, Shift::lsl, static_cast<std::uint8_t>(amount)};
}

std::string register_name(Reg reg);
// The register whose name is `name` ("x9", "d8", "v3.16b", "sp"), or nothing.
std::optional<Reg> parse_register(std::string_view name);

// AAPCS64: where the index-th integer or pointer argument arrives (x0-x7).
Reg aapcs64_argument(int index);

// AAPCS64: x19-x28 (and fp, lr) and the low 64 bits of v8-v15 are callee-saved.
bool is_callee_saved(Reg reg);

inline Mem at(Reg base, std::int32_t disp = 0) {
  return Mem{base, disp};
}
inline Mem pre_index(Reg base, std::int32_t disp) {
  return Mem{base, disp, Addressing::pre_index};
}
inline Mem post_index(Reg base, std::int32_t disp) {
  return Mem{base, disp, Addressing::post_index};
}

class Emitter : public FunctionBuilder {
 public:
  using FunctionBuilder::FunctionBuilder;

  // BTI landing pad for indirect calls: "bti c" is hint #34, spelled as a hint so that any
  // assembler accepts it whatever -march it was given; it is a NOP before ARMv8.5.
  void bti_c() {
    emit(Mnemonic::arm64_hint, {Imm{34}});
    annotate("bti c");
  }
  void ret() { emit(Mnemonic::arm64_ret, {}); }
  void b(LabelId target) { emit(Mnemonic::arm64_b, {LabelRef{target}}); }
  void cbnz(Reg reg, LabelId target) { emit(Mnemonic::arm64_cbnz, {reg, LabelRef{target}}); }
  void adr(Reg dst, LabelId label) { emit(Mnemonic::arm64_adr, {dst, LabelRef{label}}); }
  void mov(Reg dst, std::int64_t value) { emit(Mnemonic::arm64_mov, {dst, Imm{value}}); }
  void add(Reg dst, Reg src, std::int64_t value) {
    emit(Mnemonic::arm64_add, {dst, src, Imm{value}});
  }
  void sub(Reg dst, Reg src, std::int64_t value) {
    emit(Mnemonic::arm64_sub, {dst, src, Imm{value}});
  }
  void ldp(Reg first, Reg second, Mem address) {
    emit(Mnemonic::arm64_ldp, {first, second, address});
  }
  void stp(Reg first, Reg second, Mem address) {
    emit(Mnemonic::arm64_stp, {first, second, address});
  }
  void ldr(Reg dst, Mem address) { emit(Mnemonic::arm64_ldr, {dst, address}); }
  void str(Reg src, Mem address) { emit(Mnemonic::arm64_str, {src, address}); }
  // Loads one 64-bit value into both lanes of `dst` (a .2d register).
  void ld1r(Reg dst, Mem address) { emit(Mnemonic::arm64_ld1r, {dst, address}); }

  // Return address signing with the A key and sp as the modifier: PACIASP is hint #25 and
  // AUTIASP hint #29, NOPs before ARMv8.3, so any assembler and any core accept them.
  void paciasp() {
    emit(Mnemonic::arm64_hint, {Imm{25}});
    annotate("paciasp");
  }
  void autiasp() {
    emit(Mnemonic::arm64_hint, {Imm{29}});
    annotate("autiasp");
  }
  void mov(Reg dst, Reg src) { emit(Mnemonic::arm64_mov, {dst, src}); }
  void sub(Reg dst, Reg a, Reg b) { emit(Mnemonic::arm64_sub, {dst, a, b}); }

  // General-purpose: dst = a ^ (b shifted), one instruction (the scalar Keccak form).
  void eor(Reg dst, Reg a, ShiftedReg b) { emit(Mnemonic::arm64_eor, {dst, a, b}); }
  void eor(Reg dst, Reg a, Reg b) { emit(Mnemonic::arm64_eor, {dst, a, b}); }
  // dst = a & ~(b shifted)
  void bic(Reg dst, Reg a, ShiftedReg b) { emit(Mnemonic::arm64_bic, {dst, a, b}); }
  void bic(Reg dst, Reg a, Reg b) { emit(Mnemonic::arm64_bic, {dst, a, b}); }
  void and_(Reg dst, Reg a, Reg b) { emit(Mnemonic::arm64_and, {dst, a, b}); }
  void orr(Reg dst, Reg a, Reg b) { emit(Mnemonic::arm64_orr, {dst, a, b}); }
  // dst = a | ~b
  void orn(Reg dst, Reg a, Reg b) { emit(Mnemonic::arm64_orn, {dst, a, b}); }
  void mvn(Reg dst, Reg src) { emit(Mnemonic::arm64_mvn, {dst, src}); }
  void cbz(Reg reg, LabelId target) { emit(Mnemonic::arm64_cbz, {reg, LabelRef{target}}); }
  // dst = rotr(src, amount)
  void ror(Reg dst, Reg src, int amount) { emit(Mnemonic::arm64_ror, {dst, src, Imm{amount}}); }

  // SIMD on lane 0 of each register (the upper lane stays zero throughout).
  void eor(int dst, int a, int b) { emit(Mnemonic::arm64_eor, {v16b(dst), v16b(a), v16b(b)}); }
  // dst = a ^ b ^ c
  void eor3(int dst, int a, int b, int c) {
    emit(Mnemonic::arm64_eor3, {v16b(dst), v16b(a), v16b(b), v16b(c)});
  }
  // dst = a ^ rotl(b, 1), per 64-bit lane
  // dst = the low 64-bit elements of a and b, in that order.
  void zip1(int dst, int a, int b) { emit(Mnemonic::arm64_zip1, {v2d(dst), v2d(a), v2d(b)}); }
  void rax1(int dst, int a, int b) { emit(Mnemonic::arm64_rax1, {v2d(dst), v2d(a), v2d(b)}); }
  // dst = rotr(a ^ b, bits), per 64-bit lane
  void xar(int dst, int a, int b, int bits) {
    emit(Mnemonic::arm64_xar, {v2d(dst), v2d(a), v2d(b), Imm{bits}});
  }
  // dst = a ^ (b & ~c)
  void bcax(int dst, int a, int b, int c) {
    emit(Mnemonic::arm64_bcax, {v16b(dst), v16b(a), v16b(b), v16b(c)});
  }
};

}  // namespace spongegen::arm64
