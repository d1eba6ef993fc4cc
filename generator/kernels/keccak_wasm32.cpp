// Keccak-p[1600] for WebAssembly on i64 locals (wasm-scalar).
//
// A WebAssembly function declares as many locals as it likes and the engine's compiler
// allocates the machine's registers, so the builder's task is a round whose data flow the
// engine can follow: no renaming it would have to see through and no memory it would have to
// prove unaliased. The 25 lanes live in locals `a`; a round reads `a` and writes its 25
// results into a second set `e`, pi folded into which lanes each row of chi reads, and the
// next round reads `e` and writes `a` (XKCP's two-state plain implementation). Two rounds are
// one turn of a loop over the round constants, so the lanes are back in `a` after each turn
// and a function holds two rounds, not 24: WebAssembly has no jump into another function,
// so every entry carries its own copy of the loop, and a copy of 24 rounds would make each
// entry twelve times as large.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "isa/wasm32/wasm32.hpp"
#include "kernels/keccak_entries.hpp"
#include "model/keccak.hpp"

namespace spongegen::kernels {
namespace {

using namespace wasm32;

constexpr int kLaneBytes = 8;
// Two: more rounds a turn left the engine's register allocator more to spill (the header's
// measurement).
constexpr int kRoundsPerTurn = 2;
constexpr std::string_view kSuffix = "wasm_scalar";

// Every local's role, named once, after an entry's `parameters` i32 parameters (the state,
// then the block or blocks, then the block count): each entry numbers its locals from there.
struct Locals {
  explicit Locals(int parameters) : first(parameters) {}
  int first;
  Reg a(int lane) const { return x(first + lane); }           // the lanes between turns
  Reg e(int lane) const { return x(first + 25 + lane); }      // after the turn's first round
  Reg c(int column) const { return x(first + 50 + column); }  // theta's column sums
  Reg d(int column) const { return x(first + 55 + column); }  // theta's D
  Reg b(int column) const { return x(first + 60 + column); }  // one row of chi's inputs
  Reg temporary() const { return x(first + 65); }             // a rotation's, chi's term
  // The row's one complemented chi input, then iota's constant from the table.
  Reg complement() const { return x(first + 66); }
  Reg round_constant() const { return x(first + 66); }
  Reg constant_pointer() const { return w(first + 67); }  // the next round constant
  Reg turns_left() const { return w(first + 68); }        // of the rounds loop
  static constexpr int kCount = 69;
};

// Lane complementing (the Keccak team's "bebigokimisa"): six lanes live complemented
// between the load and the store, and with theta's D as the complemented lanes leave it,
// chi's B[x] ^ (~B[x+1] & B[x+2]) becomes an AND or an OR with one NOT a row instead of
// five. kComplementedLanes are (x, y) = (1,0), (2,0), (3,1), (2,2), (2,3), (0,4); each row of
// chi (XKCP's KeccakP-1600-64.macros) complements one of its inputs, and each term of the
// row is B[x] ^ (B[x+1] op B[x+2]) with that input, where `complemented` says, in its place.
constexpr std::array<int, 6> kComplementedLanes = {1, 2, 8, 12, 17, 20};
struct ChiTerm {
  bool and_;              // AND, else OR
  int complemented = -1;  // which of B[x], B[x+1], B[x+2] (0, 1, 2) is the row's complemented one
};
struct ChiRow {
  int complemented;  // the row's input the NOT applies to
  std::array<ChiTerm, 5> terms;
};
constexpr std::array<ChiRow, 5> kChiRows = {{
    {2, {{{false}, {false, 1}, {true}, {false}, {true}}}},
    {4, {{{false}, {true}, {false, 2}, {false}, {true}}}},
    {3, {{{false}, {true}, {true, 1}, {false, 0}, {true}}}},
    {3, {{{true}, {false}, {false, 1}, {true, 0}, {false}}}},
    {1, {{{true, 1}, {false, 0}, {true}, {false}, {true}}}},
}};

constexpr Reg kState = parameter(0);
constexpr Reg kBlock = parameter(1);       // the one-block absorb entries' block
constexpr Reg kBlocks = parameter(1);      // the block entries' first block
constexpr Reg kBlockCount = parameter(2);  // and how many follow it

class Builder {
 public:
  BuiltKernel build() {
    Program& program = kernel_.program;
    program.isa = Isa::wasm32;
    program.options = {{"format", "WebAssembly 2.0 text (.wat) and binary (.wasm)"},
                       {"rounds", "loop of 12 x 2 rounds"},
                       {"memory", "imported as env.memory, the state and blocks in it"}};
    round_constants_ = program.new_label("keccakf1600_wasm_scalar_round_constants");
    add_round_constant_table(program, round_constants_);
    for (const keccak::RoundVariant& variant : keccak::model().variants) {
      emit_permute_entry(variant);
      for (const keccak::Rate& rate : variant.absorb_rates) {
        emit_absorb_entry(variant, rate);
        emit_absorb_blocks_entry(variant, rate);
      }
    }
    kernel_.header = [](const HeaderInputs& in) { return header_lines(in.audit); };
    return std::move(kernel_);
  }

 private:
  void emit_permute_entry(const keccak::RoundVariant& variant) {
    Emitter e(kernel_.program, add_permute_entry(kernel_, variant, kSuffix));
    const Locals l(1);
    emit_load(e, l);
    emit_rounds(e, l, variant);
    emit_store(e, l);
    e.return_();
  }

  void emit_absorb_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Emitter e(kernel_.program, add_absorb_entry(kernel_, variant, kSuffix, rate));
    const Locals l(2);
    emit_load(e, l);
    emit_absorb(e, l, kBlock, rate);
    emit_rounds(e, l, variant);
    emit_store(e, l);
    e.return_();
  }

  // Zero blocks leave the state as it was, unread and unwritten.
  void emit_absorb_blocks_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Program& program = kernel_.program;
    Emitter e(program, add_absorb_blocks_entry(kernel_, variant, kSuffix, rate, 1));
    const Locals l(3);
    const std::string stem = entry_symbol(variant, kSuffix, rate.bytes);
    const LabelId done = program.new_label(stem + "_done");
    const LabelId next_block = program.new_label(stem + "_next_block");
    e.block(done);
    e.br_if_eqz(done, kBlockCount);
    emit_load(e, l);
    e.loop(next_block);
    e.bind(next_block);
    emit_absorb(e, l, kBlocks, rate);
    emit_rounds(e, l, variant);
    e.i32_add_const(kBlocks, kBlocks, rate.bytes);
    e.i32_add_const(kBlockCount, kBlockCount, -1);
    e.br_if(next_block, kBlockCount);
    e.end();
    emit_store(e, l);
    e.end();
    e.bind(done);
    e.return_();
  }

  static void emit_load(Emitter& e, const Locals& l) {
    e.comment("The lanes into the locals a.");
    for (int lane = 0; lane < keccak::kLanes; ++lane)
      e.i64_load(l.a(lane), at(kState, kLaneBytes * lane));
    emit_complement(e, l);
  }

  static void emit_complement(Emitter& e, const Locals& l) {
    e.comment("Lanes 1, 2, 8, 12, 17 and 20 complemented (lane complementing).");
    for (int lane : kComplementedLanes)
      e.i64_xor_const(l.a(lane), l.a(lane), -1);
  }

  // The first rate.lanes() lanes XORed with the block at `block` (WebAssembly's loads take
  // any alignment).
  static void emit_absorb(Emitter& e, const Locals& l, Reg block, const keccak::Rate& rate) {
    e.comment(fmt::format("The block's {} lanes XORed into the state.", rate.lanes()));
    for (int lane = 0; lane < rate.lanes(); ++lane) {
      e.i64_load(l.temporary(), at(block, kLaneBytes * lane));
      e.i64_xor(l.a(lane), l.a(lane), l.temporary());
    }
  }

  static void emit_store(Emitter& e, const Locals& l) {
    emit_complement(e, l);
    e.comment("The lanes back to the state.");
    for (int lane = 0; lane < keccak::kLanes; ++lane)
      e.i64_store(l.a(lane), at(kState, kLaneBytes * lane));
  }

  // The variant's rounds, kRoundsPerTurn a turn, from its first round constant.
  void emit_rounds(Emitter& e, const Locals& l, const keccak::RoundVariant& variant) {
    Program& program = kernel_.program;
    const LabelId next_turn = program.new_label(program.functions.back().symbol + "_next_turn");
    e.comment(fmt::format("{} rounds, {} a turn.", variant.rounds, kRoundsPerTurn));
    e.i32_table_address(l.constant_pointer(), round_constants_);
    if (variant.first_round() != 0) {
      e.i32_add_const(l.constant_pointer(), l.constant_pointer(),
                      kLaneBytes * variant.first_round());
    }
    e.i32_const(l.turns_left(), variant.rounds / kRoundsPerTurn);
    e.loop(next_turn);
    e.bind(next_turn);
    for (int r = 0; r < kRoundsPerTurn; ++r) {
      const auto a = [&](int lane) { return l.a(lane); };
      const auto e_ = [&](int lane) { return l.e(lane); };
      if (r % 2 == 0) {
        emit_round(e, l, r, a, e_);
      } else {
        emit_round(e, l, r, e_, a);
      }
      if (r + 1 < kRoundsPerTurn) e.end_round();
    }
    // The loop's rows inside the last round's marker: the audit counts the turns by it.
    e.i32_add_const(l.constant_pointer(), l.constant_pointer(), kRoundsPerTurn * kLaneBytes);
    e.i32_add_const(l.turns_left(), l.turns_left(), -1);
    e.br_if(next_turn, l.turns_left());
    e.end_round();
    e.end();
  }

  // One round from the lanes `from` gives to the lanes `to` gives; `which` (0 or 1) is its
  // place in the turn, and its constant's offset from the constant pointer.
  template <typename From, typename To>
  static void emit_round(Emitter& e, const Locals& l, int which, From from, To to) {
    const keccak::Model& model = keccak::model();
    e.blank();
    e.begin_round(which, true);
    e.comment("theta: C[x] = the XOR of column x, D[x] = C[x-1] ^ rotl(C[x+1], 1)");
    for (int x = 0; x < 5; ++x) {
      e.i64_xor(l.c(x), from(x), from(x + 5));
      for (int y = 2; y < 5; ++y)
        e.i64_xor(l.c(x), l.c(x), from(keccak::lane_index(x, y)));
    }
    for (int x = 0; x < 5; ++x) {
      e.i64_rotl(l.temporary(), l.c((x + 1) % 5), 1);
      e.i64_xor(l.d(x), l.c((x + 4) % 5), l.temporary());
    }
    for (int y = 0; y < 5; ++y) {
      e.comment(fmt::format("row {}: D, rho and pi into b, then chi", y));
      for (int x = 0; x < 5; ++x) {
        const keccak::ChiInput& input =
            model.chi_rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)];
        e.i64_xor(l.b(x), from(input.lane), l.d(input.lane % 5));
        if (input.rotation != 0) e.i64_rotl(l.b(x), l.b(x), input.rotation);
      }
      const ChiRow& row = kChiRows[static_cast<std::size_t>(y)];
      e.i64_xor_const(l.complement(), l.b(row.complemented), -1);
      for (int x = 0; x < 5; ++x) {
        const ChiTerm& term = row.terms[static_cast<std::size_t>(x)];
        const auto input = [&](int offset) {
          return term.complemented == offset ? l.complement() : l.b((x + offset) % 5);
        };
        if (term.and_) {
          e.i64_and(l.temporary(), input(1), input(2));
        } else {
          e.i64_or(l.temporary(), input(1), input(2));
        }
        e.i64_xor(to(keccak::lane_index(x, y)), input(0), l.temporary());
      }
    }
    e.comment("iota");
    e.i64_load(l.round_constant(), at(l.constant_pointer(), kLaneBytes * which));
    e.i64_xor(to(0), to(0), l.round_constant());
  }

  static std::vector<std::string> header_lines(const audit::KernelAudit& audit) {
    const audit::EntryAudit& permute = audit.entries.at(0);
    std::size_t largest_absorb = 0, largest_blocks = 0, blocks_saved = 0;
    for (const audit::EntryAudit& entry : audit.entries) {
      if (entry.shape.kind != EntryKind::absorb) continue;
      std::size_t& largest = entry.shape.takes_block_count() ? largest_blocks : largest_absorb;
      largest = std::max(largest, entry.static_instructions);
      if (entry.shape.takes_block_count())
        blocks_saved = std::max(blocks_saved, entry.saved_registers.size());
    }
    // The parts of a round as emit_round emits them: theta's column sums (4 XORs each) and D
    // (a rotation and an XOR each); D applied and rho (an XOR per lane, 24 rotations); chi
    // (a NOT a row, an AND or OR and an XOR per lane); iota (the constant's load and its XOR).
    const std::uint64_t theta = 5 * 4 + 5 * 2, rho = 25 + 24, chi = 5 * (1 + 5 * 2), iota = 2;
    if (permute.per_round.total != theta + rho + chi + iota) {
      throw GenerationError(
          fmt::format("wasm-scalar: a round is {} rows by the audit, {} by its parts",
                      permute.per_round.total, theta + rho + chi + iota));
    }
    return {
        "Keccak-p[1600] for WebAssembly 2.0 (wasm32) on i64 locals: one state a call.",
        "",
        "Locals (the engine's compiler gives them the machine's registers): the i32",
        fmt::format("parameters (state, then block or blocks, then block_count), then {} of each",
                    Locals::kCount),
        "entry's own: 25 lanes a, 25 lanes e, theta's 5 column sums C and 5 D, one row of",
        "chi's 5 inputs B, a temporary (a rotation's, chi's term), iota's constant (i64),",
        "the round-constant pointer and the turns left (i32). Two sets of lanes because a",
        "round reads all 25 lanes before chi writes any: a round reads a and writes e, the",
        "next reads e and writes a, pi folded into which lanes each row of chi reads.",
        "Chi: lane complementing (XKCP's bebigokimisa): lanes 1, 2, 8, 12, 17 and 20 live",
        "complemented from the load to the store (12 NOTs a call), and each row of chi is",
        "five ANDs or ORs with one NOT, not five NOTs and five ANDs: 20 rows fewer a round.",
        "",
        "Measured (AMD EPYC, Zen 5, 2 vCPUs, KVM; Node 20.20.2; 2026-12-06; medians of 15",
        "interleaved repetitions, two runs): 1 MiB through the absorb136 block entry in one",
        "call, against hash-wasm 4.13's Keccak-256 of 1 MiB in the same run:",
        "  two rounds a turn, NOTs in chi        406-649 ns a block, 1.11-1.12x hash-wasm",
        "  two rounds a turn, lane complementing 382-384 ns a block, 1.18-1.19x hash-wasm",
        "  four rounds a turn                    425-502 ns a block, 1.07-1.28x",
        "  twelve rounds a turn                  529-530 ns a block, 0.86x",
        "(the machine's clock moved between runs; the ratios are of one run each).",
        "Rounds: two a turn of a loop over iota's table in the module's data segment (the",
        "table is the segment's first bytes, at address 0); each entry holds its own loop,",
        "since WebAssembly has no jump into another function: 24 unrolled rounds in each",
        "of the entries would be twelve times the code.",
        "Memory: the module imports its memory (env.memory); every pointer is an offset in",
        "it, every lane a little-endian i64 load or store at a constant offset (any",
        "alignment). No entry writes memory but the state's 200 bytes; zero blocks leave",
        "the state unread.",
        "",
        "Figures of the code (the audit's, in rows: a row is one operation between its",
        "local.get and local.set):",
        fmt::format("  per round          {}  (theta {}, D and rho {}, chi {}, iota {})",
                    permute.per_round.total, theta, rho, chi, iota),
        fmt::format("  loop               {} per {} rounds, {} per permutation",
                    permute.loop_overhead * kRoundsPerTurn / keccak::kRounds,
                    count_word(kRoundsPerTurn), permute.loop_overhead),
        fmt::format("  per permutation    {}  (24 rounds, the loop, the lanes' loads and stores)",
                    permute.per_permutation.total),
        fmt::format("  permute entry      {} instructions, {} bytes", permute.static_instructions,
                    permute.code_bytes),
        fmt::format("  absorb entry       up to {} instructions, its own loop", largest_absorb),
        fmt::format("  block entry        up to {} instructions, one block a turn of its own",
                    largest_blocks),
        "                     loop around the rounds'",
        fmt::format("  frame              {} bytes, {} registers saved (block entries: {} saved)",
                    permute.frame_bytes, permute.saved_registers.size(), blocks_saved),
        "Speed: not measured here; no WebAssembly engine's figures are taken by the",
        "generator (the npm package's bench takes them).",
    };
  }

  BuiltKernel kernel_;
  LabelId round_constants_{};
};

}  // namespace

BuiltKernel build_keccak_wasm_scalar() {
  return Builder().build();
}

}  // namespace spongegen::kernels
