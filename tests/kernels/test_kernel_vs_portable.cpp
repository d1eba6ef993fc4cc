// Every entry of every compiled kernel this CPU can run, against the portable reference:
// 10,000 random (state, block) pairs per entry, blocks at every misalignment 0..7, with
// guard words around the state and a watched copy of the block buffer, so a kernel that
// writes outside the 25 lanes or into its input fails too.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>

#include "kernel_test_support.hpp"
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
    reference_call(expected.data(), block, entry.rate);

    entry.call(state, block);
    ++result.pairs;

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

TEST_CASE("the runtime's CPU checks agree with the configure-time decision") {
  const auto configured = configured_runnable_kernels();
  MESSAGE("configured runnable kernels: " << SPONGE_RUNNABLE_KERNELS);
  for (const KeccakKernel* kernel : sponge::detail::compiled_kernels()) {
    const bool configured_runnable =
        std::find(configured.begin(), configured.end(), kernel->name) != configured.end();
    INFO("kernel " << kernel->name);
    CHECK(kernel->cpu_supports() == configured_runnable);
    if (kernel->name == "amd64-bmi2") {
      CHECK(kernel->cpu_supports() == cpu_has_bmi1_bmi2_independently());
    }
  }
}

TEST_CASE("every entry of every runnable kernel equals the portable reference") {
  sponge_test::Rng rng(0x5eed'4b45'524e'454cull);
  std::size_t non_portable_tested = 0;
  for (const KeccakKernel* kernel : runnable_kernels()) {
    std::size_t kernel_pairs = 0;
    for (const Entry& entry : entries_of(*kernel)) {
      const EntryResult result = check_entry(entry, rng);
      INFO(entry.name() << ": " << result.first_failure);
      CHECK(result.pairs == kPairsPerEntry);
      CHECK(result.wrong_state == 0);
      CHECK(result.wrote_guard == 0);
      CHECK(result.wrote_block == 0);
      kernel_pairs += result.pairs;
    }
    MESSAGE(kernel->name << ": " << kernel_pairs << " (state, block) pairs checked against "
                         << "portable (" << kPairsPerEntry << " per entry, "
                         << 1 + sponge::detail::kRateCount << " entries)");
    CHECK(kernel_pairs == kPairsPerEntry * (1 + sponge::detail::kRateCount));
    if (kernel->name != "portable") ++non_portable_tested;
  }
  // The test must not pass vacuously on a CPU that has a fast kernel.
  if (cpu_has_bmi1_bmi2_independently()) {
    CHECK(non_portable_tested >= 1);
  }
  for (const std::string& name : configured_runnable_kernels()) {
    if (name != "portable") {
      INFO("configure-time runnable kernel " << name);
      CHECK(non_portable_tested >= 1);
    }
  }
}
