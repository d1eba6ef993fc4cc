// Keccak-p[1600] for riscv64 on the general-purpose registers, with the Zbb extension's
// rotate and and-not (riscv64-zbb) or with RV64I alone (riscv64); and on the vector
// registers (V, RVV 1.0), N lane-interleaved states at once (riscv64-v-x<N>).
//
// The 25 lanes live in registers for the whole permutation; pi is a renaming, not a move:
// the builder tracks which register holds each lane and emits every round (24, unrolled).
// Pi's lane permutation is one 24-cycle and a fixed point, so after 24 rounds each lane is
// back in the register it was loaded into; a 12-round entry loads the lanes where round 12
// of the unrolled body expects them and jumps there. Iota's constants are built from
// immediates (plan_iota searches the shortest way), so the file has no table and no
// PC-relative address.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "isa/riscv64/riscv64.hpp"
#include "kernels/keccak_entries.hpp"
#include "model/keccak.hpp"

namespace spongegen::kernels {
namespace {

using namespace riscv64;

// Every register's role, named once. zero, sp, gp and tp are not ours (gp and tp belong to
// the program, and a signal handler may use them while the kernel runs); the other 28 hold
// the 25 lanes and three temporaries. a0 (the state pointer) and a1 (the block) are the
// last lanes loaded, once the frame holds the state pointer and the block is absorbed.
constexpr std::array<Reg, keccak::kLanes> kLoadRegister = {
    x(1),  x(5),  x(6),  x(7),  x(8),  x(9),  x(12), x(13), x(14), x(15), x(16), x(17), x(18),
    x(19), x(20), x(21), x(22), x(23), x(24), x(25), x(26), x(27), x(28), a(1),  a(0)};
constexpr Reg kT0 = x(29), kT1 = x(30), kT2 = x(31);  // t4-t6: theta's and chi's temporaries
constexpr Reg kState = a(0);                          // argument 1: the caller's 25 lanes
constexpr Reg kBlock = a(1);                          // argument 2 of the absorb entries

// The frame: ra and s0-s11 (callee-saved; they hold lanes), the state pointer, and two
// slots of theta: the column sum it spills (no register is free for it, see emit_theta)
// and, without Zbb, the temporary a rotation borrows as its scratch.
constexpr int kSavedRegisters = 13;
constexpr int kStatePointerSlot = 8 * kSavedRegisters;
constexpr int kSpillSlot = kStatePointerSlot + 8;
constexpr int kBorrowSlot = kSpillSlot + 8;
constexpr int kFrameBytes = (kBorrowSlot + 8 + 15) / 16 * 16;
constexpr int kLaneBytes = 8;

Reg saved_register(int i) {
  // ra, s0, s1, s2-s11
  return i == 0 ? ra : i <= 2 ? x(7 + i) : x(15 + i);
}

// Which register holds each lane at the start of each round: the identity at round 0,
// renamed by pi every round.
using LaneMap = std::array<Reg, keccak::kLanes>;
std::array<LaneMap, keccak::kRounds + 1> lane_maps(const LaneMap& load_registers = kLoadRegister) {
  std::array<LaneMap, keccak::kRounds + 1> maps;
  maps[0] = load_registers;
  for (int round = 0; round < keccak::kRounds; ++round) {
    for (int y = 0; y < 5; ++y) {
      for (int x = 0; x < 5; ++x) {
        const keccak::ChiInput& in =
            keccak::model().chi_rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)];
        maps[static_cast<std::size_t>(round + 1)]
            [static_cast<std::size_t>(keccak::lane_index(x, y))] =
                maps[static_cast<std::size_t>(round)][static_cast<std::size_t>(in.lane)];
      }
    }
  }
  if (maps[keccak::kRounds] != maps[0]) {
    throw GenerationError("riscv64: pi's renaming does not return every lane after 24 rounds");
  }
  return maps;
}

// Iota's constant, XORed into a lane from immediates: `low` by one xori (a 12-bit immediate,
// sign-extended), then each part built in a temporary and XORed in. A part starts with addi
// from zero or lui and applies the rest of its steps to the temporary.
enum class BuildOp { addi, lui, rori, slli, srli, xori, add };
struct BuildStep {
  BuildOp op;
  std::int64_t imm;
};
struct IotaPlan {
  std::int64_t low = 0;
  std::vector<std::vector<BuildStep>> parts;
  std::size_t instructions() const {
    std::size_t n = low != 0 ? 1 : 0;
    for (const auto& part : parts)
      n += part.size() + 1;
    return n;
  }
};

std::int64_t sign_extend_12(std::uint64_t v) {
  return static_cast<std::int64_t>((v & 0xfff) ^ 0x800) - 0x800;
}

std::uint64_t rotate_left_64(std::uint64_t v, int left) {
  return left == 0 ? v : v << left | v >> (64 - left);
}

// The step that builds `value` from nothing in one instruction: addi from zero (a 12-bit
// immediate, sign-extended) or lui (bits 12-31, sign-extended from bit 31).
std::optional<BuildStep> one_instruction(std::uint64_t value) {
  if (static_cast<std::uint64_t>(sign_extend_12(value)) == value) {
    return BuildStep{BuildOp::addi, sign_extend_12(value)};
  }
  const auto low32 = static_cast<std::int32_t>(static_cast<std::uint32_t>(value));
  if ((value & 0xfff) == 0 && static_cast<std::uint64_t>(std::int64_t{low32}) == value) {
    return BuildStep{BuildOp::lui, static_cast<std::int64_t>(value >> 12 & 0xfffff)};
  }
  return std::nullopt;
}

// `value` in one or two instructions: one_instruction, or it followed by a rotation (Zbb),
// a shift, or an xori or addi of a 12-bit immediate; empty when none of these builds it.
std::vector<BuildStep> build_in_two(std::uint64_t value, bool zbb) {
  if (const auto one = one_instruction(value)) return {*one};
  const auto then = [](std::uint64_t first, BuildStep second) -> std::vector<BuildStep> {
    if (const auto one = one_instruction(first)) return {*one, second};
    return {};
  };
  for (int amount = 1; amount < 64; ++amount) {
    std::vector<BuildStep> steps;
    if (zbb) steps = then(rotate_left_64(value, amount), {BuildOp::rori, amount});
    const std::uint64_t below = (std::uint64_t{1} << amount) - 1;
    if (steps.empty() && (value & below) == 0) {  // value = first << amount
      steps = then(value >> amount, {BuildOp::slli, amount});
      if (steps.empty())
        steps = then(value >> amount | ~(~std::uint64_t{0} >> amount), {BuildOp::slli, amount});
    }
    if (steps.empty() && value >> (64 - amount) == 0) {  // value = first >> amount
      steps = then(value << amount, {BuildOp::srli, amount});
      if (steps.empty()) steps = then(value << amount | below, {BuildOp::srli, amount});
    }
    if (!steps.empty()) return steps;
  }
  for (std::int64_t imm = -2048; imm < 2048; ++imm) {
    const auto word = static_cast<std::uint64_t>(imm);
    if (auto steps = then(value ^ word, {BuildOp::xori, imm}); !steps.empty()) return steps;
    if (auto steps = then(value - word, {BuildOp::add, imm}); !steps.empty()) return steps;
  }
  return {};
}

// Every bit from 11 up built alone (lui for bits 12-30, addi and slli above), the low 11
// by xori: what the search is measured against, and its fallback.
IotaPlan plan_bit_by_bit(std::uint64_t constant) {
  IotaPlan plan{static_cast<std::int64_t>(constant & 0x7ff), {}};
  for (int bit = 11; bit < 64; ++bit) {
    if (((constant >> bit) & 1) == 0) continue;
    if (bit >= 12 && bit < 31) {
      plan.parts.push_back({{BuildOp::lui, std::int64_t{1} << (bit - 12)}});
    } else {
      plan.parts.push_back({{BuildOp::addi, 1}, {BuildOp::slli, bit}});
    }
  }
  return plan;
}

// `value` as two parts XORed in one after the other: a first value built in two instructions,
// then the same register shifted (value = first ^ (first >> amount), or <<), as a round
// constant with bits 63, 31 and 15 needs (0x8000000000008000, then 0x80000000 from it).
std::vector<std::vector<BuildStep>> build_and_shift(std::uint64_t value, bool zbb) {
  for (int amount = 1; amount < 64; ++amount) {
    for (const BuildOp op : {BuildOp::srli, BuildOp::slli}) {
      // first ^ (first >> amount) = value fixes first from its top bit down (<<: bottom up).
      std::uint64_t first = 0;
      for (int i = 0; i < 64; ++i) {
        const int bit = op == BuildOp::srli ? 63 - i : i;
        const int source = op == BuildOp::srli ? bit + amount : bit - amount;
        const std::uint64_t shifted = source >= 0 && source < 64 ? first >> source & 1 : 0;
        first |= ((value >> bit & 1) ^ shifted) << bit;
      }
      std::vector<BuildStep> steps = build_in_two(first, zbb);
      if (!steps.empty()) return {std::move(steps), {{op, amount}}};
    }
  }
  return {};
}

// The shortest plan this search finds: the constant's low 11 bits by xori (or no xori, or
// a negative xori that also flips bits 11-63), the rest built in two instructions or in two
// parts (build_and_shift); else plan_bit_by_bit, which no Keccak constant needs.
IotaPlan plan_iota(std::uint64_t constant, bool zbb) {
  std::optional<IotaPlan> best;
  const std::uint64_t low = constant & 0x7ff;
  for (const std::int64_t xori :
       {std::int64_t{0}, static_cast<std::int64_t>(low), static_cast<std::int64_t>(low) - 0x800}) {
    const std::uint64_t rest = constant ^ static_cast<std::uint64_t>(xori);
    for (int two_parts = 0; two_parts < 2; ++two_parts) {
      IotaPlan plan{xori, {}};
      if (rest != 0 && two_parts == 0) {
        std::vector<BuildStep> steps = build_in_two(rest, zbb);
        if (steps.empty()) continue;
        plan.parts.push_back(std::move(steps));
      } else if (rest != 0) {
        plan.parts = build_and_shift(rest, zbb);
        if (plan.parts.empty()) continue;
      }
      if (!best || plan.instructions() < best->instructions()) best = std::move(plan);
    }
  }
  return best ? *best : plan_bit_by_bit(constant);
}

// The plans of the 24 round constants, searched once per process.
const std::vector<IotaPlan>& iota_plans(bool zbb) {
  static const auto search = [](bool with_zbb) {
    std::vector<IotaPlan> plans;
    for (const std::uint64_t constant : keccak::model().round_constants)
      plans.push_back(plan_iota(constant, with_zbb));
    return plans;
  };
  static const std::vector<IotaPlan> with_zbb = search(true), without_zbb = search(false);
  return zbb ? with_zbb : without_zbb;
}

// Iota's instructions over the 24 rounds: as planned, and bit by bit.
std::size_t iota_instructions(bool zbb) {
  std::size_t n = 0;
  for (const IotaPlan& plan : iota_plans(zbb))
    n += plan.instructions();
  return n;
}
std::size_t iota_instructions_bit_by_bit() {
  std::size_t n = 0;
  for (const std::uint64_t constant : keccak::model().round_constants)
    n += plan_bit_by_bit(constant).instructions();
  return n;
}

// d = `step` applied to a (addi and lui build from nothing, ignoring a).
void emit_build_step(Emitter& e, Reg d, Reg a, const BuildStep& step) {
  switch (step.op) {
    case BuildOp::addi:
      e.addi(d, zero, step.imm);
      break;
    case BuildOp::lui:
      e.lui(d, step.imm);
      break;
    case BuildOp::rori:
      e.rori(d, a, static_cast<int>(step.imm));
      break;
    case BuildOp::slli:
      e.slli(d, a, static_cast<int>(step.imm));
      break;
    case BuildOp::srli:
      e.srli(d, a, static_cast<int>(step.imm));
      break;
    case BuildOp::xori:
      e.xori(d, a, step.imm);
      break;
    case BuildOp::add:
      e.addi(d, a, step.imm);
      break;
  }
}

// What a kernel does with an iota plan as walk_iota_plan visits it: the scalar kernel XORs
// the low bits and then each part into the lane as the part is built; the vector kernel
// builds the whole constant in a register, the low bits last, and XORs it into every
// state's lane at once.
struct IotaPlanOps {
  bool low_first = false;
  std::function<void(std::int64_t low, bool has_parts)> low;
  std::function<void(std::size_t part, const BuildStep&)> step;
  std::function<void(std::size_t part)> part_built;
};

void walk_iota_plan(const IotaPlan& plan, const IotaPlanOps& ops) {
  const bool has_parts = !plan.parts.empty();
  if (ops.low_first && plan.low != 0) ops.low(plan.low, has_parts);
  for (std::size_t part = 0; part < plan.parts.size(); ++part) {
    for (const BuildStep& step : plan.parts[part])
      ops.step(part, step);
    ops.part_built(part);
  }
  if (!ops.low_first && plan.low != 0) ops.low(plan.low, has_parts);
}

// One row of chi in place, b(x) ^= ~b(x+1) & b(x+2): the two terms that need the row's
// first lanes (for lanes 3 and 4) first, into t[0] and t[1], then the other three through
// t[2]. `and_not(d, a, b)` leaves a & ~b in d (d differs from a and b); `exclusive_or(d, a,
// b)` leaves a ^ b.
template <typename AndNot, typename ExclusiveOr>
void emit_chi_row(const std::array<Reg, 5>& b, const std::array<Reg, 3>& t, AndNot and_not,
                  ExclusiveOr exclusive_or) {
  and_not(t[0], b[0], b[4]);  // for lane 3
  and_not(t[1], b[1], b[0]);  // for lane 4
  for (std::size_t x = 0; x < 3; ++x) {
    and_not(t[2], b[x + 2], b[x + 1]);
    exclusive_or(b[x], b[x], t[2]);
  }
  exclusive_or(b[3], b[3], t[0]);
  exclusive_or(b[4], b[4], t[1]);
}

// Row y of the lanes as `map` places them.
std::array<Reg, 5> lane_row(const LaneMap& map, int y) {
  std::array<Reg, 5> row{};
  for (int x = 0; x < 5; ++x)
    row[static_cast<std::size_t>(x)] = map[static_cast<std::size_t>(keccak::lane_index(x, y))];
  return row;
}

class Riscv64KeccakBuilder {
 public:
  explicit Riscv64KeccakBuilder(bool zbb)
      : zbb_(zbb), suffix_(zbb ? "riscv64_zbb" : "riscv64"), maps_(lane_maps()) {}

  BuiltKernel build() {
    Program& program = kernel_.program;
    program.isa = Isa::riscv64;
    if (zbb_) program.arch_directive = "+zbb";
    program.options = {{"syntax", "gnu-as riscv64"},
                       {"rounds", "24, unrolled; pi by renaming"},
                       {"extensions", zbb_ ? "rv64i, zbb" : "rv64i"},
                       {"abi", "lp64"}};
    for (int round : {0, keccak::kRounds / 2}) {
      round_labels_[round] =
          program.new_label(fmt::format("keccakf1600_{}_round{}", suffix_, round));
    }
    for (const keccak::RoundVariant& variant : keccak::model().variants) {
      emit_permute_entry(variant);
      for (const keccak::Rate& rate : variant.absorb_rates)
        emit_absorb_entry(variant, rate);
    }
    kernel_.header = [zbb = zbb_, suffix = suffix_](const HeaderInputs& in) {
      return header_lines(
          zbb, header_figures(in.audit, entry_symbol(keccak::model().variants.front(), suffix, 0)));
    };
    return std::move(kernel_);
  }

 private:
  // The first entry (Keccak-f[1600]'s permute) holds the 24 unrolled rounds and the
  // epilogue; every other entry saves, loads and branches into them.
  void emit_permute_entry(const keccak::RoundVariant& variant) {
    Emitter e(kernel_.program, add_permute_entry(kernel_, variant, suffix_));
    emit_prologue(e);
    emit_load(e, variant, 0);
    if (body_emitted_) {
      e.j(round_labels_.at(variant.first_round()));
      return;
    }
    body_emitted_ = true;
    emit_body(e);
  }

  void emit_absorb_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Emitter e(kernel_.program, add_absorb_entry(kernel_, variant, suffix_, rate));
    emit_prologue(e);
    emit_load(e, variant, rate.lanes());
    e.j(round_labels_.at(variant.first_round()));
  }

  void emit_prologue(Emitter& e) {
    e.comment("Save ra and s0-s11 (they hold lanes) and the state pointer.");
    e.addi(sp, sp, -kFrameBytes);
    e.cfi({CfiKind::def_cfa_offset, kFrameBytes});
    for (int i = 0; i < kSavedRegisters; ++i)
      e.sd(saved_register(i), at(sp, 8 * i));
    e.sd(kState, at(sp, kStatePointerSlot));
    for (int i = 0; i < kSavedRegisters; ++i)
      e.cfi({CfiKind::offset, -kFrameBytes + 8 * i, saved_register(i)});
  }

  // The lanes into the registers the entry's first round expects; the first
  // `block_lanes` lanes XORed with the block (any alignment: ld of an unaligned address is
  // valid RV64, though a core may trap and emulate it).
  void emit_load(Emitter& e, const keccak::RoundVariant& variant, int block_lanes) {
    const LaneMap& map = maps_[static_cast<std::size_t>(variant.first_round())];
    e.comment(block_lanes == 0 ? "The lanes into their registers; a0 and a1 last."
                               : "The lanes, XORed with the block, into their registers.");
    // The lanes held in a0 and a1 go last, once the block and the state pointer are read.
    std::vector<int> order;
    for (int lane = 0; lane < keccak::kLanes; ++lane) {
      if (map[static_cast<std::size_t>(lane)] != kState &&
          map[static_cast<std::size_t>(lane)] != kBlock) {
        order.push_back(lane);
      }
    }
    for (int lane = 0; lane < keccak::kLanes; ++lane) {
      if (map[static_cast<std::size_t>(lane)] == kBlock) order.push_back(lane);
    }
    for (int lane = 0; lane < keccak::kLanes; ++lane) {
      if (map[static_cast<std::size_t>(lane)] == kState) order.push_back(lane);
    }
    // A block word whose lane goes into a0 or a1 is read first (into t5 or t6), while
    // those registers still hold the pointers.
    const auto pending = [&](Reg r) { return r == kBlock ? kT1 : kT2; };
    for (int lane : order) {
      const Reg r = map[static_cast<std::size_t>(lane)];
      if (lane < block_lanes && (r == kState || r == kBlock)) {
        e.ld(pending(r), at(kBlock, kLaneBytes * lane));
      }
    }
    for (int lane : order) {
      const Reg r = map[static_cast<std::size_t>(lane)];
      e.ld(r, at(kState, kLaneBytes * lane));
      if (lane >= block_lanes) continue;
      if (r == kState || r == kBlock) {
        e.xor_(r, r, pending(r));
      } else {
        e.ld(kT0, at(kBlock, kLaneBytes * lane));
        e.xor_(r, r, kT0);
      }
    }
  }

  void emit_body(Emitter& e) {
    for (int round = 0; round < keccak::kRounds; ++round) {
      if (const auto label = round_labels_.find(round); label != round_labels_.end()) {
        e.bind(label->second);
      }
      e.begin_round(round, false);
      emit_round(e, round);
      e.end_round();
    }
    e.blank();
    e.comment("Store the state (every lane is back in its register) and restore.");
    e.ld(kT0, at(sp, kStatePointerSlot));
    for (int lane = 0; lane < keccak::kLanes; ++lane)
      e.sd(maps_[keccak::kRounds][static_cast<std::size_t>(lane)], at(kT0, kLaneBytes * lane));
    e.comment("Theta's slots hold state-derived values: zero them before the frame is released.");
    e.sd(zero, at(sp, kSpillSlot));
    if (!zbb_) e.sd(zero, at(sp, kBorrowSlot));
    for (int i = 0; i < kSavedRegisters; ++i)
      e.ld(saved_register(i), at(sp, 8 * i));
    e.addi(sp, sp, kFrameBytes);
    for (int i = 0; i < kSavedRegisters; ++i)
      e.cfi({CfiKind::restore, 0, saved_register(i)});
    e.cfi({CfiKind::def_cfa_offset, 0});
    e.ret();
  }

  // d = a rotated left by `left` (0 < left < 64); `scratch` is free (without Zbb).
  void rotate_left(Emitter& e, Reg d, Reg a, int left, Reg scratch) {
    if (zbb_) {
      e.rori(d, a, 64 - left);
      return;
    }
    e.slli(scratch, a, left);
    e.srli(d, a, 64 - left);
    e.or_(d, d, scratch);
  }

  // Theta's d = rotl(a, 1), given the temporaries that hold live values. Without Zbb the two
  // shifts need a scratch: a dead `a` (when d differs), a free temporary, or else a live
  // one borrowed through the frame (saved and reloaded around the rotation).
  void rotate_column_sum(Emitter& e, Reg d, Reg a, std::initializer_list<Reg> live) {
    if (zbb_) {
      e.rori(d, a, 63);
      return;
    }
    const auto is_live = [&](Reg r) {
      return std::find(live.begin(), live.end(), r) != live.end();
    };
    if (d != a && !is_live(a)) {
      e.srli(d, a, 63);
      e.slli(a, a, 1);
      e.or_(d, d, a);
      return;
    }
    for (Reg r : {kT0, kT1, kT2}) {
      if (r != d && r != a && !is_live(r)) {
        rotate_left(e, d, a, 1, r);
        return;
      }
    }
    const Reg borrowed = a != kT0 && d != kT0 ? kT0 : a != kT1 && d != kT1 ? kT1 : kT2;
    e.sd(borrowed, at(sp, kBorrowSlot));
    rotate_left(e, d, a, 1, borrowed);
    e.ld(borrowed, at(sp, kBorrowSlot));
  }

  // d = a & ~b; `d` differs from `a` and `b` without Zbb.
  void and_not(Emitter& e, Reg d, Reg a, Reg b) {
    if (zbb_) {
      e.andn(d, a, b);
      return;
    }
    e.not_(d, b);
    e.and_(d, d, a);
  }

  // theta with the three temporaries (a = kT0, b = kT1, c = kT2) and one spilled column sum.
  // D[x] = C[x-1] ^ rotl(C[x+1], 1) needs each C twice; with 25 lanes in registers the
  // order below holds at most three of C and D at a time but for C1, which waits in the
  // frame from D0 to D2: 57 instructions with Zbb, the fewest of any order with three
  // temporaries (tests/generator/test_theta_orders.cpp searches them all).
  template <typename Lane>
  void emit_theta(Emitter& e, const Lane& lane) {
    const auto column_sum = [&](Reg d, int x) {
      e.xor_(d, lane(x, 0), lane(x, 1));
      for (int y = 2; y < 5; ++y)
        e.xor_(d, d, lane(x, y));
    };
    const auto apply = [&](int x, Reg d) {
      for (int y = 0; y < 5; ++y)
        e.xor_(lane(x, y), lane(x, y), d);
    };
    e.comment("theta: C1 to the frame; D0 = C4 ^ rotl(C1), applied once C0 is summed.");
    column_sum(kT0, 1);
    e.sd(kT0, at(sp, kSpillSlot));
    column_sum(kT1, 4);
    rotate_column_sum(e, kT2, kT0, {kT1});
    e.xor_(kT2, kT2, kT1);
    column_sum(kT0, 0);
    apply(0, kT2);
    e.comment("D3 = C2 ^ rotl(C4) (kept for last), D1 = C0 ^ rotl(C2).");
    column_sum(kT2, 2);
    rotate_column_sum(e, kT1, kT1, {kT0, kT2});
    e.xor_(kT1, kT1, kT2);
    rotate_column_sum(e, kT2, kT2, {kT0, kT1});
    e.xor_(kT2, kT2, kT0);
    apply(1, kT2);
    e.comment("D4 = C3 ^ rotl(C0), D2 = C1 (from the frame) ^ rotl(C3), then D3.");
    column_sum(kT2, 3);
    rotate_column_sum(e, kT0, kT0, {kT1, kT2});
    e.xor_(kT0, kT0, kT2);
    apply(4, kT0);
    rotate_column_sum(e, kT2, kT2, {kT1});
    e.ld(kT0, at(sp, kSpillSlot));
    e.xor_(kT2, kT2, kT0);
    apply(2, kT2);
    apply(3, kT1);
  }

  void emit_round(Emitter& e, int round) {
    const LaneMap& lanes = maps_[static_cast<std::size_t>(round)];
    const auto lane = [&](int x, int y) {
      return lanes[static_cast<std::size_t>(keccak::lane_index(x, y))];
    };
    emit_theta(e, lane);
    e.comment("rho in place; pi renames the registers (the next round's lane map).");
    for (int i = 0; i < keccak::kLanes; ++i) {
      const int offset = keccak::model().rho_offsets[static_cast<std::size_t>(i)] % 64;
      if (offset != 0)
        rotate_left(e, lanes[static_cast<std::size_t>(i)], lanes[static_cast<std::size_t>(i)],
                    offset, kT0);
    }
    e.comment("chi row by row, in place: the two terms that need the row's first lanes first.");
    const LaneMap& next = maps_[static_cast<std::size_t>(round + 1)];
    for (int y = 0; y < 5; ++y) {
      emit_chi_row(
          lane_row(next, y), {kT0, kT1, kT2}, [&](Reg d, Reg a, Reg b) { and_not(e, d, a, b); },
          [&](Reg d, Reg a, Reg b) { e.xor_(d, a, b); });
    }
    emit_iota(e, next[0], round);
  }

  // lane ^= the round's constant as plan_iota found it, each part built in kT0.
  void emit_iota(Emitter& e, Reg lane, int round) const {
    e.comment(fmt::format("iota: 0x{:016x}",
                          keccak::model().round_constants[static_cast<std::size_t>(round)]));
    IotaPlanOps ops;
    ops.low_first = true;
    ops.low = [&](std::int64_t low, bool) { e.xori(lane, lane, low); };
    ops.step = [&](std::size_t, const BuildStep& step) { emit_build_step(e, kT0, kT0, step); };
    ops.part_built = [&](std::size_t) { e.xor_(lane, lane, kT0); };
    walk_iota_plan(iota_plans(zbb_)[static_cast<std::size_t>(round)], ops);
  }

  static std::vector<std::string> header_lines(bool zbb, const HeaderFigures& figures) {
    const audit::EntryAudit& permute = figures.permute;
    // The parts of a round as emit_round emits them: theta's column sums (4 xor each), the
    // spill of C1 (sd, ld), D (a rotation and an xor per column) applied to 25 lanes, and
    // without Zbb the three rotations that borrow a temporary (sd, ld); 24 rotations; chi's
    // five rows of 5 and-nots and 5 xor. They must leave iota a positive count.
    const std::uint64_t rotation = zbb ? 1 : 3, and_not = zbb ? 1 : 2;
    const std::uint64_t theta = 5 * 4 + 2 + 5 * (rotation + 1) + 25 + (zbb ? 0 : 3 * 2),
                        rho = 24 * rotation, chi = 5 * (5 * and_not + 5);
    if (permute.per_round.total <= theta + rho + chi) {
      throw GenerationError("riscv64: the round's parts exceed the audit's count of a round");
    }
    const std::uint64_t iota = permute.per_round.total - theta - rho - chi;
    std::vector<std::string> lines = {
        fmt::format("Keccak-p[1600] for riscv64 ({}), LP64.", zbb ? "RV64I with Zbb" : "RV64I"),
        "",
        "Registers: the 25 lanes in ra, t0-t2, s0-s11, a2-a7, t3 and a0-a1 (a0 and a1 last,",
        "once the block is absorbed and the state pointer saved); t4-t6 are temporaries.",
        "zero, sp, gp and tp are not used: gp and tp belong to the program.",
        fmt::format("Frame: {} bytes: ra and s0-s11, the state pointer, theta's spilled column",
                    permute.frame_bytes),
        zbb ? "sum (zeroed before the return)."
            : "sum and the temporary a rotation borrows (both zeroed before the return).",
        "Rounds: 24, unrolled. Pi renames registers instead of moving lanes: its lane",
        "permutation is a 24-cycle, so after 24 rounds every lane is back in its register;",
        "a 12-round entry loads the lanes where round 12 expects them and jumps there.",
        zbb ? "Rotations are rori, chi's and-not andn (Zbb)."
            : "Without Zbb a rotation is slli, srli and or; chi's and-not is not and and.",
        "",
        "Theta: D[x] = C[x-1] ^ rotl(C[x+1], 1) uses each column sum twice, and at its peak",
        "four of the C and D are live where the 25 lanes leave three temporaries. With four",
        "an order takes 55, the least (20 XORs for the sums, 5 rotations, 5 XORs, 25 to",
        "apply). With three and Zbb, an exhaustive search over theta's steps (sum a column",
        "into a temporary, rotate, XOR two temporaries, apply a D, store to or load from one",
        "frame slot; values any XOR of the sums and their rotations) finds none under 57, and",
        "none of 57 without the slot: tests/generator/test_theta_orders.cpp.",
        fmt::format("This order takes {}: the 55 order's, but C1 waits in the frame (sd, ld)",
                    theta),
        zbb ? "from D0 to D2. Putting all five sums through the frame took 70."
            : "from D0 to D2, and three rotations borrow a temporary (sd, ld). Putting all five",
    };
    if (!zbb) lines.emplace_back("sums through the frame took 80.");
    lines.insert(
        lines.end(),
        {
            "Iota: each constant from immediates, no table (so no PC-relative address and",
            "no relocation): the shortest plan a search finds of an xori of the low 11 bits",
            "(or a negative xori, which also flips bits 11-63) and the rest built in t4 from",
            fmt::format(
                "addi or lui and one {}shift, xori or addi, or as that and then a shift of it",
                zbb ? "rori, " : ""),
            fmt::format(
                "(0x8000000000008000, then >> 32): {} instructions over the 24 rounds, {} bit",
                iota_instructions(zbb), iota_instructions_bit_by_bit()),
            "by bit (lui or addi and slli per bit from 11 up).",
            "",
            "Figures of the code (the audit's; the first round's: iota's length follows its "
            "constant):",
            fmt::format("  per round          {}  (theta {}, rho {}, chi {}, iota {})",
                        permute.per_round.total, theta, rho, chi, iota),
            "  loop               0 per round, 0 per permutation",
            fmt::format("  per permutation    {}  (one call of the permute entry)",
                        permute.per_permutation.total),
            fmt::format("  permute entry      {} instructions, {} bytes",
                        permute.static_instructions, permute.code_bytes),
            fmt::format("  absorb entry       up to {} before the branch into the rounds",
                        figures.largest_absorb_instructions),
            fmt::format("  frame              {} bytes, {} registers saved", permute.frame_bytes,
                        permute.saved_registers.size()),
            "",
            ".option norvc and norelax: every instruction is the 4-byte word the encoder writes",
            "and every branch offset is final in the object, so the encoding proof compares",
            "them all.",
            "Speed: not measured; no RISC-V hardware here (qemu runs it for the tests).",
        });
    return lines;
  }

  bool zbb_;
  std::string suffix_;
  std::array<LaneMap, keccak::kRounds + 1> maps_;
  BuiltKernel kernel_;
  std::map<int, LabelId> round_labels_;
  bool body_emitted_ = false;
};

// ---- riscv64-v-x<N>: N states on the vector registers (e64, LMUL 1) ----

// Lane i of the N states is one register (v<i>); v25-v31 are theta's column sums and the
// temporaries of theta's D, rho and chi. No instruction is masked, so v0 holds a lane.
constexpr int kVectorTemporaries = 32 - keccak::kLanes;
constexpr Reg kColumnSum[5] = {v(25), v(26), v(27), v(28), v(29)};
constexpr Reg kVT0 = v(30), kVT1 = v(31);
constexpr Reg kVectorLength = x(5);            // t0: vl, then the lane address
constexpr Reg kConstant = x(6), kPart = x(7);  // t1, t2: iota's constant and its parts
// The shift amounts of 32 and up: vsll.vi and vsrl.vi reach 31, so each rotation takes its
// larger shift from one of these registers (17 distinct amounts: rho's 24 and theta's 63).
constexpr std::array<Reg, 17> kShiftRegisters = {x(28), x(29), x(30), x(31), a(1), a(2),
                                                 a(3),  a(4),  a(5),  a(6),  a(7), x(8),
                                                 x(9),  x(18), x(19), x(20), x(21)};
// s0, s1 and s2-s5 hold shift amounts: callee-saved, so the frame keeps the caller's.
constexpr std::array<Reg, 6> kVectorSavedRegisters = {x(8), x(9), x(18), x(19), x(20), x(21)};
// Every entry's frame: s0-s5, then the block entries' blocks left and each state's next
// block pointer (moved on by the rate after its block; the scalar registers hold shift
// amounts). One size for all: the entries share the rounds' tail, which stores the states
// and releases the frame.
constexpr int kLargestLeafRate = 168;  // KT128's and ParallelHash128's: the header's figures
constexpr int kBlockCountSlot = 8 * static_cast<int>(kVectorSavedRegisters.size());
constexpr int kBlockPointerSlot = kBlockCountSlot + 8;
int vector_frame_bytes(int states) {
  return (kBlockPointerSlot + 8 * states + 15) / 16 * 16;
}
// t0 through the rounds (kVectorLength's register, free once the lanes are loaded): 0, or
// the number (from 1) of the block entry whose block they permute, which the shared tail
// reads to go on with that entry's next block.
constexpr Reg kBlockEntry = x(5);
// blocks[s] while a block is XORed in (the shift amounts are set after it).
constexpr std::array<Reg, 8> kBlockPointers = {x(6), x(7), x(28), x(29), x(30), x(31), a(2), a(3)};

LaneMap vector_load_registers() {
  LaneMap map{};
  for (int i = 0; i < keccak::kLanes; ++i)
    map[static_cast<std::size_t>(i)] = v(i);
  return map;
}

// The amounts of 32 and up that the rotations need, ascending.
std::vector<int> large_shift_amounts() {
  std::vector<int> amounts = {63};  // theta's rotl(C, 1): vsrl by 63
  for (int offset : keccak::model().rho_offsets) {
    const int left = offset % 64;
    if (left != 0) amounts.push_back(std::max(left, 64 - left));
  }
  std::sort(amounts.begin(), amounts.end());
  amounts.erase(std::unique(amounts.begin(), amounts.end()), amounts.end());
  return amounts;
}

// The register swaps that move every lane from the register `from` names to the one `to`
// names: one a lane not yet in place, a cycle of k registers taking k - 1.
std::vector<std::pair<Reg, Reg>> lane_swaps(const LaneMap& from, const LaneMap& to) {
  std::vector<std::pair<Reg, Reg>> swaps;
  LaneMap now = from;
  for (std::size_t lane = 0; lane < now.size(); ++lane) {
    const Reg here = now[lane], there = to[lane];
    if (here == there) continue;
    swaps.emplace_back(here, there);
    for (Reg& r : now) {
      if (r == there) r = here;
    }
    now[lane] = there;
  }
  return swaps;
}

class Riscv64VectorKeccakBuilder {
 public:
  explicit Riscv64VectorKeccakBuilder(int states)
      : states_(states),
        suffix_(fmt::format("riscv64_v_x{}", states)),
        maps_(lane_maps(vector_load_registers())),
        amounts_(large_shift_amounts()) {
    if (amounts_.size() != kShiftRegisters.size()) {
      throw GenerationError("riscv64-v: rho's shift amounts do not fit the shift registers");
    }
    if (states < 2 || states > 8 || 8 * states * (keccak::kLanes - 1) > 2047) {
      throw GenerationError("riscv64-v: 2 to 8 states");
    }
  }

  BuiltKernel build() {
    Program& program = kernel_.program;
    program.isa = Isa::riscv64;
    program.arch_directive = "+v";
    program.options = {{"syntax", "gnu-as riscv64"},
                       {"rounds", "24, unrolled; pi by renaming"},
                       {"extensions", "rv64i, v (e64, m1)"},
                       {"states", std::to_string(states_)},
                       {"abi", "lp64"}};
    for (int round : {0, keccak::kRounds / 2}) {
      round_labels_[round] =
          program.new_label(fmt::format("keccakf1600_{}_round{}", suffix_, round));
    }
    store_ = program.new_label(fmt::format("keccakf1600_{}_store", suffix_));
    // The block entries by number, from 1 (what t0 holds through their rounds), each with
    // the label where the shared tail goes on with it. The tail tries them in this order,
    // each later one two instructions a block dearer: rate 168 first (KT128's leaves at 12
    // rounds, then ParallelHash128's at 24), then 136.
    for (const keccak::RoundVariant& variant : keccak::model().variants) {
      for (const keccak::Rate& rate : variant.leaf_rates)
        block_entries_.push_back({variant.rounds, rate.bytes, kNoLabel});
    }
    std::stable_sort(block_entries_.begin(), block_entries_.end(),
                     [](const BlockEntry& a, const BlockEntry& b) {
                       return a.rate != b.rate ? a.rate > b.rate : a.rounds < b.rounds;
                     });
    for (std::size_t i = 0; i < block_entries_.size(); ++i) {
      block_entries_[i].next =
          program.new_label(fmt::format("keccakf1600_{}_block_entry{}", suffix_, i + 1));
    }
    for (const keccak::RoundVariant& variant : keccak::model().variants) {
      emit_permute_entry(variant);
      for (const keccak::Rate& rate : variant.absorb_rates)
        emit_absorb_entry(variant, rate);
      for (const keccak::Rate& rate : variant.leaf_rates)
        emit_absorb_blocks_entry(variant, rate);
    }
    // What one more block runs in a block entry's loop at the largest leaf rate: the next
    // block's part of the entry (counted down, swaps, XORed in), the shared rounds and
    // their tail's test, and the tail's way to the entry.
    std::map<int, std::size_t> per_block;
    for (std::size_t i = 0; i < block_entries_.size(); ++i) {
      const BlockEntry& entry = block_entries_[i];
      if (entry.rate != kLargestLeafRate) continue;
      per_block[entry.rounds] = entry.next_block_instructions +
                                shared_round_instructions_.at(keccak::kRounds - entry.rounds) +
                                dispatch_instructions(i + 1);
    }
    kernel_.header = [states = states_, suffix = suffix_, per_block](const HeaderInputs& in) {
      // A call of the absorb entry at the largest leaf rate, each variant's, for the
      // comparison with a block of the block entry's loop.
      std::map<int, std::uint64_t> per_call;
      for (const keccak::RoundVariant& variant : keccak::model().variants) {
        const std::string symbol = entry_symbol(variant, suffix, kLargestLeafRate);
        for (const audit::EntryAudit& entry : in.audit.entries) {
          if (entry.symbol == symbol) per_call[variant.rounds] = entry.per_permutation.total;
        }
      }
      return header_lines(
          states,
          header_figures(in.audit, entry_symbol(keccak::model().variants.front(), suffix, 0)),
          per_block, per_call);
    };
    return std::move(kernel_);
  }

 private:
  struct BlockEntry {
    int rounds;
    int rate;
    LabelId next;  // where the shared tail goes on with the entry after a block
    std::size_t next_block_instructions = 0;  // from `next` through the jump into the rounds
  };

  // The entries that permute once set t0 to 0, so the shared tail stores the states.
  void emit_permute_entry(const keccak::RoundVariant& variant) {
    Emitter e(kernel_.program, add_permute_entry(kernel_, variant, suffix_, states_));
    emit_vector_length_check(e);
    emit_prologue(e);
    emit_load(e, variant, 0);
    emit_shift_amounts(e);
    emit_no_block_entry(e);
    if (body_emitted_) {
      e.j(round_labels_.at(variant.first_round()));
      return;
    }
    body_emitted_ = true;
    emit_body(e);
  }

  void emit_absorb_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Emitter e(kernel_.program, add_absorb_entry(kernel_, variant, suffix_, rate, states_));
    emit_vector_length_check(e);
    emit_prologue(e);
    emit_load(e, variant, rate.lanes());
    emit_shift_amounts(e);
    emit_no_block_entry(e);
    e.j(round_labels_.at(variant.first_round()));
  }

  void emit_no_block_entry(Emitter& e) {
    e.comment("t0 = 0: no block entry, the rounds' tail stores the states and returns.");
    e.addi(kBlockEntry, zero, 0);
  }

  // block_count blocks a state in one call: the lanes stay in v0-v24 from block to block,
  // where the entry's first round expects them; each block is XORed in as the absorb
  // entries do, from pointers kept in the frame, and the rounds are the shared ones, with
  // t0 = the entry's number: their tail comes back here, which counts the block and goes
  // on with the next or stores through the tail's store. A 12-round permutation leaves the
  // lanes where round 0 expects them, so a next block starts with the swaps that put them
  // back where round 12 does (and 0 blocks with the swaps the other way).
  void emit_absorb_blocks_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Function& function = add_absorb_blocks_entry(kernel_, variant, suffix_, rate, states_);
    const std::string symbol = function.symbol;
    Emitter e(kernel_.program, function);
    const LaneMap& map = maps_[static_cast<std::size_t>(variant.first_round())];
    const LaneMap& after_rounds = maps_[keccak::kRounds];
    const auto number = static_cast<std::size_t>(
        std::find_if(block_entries_.begin(), block_entries_.end(),
                     [&](const BlockEntry& b) {
                       return b.rounds == variant.rounds && b.rate == rate.bytes;
                     }) -
        block_entries_.begin());
    BlockEntry& entry = block_entries_.at(number);
    emit_vector_length_check(e);
    emit_prologue(e);
    e.comment("The block count and the N block pointers (blocks[s] in a1) into the frame.");
    e.sd(a(2), at(sp, kBlockCountSlot));
    for (int s = 0; s < states_; ++s) {
      e.ld(kConstant, at(a(1), 8 * s));
      e.sd(kConstant, at(sp, kBlockPointerSlot + 8 * s));
    }
    emit_load(e, variant, 0);
    const LabelId block = kernel_.program.new_label(symbol + "_block");
    const LabelId more = kernel_.program.new_label(symbol + "_more");
    // A branch reaches 4 KiB and the rounds are longer: each far target is reached by j,
    // the branch falling through into the path that runs on (the audit walks that one).
    const LabelId none = kernel_.program.new_label(symbol + "_none");
    e.beqz(a(2), none);
    e.j(block);
    e.blank();
    e.comment("The shared rounds' tail goes on here after each block: the blocks left.");
    e.bind(entry.next);
    e.ld(kBlockEntry, at(sp, kBlockCountSlot));
    e.addi(kBlockEntry, kBlockEntry, -1);
    e.sd(kBlockEntry, at(sp, kBlockCountSlot));
    e.bnez(kBlockEntry, more);
    e.j(store_);
    e.bind(more);
    emit_lane_swaps(e, after_rounds, map);
    e.bind(block);
    emit_xor_next_blocks(e, map, rate);
    emit_shift_amounts(e);
    e.comment(fmt::format("t0 = {}: the rounds' tail comes back to this entry.", number + 1));
    e.addi(kBlockEntry, zero, static_cast<std::int64_t>(number + 1));
    e.j(round_labels_.at(variant.first_round()));
    e.bind(none);
    // One more block runs everything from `next` to `none` but the j to the store.
    entry.next_block_instructions = function.instructions_between(entry.next, none) - 1;
    e.comment("0 blocks: the lanes where the tail's store expects them.");
    emit_lane_swaps(e, map, after_rounds);
    e.j(store_);
  }

  // The instructions the shared tail's way to block entry `number` (from 1) runs: one
  // addi and bnez past each entry before it, then the addi, the bnez and the j to it (the
  // last entry: only the j).
  std::size_t dispatch_instructions(std::size_t number) const {
    return 2 * (number - 1) + (number < block_entries_.size() ? 3 : 1);
  }

  // Lane i of each state's next block XORed into lane i (in the registers `map` names), the
  // pointers from the frame and back, each on by the rate.
  void emit_xor_next_blocks(Emitter& e, const LaneMap& map, const keccak::Rate& rate) {
    e.comment("Each state's next block from the frame; lane i of the N blocks gathered and XORed.");
    for (int s = 0; s < states_; ++s)
      e.ld(kBlockPointers[static_cast<std::size_t>(s)], at(sp, kBlockPointerSlot + 8 * s));
    for (int lane = 0; lane < rate.lanes(); ++lane) {
      for (int s = 0; s < states_; ++s) {
        e.ld(a(1), at(kBlockPointers[static_cast<std::size_t>(s)], kLaneBytes * lane));
        e.vslide1down(kVT0, kVT0, a(1));
      }
      e.vxor(map[static_cast<std::size_t>(lane)], map[static_cast<std::size_t>(lane)], kVT0);
    }
    e.comment("each state's pointer on by the rate");
    for (int s = 0; s < states_; ++s) {
      const Reg pointer = kBlockPointers[static_cast<std::size_t>(s)];
      e.addi(pointer, pointer, rate.bytes);
      e.sd(pointer, at(sp, kBlockPointerSlot + 8 * s));
    }
  }

  // Every lane from the register `from` names into the one `to` names, by XOR swaps
  // (three vxor each).
  void emit_lane_swaps(Emitter& e, const LaneMap& from, const LaneMap& to) {
    const std::vector<std::pair<Reg, Reg>> swaps = lane_swaps(from, to);
    if (swaps.empty()) return;
    e.comment("The lanes by XOR swaps into the registers the code after expects them in.");
    for (const auto& [here, there] : swaps) {
      e.vxor(here, here, there);
      e.vxor(there, there, here);
      e.vxor(here, here, there);
    }
  }

  // vl = N or the entry traps: a CPU whose VLEN holds fewer than N 64-bit elements would
  // otherwise permute fewer states than the caller passed, silently.
  void emit_vector_length_check(Emitter& e) {
    e.comment(
        fmt::format("vl = {} (e64, m1), or trap: VLEN must hold {} lanes.", states_, states_));
    e.vsetivli(kVectorLength, states_, kVtypeE64M1TaMa);
    e.annotate("e64, m1, ta, ma");
    e.addi(kVectorLength, kVectorLength, -states_);
    const LabelId checked = kernel_.program.new_label(
        fmt::format("{}_vl_checked{}", suffix_, kernel_.program.functions.size()));
    e.beqz(kVectorLength, checked);
    e.unimp();
    e.bind(checked);
  }

  void emit_prologue(Emitter& e) {
    const int frame = vector_frame_bytes(states_);
    e.comment("Save s0-s5 (they hold shift amounts).");
    e.addi(sp, sp, -frame);
    e.cfi({CfiKind::def_cfa_offset, frame});
    for (std::size_t i = 0; i < kVectorSavedRegisters.size(); ++i)
      e.sd(kVectorSavedRegisters[i], at(sp, static_cast<std::int32_t>(8 * i)));
    emit_saved_registers_cfi(e);
  }

  // Where the prologue saved s0-s5, for the unwinder.
  void emit_saved_registers_cfi(Emitter& e) {
    const int frame = vector_frame_bytes(states_);
    for (std::size_t i = 0; i < kVectorSavedRegisters.size(); ++i)
      e.cfi({CfiKind::offset, -frame + static_cast<int>(8 * i), kVectorSavedRegisters[i]});
  }

  // Lane i of the N states (8N bytes at state + 8Ni) into the register the entry's first
  // round expects; the first `block_lanes` lanes XORed with the blocks, lane i of each
  // state's block gathered into a temporary by N scalar loads and vslide1down.
  void emit_load(Emitter& e, const keccak::RoundVariant& variant, int block_lanes) {
    const LaneMap& map = maps_[static_cast<std::size_t>(variant.first_round())];
    const std::array<Reg, 8>& pointers = kBlockPointers;
    if (block_lanes > 0) {
      e.comment("The N block pointers (blocks[s] in a1).");
      for (int s = 0; s < states_; ++s)
        e.ld(pointers[static_cast<std::size_t>(s)], at(a(1), 8 * s));
    }
    e.comment(block_lanes == 0 ? "Lane i of every state into its register."
                               : "Lane i of every state, XORed with lane i of each block.");
    for (int lane = 0; lane < keccak::kLanes; ++lane) {
      const Reg r = map[static_cast<std::size_t>(lane)];
      emit_lane_address(e, lane);
      e.vle64(r, at(lane == 0 ? kState : kVectorLength));
      if (lane >= block_lanes) continue;
      for (int s = 0; s < states_; ++s) {
        e.ld(a(1), at(pointers[static_cast<std::size_t>(s)], kLaneBytes * lane));
        e.vslide1down(kVT0, kVT0, a(1));
      }
      e.vxor(r, r, kVT0);
    }
  }

  // t0 = the address of lane `lane` of the N states (lane 0 is at a0 itself).
  void emit_lane_address(Emitter& e, int lane) {
    if (lane != 0) e.addi(kVectorLength, kState, 8 * states_ * lane);
  }

  void emit_shift_amounts(Emitter& e) {
    e.comment("The shift amounts of 32 and up, for the rotations' vsll.vx and vsrl.vx.");
    for (std::size_t i = 0; i < amounts_.size(); ++i)
      e.addi(kShiftRegisters[i], zero, amounts_[i]);
  }

  Reg shift_register(int amount) const {
    const auto it = std::find(amounts_.begin(), amounts_.end(), amount);
    if (it == amounts_.end()) throw GenerationError("riscv64-v: no register holds that shift");
    return kShiftRegisters[static_cast<std::size_t>(it - amounts_.begin())];
  }

  // d = rotl(a, left), `scratch` free and different from both: the shift under 32 by
  // immediate, the other from its register.
  void rotate_left(Emitter& e, Reg d, Reg a, int left, Reg scratch) {
    if (left < 32) {
      e.vsll(scratch, a, left);
      e.vsrl(d, a, shift_register(64 - left));
    } else {
      e.vsll(scratch, a, shift_register(left));
      e.vsrl(d, a, 64 - left);
    }
    e.vor(d, d, scratch);
  }

  // The rounds every entry runs, and their tail: t0 = 0 stores the states and returns,
  // t0 = k goes on with block entry k (each by j: its code is beyond a branch's reach).
  void emit_body(Emitter& e) {
    emit_rounds(e, 0, true);
    e.blank();
    e.comment("t0: 0, or the block entry whose block these rounds permuted.");
    const LabelId to_block_entry =
        kernel_.program.new_label(fmt::format("keccakf1600_{}_to_block_entry", suffix_));
    e.bnez(kBlockEntry, to_block_entry);
    e.bind(store_);
    for (const auto& [round, label] : round_labels_) {
      shared_round_instructions_[round] =
          kernel_.program.functions.back().instructions_between(label, store_);
    }
    emit_store_and_return(e, maps_[keccak::kRounds]);
    e.bind(to_block_entry);
    // The jumps to the block entries run in the frame, which the CFI after the store's ret
    // no longer describes: the unwinder needs it stated again from here.
    e.comment("Still in the frame (the CFI after the ret above says otherwise): state it again.");
    e.cfi({CfiKind::def_cfa_offset, vector_frame_bytes(states_)});
    emit_saved_registers_cfi(e);
    for (std::size_t i = 0; i < block_entries_.size(); ++i) {
      if (i + 1 < block_entries_.size()) {
        const LabelId not_this = kernel_.program.new_label(
            fmt::format("keccakf1600_{}_not_block_entry{}", suffix_, i + 1));
        e.addi(kBlockEntry, kBlockEntry, -1);
        e.bnez(kBlockEntry, not_this);
        e.j(block_entries_[i].next);
        e.bind(not_this);
      } else {
        e.j(block_entries_[i].next);
      }
    }
  }

  // Rounds `first` to 23, unrolled; `bind_labels`: the shared body, which the other entries
  // jump into at round 0 or 12.
  void emit_rounds(Emitter& e, int first, bool bind_labels) {
    for (int round = first; round < keccak::kRounds; ++round) {
      if (const auto label = round_labels_.find(round);
          bind_labels && label != round_labels_.end()) {
        e.bind(label->second);
      }
      e.begin_round(round, false);
      emit_round(e, round);
      e.end_round();
    }
  }

  void emit_store_and_return(Emitter& e, const LaneMap& map) {
    const int frame = vector_frame_bytes(states_);
    e.blank();
    e.comment("Store the states (every lane is back in its register).");
    for (int lane = 0; lane < keccak::kLanes; ++lane) {
      emit_lane_address(e, lane);
      e.vse64(map[static_cast<std::size_t>(lane)], at(lane == 0 ? kState : kVectorLength));
    }
    e.comment("The vector registers hold the states: zero them (none is preserved by a call).");
    for (int r = 0; r < 32; ++r)
      e.vxor(v(r), v(r), v(r));
    for (std::size_t i = 0; i < kVectorSavedRegisters.size(); ++i)
      e.ld(kVectorSavedRegisters[i], at(sp, static_cast<std::int32_t>(8 * i)));
    e.addi(sp, sp, frame);
    for (const Reg r : kVectorSavedRegisters)
      e.cfi({CfiKind::restore, 0, r});
    e.cfi({CfiKind::def_cfa_offset, 0});
    e.ret();
  }

  void emit_round(Emitter& e, int round) {
    const LaneMap& lanes = maps_[static_cast<std::size_t>(round)];
    const auto lane = [&](int x, int y) {
      return lanes[static_cast<std::size_t>(keccak::lane_index(x, y))];
    };
    e.comment("theta: the five column sums in v25-v29, each D applied as it is made.");
    for (int x = 0; x < 5; ++x) {
      e.vxor(kColumnSum[x], lane(x, 0), lane(x, 1));
      for (int y = 2; y < 5; ++y)
        e.vxor(kColumnSum[x], kColumnSum[x], lane(x, y));
    }
    for (int x = 0; x < 5; ++x) {
      rotate_left(e, kVT0, kColumnSum[(x + 1) % 5], 1, kVT1);
      e.vxor(kVT0, kVT0, kColumnSum[(x + 4) % 5]);
      for (int y = 0; y < 5; ++y)
        e.vxor(lane(x, y), lane(x, y), kVT0);
    }
    e.comment("rho in place; pi renames the registers (the next round's lane map).");
    for (int i = 0; i < keccak::kLanes; ++i) {
      const int offset = keccak::model().rho_offsets[static_cast<std::size_t>(i)] % 64;
      if (offset != 0) {
        rotate_left(e, lanes[static_cast<std::size_t>(i)], lanes[static_cast<std::size_t>(i)],
                    offset, kVT0);
      }
    }
    e.comment("chi row by row, in place: ~b & c as vnot and vand.");
    const LaneMap& next = maps_[static_cast<std::size_t>(round + 1)];
    const Reg kVT2 = kColumnSum[0];  // the column sums are dead after theta
    for (int y = 0; y < 5; ++y) {
      emit_chi_row(
          lane_row(next, y), {kVT0, kVT1, kVT2},
          [&](Reg d, Reg a, Reg b) {
            e.vnot(d, b);
            e.vand(d, d, a);
          },
          [&](Reg d, Reg a, Reg b) { e.vxor(d, a, b); });
    }
    emit_iota(e, next[0], round);
  }

  // The round constant built in t1 as the scalar kernel's plan builds it (without Zbb),
  // then XORed into every state's lane 0. A plan of two parts (build_and_shift) builds the
  // first in t2 and shifts it into t1.
  void emit_iota(Emitter& e, Reg lane, int round) const {
    e.comment(fmt::format("iota: 0x{:016x}",
                          keccak::model().round_constants[static_cast<std::size_t>(round)]));
    const IotaPlan& plan = iota_plans(false)[static_cast<std::size_t>(round)];
    const bool shifted_part = plan.parts.size() == 2 && plan.parts[1].size() == 1;
    if (plan.parts.size() > 1 && !shifted_part) {
      throw GenerationError("riscv64-v: an iota plan of a shape this builder does not emit");
    }
    IotaPlanOps ops;
    ops.low = [&](std::int64_t low, bool has_parts) {
      if (has_parts) {
        e.xori(kConstant, kConstant, low);
      } else {
        e.addi(kConstant, zero, low);
      }
    };
    ops.step = [&](std::size_t part, const BuildStep& step) {
      if (step.op == BuildOp::rori) {
        throw GenerationError("riscv64-v: a rotation in iota's plan without Zbb");
      }
      const Reg built = shifted_part && part == 0 ? kPart : kConstant;
      emit_build_step(e, built, shifted_part ? kPart : kConstant, step);
    };
    ops.part_built = [&](std::size_t part) {
      if (shifted_part && part == 1) e.xor_(kConstant, kConstant, kPart);
    };
    walk_iota_plan(plan, ops);
    e.vxor(lane, lane, kConstant, true);
  }

  static std::vector<std::string> header_lines(int states, const HeaderFigures& figures,
                                               const std::map<int, std::size_t>& per_block,
                                               const std::map<int, std::uint64_t>& per_call) {
    const audit::EntryAudit& permute = figures.permute;
    const std::uint64_t theta = 5 * 4 + 5 * (3 + 1 + 5), rho = 24 * 3, chi = 5 * 15;
    if (permute.per_round.total <= theta + rho + chi) {
      throw GenerationError("riscv64-v: the round's parts exceed the audit's count of a round");
    }
    const std::uint64_t iota = permute.per_round.total - theta - rho - chi;
    const std::uint64_t total = permute.per_permutation.total;
    constexpr double kZbbPermutation = 3322;  // riscv64-zbb's audit count
    const LaneMap round12 = lane_maps(vector_load_registers())[keccak::kRounds / 2];
    const std::size_t swaps = lane_swaps(vector_load_registers(), round12).size();
    std::vector<std::string> lines = {
        fmt::format("Keccak-p[1600] on {} states at once for riscv64 with the vector extension",
                    states),
        "(V, RVV 1.0), LP64.",
        "",
        fmt::format("Layout: {} lane-interleaved states (lane i of state s at state[{} * i + s]),",
                    states, states),
        "so lane i of every state is one unit-stride vle64.v or vse64.v at state + 8Ni.",
        fmt::format("Vector length: every entry sets vl = {} with vsetivli (e64, LMUL 1, tail and",
                    states),
        fmt::format("mask agnostic) and traps (unimp) where vl comes back smaller: a CPU whose "
                    "VLEN is under {}",
                    64 * states),
        "bits stops at the trap instead of permuting fewer states. The runtime picks the kernel",
        "of the most states the CPU's VLEN holds (x2 at VLEN 128, x4 at 256, x8 at 512 and up,",
        "read from the vlenb CSR); the code assumes no VLEN beyond its own.",
        "Registers: v0-v24 hold lanes 0-24 of the N states (one element a state; no",
        "instruction is masked, so v0 is a lane), v25-v29 theta's column sums, v30-v31 and v25",
        fmt::format("the temporaries of theta's D, rho and chi ({} vector temporaries). Scalar:",
                    kVectorTemporaries),
        "a0 the state pointer; t0 vl, each lane's address, and through the rounds the block",
        "entry their tail goes on with (0: none); t1-t2 iota's constant; t3-t6, a1-a7, s0-s5",
        "the 17 shift amounts of 32 and up (vsll.vi and vsrl.vi reach 31; no Zvbb here, so a",
        "rotation is vsll, vsrl and vor, and chi's ~b & c is vnot and vand). a1 holds the",
        "block pointers' array until the block is absorbed.",
        fmt::format("Frame: {} bytes: s0-s5, the block entries' count and blocks[0..{}], one size "
                    "for every",
                    permute.frame_bytes, states - 1),
        "entry (they share the tail that releases it). The 32 vector registers are zeroed",
        "before the return.",
        "Rounds: 24, unrolled, pi by renaming (as riscv64-zbb), once in the file: every entry",
        "jumps into them, a 12-round entry where round 12 expects the lanes it loaded there.",
        "Their tail tests t0: 0 stores the states and returns; k goes on with block entry k",
        "(an addi and a bnez past each entry before it, then a j). Iota: the constant built",
        "in t1 from immediates as riscv64's plan builds it, then one vxor.vx.",
        "Block entries (<absorb entry>_blocks, at the tree modes' leaf rates: KT128 and KT256",
        "at 12 rounds, ParallelHash at 24): block_count blocks a state in one call. The lanes",
        "stay in v0-v24 from block to block; the count and the N block pointers live in the",
        "frame, since the scalar registers hold the shift amounts; each block is gathered and",
        "XORed in as above, the shift amounts set again, t0 set to the entry's number and the",
        "shared rounds run. Their tail comes back to the entry, which counts the block and",
        "goes on with the next or jumps to the tail's store. After 12 rounds pi's renaming has",
        fmt::format("moved lane i to where round 0 expects it: {} XOR swaps ({} vxor.vv) put the",
                    count_word(static_cast<int>(swaps)), 3 * swaps),
        "lanes back where round 12 expects them before the next block (0 blocks: the other",
        "way, before the store). A call a block would also run, each block, the vl check, the",
        "frame, the 25 lanes' loads and stores and the 32 vector registers' zeroing.",
    };
    const std::vector<std::string> bound = block_entry_bound_lines();
    lines.insert(lines.end(), bound.begin(), bound.end());
    lines.insert(
        lines.end(),
        {
            "",
            "Figures of the code (the audit's; the first round's):",
            fmt::format(
                "  per round          {}  ({} states: {:.1f} a state; theta {}, rho {}, chi {}, "
                "iota {})",
                permute.per_round.total, states,
                static_cast<double>(permute.per_round.total) / states, theta, rho, chi, iota),
            "  loop               0 per round, 0 per permutation",
            fmt::format("  per permutation    {}  (one call of the permute entry)", total),
            fmt::format(
                "  per state          {:.0f}  ({} states; riscv64-zbb: 3,322, so {:.2f} of it)",
                static_cast<double>(total) / states, states,
                static_cast<double>(total) / states / kZbbPermutation),
            fmt::format("  permute entry      {} instructions, {} bytes",
                        permute.static_instructions, permute.code_bytes),
            fmt::format("  absorb entry       up to {} before the branch into the rounds",
                        figures.largest_absorb_instructions),
            fmt::format(
                "  block entry        up to {} (the rounds, the store and the restore shared)",
                figures.largest_block_entry_instructions),
            fmt::format("  a block            {} at 24 rounds, {} at 12 (rate {}: one more turn of "
                        "the loop;",
                        per_block.at(keccak::kRounds), per_block.at(keccak::kRounds / 2),
                        kLargestLeafRate),
            fmt::format("                     a call of the absorb entry: {} and {})",
                        per_call.at(keccak::kRounds), per_call.at(keccak::kRounds / 2)),
            fmt::format(
                "  frame              {} bytes, {} registers saved (block entries: {} saved)",
                permute.frame_bytes, permute.saved_registers.size(),
                figures.block_entry_saved_registers),
            "",
            ".option norvc and norelax: every instruction is the 4-byte word the encoder writes.",
            "Speed: not measured; no RISC-V hardware here (qemu runs it for the tests).",
        });
    return lines;
  }

  int states_;
  std::string suffix_;
  std::array<LaneMap, keccak::kRounds + 1> maps_;
  std::vector<int> amounts_;
  BuiltKernel kernel_;
  std::map<int, LabelId> round_labels_;
  LabelId store_ = kNoLabel;
  std::vector<BlockEntry> block_entries_;
  // The instructions from each round label through the tail's test.
  std::map<int, std::size_t> shared_round_instructions_;
  bool body_emitted_ = false;
};

}  // namespace

BuiltKernel build_keccak_riscv64_zbb() {
  return Riscv64KeccakBuilder(true).build();
}

BuiltKernel build_keccak_riscv64() {
  return Riscv64KeccakBuilder(false).build();
}

BuiltKernel build_keccak_riscv64_v(int states) {
  return Riscv64VectorKeccakBuilder(states).build();
}

}  // namespace spongegen::kernels
