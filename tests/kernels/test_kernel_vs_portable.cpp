// Every entry of every compiled kernel this CPU can run, against the portable reference:
// 10,000 random (state, block) pairs per entry, blocks at every misalignment 0..7, with
// guard words around the state and a watched copy of the block buffer, so a kernel that
// writes outside the 25 lanes or into its input fails too. Which kernels must have been
// tested comes from outside the process (SPONGE_EXPECTED_RUNNABLE_KERNELS, or a native
// build's configure-time decision): a kernel whose CPU check wrongly says "no" fails the
// test instead of silently going untested.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_test_support.hpp"
#include "sponge/sponge.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sponge_kernel_test;

constexpr std::size_t kPairsPerEntry = 10000;
constexpr std::size_t kGuardWords = 8;
constexpr std::size_t kMaxRate = 168;
constexpr std::size_t kBlockSlack = 64;  // guard bytes after the block, and the misalignment

struct EntryResult {
  std::size_t pairs = 0;
  std::size_t wrong_state = 0;
  std::size_t wrote_guard = 0;
  std::size_t wrote_block = 0;
  std::array<std::size_t, 8> per_misalignment{};
  std::string first_failure;
};

EntryResult check_entry(const Entry& entry, sponge_test::Rng& rng) {
  EntryResult result;
  // state_buffer = guard | 25 lanes | guard
  std::array<std::uint64_t, 25 + 2 * kGuardWords> state_buffer{};
  std::uint64_t* const state = state_buffer.data() + kGuardWords;
  alignas(64) std::array<std::uint8_t, kMaxRate + kBlockSlack> block_buffer{};
  std::array<std::uint8_t, kMaxRate + kBlockSlack> block_before{};
  std::array<std::uint64_t, 25> expected{};

  for (std::size_t pair = 0; pair < kPairsPerEntry; ++pair) {
    const std::size_t misalignment = pair % 8;
    for (auto& word : state_buffer)
      word = rng.next();
    for (std::size_t i = 0; i < block_buffer.size(); i += 8) {
      const std::uint64_t word = rng.next();
      std::memcpy(block_buffer.data() + i, &word, 8);
    }
    const std::uint8_t* const block = block_buffer.data() + misalignment;
    REQUIRE(reinterpret_cast<std::uintptr_t>(block) % 8 == misalignment);
    const auto guards_before = state_buffer;
    block_before = block_buffer;
    std::copy(state, state + 25, expected.begin());
    reference_call(expected.data(), block, entry);

    entry.call(state, block);
    ++result.pairs;
    ++result.per_misalignment[misalignment];

    std::ostringstream why;
    if (!std::equal(expected.begin(), expected.end(), state)) {
      ++result.wrong_state;
      const auto lane = std::mismatch(expected.begin(), expected.end(), state).first;
      why << "state differs from portable at lane " << (lane - expected.begin());
    }
    if (!std::equal(state_buffer.begin(), state_buffer.begin() + kGuardWords,
                    guards_before.begin()) ||
        !std::equal(state_buffer.end() - kGuardWords, state_buffer.end(),
                    guards_before.end() - kGuardWords)) {
      ++result.wrote_guard;
      why << " wrote a guard word around the state;";
    }
    if (block_buffer != block_before) {
      ++result.wrote_block;
      why << " wrote into the block buffer;";
    }
    if (!why.str().empty() && result.first_failure.empty()) {
      result.first_failure = entry.name() + " pair " + std::to_string(pair) + " (misalignment " +
                             std::to_string(misalignment) + "): " + why.str();
    }
  }
  return result;
}

}  // namespace

TEST_CASE("the portable reference itself: Keccak-f[1600] of the zero state") {
  std::array<std::uint64_t, 25> state{};
  sponge::detail::keccak_f1600_portable(state.data());
  // FIPS 202 / Keccak team KeccakF-1600-IntermediateValues.txt, first permutation.
  CHECK(state[0] == 0xF1258F7940E1DDE7ull);
  CHECK(state[1] == 0x84D5CCF933C0478Aull);
  CHECK(state[24] == 0xEAF1FF7B5CECA249ull);
}

TEST_CASE("the runtime's CPU checks agree with the expected runnable kernels") {
  const ExpectedKernels expected = expected_runnable_kernels();
  INFO("expected runnable kernels from " << expected.source);
  REQUIRE_MESSAGE(!expected.source.empty(),
                  "cross build: set SPONGE_EXPECTED_RUNNABLE_KERNELS (e.g. arm64-sha3,portable "
                  "under QEMU_CPU=max); scripts/test does");
  MESSAGE("expected runnable kernels: " << expected.source);
  std::vector<std::string> compiled;
  for (const KeccakKernel* kernel : sponge::detail::compiled_kernels()) {
    compiled.emplace_back(kernel->name);
    const bool expected_runnable = std::find(expected.names.begin(), expected.names.end(),
                                             kernel->name) != expected.names.end();
    INFO("kernel " << kernel->name);
    CHECK(kernel->cpu_supports() == expected_runnable);
    if (kernel->name == "amd64-bmi2") {
      CHECK(kernel->cpu_supports() == cpu_has_bmi1_bmi2_independently());
    }
  }
  // Every expected name is a compiled kernel (a typo must not pass as "not runnable").
  CHECK(join_names(missing_kernels(expected, compiled)) == "");
}

TEST_CASE("every entry of every runnable kernel equals the portable reference") {
  const ExpectedKernels expected = expected_runnable_kernels();
  REQUIRE(!expected.source.empty());
  sponge_test::Rng rng(0x5eed'4b45'524e'454cull);
  std::vector<std::string> tested;
  for (const KeccakKernel* kernel : runnable_kernels()) {
    std::size_t kernel_pairs = 0;
    for (const Entry& entry : entries_of(*kernel)) {
      const EntryResult result = check_entry(entry, rng);
      INFO(entry.name() << ": " << result.first_failure);
      CHECK(result.pairs == kPairsPerEntry);
      CHECK(result.pairs >= 10000);
      for (std::size_t misalignment = 0; misalignment < 8; ++misalignment) {
        INFO("misalignment " << misalignment);
        CHECK(result.per_misalignment[misalignment] == kPairsPerEntry / 8);
      }
      CHECK(result.wrong_state == 0);
      CHECK(result.wrote_guard == 0);
      CHECK(result.wrote_block == 0);
      kernel_pairs += result.pairs;
    }
    MESSAGE(kernel->name << ": " << kernel_pairs << " (state, block) pairs checked against "
                         << "portable (" << kPairsPerEntry << " per entry, " << kEntryCount
                         << " entries, misalignments 0..7)");
    CHECK(kernel_pairs == kPairsPerEntry * kEntryCount);
    tested.emplace_back(kernel->name);
  }
  // The test must not pass vacuously: every kernel expected to run here was tested.
  INFO("expected runnable kernels from " << expected.source << "; tested: " << join_names(tested));
  CHECK(join_names(missing_kernels(expected, tested)) == "");
  if (cpu_has_bmi1_bmi2_independently()) {
    CHECK(join_names(missing_kernels({{"amd64-bmi2"}, "cpuid"}, tested)) == "");
  }
}

TEST_CASE("permute_for and absorb_for pick the table's entry for each round count and rate") {
  for (const KeccakKernel* kernel : sponge::detail::compiled_kernels()) {
    INFO(kernel->name);
    CHECK((kernel->permute_for(24) == kernel->permute));
    CHECK((kernel->permute_for(12) == kernel->permute12));
    CHECK((kernel->permute_for(12) != kernel->permute_for(24)));
    for (std::size_t slot = 0; slot < sponge::detail::kRateCount; ++slot) {
      CHECK((kernel->absorb_for(sponge::detail::kRates[slot], 24) == kernel->absorb[slot]));
      CHECK((kernel->absorb_for(sponge::detail::kRates[slot]) == kernel->absorb[slot]));
    }
    for (std::size_t slot = 0; slot < sponge::detail::kRate12Count; ++slot) {
      CHECK((kernel->absorb_for(sponge::detail::kRates12[slot], 12) == kernel->absorb12[slot]));
      CHECK((kernel->absorb12[slot] != nullptr));
    }
  }
}

TEST_CASE("the Keccak family's active kernel is active_kernel()") {
  CHECK(sponge::active_kernel(sponge::KernelFamily::keccak_p1600) == sponge::active_kernel());
}
