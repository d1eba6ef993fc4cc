#include "kernels/keccak_arm64_scalar_schedule.hpp"

#include <fmt/format.h>

#include <array>
#include <bit>
#include <optional>

#include "kernels/keccak_round_check.hpp"
#include "model/keccak.hpp"
#include "program/program.hpp"
#include "support/splitmix64.hpp"

namespace spongegen::kernels {
namespace {

constexpr int kTemporary[kScalarTemporaries] = {25, 26, 27, 28};

ScalarOp eor(int dst, int n, int m, int rotate_right, std::string note = {}) {
  return {ScalarOp::Kind::eor, dst, n, m, rotate_right & 63, std::move(note)};
}

// Theta on four temporaries. Each C[x] feeds two D values and each D[x] must be XORed into
// column x, whose C[x] must already exist; the order below keeps at most four of these
// values alive at once, where computing all five C first would need six registers:
//   C0 C1 C2 -> D1, XOR into column 1
//   C3       -> D4 = C3 ^ rotl(C0) over C0 (its last use; column 4 is still untouched)
//               D2 = C1 ^ rotl(C3) over C3 (its last use), XOR into column 2
//   C4       -> D3 = C2 ^ rotl(C4) over C2 (its last use), XOR into column 3
//               XOR D4 into column 4
//               D0 = C4 ^ rotl(C1) over C1 (the last use of both), XOR into column 0
std::vector<ScalarOp> theta_ops() {
  const auto [t0, t1, t2, t3] = kTemporary;
  std::vector<ScalarOp> ops;
  auto column_parity = [&](int x, int dst) {
    ops.push_back(eor(dst, x, x + 5, 0, fmt::format("C[{}] = A[{}, 0] ^ A[{}, 1]", x, x, x)));
    for (int y = 2; y < 5; ++y)
      ops.push_back(eor(dst, dst, x + 5 * y, 0, fmt::format("C[{}] ^= A[{}, {}]", x, x, y)));
  };
  // D[x] = C[x - 1] ^ rotl(C[x + 1], 1): the second operand rotated right by 63.
  auto d_value = [&](int x, int dst, int previous, int next) {
    ops.push_back(eor(dst, previous, next, 63,
                      fmt::format("D[{}] = C[{}] ^ rotl(C[{}], 1)", x, (x + 4) % 5, (x + 1) % 5)));
  };
  auto apply = [&](int x, int d) {
    for (int y = 0; y < 5; ++y)
      ops.push_back(eor(x + 5 * y, x + 5 * y, d, 0, fmt::format("A[{}, {}] ^= D[{}]", x, y, x)));
  };
  column_parity(0, t0);
  column_parity(1, t1);
  column_parity(2, t2);
  d_value(1, t3, t0, t2);
  apply(1, t3);
  column_parity(3, t3);
  d_value(4, t0, t3, t0);
  d_value(2, t3, t1, t3);
  apply(2, t3);
  column_parity(4, t3);
  d_value(3, t2, t2, t3);
  apply(3, t2);
  apply(4, t0);
  d_value(0, t1, t3, t1);
  apply(0, t1);
  return ops;
}

// Which B values of one chi row must be rotated before use. Output x is B[x] ^ (B[x+2] &
// ~B[x+1]); the BIC takes B[x+2] unshifted and B[x+1] through its shift, and the EOR takes
// one operand unshifted: the output is unrotated only if B[x] or B[x+2] is. So every x
// needs B[x] or B[x+2] unrotated: a cover of the 5-cycle 0-2-4-1-3, at least 3 of 5 unless
// some B is unrotated already (B[0, 0] is lane 0, which rho does not rotate).
std::vector<std::vector<int>> minimal_covers(const std::array<bool, 5>& unrotated) {
  std::vector<std::vector<int>> best;
  std::size_t best_size = 6;
  for (unsigned subset = 0; subset < 32; ++subset) {
    std::vector<int> chosen;
    std::array<bool, 5> zero = unrotated;
    bool useless = false;
    for (int x = 0; x < 5; ++x) {
      if ((subset >> x & 1) == 0) continue;
      useless = useless || unrotated[x];
      chosen.push_back(x);
      zero[x] = true;
    }
    bool covers = !useless;
    for (int x = 0; x < 5; ++x)
      covers = covers && (zero[x] || zero[(x + 2) % 5]);
    if (!covers || chosen.size() > best_size) continue;
    if (chosen.size() < best_size) best.clear();
    best_size = chosen.size();
    best.push_back(chosen);
  }
  return best;
}

struct ChiAttempt {
  std::vector<ScalarOp> ops;
  int rotations = 0;
  int moves = 0;
};

// One randomized greedy attempt at rho, pi and chi. After theta, slot `lane` holds
// A'[lane]; B values are those registers read with an offset (B = rotr(register, offset)),
// so rho and pi cost nothing until a B must be unrotated. A B value dies after its third
// chi use; chi output `lane` may be written to slot `lane` once that slot is free.
std::optional<ChiAttempt> try_rho_pi_chi(SplitMix64& random, int move_budget) {
  const keccak::Model& model = keccak::model();
  enum class Holds { nothing, b_value, output };
  struct Slot {
    Holds holds = Holds::nothing;
    int index = 0;
  };
  std::array<Slot, kScalarSlots> holder{};
  std::array<int, 25> b_slot{}, b_offset{}, b_uses{};
  std::array<bool, 25> must_unrotate{}, out_done{};
  for (int row = 0; row < 5; ++row) {
    std::array<bool, 5> unrotated{};
    for (int x = 0; x < 5; ++x) {
      const int b = 5 * row + x;
      const keccak::ChiInput& in = model.chi_rows[row][x];
      b_slot[b] = in.lane;
      b_offset[b] = (64 - in.rotation) % 64;  // B = rotl(A', r) = rotr(A', 64 - r)
      b_uses[b] = 3;
      holder[in.lane] = {Holds::b_value, b};
      unrotated[x] = b_offset[b] == 0;
    }
    const auto covers = minimal_covers(unrotated);
    for (int x : covers[random.below(covers.size())])
      must_unrotate[5 * row + x] = true;
  }
  auto free_slots = [&] {
    std::vector<int> slots;
    for (int slot = 0; slot < kScalarSlots; ++slot) {
      if (holder[slot].holds == Holds::nothing) slots.push_back(slot);
    }
    return slots;
  };
  auto inputs_of = [](int out) {
    const int row = out / 5, x = out % 5;
    return std::array<int, 3>{5 * row + x, 5 * row + (x + 1) % 5, 5 * row + (x + 2) % 5};
  };

  // Rows are finished one after another (a finished row frees its five B values), in a
  // random order; within the focus row, outputs go in a random order, and whatever blocks
  // the next one is cleared first.
  std::array<int, 5> row_order{0, 1, 2, 3, 4};
  for (int i = 4; i > 0; --i)
    std::swap(row_order[i], row_order[random.below(i + 1)]);
  ChiAttempt attempt;
  auto unrotate = [&](int b, int dst) {
    attempt.ops.push_back(
        {ScalarOp::Kind::ror, dst, b_slot[b], -1, b_offset[b], fmt::format("B[{}] unrotated", b)});
    holder[b_slot[b]] = {};
    holder[dst] = {Holds::b_value, b};
    b_slot[b] = dst;
    b_offset[b] = 0;
    must_unrotate[b] = false;
    ++attempt.rotations;
  };
  auto move = [&](int b, int dst) {
    attempt.ops.push_back(
        {ScalarOp::Kind::mov, dst, b_slot[b], -1, 0, fmt::format("B[{}] moved", b)});
    holder[b_slot[b]] = {};
    holder[dst] = {Holds::b_value, b};
    b_slot[b] = dst;
    ++attempt.moves;
  };
  // A free slot that is no unfinished output's home, else any free slot, else -1.
  auto pick_free = [&](int avoid) {
    std::vector<int> spare, any;
    for (int slot : free_slots()) {
      if (slot == avoid) continue;
      any.push_back(slot);
      if (slot >= kScalarLaneSlots || out_done[slot]) spare.push_back(slot);
    }
    const auto& pool = spare.empty() ? any : spare;
    return pool.empty() ? -1 : pool[random.below(pool.size())];
  };
  for (const int row : row_order) {
    std::array<int, 5> order{0, 1, 2, 3, 4};
    for (int i = 4; i > 0; --i)
      std::swap(order[i], order[random.below(i + 1)]);
    for (const int x : order) {
      const int out = 5 * row + x;
      const auto [b0, b1, b2] = inputs_of(out);
      for (int b : {b0, b1, b2}) {
        if (!must_unrotate[b]) continue;
        // Unrotate into a free register when that frees an unfinished output's home.
        const bool in_a_home = b_slot[b] < kScalarLaneSlots && !out_done[b_slot[b]];
        const int dst = in_a_home ? pick_free(out) : -1;
        unrotate(b, dst >= 0 ? dst : b_slot[b]);
      }
      // The home must be free or hold an input this output uses for the last time.
      const Slot home = holder[out];
      bool writable = home.holds == Holds::nothing;
      for (int b : {b0, b1, b2})
        writable = writable || (home.holds == Holds::b_value && home.index == b && b_uses[b] == 1);
      if (!writable) {
        const int dst = pick_free(out);
        if (dst < 0 || attempt.moves >= move_budget) return std::nullopt;
        move(home.index, dst);
      }
      const bool home_holds_b0 = holder[out].holds == Holds::b_value && holder[out].index == b0;
      int t = out;
      if (home_holds_b0) {
        t = pick_free(out);
        if (t < 0) return std::nullopt;
      }
      const std::string note = fmt::format("A[{}] = B[{}] ^ (~B[{}] & B[{}])", out, b0, b1, b2);
      attempt.ops.push_back({ScalarOp::Kind::bic, t, b_slot[b2], b_slot[b1],
                             (b_offset[b1] - b_offset[b2] + 64) % 64,
                             fmt::format("B[{}] & ~B[{}]", b2, b1)});
      if (b_offset[b0] == 0) {
        attempt.ops.push_back(eor(out, b_slot[b0], t, b_offset[b2], note));
      } else {
        attempt.ops.push_back(eor(out, t, b_slot[b0], b_offset[b0], note));
      }
      for (int b : {b0, b1, b2}) {
        if (--b_uses[b] == 0) holder[b_slot[b]] = {};
      }
      holder[out] = {Holds::output, out};
      out_done[out] = true;
    }
  }
  return attempt;
}

KeccakLanes evaluate(const std::vector<ScalarOp>& ops, const KeccakLanes& lanes) {
  std::array<std::uint64_t, kScalarSlots> r{};
  for (int i = 0; i < 25; ++i)
    r[i] = lanes[i];
  for (const ScalarOp& op : ops) {
    switch (op.kind) {
      case ScalarOp::Kind::eor:
        r[op.dst] = r[op.n] ^ std::rotr(r[op.m], op.rotate_right);
        break;
      case ScalarOp::Kind::bic:
        r[op.dst] = r[op.n] & ~std::rotr(r[op.m], op.rotate_right);
        break;
      case ScalarOp::Kind::ror:
        r[op.dst] = std::rotr(r[op.n], op.rotate_right);
        break;
      case ScalarOp::Kind::mov:
        r[op.dst] = r[op.n];
        break;
    }
  }
  KeccakLanes out{};
  for (int i = 0; i < 25; ++i)
    out[i] = r[i];
  return out;
}

ScalarRoundSchedule search() {
  constexpr std::uint64_t kSeed = 0x7363616c61723235ull;  // "scalar25"
  constexpr std::uint64_t kAttempts = 14'000;  // 3,000,000 found no schedule with fewer moves
  SplitMix64 random{kSeed};
  std::optional<ChiAttempt> best;
  std::uint64_t best_attempt = 0, attempts = 0;
  while (attempts < kAttempts) {
    ++attempts;
    const int budget = best ? best->moves - 1 : 25;
    auto attempt = try_rho_pi_chi(random, budget);
    if (!attempt) continue;
    best = std::move(attempt);
    best_attempt = attempts;
    if (best->moves == 0) break;
  }
  if (!best) {
    throw GenerationError(
        fmt::format("arm64 scalar round schedule: nothing found in {} attempts", kAttempts));
  }
  ScalarRoundSchedule schedule;
  schedule.ops = theta_ops();
  schedule.theta_ops = static_cast<int>(schedule.ops.size());
  schedule.ops.insert(schedule.ops.end(), best->ops.begin(), best->ops.end());
  schedule.rotations = best->rotations;
  schedule.moves = best->moves;
  schedule.search_seed = kSeed;
  schedule.search_attempt = best_attempt;
  schedule.search_attempts = attempts;
  check_round_schedule(fmt::format("arm64 scalar round schedule, attempt {}", best_attempt),
                       [&](const KeccakLanes& lanes) { return evaluate(schedule.ops, lanes); });
  return schedule;
}

}  // namespace

const ScalarRoundSchedule& scalar_round_schedule() {
  static const ScalarRoundSchedule schedule = search();
  return schedule;
}

}  // namespace spongegen::kernels
