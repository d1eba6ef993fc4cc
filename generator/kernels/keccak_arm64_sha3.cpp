// Keccak-f[1600] for arm64 with the ARMv8.2 SHA3 extension (EOR3, RAX1, XAR, BCAX).
//
// The state lives in v0-v24, one lane in the low half of each register, for the whole
// permutation; the two-state kernel (arm64-sha3-x2) is the same code on both halves, two
// lane-interleaved states (lane i of state s at state[2 * i + s]) loaded with q registers. One
// round is emitted once and looped 24 times; the round itself is the zero-move schedule of
// keccak_arm64_schedule.cpp, so lane i is back in v<i> at the end of every round without a single
// MOV.
#include <fmt/format.h>

#include <string>

#include "isa/arm64/arm64.hpp"
#include "kernels/go_entries.hpp"
#include "kernels/keccak_arm64_schedule.hpp"
#include "kernels/keccak_entries.hpp"
#include "model/keccak.hpp"

namespace spongegen::kernels {
namespace {

using namespace arm64;

std::string hex64(std::uint64_t value) {
  return fmt::format("{:016x}", value);
}

// Every register's role, named once.
constexpr Reg kState = x(0);                  // argument 1: the caller's 25 lanes
constexpr Reg kBlock = x(1);                  // argument 2 of the absorb entries: one rate block
constexpr Reg kBlockPointers = x(1);          // ... or, two states: the array of two block pointers
constexpr Reg kStateBlock[2] = {x(2), x(3)};  // two states: blocks[0] and blocks[1]
constexpr Reg kBlockCount = x(2);             // argument 3 of the block entries: blocks a state
constexpr Reg kLoopBlock[2] = {x(3), x(4)};   // the block entries' blocks[0] and blocks[1]
constexpr Reg kRoundsLeft = x(9);             // loop counter, the entry's rounds down to 1
constexpr Reg kRoundConstant = x(10);         // walks the round constant table
constexpr int kFirstSpare = 25;               // v25-v31: theta's C and D, B values, temporaries
constexpr int kSpareCount = 7;
constexpr int kFrameBytes = 64;  // d8-d15
// A Go (ABI0) entry's frame: unused, and as small as keeps the toolchain's stack-bound check.
constexpr int kGoFrameBytes = kGoSmallestCheckedFrame;

class Arm64KeccakBuilder {
 public:
  // `states`: 1 (arm64-sha3) or 2 (arm64-sha3-x2, both halves of every register).
  explicit Arm64KeccakBuilder(int states, bool go = false)
      : go_(go),
        states_(states),
        suffix_(states == 1 ? "arm64_sha3" : "arm64_sha3_x2"),
        stem_(states == 1 ? "keccakf1600_arm64_sha3" : "keccakf1600_arm64_sha3_x2") {}

  // The Go (ABI0) file: the Keccak-f[1600] permute entry and one absorb entry per rate. Go
  // saves no register for its caller, so d8-d15 are not saved; Go's labels are local to one
  // TEXT, so each entry holds its own copy of the loop and the store.
  Program build_go() {
    Program& program = kernel_.program;
    program.isa = Isa::arm64;
    program.kernel_name = states_ == 1 ? "arm64-sha3" : "arm64-sha3-x2";
    program.go_abi0 = true;
    program.options = {{"syntax", "go (plan 9) arm64"}, {"abi", "go abi0"}};
    round_constants_ = program.new_label(stem_ + "_round_constants");
    add_go_keccak_entries(
        program, kGoFrameBytes, [this](const keccak::RoundVariant& v) { emit_permute_entry(v); },
        [this](const keccak::RoundVariant& v, const keccak::Rate& r) { emit_absorb_entry(v, r); });
    add_round_constant_table(program, round_constants_);
    program.header_lines = go_header_lines(program.functions);
    return std::move(program);
  }

  BuiltKernel build() {
    Program& program = kernel_.program;
    program.isa = Isa::arm64;
    program.property_note = PropertyNote::aarch64_bti_pac;
    program.arch_directive = "armv8.2-a+sha3";
    program.options = {{"syntax", "gnu-as aarch64"},
                       {"rounds", "loop of 24"},
                       {"state", states_ == 1 ? "v0-v24" : "v0-v24, two lane-interleaved states"},
                       {"round_schedule", "zero-move search, seed 0x" +
                                              hex64(zero_move_round_schedule().search_seed)},
                       {"abi", "aapcs64"}};
    round_constants_ = program.new_label(stem_ + "_round_constants");
    rounds_ = program.new_label(stem_ + "_rounds");
    loop_ = program.new_label(stem_ + "_loop");

    // The first variant (Keccak-f[1600]) holds the loop; every other entry branches into it.
    for (const keccak::RoundVariant& variant : keccak::model().variants) {
      emit_permute_entry(variant);
      for (const keccak::Rate& rate : variant.absorb_rates)
        emit_absorb_entry(variant, rate);
      if (states_ == 2) {
        for (const keccak::Rate& rate : variant.leaf_rates)
          emit_absorb_blocks_entry(variant, rate);
      }
    }
    add_round_constant_table(kernel_.program, round_constants_);
    kernel_.header = [permute = entry_symbol(keccak::model().variants.front(), suffix_, 0),
                      states = states_](const HeaderInputs& in) {
      const HeaderFigures figures = header_figures(in.audit, permute);
      return states == 1 ? header_lines(figures) : two_state_header_lines(figures);
    };
    return std::move(kernel_);
  }

 private:
  // The loop runs one round a turn, so any round count works: an entry sets the counter
  // and the constant pointer to its first round. The first variant's permute entry holds
  // the loop, the store and the restore; the 24-round absorb entries branch to its setup
  // (rounds_), every other entry sets up itself and branches to the loop.
  void emit_permute_entry(const keccak::RoundVariant& variant) {
    Emitter e(kernel_.program, add_permute_entry(kernel_, variant, suffix_, states_));
    emit_entry_start(e, false);
    emit_load_state(e);
    if (go_) {
      emit_loop_setup(e, variant);
      emit_loop_and_store(e);
      return;
    }
    if (loop_bound_) {
      emit_loop_setup(e, variant);
      e.b(loop_);
      return;
    }
    loop_bound_ = true;
    e.bind(rounds_);
    emit_loop_setup(e, variant);
    emit_loop_and_store(e);
  }

  // AAPCS64: bti c and the saves. Go: the arguments out of the caller's frame into the
  // registers the AAPCS64 entries receive them in.
  void emit_entry_start(Emitter& e, bool absorb) {
    if (!go_) {
      e.bti_c();
      emit_save_d8_d15(e);
      return;
    }
    e.ldr(kState, go_argument(0));
    e.annotate("state");
    if (absorb) {
      e.ldr(kBlock, go_argument(1));
      e.annotate(states_ == 1 ? "block" : "blocks");
    }
  }

  // The loop, then the store (and the restore of d8-d15 where they were saved).
  void emit_loop_and_store(Emitter& e) {
    if (go_) loop_ = kernel_.program.new_label(stem_ + "_loop");
    emit_round_loop(e, loop_);
    emit_store_and_return(e);
  }

  // One round a turn at `loop`, for the rounds the counter holds.
  void emit_round_loop(Emitter& e, LabelId loop) {
    e.bind(loop);
    e.begin_round(0, true);
    emit_round(e);
    e.sub(kRoundsLeft, kRoundsLeft, 1);
    e.cbnz(kRoundsLeft, loop);
    e.end_round();
  }

  void emit_store_and_return(Emitter& e) {
    e.blank();
    e.comment(go_ ? "Store the state." : "Store the state and restore d8-d15.");
    for (int lane = 0; lane + 1 < keccak::kLanes; lane += 2) {
      e.stp(lane_register(lane), lane_register(lane + 1), at(kState, lane_bytes() * lane));
    }
    e.str(lane_register(24), at(kState, lane_bytes() * 24));
    if (!go_) emit_restore_d8_d15(e);
    e.ret();
  }

  // The absorb entries save, load the state, XOR the block in registers, and branch into
  // the permute entry's rounds, so the rounds, the store and the restore exist once.
  void emit_loop_setup(Emitter& e, const keccak::RoundVariant& variant) {
    e.adr(kRoundConstant, round_constants_);
    if (variant.first_round() != 0) {
      e.add(kRoundConstant, kRoundConstant, 8 * variant.first_round());
      e.annotate(fmt::format("from round constant {}", variant.first_round()));
    }
    e.mov(kRoundsLeft, variant.rounds);
  }

  void emit_absorb_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Emitter e(kernel_.program, add_absorb_entry(kernel_, variant, suffix_, rate, states_));
    emit_entry_start(e, true);
    emit_load_state(e);
    if (states_ == 2) {
      e.comment("The two block pointers.");
      e.ldp(kStateBlock[0], kStateBlock[1], at(kBlockPointers, 0));
      emit_xor_two_blocks(e, rate, kStateBlock);
    } else {
      emit_xor_block(e, rate);
    }
    if (go_) {
      emit_loop_setup(e, variant);
      emit_loop_and_store(e);
      return;
    }
    if (variant.rounds == keccak::model().variants.front().rounds) {
      e.b(rounds_);
      return;
    }
    emit_loop_setup(e, variant);
    e.b(loop_);
  }

  // Two states, block_count blocks a state in one call: the lanes stay in v0-v24 from block
  // to block, each block is XORed in as the absorb entries do, and the rounds run in the
  // entry's own loop (it returns to the block loop, not to the store).
  void emit_absorb_blocks_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Function& function = add_absorb_blocks_entry(kernel_, variant, suffix_, rate, states_);
    const std::string symbol = function.symbol;
    Emitter e(kernel_.program, function);
    emit_entry_start(e, true);
    emit_load_state(e);
    e.comment("The two block pointers, kept for the whole call.");
    e.ldp(kLoopBlock[0], kLoopBlock[1], at(kBlockPointers, 0));
    const LabelId block = kernel_.program.new_label(symbol + "_block");
    const LabelId done = kernel_.program.new_label(symbol + "_done");
    e.cbz(kBlockCount, done);
    e.bind(block);
    emit_xor_two_blocks(e, rate, kLoopBlock);
    emit_loop_setup(e, variant);
    emit_round_loop(e, kernel_.program.new_label(symbol + "_rounds"));
    e.comment("each state's next block");
    for (const Reg pointer : kLoopBlock)
      e.add(pointer, pointer, rate.bytes);
    e.sub(kBlockCount, kBlockCount, 1);
    e.cbnz(kBlockCount, block);
    e.bind(done);
    emit_store_and_return(e);
  }

  // Lane i (two states: lane i of both) is 8 (16) bytes at state + 8i (16i).
  int lane_bytes() const { return 8 * states_; }
  Reg lane_register(int lane) const { return states_ == 1 ? d(lane) : q(lane); }

  void emit_xor_block(Emitter& e, const keccak::Rate& rate) {
    e.comment("XOR the block (any alignment) into the lanes, two lanes per load.");
    int spare = 0;
    for (int lane = 0; lane < rate.lanes(); lane += 2) {
      const int first = kFirstSpare + spare, second = kFirstSpare + (spare + 1) % kSpareCount;
      if (lane + 1 < rate.lanes()) {
        e.ldp(d(first), d(second), at(kBlock, 8 * lane));
        e.eor(lane, lane, first);
        e.eor(lane + 1, lane + 1, second);
      } else {
        e.ldr(d(first), at(kBlock, 8 * lane));
        e.eor(lane, lane, first);
      }
      spare = (spare + 2) % kSpareCount;
    }
  }

  // Two states: lanes i and i + 1 of each block (any alignment) with one ldp per block,
  // zip1 puts state 0's lane in the low half and state 1's in the high half, one eor each.
  void emit_xor_two_blocks(Emitter& e, const keccak::Rate& rate, const Reg (&blocks)[2]) {
    e.comment("Lanes i and i + 1 of both blocks, zipped into one register per lane (state 0");
    e.comment("low, state 1 high) and XORed into the lanes.");
    constexpr int kFirst = kFirstSpare;  // v25-v28: the two blocks' lanes i and i + 1
    for (int lane = 0; lane < rate.lanes(); lane += 2) {
      const bool pair = lane + 1 < rate.lanes();
      for (int s = 0; s < 2; ++s) {
        const Mem address = at(blocks[s], 8 * lane);
        if (pair) {
          e.ldp(d(kFirst + s), d(kFirst + 2 + s), address);
        } else {
          e.ldr(d(kFirst + s), address);
        }
      }
      e.zip1(kFirst, kFirst, kFirst + 1);
      e.eor(lane, lane, kFirst);
      if (pair) {
        e.zip1(kFirst + 2, kFirst + 2, kFirst + 3);
        e.eor(lane + 1, lane + 1, kFirst + 2);
      }
    }
  }

  // AAPCS64 makes the low 64 bits of v8-v15 callee-saved, and the state occupies them.
  void emit_save_d8_d15(Emitter& e) {
    e.comment("Save d8-d15 (callee-saved; they hold lanes 8-15).");
    e.stp(d(8), d(9), pre_index(sp, -kFrameBytes));
    e.cfi({CfiKind::def_cfa_offset, kFrameBytes});
    for (int reg = 10; reg <= 14; reg += 2) {
      e.stp(d(reg), d(reg + 1), at(sp, 8 * (reg - 8)));
    }
    for (int reg = 8; reg <= 15; ++reg) {
      e.cfi({CfiKind::offset, -kFrameBytes + 8 * (reg - 8), d(reg)});
    }
  }

  void emit_restore_d8_d15(Emitter& e) {
    for (int reg = 14; reg >= 10; reg -= 2) {
      e.ldp(d(reg), d(reg + 1), at(sp, 8 * (reg - 8)));
    }
    e.ldp(d(8), d(9), post_index(sp, kFrameBytes));
    for (int reg = 8; reg <= 15; ++reg)
      e.cfi({CfiKind::restore, 0, d(reg)});
    e.cfi({CfiKind::def_cfa_offset, 0});
  }

  void emit_load_state(Emitter& e) {
    e.comment(states_ == 1
                  ? "Lane i into d<i> (the upper half of v<i> becomes zero and stays zero)."
                  : "Lane i of both states into q<i> (state 0 low, state 1 high).");
    for (int lane = 0; lane + 1 < keccak::kLanes; lane += 2) {
      e.ldp(lane_register(lane), lane_register(lane + 1), at(kState, lane_bytes() * lane));
    }
    e.ldr(lane_register(24), at(kState, lane_bytes() * 24));
  }

  void emit_round(Emitter& e) {
    const RoundSchedule& schedule = zero_move_round_schedule();
    e.comment("theta, rho and pi, chi: lane i starts and ends in v<i>.");
    for (const RoundOp& op : schedule.ops) {
      switch (op.kind) {
        case RoundOp::Kind::eor3:
          e.eor3(op.dst, op.a, op.b, op.c);
          break;
        case RoundOp::Kind::rax1:
          e.rax1(op.dst, op.a, op.b);
          break;
        case RoundOp::Kind::eor:
          e.eor(op.dst, op.a, op.b);
          break;
        case RoundOp::Kind::xar:
          e.xar(op.dst, op.a, op.b, op.rotate_right);
          break;
        case RoundOp::Kind::bcax:
          e.bcax(op.dst, op.a, op.b, op.c);
          break;
      }
      e.annotate(op.note);
    }
    e.ld1r(v2d(schedule.free_register), post_index(kRoundConstant, 8));
    e.eor(0, 0, schedule.free_register);
    e.annotate("iota");
  }

  // The Go file's decisions, with their figures.
  std::vector<std::string> go_header_lines(const std::vector<Function>& functions) const {
    const bool one = states_ == 1;
    std::vector<std::string> lines = {
        one ? "Keccak-f[1600] for arm64 with the SHA3 extension (EOR3, RAX1, XAR, BCAX), as Go"
            : "Keccak-f[1600] on two states at once for arm64 with the SHA3 extension, as Go",
        one ? "(Plan 9) assembly for Go's ABI0: the arm64-sha3 kernel's code (lane i in the low"
            : "(Plan 9) assembly for Go's ABI0: the arm64-sha3-x2 kernel's code (lane i of state",
        one ? "half of V<i> for the whole permutation, a loop of one round a turn)."
            : "s in half s of V<i>, lane i of state s at byte 16 * i + 8 * s; a loop of one "
              "round).",
        "",
    };
    for (std::string& line : go_keccak_header_lines(
             Isa::arm64, functions, states_,
             one ? "XORs the block into the lanes" : "XORs the blocks into the lanes",
             {"unused by this code (the state never leaves the registers): it is",
              "there for the stack-bound check."}))
      lines.push_back(std::move(line));
    lines.insert(
        lines.end(),
        {
            "d8-d15, which AAPCS64 makes callee-saved and the AAPCS64 file saves, are the",
            "caller's to save in Go: they are cleared like the other lanes' registers.",
            "Register roles:",
            "  R0           the caller's state, loaded from state+0(FP)",
            one ? "  R1           absorb entries: the block, from block+8(FP)"
                : "  R1           absorb entries: the two block pointers, from blocks+8(FP)",
            one ? "  R9 R10       the rounds left; the pointer into the round constants"
                : "  R2 R3        absorb entries: blocks[0] and blocks[1]",
            "  V0-V24       the lanes",
            "  V25-V31      theta's C and D, the values of rho and pi, the round constant",
            "  R18 R27-R30  not written: the platform's, the assembler's temporary, g, FP, LR",
        });
    if (!one)
      lines.push_back("  R9 R10       the rounds left; the pointer into the round constants");
    return lines;
  }

  // Every figure of the code comes from the audit (HeaderFigures).
  static std::vector<std::string> header_lines(const HeaderFigures& figures) {
    const RoundSchedule& schedule = zero_move_round_schedule();
    const audit::EntryAudit& permute = figures.permute;
    const std::uint64_t per_round = permute.per_round.total;
    // The parts of a round, as emit_round and the loop emit them; they must add up to the
    // audit's count.
    constexpr std::uint64_t kEor3 = 10, kRax1 = 5, kEor = 1, kXar = 24, kBcax = 25, kIota = 2,
                            kLoop = 2;
    if (kEor3 + kRax1 + kEor + kXar + kBcax + kIota + kLoop != per_round) {
      throw GenerationError(
          fmt::format("arm64-sha3: the header's round breakdown does not add "
                      "up to the audit's {} instructions a round",
                      per_round));
    }
    const std::size_t saved = permute.saved_registers.size();
    const std::uint64_t loop_per_round = permute.loop_overhead / keccak::kRounds;
    constexpr std::uint64_t kInstructionBytes = 4;  // every A64 instruction
    return {
        "Keccak-f[1600] for arm64 with the ARMv8.2 SHA3 extension (EOR3, RAX1, XAR, BCAX).",
        "",
        "Syntax: GNU assembler (AArch64), passed through the C preprocessor. The SHA3",
        "instructions need `.arch armv8.2-a+sha3`; the runtime calls this file only when the",
        "CPU reports SHA3 (HWCAP_SHA3 on Linux, hw.optional.armv8_2_sha3 on macOS).",
        "",
        "ABI: AAPCS64. state in x0; block in x1 (absorb entries).",
        "Register roles:",
        "  x0           the caller's state array",
        "  x1           absorb entries: the rate block",
        "  x9           rounds left, the entry's rounds (24 or 12) down to 1",
        "  x10          the next round constant",
        "  v0-v24       lane i in the low 64 bits of v<i>, for the whole permutation",
        "  v25-v31      theta's C and D values, the B values rho and pi place there, and",
        "               iota's constant; see the round's comments for each one's use",
        "Callee-saved registers: AAPCS64 makes the low 64 bits of v8-v15 (d8-d15)",
        "callee-saved and the state occupies v8-v15, so d8-d15 are saved and restored:",
        fmt::format("{} registers in a {}-byte frame. No general-purpose callee-saved register is",
                    saved, permute.frame_bytes),
        "touched.",
        "Why this kernel saves registers and Go's and Linux's do not: Go's internal ABI and the",
        "Linux kernel's own calling rules (kernel_neon_begin saves the FP/SIMD state) do not",
        "make d8-d15 callee-saved, so their Keccak kernels save nothing. (fastkeccak's Go",
        "kernel declares a 200-byte frame, TEXT ... $200-16, that it never touches.) A",
        "C-callable function must save them, and no more: no needless frame work means:",
        fmt::format("save exactly what is used ({} registers, {} stp and {} "
                    "ldp",
                    saved, saved / 2, saved / 2),
        "per call, nothing more), no frame pointer record",
        "(this is a leaf function that calls nothing), and no stack buffer for the state.",
        "Why the frame is not avoided by keeping lanes out of v8-v15: 25 lanes, 5 D values and",
        "the B values need more than the 24 caller-saved SIMD registers (v0-v7, v16-v31).",
        "Secrets: the state stays in v0-v24 for the whole call and the frame holds only the",
        "caller's d8-d15, so no state-derived data is left in the released frame and nothing",
        "needs clearing (the invariants check this at generation).",
        "CFI: .cfi_def_cfa_offset and .cfi_offset for each saved d register.",
        "BTI: `bti c` (hint #34, a NOP before ARMv8.5) at each entry, since entries are",
        "reached by indirect calls through the dispatcher. The absorb entries branch into the",
        "rounds with a direct b, which BTI does not check. The ELF object carries the",
        "GNU property note with BTI and PAC: PAC needs no instructions here because the",
        "function is a leaf that never saves or reloads the link register, so there is no",
        "return address on the stack to sign.",
        ".note.GNU-stack: present, so linking this object never makes the stack executable.",
        "Round constants: in .text after the code, reached with adr (within +-1 MiB). One",
        "section means no relocation and no adrp/add or @PAGE/@PAGEOFF pair, on ELF and",
        "Mach-O alike.",
        "No stack check and no loop over blocks: the OS preempts native code at any",
        "instruction (Go's rule, where the stack check is the only stop, does not carry",
        "over); the loop over blocks lives in C++ (runtime/src/keccak/sponge.cpp), one call",
        "per block, so no call runs unbounded and a caller can report progress or cancel",
        "between chunks.",
        "No branch and no memory address depends on the state or the input; the loop runs",
        "exactly as many times as the entry's rounds.",
        "Keccak-p[1600, 12] (TurboSHAKE, KangarooTwelve) is the last 12 rounds: its entries",
        "set x10 to round constant 12 and x9 to 12 and branch into the same one-round loop;",
        "its absorb entries (rates 136 and 168) XOR the block like the 24-round ones.",
        "",
        "Loop or unroll: measured on no arm64 machine (none is available where this is",
        "generated; qemu runs the tests but says nothing of speed). Decided from counts: the",
        fmt::format("loop costs {} instructions a round (sub, cbnz; unrolled rounds would still "
                    "load",
                    loop_per_round),
        fmt::format("their constant), about {:.0f}%, and keeps the rounds in {} bytes instead of",
                    100.0 * static_cast<double>(loop_per_round) / static_cast<double>(per_round),
                    per_round * kInstructionBytes),
        "about 6.4 KiB fully unrolled. Wide cores predict the loop branch perfectly. The loop",
        "it is.",
        "Register schedule: a seeded search (seed 0x" + hex64(schedule.search_seed) + ", attempt " +
            std::to_string(schedule.search_attempt) + ") placed the B values",
        "and ordered chi so that every lane returns to its register without a MOV; the",
        "generator checks the schedule against the model on random states before use.",
        "",
        "Figures of the code (computed by the audit from the Program; `spongegen audit`):",
        fmt::format("  per round          {}  ({} eor3, {} rax1, {} eor + {} xar, {} bcax, ld1r + "
                    "eor, sub + cbnz)",
                    per_round, kEor3, kRax1, kEor, kXar, kBcax),
        fmt::format("  loop               {} per round, {} per permutation", loop_per_round,
                    permute.loop_overhead),
        fmt::format(
            "  per permutation    {}  (one call of the permute entry: 24 rounds, the frame,",
            permute.per_permutation.total),
        "                     the state's load and store)",
        fmt::format("  permute entry      {} instructions, {} bytes, with frame, load, store",
                    permute.static_instructions, permute.code_bytes),
        fmt::format("  absorb entry       up to {} before the branch into the rounds",
                    figures.largest_absorb_instructions),
        fmt::format("  frame              {} bytes, {} registers saved", permute.frame_bytes,
                    saved),
        "The seed's Go kernel (keccakf_arm64.s) has the same round structure: 69 instructions",
        "per round in a 24-iteration loop, state in V0-V24, saving no register; it declares a",
        "200-byte frame it never uses.",
    };
  }

  // The two-state kernel: what differs from arm64-sha3, whose header gives the reasons
  // for everything they share.
  static std::vector<std::string> two_state_header_lines(const HeaderFigures& figures) {
    const audit::EntryAudit& permute = figures.permute;
    std::vector<std::string> lines = {
        "Keccak-f[1600] on two states at once for arm64 with the ARMv8.2 SHA3 extension: the",
        "arm64-sha3 kernel's round on both 64-bit halves of every register.",
        "",
        "Everything but the loads and stores is arm64-sha3's (keccakf1600_arm64_sha3.S, whose",
        "header gives the reasons): the zero-move round schedule, the one-round loop, the",
        "frame that saves d8-d15, BTI, CFI, and the round constant, which ld1r already",
        "broadcasts to both halves. EOR3, RAX1, XAR and BCAX work on the whole register.",
        "",
        "State layout: lane-interleaved, lane i of state s at byte 16 * i + 8 * s of the",
        "400-byte array, so q<i> loads lane i of both states with no shuffle: ldp q, q as",
        "the one-state kernel's ldp d, d. The alternative, two separate arrays, would need",
        "ld1 lane inserts (two loads a lane) on every call; the interleaved layout costs",
        "nothing in the kernel and the runtime builds it where it fills the states.",
        "ABI: AAPCS64. state in x0; absorb entries: blocks (two pointers, any alignment, may",
        "be equal) in x1, loaded into x2 and x3; block entries: the block count in x2, the",
        "pointers loaded into x3 and x4.",
        "Register roles: as arm64-sha3, with v<i> holding lane i of both states, and",
        "  x1           absorb entries: the array of the two block pointers",
        "  x2 x3        absorb entries: blocks[0] and blocks[1]",
        "  x2           block entries: the blocks left, the block loop's counter",
        "  x3 x4        block entries: blocks[0] and blocks[1] for the whole call, each",
        "               moved on by the rate after a permutation",
        "  v25-v28      absorb entries: lanes i and i + 1 of both blocks, zipped",
        "Absorb: ldp d, d from each block brings lanes i and i + 1 of one state; zip1 .2d",
        "joins state 0's and state 1's lane i in one register; one eor each: 6 instructions",
        "for two lanes of two states.",
        "Secrets: as arm64-sha3: the state never leaves v0-v24, the frame holds only the",
        "caller's d8-d15.",
        "Block entries (<absorb entry>_blocks, at the tree modes' leaf rates: KT128 and KT256",
        "at 12 rounds, ParallelHash at 24): block_count blocks a state in one call. The",
        "lanes stay in v0-v24 from block to block; each block is XORed in as above, the",
        "rounds run in the entry's own loop, the pointers move on by the rate, and x2 counts",
        "down; 0 blocks leave the states as they were. A call a block would also run, each",
        "block, the save and restore of d8-d15 and the 25 lanes' loads and stores (about",
        "40 instructions).",
    };
    const std::vector<std::string> bound = block_entry_bound_lines();
    lines.insert(lines.end(), bound.begin(), bound.end());
    lines.insert(
        lines.end(),
        {
            "",
            "Figures of the code (computed by the audit from the Program; `spongegen audit`):",
            fmt::format("  per round          {}  (2 states: {:.1f} a state; arm64-sha3's round)",
                        permute.per_round.total, permute.per_round.total / 2.0),
            fmt::format("  loop               {} per round, {} per permutation",
                        permute.loop_overhead / keccak::kRounds, permute.loop_overhead),
            fmt::format("  per permutation    {}  (2 states: {} a state)",
                        permute.per_permutation.total, permute.per_permutation.total / 2),
            fmt::format("  permute entry      {} instructions, {} bytes, with frame, load, store",
                        permute.static_instructions, permute.code_bytes),
            fmt::format("  absorb entry       up to {} before the branch into the rounds",
                        figures.largest_absorb_instructions),
            fmt::format(
                "  block entry        up to {} (with its own round loop, store and restore)",
                figures.largest_block_entry_instructions),
            fmt::format(
                "  frame              {} bytes, {} registers saved (block entries: {} saved)",
                permute.frame_bytes, permute.saved_registers.size(),
                figures.block_entry_saved_registers),
            "Measured on no arm64 machine (qemu runs the tests, says nothing of speed). On cores",
            "that issue the SHA3 instructions at full width (Apple M1-M4) two states cost about",
            "one; where they are split into 64-bit halves, the second state is not free.",
        });
    return lines;
  }

  bool go_ = false;
  int states_;
  std::string suffix_;
  std::string stem_;
  BuiltKernel kernel_;
  LabelId round_constants_ = kNoLabel;
  LabelId rounds_ = kNoLabel;
  LabelId loop_ = kNoLabel;
  bool loop_bound_ = false;
};

}  // namespace

BuiltKernel build_keccak_arm64_sha3() {
  return Arm64KeccakBuilder(1).build();
}

BuiltKernel build_keccak_arm64_sha3_x2() {
  return Arm64KeccakBuilder(2).build();
}

Program build_keccak_arm64_sha3_go() {
  return Arm64KeccakBuilder(1, true).build_go();
}

Program build_keccak_arm64_sha3_x2_go() {
  return Arm64KeccakBuilder(2, true).build_go();
}

}  // namespace spongegen::kernels
