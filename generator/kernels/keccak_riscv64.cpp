// Keccak-p[1600] for riscv64 on the general-purpose registers, with the Zbb extension's
// rotate and and-not (riscv64-zbb) or with RV64I alone (riscv64).
//
// The 25 lanes live in registers for the whole permutation; pi is a renaming, not a move:
// the builder tracks which register holds each lane and emits every round (24, unrolled).
// Pi's lane permutation is one 24-cycle and a fixed point, so after 24 rounds each lane is
// back in the register it was loaded into; a 12-round entry loads the lanes where round 12
// of the unrolled body expects them and jumps there. Iota's constants are built from
// immediates (xori, lui, slli), so the file has no table and no PC-relative address.
#include <fmt/format.h>

#include <array>
#include <map>
#include <string>

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

// The frame: ra and s0-s11 (callee-saved; they hold lanes), the state pointer, and theta's
// five column sums, which no register is free to hold. 16-byte aligned, as LP64 requires.
constexpr int kSavedRegisters = 13;
constexpr int kStatePointerSlot = 8 * kSavedRegisters;
constexpr int kColumnSlot = kStatePointerSlot + 8;
constexpr int kFrameBytes = (kColumnSlot + 5 * 8 + 15) / 16 * 16;
constexpr int kLaneBytes = 8;

Reg saved_register(int i) {
  // ra, s0, s1, s2-s11
  return i == 0 ? ra : i <= 2 ? x(7 + i) : x(15 + i);
}

// Which register holds each lane at the start of each round: the identity at round 0,
// renamed by pi every round.
using LaneMap = std::array<Reg, keccak::kLanes>;
std::array<LaneMap, keccak::kRounds + 1> lane_maps() {
  std::array<LaneMap, keccak::kRounds + 1> maps;
  maps[0] = kLoadRegister;
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
    e.comment("The column sums are state: zero their slots before the frame is released.");
    for (int x = 0; x < 5; ++x)
      e.sd(zero, at(sp, kColumnSlot + 8 * x));
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

  // d = a & ~b; `d` differs from `a` and `b` without Zbb.
  void and_not(Emitter& e, Reg d, Reg a, Reg b) {
    if (zbb_) {
      e.andn(d, a, b);
      return;
    }
    e.not_(d, b);
    e.and_(d, d, a);
  }

  void emit_round(Emitter& e, int round) {
    const LaneMap& lanes = maps_[static_cast<std::size_t>(round)];
    const auto lane = [&](int x, int y) {
      return lanes[static_cast<std::size_t>(keccak::lane_index(x, y))];
    };
    e.comment("theta: the column sums C[x] into the frame, then D[x] = C[x-1] ^ rotl(C[x+1], 1)");
    e.comment("XORed into column x.");
    for (int x = 0; x < 5; ++x) {
      e.xor_(kT0, lane(x, 0), lane(x, 1));
      for (int y = 2; y < 5; ++y)
        e.xor_(kT0, kT0, lane(x, y));
      e.sd(kT0, at(sp, kColumnSlot + 8 * x));
    }
    for (int x = 0; x < 5; ++x) {
      e.ld(kT0, at(sp, kColumnSlot + 8 * ((x + 1) % 5)));
      rotate_left(e, kT0, kT0, 1, kT2);
      e.ld(kT1, at(sp, kColumnSlot + 8 * ((x + 4) % 5)));
      e.xor_(kT0, kT0, kT1);
      for (int y = 0; y < 5; ++y)
        e.xor_(lane(x, y), lane(x, y), kT0);
    }
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
      const auto b = [&](int x) {
        return next[static_cast<std::size_t>(keccak::lane_index(x, y))];
      };
      and_not(e, kT0, b(0), b(4));  // for lane 3
      and_not(e, kT1, b(1), b(0));  // for lane 4
      for (int x = 0; x < 3; ++x) {
        and_not(e, kT2, b(x + 2), b(x + 1));
        e.xor_(b(x), b(x), kT2);
      }
      e.xor_(b(3), b(3), kT0);
      e.xor_(b(4), b(4), kT1);
    }
    emit_iota(e, next[0], keccak::model().round_constants[static_cast<std::size_t>(round)]);
  }

  // lane ^= constant, from immediates: the bits below 11 in one xori, bit 15 through lui,
  // each other bit as 1 << n.
  static void emit_iota(Emitter& e, Reg lane, std::uint64_t constant) {
    e.comment(fmt::format("iota: 0x{:016x}", constant));
    if (const std::uint64_t low = constant & 0x7ff; low != 0) {
      e.xori(lane, lane, static_cast<std::int64_t>(low));
    }
    for (int bit = 11; bit < 64; ++bit) {
      if (((constant >> bit) & 1) == 0) continue;
      if (bit < 31) {
        e.lui(kT0, std::int64_t{1} << (bit - 12));
      } else {
        e.addi(kT0, zero, 1);
        e.slli(kT0, kT0, bit);
      }
      e.xor_(lane, lane, kT0);
    }
  }

  static std::vector<std::string> header_lines(bool zbb, const HeaderFigures& figures) {
    const audit::EntryAudit& permute = figures.permute;
    // The parts of a round as emit_round emits them: theta's column sums (4 xor and a
    // store each) and D (two loads, a rotation, 6 xor per column); 24 rotations; chi's five
    // rows of 5 and-nots and 5 xor. They must leave iota a positive count.
    const std::uint64_t rotation = zbb ? 1 : 3, and_not = zbb ? 1 : 2;
    const std::uint64_t theta = 5 * 5 + 5 * (2 + rotation + 6), rho = 24 * rotation,
                        chi = 5 * (5 * and_not + 5);
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
        fmt::format("Frame: {} bytes: ra and s0-s11, the state pointer, theta's five column sums",
                    permute.frame_bytes),
        "(no register is left to hold them).",
        "Rounds: 24, unrolled. Pi renames registers instead of moving lanes: its lane",
        "permutation is a 24-cycle, so after 24 rounds every lane is back in its register;",
        "a 12-round entry loads the lanes where round 12 expects them and jumps there.",
        "Iota's constants come from immediates (xori, lui, slli): no table, so no",
        "PC-relative address and no relocation in the object.",
        zbb ? "Rotations are rori, chi's and-not andn (Zbb)."
            : "Without Zbb a rotation is slli, srli and or; chi's and-not is not and and.",
        "",
        "Figures of the code (the audit's; the first round's: iota's length follows its constant):",
        fmt::format("  per round          {}  (theta {}, rho {}, chi {}, iota {})",
                    permute.per_round.total, theta, rho, chi, iota),
        "  loop               0 per round, 0 per permutation",
        fmt::format("  per permutation    {}  (one call of the permute entry)",
                    permute.per_permutation.total),
        fmt::format("  permute entry      {} instructions, {} bytes", permute.static_instructions,
                    permute.code_bytes),
        fmt::format("  absorb entry       up to {} before the branch into the rounds",
                    figures.largest_absorb_instructions),
        fmt::format("  frame              {} bytes, {} registers saved", permute.frame_bytes,
                    permute.saved_registers.size()),
        "",
        ".option norvc and norelax: every instruction is the 4-byte word the encoder writes",
        "and every branch offset is final in the object, so the encoding proof compares",
        "them all.",
        "Speed: not measured; no RISC-V hardware here (qemu runs it for the tests).",
    };
    return lines;
  }

  bool zbb_;
  std::string suffix_;
  std::array<LaneMap, keccak::kRounds + 1> maps_;
  BuiltKernel kernel_;
  std::map<int, LabelId> round_labels_;
  bool body_emitted_ = false;
};

}  // namespace

BuiltKernel build_keccak_riscv64_zbb() {
  return Riscv64KeccakBuilder(true).build();
}

BuiltKernel build_keccak_riscv64() {
  return Riscv64KeccakBuilder(false).build();
}

}  // namespace spongegen::kernels
