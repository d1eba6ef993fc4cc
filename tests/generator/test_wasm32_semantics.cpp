// The prover's meaning of each wasm32 row (isa/wasm32/semantics.cpp) against the WebAssembly
// specification's, on concrete values: each row runs once through the Target's execute on a
// machine holding known integers, and its result is compared with the operation the
// specification defines, computed here with plain integer arithmetic (std::rotl, shifts,
// masks) and never with the prover's words. Every row of the table is run, and the values sit
// where a wrong meaning shows: rotations by 0, 1 and 63, lanes that would carry into each
// other, andnot's operand order, i32 wrap-around, offsets from a base that is not a region's
// start, branches taken and not.
#include <doctest/doctest.h>

#include <bit>
#include <climits>
#include <cstdint>
#include <set>
#include <vector>

#include "isa/target.hpp"
#include "isa/wasm32/wasm32.hpp"
#include "prove/machine.hpp"

using namespace spongegen;
using namespace spongegen::wasm32;

namespace {

using M = Mnemonic;
using prove::Control;
using prove::Pointer;
using prove::Value;

// A machine with one writable region of memory and one constant table, and the rows it ran.
class Bench {
 public:
  Bench() {
    memory_ = machine.add_region("memory", 64, true);
    table_ = machine.add_region("a table", 16, false);
    labels.region_of_label = {table_, -1};  // label 0 is the table, label 1 code
    for (std::int64_t word = 0; word < 8; ++word)
      machine.store({memory_, 8 * word}, Value::integer(kMemory[word]));
  }

  Control run(M mnemonic, std::vector<Operand> operands) {
    ran.insert(mnemonic);
    return target(Isa::wasm32)
        .execute(machine, Instruction{mnemonic, std::move(operands), {}}, labels);
  }

  void set(const Reg& reg, std::uint64_t value) { machine.gp(reg.index) = Value::integer(value); }
  std::uint64_t get(const Reg& reg) const {
    return prove::integer_of(machine.gp(reg.index), "a local under test");
  }
  void set_lanes(const Reg& reg, std::uint64_t lane0, std::uint64_t lane1) {
    machine.vector(reg.index)[0] = prove::constant_word(lane0);
    machine.vector(reg.index)[1] = prove::constant_word(lane1);
  }
  std::uint64_t lane(const Reg& reg, int lane) const {
    const prove::Word& word = machine.vector(reg.index)[static_cast<std::size_t>(lane)];
    REQUIRE(prove::is_constant(word));
    return prove::constant_value(word);
  }
  std::uint64_t word(std::int64_t index) const {
    const Value value = machine.load({memory_, 8 * index});
    return prove::integer_of(value, "a word of memory");
  }
  Value address(std::int64_t offset) const { return Value::address({memory_, offset}); }

  static constexpr std::uint64_t kMemory[8] = {
      0x0001020304050607, 0x8899aabbccddeeff, 0xfedcba9876543210, 0x0123456789abcdef,
      0xffffffffffffffff, 0x8000000000000001, 0x5555555555555555, 0x0f0f0f0f0f0f0f0f};
  prove::Machine machine{prove::kMachineRegisters};
  prove::LabelRegions labels;
  std::set<M> ran;
  int memory_ = -1, table_ = -1;
};

constexpr LabelId kTableLabel = 0, kCodeLabel = 1;
constexpr std::uint64_t kA = 0x9e3779b97f4a7c15, kB = 0xc2b2ae3d27d4eb4f;

// What the specification says, in plain integers.
std::uint64_t rotl(std::uint64_t x, int k) {
  return std::rotl(x, k % 64);
}
std::uint64_t rotr(std::uint64_t x, int k) {
  return std::rotr(x, k % 64);
}
std::uint64_t wrap32(std::uint64_t x) {
  return x & 0xffffffff;
}

void check_scalar_rows(Bench& b) {
  const Reg d = x(10), a = x(11), c = x(12);
  b.set(a, kA);
  b.set(c, kB);
  b.run(M::wasm32_i64_xor, {d, a, c});
  CHECK(b.get(d) == (kA ^ kB));
  b.run(M::wasm32_i64_and, {d, a, c});
  CHECK(b.get(d) == (kA & kB));
  b.run(M::wasm32_i64_or, {d, a, c});
  CHECK(b.get(d) == (kA | kB));
  // x ^ x is 0 whatever x holds, an address included.
  b.machine.gp(a.index) = b.address(8);
  b.run(M::wasm32_i64_xor, {d, a, a});
  CHECK(b.get(d) == 0);
  b.set(a, kA);

  for (const std::int64_t constant : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{INT64_MIN},
                                      std::int64_t{0x7fffffff}, std::int64_t{-0x7fff7f7e}}) {
    CAPTURE(constant);
    b.run(M::wasm32_i64_xor_const, {d, a, Imm{constant}});
    CHECK(b.get(d) == (kA ^ static_cast<std::uint64_t>(constant)));
  }
  for (const int k : {0, 1, 14, 63}) {
    CAPTURE(k);
    b.run(M::wasm32_i64_rotl, {d, a, Imm{k}});
    CHECK(b.get(d) == rotl(kA, k));
    b.run(M::wasm32_i64_rotr, {d, a, Imm{k}});
    CHECK(b.get(d) == rotr(kA, k));
  }
  // rotl by 1 moves the top bit to the bottom; rotr by 1 the bottom bit to the top.
  b.set(a, 0x8000000000000001);
  b.run(M::wasm32_i64_rotl, {d, a, Imm{1}});
  CHECK(b.get(d) == 0x0000000000000003);
  b.run(M::wasm32_i64_rotr, {d, a, Imm{1}});
  CHECK(b.get(d) == 0xc000000000000000);

  // A copy keeps what the local holds: an integer, an address, the block count.
  b.run(M::wasm32_i64_copy, {d, c});
  CHECK(b.get(d) == kB);
  b.machine.gp(c.index) = b.address(24);
  b.run(M::wasm32_i64_copy, {d, c});
  REQUIRE(b.machine.gp(d.index).is_address());
  CHECK(*b.machine.gp(d.index).pointer == Pointer{b.memory_, 24});
}

void check_i32_rows(Bench& b) {
  const Reg d = w(20), a = w(21);
  // i32.add wraps modulo 2^32.
  for (const auto& [value, delta] : std::vector<std::pair<std::uint64_t, std::int32_t>>{
           {0xffffffff, 1}, {5, -6}, {0x7fffffff, 1}, {16, 16}, {0, INT32_MIN}}) {
    CAPTURE(value);
    CAPTURE(delta);
    b.set(a, value);
    b.run(M::wasm32_i32_add_const, {d, a, Imm{delta}});
    CHECK(b.get(d) == wrap32(value + static_cast<std::uint64_t>(std::int64_t{delta})));
  }
  // An address plus a constant is the address that much further on.
  b.machine.gp(a.index) = b.address(8);
  b.run(M::wasm32_i32_add_const, {d, a, Imm{16}});
  REQUIRE(b.machine.gp(d.index).is_address());
  CHECK(*b.machine.gp(d.index).pointer == Pointer{b.memory_, 24});
  // The block count counts down by one, and stays the block count.
  Value count = Value::integer(3);
  count.block_count = true;
  b.machine.gp(a.index) = count;
  b.run(M::wasm32_i32_add_const, {a, a, Imm{-1}});
  CHECK(b.machine.gp(a.index).block_count);
  CHECK(prove::count_of(b.machine.gp(a.index), "the count") == 2);
  CHECK_THROWS_AS(b.run(M::wasm32_i32_add_const, {d, a, Imm{-2}}), prove::MachineError);

  // i32.const: the constant's 32 bits.
  for (const std::int32_t constant : {0, -1, INT32_MIN, INT32_MAX, 400}) {
    CAPTURE(constant);
    b.run(M::wasm32_i32_const, {d, Imm{constant}});
    CHECK(b.get(d) == static_cast<std::uint32_t>(constant));
  }
  // The table's address is its first byte; a label of code has none.
  b.run(M::wasm32_i32_table_address, {d, LabelRef{kTableLabel}});
  REQUIRE(b.machine.gp(d.index).is_address());
  CHECK(*b.machine.gp(d.index).pointer == Pointer{b.table_, 0});
  CHECK_THROWS_AS(b.run(M::wasm32_i32_table_address, {d, LabelRef{kCodeLabel}}),
                  prove::MachineError);

  // i32.wrap_i64 keeps the low 32 bits; an address (below 2^32 in the module) passes.
  b.set(x(22), 0x123456789abcdef0);
  b.run(M::wasm32_i32_wrap_i64, {d, x(22)});
  CHECK(b.get(d) == 0x9abcdef0);
  b.machine.gp(22) = b.address(40);
  b.run(M::wasm32_i32_wrap_i64, {d, x(22)});
  REQUIRE(b.machine.gp(d.index).is_address());
  CHECK(*b.machine.gp(d.index).pointer == Pointer{b.memory_, 40});
}

void check_memory_rows(Bench& b) {
  // The base is 8 bytes into the memory, so offset 16 is word 3.
  const Reg base = w(0), d = x(30);
  b.machine.gp(base.index) = b.address(8);
  b.run(M::wasm32_i64_load, {d, at(base, 16)});
  CHECK(b.get(d) == Bench::kMemory[3]);
  b.run(M::wasm32_i64_load, {d, at(base, 0)});
  CHECK(b.get(d) == Bench::kMemory[1]);
  b.set(d, kA);
  b.run(M::wasm32_i64_store, {d, at(base, 48)});
  CHECK(b.word(7) == kA);
  CHECK(b.word(6) == Bench::kMemory[6]);
  // A slot holding an address loads as that address (the block pointers).
  b.machine.store({b.memory_, 0}, b.address(32));
  b.machine.gp(base.index) = b.address(0);
  b.run(M::wasm32_i64_load, {d, at(base, 0)});
  REQUIRE(b.machine.gp(d.index).is_address());
  CHECK(*b.machine.gp(d.index).pointer == Pointer{b.memory_, 32});
  b.machine.store({b.memory_, 0}, Value::integer(Bench::kMemory[0]));

  // v128.load: bytes [base+off, base+off+16), lane 0 the lower address; v128.store back.
  const Reg vd = v(3), va = v(4);
  b.machine.gp(base.index) = b.address(8);
  b.run(M::wasm32_v128_load, {vd, at(base, 8)});
  CHECK(b.lane(vd, 0) == Bench::kMemory[2]);
  CHECK(b.lane(vd, 1) == Bench::kMemory[3]);
  b.set_lanes(va, kA, kB);
  b.run(M::wasm32_v128_store, {va, at(base, 32)});
  CHECK(b.word(5) == kA);
  CHECK(b.word(6) == kB);
  CHECK(b.word(4) == Bench::kMemory[4]);
  // v128.load64_zero: lane 0 loaded, lane 1 zero.
  b.set_lanes(vd, kA, kB);
  b.run(M::wasm32_v128_load64_zero, {vd, at(base, 0)});
  CHECK(b.lane(vd, 0) == Bench::kMemory[1]);
  CHECK(b.lane(vd, 1) == 0);
  // v128.load64_lane: the source with one lane replaced, the other kept.
  for (const int replaced : {0, 1}) {
    CAPTURE(replaced);
    b.set_lanes(va, kA, kB);
    b.set_lanes(vd, 0, 0);
    b.run(M::wasm32_v128_load64_lane, {vd, at(base, 16), va, Imm{replaced}});
    CHECK(b.lane(vd, replaced) == Bench::kMemory[3]);
    CHECK(b.lane(vd, 1 - replaced) == (replaced == 0 ? kB : kA));
  }
  // An address is no v128 data.
  b.machine.store({b.memory_, 8}, b.address(0));
  CHECK_THROWS_AS(b.run(M::wasm32_v128_load, {vd, at(base, 0)}), prove::MachineError);
  b.machine.store({b.memory_, 8}, Value::integer(Bench::kMemory[1]));
}

void check_vector_rows(Bench& b) {
  const Reg d = v(40), a = v(41), c = v(42);
  const std::uint64_t a0 = 0x8000000000000001, a1 = kA, c0 = kB, c1 = 0x00000000ffffffff;
  b.set_lanes(a, a0, a1);
  b.set_lanes(c, c0, c1);
  b.run(M::wasm32_v128_xor, {d, a, c});
  CHECK(b.lane(d, 0) == (a0 ^ c0));
  CHECK(b.lane(d, 1) == (a1 ^ c1));
  b.run(M::wasm32_v128_and, {d, a, c});
  CHECK(b.lane(d, 0) == (a0 & c0));
  CHECK(b.lane(d, 1) == (a1 & c1));
  b.run(M::wasm32_v128_or, {d, a, c});
  CHECK(b.lane(d, 0) == (a0 | c0));
  CHECK(b.lane(d, 1) == (a1 | c1));
  // v128.andnot(a, b) is a & ~b: the second operand is the complemented one.
  b.run(M::wasm32_v128_andnot, {d, a, c});
  CHECK(b.lane(d, 0) == (a0 & ~c0));
  CHECK(b.lane(d, 1) == (a1 & ~c1));
  REQUIRE((a1 & ~c1) != (c1 & ~a1));
  b.run(M::wasm32_v128_xor, {d, a, a});
  CHECK(b.lane(d, 0) == 0);
  CHECK(b.lane(d, 1) == 0);

  // Each lane shifts alone: nothing crosses from one lane into the other.
  for (const int k : {0, 1, 63}) {
    CAPTURE(k);
    b.run(M::wasm32_i64x2_shl, {d, a, Imm{k}});
    CHECK(b.lane(d, 0) == (a0 << k));
    CHECK(b.lane(d, 1) == (a1 << k));
    b.run(M::wasm32_i64x2_shr_u, {d, a, Imm{k}});
    CHECK(b.lane(d, 0) == (a0 >> k));
    CHECK(b.lane(d, 1) == (a1 >> k));
  }
  for (const std::int64_t constant :
       {std::int64_t{-1}, std::int64_t{INT64_MIN}, std::int64_t{0x000000008000808b}}) {
    CAPTURE(constant);
    b.run(M::wasm32_v128_xor_splat_const, {d, a, Imm{constant}});
    CHECK(b.lane(d, 0) == (a0 ^ static_cast<std::uint64_t>(constant)));
    CHECK(b.lane(d, 1) == (a1 ^ static_cast<std::uint64_t>(constant)));
  }
}

void check_control_rows(Bench& b) {
  for (const M m : {M::wasm32_block, M::wasm32_loop}) {
    const Control control = b.run(m, {LabelRef{kCodeLabel}});
    CHECK(control.kind == Control::next);
  }
  CHECK(b.run(M::wasm32_end, {}).kind == Control::next);
  const Control jump = b.run(M::wasm32_br, {LabelRef{kCodeLabel}});
  CHECK(jump.kind == Control::jump);
  CHECK(jump.label == kCodeLabel);
  // br_if is taken when the i32 is not zero, br_if_eqz when it is.
  const Reg n = w(2);
  for (const std::uint64_t value :
       {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{0x80000000}}) {
    CAPTURE(value);
    b.set(n, value);
    const Control if_nonzero = b.run(M::wasm32_br_if, {LabelRef{kCodeLabel}, n});
    CHECK(if_nonzero.kind == (value != 0 ? Control::jump : Control::next));
    const Control if_zero = b.run(M::wasm32_br_if_eqz, {LabelRef{kCodeLabel}, n});
    CHECK(if_zero.kind == (value == 0 ? Control::jump : Control::next));
    if (value != 0) CHECK(if_nonzero.label == kCodeLabel);
    if (value == 0) CHECK(if_zero.label == kCodeLabel);
  }
  // The block count may steer a branch; data may not.
  Value count = Value::integer(0);
  count.block_count = true;
  b.machine.gp(n.index) = count;
  CHECK(b.run(M::wasm32_br_if_eqz, {LabelRef{kCodeLabel}, n}).kind == Control::jump);
  b.machine.gp(n.index) = Value::data(prove::variable_word(b.machine.fresh(64)));
  CHECK_THROWS_AS(b.run(M::wasm32_br_if, {LabelRef{kCodeLabel}, n}), prove::MachineError);
  CHECK(b.run(M::wasm32_return, {}).kind == Control::ret);
}

TEST_CASE("every wasm32 row means on the prover's machine what the WebAssembly spec says") {
  Bench b;
  check_scalar_rows(b);
  check_i32_rows(b);
  check_memory_rows(b);
  check_vector_rows(b);
  check_control_rows(b);
  std::set<M> table;
  for (const InstructionSpec& spec : target(Isa::wasm32).instructions())
    table.insert(spec.mnemonic);
  CHECK(table.size() == 31);
  CHECK(b.ran == table);
}

TEST_CASE("the wasm32 Target answers what does not apply to WebAssembly as data") {
  const Target& wasm = target(Isa::wasm32);
  CHECK(wasm.name() == "wasm32");
  CHECK(!wasm.link_register());
  CHECK(wasm.call_pushes_bytes() == 8);
  CHECK(wasm.stack_pointer() == kStackPointer);
  CHECK(wasm.public_at_entry().empty());
  CHECK(wasm.preserved_registers(false, false).gp.empty());
  CHECK(!wasm.links_into_runtime());
  CHECK(!wasm.runs_on_host());
  CHECK(!wasm.has_win64_entries());
  CHECK(wasm.default_mca_cpus().empty());
  CHECK_THROWS_AS(wasm.go_abi0_saves_lines(), GenerationError);
  CHECK_THROWS_AS(wasm.gas_arch_line(""), GenerationError);
  // The names say the type, and read back.
  for (const Reg& reg : {w(0), w(200), x(5), x(63), v(0), v(57), kStackPointer}) {
    const std::string name = wasm.register_name(reg);
    CAPTURE(name);
    const std::optional<Reg> parsed = wasm.parse_register(name);
    REQUIRE(parsed);
    CHECK(*parsed == reg);
  }
  CHECK(wasm.register_name(w(5)) != wasm.register_name(x(5)));
  for (const char* bad : {"$x", "$y3", "x3", "$x03", "$x256", "$v1a"}) {
    CAPTURE(bad);
    CHECK(!wasm.parse_register(bad));
  }
}

}  // namespace
