// What was hashed does not linger in memory the library wrote. After a hash completes (a
// digest, the end of squeezing, reset(), a hasher's destruction, a one-shot call, a C API
// call), no lane of any state the message's permutations went through may be left on the
// dead stack below the caller: not in a kernel's frame, not in the portable code's compiler
// spills, not in the sponge's own locals. Registered once per kernel (SPONGE_KERNEL), so
// every kernel's frames are covered.
//
// How: a model of the sponge on the portable rounds lists every state at every round
// boundary of every permutation (the permutation's input included, which for the first
// block is the message itself). Lanes that do not depend on the secret (the same for a
// second secret of the same length: zero capacity lanes, padding) and lanes the caller
// receives whole as output are dropped. The scenario runs once to bind symbols, the stack
// below the caller is painted, the scenario runs again one call deeper, and the painted
// region is copied out and searched at every byte offset.
#include <sponge/sponge.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "doctest/doctest.h"
#include "kernel.hpp"
#include "support/test_support.hpp"
#include "wipe.hpp"

namespace {

using sponge_test::Bytes;

// How far below the caller the scan looks, and how much is painted first (more than the
// scan, so the painting function's own frame lies outside the scanned region).
constexpr std::size_t kScanBytes = 32 * 1024;
constexpr std::size_t kPaintBytes = kScanBytes + 4096;
// The scenario runs this far below the caller, so the scanning function's frame (which
// also starts at the caller's stack pointer) overwrites only this padding, never what the
// scenario left.
constexpr std::size_t kScenarioDepth = 2048;

struct SpongeParameters {
  std::size_t rate_bytes;
  std::uint8_t domain_byte;
  std::size_t output_bytes;
  int rounds = 24;  // Keccak-p[1600, rounds]: the last `rounds` rounds of Keccak-f[1600]
};

struct TrajectoryLane {
  std::uint64_t value;
  std::size_t permutation;
  int round;  // the state entering this round; 24 is the permutation's output
  int lane;
};

// Every lane of every state at every round boundary of the permutations a sponge with
// `parameters` runs on `message`, and the values of the lanes it outputs whole.
struct Trajectory {
  std::vector<TrajectoryLane> lanes;
  std::vector<std::uint64_t> output_lanes;
};

Trajectory sponge_trajectory(const SpongeParameters& parameters, const Bytes& message) {
  Trajectory trajectory;
  std::uint64_t state[25] = {};
  std::size_t permutations = 0;
  const auto permute = [&] {
    for (int round = 24 - parameters.rounds; round <= 24; ++round) {
      for (int lane = 0; lane < 25; ++lane)
        trajectory.lanes.push_back({state[lane], permutations, round, lane});
      if (round < 24) sponge::detail::keccak_p1600_rounds_portable(state, round, round + 1);
    }
    ++permutations;
  };
  const auto xor_byte = [&](std::size_t position, std::uint8_t byte) {
    state[position / 8] ^= std::uint64_t{byte} << (8 * (position % 8));
  };
  const std::size_t rate = parameters.rate_bytes;
  std::size_t offset = 0;
  for (; message.size() - offset >= rate; offset += rate) {
    for (std::size_t i = 0; i < rate; ++i)
      xor_byte(i, message[offset + i]);
    permute();
  }
  for (std::size_t i = offset; i < message.size(); ++i)
    xor_byte(i - offset, message[i]);
  xor_byte(message.size() - offset, parameters.domain_byte);
  xor_byte(rate - 1, 0x80);
  permute();
  for (std::size_t produced = 0;;) {
    for (std::size_t lane = 0; lane < rate / 8 && produced + 8 <= parameters.output_bytes;
         ++lane, produced += 8)
      trajectory.output_lanes.push_back(state[lane]);
    if (produced + 8 > parameters.output_bytes) break;
    permute();
  }
  return trajectory;
}

// The lanes an attacker must not find: secret-dependent (they differ for another secret
// of the same length) and not handed to the caller whole.
std::vector<TrajectoryLane> secret_lanes(const SpongeParameters& parameters, const Bytes& secret) {
  const Trajectory trajectory = sponge_trajectory(parameters, secret);
  Bytes other_secret = secret;
  for (std::uint8_t& byte : other_secret)
    byte ^= 0x5A;
  const Trajectory other = sponge_trajectory(parameters, other_secret);
  std::vector<TrajectoryLane> lanes;
  for (std::size_t i = 0; i < trajectory.lanes.size(); ++i) {
    const TrajectoryLane& lane = trajectory.lanes[i];
    if (lane.value == other.lanes[i].value) continue;
    if (std::find(trajectory.output_lanes.begin(), trajectory.output_lanes.end(), lane.value) !=
        trajectory.output_lanes.end())
      continue;
    lanes.push_back(lane);
  }
  std::sort(lanes.begin(), lanes.end(),
            [](const TrajectoryLane& a, const TrajectoryLane& b) { return a.value < b.value; });
  return lanes;
}

// The stack pointer of the calling function.
#if defined(__x86_64__)
#define SPONGE_TEST_READ_SP(sp) __asm__ volatile("mov %%rsp, %0" : "=r"(sp))
#elif defined(__aarch64__)
#define SPONGE_TEST_READ_SP(sp) __asm__ volatile("mov %0, sp" : "=r"(sp))
#else
#error "the residue test reads the stack pointer of x86-64 or AArch64 only"
#endif

// Overwrites the stack below the caller with a pattern, so what is found later was written
// by the scenario and not by an earlier test.
[[gnu::noinline]] void paint_stack() {
  unsigned char area[kPaintBytes];
  std::memset(area, 0xA5, sizeof area);
  __asm__ volatile("" : : "r"(area) : "memory");
}

// Runs `scenario` kScenarioDepth bytes below the caller.
[[gnu::noinline]] void run_deeper(const std::function<void()>& scenario) {
  unsigned char padding[kScenarioDepth];
  std::memset(padding, 0, sizeof padding);
  __asm__ volatile("" : : "r"(padding) : "memory");
  scenario();
  __asm__ volatile("" : : "r"(padding) : "memory");
}

// Copies the kScanBytes below this function's own stack pointer into `copy` with plain
// loads and no calls, so nothing overwrites the region while it is read. Not instrumented:
// the region is dead stack, which a sanitizer may still consider a redzone.
[[gnu::noinline, gnu::no_sanitize_address, gnu::no_sanitize_undefined]] void copy_dead_stack(
    std::uint8_t* copy) {
  std::uintptr_t sp;
  SPONGE_TEST_READ_SP(sp);
  const volatile std::uint8_t* below = reinterpret_cast<const volatile std::uint8_t*>(sp);
  for (std::size_t i = 0; i < kScanBytes; ++i)
    copy[i] = below[-static_cast<std::ptrdiff_t>(kScanBytes) + static_cast<std::ptrdiff_t>(i)];
}

struct Finding {
  std::size_t offset_below_sp;
  TrajectoryLane lane;
};

// Every secret lane found at any byte offset of `memory`.
std::vector<Finding> find_lanes(std::span<const std::uint8_t> memory,
                                const std::vector<TrajectoryLane>& lanes) {
  std::vector<Finding> findings;
  for (std::size_t offset = 0; offset + 8 <= memory.size(); ++offset) {
    std::uint64_t value;
    std::memcpy(&value, memory.data() + offset, 8);
    auto match = std::lower_bound(
        lanes.begin(), lanes.end(), value,
        [](const TrajectoryLane& lane, std::uint64_t wanted) { return lane.value < wanted; });
    if (match != lanes.end() && match->value == value)
      findings.push_back({memory.size() - offset, *match});
  }
  return findings;
}

std::string describe(const std::vector<Finding>& findings) {
  std::string text;
  for (std::size_t i = 0; i < findings.size() && i < 8; ++i) {
    const Finding& finding = findings[i];
    char value[24];
    std::snprintf(value, sizeof value, "%016llx",
                  static_cast<unsigned long long>(finding.lane.value));
    text += "  " + std::string(value) + " at " + std::to_string(finding.offset_below_sp) +
            " bytes below sp: permutation " + std::to_string(finding.lane.permutation) +
            ", before round " + std::to_string(finding.lane.round) + ", lane " +
            std::to_string(finding.lane.lane) + "\n";
  }
  return text;
}

// Runs `scenario` on `secret` below a painted stack and returns the secret lanes left in
// the dead stack, and in `extra` (memory the test owns that the scenario wrote, e.g. a
// hasher that outlives it).
std::vector<Finding> residue_after(const SpongeParameters& parameters, const Bytes& secret,
                                   const std::function<void()>& scenario,
                                   std::span<const std::uint8_t> extra = {}) {
  const std::vector<TrajectoryLane> lanes = secret_lanes(parameters, secret);
  REQUIRE(lanes.size() > static_cast<std::size_t>(25 * parameters.rounds));
  std::vector<std::uint8_t> dead_stack(kScanBytes);
  // A first run binds the library's symbols: the dynamic linker's lazy-binding trampoline
  // saves the vector registers on the stack, and they still hold lanes the model above
  // computed, which the library never wrote.
  scenario();
  paint_stack();
  run_deeper(scenario);
  copy_dead_stack(dead_stack.data());
  std::vector<Finding> findings = find_lanes(dead_stack, lanes);
  for (const Finding& finding : find_lanes(extra, lanes))
    findings.push_back(finding);
  return findings;
}

void check_no_residue(const char* scenario_name, const std::vector<Finding>& findings) {
  // One line per scenario and kernel, so a run shows the counts (and the closing note of
  // the hardening issue quotes them).
  std::printf("residue: %-40s kernel %-11s %zu secret lanes found\n", scenario_name,
              std::string(sponge::active_kernel()).c_str(), findings.size());
  INFO(std::string(scenario_name) << " left secret lanes on the dead stack:\n"
                                  << describe(findings));
  CHECK(findings.empty());
}

Bytes make_secret(std::size_t rate_bytes) {
  // Two full blocks (the absorb entries) and a partial one (the permute entry).
  sponge_test::Rng rng(0x5EC2E7 + rate_bytes);
  return rng.bytes(2 * rate_bytes + 50);
}

}  // namespace

TEST_CASE("residue: nothing of a hashed secret is left on the stack") {
  SUBCASE("Sha3_256 update, digest, destruction") {
    const SpongeParameters parameters{136, 0x06, 32};
    const Bytes secret = make_secret(parameters.rate_bytes);
    std::array<std::uint8_t, 32> digest{};
    const auto findings = residue_after(parameters, secret, [&] {
      sponge::Sha3_256 hash;
      hash.update(std::span(secret).first(100));
      hash.update(std::span(secret).subspan(100));
      digest = hash.digest();
    });
    CHECK(sponge_test::to_bytes(digest) == sponge_test::to_bytes(sponge::sha3_256(secret)));
    check_no_residue("Sha3_256 update, digest, destruction", findings);
  }
  SUBCASE("Shake128 squeezed across blocks, destruction") {
    const SpongeParameters parameters{168, 0x1F, 400};
    const Bytes secret = make_secret(parameters.rate_bytes);
    Bytes output(parameters.output_bytes);
    const auto findings = residue_after(parameters, secret, [&] {
      sponge::Shake128 xof;
      xof.update(secret);
      xof.squeeze(std::span(output).first(150));
      xof.squeeze(std::span(output).subspan(150));
    });
    check_no_residue("Shake128 squeeze in pieces, destruction", findings);
  }
  SUBCASE("Keccak256 digest then reset(): the hasher lives on") {
    const SpongeParameters parameters{136, 0x01, 32};
    const Bytes secret = make_secret(parameters.rate_bytes);
    alignas(sponge::Keccak256) std::uint8_t storage[sizeof(sponge::Keccak256)];
    auto* hash = new (storage) sponge::Keccak256();
    const auto findings = residue_after(
        parameters, secret,
        [&] {
          hash->update(secret);
          (void)hash->digest();
          hash->reset();
        },
        std::span<const std::uint8_t>(storage));
    CHECK(sponge_test::to_bytes(hash->update(std::string_view("abc")).digest()) ==
          sponge_test::to_bytes(sponge::keccak256(std::string_view("abc"))));
    std::destroy_at(hash);
    check_no_residue("Keccak256 digest, reset (hasher kept)", findings);
  }
  SUBCASE("one-shot sha3_512") {
    const SpongeParameters parameters{72, 0x06, 64};
    const Bytes secret = make_secret(parameters.rate_bytes);
    const auto findings =
        residue_after(parameters, secret, [&] { (void)sponge::sha3_512(secret); });
    check_no_residue("one-shot sha3_512", findings);
  }
  SUBCASE("one-shot shake256, three blocks of output") {
    const SpongeParameters parameters{136, 0x1F, 300};
    const Bytes secret = make_secret(parameters.rate_bytes);
    Bytes output(parameters.output_bytes);
    const auto findings =
        residue_after(parameters, secret, [&] { sponge::shake256(secret, output); });
    check_no_residue("one-shot shake256", findings);
  }
  SUBCASE("C API sponge_sha3_384") {
    const SpongeParameters parameters{104, 0x06, 48};
    const Bytes secret = make_secret(parameters.rate_bytes);
    std::uint8_t digest[SPONGE_SHA3_384_BYTES];
    const auto findings = residue_after(parameters, secret, [&] {
      REQUIRE(sponge_sha3_384(secret.data(), secret.size(), digest) == SPONGE_OK);
    });
    check_no_residue("C API sponge_sha3_384", findings);
  }
  SUBCASE("Keccak-p[1600, 12] entries: two absorb168 blocks, a padded block, permute") {
    // The 12-round entries called as a sponge would (the runtime's TurboSHAKE shape), so
    // their frames are scanned on every kernel.
    const SpongeParameters parameters{168, 0x1F, 32, 12};
    const Bytes secret = make_secret(parameters.rate_bytes);
    std::array<std::uint64_t, 4> output{};
    const auto findings = residue_after(parameters, secret, [&] {
      const sponge::detail::KeccakKernel& kernel = sponge::detail::active_keccak_kernel();
      std::uint64_t state[25] = {};
      std::size_t offset = 0;
      for (; secret.size() - offset >= parameters.rate_bytes; offset += parameters.rate_bytes)
        kernel.absorb_for(parameters.rate_bytes, 12)(state, secret.data() + offset);
      const auto xor_byte = [&](std::size_t position, std::uint8_t byte) {
        state[position / 8] ^= std::uint64_t{byte} << (8 * (position % 8));
      };
      for (std::size_t i = offset; i < secret.size(); ++i)
        xor_byte(i - offset, secret[i]);
      xor_byte(secret.size() - offset, parameters.domain_byte);
      xor_byte(parameters.rate_bytes - 1, 0x80);
      kernel.permute_for(12)(state);
      std::copy_n(state, output.size(), output.begin());
      // The test's own copy of the state is not the kernels' concern: clear it, and keep
      // the compiler from dropping the stores to a dead array.
      sponge::detail::zero_words(state);
      __asm__ volatile("" : : "r"(state) : "memory");
    });
    CHECK(std::vector<std::uint64_t>(output.begin(), output.end()) ==
          sponge_trajectory(parameters, secret).output_lanes);
    check_no_residue("Keccak-p[1600,12] absorb168 and permute", findings);
  }
  SUBCASE("Sha3_224: a digest lane that is only half output stays secret") {
    const SpongeParameters parameters{144, 0x06, 28};
    const Bytes secret = make_secret(parameters.rate_bytes);
    const auto findings =
        residue_after(parameters, secret, [&] { (void)sponge::sha3_224(secret); });
    check_no_residue("one-shot sha3_224", findings);
  }
}

TEST_CASE("residue: the test finds lanes a kernel leaves behind (control)") {
  // A copy of a mid-permutation state written to the dead stack by a function of the test
  // must be found: the scan sees the region the library's frames use.
  const SpongeParameters parameters{136, 0x06, 32};
  const Bytes secret = make_secret(parameters.rate_bytes);
  const auto findings = residue_after(parameters, secret, [&] {
    std::uint64_t leaked[25] = {};
    for (std::size_t i = 0; i < 8 * 17; ++i)
      leaked[i / 8] ^= std::uint64_t{secret[i]} << (8 * (i % 8));
    sponge::detail::keccak_p1600_rounds_portable(leaked, 0, 7);
    __asm__ volatile("" : : "r"(leaked) : "memory");
  });
  CHECK(findings.size() >= 25);
}
