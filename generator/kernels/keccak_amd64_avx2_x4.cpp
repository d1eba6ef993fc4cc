// Keccak-f[1600] on four independent states at once, amd64 AVX2: each ymm register holds
// one lane of all four states (lane i of state s at state[4 * i + s]), so every instruction
// of the single-state round does the work of four.
//
// The round is the amd64-bmi2 kernel's, widened: the state alternates between the caller's
// array and an 800-byte scratch copy on the stack, and each chi row loads its five inputs
// with D applied (a VPXOR with a memory operand), rotates them, and stores five lanes. The
// column parities ride in registers from round to round: each chi output is XORed into its
// column's parity as it is stored, so theta reads no lane back from memory. AVX2 has no
// 64-bit rotate, so rho is a shift pair and an OR, except where the rotation is a whole
// number of bytes (one VPSHUFB) or zero.
#include <fmt/format.h>

#include <string>

#include "isa/amd64/amd64.hpp"
#include "kernels/go_entries.hpp"
#include "kernels/keccak_entries.hpp"
#include "model/keccak.hpp"

namespace spongegen::kernels {
namespace {

using namespace amd64;

constexpr int kStates = 4;
constexpr int kLaneBytes = 8 * kStates;  // one ymm register: a lane of the four states

// Every register's role, named once.
constexpr Reg kState = rdi;          // argument 1: the caller's 4 x 25 lanes
constexpr Reg kBlockPointers = rsi;  // argument 2 of the absorb entries: blocks[0..3]
constexpr Reg kBlock[kStates] = {r8, r9, r10, r11};  // the four block pointers, loaded
constexpr Reg kBlockCount = rdx;       // argument 3 of the block entries: blocks a state
constexpr Reg kConstantPointer = rax;  // the loop's pointer into the round constants
constexpr Reg kConstantEnd = rcx;      // the table's end, for the loop test
// Theta's column parities C[0..4]: computed from memory once before the first round, then
// accumulated from the chi outputs as each round stores them, ready for the next round.
constexpr Reg kC[5] = {ymm(0), ymm(1), ymm(2), ymm(3), ymm(4)};
// Theta's D[0..4], live for a whole round.
constexpr Reg kD[5] = {ymm(5), ymm(6), ymm(7), ymm(8), ymm(9)};
// Each chi row's five inputs B[0..4].
constexpr Reg kB[5] = {ymm(10), ymm(11), ymm(12), ymm(13), ymm(14)};
// The one temporary: the left-shifted half of a rotation, or a chi output on its way to
// memory and into its column's parity; the epilogue's zero, for wiping the scratch.
constexpr Reg kTemp = ymm(15);
// The absorb entries gather one lane of the four blocks into two xmm halves (before the
// rounds, when the B registers are free).
constexpr Reg kGatherLow = xmm(12), kGatherHigh = xmm(13);
constexpr Reg kGathered = ymm(12);

constexpr int kScratchBytes = keccak::kLanes * kLaneBytes;
// The rounds run as a loop of four, like amd64-bmi2's (24 and 12 are multiples of it, and
// the state copies alternate, so it must be even).
constexpr int kRoundsPerIteration = 4;
constexpr int kIterations = keccak::kRounds / kRoundsPerIteration;  // of a 24-round call
static_assert(keccak::kRounds % kRoundsPerIteration == 0 && kRoundsPerIteration % 2 == 0);

constexpr std::string_view kSymbolSuffix = "amd64_avx2_x4";

// Where a round reads and writes lanes: the caller's array or the scratch state.
struct StateCopy {
  Reg base;
  Mem lane(int index) const { return ymmword(base, kLaneBytes * index); }
};
constexpr StateCopy kArray{kState};
constexpr StateCopy kScratch{rsp};

// Byte indices for VPSHUFB that rotate each 64-bit element left by `bits` (a multiple of
// 8): result byte j is source byte j - bits / 8 (mod 8), within each element. Four
// quadwords: the 32-byte operand, the same in both 128-bit halves.
std::vector<std::uint64_t> byte_rotation_indices(int bits) {
  std::uint64_t element = 0;
  for (int byte = 0; byte < 8; ++byte) {
    const int source = (byte - bits / 8 + 8) % 8;
    element |= std::uint64_t(source) << (8 * byte);
  }
  const std::uint64_t second = element + 0x0808080808080808ull;  // bytes 8..15
  return {element, second, element, second};
}

class Avx2X4KeccakBuilder {
 public:
  explicit Avx2X4KeccakBuilder(bool go = false) : go_(go) {}

  // The Go (ABI0) file: the Keccak-f[1600] permute entry and one absorb entry per rate, the
  // scratch state in the frame the Go toolchain allocates. Go's labels are local to one
  // TEXT, so each entry holds its own copy of the loop and epilogue.
  Program build_go() {
    Program& program = kernel_.program;
    program.isa = Isa::amd64;
    program.kernel_name = "amd64-avx2-x4";
    program.go_abi0 = true;
    program.options = {
        {"syntax", "go (plan 9) amd64"}, {"states", "4, lane-interleaved"}, {"abi", "go abi0"}};
    round_constants_ = program.new_label("keccakf1600_amd64_avx2_x4_round_constants");
    add_go_keccak_entries(
        program, kScratchBytes, [this](const keccak::RoundVariant& v) { emit_permute_entry(v); },
        [this](const keccak::RoundVariant& v, const keccak::Rate& r) { emit_absorb_entry(v, r); });
    add_tables();
    program.header_lines = go_header_lines(program.functions);
    return std::move(program);
  }

  BuiltKernel build() {
    Program& program = kernel_.program;
    program.isa = Isa::amd64;
    program.property_note = PropertyNote::x86_ibt_shstk;
    program.options = {{"syntax", "gnu-as intel"},
                       {"states", "4, lane-interleaved"},
                       {"rounds", fmt::format("loop of {} x {} unrolled rounds", kIterations,
                                              kRoundsPerIteration)},
                       {"state", "caller array and 800-byte stack scratch, alternating"},
                       {"abi", "system-v"}};
    round_constants_ = program.new_label("keccakf1600_amd64_avx2_x4_round_constants");
    for (const keccak::RoundVariant& variant : keccak::model().variants) {
      if (variant.rounds % kRoundsPerIteration != 0) {
        throw GenerationError(
            fmt::format("amd64-avx2-x4: {} rounds are not whole turns of the "
                        "{}-round loop",
                        variant.rounds, kRoundsPerIteration));
      }
      emit_permute_entry(variant);
      for (const keccak::Rate& rate : variant.absorb_rates)
        emit_absorb_entry(variant, rate);
      for (const keccak::Rate& rate : variant.leaf_rates)
        emit_absorb_blocks_entry(variant, rate);
    }
    add_tables();
    kernel_.header = [](const HeaderInputs& in) {
      return header_lines(header_figures(
          in.audit, entry_symbol(keccak::model().variants.front(), kSymbolSuffix, 0)));
    };
    return std::move(kernel_);
  }

 private:
  // The first variant's permute entry holds the loop and the epilogue; every other entry
  // makes the same frame, sets the constant pointer to its first round and jumps in.
  void emit_permute_entry(const keccak::RoundVariant& variant) {
    Emitter e(kernel_.program, add_permute_entry(kernel_, variant, kSymbolSuffix, kStates));
    emit_prologue(e, variant, false);
    emit_loop_or_jump(e);
  }

  // XORs one rate block of each state into the caller's array, then runs the rounds.
  void emit_absorb_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Emitter e(kernel_.program, add_absorb_entry(kernel_, variant, kSymbolSuffix, rate, kStates));
    emit_prologue(e, variant, true);
    e.comment("The four block pointers.");
    emit_load_block_pointers(e);
    emit_xor_blocks_into_array(e, rate);
    emit_loop_or_jump(e);
  }

  // block_count blocks a state in one call: each block is XORed into the caller's array and
  // the rounds run, with the frame made and the scratch zeroed once a call, not once a block.
  void emit_absorb_blocks_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Function& function = add_absorb_blocks_entry(kernel_, variant, kSymbolSuffix, rate, kStates);
    const std::string symbol = function.symbol;
    Emitter e(kernel_.program, function);
    e.endbr64();
    e.comment("Room for the scratch state; the four block pointers.");
    e.sub(rsp, kScratchBytes);
    e.cfi({CfiKind::adjust_cfa_offset, kScratchBytes});
    emit_load_block_pointers(e);
    const LabelId block = kernel_.program.new_label(symbol + "_block");
    const LabelId done = kernel_.program.new_label(symbol + "_done");
    e.cmp(kBlockCount, 0);
    e.je(done);
    e.bind(block);
    emit_prefetch_next_blocks(e, rate, kBlock);
    emit_xor_blocks_into_array(e, rate);
    e.lea(kConstantPointer, ymmword_rip(round_constants_, kLaneBytes * variant.first_round()));
    emit_rounds(e, kernel_.program.new_label(symbol + "_rounds"));
    e.comment("every state's next block");
    for (int s = 0; s < kStates; ++s)
      e.add(kBlock[s], rate.bytes);
    e.sub(kBlockCount, 1);
    e.jne(block);
    e.bind(done);
    emit_epilogue(e);
  }

  void emit_load_block_pointers(Emitter& e) {
    for (int s = 0; s < kStates; ++s)
      e.mov(kBlock[s], qword(kBlockPointers, 8 * s));
  }

  void emit_xor_blocks_into_array(Emitter& e, const keccak::Rate& rate) {
    e.comment("Each rate lane of the four blocks gathered into one register (states 0 and 1");
    e.comment("in the low half, 2 and 3 in the high half) and XORed into the array.");
    for (int lane = 0; lane < rate.lanes(); ++lane) {
      e.vmovq(kGatherLow, qword(kBlock[0], 8 * lane));
      e.vpinsrq(kGatherLow, kGatherLow, qword(kBlock[1], 8 * lane), 1);
      e.vmovq(kGatherHigh, qword(kBlock[2], 8 * lane));
      e.vpinsrq(kGatherHigh, kGatherHigh, qword(kBlock[3], 8 * lane), 1);
      e.vinserti128(kGathered, kGathered, kGatherHigh, 1);
      e.vpxor(kGathered, kGathered, kArray.lane(lane));
      e.vmovdqu(kArray.lane(lane), kGathered);
    }
  }

  // System V: endbr64 and room for the scratch state. Go: the arguments out of the caller's
  // frame (the toolchain's prologue made the room).
  void emit_prologue(Emitter& e, const keccak::RoundVariant& variant, bool absorb) {
    if (go_) {
      e.mov(kState, go_argument(0));
      e.annotate("state");
      if (absorb) {
        e.mov(kBlockPointers, go_argument(1));
        e.annotate("blocks");
      }
      e.comment("The constant pointer starts at the entry's first round.");
    } else {
      e.endbr64();
      e.comment("Room for the scratch state; the constant pointer starts at the entry's first");
      e.comment("round.");
      e.sub(rsp, kScratchBytes);
      e.cfi({CfiKind::adjust_cfa_offset, kScratchBytes});
    }
    e.lea(kConstantPointer, ymmword_rip(round_constants_, kLaneBytes * variant.first_round()));
  }

  // The System V entries share one loop, which the first permute entry holds; in Go each
  // entry holds its own (labels are local to a TEXT).
  void emit_loop_or_jump(Emitter& e) {
    if (loop_bound_ && !go_) {
      e.jmp(loop_);
      return;
    }
    loop_bound_ = true;
    loop_ = kernel_.program.new_label("keccakf1600_amd64_avx2_x4_rounds");
    emit_rounds(e, loop_);
    emit_epilogue(e);
  }

  // The rounds from the constant pointer's round to the last, from `start`: the column
  // parities of the caller's array, then a loop of rounds, each leaving the next round's
  // parities in the C registers. The state starts and ends in the caller's array.
  void emit_rounds(Emitter& e, LabelId start) {
    e.bind(start);
    emit_column_parities(e, kArray);
    const LabelId loop = kernel_.program.new_label(kernel_.program.label_names[start] + "_loop");
    e.bind(loop);
    for (int round = 0; round < kRoundsPerIteration; ++round) {
      const bool from_array = round % 2 == 0;
      emit_round(e, round, from_array ? kArray : kScratch, from_array ? kScratch : kArray, loop);
    }
  }

  // The scratch holds the four states one round before the end: it is zeroed before the
  // frame is released (see the header), and vzeroall clears every ymm register, which both
  // ends the AVX state (as vzeroupper would, for the SSE code after the return) and leaves
  // no lane in a register.
  void emit_epilogue(Emitter& e) {
    e.blank();
    e.comment("The last round wrote the caller's array: zero the scratch state, clear the");
    e.comment("vector registers, drop the frame.");
    e.vpxor(kTemp, kTemp, kTemp);
    for (int lane = 0; lane < keccak::kLanes; ++lane)
      e.vmovdqu(kScratch.lane(lane), kTemp);
    e.vzeroall();
    if (!go_) {
      e.add(rsp, kScratchBytes);
      e.cfi({CfiKind::adjust_cfa_offset, -kScratchBytes});
    }
    e.ret();
  }

  void emit_round(Emitter& e, int round, StateCopy from, StateCopy to, LabelId loop) {
    e.blank();
    e.begin_round(round, true);
    e.comment(from.base == kState ? "array -> scratch" : "scratch -> array");
    emit_theta(e);
    for (int row = 0; row < 5; ++row) {
      e.comment("chi row " + std::to_string(row) + " -> lanes " + std::to_string(5 * row) + ".." +
                std::to_string(5 * row + 4));
      emit_chi_row(e, round, row, from, to);
    }
    if (round == kRoundsPerIteration - 1) {
      e.comment(fmt::format("next {} rounds, until the last round constant is done",
                            count_word(kRoundsPerIteration)));
      e.add(kConstantPointer, kLaneBytes * kRoundsPerIteration);
      e.lea(kConstantEnd, ymmword_rip(round_constants_, kLaneBytes * keccak::kRounds));
      e.cmp(kConstantPointer, kConstantEnd);
      e.jne(loop);
    }
    e.end_round();
  }

  // C[x] = xor of column x, from memory: once before the first round.
  void emit_column_parities(Emitter& e, StateCopy from) {
    for (int x = 0; x < 5; ++x) {
      e.vmovdqu(kC[x], from.lane(keccak::lane_index(x, 0)));
      for (int y = 1; y < 5; ++y)
        e.vpxor(kC[x], kC[x], from.lane(keccak::lane_index(x, y)));
    }
    e.annotate("C[0..4]");
  }

  // D[x] = C[x - 1] ^ rotl(C[x + 1], 1), with rotl(value, 1) = (value + value) | (value >>
  // 63): VPADDQ runs on more ports than VPSLLQ.
  void emit_theta(Emitter& e) {
    for (int x = 0; x < 5; ++x) {
      const Reg next = kC[(x + 1) % 5];
      e.vpsrlq(kTemp, next, 63);
      e.vpaddq(kD[x], next, next);
      e.vpor(kD[x], kD[x], kTemp);
      e.vpxor(kD[x], kD[x], kC[(x + 4) % 5]);
    }
    e.annotate("D[0..4] ready");
  }

  // B[x] = rotl(A[source] ^ D[source % 5], rotation), then
  // A[x, row] = B[x] ^ (~B[x + 1] & B[x + 2]); iota joins lane 0. Each output goes to memory
  // and into its column's parity for the next round: row 0's outputs start the parities
  // (theta has used the last ones), the other rows' are XORed in.
  void emit_chi_row(Emitter& e, int round, int row, StateCopy from, StateCopy to) {
    const auto& inputs = keccak::model().chi_rows[row];
    for (int x = 0; x < 5; ++x) {
      const keccak::ChiInput& input = inputs[x];
      e.vpxor(kB[x], kD[input.lane % 5], from.lane(input.lane));
      emit_rotate_left(e, kB[x], input.rotation);
    }
    for (int x = 0; x < 5; ++x) {
      const int lane = keccak::lane_index(x, row);
      const Reg out = row == 0 ? kC[x] : kTemp;
      e.vpandn(out, kB[(x + 1) % 5], kB[(x + 2) % 5]);
      e.vpxor(out, out, kB[x]);
      if (lane == 0) {
        e.vpxor(out, out, ymmword(kConstantPointer, kLaneBytes * round));
        e.annotate("iota");
      }
      e.vmovdqu(to.lane(lane), out);
      if (row != 0) e.vpxor(kC[x], kC[x], out);
    }
  }

  void emit_rotate_left(Emitter& e, Reg value, int bits) {
    if (bits == 0) return;
    if (bits % 8 == 0) {
      e.vpshufb(value, value, ymmword_rip(byte_rotation_label(bits)));
      e.annotate(fmt::format("rotl {}: a byte shuffle", bits));
      return;
    }
    e.vpsllq(kTemp, value, bits);
    e.vpsrlq(value, value, 64 - bits);
    e.vpor(value, value, kTemp);
  }

  LabelId byte_rotation_label(int bits) {
    for (const auto& [rotation, label] : byte_rotations_) {
      if (rotation == bits) return label;
    }
    const LabelId label =
        kernel_.program.new_label(fmt::format("keccakf1600_amd64_avx2_x4_rotate_left_{}", bits));
    byte_rotations_.emplace_back(bits, label);
    return label;
  }

  // iota's constants, each repeated for the four states (one 32-byte operand a round), and
  // the byte-shuffle indices of the whole-byte rotations.
  void add_tables() {
    const auto& constants = keccak::model().round_constants;
    std::vector<std::uint64_t> repeated;
    for (std::uint64_t constant : constants)
      repeated.insert(repeated.end(), kStates, constant);
    kernel_.program.tables.push_back(QuadTable{
        round_constants_, "iota's round constants, one per round, once per state", repeated});
    for (const auto& [bits, label] : byte_rotations_) {
      kernel_.program.tables.push_back(QuadTable{
          label, fmt::format("VPSHUFB indices: each 64-bit element rotated left by {}", bits),
          byte_rotation_indices(bits)});
    }
  }

  static std::vector<std::string> header_lines(const HeaderFigures& figures) {
    const audit::EntryAudit& permute = figures.permute;
    // Vector arithmetic of one round: every instruction but plain loads and stores.
    const std::uint64_t vector_operations = permute.per_round.alu + permute.per_round.rotate +
                                            permute.per_round.andn +
                                            permute.per_round.vector_permute;
    std::vector<std::string> lines = {
        "Keccak-f[1600] on four states at once for amd64 with AVX2: each ymm register holds one",
        fmt::format("lane of the four states; {} rounds unrolled, run {} times.",
                    count_word(kRoundsPerIteration), count_word(kIterations)),
        "",
        "Syntax: GNU assembler, Intel syntax (.intel_syntax noprefix), passed through the C",
        "preprocessor, like the single-state kernel.",
        "",
        "State layout: lane-interleaved, lane i of state s at byte 32 * i + 8 * s of the",
        "800-byte array, so one 32-byte load brings the same lane of all four states.",
        "ABI: System V AMD64. state in rdi; absorb entries: blocks (four pointers, any",
        "alignment, may be equal) in rsi; block entries: the block count in rdx.",
        "Register roles:",
        "  rdi          the caller's four states",
        "  rsp          the 800-byte scratch copy, which alternates with rdi round by round",
        "  rsi          absorb entries: the array of four block pointers",
        "  r8 r9 r10 r11",
        "               absorb entries: blocks[0..3]; block entries: the same, each moved on",
        "               by the rate after a permutation",
        "  rdx          block entries: the blocks left, the block loop's counter",
        "  rax          the loop's pointer into the round constants",
        "  rcx          the table's end, for the loop test",
        "  ymm0-ymm4    theta's column parities C[0..4]: read from the array before the",
        "               first round, then made by each round's chi for the next round",
        "  ymm5-ymm9    theta's D[0..4], live for the whole round",
        "  ymm10-ymm14  each chi row's inputs B[0..4]",
        "  ymm15        the left-shifted half of a rotation, or one chi output on its way",
        "               to memory and into its column's parity; the epilogue's zero",
        "  ymm12 ymm13  absorb entries, before the rounds: one lane of the four blocks",
        "Callee-saved registers: none is written (System V saves no vector register), so",
        "nothing is pushed.",
        fmt::format("Frame: {} bytes, the scratch state (sub rsp, {}). The rounds address it",
                    permute.frame_bytes, kScratchBytes),
        "from rsp, whose alignment to 32 bytes depends on the caller: a 32-byte lane at 16",
        "mod 32 crosses a cache line every other lane. Measured (Zen 3, TSC ticks, with the",
        "schedule before this one), the caller's stack offset by 16 bytes changes nothing",
        "(1165-1175 ticks either way), so the frame is not aligned (that would take a frame",
        "pointer); an array 16 bytes off 32 costs 3% (1142 against 1111 ticks), so the",
        "runtime aligns its interleaved states to 32 bytes.",
        "CFI: .cfi_adjust_cfa_offset after the sub and the add.",
        "CET: endbr64 at every entry; the ELF object carries the IBT and SHSTK GNU property.",
        "The other entries reach the shared loop by a direct jmp, which IBT does not check.",
        ".note.GNU-stack: present.",
        "AVX state: vzeroall before the return. It ends the dirty upper state as vzeroupper",
        "would (SSE code after the return pays no transition penalty) and also zeroes every",
        "ymm register, which held lanes of the states: none is left in a register.",
        "Secrets: the scratch state holds the four states one round before the end; it is",
        "zeroed (25 stores of a zeroed ymm register) before the frame is released, on every",
        "call. The invariants check it.",
        "No branch and no memory address depends on the state or the input: the loop runs",
        fmt::format("exactly {} times ({} for Keccak-p[1600, 12]), counted by the constant "
                    "pointer.",
                    count_word(kIterations), count_word(kIterations / 2)),
        "rho: AVX2 has no 64-bit rotate, so rotl(v, r) is vpsllq, vpsrlq and vpor (3",
        "instructions); rotations by 8 and 56 are one vpshufb; lane 0 (rotation 0) is none.",
        "theta's rotl by 1 uses vpaddq for the left shift (more ports than vpsllq).",
        "iota: the round constant repeated for the four states, one 32-byte operand a round.",
        "Entries: the permute entry, and per rate an absorb entry that gathers the rate lanes",
        "of the four blocks (vmovq, vpinsrq, vinserti128: 5 instructions a lane), XORs them into",
        "the array and jumps into the shared loop: one block per call. The block entries",
        "(<absorb entry>_blocks, at the tree modes' leaf rates: KT128 and KT256 at 12 rounds,",
        "ParallelHash at 24) absorb block_count blocks a state in one call: for each block",
        "the lines of every state's next block are asked for (prefetcht0 at block + rate),",
        "the same gather and XOR, then the rounds (each entry holds its own copy of the",
        "loop, as it returns to its own block loop), the pointers moved on by the rate and",
        "rdx counted down; the frame is made and the scratch zeroed once a call instead of",
        "once a block. 0 blocks leave the states as they were.",
        "",
        "Figures of the code (computed by the audit from the Program; `spongegen audit`):",
        fmt::format("  per round          {}  ({} states: {:.1f} a state; D 20, chi inputs 25 +",
                    permute.per_round.total, kStates, permute.per_round.total / double(kStates)),
        "                     rho 68, chi 75, the next round's parities 20, iota 1)",
        fmt::format("  loop               {} per {} rounds, {} per permutation",
                    permute.loop_overhead / kIterations, count_word(kRoundsPerIteration),
                    permute.loop_overhead),
        fmt::format("  per permutation    {}  (four states: {} a state)",
                    permute.per_permutation.total, permute.per_permutation.total / kStates),
        fmt::format("  permute entry      {} instructions, {} bytes in the file",
                    permute.static_instructions, permute.code_bytes),
        fmt::format("  absorb entry       up to {} (prologue and the gather) before the jump",
                    figures.largest_absorb_instructions),
        fmt::format("  block entry        up to {} (the gather, the rounds, the block loop, the",
                    figures.largest_block_entry_instructions),
        "                     epilogue)",
        fmt::format("  frame              {} bytes, {} registers saved (block entries: {} saved)",
                    permute.frame_bytes, permute.saved_registers.size(),
                    figures.block_entry_saved_registers),
        "",
        "Measured (AMD EPYC, Zen 5, family 26 model 2, 2 vCPUs, KVM; 2026-12-04; build-bench/",
        "bench/sponge_bench --benchmark_filter='^permute(-batch)?/kernel:(amd64-bmi2|",
        "amd64-avx2-x4)$' --benchmark_repetitions=9, medians, three runs, the schedule before",
        "this one in a second binary alternating with it):",
        "  amd64-bmi2 permute, one state                 232-273 ns",
        "  this kernel's permute, four states            387-398 ns, 97-100 a state",
        "  the schedule that read the parities back      399-440 ns",
        "Against XKCP's times4 permutation (AVX2 build, bench/xkcp.sh, the same program, three",
        "runs): 1.18-1.21x at 24 rounds and 0.98-0.99x at 12; 1.09-1.10x and 0.89x with the",
        "parities read back.",
        fmt::format("Where the cycles go: a round is {} vector operations besides loads and stores",
                    vector_operations),
        fmt::format(
            "(xor, andn, or, add, shifts, shuffle). Zen 3 and Zen 5 run four a cycle: {:.0f} "
            "cycles",
            vector_operations / 4.0),
        fmt::format("a round, {:.0f} a permutation. The Zen 5 core ran at 3.9 GHz (a chain of",
                    vector_operations / 4.0 * keccak::kRounds),
        "dependent adds), so 387-398 ns is 1,510-1,550 cycles, 63-65 a round: the rest is",
        "the wait at each round's start, where every D needs the last output of the round",
        "before. Loads and stores are not the bound. Fewer vector operations need a 64-bit",
        "rotate (AVX-512's vprolq) or a three-input logic operation (vpternlogq).",
        "Modelled, not measured (spongegen audit --mca, llvm-mca 14; cycles of the 24 rounds",
        "of one call; amd64-bmi2's for one state beside it):",
        "  core model        four states   a state   amd64-bmi2   per state ratio",
        "  znver2                   1512       378         1231   3.3x",
        "  znver3                   1368       342          991   2.9x",
        "  icelake-server           1704       426         1003   2.4x",
        "  sapphirerapids           1704       426         1003   2.4x",
        "  alderlake                1704       426         1003   2.4x",
        "The Intel models have three vector ports (the shifts on two of them), so the wider",
        "kernel gains less there than on Zen's four.",
    };
    for (const auto& block_entry_lines : {block_entry_bound_lines(), block_entry_measured_lines()})
      lines.insert(lines.end(), block_entry_lines.begin(), block_entry_lines.end());
    lines.insert(lines.end(),
                 {"  this block entry            0.303-0.307 ms    4.92-4.95 ms",
                  "  one absorb168 call a block  0.314-0.318 ms    5.74-5.95 ms",
                  "  the permutations alone      0.285-0.286 ms    4.56 ms",
                  "With the parities read back from memory each round (the schedule before this",
                  "one, the same run): 0.336, 0.348 and 0.318 ms at 1 MiB, 5.63, 6.24 and 5.12 ms",
                  "at 16 MiB. Without the prefetch the block entry took 0.362-0.372 and",
                  "6.46-6.58 ms (that schedule, two runs): the rounds leave the lanes in memory,",
                  "so a call a block loses only its frame, the scratch zeroing and the call; the",
                  "prefetch keeps four streams from L3 ahead of the gathers."});
    return lines;
  }

  // The Go file's decisions, with their figures.
  std::vector<std::string> go_header_lines(const std::vector<Function>& functions) const {
    std::vector<std::string> lines = {
        "Keccak-f[1600] on four states at once for amd64 with AVX2, as Go (Plan 9) assembly",
        "for Go's ABI0: the amd64-avx2-x4 kernel's code (each ymm register holds one lane of",
        "the four states, lane i of state s at byte 32 * i + 8 * s; the rounds alternate",
        fmt::format("between the caller's array and a scratch copy, {} unrolled, run {} times).",
                    count_word(kRoundsPerIteration), count_word(kIterations)),
        "",
    };
    for (std::string& line : go_keccak_header_lines(
             Isa::amd64, functions, 4, "XORs one block of each state into the array first",
             {fmt::format("the {}-byte scratch copy of the four states at 0(SP).", kScratchBytes)}))
      lines.push_back(std::move(line));
    lines.insert(
        lines.end(),
        {
            "Register roles:",
            "  DI           the caller's states, loaded from state+0(FP)",
            "  SI           absorb entries: the array of block pointers, from blocks+8(FP)",
            "  R8 R9 R10 R11  absorb entries: blocks[0..3]",
            "  SP           the scratch copy, which alternates with DI round by round",
            "  AX           the loop's pointer into the round constants",
            "  CX           the table's end, for the loop test",
            "  Y0-Y4        theta's column parities C[0..4], carried from round to round",
            "  Y5-Y9        theta's D[0..4]",
            "  Y10-Y14      each chi row's inputs B[0..4]",
            "  Y15          the left-shifted half of a rotation, or a chi result on its way to",
            "               memory and into its column's parity; the zero that wipes the scratch",
            "  X12 X13 Y12  absorb entries, before the rounds: one lane of the four blocks",
            "The scratch copy is zeroed before the return, and VZEROALL clears every vector",
            "register (X15 included: ABI0 leaves it undefined, and Go's internal ABI zeroes it",
            "again after the call), which also ends the dirty upper state for the SSE code",
            "after it.",
        });
    return lines;
  }

  bool go_ = false;
  BuiltKernel kernel_;
  LabelId round_constants_ = kNoLabel;
  LabelId loop_ = kNoLabel;
  bool loop_bound_ = false;
  std::vector<std::pair<int, LabelId>> byte_rotations_;
};

}  // namespace

BuiltKernel build_keccak_amd64_avx2_x4() {
  return Avx2X4KeccakBuilder().build();
}

Program build_keccak_amd64_avx2_x4_go() {
  return Avx2X4KeccakBuilder(true).build_go();
}

}  // namespace spongegen::kernels
