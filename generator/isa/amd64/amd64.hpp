// amd64 operands and the typed instruction emitter the amd64 kernel builders use.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "program/program.hpp"

namespace spongegen::amd64 {

// 64-bit general-purpose registers, by hardware encoding.
inline constexpr Reg rax{RegClass::gp64, 0};
inline constexpr Reg rcx{RegClass::gp64, 1};
inline constexpr Reg rdx{RegClass::gp64, 2};
inline constexpr Reg rbx{RegClass::gp64, 3};
inline constexpr Reg rsp{RegClass::gp64, 4};
inline constexpr Reg rbp{RegClass::gp64, 5};
inline constexpr Reg rsi{RegClass::gp64, 6};
inline constexpr Reg rdi{RegClass::gp64, 7};
inline constexpr Reg r8{RegClass::gp64, 8};
inline constexpr Reg r9{RegClass::gp64, 9};
inline constexpr Reg r10{RegClass::gp64, 10};
inline constexpr Reg r11{RegClass::gp64, 11};
inline constexpr Reg r12{RegClass::gp64, 12};
inline constexpr Reg r13{RegClass::gp64, 13};
inline constexpr Reg r14{RegClass::gp64, 14};
inline constexpr Reg r15{RegClass::gp64, 15};

// Vector registers, by number: 16, 32 and 64 bytes (xmm16 and up need AVX-512).
constexpr Reg xmm(int index) {
  return Reg{RegClass::xmm, static_cast<std::uint8_t>(index)};
}
constexpr Reg ymm(int index) {
  return Reg{RegClass::ymm, static_cast<std::uint8_t>(index)};
}
constexpr Reg zmm(int index) {
  return Reg{RegClass::zmm, static_cast<std::uint8_t>(index)};
}
// The 32-bit view of a general-purpose register (eax for rax).
constexpr Reg gp32(Reg reg) {
  return Reg{RegClass::gp32, reg.index};
}

std::string register_name(Reg reg);
// The register whose name is `name`, or nothing.
std::optional<Reg> parse_register(std::string_view name);

// System V AMD64: where the index-th integer or pointer argument arrives (0-5).
Reg sysv_argument(int index);

// System V AMD64: the registers a function must preserve for its caller.
bool is_callee_saved_sysv(Reg reg);

// A 64-bit memory operand [base + disp].
inline Mem qword(Reg base, std::int32_t disp = 0) {
  return Mem{base, disp, Addressing::offset, kNoLabel, 8};
}
// A 64-bit RIP-relative memory operand [rip + label + disp].
inline Mem qword_rip(LabelId label, std::int32_t disp = 0) {
  return Mem{kNoBase, disp, Addressing::pc_relative, label, 8};
}
// A memory operand of `bytes` bytes (1, 4, 8, 16, 32 or 64) at [base + disp].
inline Mem sized(std::uint8_t bytes, Reg base, std::int32_t disp = 0) {
  return Mem{base, disp, Addressing::offset, kNoLabel, bytes};
}
// A 256-bit memory operand [base + disp], and one RIP-relative [rip + label + disp].
inline Mem ymmword(Reg base, std::int32_t disp = 0) {
  return sized(32, base, disp);
}
inline Mem ymmword_rip(LabelId label, std::int32_t disp = 0) {
  return Mem{kNoBase, disp, Addressing::pc_relative, label, 32};
}
// A 512-bit memory operand [base + disp], and one RIP-relative [rip + label + disp].
inline Mem zmmword(Reg base, std::int32_t disp = 0) {
  return sized(64, base, disp);
}
inline Mem zmmword_rip(LabelId label, std::int32_t disp = 0) {
  return Mem{kNoBase, disp, Addressing::pc_relative, label, 64};
}
// The sizes of a memory operand in bytes, each with its keyword ("qword ptr").
inline constexpr int kMemoryOperandSizes[] = {1, 4, 8, 16, 32, 64};
// "qword ptr" for 8 bytes..., as Intel syntax sizes a memory operand.
std::string_view memory_size_keyword(int bytes);

class Emitter : public FunctionBuilder {
 public:
  using FunctionBuilder::FunctionBuilder;

  void endbr64() { emit(Mnemonic::amd64_endbr64, {}); }
  void ret() { emit(Mnemonic::amd64_ret, {}); }
  void jmp(LabelId target) { emit(Mnemonic::amd64_jmp, {LabelRef{target}}); }
  // Calls function `function` of this Program (a Windows entry calling its System V entry).
  void call(std::uint32_t function) { emit(Mnemonic::amd64_call, {SymbolRef{function}}); }
  void push(Reg reg) { emit(Mnemonic::amd64_push, {reg}); }
  void pop(Reg reg) { emit(Mnemonic::amd64_pop, {reg}); }
  void mov(Reg dst, Reg src) { emit(Mnemonic::amd64_mov, {dst, src}); }
  void mov(Reg dst, Mem src) { emit(Mnemonic::amd64_mov, {dst, src}); }
  void mov(Mem dst, Reg src) { emit(Mnemonic::amd64_mov, {dst, src}); }
  void xor_(Reg dst, Reg src) { emit(Mnemonic::amd64_xor, {dst, src}); }
  void xor_(Reg dst, Mem src) { emit(Mnemonic::amd64_xor, {dst, src}); }
  void xor_(Mem dst, Reg src) { emit(Mnemonic::amd64_xor, {dst, src}); }
  void add(Reg dst, std::int32_t value) { emit(Mnemonic::amd64_add, {dst, Imm{value}}); }
  void add(Mem dst, std::int32_t value) { emit(Mnemonic::amd64_add, {dst, Imm{value}}); }
  void cmp(Mem a, Reg b) { emit(Mnemonic::amd64_cmp, {a, b}); }
  // Jumps when the last flag-setting instruction found its operands different.
  void jne(LabelId target) { emit(Mnemonic::amd64_jne, {LabelRef{target}}); }
  // dst = the address of `address` (RIP-relative: position-independent).
  void lea(Reg dst, Mem address) { emit(Mnemonic::amd64_lea, {dst, address}); }
  // Asks for the cache line at `address` ahead of its loads.
  void prefetcht0(Mem address) { emit(Mnemonic::amd64_prefetcht0, {address}); }
  void sub(Reg dst, std::int32_t value) { emit(Mnemonic::amd64_sub, {dst, Imm{value}}); }
  // dst = src rotated right by `bits` (BMI2; flags untouched).
  void rorx(Reg dst, Reg src, int bits) { emit(Mnemonic::amd64_rorx, {dst, src, Imm{bits}}); }
  // dst = ~a & b (BMI1; flags written).
  void andn(Reg dst, Reg a, Reg b) { emit(Mnemonic::amd64_andn, {dst, a, b}); }
  void and_(Reg dst, Reg src) { emit(Mnemonic::amd64_and, {dst, src}); }
  void or_(Reg dst, Reg src) { emit(Mnemonic::amd64_or, {dst, src}); }
  void not_(Reg dst) { emit(Mnemonic::amd64_not, {dst}); }
  void xor_(Reg dst, std::int32_t value) { emit(Mnemonic::amd64_xor, {dst, Imm{value}}); }
  void cmp(Reg a, std::int32_t value) { emit(Mnemonic::amd64_cmp, {a, Imm{value}}); }
  void je(LabelId target) { emit(Mnemonic::amd64_je, {LabelRef{target}}); }
  void cmp(Reg a, Reg b) { emit(Mnemonic::amd64_cmp, {a, b}); }

  // AVX and AVX2 (VEX: the destination is not a source unless named twice).
  void vmovdqu(Reg dst, Mem src) { emit(Mnemonic::amd64_vmovdqu, {dst, src}); }
  void vmovdqu(Mem dst, Reg src) { emit(Mnemonic::amd64_vmovdqu, {dst, src}); }
  // xmm dst = the 64-bit src, upper bits zeroed.
  void vmovq(Reg dst, Mem src) { emit(Mnemonic::amd64_vmovq, {dst, src}); }
  // xmm dst = a with its 64-bit element `element` (0 or 1) replaced by src.
  void vpinsrq(Reg dst, Reg a, Mem src, int element) {
    emit(Mnemonic::amd64_vpinsrq, {dst, a, src, Imm{element}});
  }
  // ymm dst = a with its 128-bit half `half` (0 or 1) replaced by the xmm src.
  void vinserti128(Reg dst, Reg a, Reg src, int half) {
    emit(Mnemonic::amd64_vinserti128, {dst, a, src, Imm{half}});
  }
  void vpxor(Reg dst, Reg a, Reg b) { emit(Mnemonic::amd64_vpxor, {dst, a, b}); }
  void vpxor(Reg dst, Reg a, Mem b) { emit(Mnemonic::amd64_vpxor, {dst, a, b}); }
  // dst = ~a & b, per bit.
  void vpandn(Reg dst, Reg a, Reg b) { emit(Mnemonic::amd64_vpandn, {dst, a, b}); }
  void vpor(Reg dst, Reg a, Reg b) { emit(Mnemonic::amd64_vpor, {dst, a, b}); }
  void vpaddq(Reg dst, Reg a, Reg b) { emit(Mnemonic::amd64_vpaddq, {dst, a, b}); }
  // Each 64-bit element shifted left (right) by `bits`.
  void vpsllq(Reg dst, Reg a, int bits) { emit(Mnemonic::amd64_vpsllq, {dst, a, Imm{bits}}); }
  void vpsrlq(Reg dst, Reg a, int bits) { emit(Mnemonic::amd64_vpsrlq, {dst, a, Imm{bits}}); }
  // Bytes of a picked by the byte indices in `indices`, within each 128-bit half.
  void vpshufb(Reg dst, Reg a, Mem indices) { emit(Mnemonic::amd64_vpshufb, {dst, a, indices}); }
  // Zeroes ymm0-ymm15 whole (the upper halves too, as vzeroupper does).
  void vzeroall() { emit(Mnemonic::amd64_vzeroall, {}); }

  // AVX-512F (EVEX: zmm0-zmm31, 64-bit elements).
  void vmovdqu64(Reg dst, Mem src) { emit(Mnemonic::amd64_vmovdqu64, {dst, src}); }
  void vmovdqu64(Mem dst, Reg src) { emit(Mnemonic::amd64_vmovdqu64, {dst, src}); }
  void vmovdqu64(Reg dst, Reg src) { emit(Mnemonic::amd64_vmovdqu64, {dst, src}); }
  void vpxorq(Reg dst, Reg a, Reg b) { emit(Mnemonic::amd64_vpxorq, {dst, a, b}); }
  void vpxorq(Reg dst, Reg a, Mem b) { emit(Mnemonic::amd64_vpxorq, {dst, a, b}); }
  // Each 64-bit element rotated left by `bits`.
  void vprolq(Reg dst, Reg a, int bits) { emit(Mnemonic::amd64_vprolq, {dst, a, Imm{bits}}); }
  // dst = f(dst, b, c) per bit, f the truth table `table` (bit 4a + 2b + c is f(a, b, c)).
  void vpternlogq(Reg dst, Reg b, Reg c, std::uint8_t table) {
    emit(Mnemonic::amd64_vpternlogq, {dst, b, c, Imm{table}});
  }
  // zmm dst = a with its 256-bit half `half` (0 or 1) replaced by the ymm src.
  void vinserti64x4(Reg dst, Reg a, Reg src, int half) {
    emit(Mnemonic::amd64_vinserti64x4, {dst, a, src, Imm{half}});
  }
  void vinserti64x4(Reg dst, Reg a, Mem src, int half) {
    emit(Mnemonic::amd64_vinserti64x4, {dst, a, src, Imm{half}});
  }
  // In each 128-bit block k: dst = {a[2k], b[2k]} (vpunpcklqdq) or {a[2k+1], b[2k+1]}
  // (vpunpckhqdq).
  void vpunpcklqdq(Reg dst, Reg a, Reg b) { emit(Mnemonic::amd64_vpunpcklqdq, {dst, a, b}); }
  void vpunpckhqdq(Reg dst, Reg a, Reg b) { emit(Mnemonic::amd64_vpunpckhqdq, {dst, a, b}); }
  // dst's 128-bit blocks 0, 1 = a's blocks picked by bits 1:0 and 3:2 of `blocks`; 2, 3 =
  // b's picked by bits 5:4 and 7:6.
  void vshufi64x2(Reg dst, Reg a, Reg b, std::uint8_t blocks) {
    emit(Mnemonic::amd64_vshufi64x2, {dst, a, b, Imm{blocks}});
  }
};

}  // namespace spongegen::amd64
