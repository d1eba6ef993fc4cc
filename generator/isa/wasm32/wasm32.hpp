// wasm32 locals as registers, the module's layout facts, the typed instruction emitter the
// wasm32 kernel builders use, and the writer, reader and encoder of a module.
//
// A Program's registers are the function's locals, numbered as WebAssembly numbers them:
// the parameters first, all i32 (pointers and counts): Reg{gp32, i} for i below the entry's
// parameter count. The other scalar locals follow at their own index, i64 locals as
// Reg{gp64, i} and i32 locals as Reg{gp32, i}; an index no instruction names is an i64
// local. The v128 locals come after every scalar one: Reg{vec, k, d2} is local (number of
// scalar locals) + k. The .wat names them $<parameter name>, $w<i> (i32), $x<i> (i64) and $v<k>.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "program/program.hpp"
#include "writers/asmjit_encoder.hpp"

namespace spongegen::wasm32 {

// The scalar local (or parameter) `index`: i64 and i32.
constexpr Reg x(int index) {
  return Reg{RegClass::gp64, static_cast<std::uint8_t>(index)};
}
constexpr Reg w(int index) {
  return Reg{RegClass::gp32, static_cast<std::uint8_t>(index)};
}
// The v128 local `index` (after the scalar locals).
constexpr Reg v(int index) {
  return Reg{RegClass::vec, static_cast<std::uint8_t>(index), Arrangement::d2};
}
// The entry's index-th parameter (an i32: a pointer or a count).
constexpr Reg parameter(int index) {
  return w(index);
}
// No row may name it: the prover's stack pointer, which no WebAssembly operation reaches.
inline constexpr Reg kStackPointer{RegClass::sp, 0};

// Where the data segment puts Program::tables, each 8-byte aligned after the one before.
inline constexpr std::uint32_t kTableBase = 0;
// The memory the module imports, as "env" "memory", in 64 KiB pages: its minimum size.
inline constexpr std::uint32_t kImportedMemoryPages = 1;

// [base + offset]: the i32 local `base` plus the memarg's constant offset (0 or more).
inline Mem at(Reg base, std::int32_t offset = 0) {
  return Mem{base, offset};
}

class Emitter : public FunctionBuilder {
 public:
  using FunctionBuilder::FunctionBuilder;

  void i64_load(Reg d, Mem mem) { emit(Mnemonic::wasm32_i64_load, {d, mem}); }
  void i64_store(Reg s, Mem mem) { emit(Mnemonic::wasm32_i64_store, {s, mem}); }
  void i64_xor(Reg d, Reg a, Reg b) { emit(Mnemonic::wasm32_i64_xor, {d, a, b}); }
  void i64_and(Reg d, Reg a, Reg b) { emit(Mnemonic::wasm32_i64_and, {d, a, b}); }
  void i64_or(Reg d, Reg a, Reg b) { emit(Mnemonic::wasm32_i64_or, {d, a, b}); }
  // d = a ^ imm; d = ~a with imm = -1
  void i64_xor_const(Reg d, Reg a, std::int64_t imm) {
    emit(Mnemonic::wasm32_i64_xor_const, {d, a, Imm{imm}});
  }
  void i64_rotl(Reg d, Reg a, int amount) { emit(Mnemonic::wasm32_i64_rotl, {d, a, Imm{amount}}); }
  void i64_rotr(Reg d, Reg a, int amount) { emit(Mnemonic::wasm32_i64_rotr, {d, a, Imm{amount}}); }
  void i64_copy(Reg d, Reg a) { emit(Mnemonic::wasm32_i64_copy, {d, a}); }
  void i32_add_const(Reg d, Reg a, std::int32_t imm) {
    emit(Mnemonic::wasm32_i32_add_const, {d, a, Imm{imm}});
  }
  void i32_const(Reg d, std::int32_t imm) { emit(Mnemonic::wasm32_i32_const, {d, Imm{imm}}); }
  // d = the address of the table labelled `table` in the data segment
  void i32_table_address(Reg d, LabelId table) {
    emit(Mnemonic::wasm32_i32_table_address, {d, LabelRef{table}});
  }
  void i32_wrap_i64(Reg d, Reg a) { emit(Mnemonic::wasm32_i32_wrap_i64, {d, a}); }
  // Structured control: bind(label) right after loop(label), and right after the end of
  // block(label), where a branch to the label arrives.
  void block(LabelId label) { emit(Mnemonic::wasm32_block, {LabelRef{label}}); }
  void loop(LabelId label) { emit(Mnemonic::wasm32_loop, {LabelRef{label}}); }
  void end() { emit(Mnemonic::wasm32_end, {}); }
  void br(LabelId label) { emit(Mnemonic::wasm32_br, {LabelRef{label}}); }
  // to `label` when the i32 local n is not zero, when it is zero
  void br_if(LabelId label, Reg n) { emit(Mnemonic::wasm32_br_if, {LabelRef{label}, n}); }
  void br_if_eqz(LabelId label, Reg n) { emit(Mnemonic::wasm32_br_if_eqz, {LabelRef{label}, n}); }
  void return_() { emit(Mnemonic::wasm32_return, {}); }

  void v128_load(Reg d, Mem mem) { emit(Mnemonic::wasm32_v128_load, {d, mem}); }
  void v128_store(Reg s, Mem mem) { emit(Mnemonic::wasm32_v128_store, {s, mem}); }
  void v128_load64_zero(Reg d, Mem mem) { emit(Mnemonic::wasm32_v128_load64_zero, {d, mem}); }
  // d = a with lane `lane` (0 or 1) loaded from mem
  void v128_load64_lane(Reg d, Mem mem, Reg a, int lane) {
    emit(Mnemonic::wasm32_v128_load64_lane, {d, mem, a, Imm{lane}});
  }
  void v128_xor(Reg d, Reg a, Reg b) { emit(Mnemonic::wasm32_v128_xor, {d, a, b}); }
  void v128_and(Reg d, Reg a, Reg b) { emit(Mnemonic::wasm32_v128_and, {d, a, b}); }
  void v128_or(Reg d, Reg a, Reg b) { emit(Mnemonic::wasm32_v128_or, {d, a, b}); }
  // d = a & ~b
  void v128_andnot(Reg d, Reg a, Reg b) { emit(Mnemonic::wasm32_v128_andnot, {d, a, b}); }
  void i64x2_shl(Reg d, Reg a, int amount) {
    emit(Mnemonic::wasm32_i64x2_shl, {d, a, Imm{amount}});
  }
  void i64x2_shr_u(Reg d, Reg a, int amount) {
    emit(Mnemonic::wasm32_i64x2_shr_u, {d, a, Imm{amount}});
  }
  // d = a ^ {imm, imm}
  void v128_xor_splat_const(Reg d, Reg a, std::int64_t imm) {
    emit(Mnemonic::wasm32_v128_xor_splat_const, {d, a, Imm{imm}});
  }
};

// What check_structure finds: per instruction of the function (in Function::items order),
// the relative depth of a branch's label (br's immediate), -1 for every other row.
struct Structure {
  std::vector<int> branch_depths;
};
// Whether the function's block, loop and end nest, every branch's label is owned by a
// construct around it, and every label is bound right after its loop or its block's end;
// throws a GenerationError naming the instruction otherwise.
Structure check_structure(const Program& program, const Function& function);

// A local's name in the .wat when it is no parameter, and in messages: $w<i> for an i32
// local (or parameter) i, $x<i> for an i64 local i, $v<k> for v128 local k; "sp" for the
// prover's stack pointer. parse_register reads these names back.
std::string register_name(const Reg& reg);
std::optional<Reg> parse_register(std::string_view name);

// The text format: the module the encoder encodes, one row's lowering a line each.
std::string write_wat(const Program& program);
// Reads exactly what write_wat writes (anything else is refused, naming the line). The
// Program's isa is the caller's to set: the wasm32 Target's.
Program read_wat(std::string_view text, const std::string& kernel_name);
// The binary module: code is the whole .wasm; each function's offset is its body's (its
// locals' declaration), its instruction offsets from there; each table's offset is its
// bytes' in the data section.
writers::EncodedProgram encode(const Program& program);

}  // namespace spongegen::wasm32
