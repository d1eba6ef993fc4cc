#include "kernels/keccak_arm64_schedule.hpp"

#include <array>
#include <bit>
#include <optional>

#include "kernels/keccak_round_check.hpp"
#include "model/keccak.hpp"
#include "program/program.hpp"
#include "support/splitmix64.hpp"

namespace spongegen::kernels {
namespace {

constexpr int kRegisters = 32;
constexpr int kSpare = -1;

// Theta's registers: C[x] is built in v25..v29, then each D[x] overwrites a C value that is
// no longer needed: D[0] -> v30, D[2] -> v26, D[4] -> v28, D[1] -> v25, D[3] -> v27.
// That leaves v29 and v31 free when rho starts.
constexpr int kColumnRegister[5] = {25, 26, 27, 28, 29};
constexpr int kDRegister[5] = {30, 25, 26, 27, 28};

std::vector<RoundOp> theta_ops() {
  std::vector<RoundOp> ops;
  for (int x = 0; x < 5; ++x) {
    ops.push_back({RoundOp::Kind::eor3, kColumnRegister[x], x, x + 5, x + 10, 0,
                   "C[" + std::to_string(x) + "] = A[" + std::to_string(x) + ", 0..2]"});
  }
  for (int x = 0; x < 5; ++x) {
    const int c = kColumnRegister[x];
    ops.push_back({RoundOp::Kind::eor3, c, c, x + 15, x + 20, 0,
                   "C[" + std::to_string(x) + "] ^= A[" + std::to_string(x) + ", 3..4]"});
  }
  // D[x] = C[x - 1] ^ rotl(C[x + 1], 1), in an order that overwrites only dead C values.
  for (int x : {0, 2, 4, 1, 3}) {
    ops.push_back({RoundOp::Kind::rax1, kDRegister[x], kColumnRegister[(x + 4) % 5],
                   kColumnRegister[(x + 1) % 5], -1, 0, "D[" + std::to_string(x) + "]"});
  }
  return ops;
}

// One randomized greedy attempt at rho, pi and chi. Returns the ops, or nothing on a
// dead end. Invariants: `holder[r]` is what register r holds; a B value is released after
// its third chi use, an A value after its xar, a D value after its fifth xar.
std::optional<std::vector<RoundOp>> try_rho_pi_chi(SplitMix64& random) {
  const keccak::Model& model = keccak::model();
  enum class Holds { nothing, a_lane, d_value, b_value, output };
  struct Slot {
    Holds holds = Holds::nothing;
    int index = 0;
  };
  std::array<Slot, kRegisters> holder{};
  for (int lane = 0; lane < 25; ++lane)
    holder[lane] = {Holds::a_lane, lane};
  for (int x = 0; x < 5; ++x)
    holder[kDRegister[x]] = {Holds::d_value, x};
  std::array<int, 5> d_uses{5, 5, 5, 5, 5};
  std::array<int, 25> b_uses{}, b_register{}, source_lane{}, rotation{};
  std::array<bool, 25> b_done{}, out_done{};
  b_uses.fill(3);
  b_register.fill(kSpare);
  for (int row = 0; row < 5; ++row) {
    for (int x = 0; x < 5; ++x) {
      source_lane[5 * row + x] = model.chi_rows[row][x].lane;
      rotation[5 * row + x] = model.chi_rows[row][x].rotation;
    }
  }
  auto chi_inputs = [](int out) {
    const int row = out / 5, x = out % 5;
    return std::array<int, 3>{5 * row + x, 5 * row + (x + 1) % 5, 5 * row + (x + 2) % 5};
  };
  std::vector<RoundOp> ops;
  int outputs = 0;
  while (outputs < 25) {
    // Chi outputs whose inputs exist and whose lane register is free, or holds an input
    // this very output uses for the last time.
    std::vector<int> ready;
    for (int out = 0; out < 25; ++out) {
      if (out_done[out]) continue;
      const auto inputs = chi_inputs(out);
      bool inputs_ready = true;
      for (int b : inputs)
        inputs_ready = inputs_ready && b_done[b];
      if (!inputs_ready) continue;
      const Slot& home = holder[out];
      bool writable = home.holds == Holds::nothing;
      for (int b : inputs) {
        writable = writable || (home.holds == Holds::b_value && home.index == b && b_uses[b] == 1);
      }
      if (writable) ready.push_back(out);
    }
    std::vector<int> pending_b;
    for (int b = 0; b < 25; ++b) {
      if (!b_done[b]) pending_b.push_back(b);
    }
    if (!ready.empty() && (pending_b.empty() || random.below(10) < 7)) {
      const int out = ready[random.below(ready.size())];
      const auto in = chi_inputs(out);
      ops.push_back({RoundOp::Kind::bcax, out, b_register[in[0]], b_register[in[2]],
                     b_register[in[1]], 0,
                     "A[" + std::to_string(out) + "] = B[" + std::to_string(in[0]) + "] ^ (~B[" +
                         std::to_string(in[1]) + "] & B[" + std::to_string(in[2]) + "])"});
      for (int b : in) {
        if (--b_uses[b] == 0) holder[b_register[b]] = {};
      }
      holder[out] = {Holds::output, out};
      out_done[out] = true;
      ++outputs;
      continue;
    }
    if (pending_b.empty()) return std::nullopt;  // outputs left but none writable
    const int b = pending_b[random.below(pending_b.size())];
    const int lane = source_lane[b];
    // The xar reads A[lane] and D[lane % 5] and may write over either.
    holder[lane] = {};
    const int d_reg = kDRegister[lane % 5];
    if (--d_uses[lane % 5] == 0) holder[d_reg] = {};
    std::vector<int> free_registers, free_spares;
    for (int r = 0; r < kRegisters; ++r) {
      if (holder[r].holds != Holds::nothing) continue;
      free_registers.push_back(r);
      if (r >= 25) free_spares.push_back(r);
    }
    const auto& pool = !free_spares.empty() && random.below(10) < 8 ? free_spares : free_registers;
    const int dst = pool[random.below(pool.size())];
    if (rotation[b] == 0) {
      ops.push_back({RoundOp::Kind::eor, dst, lane, d_reg, -1, 0, "B[0] = A[0] ^ D[0]"});
    } else {
      ops.push_back({RoundOp::Kind::xar, dst, lane, d_reg, -1, 64 - rotation[b],
                     "B[" + std::to_string(b) + "] = rotl(A[" + std::to_string(lane) + "] ^ D[" +
                         std::to_string(lane % 5) + "], " + std::to_string(rotation[b]) + ")"});
    }
    holder[dst] = {Holds::b_value, b};
    b_register[b] = dst;
    b_done[b] = true;
  }
  return ops;
}

// Evaluates the ops on a register file and returns the 25 lanes after theta, rho, pi, chi.
std::array<std::uint64_t, 25> evaluate(const std::vector<RoundOp>& ops,
                                       const std::array<std::uint64_t, 25>& lanes) {
  std::array<std::uint64_t, kRegisters> v{};
  for (int i = 0; i < 25; ++i)
    v[i] = lanes[i];
  for (const RoundOp& op : ops) {
    switch (op.kind) {
      case RoundOp::Kind::eor3:
        v[op.dst] = v[op.a] ^ v[op.b] ^ v[op.c];
        break;
      case RoundOp::Kind::rax1:
        v[op.dst] = v[op.a] ^ std::rotl(v[op.b], 1);
        break;
      case RoundOp::Kind::eor:
        v[op.dst] = v[op.a] ^ v[op.b];
        break;
      case RoundOp::Kind::xar:
        v[op.dst] = std::rotr(v[op.a] ^ v[op.b], op.rotate_right);
        break;
      case RoundOp::Kind::bcax:
        v[op.dst] = v[op.a] ^ (v[op.b] & ~v[op.c]);
        break;
    }
  }
  std::array<std::uint64_t, 25> out{};
  for (int i = 0; i < 25; ++i)
    out[i] = v[i];
  return out;
}

RoundSchedule search() {
  constexpr std::uint64_t kSeed = 0x6b656363616b3136ull;  // "keccak16"
  constexpr std::uint64_t kAttempts = 5'000'000;
  SplitMix64 random{kSeed};
  for (std::uint64_t attempt = 1; attempt <= kAttempts; ++attempt) {
    auto rho_pi_chi = try_rho_pi_chi(random);
    if (!rho_pi_chi) continue;
    RoundSchedule schedule;
    schedule.ops = theta_ops();
    schedule.ops.insert(schedule.ops.end(), rho_pi_chi->begin(), rho_pi_chi->end());
    schedule.free_register = 31;  // every spare is free again once chi is done
    schedule.search_attempt = attempt;
    schedule.search_seed = kSeed;
    check_round_schedule("arm64 round schedule, attempt " + std::to_string(attempt),
                         [&](const KeccakLanes& lanes) { return evaluate(schedule.ops, lanes); });
    return schedule;
  }
  throw GenerationError("arm64 round schedule: no zero-move schedule in " +
                        std::to_string(kAttempts) + " attempts");
}

}  // namespace

const RoundSchedule& zero_move_round_schedule() {
  static const RoundSchedule schedule = search();
  return schedule;
}

}  // namespace spongegen::kernels
