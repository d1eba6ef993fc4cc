// Keccak-f[1600] for amd64 with BMI1 (ANDN) and BMI2 (RORX): two rounds unrolled, looped.
//
// The design is the seed kernel's (gen_keccakf_bmi2.go): the state alternates between the
// caller's array and a 200-byte scratch state on the stack, so every round reads one copy
// and writes the other and no copy-back is needed (24 rounds is even). Theta's five D
// values stay in registers until the last chi row's inputs are formed; each row of chi loads
// its five inputs, applies D and the rho rotation (RORX, which leaves the flags alone and
// does not destroy its source), and writes five lanes with ANDN. The last row also gathers
// the next round's column parities, in the registers D leaves free, so a round starts from
// registers rather than from the lanes the round before has just stored.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <variant>
#include <vector>

#include "isa/amd64/amd64.hpp"
#include "kernels/go_entries.hpp"
#include "kernels/keccak_entries.hpp"
#include "model/keccak.hpp"

namespace spongegen::kernels {
namespace {

using namespace amd64;

// Every register's role, named once.
constexpr Reg kState = rdi;   // argument 1: the caller's 25 lanes
constexpr Reg kBlock = rsi;   // argument 2 of the absorb entries: one rate block
constexpr Reg kChiOut = rax;  // one chi result on its way to memory
// Two sets of five registers trade roles every round. In a round, `b` holds theta's column
// parities C[0..4] (computed by the round before), then per chi row the five inputs
// B[0..4]; `d` holds theta's D[0..4] until the last row's inputs are formed, then the next
// round's column parities, accumulated from the lanes this round writes. The next round
// finds them in its own `b`.
struct RoundRegisters {
  Reg b[5];
  Reg d[5];
};
constexpr RoundRegisters kEvenRound{{r8, r9, r10, r11, rsi}, {rcx, rdx, rbx, rbp, r12}};
constexpr RoundRegisters kOddRound{{rcx, rdx, rbx, rbp, r12}, {r8, r9, r10, r11, rsi}};
const RoundRegisters& round_registers(int round) {
  return round % 2 == 0 ? kEvenRound : kOddRound;
}
// Three lanes never leave registers: the three registers no other role needs. Each is
// consumed by chi (rho input) in a row no later than the row that writes its new value,
// so chi can write the new value straight into the register. That saves a load and a
// store per lane and round. Lane 0 (no rotation) would save nothing, so it is not one.
struct ResidentLane {
  int lane;
  Reg reg;
};
constexpr ResidentLane kResident[] = {{13, r13}, {17, r14}, {21, r15}};
// Go's code keeps the goroutine pointer g in r14, so the Go entries leave it alone: lane 17
// lives in memory there, like the other unresident lanes.
constexpr ResidentLane kGoResident[] = {{13, r13}, {21, r15}};
// Callee-saved registers among the above, saved in this order.
constexpr Reg kSaved[] = {rbx, rbp, r12, r13, r14, r15};
constexpr int kScratchBytes = keccak::kStateBytes;
// The rounds run as a loop of two (the state alternates, so the count is even): 24
// unrolled rounds are about 20 KB of code, more than the decoded-instruction cache of the
// cores measured, and a short loop decodes once and replays (the header records the
// lengths measured). The loop's pointer into the round constants lives in the frame, above
// the scratch state, because every register has a role in the round.
constexpr int kRoundsPerIteration = 2;
constexpr int kIterations = keccak::kRounds / kRoundsPerIteration;  // of a 24-round call
constexpr int kConstantPointerSlot = kScratchBytes;
constexpr int kFrameBytes = kScratchBytes + 8;
// The Go block entry keeps its block pointer and count in the frame too, above the constant
// pointer: no register is free across the rounds. The Go file's entries share one frame.
constexpr int kBlockPointerSlot = kFrameBytes;
constexpr int kBlockCountSlot = kFrameBytes + 8;
constexpr int kGoFrameBytes = kFrameBytes + 16;
// The Go package's rate: Keccak-256's 136 bytes (the block entry is made for it alone).
constexpr int kGoBlockEntryRate = 136;
// iota loads the pointer into B[3], dead by then (see emit_chi_row).
constexpr int kConstantPointerB = 3;
static_assert(keccak::kRounds % kRoundsPerIteration == 0 && kRoundsPerIteration % 2 == 0);

constexpr std::string_view kSymbolSuffix = "amd64_bmi2";

// Where a round reads and writes lanes: the caller's array or the scratch state.
struct StateCopy {
  Reg base;
  Mem lane(int index) const { return qword(base, 8 * index); }
};
constexpr StateCopy kArray{kState};
constexpr StateCopy kScratch{rsp};

// The first round of an absorb entry reads the rate block as it reads the state: each rate
// lane is XORed with its block lane on the way into theta and into chi, instead of a pass
// that XORs the block into memory first (17 read-modify-write stores, then 17 loads that
// must wait for them). The block pointer needs a register for that round; r15 holds it,
// so lane 21 (never a rate lane) is read from memory in that round and written to r15 by
// chi at its end, when the block is no longer needed.
struct AbsorbedBlock {
  Reg block;
  int lanes;
  int lane_read_from_memory;
};
constexpr Reg kBlockInFirstRound = r15;
constexpr int kLaneDisplacedByBlock = 21;

class Amd64KeccakBuilder {
 public:
  explicit Amd64KeccakBuilder(bool go = false) : go_(go) {
    if (go_) {
      resident_.assign(std::begin(kGoResident), std::end(kGoResident));
    } else {
      resident_.assign(std::begin(kResident), std::end(kResident));
    }
  }

  // The Go (ABI0) file: the Keccak-f[1600] permute entry and one absorb entry per rate,
  // their arguments read from the caller's frame and their scratch state in the frame the
  // Go toolchain allocates. Go's labels are local to one TEXT, so each absorb entry holds
  // its own copy of the loop and epilogue instead of jumping into the permute entry's.
  Program build_go() {
    Program& program = kernel_.program;
    program.isa = Isa::amd64;
    program.kernel_name = "amd64-bmi2";
    program.go_abi0 = true;
    program.options = {{"syntax", "go (plan 9) amd64"}, {"abi", "go abi0"}};
    check_resident_lanes();
    round_constants_ = program.new_label("keccakf1600_amd64_bmi2_round_constants");
    second_round_ = program.new_label("keccakf1600_amd64_bmi2_second_round");
    loop_ = program.new_label("keccakf1600_amd64_bmi2_loop");
    check_round_count(keccak::model().variants.front());
    add_go_keccak_entries(
        program, kGoFrameBytes, [this](const keccak::RoundVariant& v) { emit_permute_entry(v); },
        [this](const keccak::RoundVariant& v, const keccak::Rate& r) {
          emit_go_absorb_entry(v, r);
        });
    const keccak::RoundVariant& variant = keccak::model().variants.front();
    for (const keccak::Rate& rate : variant.absorb_rates) {
      if (rate.bytes == kGoBlockEntryRate) emit_go_absorb_blocks_entry(variant, rate);
    }
    program.functions.back().frame_bytes = kGoFrameBytes;
    add_round_constant_table(program, round_constants_);
    program.header_lines = go_header_lines(program.functions);
    return std::move(program);
  }

  BuiltKernel build() {
    kernel_.program.isa = Isa::amd64;
    kernel_.program.property_note = PropertyNote::x86_ibt_shstk;
    kernel_.program.options = {{"syntax", "gnu-as intel"},
                               {"rounds", fmt::format("loop of {} x {} unrolled rounds",
                                                      kIterations, kRoundsPerIteration)},
                               {"state", "caller array and 200-byte stack scratch, alternating"},
                               {"abi", "system-v"}};
    check_resident_lanes();
    round_constants_ = kernel_.program.new_label("keccakf1600_amd64_bmi2_round_constants");
    second_round_ = kernel_.program.new_label("keccakf1600_amd64_bmi2_second_round");
    loop_ = kernel_.program.new_label("keccakf1600_amd64_bmi2_loop");

    // The first variant (Keccak-f[1600]) holds the loop; every other entry jumps into it.
    for (const keccak::RoundVariant& variant : keccak::model().variants) {
      check_round_count(variant);
      emit_permute_entry(variant);
      for (const keccak::Rate& rate : variant.absorb_rates)
        emit_absorb_entry(variant, rate);
    }
    add_round_constant_table(kernel_.program, round_constants_);
    kernel_.header = [](const HeaderInputs& in) {
      return header_lines(header_figures(
          in.audit, entry_symbol(keccak::model().variants.front(), kSymbolSuffix, 0)));
    };
    return std::move(kernel_);
  }

 private:
  // Where a round reads `lane`: its register if resident (and not displaced by the block
  // pointer in an absorb entry's first round), else memory (nullptr).
  const ResidentLane* input_register(int lane, const AbsorbedBlock* absorbed) const {
    if (absorbed && lane == absorbed->lane_read_from_memory) return nullptr;
    return resident(lane);
  }

  const ResidentLane* resident(int lane) const {
    for (const ResidentLane& r : resident_) {
      if (r.lane == lane) return &r;
    }
    return nullptr;
  }

  // The resident lanes' conditions (see kResident), from the model.
  void check_resident_lanes() const {
    for (const ResidentLane& r : resident_) {
      for (int row = 0; row < 5; ++row) {
        for (const keccak::ChiInput& input : keccak::model().chi_rows[row]) {
          if (input.lane != r.lane) continue;
          if (row > r.lane / 5 || input.rotation == 0) {
            throw GenerationError("amd64-bmi2: lane " + std::to_string(r.lane) +
                                  " cannot stay in a register (read by chi row " +
                                  std::to_string(row) + ", written by row " +
                                  std::to_string(r.lane / 5) + ", rotation " +
                                  std::to_string(input.rotation) + ")");
          }
        }
      }
    }
  }

  // The loop runs whole turns and alternates the two state copies, ending in the caller's
  // array: a round count must be a multiple of the rounds a turn.
  static void check_round_count(const keccak::RoundVariant& variant) {
    if (variant.rounds % kRoundsPerIteration != 0) {
      throw GenerationError(
          fmt::format("amd64-bmi2: {} rounds of {} are not whole turns of the "
                      "{}-round loop",
                      variant.rounds, variant.permutation, kRoundsPerIteration));
    }
  }

  // The entry of the first variant holds the loop, the epilogue and their CFI; the entries
  // of the other round counts set the loop's constant pointer to their first round and
  // jump into it, with the frame the loop expects.
  void emit_permute_entry(const keccak::RoundVariant& variant) {
    Emitter e(kernel_.program, add_permute_entry(kernel_, variant, kSymbolSuffix));
    if (!go_) e.endbr64();
    emit_prologue(e, variant, nullptr);
    emit_column_parities(e, kArray, 5, nullptr, kEvenRound.b);
    if (loop_bound_) {
      e.jmp(loop_);
      return;
    }
    loop_bound_ = true;
    emit_loop_and_epilogue(e);
  }

  void emit_loop_and_epilogue(Emitter& e) {
    emit_loop(e);
    emit_epilogue(e);
  }

  // The loop of kRoundsPerIteration rounds, array -> scratch -> array, until the last round
  // constant; it leaves the state in the caller's array, but for the resident lanes.
  void emit_loop(Emitter& e) {
    e.bind(loop_);
    for (int round = 0; round < kRoundsPerIteration; ++round) {
      const bool from_array = round % 2 == 0;
      if (round == 1) e.bind(second_round_);
      emit_round(e, round, from_array ? kArray : kScratch, from_array ? kScratch : kArray, nullptr,
                 0);
    }
  }

  void emit_resident_lane_stores(Emitter& e) {
    for (const ResidentLane& r : resident_)
      e.mov(kArray.lane(r.lane), r.reg);
  }

  // A Go absorb entry: the System V absorb entry's prologue and first round, then a jump
  // to the second round of its own copy of the loop (labels are local to a Go TEXT).
  void emit_go_absorb_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Emitter e(kernel_.program, add_absorb_entry(kernel_, variant, kSymbolSuffix, rate));
    const AbsorbedBlock absorbed{kBlockInFirstRound, rate.lanes(), kLaneDisplacedByBlock};
    if (absorbed.lane_read_from_memory < rate.lanes()) {
      throw GenerationError("amd64-bmi2: lane " + std::to_string(absorbed.lane_read_from_memory) +
                            " gives its register to the block pointer but is a rate lane of " +
                            std::to_string(rate.bytes));
    }
    second_round_ = kernel_.program.new_label("keccakf1600_amd64_bmi2_second_round");
    loop_ = kernel_.program.new_label("keccakf1600_amd64_bmi2_loop");
    emit_prologue(e, variant, &absorbed);
    emit_column_parities(e, kArray, 5, &absorbed, kEvenRound.b);
    emit_round(e, 0, kArray, kScratch, &absorbed, variant.first_round());
    e.jmp(second_round_);
    emit_loop_and_epilogue(e);
  }

  // The Go block entry: block_count consecutive blocks, each XORed in by the absorb entries'
  // first round and permuted, in one call. Between blocks the lanes go back to the caller's
  // array (the loop ends there, resident lanes stored) and the next block starts as an absorb
  // entry does, from the pointer and count the frame keeps. The round marker of each block's
  // first round comes before its reads: the state a block starts from is then the array's 25
  // lanes alone, with no block lane XORed into a register yet.
  void emit_go_absorb_blocks_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Emitter e(kernel_.program, add_absorb_blocks_entry(kernel_, variant, kSymbolSuffix, rate, 1));
    const AbsorbedBlock absorbed{kBlockInFirstRound, rate.lanes(), kLaneDisplacedByBlock};
    second_round_ = kernel_.program.new_label("keccakf1600_amd64_bmi2_second_round");
    loop_ = kernel_.program.new_label("keccakf1600_amd64_bmi2_loop");
    const LabelId block = kernel_.program.new_label("keccakf1600_amd64_bmi2_block");
    const LabelId done = kernel_.program.new_label("keccakf1600_amd64_bmi2_done");
    e.comment("Go ABI0: the arguments are in the caller's frame; the frame (scratch state,");
    e.comment("constant pointer, block pointer and count) is allocated by the toolchain's");
    e.comment("prologue.");
    e.mov(kState, go_argument(0));
    e.annotate("state");
    e.mov(kChiOut, go_argument(1));
    e.mov(qword(rsp, kBlockPointerSlot), kChiOut);
    e.annotate("the next block");
    e.mov(kChiOut, go_argument(2));
    e.mov(qword(rsp, kBlockCountSlot), kChiOut);
    e.annotate("the blocks left");
    e.cmp(kChiOut, 0);
    e.je(done);
    e.bind(block);
    e.begin_round(0, false);
    emit_block_start(e, variant, &absorbed, qword(rsp, kBlockPointerSlot));
    emit_column_parities(e, kArray, 5, &absorbed, kEvenRound.b);
    emit_round(e, 0, kArray, kScratch, &absorbed, variant.first_round(), false);
    e.jmp(second_round_);
    emit_loop(e);
    e.blank();
    e.comment("The block's last round wrote the caller's array; add the register-resident");
    e.comment("lanes, then the next block, while one is left.");
    emit_resident_lane_stores(e);
    e.add(qword(rsp, kBlockPointerSlot), rate.bytes);
    e.mov(kChiOut, qword(rsp, kBlockCountSlot));
    e.sub(kChiOut, 1);
    e.mov(qword(rsp, kBlockCountSlot), kChiOut);
    e.annotate("the blocks left; mov leaves sub's flags for the branch");
    e.jne(block);
    e.bind(done);
    emit_scratch_wipe(e);
    e.ret();
  }

  // An absorb entry has its own prologue and first round, which reads the block (see
  // AbsorbedBlock), then jumps into the permute entry's loop at its second round: the
  // loop, the epilogue and their CFI exist once. The frame is the same at the jump, so the
  // permute entry's unwind information describes it.
  void emit_absorb_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Emitter e(kernel_.program, add_absorb_entry(kernel_, variant, kSymbolSuffix, rate));
    const AbsorbedBlock absorbed{kBlockInFirstRound, rate.lanes(), kLaneDisplacedByBlock};
    if (absorbed.lane_read_from_memory < rate.lanes()) {
      throw GenerationError("amd64-bmi2: lane " + std::to_string(absorbed.lane_read_from_memory) +
                            " gives its register to the block pointer but is a rate lane of " +
                            std::to_string(rate.bytes));
    }
    e.endbr64();
    emit_prologue(e, variant, &absorbed);
    emit_column_parities(e, kArray, 5, &absorbed, kEvenRound.b);
    emit_round(e, 0, kArray, kScratch, &absorbed, variant.first_round());
    e.jmp(second_round_);
  }

  // The loop's pointer starts at the variant's first round constant; the loop ends at the
  // table's end, so it turns rounds / 4 times.
  void emit_prologue(Emitter& e, const keccak::RoundVariant& variant,
                     const AbsorbedBlock* absorbed) {
    if (go_) {
      e.comment("Go ABI0: the arguments are in the caller's frame; the frame (scratch state");
      e.comment("and constant pointer) is allocated by the toolchain's prologue.");
      e.mov(kState, go_argument(0));
      e.annotate("state");
    } else {
      e.comment("Save the callee-saved registers the rounds use, then make room for the scratch");
      e.comment("state.");
      int cfa_offset = 8;  // the return address
      for (Reg reg : kSaved) {
        e.push(reg);
        cfa_offset += 8;
        e.cfi({CfiKind::adjust_cfa_offset, 8});
        e.cfi({CfiKind::offset, -cfa_offset, reg});
      }
      e.sub(rsp, kFrameBytes);
      e.cfi({CfiKind::adjust_cfa_offset, kFrameBytes});
    }
    emit_block_start(e, variant, absorbed, go_ ? go_argument(1) : Operand(kBlock));
  }

  // The loop's pointer starts at the variant's first round constant; an absorb entry's
  // block pointer comes from `block`; the resident lanes are loaded (with the block's lanes).
  void emit_block_start(Emitter& e, const keccak::RoundVariant& variant,
                        const AbsorbedBlock* absorbed, const Operand& block) {
    e.lea(kChiOut, qword_rip(round_constants_, 8 * variant.first_round()));
    e.mov(qword(rsp, kConstantPointerSlot), kChiOut);
    e.annotate("the loop's pointer into the round constants");
    if (absorbed) {
      if (const Reg* reg = std::get_if<Reg>(&block)) {
        e.mov(absorbed->block, *reg);
      } else {
        e.mov(absorbed->block, std::get<Mem>(block));
      }
      e.annotate("the block, for the first round");
    }
    for (const ResidentLane& r : resident_) {
      if (absorbed && r.lane == absorbed->lane_read_from_memory) continue;
      e.mov(r.reg, kArray.lane(r.lane));
      e.annotate("a register-resident lane");
      if (absorbed && r.lane < absorbed->lanes) e.xor_(r.reg, qword(absorbed->block, 8 * r.lane));
    }
  }

  void emit_epilogue(Emitter& e) {
    e.blank();
    if (go_) {
      e.comment("The last round wrote the caller's array; add the register-resident lanes and");
      e.comment("wipe the scratch state (the toolchain's epilogue releases the frame).");
    } else {
      e.comment("The last round wrote the caller's array; add the register-resident lanes, drop");
      e.comment("the frame and restore.");
    }
    emit_resident_lane_stores(e);
    emit_scratch_wipe(e);
    if (go_) {
      e.ret();
      return;
    }
    e.add(rsp, kFrameBytes);
    e.cfi({CfiKind::adjust_cfa_offset, -kFrameBytes});
    for (auto it = std::rbegin(kSaved); it != std::rend(kSaved); ++it) {
      e.pop(*it);
      e.cfi({CfiKind::adjust_cfa_offset, -8});
      e.cfi({CfiKind::restore, 0, *it});
    }
    e.ret();
  }

  // The scratch holds the state one round before the end; left in the released frame, it
  // and the public digest give back the whole state, and running the rounds backwards
  // gives back the message. Every scratch lane a round writes (all but the register-
  // resident ones) is zeroed before the frame is released, on every call: the clearing is
  // exact whatever the caller's stack depth (see the header for its measured cost).
  void emit_scratch_wipe(Emitter& e) {
    e.xor_(kChiOut, kChiOut);
    e.annotate("zero, for wiping the scratch state");
    for (int lane = 0; lane < keccak::kLanes; ++lane) {
      if (resident(lane)) continue;
      e.mov(kScratch.lane(lane), kChiOut);
    }
  }

  // `first_constant` is the round constant index of the entry's round 0; only the absorb
  // entries' own first round reads its constant directly, the loop reads it by pointer.
  // `marker`: whether the round's marker goes here (the Go block entry places its first
  // round's before that round's reads).
  void emit_round(Emitter& e, int round, StateCopy from, StateCopy to,
                  const AbsorbedBlock* absorbed, int first_constant, bool marker = true) {
    e.blank();
    if (marker) e.begin_round(round, absorbed == nullptr);
    e.comment(from.base == kState ? "array -> scratch" : "scratch -> array");
    if (absorbed) {
      e.comment("with the " + std::to_string(absorbed->lanes) +
                "-lane block XORed in as lanes are read");
    }
    const RoundRegisters& regs = round_registers(round);
    emit_theta_d(e, regs);
    for (int row = 0; row < 5; ++row) {
      e.comment("chi row " + std::to_string(row) + " -> lanes " + std::to_string(5 * row) + ".." +
                std::to_string(5 * row + 4));
      emit_chi_row(e, round, row, from, to, absorbed, first_constant);
    }
    if (!absorbed && round == kRoundsPerIteration - 1) {
      e.comment(fmt::format("next {} rounds, until the last round constant is done",
                            count_word(kRoundsPerIteration)));
      e.add(qword(rsp, kConstantPointerSlot), 8 * kRoundsPerIteration);
      e.lea(kChiOut, qword_rip(round_constants_, 8 * keccak::kRounds));
      e.cmp(qword(rsp, kConstantPointerSlot), kChiOut);
      e.jne(loop_);
    }
    e.end_round();
  }

  // C[x] = xor of rows 0 .. rows - 1 of column x, from `from` (resident lanes from their
  // registers, and the block's lanes too in an absorb entry's first round) into `parities`.
  // The entries compute all five rows before the first round; each round computes the
  // next round's from its own rows 0 to 3 (see emit_chi_row).
  void emit_column_parities(Emitter& e, StateCopy from, int rows, const AbsorbedBlock* absorbed,
                            const Reg (&parities)[5]) {
    for (int x = 0; x < 5; ++x) {
      for (int y = 0; y < rows; ++y) {
        const int lane = keccak::lane_index(x, y);
        const ResidentLane* r = input_register(lane, absorbed);
        if (y == 0) {
          r ? e.mov(parities[x], r->reg) : e.mov(parities[x], from.lane(lane));
        } else {
          r ? e.xor_(parities[x], r->reg) : e.xor_(parities[x], from.lane(lane));
        }
        if (!r && absorbed && lane < absorbed->lanes) {
          e.xor_(parities[x], qword(absorbed->block, 8 * lane));
        }
      }
    }
    e.annotate(rows == 5 ? "C[0..4]" : "the next round's C[0..4], rows 0 to 3");
  }

  // D[x] = C[x - 1] ^ rotl(C[x + 1], 1), with C in the round's `b` registers.
  void emit_theta_d(Emitter& e, const RoundRegisters& regs) {
    for (int x = 0; x < 5; ++x) {
      e.rorx(regs.d[x], regs.b[(x + 1) % 5], 63);
      e.xor_(regs.d[x], regs.b[(x + 4) % 5]);
    }
    e.annotate("D[0..4] ready");
  }

  // Row `row` of chi: B[x] = rotl(A[source] ^ D[source % 5], rotation), then
  // A[x, row] = B[x] ^ (~B[x + 1] & B[x + 2]); iota joins lane 0.
  void emit_chi_row(Emitter& e, int round, int row, StateCopy from, StateCopy to,
                    const AbsorbedBlock* absorbed, int first_constant) {
    const RoundRegisters& regs = round_registers(round);
    const bool last_row = row == 4;
    const auto& inputs = keccak::model().chi_rows[row];
    for (int x = 0; x < 5; ++x) {
      const keccak::ChiInput& input = inputs[x];
      if (const ResidentLane* r = input_register(input.lane, absorbed)) {
        // The lane's register is free once read: apply D in place, rotate out of it.
        e.xor_(r->reg, regs.d[input.lane % 5]);
        e.rorx(regs.b[x], r->reg, 64 - input.rotation);
        continue;
      }
      e.mov(regs.b[x], from.lane(input.lane));
      if (absorbed && input.lane < absorbed->lanes) {
        e.xor_(regs.b[x], qword(absorbed->block, 8 * input.lane));
      }
      e.xor_(regs.b[x], regs.d[input.lane % 5]);
      if (input.rotation != 0) e.rorx(regs.b[x], regs.b[x], 64 - input.rotation);
    }
    // The `d` registers are free now that the last row's inputs are formed: they gather the
    // next round's column parities, rows 0 to 3 here and row 4 as chi writes it, so the
    // next round does not wait for a store to be read back.
    if (last_row) emit_column_parities(e, to, 4, nullptr, regs.d);
    // Lane 0 last: iota's constant pointer goes into B[3], dead after lanes 1-3.
    for (int x : {1, 2, 3, 4, 0}) {
      const int lane = keccak::lane_index(x, row);
      const ResidentLane* r = resident(lane);
      const Reg out = r ? r->reg : kChiOut;
      e.andn(out, regs.b[(x + 1) % 5], regs.b[(x + 2) % 5]);
      e.xor_(out, regs.b[x]);
      if (lane == 0)
        emit_iota(e, out, regs.b[kConstantPointerB], round, absorbed != nullptr, first_constant);
      if (!r) e.mov(to.lane(lane), kChiOut);
      if (last_row) e.xor_(regs.d[x], out);
    }
  }

  // iota: the absorb entries' own first round reads the constant RIP-relative; the loop
  // reads it through the pointer in the frame.
  void emit_iota(Emitter& e, Reg lane0, Reg constant_pointer, int round, bool outside_loop,
                 int first_constant) {
    if (outside_loop) {
      e.xor_(lane0, qword_rip(round_constants_, 8 * (first_constant + round)));
      e.annotate("iota");
      return;
    }
    e.mov(constant_pointer, qword(rsp, kConstantPointerSlot));
    e.xor_(lane0, qword(constant_pointer, 8 * round));
    e.annotate("iota");
  }

  // Every figure of the code comes from the audit (HeaderFigures); the measured ones are
  // recorded text, with their machine and method.
  static std::vector<std::string> header_lines(const HeaderFigures& figures) {
    const audit::EntryAudit& permute = figures.permute;
    // The parts of a round, as the builder emits them; they must add up to the audit's count.
    constexpr std::uint64_t kNextParities = 25, kThetaD = 10, kChiInputs = 74 - 3,
                            kChiOutputs = 75 - 3, kIota = 2;
    if (kNextParities + kThetaD + kChiInputs + kChiOutputs + kIota != permute.per_round.total) {
      throw GenerationError(
          fmt::format("amd64-bmi2: the header's round breakdown does not add "
                      "up to the audit's {} instructions a round",
                      permute.per_round.total));
    }
    const std::size_t saved = permute.saved_registers.size();
    const int pushed_bytes = 8 * static_cast<int>(saved);
    if (permute.frame_bytes - pushed_bytes != kFrameBytes) {
      throw GenerationError(
          fmt::format("amd64-bmi2: the audit finds a {}-byte frame, not {} "
                      "pushed and {} allocated",
                      permute.frame_bytes, pushed_bytes, kFrameBytes));
    }
    const std::uint64_t loop_per_iteration = permute.loop_overhead / kIterations;
    return {
        fmt::format("Keccak-f[1600] for amd64 with BMI1 and BMI2 (ANDN, RORX): {} rounds unrolled, "
                    "run",
                    count_word(kRoundsPerIteration)),
        fmt::format("{} times.", count_word(kIterations)),
        "",
        "Syntax: GNU assembler, Intel syntax (.intel_syntax noprefix), passed through the C",
        "preprocessor. Intel syntax keeps the operand order of the Intel manual, where RORX and",
        "the three-operand ANDN are defined, so each line can be checked against it directly.",
        "",
        "ABI: System V AMD64. state (25 little-endian lanes) in rdi; block in rsi.",
        "Register roles:",
        "  rdi          the caller's state array",
        "  rsp          the 200-byte scratch state, which alternates with rdi round by round",
        "  rsi          absorb entries: the rate block (moved to r15); then a round register",
        "  r8 r9 r10 r11 rsi  and  rcx rdx rbx rbp r12",
        "               two sets of five that trade roles every round. Even rounds: the",
        "               first holds theta's C[0..4], then chi's row inputs B[0..4]; the",
        "               second holds D[0..4] until the last row's inputs are formed, then",
        "               the next round's C[0..4]. Odd rounds: the other way round.",
        "  r13 r14 r15  lanes 13, 17 and 21, which never leave registers",
        "  rax          one chi output on its way to memory; the loop's end address",
        "  [rsp + 200]  the loop's pointer into the round constants (B[3] holds it for iota)",
        "Register-resident lanes: each of the three is read by chi (as a rho input) in a row",
        "no later than the row that writes its new value, so D is applied in place, RORX",
        "rotates out of it, and ANDN/XOR write the new value straight back: no load and no",
        "store for these lanes in any round (6 instructions a round fewer than the seed).",
        "Callee-saved registers: the round needs all 15 registers besides rsp and System V",
        fmt::format("lets a function clobber 9 (rax rcx rdx rsi rdi r8-r11), so the other {} are",
                    saved),
        "pushed and popped, once per call: " + english_list(permute.saved_registers) + ".",
        fmt::format("Frame: {} bytes below the return address: {} pushes ({} bytes), a {}-byte",
                    permute.frame_bytes, saved, pushed_bytes, kScratchBytes),
        fmt::format("scratch state and the 8-byte constant pointer (sub rsp, {}). The 128-byte",
                    kFrameBytes),
        "red zone cannot hold 200 bytes, so the scratch state is",
        "a real frame. Nothing else is on the stack: frame work is paid on every block.",
        "CFI: .cfi_adjust_cfa_offset and .cfi_offset after each push and the sub, undone in",
        "the epilogue, so unwinders and profilers can walk out of any instruction.",
        "CET: endbr64 at every entry; the ELF object carries the IBT and SHSTK GNU property so",
        "a -fcf-protection program keeps CET. The absorb entries reach the shared rounds by a",
        "direct jmp, which IBT does not check.",
        ".note.GNU-stack: present, so linking this object never makes the stack executable.",
        "Secrets: at the return the scratch state holds the state one round before the end;",
        "left in the released frame, it and a public digest give back the whole state, and",
        fmt::format("the rounds run backwards give back the message. So the {} scratch lanes the",
                    keccak::kLanes - static_cast<int>(std::size(kResident))),
        "rounds write are zeroed (xor rax, rax and one store each) before the frame is",
        "released, on every call. The invariants check at generation that no slot of the",
        "released frame still holds state-derived data.",
        "Where the cost falls, measured (AMD EPYC, Zen 3, 2 vCPUs, KVM; 2026-11-30; minimum of",
        "400 alternating trials of 2,000 calls, TSC ticks at 2.445 GHz; kernel before and",
        "after the wipe in one binary): permute 746 -> 748, absorb136 754 -> 760, under 1%.",
        "The alternative, one clearing of the stack per message from the runtime, costs 12",
        "ticks per 256 bytes (straight stores) but must know how deep the frames below each",
        "public call reach; clearing its own frame makes each call exact at any depth.",
        "Round constants: in .text after the code, read RIP-relative. Within one section the",
        "assembler resolves the displacement itself: no relocation, and the bytes it writes",
        "equal the generator's own encoding of the Program.",
        "No stack check and no loop over blocks: the OS can preempt native code at any",
        "instruction, so Go's constraint (there a function's stack check is the only point",
        "where the runtime can stop it) does not apply. What does carry over is that the",
        "loop over blocks lives in C++ (runtime/src/keccak/sponge.cpp): one call permutes",
        "once, so no call runs unbounded and a caller hashing a huge buffer can report",
        "progress or cancel between chunks.",
        "No branch and no memory address depends on the state or the input: the loop runs",
        fmt::format("exactly {} times, counted by the constant pointer.", count_word(kIterations)),
        "Loop or unroll: 24 unrolled rounds are about 20 KB of code, more than the decoded-",
        fmt::format("instruction cache holds, so they run from the legacy decoders; a loop of {} "
                    "rounds",
                    count_word(kRoundsPerIteration)),
        fmt::format("(the permute entry is {} bytes) replays from that cache and costs {}",
                    permute.code_bytes, loop_per_iteration),
        fmt::format("instructions per {} rounds: the pointer's add, lea, cmp and jne, and in "
                    "each round",
                    count_word(kRoundsPerIteration)),
        "iota's load of the pointer, where unrolled rounds read the constant RIP-relative.",
        "Rounds a turn, measured on the AMD EPYC below (TSC ticks a permutation, one binary):",
        "2: 706, 4: 719, 6: 718-724, 12: 889 (its 12 rounds overflow the decoded-instruction",
        "cache). On the Xeon four rounds were measured against 24 unrolled (table below).",
        "Entries: the permute entry, and one absorb entry per rate with its own prologue and",
        "first round, which XORs the block (any alignment) into the lanes as it reads them,",
        "then jumps to the permute entry's second round. Keccak-p[1600, 12] (TurboSHAKE,",
        "KangarooTwelve) is the last 12 rounds: its entries start the loop's constant pointer",
        fmt::format("at round constant 12, so the same loop turns {} times instead of {}; its "
                    "permute",
                    count_word(kIterations / 2), count_word(kIterations)),
        "entry jumps into the loop, its absorb entries (rates 136 and 168) into the second",
        "round, and the scratch wipe at the shared epilogue covers them too.",
        "",
        "Figures of the code (computed by the audit from the Program; `spongegen audit`):",
        fmt::format("  per round          {}  (next round's C {} + D {}, chi inputs 74 - 3, chi",
                    permute.per_round.total, kNextParities, kThetaD),
        fmt::format("                     outputs 75 - 3, iota {})", kIota),
        fmt::format("  loop               {} per {} rounds, {} per permutation", loop_per_iteration,
                    count_word(kRoundsPerIteration), permute.loop_overhead),
        fmt::format("  per permutation    {}  (one call of the permute entry: 24 rounds, the loop,",
                    permute.per_permutation.total),
        "                     prologue and epilogue)",
        fmt::format("  permute entry      {} instructions, {} bytes in the file ({} rounds, the",
                    permute.static_instructions, permute.code_bytes,
                    count_word(kRoundsPerIteration)),
        "                     frame and endbr64)",
        fmt::format("  absorb entry       up to {} (prologue and first round) before the jump to",
                    figures.largest_absorb_instructions),
        "                     the second round",
        fmt::format("  frame              {} bytes, {} registers saved", permute.frame_bytes,
                    saved),
        "",
        "Measured (one x86-64 machine: Intel Xeon, Sapphire Rapids class, 2 vCPUs; old and new",
        "kernel in one binary, medians of 15 alternating runs; 2026-11-30, recorded with",
        "commits f874407 and 0f63fef; see bench/ for the peers). The instr/round of the",
        "earlier designs is as recorded then; this file's is the audit's:",
        "  design                                 instr/round  permute   absorb136 per block",
        "  seed: state in memory, 12 registers            185  220.3 ns  228.2 ns",
        "  + lanes 13, 17, 21 in r13-r15                  179  212.3 ns  217.0 ns",
        "  + block read in the first round                179  same      0.3-1.5% less, five",
        "                                                                 runs, each a gain",
        fmt::format(
            "  + loop of 4 rounds, 6 times                    {:>3}  205.7 ns  213.6-215.6 ns, "
            "against",
            permute.per_round.total),
        "                                                       215.0 ns  233.1-237.4 ns unrolled",
        "                                                                 in the same binary",
        fmt::format(
            "  + scratch zeroed at the end                    {:>3}  +0.3%     +0.8% (AMD EPYC,",
            permute.per_round.total),
        "                                                       see Secrets; not on this Xeon)",
        "  AVX-512VL, one lane per xmm register,           95  220-229 ns (compiler-scheduled",
        "    vpternlogq/vprolq, prototype only)                 prototype; not kept)",
        "Then on an AMD EPYC (Zen 3, 2 vCPUs, KVM; 2026-12-01; TSC ticks a call at 2.445 GHz,",
        "minimum of 600 alternating trials of 500 calls, before and after in one binary,",
        "outputs compared first):",
        fmt::format("  + next round's C gathered by the last chi row  {:>3}  permute 753 -> 719, "
                    "absorb136",
                    permute.per_round.total),
        "                                                       765 -> 729, permute-12 383 -> 368;",
        "                                                       chfast/ethash keccak.c (GCC 12",
        "                                                       -O2, BMI2 clone) 715 in the run",
        fmt::format("  + {} rounds a turn, not four (this file)      {:>3}  permute 719 -> 706",
                    count_word(kRoundsPerIteration), permute.per_round.total),
        "Before the gathering a round began by reading back, for theta, the 25 lanes the round",
        "before had just stored, and Zen 3 waited for them: llvm-mca's znver3 model put a round",
        "at 41.3 cycles against a resource bound of 30.3. Gathering the next C in registers",
        "keeps 180 instructions a round (25 more a call, in the entries) and moves the model to",
        "36.0 cycles (znver3), 37.7 (icelake-server, sapphirerapids, alderlake; from 41.8) and",
        "49.5 (znver2; from 51.3); two rounds a turn then 36.0, 37.5 and 50.0. These are",
        "modelled, not measured (spongegen audit --mca).",
        "On the Xeon the round was bound by issue width, not by latency: the audit's chain",
        fmt::format("bound is {} cycles a round, the issue bound at {} per cycle {:.0f}. The "
                    "AVX-512 form",
                    permute.round_chain_cycles, figures.issue_width,
                    static_cast<double>(permute.per_round.total) / figures.issue_width),
        "has half the instructions but only three vector ports for them, so it is no faster",
        "there.",
        "An AVX-512 one-state kernel with the rows in five zmm registers (vpermq for pi and",
        "chi's neighbours, vprolvq for rho) was measured too, on the one core here with",
        "AVX-512: an AMD EPYC (Zen 5, 2 vCPUs, KVM; 2026-12-01; TSC ticks per 136-byte block at",
        "2.096 GHz, the minimum of 15 passes over 1 MiB, three runs, outputs compared first):",
        "  this kernel's absorb entry, one call a block                   492-508",
        "  cryptogams keccak1600-avx512 (dot-asm/cryptogams 9444b2d),     526-532",
        "    that design: the AVX-512 one-state code OpenSSL carries",
        "  cryptogams keccak1600-x86_64 (OpenSSL's scalar code)           533-541",
        "Its rounds are a chain of permutes and ternary logic at this core's two-cycle vector",
        "latency, where the scalar round spreads over six ALUs; the eight-state kernel",
        "(amd64-avx512-x8) is where AVX-512 pays on this core. So no one-state AVX-512 kernel",
        "is built, and this kernel is the one-state amd64 kernel on every core measured.",
    };
  }

  // The Go file's decisions, with their figures.
  std::vector<std::string> go_header_lines(const std::vector<Function>& functions) const {
    std::vector<std::string> lines = {
        "Keccak-f[1600] for amd64 with BMI1 and BMI2 (ANDN, RORX), as Go (Plan 9) assembly for",
        fmt::format("Go's ABI0: the amd64-bmi2 kernel's rounds ({} unrolled, run {} times).",
                    count_word(kRoundsPerIteration), count_word(kIterations)),
        "",
    };
    for (std::string& line : go_keccak_header_lines(
             Isa::amd64, functions, 1, "XORs the block in as its first round reads the lanes",
             {fmt::format("the {}-byte scratch state at 0(SP), the 8-byte pointer into the",
                          kScratchBytes),
              fmt::format("round constants at {}(SP), and the block entry's block pointer and "
                          "count",
                          kConstantPointerSlot),
              fmt::format("at {}(SP) and {}(SP).", kBlockPointerSlot, kBlockCountSlot)},
             go_block_entry_work()))
      lines.push_back(std::move(line));
    lines.insert(
        lines.end(),
        {
            "Register roles:",
            "  DI           the caller's state array, loaded from state+0(FP)",
            "  R15          absorb entries: the block, loaded from block+8(FP) (the block",
            "               entry: from its pointer in the frame), in the first round (lane 21",
            "               is read from memory there); then lane 21",
            fmt::format("  SP           the {}-byte scratch state, which alternates with DI round "
                        "by round",
                        kScratchBytes),
            "  R8 R9 R10 R11 SI  and  CX DX BX BP R12",
            "               two sets of five that trade roles every round (theta's C and chi's",
            "               inputs B; theta's D, then the next round's C)",
            "               BP among them: the prologue saved the caller's BP and the epilogue "
            "restores",
            "               it, so go vet accepts it; a frame-pointer unwinder sampling inside",
            "               the function sees a clobbered BP, as with the System V kernel",
            fmt::format("  R13 R15      lanes {} and {}, which never leave registers",
                        resident_[0].lane, resident_[1].lane),
            "  R14          not written: Go keeps g there (lane 17, resident in r14 in the",
            "               System V file, lives in memory here)",
            "  AX           one chi output on its way to memory; the loop's end address",
            "The scratch lanes the rounds write are zeroed before the return.",
        });
    return lines;
  }

  // The decision on the work per call, with the figures it was made from.
  static std::vector<std::string> go_block_entry_work() {
    return {
        "Work per call: one permutation (24 rounds) for the permute and absorb entries; up to",
        "block_count permutations for the block entry, whose caller (go/keccak) bounds the count",
        "per call (blocksPerCall), so that the prologue's check, the one point where the",
        "runtime can stop the goroutine, comes at least once per that many permutations.",
        "Measured (AMD EPYC, Zen 5, 2 vCPUs, KVM; 2026-12-04; go1.19.8, one binary, ten",
        "alternating runs, medians), one call a block against calls of blocksPerCall = 32 blocks:",
        "  Sum256 of 4 KiB      6.77 us -> 6.63 us  (2.0% less)",
        "  Sum256 of 500 KB     799.5 us -> 785.7 us (1.7% less)",
        "  bare calls, 3,676 blocks: one a call 785 us; 4, 8, 16, 32, 64 a call 763-768 us;",
        "  all in one call 763 us: the gain is the call's own cost (the prologue, the",
        "  constant pointer, the scratch wipe and the register clearing), which stops",
        "  shrinking past a few blocks a call.",
        "A call of 32 blocks runs about 6.5 us there, so a stop-the-world waits at most that",
        "long for this goroutine (bench/go.sh measures the longest stop while hashing).",
    };
  }

  bool go_ = false;
  std::vector<ResidentLane> resident_;
  BuiltKernel kernel_;
  LabelId round_constants_ = kNoLabel;
  LabelId second_round_ = kNoLabel;
  LabelId loop_ = kNoLabel;
  bool loop_bound_ = false;
};

}  // namespace

BuiltKernel build_keccak_amd64_bmi2() {
  return Amd64KeccakBuilder().build();
}

Program build_keccak_amd64_bmi2_go() {
  return Amd64KeccakBuilder(true).build_go();
}

}  // namespace spongegen::kernels
