// Keccak-f[1600] for arm64 on general-purpose registers only (any ARMv8-A core).
//
// The 25 lanes live in x registers for the whole permutation; rho's rotations are folded
// into the ROR-shifted operands of EOR and BIC (keccak_arm64_scalar_schedule.cpp), and one
// round is emitted once and looped, so lane i is back in its register at every round's end.
#include <fmt/format.h>

#include <array>
#include <string>

#include "isa/arm64/arm64.hpp"
#include "kernels/keccak_arm64_scalar_schedule.hpp"
#include "kernels/keccak_entries.hpp"
#include "model/keccak.hpp"

namespace spongegen::kernels {
namespace {

using namespace arm64;

// Every register's role, named once. x18 is the platform register (reserved on Apple
// platforms and Windows, the shadow call stack on Android) and x29 the frame pointer (which
// Apple's ABI requires to address a valid frame record at all times): neither is touched.
// That leaves x0-x17, x19-x28 and x30: 29 registers for 25 lanes and theta's 4 temporaries.
constexpr std::array<Reg, kScalarSlots> kSlotRegister = {
    x(2), x(3), x(4), x(5), x(6), x(7), x(8), x(9), x(10), x(11),          // lanes 0-9
    x(12), x(13), x(14), x(15), x(16), x(17), x(19), x(20), x(21), x(22),  // lanes 10-19
    x(23), x(24), x(25),                                                   // lanes 20-22
    x(0), x(1),  // lanes 23-24: no rate reaches them, so x0 and x1 keep the arguments
                 // until the state and the block are read
    x(26), x(27), x(28), x(30)};  // theta's temporaries
constexpr Reg kState = x(0);      // argument 1: the caller's 25 lanes (saved in the frame)
constexpr Reg kBlock = x(1);      // argument 2 of the absorb entries: one rate block
constexpr Reg kScratch0 = x(26), kScratch1 = x(27), kScratch2 = x(28);  // outside the round

// The frame: x19-x28, then x30 and the state pointer, then the round constant pointer and
// its end. Every slot is public (caller's registers, addresses): no lane is ever stored here.
constexpr int kFrameBytes = 112;
constexpr int kLinkSlot = 80;           // x30, signed by paciasp
constexpr int kStatePointerSlot = 88;   // x0 on entry
constexpr int kRoundConstantSlot = 96;  // the next round constant; its end at +8
constexpr int kLaneBytes = 8;

constexpr std::string_view kSymbolSuffix = "arm64_scalar";

Reg lane_register(int lane) {
  return kSlotRegister[static_cast<std::size_t>(lane)];
}

class Arm64ScalarKeccakBuilder {
 public:
  BuiltKernel build() {
    Program& program = kernel_.program;
    program.isa = Isa::arm64;
    program.property_note = PropertyNote::aarch64_bti_pac;
    program.arch_directive = "armv8-a";
    program.options = {{"syntax", "gnu-as aarch64"},
                       {"rounds", "loop of 24"},
                       {"state", "x0-x17, x19-x25"},
                       {"round_schedule", fmt::format("seeded search, seed 0x{:016x}",
                                                      scalar_round_schedule().search_seed)},
                       {"abi", "aapcs64"}};
    round_constants_ = program.new_label("keccakf1600_arm64_scalar_round_constants");
    rounds_ = program.new_label("keccakf1600_arm64_scalar_rounds");
    loop_ = program.new_label("keccakf1600_arm64_scalar_loop");
    for (const keccak::RoundVariant& variant : keccak::model().variants) {
      emit_permute_entry(variant);
      for (const keccak::Rate& rate : variant.absorb_rates)
        emit_absorb_entry(variant, rate);
    }
    add_round_constant_table(kernel_.program, round_constants_);
    kernel_.header = [](const HeaderInputs& in) {
      const std::string permute = entry_symbol(keccak::model().variants.front(), kSymbolSuffix, 0);
      const std::string sha3_permute =
          entry_symbol(keccak::model().variants.front(), "arm64_sha3", 0);
      return header_lines(header_figures(in.audit, permute),
                          header_figures(in.audit_of("arm64-sha3"), sha3_permute));
    };
    return std::move(kernel_);
  }

 private:
  // As in the SHA3 kernel: the first variant's permute entry holds the loop, the store and
  // the restore; the 24-round absorb entries branch to its setup (rounds_), every other
  // entry sets up itself and branches to the loop.
  void emit_permute_entry(const keccak::RoundVariant& variant) {
    Emitter e(kernel_.program, add_permute_entry(kernel_, variant, kSymbolSuffix));
    emit_prologue(e);
    emit_load_state(e);
    emit_load_last_lanes(e);
    if (loop_bound_) {
      emit_loop_setup(e, variant);
      e.b(loop_);
      return;
    }
    loop_bound_ = true;
    e.bind(rounds_);
    emit_loop_setup(e, variant);
    e.bind(loop_);
    e.begin_round(0, true);
    emit_round(e);
    e.end_round();
    emit_epilogue(e);
  }

  void emit_absorb_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Emitter e(kernel_.program, add_absorb_entry(kernel_, variant, kSymbolSuffix, rate));
    if (rate.lanes() > 23) {
      throw GenerationError(
          fmt::format("arm64-scalar: rate {} reaches lanes 23-24, which hold "
                      "the argument registers until the block is read",
                      rate.bytes));
    }
    emit_prologue(e);
    emit_load_state(e);
    e.comment("XOR the block (any alignment) into the lanes, two lanes per load.");
    for (int lane = 0; lane < rate.lanes(); lane += 2) {
      if (lane + 1 < rate.lanes()) {
        e.ldp(kScratch0, kScratch1, at(kBlock, kLaneBytes * lane));
        e.eor(lane_register(lane), lane_register(lane), kScratch0);
        e.eor(lane_register(lane + 1), lane_register(lane + 1), kScratch1);
      } else {
        e.ldr(kScratch0, at(kBlock, kLaneBytes * lane));
        e.eor(lane_register(lane), lane_register(lane), kScratch0);
      }
    }
    emit_load_last_lanes(e);
    if (variant.rounds == keccak::model().variants.front().rounds) {
      e.b(rounds_);
      return;
    }
    emit_loop_setup(e, variant);
    e.b(loop_);
  }

  // AAPCS64 makes x19-x28 and x30 callee-saved (x30 holds the return address), and the
  // lanes and temporaries need them. x30 is signed before it is stored, so a corrupted
  // frame cannot redirect the return on a core with pointer authentication.
  void emit_prologue(Emitter& e) {
    e.bti_c();
    e.paciasp();
    e.cfi({CfiKind::negate_ra_state});
    e.comment("Save x19-x28 and x30 (callee-saved; they hold lanes and temporaries) and the");
    e.comment("state pointer, which x0 gives up to lane 23.");
    e.stp(x(19), x(20), pre_index(sp, -kFrameBytes));
    e.cfi({CfiKind::def_cfa_offset, kFrameBytes});
    for (int reg = 21; reg <= 27; reg += 2)
      e.stp(x(reg), x(reg + 1), at(sp, 8 * (reg - 19)));
    e.stp(x(30), kState, at(sp, kLinkSlot));
    for (int reg = 19; reg <= 28; ++reg)
      e.cfi({CfiKind::offset, -kFrameBytes + 8 * (reg - 19), x(reg)});
    e.cfi({CfiKind::offset, -kFrameBytes + kLinkSlot, x(30)});
  }

  void emit_epilogue(Emitter& e) {
    e.blank();
    e.comment("Store the state and restore x19-x28 and x30.");
    e.ldr(kScratch0, at(sp, kStatePointerSlot));
    for (int lane = 0; lane + 1 < keccak::kLanes; lane += 2) {
      e.stp(lane_register(lane), lane_register(lane + 1), at(kScratch0, kLaneBytes * lane));
    }
    e.str(lane_register(24), at(kScratch0, kLaneBytes * 24));
    for (int reg = 21; reg <= 27; reg += 2)
      e.ldp(x(reg), x(reg + 1), at(sp, 8 * (reg - 19)));
    e.ldr(x(30), at(sp, kLinkSlot));
    e.ldp(x(19), x(20), post_index(sp, kFrameBytes));
    for (int reg = 19; reg <= 28; ++reg)
      e.cfi({CfiKind::restore, 0, x(reg)});
    e.cfi({CfiKind::restore, 0, x(30)});
    e.cfi({CfiKind::def_cfa_offset, 0});
    e.autiasp();
    e.cfi({CfiKind::negate_ra_state});
    e.ret();
  }

  // Lanes 0-22; lanes 23 and 24 go into x0 and x1 once nothing needs the arguments.
  void emit_load_state(Emitter& e) {
    e.comment("Lanes 0-22 into their registers.");
    for (int lane = 0; lane + 1 < 23; lane += 2) {
      e.ldp(lane_register(lane), lane_register(lane + 1), at(kState, kLaneBytes * lane));
    }
    e.ldr(lane_register(22), at(kState, kLaneBytes * 22));
  }

  void emit_load_last_lanes(Emitter& e) {
    e.comment("Lanes 23 and 24 over the arguments: the state pointer is in the frame.");
    e.ldp(lane_register(23), lane_register(24), at(kState, kLaneBytes * 23));
  }

  // The round constant pointer and its end live in the frame: every register is busy
  // during theta. An entry starts the pointer at its first round's constant.
  void emit_loop_setup(Emitter& e, const keccak::RoundVariant& variant) {
    e.adr(kScratch0, round_constants_);
    e.add(kScratch1, kScratch0, kLaneBytes * keccak::kRounds);
    e.annotate("the table's end");
    if (variant.first_round() != 0) {
      e.add(kScratch0, kScratch0, kLaneBytes * variant.first_round());
      e.annotate(fmt::format("from round constant {}", variant.first_round()));
    }
    e.stp(kScratch0, kScratch1, at(sp, kRoundConstantSlot));
  }

  void emit_round(Emitter& e) {
    const ScalarRoundSchedule& schedule = scalar_round_schedule();
    e.comment("theta: C and D in x26-x28 and x30, XORed into the lanes in place.");
    int index = 0;
    for (const ScalarOp& op : schedule.ops) {
      if (index++ == schedule.theta_ops) {
        e.comment("rho and pi, chi: B values are the lanes read through ror; those chi needs");
        e.comment("unrotated are rotated first, and each output lands in its lane's register.");
      }
      emit_op(e, op);
    }
    e.comment("iota, and the loop: the round constant pointer comes from the frame.");
    e.ldp(kScratch0, kScratch1, at(sp, kRoundConstantSlot));
    e.ldr(kScratch2, post_index(kScratch0, kLaneBytes));
    e.str(kScratch0, at(sp, kRoundConstantSlot));
    e.eor(lane_register(0), lane_register(0), kScratch2);
    e.annotate("iota");
    e.sub(kScratch1, kScratch1, kScratch0);
    e.annotate("constants left, in bytes");
    e.cbnz(kScratch1, loop_);
  }

  static void emit_op(Emitter& e, const ScalarOp& op) {
    const Reg dst = kSlotRegister[static_cast<std::size_t>(op.dst)];
    const Reg n = kSlotRegister[static_cast<std::size_t>(op.n)];
    switch (op.kind) {
      case ScalarOp::Kind::eor:
      case ScalarOp::Kind::bic: {
        const Reg m = kSlotRegister[static_cast<std::size_t>(op.m)];
        const bool is_eor = op.kind == ScalarOp::Kind::eor;
        if (op.rotate_right == 0) {
          is_eor ? e.eor(dst, n, m) : e.bic(dst, n, m);
        } else {
          is_eor ? e.eor(dst, n, ror(m, op.rotate_right)) : e.bic(dst, n, ror(m, op.rotate_right));
        }
        break;
      }
      case ScalarOp::Kind::ror:
        e.ror(dst, n, op.rotate_right);
        break;
      case ScalarOp::Kind::mov:
        e.mov(dst, n);
        break;
    }
    e.annotate(op.note);
  }

  // Every figure of the code comes from the audit (HeaderFigures), the SHA3 kernel's too.
  static std::vector<std::string> header_lines(const HeaderFigures& figures,
                                               const HeaderFigures& sha3_figures) {
    const ScalarRoundSchedule& schedule = scalar_round_schedule();
    const audit::EntryAudit& permute = figures.permute;
    const std::uint64_t per_round = permute.per_round.total;
    // The parts of a round, as the schedule and emit_round emit them; they must add up to
    // the audit's count.
    const std::uint64_t theta = static_cast<std::uint64_t>(schedule.theta_ops);
    constexpr std::uint64_t kChi = 50, kIotaAndLoop = 6;
    const std::uint64_t rotations = static_cast<std::uint64_t>(schedule.rotations);
    const std::uint64_t moves = static_cast<std::uint64_t>(schedule.moves);
    if (theta + kChi + rotations + moves + kIotaAndLoop != per_round) {
      throw GenerationError(fmt::format(
          "arm64-scalar: the header's round breakdown does not add up to the audit's {} "
          "instructions a round",
          per_round));
    }
    const std::uint64_t sha3_round = sha3_figures.permute.per_round.total;
    const std::size_t saved = permute.saved_registers.size();
    const std::uint64_t loop_per_round = permute.loop_overhead / keccak::kRounds;
    constexpr std::uint64_t kInstructionBytes = 4;  // every A64 instruction
    return {
        "Keccak-f[1600] for arm64 on general-purpose registers: any ARMv8-A core.",
        "",
        "Syntax: GNU assembler (AArch64), passed through the C preprocessor; base ARMv8-A",
        "instructions only, so the runtime may call it on every arm64 CPU.",
        "",
        "ABI: AAPCS64. state in x0; block in x1 (absorb entries).",
        "Register roles:",
        "  x2-x17       lanes 0-15",
        "  x19-x25      lanes 16-22",
        "  x0, x1       lanes 23 and 24, once the state pointer (x0, saved in the frame) and",
        "               the block (x1) have been read; no rate reaches lane 21 or beyond",
        "  x26-x28, x30 theta's C and D values; chi's BIC results and B values moved out of",
        "               a register chi must write; outside the round, the round constant",
        "               pointer, its end, the constant, the state pointer and block words",
        "Reserved and never touched: x18 (the platform register: Apple platforms and Windows",
        "reserve it, Android keeps the shadow call stack there) and x29 (the frame pointer,",
        "which Apple's ABI requires to address a valid frame record at every instruction).",
        "Callee-saved registers: x19-x28 and x30 hold lanes and temporaries, so they are",
        fmt::format("saved and restored: {} registers in a {}-byte frame, which also holds the",
                    saved, permute.frame_bytes),
        "state pointer, the round constant pointer and its end. The frame never holds a",
        "lane, so nothing needs clearing (the invariants check this at generation).",
        "Return address: x30 is a temporary, so it is saved; paciasp signs it before the",
        "save and autiasp checks it before ret (hints #25 and #29, NOPs on cores without",
        "pointer authentication), with .cfi_negate_ra_state after each for unwinders.",
        "CFI: .cfi_def_cfa_offset and .cfi_offset for each saved register.",
        "BTI: `bti c` (hint #34) at each entry; the ELF object carries the GNU property note",
        "with BTI and PAC. .note.GNU-stack: present.",
        "Round constants: in .text after the code, reached with adr, as in the SHA3 kernel.",
        "No branch and no memory address depends on the state or the input.",
        "",
        "The round (seeded search, seed 0x" + fmt::format("{:016x}", schedule.search_seed) +
            fmt::format(", attempt {} of {}):", schedule.search_attempt, schedule.search_attempts),
        "  theta    C[x] with 4 eor, D[x] = C[x-1] ^ rotl(C[x+1], 1) with 1 eor (ror #63),",
        "           and 25 eor into the lanes in place; the order (C0 C1 C2 D1 C3 D4 D2 C4 D3",
        "           D0) needs 4 temporaries where all five C values first would need 6.",
        "  rho, pi  no instruction: a lane after theta is read as B = rotr(lane, 64 - r)",
        "           through the shifted operand of eor or bic; pi is which register is read.",
        "  chi      per lane, bic t, B[x+2], B[x+1], ror #s then eor with B[x]: one of",
        "           B[x] and B[x+2] must be unrotated for the output to be, so each row",
        "           unrotates a cover of the 5-cycle x -> x+2: 3 of 5 B values, 2 in row 0,",
        "           where B[0, 0] is lane 0, which rho leaves alone.",
        "  homes    every chi output is written straight into its lane's register; a B value",
        "           still needed where an output must go is moved (or unrotated) to a free",
        "           register first. The search keeps the order with the fewest moves (3,000,000",
        fmt::format("           attempts, run once, found none with fewer than {}).", moves),
        "  iota     the constant pointer and its end come from the frame (every register is",
        "           busy in theta); ldp, ldr post-indexed, str, eor, sub, cbnz.",
        "Lane complementing (the trick that turns chi's AND-NOT into AND/OR on x86 without",
        "ANDN) saves nothing here: BIC is chi's AND-NOT in one instruction, with a free shift.",
        "",
        "Loop or unroll: measured on no arm64 machine (qemu runs the tests but says nothing",
        fmt::format("of speed). Decided from counts: the loop costs {} instructions a round (the",
                    loop_per_round),
        "constant pointer and its end from the frame, sub, cbnz; unrolled rounds would still",
        fmt::format("load their constant), about {:.0f}%, and keeps the rounds in {} bytes instead",
                    100.0 * static_cast<double>(loop_per_round) / static_cast<double>(per_round),
                    per_round * kInstructionBytes),
        fmt::format("of about {:.1f} KiB fully unrolled. Not yet tried: a loop of two rounds whose",
                    static_cast<double>(keccak::kRounds * per_round * kInstructionBytes) / 1024.0),
        "first leaves its outputs rotated (the second round's theta reads them through shifts",
        fmt::format("for free), saving that round's {} ror: about {:.0f}% of the rounds' "
                    "instructions.",
                    rotations,
                    100.0 * static_cast<double>(rotations) / static_cast<double>(2 * per_round)),
        "",
        "Figures of the code (computed by the audit from the Program; `spongegen audit`):",
        fmt::format(
            "  per round          {}  ({} theta eor, {} bic + {} eor of chi, {} ror, {} mov,",
            per_round, theta, kChi / 2, kChi / 2, rotations, moves),
        fmt::format("                     {} of iota and loop)", kIotaAndLoop),
        fmt::format("  loop               {} per round, {} per permutation", loop_per_round,
                    permute.loop_overhead),
        fmt::format("  per permutation    {}  (one call of the permute entry)",
                    permute.per_permutation.total),
        fmt::format("  permute entry      {} instructions, {} bytes", permute.static_instructions,
                    permute.code_bytes),
        fmt::format("  absorb entry       up to {} before the branch into the rounds",
                    figures.largest_absorb_instructions),
        fmt::format("  frame              {} bytes, {} registers saved", permute.frame_bytes,
                    saved),
        "",
        "Against the SHA3-extension kernel (keccakf1600_arm64_sha3.S), from the same audit:",
        fmt::format("  instructions per round      scalar {}, SHA3 {} ({:.2f}x as many here)",
                    per_round, sha3_round,
                    static_cast<double>(per_round) / static_cast<double>(sha3_round)),
        fmt::format("  instructions per permutation scalar {}, SHA3 {}",
                    permute.per_permutation.total, sha3_figures.permute.per_permutation.total),
        "Which one wins is a property of the core, not of the counts: the scalar round runs",
        "on the integer pipes, the SHA3 round on the vector pipes that implement EOR3, RAX1,",
        "XAR and BCAX. See the runtime's core table",
        "(runtime/src/dispatch/arm64_core_choice.cpp) for the choice per core and its sources.",
    };
  }

  BuiltKernel kernel_;
  LabelId round_constants_ = kNoLabel;
  LabelId rounds_ = kNoLabel;
  LabelId loop_ = kNoLabel;
  bool loop_bound_ = false;
};

}  // namespace

BuiltKernel build_keccak_arm64_scalar() {
  return Arm64ScalarKeccakBuilder().build();
}

}  // namespace spongegen::kernels
