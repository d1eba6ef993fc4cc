// Theta's orders with few registers, searched exhaustively. This backs what the riscv64-zbb
// header states (generator/kernels/keccak_riscv64.cpp): theta takes 57 instructions there, the
// fewest, because the 25 lanes leave three of riscv64's 28 usable registers and theta needs a
// fourth value at its peak.
//
// Theta: C[x] is the XOR of column x, D[x] = C[x-1] ^ rotl(C[x+1], 1), and every lane of column
// x takes ^= D[x]. The search runs over its steps, counted in instructions:
//   - sum column x into a free temporary (4 XORs) or into one that holds a value (5); a column
//     whose D is already applied sums to C[x] ^ D[x] (five copies of D[x] are one);
//   - rotate a value made only of column sums by 1 (one rori), into any temporary;
//   - XOR two temporaries (1);
//   - apply D[x] to column x (5), once a temporary holds exactly D[x] (applying anything else
//     costs 5 more and the column must still end with D[x], so no such order is under 60);
//   - with a frame slot: store a temporary there or load it back (1 each).
// A temporary holds an XOR of C[0..4] and rotl(C[0..4], 1): a set of at most max_terms of those
// ten. Partial column sums are not among the steps. The search is A* with the five rotations
// of the columns as symmetry and an admissible bound on what is left: 5 a column to apply, 1
// for each D no temporary holds, 4 for each column sum such a D needs and no value holds.
//
// By default values have at most two terms: 3 s in Release on an AMD EPYC (Zen 5). With
// SPONGEGEN_THETA_SEARCH_TERMS=10 they may be any XOR combination, with the same results (2.4
// minutes there).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

namespace {

constexpr int kColumns = 5;

// A value is a set of terms: bit x is C[x], bit 5 + x is rotl(C[x], 1).
constexpr unsigned column_sum(int x) {
  return 1u << ((x + kColumns) % kColumns);
}
constexpr unsigned rotated_sum(int x) {
  return column_sum(x) << kColumns;
}
constexpr unsigned theta_d(int x) {
  return column_sum(x - 1) | rotated_sum(x + 1);
}

unsigned rotate_columns(unsigned value, int by) {
  const auto rotate5 = [by](unsigned set) {
    return ((set << by) | (set >> (kColumns - by))) & ((1u << kColumns) - 1);
  };
  return rotate5(value & 31u) | rotate5(value >> kColumns) << kColumns;
}

struct SearchSpace {
  int temporaries;  // 3 or 4
  bool frame_slot;
  int max_terms;
};

// Which columns have D applied, what each temporary holds (0: nothing) and the frame slot.
struct State {
  unsigned applied = 0;
  std::array<unsigned, 4> temporaries{};
  unsigned frame = 0;
};

class ThetaSearch {
 public:
  explicit ThetaSearch(SearchSpace space) : space_(space) {}

  // The fewest instructions of any order within `limit`, or nothing.
  std::optional<int> fewest(int limit) {
    std::vector<std::vector<std::uint64_t>> open(static_cast<std::size_t>(limit) + 1);
    const State start;
    const std::uint64_t start_key = canonical(start);
    cost_[start_key] = 0;
    open[static_cast<std::size_t>(bound(start))].push_back(start_key);
    for (int f = 0; f <= limit; ++f) {
      for (std::size_t i = 0; i < open[static_cast<std::size_t>(f)].size(); ++i) {
        const std::uint64_t key = open[static_cast<std::size_t>(f)][i];
        const State state = unpack(key);
        const int cost = cost_.at(key);
        if (cost + bound(state) != f) continue;  // reached more cheaply since
        if (state.applied == (1u << kColumns) - 1) return cost;
        expand(state, cost, limit, open);
      }
    }
    return std::nullopt;
  }

 private:
  void expand(const State& s, int cost, int limit, std::vector<std::vector<std::uint64_t>>& open) {
    const auto reach = [&](State next, int steps) {
      for (int t = 0; t < space_.temporaries; ++t)
        if (std::popcount(next.temporaries[static_cast<std::size_t>(t)]) > space_.max_terms) return;
      const int next_cost = cost + steps;
      const int f = next_cost + bound(next);
      if (f > limit) return;
      const std::uint64_t key = canonical(next);
      const auto known = cost_.find(key);
      if (known != cost_.end() && known->second <= next_cost) return;
      cost_[key] = next_cost;
      open[static_cast<std::size_t>(f)].push_back(key);
    };
    for (std::size_t t = 0; t < static_cast<std::size_t>(space_.temporaries); ++t) {
      const unsigned held = s.temporaries[t];
      for (int x = 0; x < kColumns; ++x) {
        const unsigned sum = column_sum(x) ^ ((s.applied >> x & 1u) != 0 ? theta_d(x) : 0u);
        State next = s;
        next.temporaries[t] = sum;
        reach(next, 4);
        if (held != 0) {
          next.temporaries[t] = held ^ sum;
          reach(next, 5);
        }
        if ((s.applied >> x & 1u) == 0 && held == theta_d(x)) {
          next = s;
          next.applied |= 1u << x;
          reach(next, 5);
        }
      }
      for (std::size_t a = 0; a < static_cast<std::size_t>(space_.temporaries); ++a) {
        const unsigned value = s.temporaries[a];
        if (value == 0) continue;
        if (value < (1u << kColumns)) {
          State next = s;
          next.temporaries[t] = value << kColumns;
          reach(next, 1);
        }
        for (std::size_t b = a + 1; b < static_cast<std::size_t>(space_.temporaries); ++b) {
          if (s.temporaries[b] == 0) continue;
          State next = s;
          next.temporaries[t] = value ^ s.temporaries[b];
          reach(next, 1);
        }
      }
      if (space_.frame_slot) {
        if (held != 0) {
          State next = s;
          next.frame = held;
          reach(next, 1);
        }
        if (s.frame != 0) {
          State next = s;
          next.temporaries[t] = s.frame;
          reach(next, 1);
        }
      }
    }
  }

  // Never more than the instructions left: see the file's comment.
  int bound(const State& s) const {
    unsigned held = s.frame;
    for (const unsigned value : s.temporaries)
      held |= value;
    int left = 0;
    unsigned needed_sums = 0;
    for (int x = 0; x < kColumns; ++x) {
      if ((s.applied >> x & 1u) != 0) continue;
      left += 5;
      if (std::find(s.temporaries.begin(), s.temporaries.end(), theta_d(x)) ==
          s.temporaries.end()) {
        left += 1;
        needed_sums |= column_sum(x - 1) | column_sum(x + 1);
      }
    }
    for (int x = 0; x < kColumns; ++x)
      if ((needed_sums & column_sum(x)) != 0 && (held & (column_sum(x) | rotated_sum(x))) == 0)
        left += 4;
    return left;
  }

  // The least key over the five rotations of the columns, the temporaries sorted.
  std::uint64_t canonical(const State& s) const {
    std::uint64_t least = ~std::uint64_t{0};
    for (int by = 0; by < kColumns; ++by) {
      State r;
      r.applied = rotate_columns(s.applied, by) & 31u;
      for (std::size_t t = 0; t < 4; ++t)
        r.temporaries[t] = rotate_columns(s.temporaries[t], by);
      r.frame = rotate_columns(s.frame, by);
      // Descending, so that the unused fourth stays last (it is 0).
      std::sort(r.temporaries.begin(), r.temporaries.end(), std::greater<>());
      least = std::min(least, pack(r));
    }
    return least;
  }

  static std::uint64_t pack(const State& s) {
    std::uint64_t key = s.applied;
    for (std::size_t t = 0; t < 4; ++t)
      key |= std::uint64_t{s.temporaries[t]} << (5 + 10 * t);
    return key | std::uint64_t{s.frame} << 45;
  }
  static State unpack(std::uint64_t key) {
    State s;
    s.applied = static_cast<unsigned>(key & 31u);
    for (std::size_t t = 0; t < 4; ++t)
      s.temporaries[t] = static_cast<unsigned>(key >> (5 + 10 * t) & 1023u);
    s.frame = static_cast<unsigned>(key >> 45 & 1023u);
    return s;
  }

  SearchSpace space_;
  std::unordered_map<std::uint64_t, int> cost_;
};

int max_terms() {
  const char* terms = std::getenv("SPONGEGEN_THETA_SEARCH_TERMS");
  return terms != nullptr ? std::atoi(terms) : 2;
}

}  // namespace

// In the suite whole-tree, which scripts/test runs in its Release build only: a search's
// result does not depend on the build.
TEST_SUITE("whole-tree") {
  TEST_CASE("theta with four temporaries: 55 instructions, the operations' own count") {
    // 20 XORs for the sums, 5 rotations, 5 XORs and 25 to apply: the search finds the order
    // that needs nothing more, so a "none" below is not the search failing to find one.
    CHECK(ThetaSearch({4, false, max_terms()}).fewest(55) == 55);
  }

  TEST_CASE("theta with three temporaries: 57 with one frame slot (riscv64-zbb's), none without") {
    CHECK(ThetaSearch({3, true, max_terms()}).fewest(57) == 57);
    CHECK(ThetaSearch({3, false, max_terms()}).fewest(57) == std::nullopt);
  }
}
