// Keccak-p[1600] for WebAssembly: one state on i64 locals (wasm-scalar) or in memory
// (wasm-scalar-memory), two in the 64-bit lanes of v128s in memory with SIMD128
// (wasm-simd128); the same round on all three.
//
// A WebAssembly function declares as many locals as it likes and the engine's compiler
// allocates the machine's registers. With the lanes in locals, the 25 lanes live in locals
// `a`; a round reads `a` and writes its 25 results into a second set `e`, pi folded into
// which lanes each row of chi reads, and the next round reads `e` and writes `a` (XKCP's
// two-state plain implementation): no renaming the engine would have to see through and no
// memory it would have to prove unaliased. But 67 locals are more than any machine's
// registers, and what the engine spills, and where, is its own choice: Node 20's V8 runs the
// same round faster with the lanes in memory, where the loads and stores are the program's
// and keep its order (each row of chi writes its results into the words it read, so the
// state is rewritten in place; the headers give the figures). Both engines run two states
// faster that way, so wasm-simd128 keeps only that form. Two rounds are one turn of a loop
// over the round constants, so the lanes are back in place after each turn and a function
// holds two rounds, not 24: WebAssembly has no jump into another function, so every entry
// carries its own copy of the loop, and a copy of 24 rounds would make each entry twelve
// times as large. The scalar round complements six lanes (one NOT a row of chi where there
// would be five); SIMD128's v128.andnot makes that pointless for two states.
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

// Where a kernel keeps the 25 lanes between its rounds: in locals (wasm-scalar, wasm-simd128),
// or in the state itself, in the module's memory, each round rewriting it in place
// (wasm-scalar-memory).
enum class Lanes { locals, memory };

// Every local's role, named once. A lane local is an i64 (one state) or a v128 (two states,
// state s in lane s); the scalar locals follow an entry's `parameters` i32 parameters (the
// state, then the block or blocks, then the block count): each entry numbers them from there.
// With the lanes in memory there are no sets a and e, and the locals begin at C.
struct Locals {
  Locals(int parameters, int states, Lanes lanes = Lanes::locals)
      : first(parameters), states(states), sets(lanes == Lanes::locals ? 50 : 0) {}
  int first, states, sets;
  Reg lane_local(int index) const { return states == 1 ? x(first + index) : v(index); }
  Reg a(int lane) const { return lane_local(lane); }                  // the lanes between turns
  Reg e(int lane) const { return lane_local(25 + lane); }             // after a turn's even rounds
  Reg c(int column) const { return lane_local(sets + column); }       // theta's column sums
  Reg d(int column) const { return lane_local(sets + 5 + column); }   // theta's D
  Reg b(int column) const { return lane_local(sets + 10 + column); }  // one row of chi's inputs
  Reg temporary() const { return lane_local(sets + 15); }             // a rotation's, chi's term
  // The row's one complemented chi input (one state), then iota's constant from the table;
  // with the lanes in memory, iota comes in the first row, while the complement is live.
  Reg complement() const { return lane_local(sets + 16); }
  Reg round_constant() const { return lane_local(sets + (own_round_constant() ? 17 : 16)); }
  int lane_locals() const { return sets + (own_round_constant() ? 18 : 17); }
  bool own_round_constant() const { return sets == 0 && states == 1; }
  int scalar(int i) const { return first + (states == 1 ? lane_locals() : 0) + i; }
  Reg constant_pointer() const { return w(scalar(0)); }  // the next round constant
  Reg turns_left() const { return w(scalar(1)); }        // of the rounds loop
  // Two states: each state's block pointer, read from its 8-byte slot through `slot`.
  Reg block_pointer(int state) const { return w(scalar(2 + state)); }
  Reg slot() const { return x(scalar(4)); }
  int own_locals() const { return states == 1 ? lane_locals() + 2 : lane_locals() + 5; }
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

// The order wasm-scalar-memory computes and stores a row's five results in. x86-64's AND and
// OR overwrite their first operand, and V8 copies that operand first unless the operation is
// its last use (it takes the operand that dies there as the first, where one does); the
// results' stores keep the program's order in the engine's code, and with it the operations
// that compute them. So the order is the one, of the 120, that leaves the fewest ANDs, ORs
// and the row's NOT without an operand that dies there (XOR's other operand, the AND's or
// OR's result, always does); the first such order. With the lanes in locals the engine
// orders the operations itself.
std::array<int, 5> result_order(const ChiRow& row) {
  constexpr int kComplement = 5;  // the operand ~B[complemented]; 0 to 4 are B[0] to B[4]
  struct Use {
    bool overwrites;            // a NOT, AND or OR: it needs an operand that dies there
    std::vector<int> operands;  // B[0] to B[4], kComplement
  };
  const auto copies = [&](const std::array<int, 5>& order) {
    // The row's operations in the engine's order: each result's AND or OR, then its XOR; the
    // NOT just before the first use of its result (the engine places it there).
    std::vector<Use> uses;
    bool negated = false;
    const auto use = [&](bool overwrites, std::vector<int> operands) {
      const bool needs_not =
          std::find(operands.begin(), operands.end(), kComplement) != operands.end();
      if (needs_not && !negated) uses.push_back({true, {row.complemented}});
      negated = negated || needs_not;
      uses.push_back({overwrites, std::move(operands)});
    };
    for (const int x : order) {
      const ChiTerm& term = row.terms[static_cast<std::size_t>(x)];
      const auto operand = [&](int offset) {
        return term.complemented == offset ? kComplement : (x + offset) % 5;
      };
      use(true, {operand(1), operand(2)});
      use(false, {operand(0)});
    }
    int count = 0;
    for (std::size_t i = 0; i < uses.size(); ++i) {
      if (!uses[i].overwrites) continue;
      const bool one_dies =
          std::any_of(uses[i].operands.begin(), uses[i].operands.end(), [&](int operand) {
            return std::none_of(uses.begin() + static_cast<std::ptrdiff_t>(i) + 1, uses.end(),
                                [&](const Use& later) {
                                  return std::find(later.operands.begin(), later.operands.end(),
                                                   operand) != later.operands.end();
                                });
          });
      if (!one_dies) ++count;
    }
    return count;
  };
  std::array<int, 5> order = {0, 1, 2, 3, 4}, best = order;
  int fewest = copies(order);
  while (std::next_permutation(order.begin(), order.end())) {
    if (const int n = copies(order); n < fewest) {
      fewest = n;
      best = order;
    }
  }
  return best;
}

constexpr Reg kState = parameter(0);
constexpr Reg kBlock = parameter(1);       // the one-block absorb entries' block
constexpr Reg kBlocks = parameter(1);      // the block entries' first block
constexpr Reg kBlockCount = parameter(2);  // and how many follow it

class Builder {
 public:
  // One state on i64 locals (wasm-scalar) or in memory (wasm-scalar-memory), or two in the
  // lanes of v128s in memory (wasm-simd128).
  Builder(int states, Lanes lanes)
      : states_(states),
        lanes_(lanes),
        suffix_(states == 2              ? "wasm_simd128"
                : lanes == Lanes::locals ? "wasm_scalar"
                                         : "wasm_scalar_memory") {}

  BuiltKernel build() {
    Program& program = kernel_.program;
    program.isa = Isa::wasm32;
    program.options = {
        {"format", states_ == 1 ? "WebAssembly 2.0 text (.wat) and binary (.wasm)"
                                : "WebAssembly 2.0 with SIMD128 (.wat, .wasm)"},
        {"rounds", fmt::format("loop of 12 x {} rounds", kRoundsPerTurn)},
        {"memory", "imported as env.memory, the state and blocks in it"},
        {"lanes", in_memory() ? "in the state, rewritten in place each round" : "in locals"}};
    round_constants_ = program.new_label(fmt::format("keccakf1600_{}_round_constants", suffix_));
    if (states_ == 1) {
      add_round_constant_table(program, round_constants_);
    } else {
      // Each constant twice: one v128.load gives both states' lane 0 theirs.
      QuadTable table{round_constants_, "iota's round constants, each twice (one per state)", {}};
      for (const std::uint64_t constant : keccak::model().round_constants)
        table.values.insert(table.values.end(), {constant, constant});
      program.tables.push_back(std::move(table));
    }
    for (const keccak::RoundVariant& variant : keccak::model().variants) {
      emit_permute_entry(variant);
      for (const keccak::Rate& rate : variant.absorb_rates) {
        emit_absorb_entry(variant, rate);
        emit_absorb_blocks_entry(variant, rate);
      }
    }
    if (states_ == 2) {
      kernel_.header = [](const HeaderInputs& in) { return simd_header_lines(in); };
    } else if (in_memory()) {
      kernel_.header = [](const HeaderInputs& in) { return memory_header_lines(in); };
    } else {
      kernel_.header = [](const HeaderInputs& in) { return scalar_header_lines(in.audit); };
    }
    return std::move(kernel_);
  }

 private:
  bool in_memory() const { return lanes_ == Lanes::memory; }
  Locals locals(int parameters) const { return Locals(parameters, states_, lanes_); }

  // A lane's bytes in the state: its word in each state, side by side.
  int lane_bytes() const { return kLaneBytes * states_; }

  void emit_permute_entry(const keccak::RoundVariant& variant) {
    Emitter e(kernel_.program, add_permute_entry(kernel_, variant, suffix_, states_));
    const Locals l = locals(1);
    emit_load(e, l);
    emit_rounds(e, l, variant);
    emit_store(e, l);
    e.return_();
  }

  void emit_absorb_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Emitter e(kernel_.program, add_absorb_entry(kernel_, variant, suffix_, rate, states_));
    const Locals l = locals(2);
    emit_block_pointers(e, l);
    emit_load(e, l);
    emit_absorb(e, l, rate);
    emit_rounds(e, l, variant);
    emit_store(e, l);
    e.return_();
  }

  // Zero blocks leave the state as it was, unread and unwritten.
  void emit_absorb_blocks_entry(const keccak::RoundVariant& variant, const keccak::Rate& rate) {
    Program& program = kernel_.program;
    Emitter e(program, add_absorb_blocks_entry(kernel_, variant, suffix_, rate, states_));
    const Locals l = locals(3);
    const std::string stem = entry_symbol(variant, suffix_, rate.bytes);
    const LabelId done = program.new_label(stem + "_done");
    const LabelId next_block = program.new_label(stem + "_next_block");
    e.block(done);
    e.br_if_eqz(done, kBlockCount);
    emit_block_pointers(e, l);
    emit_load(e, l);
    e.loop(next_block);
    e.bind(next_block);
    emit_absorb(e, l, rate);
    emit_rounds(e, l, variant);
    if (states_ == 1) {
      e.i32_add_const(kBlocks, kBlocks, rate.bytes);
    } else {
      for (int state = 0; state < states_; ++state)
        e.i32_add_const(l.block_pointer(state), l.block_pointer(state), rate.bytes);
    }
    e.i32_add_const(kBlockCount, kBlockCount, -1);
    e.br_if(next_block, kBlockCount);
    e.end();
    emit_store(e, l);
    e.end();
    e.bind(done);
    e.return_();
  }

  // Two states: each state's block pointer from blocks[s], an 8-byte slot holding the
  // address zero-extended.
  void emit_block_pointers(Emitter& e, const Locals& l) const {
    if (states_ == 1) return;
    e.comment("Each state's block pointer, from its 8-byte slot.");
    for (int state = 0; state < states_; ++state) {
      e.i64_load(l.slot(), at(kBlocks, kLaneBytes * state));
      e.i32_wrap_i64(l.block_pointer(state), l.slot());
    }
    // The slot's local keeps no address: the block loop's proof (by induction) requires every
    // pointer into the blocks to move on by a block a turn, and this one would stand still.
    e.i64_xor(l.slot(), l.slot(), l.slot());
  }

  void emit_load(Emitter& e, const Locals& l) const {
    if (in_memory()) {
      if (states_ == 1) emit_complement_in_memory(e, l);
      return emit_column_sums_from_memory(e, l);
    }
    e.comment("The lanes into the locals a.");
    for (int lane = 0; lane < keccak::kLanes; ++lane)
      e.i64_load(l.a(lane), at(kState, lane_bytes() * lane));
    emit_complement(e, l);
  }

  static void emit_complement(Emitter& e, const Locals& l) {
    e.comment("Lanes 1, 2, 8, 12, 17 and 20 complemented (lane complementing).");
    for (int lane : kComplementedLanes)
      e.i64_xor_const(l.a(lane), l.a(lane), -1);
  }

  // The same, on the state's words: between the entry and its return the state holds the
  // six lanes complemented.
  static void emit_complement_in_memory(Emitter& e, const Locals& l) {
    e.comment("Lanes 1, 2, 8, 12, 17 and 20 complemented in the state (lane complementing).");
    for (int lane : kComplementedLanes) {
      e.i64_load(l.temporary(), at(kState, kLaneBytes * lane));
      e.i64_xor_const(l.temporary(), l.temporary(), -1);
      e.i64_store(l.temporary(), at(kState, kLaneBytes * lane));
    }
  }

  // The first rate.lanes() lanes XORed with each state's block (WebAssembly's loads take any
  // alignment).
  void emit_absorb(Emitter& e, const Locals& l, const keccak::Rate& rate) const {
    e.comment(fmt::format("The block's {} lanes XORed into the state.", rate.lanes()));
    for (int lane = 0; lane < rate.lanes(); ++lane) {
      if (!in_memory()) {
        e.i64_load(l.temporary(), at(kBlock, kLaneBytes * lane));
        e.i64_xor(l.a(lane), l.a(lane), l.temporary());
        continue;
      }
      // The block's lane (each state's, two states) into b[0], then into the state and C.
      load_lane(e, l.temporary(), lane);
      if (states_ == 1) {
        e.i64_load(l.b(0), at(kBlock, kLaneBytes * lane));
      } else {
        e.v128_load64_zero(l.b(0), at(l.block_pointer(0), kLaneBytes * lane));
        e.v128_load64_lane(l.b(0), at(l.block_pointer(1), kLaneBytes * lane), l.b(0), 1);
      }
      xor_lanes(e, l.temporary(), l.temporary(), l.b(0));
      store_lane(e, l.temporary(), lane);
      xor_lanes(e, l.c(lane % 5), l.c(lane % 5), l.b(0));
    }
  }

  void emit_store(Emitter& e, const Locals& l) const {
    if (in_memory()) {
      if (states_ == 1) emit_complement_in_memory(e, l);
      return;
    }
    emit_complement(e, l);
    e.comment("The lanes back to the state.");
    for (int lane = 0; lane < keccak::kLanes; ++lane)
      e.i64_store(l.a(lane), at(kState, lane_bytes() * lane));
  }

  // The variant's rounds, kRoundsPerTurn a turn, from its first round constant.
  void emit_rounds(Emitter& e, const Locals& l, const keccak::RoundVariant& variant) {
    Program& program = kernel_.program;
    const LabelId next_turn = program.new_label(program.functions.back().symbol + "_next_turn");
    e.comment(fmt::format("{} rounds, {} a turn.", variant.rounds, kRoundsPerTurn));
    e.i32_table_address(l.constant_pointer(), round_constants_);
    if (variant.first_round() != 0) {
      e.i32_add_const(l.constant_pointer(), l.constant_pointer(),
                      lane_bytes() * variant.first_round());
    }
    e.i32_const(l.turns_left(), variant.rounds / kRoundsPerTurn);
    e.loop(next_turn);
    e.bind(next_turn);
    // With the lanes in memory: word[lane], the state's word that holds the lane.
    std::array<int, keccak::kLanes> word{};
    for (int lane = 0; lane < keccak::kLanes; ++lane)
      word[static_cast<std::size_t>(lane)] = lane;
    for (int r = 0; r < kRoundsPerTurn; ++r) {
      const auto a = [&](int lane) { return l.a(lane); };
      const auto e_ = [&](int lane) { return l.e(lane); };
      e.blank();
      e.begin_round(r, true);
      if (in_memory()) {
        emit_memory_round(e, l, r, word);
      } else if (r % 2 == 0) {
        emit_scalar_round(e, l, r, a, e_);
      } else {
        emit_scalar_round(e, l, r, e_, a);
      }
      if (r + 1 < kRoundsPerTurn) e.end_round();
    }
    for (int lane = 0; lane < keccak::kLanes; ++lane) {
      if (word[static_cast<std::size_t>(lane)] != lane) {
        throw GenerationError(
            fmt::format("{}: after a turn of {} rounds lane {} is in word {}, not its own", suffix_,
                        kRoundsPerTurn, lane, word[static_cast<std::size_t>(lane)]));
      }
    }
    // The loop's rows inside the last round's marker: the audit counts the turns by it.
    e.i32_add_const(l.constant_pointer(), l.constant_pointer(), kRoundsPerTurn * lane_bytes());
    e.i32_add_const(l.turns_left(), l.turns_left(), -1);
    e.br_if(next_turn, l.turns_left());
    e.end_round();
    e.end();
  }

  // One round from the lanes `from` gives to the lanes `to` gives; `which` is its place in
  // the turn, and its constant's offset from the constant pointer.
  template <typename From, typename To>
  static void emit_scalar_round(Emitter& e, const Locals& l, int which, From from, To to) {
    const keccak::Model& model = keccak::model();
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

  // Theta's column sums of the state as an entry finds it; after that, a block's XOR adds its
  // lanes to them and each round gathers the next round's as chi's results go by.
  void emit_column_sums_from_memory(Emitter& e, const Locals& l) const {
    e.comment("theta's column sums C of the state");
    for (int x = 0; x < 5; ++x) {
      load_lane(e, l.c(x), x);
      for (int y = 1; y < 5; ++y) {
        load_lane(e, l.temporary(), keccak::lane_index(x, y));
        xor_lanes(e, l.c(x), l.c(x), l.temporary());
      }
    }
  }

  // With the lanes in memory: the lane in the state's `word` (both states' words, two
  // states) into or out of a local, and the XOR of two lane locals.
  void load_lane(Emitter& e, Reg d, int word) const {
    if (states_ == 1) {
      e.i64_load(d, at(kState, lane_bytes() * word));
    } else {
      e.v128_load(d, at(kState, lane_bytes() * word));
    }
  }
  void store_lane(Emitter& e, Reg s, int word) const {
    if (states_ == 1) {
      e.i64_store(s, at(kState, lane_bytes() * word));
    } else {
      e.v128_store(s, at(kState, lane_bytes() * word));
    }
  }
  void xor_lanes(Emitter& e, Reg d, Reg a, Reg b) const {
    if (states_ == 1) {
      e.i64_xor(d, a, b);
    } else {
      e.v128_xor(d, a, b);
    }
  }

  // One round on the state in memory, in place. Row y of chi reads five lanes and each is read
  // by that row alone, so the row's five results go back into the five words it read: result
  // x into the word of its input (2x + 3y) mod 5. `word` says where each lane is, and the round
  // leaves it saying where each result went. That assignment (found by trying every
  // (ax + by + c) mod 5) brings every lane back to its own word after two rounds, so a turn
  // of two rounds ends with the state in order (emit_rounds checks). The row's results are
  // summed into C as they are stored: the next round's theta reads no memory.
  void emit_memory_round(Emitter& e, const Locals& l, int which,
                         std::array<int, keccak::kLanes>& word) const {
    const keccak::Model& model = keccak::model();
    e.comment("theta: D[x] = C[x-1] ^ rotl(C[x+1], 1)");
    for (int x = 0; x < 5; ++x) {
      if (states_ == 1) {
        e.i64_rotl(l.temporary(), l.c((x + 1) % 5), 1);
        e.i64_xor(l.d(x), l.c((x + 4) % 5), l.temporary());
      } else {
        e.i64x2_shl(l.temporary(), l.c((x + 1) % 5), 1);
        e.i64x2_shr_u(l.d(x), l.c((x + 1) % 5), 63);
        e.v128_or(l.d(x), l.d(x), l.temporary());
        e.v128_xor(l.d(x), l.d(x), l.c((x + 4) % 5));
      }
    }
    std::array<int, keccak::kLanes> result_word{};
    for (int y = 0; y < 5; ++y) {
      const auto& inputs = model.chi_rows[static_cast<std::size_t>(y)];
      e.comment(fmt::format("row {}: D, rho and pi into b, chi back into the words read", y));
      for (int x = 0; x < 5; ++x) {
        const keccak::ChiInput& input = inputs[static_cast<std::size_t>(x)];
        load_lane(e, l.b(x), word[static_cast<std::size_t>(input.lane)]);
        xor_lanes(e, l.b(x), l.b(x), l.d(input.lane % 5));
        if (input.rotation == 0) continue;
        if (states_ == 1) {
          e.i64_rotl(l.b(x), l.b(x), input.rotation);
        } else {
          emit_simd_rotate(e, l, l.b(x), input.rotation);
        }
      }
      // One state: lane complementing, the results in result_order. Two: v128.andnot, and
      // the engine's three-operand AVX forms overwrite no operand, so any order will do.
      const ChiRow& row = kChiRows[static_cast<std::size_t>(y)];
      if (states_ == 1) e.i64_xor_const(l.complement(), l.b(row.complemented), -1);
      const std::array<int, 5> order =
          states_ == 1 ? result_order(row) : std::array<int, 5>{0, 1, 2, 3, 4};
      for (const int x : order) {
        // The first row's results start the column sums; later rows' add to them.
        const Reg result = y == 0 ? l.c(x) : l.temporary();
        if (states_ == 1) {
          const ChiTerm& term = row.terms[static_cast<std::size_t>(x)];
          const auto input = [&](int offset) {
            return term.complemented == offset ? l.complement() : l.b((x + offset) % 5);
          };
          if (term.and_) {
            e.i64_and(result, input(1), input(2));
          } else {
            e.i64_or(result, input(1), input(2));
          }
          e.i64_xor(result, input(0), result);
        } else {
          e.v128_andnot(result, l.b((x + 2) % 5), l.b((x + 1) % 5));
          e.v128_xor(result, l.b(x), result);
        }
        if (x == 0 && y == 0) {
          e.comment("iota");
          if (states_ == 1) {
            e.i64_load(l.round_constant(), at(l.constant_pointer(), lane_bytes() * which));
          } else {
            e.v128_load(l.round_constant(), at(l.constant_pointer(), lane_bytes() * which));
          }
          xor_lanes(e, result, result, l.round_constant());
        }
        const int lane = keccak::lane_index(x, y);
        const int into = (2 * x + 3 * y) % 5;
        result_word[static_cast<std::size_t>(lane)] =
            word[static_cast<std::size_t>(inputs[static_cast<std::size_t>(into)].lane)];
        store_lane(e, result, result_word[static_cast<std::size_t>(lane)]);
        if (y != 0) xor_lanes(e, l.c(x), l.c(x), result);
      }
    }
    word = result_word;
  }

  // d = rotl(d, amount) on both lanes: SIMD128 has no rotation, so two shifts and an OR.
  static void emit_simd_rotate(Emitter& e, const Locals& l, Reg d, int amount) {
    e.i64x2_shl(l.temporary(), d, amount);
    e.i64x2_shr_u(d, d, 64 - amount);
    e.v128_or(d, d, l.temporary());
  }

  // The figures of the code every Keccak header carries, from the audit; `per_round` is the
  // line's parenthesis: the round's parts.
  static std::vector<std::string> figure_lines(const audit::KernelAudit& audit,
                                               const std::string& per_round) {
    const audit::EntryAudit& permute = audit.entries.at(0);
    std::size_t largest_absorb = 0, largest_blocks = 0, blocks_saved = 0;
    for (const audit::EntryAudit& entry : audit.entries) {
      if (entry.shape.kind != EntryKind::absorb) continue;
      std::size_t& largest = entry.shape.takes_block_count() ? largest_blocks : largest_absorb;
      largest = std::max(largest, entry.static_instructions);
      if (entry.shape.takes_block_count())
        blocks_saved = std::max(blocks_saved, entry.saved_registers.size());
    }
    return {
        "Figures of the code (the audit's, in rows: a row is one operation between its",
        "local.get and local.set):",
        fmt::format("  per round          {}  ({})", permute.per_round.total, per_round),
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
    };
  }

  // What both kernels share: the rounds' loop and the memory.
  static std::vector<std::string> common_lines(std::string_view lane_access) {
    return {
        "Rounds: two a turn of a loop over iota's table in the module's data segment (the",
        "table is the segment's first bytes, at address 0); each entry holds its own loop,",
        "since WebAssembly has no jump into another function: 24 unrolled rounds in each",
        "of the entries would be twelve times the code.",
        "Memory: the module imports its memory (env.memory); every pointer is an offset in",
        fmt::format("it, every lane {} at a constant offset (any", lane_access),
        "alignment). No entry writes memory but the state's; zero blocks leave the state",
        "unread.",
        "",
    };
  }

  // A round's rows by the audit, which must be the sum of the parts its header names.
  static std::uint64_t round_rows(std::string_view kernel, const audit::KernelAudit& audit,
                                  std::uint64_t parts) {
    const std::uint64_t per_round = audit.entries.at(0).per_round.total;
    if (per_round != parts) {
      throw GenerationError(fmt::format("{}: a round is {} rows by the audit, {} by its parts",
                                        kernel, per_round, parts));
    }
    return per_round;
  }

  // A header's own lines, then what every one ends with: the loop and the memory
  // (common_lines), the figures (figure_lines).
  static std::vector<std::string> ending_with_figures(std::vector<std::string> lines,
                                                      std::string_view lane_access,
                                                      const audit::KernelAudit& audit,
                                                      const std::string& per_round) {
    for (std::string_view line : common_lines(lane_access))
      lines.emplace_back(line);
    for (const std::string& line : figure_lines(audit, per_round))
      lines.push_back(line);
    return lines;
  }

  static std::vector<std::string> scalar_header_lines(const audit::KernelAudit& audit) {
    // The parts of a round as emit_scalar_round emits them: theta's column sums (4 XORs each)
    // and D (a rotation and an XOR each); D applied and rho (an XOR per lane, 24 rotations);
    // chi (a NOT a row, an AND or OR and an XOR per lane); iota (the constant's load and XOR).
    const std::uint64_t theta = 5 * 4 + 5 * 2, rho = 25 + 24, chi = 5 * (1 + 5 * 2), iota = 2;
    round_rows("wasm-scalar", audit, theta + rho + chi + iota);
    std::vector<std::string> lines = {
        "Keccak-p[1600] for WebAssembly 2.0 (wasm32) on i64 locals: one state a call.",
        "",
        "Locals (the engine's compiler gives them the machine's registers): the i32",
        fmt::format("parameters (state, then block or blocks, then block_count), then {} of each",
                    Locals(0, 1).own_locals()),
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
    };
    return ending_with_figures(
        std::move(lines), "a little-endian i64 load or store", audit,
        fmt::format("theta {}, D and rho {}, chi {}, iota {}", theta, rho, chi, iota));
  }

  static std::vector<std::string> memory_header_lines(const HeaderInputs& in) {
    // The parts of a round as emit_memory_round emits them: theta's D (a rotation and an XOR
    // each); the lanes' loads, D applied and rho (24 rotations); chi (a NOT a row, an AND or OR
    // and an XOR per lane, its store, and its sum into C but in the first row); iota.
    const std::uint64_t theta = 5 * 2, rho = 25 * 2 + 24, chi = 5 + 25 * 3 + 20, iota = 2;
    round_rows("wasm-scalar-memory", in.audit, theta + rho + chi + iota);
    std::vector<std::string> lines = {
        "Keccak-p[1600] for WebAssembly 2.0 (wasm32) with the lanes in memory: one state a",
        "call, its 25 words rewritten in place by every round. wasm-scalar's round (lane",
        "complementing, two rounds a turn of the loop) with the loads and stores written out.",
        "",
        "Why a second scalar kernel: an engine's compiler allocates wasm-scalar's 69 locals to",
        "16 registers, and how well depends on the engine. V8 11.3 (Node 20) spills the",
        "live lanes to its stack in an order that stalls, and runs this kernel, whose loads",
        "and stores are the program's own and keep their order, faster; newer V8 (Chromium",
        "156) runs wasm-scalar faster. The package chooses by engine (docs/javascript.md).",
        "",
        fmt::format("Locals: the i32 parameters, then {} of each entry's own: theta's 5 column",
                    Locals(0, 1, Lanes::memory).own_locals()),
        "sums C and 5 D, one row of chi's 5 inputs B, a temporary, the row's complemented",
        "input and iota's constant (i64), the round-constant pointer and the turns left (i32).",
        "In place: row y of chi reads five lanes no other row reads and writes its five",
        "results into the five words it read, result x into the word of its input",
        "(2x + 3y) mod 5; the lanes move from word to word and are back in their own after",
        "two rounds, one turn. C is summed from the state once an entry, then kept: a",
        "block's XOR adds its lanes, and each round sums chi's results as they are stored.",
        "",
        "Measured (AMD EPYC, Zen 4 at 3.67 GHz, 2 vCPUs, KVM; 2026-12-06; fastest of 21",
        "interleaved repetitions): 1 MiB through the absorb136 block entry in one call, a",
        "block:",
        "  Node 20.20.2     this kernel 333-338 ns, wasm-scalar 377-381 ns, hash-wasm",
        "                   4.13's Keccak-256 of 1 MiB 453-457 ns (1.35x and 1.20x)",
        "  Chromium 156     this kernel 363 ns, wasm-scalar 285-292 ns",
        "Each row's results in the order that lets x86-64's AND and OR overwrite an operand",
        "that dies there (result_order in the builder) took V8's register copies in the",
        "rounds' loop from 46 to 27 per two rounds and the block from 338 to 333-334 ns.",
        "At this speed",
        "V8 11.3's code runs 4.7 instructions a cycle, 482 instructions per two rounds:",
        "the round's 372 rows, 27 copies, and about 80 spills and reloads of chi's results,",
        "which V8 keeps until the round's end, where it sums them into C.",
        "Tried in the same runs, in prototypes outside the tree (Node): ping-pong between",
        "the state and a 200-byte scratch 341 ns, four rounds a turn 337 ns (in twice the",
        "code), C summed from memory by each round 385 ns, each store's value made from C's",
        "new sum (so that V8 sums as it stores) 365 ns, C summed in v128s 392 ns.",
        "",
    };
    return ending_with_figures(
        std::move(lines), "a little-endian i64 load or store", in.audit,
        fmt::format("theta {}, loads, D and rho {}, chi {}, iota {}", theta, rho, chi, iota));
  }

  static std::vector<std::string> simd_header_lines(const HeaderInputs& in) {
    // The parts of a round as emit_memory_round emits them for two states: theta's D (a
    // rotation of three rows and an XOR each); the lanes' loads, D applied and rho (24
    // rotations of three rows); chi (an and-not and an XOR per lane, its store, and its sum
    // into C but in the first row); iota.
    const std::uint64_t theta = 5 * 4, rho = 25 * 2 + 24 * 3, chi = 25 * 3 + 20, iota = 2;
    const std::uint64_t per_round = round_rows("wasm-simd128", in.audit, theta + rho + chi + iota);
    const std::uint64_t scalar = in.audit_of("wasm-scalar-memory").entries.at(0).per_round.total;
    std::vector<std::string> lines = {
        "Keccak-p[1600] for WebAssembly 2.0 with SIMD128 (wasm32) on two states at once:",
        "lane i of both states in one v128, state s in its 64-bit lane s (the state array",
        "interleaved: lane i of state s at word 2i + s), the lanes in memory as",
        "wasm-scalar-memory keeps them: each round rewrites the state in place, row y of chi",
        "storing result x into the word of its input (2x + 3y) mod 5, back in order after",
        "two rounds, one turn; C summed from chi's results as they are stored.",
        "",
        fmt::format("Locals: the i32 parameters, then {} v128 locals (theta's 5 C and 5 D, chi's",
                    Locals(0, 2, Lanes::memory).lane_locals()),
        "5 inputs B, a temporary, iota's constant) and five scalars (the round-constant",
        "pointer, the turns left, each state's block pointer and the i64 its 8-byte slot is",
        "read into). SIMD128 has no 64-bit rotation: each is shl, shr_u and or. Its and-not",
        "(v128.andnot) makes chi two rows a lane, so no lane is complemented. Iota's table",
        "holds each constant twice, one v128.load for both states. blocks[s] (absorb",
        "entries) is an array of two 8-byte slots, each a state's block address",
        "zero-extended.",
        "",
        fmt::format("A round is {} rows for two states, {:.1f} a state against", per_round,
                    static_cast<double>(per_round) / 2),
        fmt::format("wasm-scalar-memory's {}.", scalar),
        "",
        "Measured (AMD EPYC, Zen 4, 2 vCPUs, KVM; 2026-12-06; fastest of 15 interleaved",
        "repetitions), two states a call, against the earlier kernel of this file, which",
        "kept the lanes in v128 locals (two sets of 25, as wasm-scalar):",
        "                          lanes in memory  lanes in locals",
        "  Node 20.20.2  permute        385 ns          571-613 ns",
        "                absorb136      506-508 ns      776-790 ns",
        "                2 x 1 MiB      2.89-2.92 ms    5.03-5.05 ms",
        "  Chromium 156  permute        380 ns          390 ns",
        "                2 x 1 MiB      2.80 ms         2.90 ms",
        "V8 11.3 spilled most of the 67 v128 locals; in memory the loads and stores are the",
        "program's. Against one state at a time on the scalar kernel the engine runs",
        "(wasm-scalar-memory in Node, 5.17-5.18 ms for the two MiB; wasm-scalar in",
        "Chromium, 4.50 ms): 1.79x and 1.61x a message.",
        "",
    };
    return ending_with_figures(
        std::move(lines), "a v128 load or store of both states' words", in.audit,
        fmt::format("2 states: {:.1f} a state; theta {}, loads, D and rho {}, chi {}, iota {}",
                    static_cast<double>(per_round) / 2, theta, rho, chi, iota));
  }

  int states_;
  Lanes lanes_;
  std::string suffix_;
  BuiltKernel kernel_;
  LabelId round_constants_{};
};

}  // namespace

BuiltKernel build_keccak_wasm_scalar() {
  return Builder(1, Lanes::locals).build();
}

BuiltKernel build_keccak_wasm_scalar_memory() {
  return Builder(1, Lanes::memory).build();
}

BuiltKernel build_keccak_wasm_simd128() {
  return Builder(2, Lanes::memory).build();
}

}  // namespace spongegen::kernels
