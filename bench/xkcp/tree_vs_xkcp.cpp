// KangarooTwelve and ParallelHash through each library's public function, spongegen against
// XKCP, on one thread: every output is checked equal first, then each case is timed in 31
// interleaved rounds (which library goes first alternates), each round the fewest calls that
// take 20 ms, and the medians are printed with the ratio XKCP / spongegen (above 1: ours is
// faster); then the permutations alone, the same way. Built and run by bench/xkcp.sh against
// an XKCP build made by hand.
//   tree_vs_xkcp [--kt128-only] [size ...]     sizes in bytes (default 64 KiB, 1 MiB, 16 MiB)
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "sponge/sponge.hpp"

extern "C" {
#include "KangarooTwelve.h"
#include "SP800-185.h"
}

// The permutations alone: XKCP's multi-state permutation of its build (eight states with
// AVX-512, four with AVX2) against the generated kernel of the same width, through its
// permute entries (the library's global symbols; both take N lane-interleaved states, lane i
// of state s at word N * i + s).
#if defined(XKCP_HAS_TIMES8)
extern "C" {
#include "KeccakP-1600-times8-SnP.h"
void sponge_keccakf1600_amd64_avx512_x8(std::uint64_t* states);
void sponge_keccakp1600_12_amd64_avx512_x8(std::uint64_t* states);
}
constexpr int kPermutationStates = 8;
using XkcpStates = KeccakP1600times8_SIMD512_states;
void (*const xkcp_permute24)(XkcpStates*) = KeccakP1600times8_PermuteAll_24rounds;
void (*const xkcp_permute12)(XkcpStates*) = KeccakP1600times8_PermuteAll_12rounds;
void (*const ours_permute24)(std::uint64_t*) = sponge_keccakf1600_amd64_avx512_x8;
void (*const ours_permute12)(std::uint64_t*) = sponge_keccakp1600_12_amd64_avx512_x8;
#else
extern "C" {
#include "KeccakP-1600-times4-SnP.h"
void sponge_keccakf1600_amd64_avx2_x4(std::uint64_t* states);
void sponge_keccakp1600_12_amd64_avx2_x4(std::uint64_t* states);
}
constexpr int kPermutationStates = 4;
using XkcpStates = KeccakP1600times4_states;
void (*const xkcp_permute24)(XkcpStates*) = KeccakP1600times4_PermuteAll_24rounds;
void (*const xkcp_permute12)(XkcpStates*) = KeccakP1600times4_PermuteAll_12rounds;
void (*const ours_permute24)(std::uint64_t*) = sponge_keccakf1600_amd64_avx2_x4;
void (*const ours_permute12)(std::uint64_t*) = sponge_keccakp1600_12_amd64_avx2_x4;
#endif
static_assert(sizeof(XkcpStates) == 200 * kPermutationStates);

#ifndef XKCP_TARGET
#define XKCP_TARGET "?"
#endif

namespace {

using Fn = std::function<void()>;

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Calls f until at least 20 ms have passed (the fewest calls that reach it); seconds per call.
double time_once(const Fn& f) {
  const double t0 = now_s();
  double t = t0;
  long n = 0;
  do {
    f();
    ++n;
    t = now_s();
  } while (t - t0 < 0.020);
  return (t - t0) / double(n);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string hex(std::span<const std::uint8_t> b, std::size_t n = 8) {
  std::string s;
  char buf[3];
  for (std::size_t i = 0; i < std::min(n, b.size()); ++i) {
    std::snprintf(buf, sizeof buf, "%02x", b[i]);
    s += buf;
  }
  return s;
}

void check(const char* name, std::size_t len, std::span<const std::uint8_t> ours,
           std::span<const std::uint8_t> xkcp, int rc) {
  if (rc != 0 || ours.size() != xkcp.size() ||
      std::memcmp(ours.data(), xkcp.data(), ours.size()) != 0) {
    std::printf("FAIL %s len=%zu xkcp_rc=%d ours=%s.. xkcp=%s..\n", name, len, rc,
                hex(ours).c_str(), hex(xkcp).c_str());
    std::exit(1);
  }
}

void bench(const char* name, std::size_t len, const Fn& ours, const Fn& xkcp) {
  constexpr int kRounds = 31;
  ours();  // warm up (caches, dispatcher, page faults)
  xkcp();
  std::vector<double> to, tx;
  for (int r = 0; r < kRounds; ++r) {
    if (r % 2 == 0) {
      to.push_back(time_once(ours));
      tx.push_back(time_once(xkcp));
    } else {
      tx.push_back(time_once(xkcp));
      to.push_back(time_once(ours));
    }
  }
  const double mo = median(to), mx = median(tx);
  // Nanoseconds below 10 us (the permutations), microseconds above.
  const bool short_call = mo < 10e-6;
  const double scale = short_call ? 1e9 : 1e6;
  const char* unit = short_call ? "ns" : "us";
  std::printf(
      "%-16s %9zu  ours %10.2f %s %6.2f GB/s   xkcp %10.2f %s %6.2f GB/s   xkcp/ours %.3f\n", name,
      len, mo * scale, unit, double(len) / mo * 1e-9, mx * scale, unit, double(len) / mx * 1e-9,
      mx / mo);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool kt128_only = false;
  std::vector<std::size_t> sizes;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--kt128-only")
      kt128_only = true;
    else
      sizes.push_back(std::stoul(argv[i]));
  }
  if (sizes.empty()) sizes = {64 * 1024, 1024 * 1024, 16 * 1024 * 1024};
  std::vector<std::uint8_t> input(
      std::max<std::size_t>(*std::max_element(sizes.begin(), sizes.end()), 1024 * 1024));
  for (std::size_t i = 0; i < input.size(); ++i)
    input[i] = std::uint8_t(i % 251);
  const std::uint8_t custom_text[] = {'k', 't', 'b', 'e', 'n', 'c', 'h'};
  const std::span<const std::uint8_t> no_custom;
  const std::span<const std::uint8_t> custom(custom_text, sizeof custom_text);

  std::printf(
      "XKCP %s build: ours kernel=%s batch=%s; median of 31 interleaved rounds, >=20 ms each,"
      " one thread\n",
      XKCP_TARGET, std::string(sponge::active_kernel()).c_str(),
      std::string(sponge::active_kernel(sponge::KernelFamily::keccak_p1600_batch)).c_str());

  std::uint8_t o1[64], o2[64];

  // Correctness first, every case (and once with a customization string).
  for (std::size_t len : sizes) {
    for (auto c : {no_custom, custom}) {
      std::span<const std::uint8_t> in(input.data(), len);
      sponge::kt128(in, c, std::span(o1, 32));
      int rc = KT128(input.data(), len, o2, 32, c.data(), c.size());
      check("KT128", len, std::span(o1, 32), std::span(o2, 32), rc);
      sponge::kt256(in, c, std::span(o1, 64));
      rc = KT256(input.data(), len, o2, 64, c.data(), c.size());
      check("KT256", len, std::span(o1, 64), std::span(o2, 64), rc);
    }
  }
  const std::size_t ph_len = 1024 * 1024, ph_b = 8192;
  for (auto c : {no_custom, custom}) {
    sponge::parallelhash128(std::span(input.data(), ph_len), ph_b, c, std::span(o1, 32));
    int rc = ParallelHash128(input.data(), ph_len * 8, ph_b, o2, 32 * 8, c.data(), c.size() * 8);
    check("ParallelHash128", ph_len, std::span(o1, 32), std::span(o2, 32), rc);
  }
  std::printf("outputs equal: KT128, KT256 at every size; ParallelHash128 1 MiB B=8192\n");

  for (std::size_t len : sizes) {
    std::span<const std::uint8_t> in(input.data(), len);
    bench(
        "KT128", len, [&] { sponge::kt128(in, no_custom, std::span(o1, 32)); },
        [&] { KT128(input.data(), len, o2, 32, nullptr, 0); });
  }
  if (kt128_only) return 0;
  for (std::size_t len : sizes) {
    std::span<const std::uint8_t> in(input.data(), len);
    bench(
        "KT256", len, [&] { sponge::kt256(in, no_custom, std::span(o1, 64)); },
        [&] { KT256(input.data(), len, o2, 64, nullptr, 0); });
  }
  bench(
      "PH128 B=8192", ph_len,
      [&] {
        sponge::parallelhash128(std::span(input.data(), ph_len), ph_b, no_custom,
                                std::span(o1, 32));
      },
      [&] { ParallelHash128(input.data(), ph_len * 8, ph_b, o2, 32 * 8, nullptr, 0); });

  // The permutations, checked equal on one random state first.
  alignas(64) std::uint64_t ours_states[25 * kPermutationStates];
  alignas(64) XkcpStates xkcp_states;
  for (std::size_t i = 0; i < std::size(ours_states); ++i)
    ours_states[i] = 0x9E3779B97F4A7C15ull * (i + 1);
  std::memcpy(&xkcp_states, ours_states, sizeof ours_states);
  ours_permute24(ours_states);
  ours_permute12(ours_states);
  xkcp_permute24(&xkcp_states);
  xkcp_permute12(&xkcp_states);
  check("permutations", sizeof ours_states,
        std::span(reinterpret_cast<const std::uint8_t*>(ours_states), sizeof ours_states),
        std::span(reinterpret_cast<const std::uint8_t*>(&xkcp_states), sizeof ours_states), 0);
  const std::string states = " x" + std::to_string(kPermutationStates);
  bench(("permute24" + states).c_str(), sizeof ours_states, [&] { ours_permute24(ours_states); },
        [&] { xkcp_permute24(&xkcp_states); });
  bench(("permute12" + states).c_str(), sizeof ours_states, [&] { ours_permute12(ours_states); },
        [&] { xkcp_permute12(&xkcp_states); });
  return 0;
}
