// Keccak-f[1600] on several independent states at once, amd64 AVX-512: eight states in zmm
// registers (amd64-avx512-x8, AVX-512F) or four in ymm registers (amd64-avx512-x4, AVX-512F
// and VL: the same instructions on 256 bits, for callers with four states). Each vector
// register holds one lane of all the states (lane i of state s at state[N * i + s]).
//
// AVX-512 has 32 vector registers, so the 25 lanes stay in registers for the whole
// permutation: there is no scratch state and no stack frame. Within a round pi moves no
// data: chi writes each output lane into the register its input came from, so which
// register holds which lane changes during the round (LaneRegisters), and 25 register moves
// at the end of the loop's turn put every lane back in its own register. VPROLQ rotates in
// one instruction and VPTERNLOGQ computes theta's three-way XORs and chi's a ^ (~b & c) in
// one.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <span>
#include <string>

#include "isa/amd64/amd64.hpp"
#include "kernels/go_entries.hpp"
#include "kernels/keccak_entries.hpp"
#include "model/keccak.hpp"

namespace spongegen::kernels {
namespace {

using namespace amd64;

// The kernel's width: its states, and the vector registers that hold a lane of them all.
struct Width {
  int states;      // N
  RegClass lanes;  // zmm (eight states) or ymm (four)
  std::string_view symbol_suffix;

  int lane_bytes() const { return 8 * states; }
  Reg vector(int index) const { return Reg{lanes, static_cast<std::uint8_t>(index)}; }
  std::string vector_name() const { return lanes == RegClass::zmm ? "zmm" : "ymm"; }
  // [base + disp] and [rip + label + disp], one lane of the N states wide.
  Mem lane_memory(Reg base, std::int32_t disp) const { return sized(lane_bytes(), base, disp); }
  Mem constant(LabelId label, std::int32_t disp) const {
    return Mem{kNoBase, disp, Addressing::pc_relative, label,
               static_cast<std::uint8_t>(lane_bytes())};
  }
};
constexpr Width kEightStates{8, RegClass::zmm, "amd64_avx512_x8"};
constexpr Width kFourStates{4, RegClass::ymm, "amd64_avx512_x4"};
constexpr int kMostStates = 8;

// Every register's role, named once (vector registers by number: the width names them).
constexpr Reg kState = rdi;          // argument 1: the caller's N x 25 lanes
constexpr Reg kBlockPointers = rsi;  // argument 2 of the absorb entries: blocks[0..N-1]
// The block pointers, loaded; rsi last (eight states), as it held the array of them.
constexpr Reg kBlock[kMostStates] = {r8, r9, r10, r11, rax, rcx, rdx, rsi};
// The block entries keep every state's block pointer for the whole call: r12-r14 are
// pushed, as rax, rcx and rdx are taken (the loop test and the block count).
constexpr Reg kLoopBlock[kMostStates] = {r8, r9, r10, r11, r12, r13, r14, rsi};
constexpr Reg kLoopSaved[] = {r12, r13, r14};
constexpr Reg kBlockCount = rdx;       // argument 3 of the block entries: blocks a state
constexpr Reg kConstantPointer = rax;  // the loop's pointer into the round constants
constexpr Reg kConstantEnd = rcx;      // the table's end, for the loop test
// Theta's column parities C[0..4] (registers 0-4); two spares (5, 6) for the rotated
// parities. In chi they are free, and 0 and 1 keep copies of a row's first two inputs.
constexpr int kParity[5] = {0, 1, 2, 3, 4};
constexpr int kSpare[2] = {5, 6};
// The lanes: lane i is in register kFirstLaneRegister + i at the start of every turn.
constexpr int kFirstLaneRegister = 7;
// The absorb entries (eight states) transpose the blocks' lanes eight or four at a time in
// registers 0-6 and the homes of the lanes still to come, and gather the rest (and, for four
// states, every lane) one lane of the blocks two states an xmm register (xmm0-xmm3), pairs
// of them joined in ymm0 (and ymm2), then, for eight states, the halves in zmm0: all free
// until theta.

// vpternlogq truth tables: bit 4a + 2b + c of the table is f(a, b, c), a the destination.
constexpr std::uint8_t kXor3 = 0x96;       // a ^ b ^ c
constexpr std::uint8_t kXorAndNot = 0xd2;  // a ^ (~b & c): chi
constexpr int kFirstZmmOutsideVex = 16;    // zmm16-zmm31: vzeroall leaves them
// vshufi64x2's block selectors in the transposes: a's 128-bit blocks 0 and 2, then b's 0 and
// 2 (the even blocks); a's 1 and 3, then b's 1 and 3 (the odd).
constexpr std::uint8_t kEvenBlocks = 0x88;
constexpr std::uint8_t kOddBlocks = 0xdd;

// One round a turn, then the moves (see the header for the lengths measured). 24 and 12 must
// be whole turns.
constexpr int kRoundsPerIteration = 1;
static_assert(keccak::kRounds % kRoundsPerIteration == 0 &&
              (keccak::kRounds / 2) % kRoundsPerIteration == 0);

// Which register holds each lane (LaneRegisters[lane]); its home at the start of a turn.
using LaneRegisters = std::array<Reg, keccak::kLanes>;

LaneRegisters home_registers(const Width& width) {
  LaneRegisters registers{};
  for (int lane = 0; lane < keccak::kLanes; ++lane)
    registers[lane] = width.vector(kFirstLaneRegister + lane);
  return registers;
}

// After a round, lane (x, y) is in the register of chi row y's input x.
LaneRegisters next_round_registers(const LaneRegisters& before) {
  LaneRegisters after{};
  for (int row = 0; row < 5; ++row) {
    for (int x = 0; x < 5; ++x)
      after[keccak::lane_index(x, row)] = before[keccak::model().chi_rows[row][x].lane];
  }
  return after;
}

std::string lane_register_names(const LaneRegisters& registers) {
  std::vector<std::string> names;
  for (const Reg& reg : registers)
    names.push_back(register_name(reg));
  return fmt::format("{}", fmt::join(names, " "));
}

// A Go (ABI0) entry's frame: unused, and as small as keeps the toolchain's stack-bound check
// (see the Go file's header).
constexpr int kGoFrameBytes = kGoSmallestCheckedFrame;

class Avx512KeccakBuilder {
 public:
  explicit Avx512KeccakBuilder(const Width& width, bool go = false) : width_(width), go_(go) {}

  // The Go (ABI0) file: the Keccak-f[1600] permute entry and one absorb entry per rate. Go's
  // labels are local to one TEXT, so each entry holds its own copy of the loop and epilogue.
  Program build_go() {
    Program& program = kernel_.program;
    program.isa = Isa::amd64;
    program.kernel_name = fmt::format("amd64-avx512-x{}", width_.states);
    program.go_abi0 = true;
    program.options = {{"syntax", "go (plan 9) amd64"},
                       {"states", fmt::format("{}, lane-interleaved", width_.states)},
                       {"abi", "go abi0"}};
    const std::string stem = fmt::format("keccakf1600_{}", width_.symbol_suffix);
    round_constants_ = program.new_label(stem + "_round_constants");
    add_go_keccak_entries(
        program, kGoFrameBytes, [this](const keccak::RoundVariant& v) { emit_permute_entry(v); },
        [this](const keccak::RoundVariant& v, const keccak::Rate& r) { emit_absorb_entry(v, r); });
    add_tables();
    program.header_lines = go_header_lines(program.functions);
    return std::move(program);
  }

  BuiltKernel build() {
    Program& program = kernel_.program;
    program.isa = Isa::amd64;
    program.property_note = PropertyNote::x86_ibt_shstk;
    program.options = {
        {"syntax", "gnu-as intel"},
        {"states", fmt::format("{}, lane-interleaved", width_.states)},
        {"rounds", fmt::format("loop of {} x {} unrolled rounds",
                               keccak::kRounds / kRoundsPerIteration, kRoundsPerIteration)},
        {"state", fmt::format("in {} registers; no stack frame", width_.vector_name())},
        {"abi", "system-v"}};
    const std::string stem = fmt::format("keccakf1600_{}", width_.symbol_suffix);
    round_constants_ = program.new_label(stem + "_round_constants");
    for (const keccak::RoundVariant& variant : keccak::model().variants) {
      emit_permute_entry(variant);
      for (const keccak::Rate& rate : variant.absorb_rates)
        emit_absorb_entry(variant, rate);
      for (const keccak::Rate& rate : variant.leaf_rates)
        emit_absorb_blocks_entry(variant, rate);
    }
    add_tables();
    kernel_.header = [width = width_](const HeaderInputs& in) {
      return header_lines(width,
                          header_figures(in.audit, entry_symbol(keccak::model().variants.front(),
                                                                width.symbol_suffix, 0)));
    };
    return std::move(kernel_);
  }

 private:
  // The first permute entry holds the loop and the epilogue; every other entry loads the
  // lanes, sets the constant pointer to its first round and jumps in.
  void emit_permute_entry(const keccak::RoundVariant& variant) {
    Emitter e(kernel_.program,
              add_permute_entry(kernel_, variant, width_.symbol_suffix, width_.states));
    emit_entry_start(e, false);
    e.comment("The lanes into their registers; the constant pointer at the first round.");
    const LaneRegisters registers = home_registers(width_);
    for (int lane = 0; lane < keccak::kLanes; ++lane)
      e.vmovdqu64(registers[lane], width_.lane_memory(kState, width_.lane_bytes() * lane));
    emit_loop_or_jump(e, variant);
  }

  // XORs one rate block of each state into the lanes as they are loaded, then runs the
  // rounds.
  void emit_absorb_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Emitter e(kernel_.program,
              add_absorb_entry(kernel_, variant, width_.symbol_suffix, rate, width_.states));
    emit_entry_start(e, true);
    const LaneRegisters registers = home_registers(width_);
    e.comment("The block pointers. The constant pointer is set last: rax and rcx may hold");
    e.comment("block pointers.");
    for (int s = 0; s < width_.states; ++s)
      e.mov(kBlock[s], qword(kBlockPointers, 8 * s));
    if (width_.states == 8) emit_prefetch_next_blocks(e, rate, std::span(kBlock, width_.states));
    // The rate lanes of the blocks reach their registers transposed, eight or four lanes at
    // a time (eight states only), the rest gathered lane by lane; then the state's lanes
    // are XORed in (or, past the rate, loaded).
    int transposed = 0;
    if (width_.states == 8) {
      for (; transposed + 8 <= rate.lanes(); transposed += 8)
        emit_transpose_eight_lanes(e, transposed);
      if (transposed + 4 <= rate.lanes()) {
        emit_transpose_four_lanes(e, transposed);
        transposed += 4;
      }
    }
    if (transposed < rate.lanes()) {
      e.comment(transposed + 1 == rate.lanes()
                    ? fmt::format("lane {} of the blocks, gathered", transposed)
                    : fmt::format("lanes {}..{} of the blocks, gathered one by one", transposed,
                                  rate.lanes() - 1));
    }
    for (int lane = transposed; lane < rate.lanes(); ++lane)
      emit_gather_lane(e, lane, kBlock, false);
    e.comment("The state's lanes: XORed into the transposed ones, loaded past the rate.");
    for (int lane = 0; lane < keccak::kLanes; ++lane) {
      const Mem lane_memory = width_.lane_memory(kState, width_.lane_bytes() * lane);
      if (lane < transposed) {
        e.vpxorq(registers[lane], registers[lane], lane_memory);
      } else if (lane >= rate.lanes()) {
        e.vmovdqu64(registers[lane], lane_memory);
      }
    }
    emit_loop_or_jump(e, variant);
  }

  // block_count blocks a state in one call: the lanes stay in their registers from block to
  // block, and each block's rate lanes are XORed in from the block pointers, which stay in
  // registers too (kLoopBlock) and move on by a block after each permutation.
  void emit_absorb_blocks_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Function& function =
        add_absorb_blocks_entry(kernel_, variant, width_.symbol_suffix, rate, width_.states);
    const std::string symbol = function.symbol;
    Emitter e(kernel_.program, function);
    e.endbr64();
    const std::vector<Reg> saved = saved_by_blocks_entry();
    int cfa_offset = 8;  // the return address
    for (Reg reg : saved) {
      e.push(reg);
      cfa_offset += 8;
      e.cfi({CfiKind::adjust_cfa_offset, 8});
      e.cfi({CfiKind::offset, -cfa_offset, reg});
    }
    e.comment("The block pointers (rsi, the array, last), then the lanes.");
    for (int s = 0; s < width_.states; ++s)
      e.mov(kLoopBlock[s], qword(kBlockPointers, 8 * s));
    const LaneRegisters registers = home_registers(width_);
    for (int lane = 0; lane < keccak::kLanes; ++lane)
      e.vmovdqu64(registers[lane], width_.lane_memory(kState, width_.lane_bytes() * lane));
    const LabelId block = kernel_.program.new_label(symbol + "_block");
    const LabelId done = kernel_.program.new_label(symbol + "_done");
    e.cmp(kBlockCount, 0);
    e.je(done);
    e.bind(block);
    emit_prefetch_next_blocks(e, rate, std::span(kLoopBlock, width_.states));
    int transposed = 0;
    if (width_.states == 8) {
      for (; transposed + 4 <= rate.lanes(); transposed += 4)
        emit_transpose_four_lanes_into_lanes(e, transposed);
    }
    for (int lane = transposed; lane < rate.lanes(); ++lane)
      emit_gather_lane(e, lane, kLoopBlock, true);
    e.lea(kConstantPointer,
          width_.constant(round_constants_, width_.lane_bytes() * variant.first_round()));
    emit_round_loop(e, kernel_.program.new_label(symbol + "_rounds"));
    e.comment("every state's next block");
    for (int s = 0; s < width_.states; ++s)
      e.add(kLoopBlock[s], rate.bytes);
    e.sub(kBlockCount, 1);
    e.jne(block);
    e.bind(done);
    emit_epilogue(e, saved);
  }

  // The callee-saved registers among the block pointers of the block entries.
  std::vector<Reg> saved_by_blocks_entry() const {
    std::vector<Reg> saved;
    for (Reg reg : kLoopSaved) {
      if (std::find(kLoopBlock, kLoopBlock + width_.states, reg) != kLoopBlock + width_.states)
        saved.push_back(reg);
    }
    return saved;
  }

  // The registers a transpose of the lanes from `first` may use: those free until theta
  // (0 .. kFirstLaneRegister - 1), then the homes of the lanes after the `count` it
  // writes, which are written after it.
  std::vector<Reg> transpose_temporaries(int first, int count, int needed) const {
    std::vector<Reg> temporaries;
    for (int index = 0; index < kFirstLaneRegister; ++index)
      temporaries.push_back(zmm(index));
    for (int lane = first + count; lane < keccak::kLanes; ++lane)
      temporaries.push_back(zmm(kFirstLaneRegister + lane));
    if (static_cast<int>(temporaries.size()) < needed) {
      throw GenerationError(fmt::format(
          "{}: the transpose of lanes {}..{} needs {} free registers, {} are free",
          kernel_.program.kernel_name, first, first + count - 1, needed, temporaries.size()));
    }
    temporaries.resize(static_cast<std::size_t>(needed));
    return temporaries;
  }

  // Lanes first .. first + 7 of the eight blocks into their home registers: the 8 x 8
  // matrix of words (row s: block s's lanes, one 64-byte load) transposed in three steps.
  // vpunpck{l,h}qdq pairs rows 2p and 2p + 1 word by word within each 128-bit block
  // (even words, odd words); two rounds of vshufi64x2 then gather each 128-bit block's
  // pair of states into place: 8 loads and 24 shuffles for eight lanes, where gathering
  // them lane by lane takes 88 instructions.
  void emit_transpose_eight_lanes(Emitter& e, int first) {
    const std::vector<Reg> temporaries = transpose_temporaries(first, 8, 16);
    const Reg* rows = &temporaries[0];
    const Reg* pairs = &temporaries[8];
    e.comment(fmt::format("lanes {}..{} of the eight blocks, transposed", first, first + 7));
    for (int s = 0; s < 8; ++s)
      e.vmovdqu64(rows[s], width_.lane_memory(kBlock[s], 8 * first));
    for (int p = 0; p < 4; ++p) {
      e.vpunpcklqdq(pairs[2 * p], rows[2 * p], rows[2 * p + 1]);
      e.vpunpckhqdq(pairs[2 * p + 1], rows[2 * p], rows[2 * p + 1]);
    }
    const LaneRegisters registers = home_registers(width_);
    for (int odd = 0; odd < 2; ++odd) {
      // pairs[2p + odd], block k: words 2k + odd of rows 2p and 2p + 1. The rows'
      // registers are free now: four of them take the half-gathered blocks.
      const Reg* half = &rows[4 * odd];
      e.vshufi64x2(half[0], pairs[odd], pairs[2 + odd], kEvenBlocks);
      e.vshufi64x2(half[1], pairs[odd], pairs[2 + odd], kOddBlocks);
      e.vshufi64x2(half[2], pairs[4 + odd], pairs[6 + odd], kEvenBlocks);
      e.vshufi64x2(half[3], pairs[4 + odd], pairs[6 + odd], kOddBlocks);
      e.vshufi64x2(registers[first + odd], half[0], half[2], kEvenBlocks);
      e.vshufi64x2(registers[first + 4 + odd], half[0], half[2], kOddBlocks);
      e.vshufi64x2(registers[first + 2 + odd], half[1], half[3], kEvenBlocks);
      e.vshufi64x2(registers[first + 6 + odd], half[1], half[3], kOddBlocks);
    }
  }

  // Lanes first .. first + 3 of the eight blocks (32 bytes a block) into their home
  // registers: blocks s and s + 2 share a register (s = 0, 1, 4, 5), then one vpunpck and
  // one vshufi64x2 step put the words in state order: 4 loads, 4 inserts from memory and 8
  // shuffles for four lanes, against 44 instructions lane by lane.
  void emit_transpose_four_lanes(Emitter& e, int first) {
    const std::vector<Reg> temporaries = transpose_temporaries(first, 4, 8);
    // The loads are VEX (vmovdqu), which reaches ymm0-ymm15 only.
    for (int j = 0; j < 4; ++j) {
      if (temporaries[static_cast<std::size_t>(j)].index >= kFirstZmmOutsideVex) {
        throw GenerationError(fmt::format("{}: the transpose of lanes {}..{} would load into {}",
                                          kernel_.program.kernel_name, first, first + 3,
                                          register_name(temporaries[static_cast<std::size_t>(j)])));
      }
    }
    const std::span<const Reg, 4> pairs(&temporaries[4], 4);
    e.comment(fmt::format("lanes {}..{} of the eight blocks, transposed", first, first + 3));
    emit_four_lane_pairs(e, first, kBlock, std::span<const Reg, 4>(&temporaries[0], 4), pairs);
    const LaneRegisters registers = home_registers(width_);
    for (int odd = 0; odd < 2; ++odd) {
      e.vshufi64x2(registers[first + odd], pairs[odd], pairs[2 + odd], kEvenBlocks);
      e.vshufi64x2(registers[first + 2 + odd], pairs[odd], pairs[2 + odd], kOddBlocks);
    }
  }

  // The four-lane transposes' first steps: blocks s and s + 2 joined in one register
  // (`joined`: blocks {0|2}, {1|3}, {4|6}, {5|7}), then their even and odd words paired
  // (`pairs`: of {0,1|2,3} and of {4,5|6,7}), which one vshufi64x2 a lane puts in order.
  void emit_four_lane_pairs(Emitter& e, int first, const Reg* blocks,
                            std::span<const Reg, 4> joined, std::span<const Reg, 4> pairs) {
    constexpr int kLowBlock[4] = {0, 1, 4, 5};
    for (int j = 0; j < 4; ++j) {
      const int s = kLowBlock[j];
      e.vmovdqu(Reg{RegClass::ymm, joined[j].index}, sized(32, blocks[s], 8 * first));
      e.vinserti64x4(joined[j], joined[j], sized(32, blocks[s + 2], 8 * first), 1);
    }
    e.vpunpcklqdq(pairs[0], joined[0], joined[1]);
    e.vpunpckhqdq(pairs[1], joined[0], joined[1]);
    e.vpunpcklqdq(pairs[2], joined[2], joined[3]);
    e.vpunpckhqdq(pairs[3], joined[2], joined[3]);
  }

  // Lanes first .. first + 3 of the eight blocks XORed into their registers, which hold the
  // lanes: the transpose of emit_transpose_four_lanes in the seven registers free until theta
  // (0-6). The second pair of unpacks writes into a joined register the first pair has
  // read, and the transposed lanes pass through two of the others on their way in.
  void emit_transpose_four_lanes_into_lanes(Emitter& e, int first) {
    const Reg joined[4] = {zmm(0), zmm(1), zmm(2), zmm(3)};
    const Reg pairs[4] = {zmm(4), zmm(5), zmm(6), zmm(0)};
    const Reg transposed[2] = {zmm(1), zmm(3)};
    e.comment(
        fmt::format("lanes {}..{} of the eight blocks, transposed and XORed in", first, first + 3));
    emit_four_lane_pairs(e, first, kLoopBlock, joined, pairs);
    const LaneRegisters registers = home_registers(width_);
    for (int odd = 0; odd < 2; ++odd) {
      e.vshufi64x2(transposed[0], pairs[odd], pairs[2 + odd], kEvenBlocks);
      e.vshufi64x2(transposed[1], pairs[odd], pairs[2 + odd], kOddBlocks);
      e.vpxorq(registers[first + odd], registers[first + odd], transposed[0]);
      e.vpxorq(registers[first + 2 + odd], registers[first + 2 + odd], transposed[1]);
    }
  }

  // One rate lane of the blocks gathered into register 0 (two states an xmm register,
  // joined), then XORed with the state's lane: into the lane's register (`into_lanes`: the
  // block entries, whose lanes are loaded), or with the lane from memory.
  void emit_gather_lane(Emitter& e, int lane, const Reg* blocks, bool into_lanes) {
    for (int pair = 0; pair < width_.states / 2; ++pair) {
      e.vmovq(xmm(pair), qword(blocks[2 * pair], 8 * lane));
      e.vpinsrq(xmm(pair), xmm(pair), qword(blocks[2 * pair + 1], 8 * lane), 1);
    }
    for (int quarter = 0; quarter < width_.states / 4; ++quarter)
      e.vinserti128(ymm(2 * quarter), ymm(2 * quarter), xmm(2 * quarter + 1), 1);
    if (width_.states == 8) e.vinserti64x4(zmm(0), zmm(0), ymm(2), 1);
    const Reg home = home_registers(width_)[lane];
    if (into_lanes) {
      e.vpxorq(home, home, width_.vector(0));
    } else {
      e.vpxorq(home, width_.vector(0), width_.lane_memory(kState, width_.lane_bytes() * lane));
    }
  }

  // System V: endbr64. Go: the arguments out of the caller's frame into the registers the
  // System V entries receive them in.
  void emit_entry_start(Emitter& e, bool absorb) {
    if (!go_) {
      e.endbr64();
      return;
    }
    e.mov(kState, go_argument(0));
    e.annotate("state");
    if (absorb) {
      e.mov(kBlockPointers, go_argument(1));
      e.annotate("blocks");
    }
  }

  // The System V entries share one loop, which the first permute entry holds; in Go each
  // entry holds its own (labels are local to a TEXT).
  void emit_loop_or_jump(Emitter& e, const keccak::RoundVariant& variant) {
    e.lea(kConstantPointer,
          width_.constant(round_constants_, width_.lane_bytes() * variant.first_round()));
    if (loop_bound_ && !go_) {
      e.jmp(loop_);
      return;
    }
    loop_bound_ = true;
    loop_ = kernel_.program.new_label(fmt::format("keccakf1600_{}_loop", width_.symbol_suffix));
    emit_round_loop(e, loop_);
    emit_epilogue(e, {});
  }

  // The rounds, from the constant pointer's round to the last, as a loop at `loop`; the
  // lanes are in their home registers before and after.
  void emit_round_loop(Emitter& e, LabelId loop) {
    e.bind(loop);
    LaneRegisters registers = home_registers(width_);
    for (int round = 0; round < kRoundsPerIteration; ++round) {
      e.blank();
      e.begin_round(round, true);
      e.comment("lanes 0..24 in " + lane_register_names(registers));
      emit_theta(e, registers);
      for (int row = 0; row < 5; ++row) {
        e.comment(fmt::format("rho, then chi row {} -> lanes {}..{}", row, 5 * row, 5 * row + 4));
        emit_rho_chi_row(e, round, row, registers);
      }
      registers = next_round_registers(registers);
      if (round == kRoundsPerIteration - 1) {
        emit_lanes_home(e, registers);
        e.comment("next turn, until the last round constant is done");
        e.add(kConstantPointer, width_.lane_bytes() * kRoundsPerIteration);
        e.lea(kConstantEnd,
              width_.constant(round_constants_, width_.lane_bytes() * keccak::kRounds));
        e.cmp(kConstantPointer, kConstantEnd);
        e.jne(loop);
      }
      e.end_round();
    }
  }

  // Moves every lane from `registers` (where lane i is now) back to its home register. The
  // moves follow each cycle of the register permutation: the first home's value is parked in
  // parity register 0 (free at the round's end), each home then takes the lane that belongs there,
  // and the last takes the parked value.
  void emit_lanes_home(Emitter& e, const LaneRegisters& registers) const {
    e.comment("pi: each lane back to its register for the next turn");
    const LaneRegisters home = home_registers(width_);
    const auto lane_whose_home_is = [](Reg reg) { return reg.index - kFirstLaneRegister; };
    std::array<bool, keccak::kLanes> placed{};
    for (int start = 0; start < keccak::kLanes; ++start) {
      if (placed[start] || registers[start] == home[start]) continue;
      const Reg parked = width_.vector(kParity[0]);
      e.vmovdqu64(parked, home[start]);
      for (int lane = start;;) {
        placed[lane] = true;
        const Reg from = registers[lane];
        if (from == home[start]) {
          e.vmovdqu64(home[lane], parked);
          break;
        }
        e.vmovdqu64(home[lane], from);
        lane = lane_whose_home_is(from);
      }
    }
  }

  // Stores the lanes, then clears every vector register: the lanes of the states are in
  // them. vzeroall clears zmm0-zmm15 whole and ends the dirty upper state (as vzeroupper
  // would, for the SSE code after the return); zmm16-zmm31 are cleared one by one before it.
  void emit_epilogue(Emitter& e, const std::vector<Reg>& saved) {
    e.blank();
    e.comment("Every lane is back in its first register: store them, then clear the vector");
    e.comment("registers.");
    const LaneRegisters registers = home_registers(width_);
    for (int lane = 0; lane < keccak::kLanes; ++lane)
      e.vmovdqu64(width_.lane_memory(kState, width_.lane_bytes() * lane), registers[lane]);
    for (int index = kFirstZmmOutsideVex; index < 32; ++index)
      e.vpxorq(zmm(index), zmm(index), zmm(index));
    e.vzeroall();
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
      e.pop(*it);
      e.cfi({CfiKind::adjust_cfa_offset, -8});
      e.cfi({CfiKind::restore, 0, *it});
    }
    e.ret();
  }

  // C[x] = xor of column x; column x then takes C[x - 1] ^ rotl(C[x + 1], 1), one
  // vpternlogq a lane. The five rotated parities share seven registers with the parities:
  // each goes to a spare, or to a parity no later column reads.
  void emit_theta(Emitter& e, const LaneRegisters& registers) const {
    Reg parity[5];
    for (int x = 0; x < 5; ++x)
      parity[x] = width_.vector(kParity[x]);
    for (int x = 0; x < 5; ++x) {
      e.vpxorq(parity[x], registers[keccak::lane_index(x, 0)], registers[keccak::lane_index(x, 1)]);
      e.vpternlogq(parity[x], registers[keccak::lane_index(x, 2)],
                   registers[keccak::lane_index(x, 3)], kXor3);
      e.vpxorq(parity[x], parity[x], registers[keccak::lane_index(x, 4)]);
    }
    e.annotate("C[0..4]");
    // Column x reads C[x - 1] and rotl(C[x + 1]); after column x, C[x - 1] is read only by
    // the rotation of column x - 2 (done for x >= 2) and C[x + 1] only by column x + 2.
    // Columns 0-2 rotate into the spares (alternating), column 3 into C[1] (read last by
    // columns 0 and 2), column 4 into C[2] (read last by columns 1 and 3).
    const Reg rotated_into[5] = {width_.vector(kSpare[0]), width_.vector(kSpare[1]),
                                 width_.vector(kSpare[0]), parity[1], parity[2]};
    for (int x = 0; x < 5; ++x) {
      e.vprolq(rotated_into[x], parity[(x + 1) % 5], 1);
      for (int y = 0; y < 5; ++y) {
        const Reg lane = registers[keccak::lane_index(x, y)];
        e.vpternlogq(lane, parity[(x + 4) % 5], rotated_into[x], kXor3);
      }
    }
  }

  // B[x] = rotl(A[source], rotation) in place; then, with copies of B[0] and B[1] (chi
  // overwrites them before their last use), A[x, row] = B[x] ^ (~B[x + 1] & B[x + 2]) into
  // the register of B[x]. iota joins lane 0.
  void emit_rho_chi_row(Emitter& e, int round, int row, const LaneRegisters& registers) {
    const auto& inputs = keccak::model().chi_rows[row];
    Reg b[5];
    for (int x = 0; x < 5; ++x) {
      b[x] = registers[inputs[x].lane];
      if (inputs[x].rotation != 0) e.vprolq(b[x], b[x], inputs[x].rotation);
    }
    const Reg copy[2] = {width_.vector(kParity[0]), width_.vector(kParity[1])};
    e.vmovdqu64(copy[0], b[0]);
    e.vmovdqu64(copy[1], b[1]);
    for (int x = 0; x < 5; ++x) {
      const Reg second = x + 1 < 5 ? b[x + 1] : copy[x + 1 - 5];
      const Reg third = x + 2 < 5 ? b[x + 2] : copy[x + 2 - 5];
      e.vpternlogq(b[x], second, third, kXorAndNot);
      if (keccak::lane_index(x, row) == 0) {
        e.vpxorq(b[x], b[x], width_.lane_memory(kConstantPointer, width_.lane_bytes() * round));
        e.annotate("iota");
      }
    }
  }

  // iota's constants, each repeated for the eight states (one 64-byte operand a round).
  void add_tables() {
    std::vector<std::uint64_t> repeated;
    for (std::uint64_t constant : keccak::model().round_constants)
      repeated.insert(repeated.end(), static_cast<std::size_t>(width_.states), constant);
    kernel_.program.tables.push_back(QuadTable{
        round_constants_, "iota's round constants, one per round, once per state", repeated});
  }

  static std::vector<std::string> header_lines(const Width& width, const HeaderFigures& figures) {
    const audit::EntryAudit& permute = figures.permute;
    constexpr int kIterations = keccak::kRounds / kRoundsPerIteration;
    const bool eight = width.states == 8;
    const std::string states = count_word(width.states);
    const std::string reg = width.vector_name();
    std::vector<std::string> lines = {
        fmt::format("Keccak-f[1600] on {} states at once for amd64 with AVX-512F{}: each {}",
                    states, eight ? "" : " and VL", reg),
        fmt::format("register holds one lane of the {} states, and the 25 lanes stay in "
                    "registers",
                    states),
        fmt::format("for the whole permutation; a loop of {} round{} a turn, run {} times.",
                    count_word(kRoundsPerIteration), kRoundsPerIteration == 1 ? "" : "s",
                    count_word(kIterations)),
        eight ? "The same code on ymm registers, for four states, is amd64-avx512-x4."
              : "The same code on zmm registers, for eight states, is amd64-avx512-x8; this "
                "one serves",
    };
    if (!eight) {
      lines.push_back(
          "callers with four states (the four-stream SHAKE objects), where the "
          "eight-state");
      lines.push_back("kernel would permute four idle states.");
    }
    const std::vector<std::string> body = {
        "",
        "Syntax: GNU assembler, Intel syntax (.intel_syntax noprefix), passed through the C",
        "preprocessor, like the other amd64 kernels.",
        "",
        fmt::format("State layout: lane-interleaved, lane i of state s at byte {} * i + 8 * s "
                    "of the",
                    width.lane_bytes()),
        fmt::format("{}-byte array, so one {}-byte load brings the same lane of all {} states.",
                    200 * width.states, width.lane_bytes(), states),
        fmt::format("ABI: System V AMD64. state in rdi; absorb entries: blocks ({} pointers, any",
                    states),
        "alignment, may be equal) in rsi; block entries: the block count in rdx.",
        "Register roles:",
        fmt::format("  rdi          the caller's {} states", states),
        eight ? "  rsi          absorb entries: the array of eight block pointers, then blocks[7]"
              : "  rsi          absorb entries: the array of four block pointers",
    };
    lines.insert(lines.end(), body.begin(), body.end());
    const std::vector<std::string> block_pointer_roles =
        eight ? std::vector<std::string>{
                    "  r8 r9 r10 r11 rax rcx rdx",
                    "               absorb entries: blocks[0..6], until the lanes are loaded",
                    "  r8 r9 r10 r11 r12 r13 r14 rsi",
                    "               block entries: blocks[0..7] for the whole call, each moved on by",
                    "               the rate after a permutation",
                }
              : std::vector<std::string>{
                    "  r8 r9 r10 r11",
                    "               absorb entries: blocks[0..3], until the lanes are loaded; block",
                    "               entries: blocks[0..3] for the whole call, each moved on by the",
                    "               rate after a permutation",
                };
    lines.insert(lines.end(), block_pointer_roles.begin(), block_pointer_roles.end());
    const std::vector<std::string> vector_roles = {
        "  rdx          block entries: the blocks left, the block loop's counter",
        "  rax          the loop's pointer into the round constants",
        "  rcx          the table's end, for the loop test",
        fmt::format("  {0}0-{0}4    theta: column parities C[0..4]; chi: {0}0 and {0}1 keep "
                    "copies of",
                    reg),
        fmt::format("               a row's inputs B[0] and B[1]; {}0 carries a lane in the "
                    "moves",
                    reg),
        eight
            ? "               home; absorb entries: the transposes' rows and pairs (with the homes"
            : "               home; absorb entries: ymm0 (with xmm1) gathers one",
        eight ? "               of lanes to come); zmm0 (with xmm1-xmm3, ymm2) gathers the rest"
              : "               lane of the four blocks",
        fmt::format("  {0}5 {0}6    theta: rotated parities (with {0}1 and {0}2 once their "
                    "parities",
                    reg),
        "               are used)",
        fmt::format("  {0}7-{0}31   the 25 lanes: lane i is in {0}(7 + i) at the start of every "
                    "turn.",
                    reg),
        "               Within a round chi writes each output lane into the register of its",
        "               input, so pi moves no data until the end of the turn, where 25 moves",
        fmt::format("               (one cycle of 24 lanes through {}0; lane 0 stays) put each "
                    "lane back",
                    reg),
        "               in its own register. Each round's comment lists where the lanes are.",
    };
    lines.insert(lines.end(), vector_roles.begin(), vector_roles.end());
    const std::vector<std::string> frame =
        eight ? std::vector<std::string>{
                    "Callee-saved registers: the block entries push r12, r13 and r14, which hold three",
                    "of the eight block pointers, and pop them before the return; the other entries",
                    "write none (System V saves no vector register).",
                    fmt::format("Frame: {} bytes, besides the block entries' three pushes (the "
                                "caller's values).",
                                permute.frame_bytes),
                    "Nothing else is stored on the stack: the state never leaves the registers",
                    "between the loads and the stores of the caller's array.",
                    "CFI: the block entries' pushes and pops (.cfi_adjust_cfa_offset, .cfi_offset,",
                    ".cfi_restore); the other entries need none (the stack pointer never moves).",
                }
              : std::vector<std::string>{
                    "Callee-saved registers: none is written (System V saves no vector register), so",
                    "nothing is pushed.",
                    fmt::format("Frame: {} bytes. Nothing is stored on the stack: the state never "
                                "leaves the",
                                permute.frame_bytes),
                    "registers between the loads and the stores of the caller's array.",
                    "CFI: none needed (the stack pointer never moves).",
                };
    lines.insert(lines.end(), frame.begin(), frame.end());
    const std::vector<std::string> rest_of_body = {
        "CET: endbr64 at every entry; the ELF object carries the IBT and SHSTK GNU property.",
        "The other entries reach the shared loop by a direct jmp, which IBT does not check.",
        ".note.GNU-stack: present.",
        "AVX state: zmm16-zmm31 are zeroed one by one (vpxorq), then vzeroall zeroes",
        "zmm0-zmm15 whole and ends the dirty upper state as vzeroupper would (SSE code after",
        "the return pays no transition penalty). Every register that held a lane is zero at",
        "the return. XCR0 must enable the opmask and both zmm state components (bits 5-7)",
        "besides SSE and AVX: the runtime and the JIT self-check read it with XGETBV.",
        "Secrets: no lane is written anywhere but the caller's array and the vector",
        "registers, which are cleared. The invariants check the frame.",
        "No branch and no memory address depends on the state or the input: the loop runs",
        fmt::format("exactly {} times ({} for Keccak-p[1600, 12]), counted by the constant "
                    "pointer.",
                    kIterations, kIterations / 2),
        "theta: C[x] in three instructions (vpxorq, vpternlogq, vpxorq); each lane takes",
        "C[x - 1] ^ rotl(C[x + 1], 1) in one vpternlogq (xor of three), so D is never formed.",
        "rho: one vprolq a lane (lane 0 none). chi: one vpternlogq a lane (a ^ (~b & c)),",
        "after two register copies a row (vmovdqu64): chi's first outputs overwrite B[0] and",
        "B[1], which its last two outputs read.",
        fmt::format("iota: the round constant repeated for the {} states, one {}-byte operand "
                    "a round.",
                    states, width.lane_bytes()),
    };
    lines.insert(lines.end(), rest_of_body.begin(), rest_of_body.end());
    const std::vector<std::string> entries =
        eight ? std::vector<std::string>{
                      "Entries: every entry loads the 25 lanes. The absorb entries first ask for the cache",
                      "lines of each state's next block (prefetcht0 at block + rate: a caller hashing long",
                      "messages reads eight streams at once, and the hint took absorb168 at 12 rounds,",
                      "KT128's leaves streaming from 16 MiB, from 160-163 ns a call to 149-153 ns), then",
                      "bring the rate lanes of the eight blocks into their registers by transposes: eight",
                      "lanes at a time as an 8 x 8 matrix of words (a 64-byte load a block, vpunpck{l,h}qdq,",
                      "two rounds of vshufi64x2: 32 instructions where gathering lane by lane takes 88),",
                      "then four at a time (blocks s and s + 2 joined in one register: 16 against 44); a",
                      "lane left over is gathered (vmovq and vpinsrq per two states, vinserti128 twice,",
                      "vinserti64x4). Then the state's lanes are XORed in, the constant pointer set to the",
                      "first round, and the entry jumps into the shared loop: one block per call.",
                  }
              : std::vector<std::string>{
                      "Entries: every entry loads the 25 lanes (the absorb entries gather each rate",
                      "lane of the four blocks with vmovq and vpinsrq per two states and one",
                      "vinserti128: 5 instructions a lane, and XOR it in as the lane is loaded), sets",
                      "the constant pointer to its first round and jumps into the shared loop: one",
                      "block per call.",
                  };
    lines.insert(lines.end(), entries.begin(), entries.end());
    const std::vector<std::string> block_entries = block_entries_lines(width);
    lines.insert(lines.end(), block_entries.begin(), block_entries.end());
    const std::vector<std::string> figures_lines = {
        "",
        "Figures of the code (computed by the audit from the Program; `spongegen audit`):",
        fmt::format("  per round          {}  ({} states: {:.1f} a state; theta 15 + 5 + 25, "
                    "rho 24,",
                    permute.per_round.total, width.states,
                    permute.per_round.total / double(width.states)),
        "                     copies 10, chi 25, iota 1, moves home 25, loop test 4)",
        fmt::format("  loop               {} per round, {} per permutation",
                    permute.loop_overhead / keccak::kRounds, permute.loop_overhead),
        fmt::format("  per permutation    {}  ({} states: {} a state)",
                    permute.per_permutation.total, states,
                    permute.per_permutation.total / static_cast<std::uint64_t>(width.states)),
        fmt::format("  permute entry      {} instructions, {} bytes in the file",
                    permute.static_instructions, permute.code_bytes),
        fmt::format("  absorb entry       up to {} (the pointers, the transposes and the loads) "
                    "before",
                    figures.largest_absorb_instructions),
        "                     the jump",
        fmt::format(
            "  block entry        up to {} (the pointers, the lanes, the block loop with its",
            figures.largest_block_entry_instructions),
        "                     transposes and rounds, the stores, the clearing)",
        fmt::format("  frame              {} bytes, {} registers saved (block entries: {} saved)",
                    permute.frame_bytes, permute.saved_registers.size(),
                    figures.block_entry_saved_registers),
        "",
    };
    lines.insert(lines.end(), figures_lines.begin(), figures_lines.end());
    const std::vector<std::string> measured =
        eight ? std::vector<std::string>{
                    "Measured (AMD EPYC, Zen 5, family 26 model 2, 2 vCPUs, KVM; 2026-12-01; TSC",
                    "ticks at 2.096 GHz, minimum over 200 runs of 200 calls; all variants and the",
                    "other kernels in one binary, three runs): the loop's length. Fully unrolled, the",
                    "lanes need no moves (pi is one cycle of the 24 lanes besides lane 0, so after 24",
                    "rounds every lane is home again) but the code is 17.7 KB; each shorter turn ends",
                    "with the moves that put the lanes home.",
                    "  rounds a turn   permute, eight states   code of the rounds",
                    "   1 (this file)          476-482 ticks    1.3 KB",
                    "   2                      482-488",
                    "   3                      490-497",
                    "   4                      494-510",
                    "   6                      498-508",
                    "  12                      514-526",
                    "  24 (no moves)           513-524         17.7 KB",
                    "One round a turn is the fastest and the smallest code: the moves cost less than",
                    "the front end loses on the longer bodies (register moves are eliminated at",
                    "rename on this core).",
                    "  amd64-bmi2 permute, one state                   492-494 ticks",
                    "  amd64-avx2-x4 permute, four states              873-898 ticks, 222 a state",
                    "  this kernel's permute, eight states             476-482 ticks, 60 a state: 8.2x",
                    "  this kernel's absorb136, eight blocks           516-522 ticks (gathered lane by",
                    "                                                  lane, before the transposes)",
                    "The transposes (2026-12-02, the same core; mean of 200,000 calls, five runs):",
                    "absorb168 at 12 rounds, KT128's leaf entry, took 163-169 ns with every lane",
                    "gathered and 141-144 ns transposed, against 131-139 ns for the permutation alone.",
                }
              : std::vector<std::string>{
                    "Measured (AMD EPYC, Zen 5, family 26 model 2, 2 vCPUs, KVM; 2026-12-01; TSC",
                    "ticks at 2.096 GHz, minimum over 200 runs of 200 calls, three runs, in one",
                    "binary with the other kernels; the loop's length was chosen on amd64-avx512-x8,",
                    "see its header):",
                    "  amd64-avx2-x4 permute, four states              880-887 ticks",
                    "  amd64-avx512-x8 permute, eight states           488-489 ticks",
                    "  this kernel's permute, four states              481-483 ticks: 1.83x",
                    "                                                  amd64-avx2-x4's speed",
                    "On this core a 256-bit operation costs what a 512-bit one does, so four states",
                    "take the time of eight; the four-stream SHAKE objects gain it without idle",
                    "states.",
                };
    lines.insert(lines.end(), measured.begin(), measured.end());
    lines.push_back(
        "Modelled, not measured (spongegen audit --mca, llvm-mca 14; the rounds of "
        "one call):");
    if (eight) {
      lines.insert(lines.end(),
                   {"icelake-server and sapphirerapids 51.0 cycles a round, 1224 for the 24 rounds",
                    "(resource bound 696: two 512-bit vector ports). LLVM 14 has no Zen 4 or Zen 5",
                    "model, and its znver2, znver3 and alderlake models reject the zmm code."});
    } else {
      lines.insert(
          lines.end(),
          {"icelake-server and sapphirerapids 43.7 cycles a round, 1048 for the 24 rounds",
           "(resource bound 808: three 256-bit vector ports), against 1224 for eight states",
           "on amd64-avx512-x8: per state the eight-state kernel stays ahead there. LLVM 14",
           "has no Zen 4 or Zen 5 model; its znver2, znver3 and alderlake models accept",
           "this code, but those cores have no AVX-512 and cannot run it."});
    }
    return lines;
  }

  // The block entries' paragraph: what they keep in registers, the bound of a call, and what
  // keeping the lanes in registers gained.
  static std::vector<std::string> block_entries_lines(const Width& width) {
    const bool eight = width.states == 8;
    std::vector<std::string> lines = {
        "The block entries (<absorb entry>_blocks, at the tree modes' leaf rates: KT128 and",
        "KT256 at 12 rounds, ParallelHash at 24) absorb block_count blocks a state in one",
        "call: the lanes are loaded once and stay in their registers from block to block, as",
        "do the block pointers. For each block the lines of every state's next block are",
        "asked for (prefetcht0, as in the absorb entries), the block's rate lanes XORed into",
        eight ? "the lanes' registers (four lanes at a time by the transpose above, done in"
              : "the lanes' registers (gathered as above), the rounds run, the pointers move on by",
        eight ? "zmm0-zmm6; a lane left over gathered), the rounds run, the pointers move on by"
              : "the rate, and rdx counts down; 0 blocks leave the states as they were.",
    };
    if (eight)
      lines.push_back("the rate, and rdx counts down; 0 blocks leave the states as they were.");
    for (const auto& block_entry_lines : {block_entry_bound_lines(), block_entry_measured_lines()})
      lines.insert(lines.end(), block_entry_lines.begin(), block_entry_lines.end());
    if (eight) {
      lines.insert(
          lines.end(),
          {"  this block entry            0.093-0.097 ms    1.50-1.65 ms",
           "  one absorb168 call a block  0.104-0.107 ms    1.77-1.93 ms",
           "  the permutations alone      0.091-0.092 ms    1.46-1.48 ms",
           "In the block entry a block of eight states costs 121-126 ns at 1 MiB, 2-5% over",
           "the permutation's 118-120 ns (the transposes and XORs); one call a block costs",
           "135-139 ns, as it also loads and stores the 25 lanes."});
    } else {
      lines.insert(lines.end(),
                   {"  this block entry            0.179-0.190 ms    2.91-3.19 ms",
                    "  one absorb168 call a block  0.201-0.212 ms    3.30-3.65 ms",
                    "  the permutations alone      0.176-0.182 ms    2.77-2.88 ms",
                    "The prefetch took the block entry at 16 MiB from 3.10-3.17 to 2.89-2.99 ms in",
                    "the same program (two runs each)."});
    }
    return lines;
  }

  // The Go file's decisions, with their figures.
  std::vector<std::string> go_header_lines(const std::vector<Function>& functions) const {
    const std::string states = count_word(width_.states);
    std::vector<std::string> lines = {
        fmt::format("Keccak-f[1600] on {} states at once for amd64 with AVX-512F, as Go (Plan 9)",
                    states),
        fmt::format("assembly for Go's ABI0: the amd64-avx512-x{} kernel's code (each {} "
                    "register holds",
                    width_.states, width_.vector_name()),
        fmt::format("one lane of the {} states, lane i of state s at byte {} * i + 8 * s; the 25 "
                    "lanes",
                    states, width_.lane_bytes()),
        "stay in registers through the rounds, a loop of one round a turn).",
        "",
    };
    for (std::string& line :
         go_keccak_header_lines(Isa::amd64, functions, width_.states,
                                "transposes one block of each state into its lanes and asks for "
                                "the cache lines of the next",
                                {"unused (the state never leaves the registers): it is there for "
                                 "the",
                                 "stack-bound check."}))
      lines.push_back(std::move(line));
    lines.insert(
        lines.end(),
        {
            "X15 and R14: ABI0 leaves both undefined (Go's internal ABI restores them, zeroing",
            "X15 and reloading g, after every call of an ABI0 function), so lane 8 lives in Z15",
            "and VZEROALL clears X0-X15; R14 is not written.",
            "Register roles:",
            "  DI           the caller's states, loaded from state+0(FP)",
            "  SI           absorb entries: the array of block pointers, from blocks+8(FP);",
            "               then blocks[7]",
            "  R8 R9 R10 R11 AX CX DX",
            "               absorb entries: blocks[0..6], until the lanes are loaded",
            "  AX           the loop's pointer into the round constants",
            "  CX           the table's end, for the loop test",
            "  Z0-Z4        theta's column parities; chi's copies of a row's first two inputs;",
            "               the absorb entries transpose the blocks' lanes in Z0-Z6 and the homes",
            "               of the lanes still to come, and gather a lane left over in Z0 (X0-X3,",
            "               Y0, Y2)",
            "  Z5 Z6        theta's rotated parities",
            "  Z7-Z31       the 25 lanes, lane i in Z(7 + i) at the start of every turn",
            "Every vector register that held a lane is zeroed before the return (Z16-Z31 by",
            "VPXORQ, then VZEROALL, which also ends the dirty upper state for the SSE code",
            "after it).",
        });
    return lines;
  }

  const Width& width_;
  bool go_ = false;
  BuiltKernel kernel_;
  LabelId round_constants_ = kNoLabel;
  LabelId loop_ = kNoLabel;
  bool loop_bound_ = false;
};

}  // namespace

BuiltKernel build_keccak_amd64_avx512_x8() {
  return Avx512KeccakBuilder(kEightStates).build();
}

BuiltKernel build_keccak_amd64_avx512_x4() {
  return Avx512KeccakBuilder(kFourStates).build();
}

Program build_keccak_amd64_avx512_x8_go() {
  return Avx512KeccakBuilder(kEightStates, true).build_go();
}

}  // namespace spongegen::kernels
