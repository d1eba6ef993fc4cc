// Every entry of every compiled batch kernel this CPU runs (batch_kernel.hpp), against N runs
// of the portable single-state permutation: random lane-interleaved states and random blocks,
// one block per call (the block entries: 0 to kMaxBlocks blocks), each state's blocks at its
// own misalignment 0..7, separate or all aliasing one buffer, with guard words around the
// states and watched copies of the blocks. A generated batch kernel is tested here as soon as
// it is in dispatch.cpp's batch kernel list.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#if defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

#if defined(__riscv) && __riscv_xlen == 64 && defined(__linux__)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include "dispatch/riscv_extensions.hpp"
#endif

#include "batch/batch_kernel.hpp"
#include "kernel_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using sponge::detail::KeccakBatchKernel;
using namespace sponge_kernel_test;

constexpr std::size_t kTrialsPerEntry = 400;
constexpr std::size_t kGuardWords = 8;
constexpr std::size_t kMaxRate = 168;
// The block entries' loop at every count up to this, 0 included (a call that must leave the
// states as they were).
constexpr std::size_t kMaxBlocks = 5;

// Returns the first failure, or "".
std::string check_entry(const BatchEntry& entry, sponge_test::Rng& rng) {
  const int n = entry.kernel->states;
  const std::size_t words = 25 * static_cast<std::size_t>(n);
  std::vector<std::uint64_t> buffer(words + 2 * kGuardWords);
  std::uint64_t* const states = buffer.data() + kGuardWords;
  std::vector<std::vector<std::uint8_t>> block_buffers(
      static_cast<std::size_t>(n), std::vector<std::uint8_t>(kMaxBlocks * kMaxRate + 8));
  for (std::size_t trial = 0; trial < kTrialsPerEntry; ++trial) {
    for (auto& word : buffer)
      word = rng.next();
    for (auto& block_buffer : block_buffers) {
      for (auto& byte : block_buffer)
        byte = static_cast<std::uint8_t>(rng.next());
    }
    const bool aliased = trial % 5 == 4;  // every slot reads slot 0's blocks
    // Counted by trial / 5, so every count meets both the aliased and the separate blocks.
    const std::size_t block_count = entry.rate == 0    ? 0
                                    : entry.block_loop ? (trial / 5) % (kMaxBlocks + 1)
                                                       : 1;
    std::vector<const std::uint8_t*> blocks(static_cast<std::size_t>(n));
    for (int s = 0; s < n; ++s) {
      const std::size_t misalignment = (trial + static_cast<std::size_t>(s)) % 8;
      blocks[static_cast<std::size_t>(s)] =
          block_buffers[aliased ? 0 : static_cast<std::size_t>(s)].data() + misalignment;
    }
    const auto blocks_before = block_buffers;
    std::vector<std::uint64_t> expected(buffer);
    batch_reference_call(expected.data() + kGuardWords, blocks.data(), entry, block_count);
    entry.call(states, blocks.data(), block_count);
    const std::string where = entry.name() + " trial " + std::to_string(trial) + " (" +
                              std::to_string(block_count) + " blocks" +
                              (aliased ? ", aliased" : "") + "): ";
    if (!std::equal(buffer.begin() + kGuardWords, buffer.end() - kGuardWords,
                    expected.begin() + kGuardWords)) {
      const auto lane =
          std::mismatch(buffer.begin() + kGuardWords, buffer.end(), expected.begin() + kGuardWords)
              .first -
          (buffer.begin() + kGuardWords);
      return where + "word " + std::to_string(lane) + " (lane " + std::to_string(lane / n) +
             " of state " + std::to_string(lane % n) + ") differs from portable";
    }
    if (buffer != expected) return where + "wrote a guard word around the states";
    if (block_buffers != blocks_before) return where + "wrote into a block";
  }
  return "";
}

// Whether the CPU (and OS) has `feature` ("avx2", "avx512f", "avx512vl"; on arm64 Linux
// "sha3"), asked through the compiler's runtime or the kernel's hwcaps, not the dispatcher's
// code.
bool cpu_has_independently([[maybe_unused]] std::string_view feature) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (feature == "avx2") return __builtin_cpu_supports("avx2");
  if (feature == "avx512f") return __builtin_cpu_supports("avx512f");
  if (feature == "avx512vl") return __builtin_cpu_supports("avx512vl");
  FAIL("no independent check of " << feature);
#elif defined(__aarch64__) && defined(__linux__)
  if (feature == "sha3") return (getauxval(AT_HWCAP) & HWCAP_SHA3) != 0;
  FAIL("no independent check of " << feature);
#endif
  return false;
}

}  // namespace

TEST_CASE("every entry of every runnable batch kernel equals N runs of the portable reference") {
  sponge_test::Rng rng(0xBA7C'4B45'524Eull);
  std::size_t tested = 0;
  for (const KeccakBatchKernel* kernel : sponge::detail::compiled_batch_kernels()) {
    if (kernel->name == "amd64-avx2-x4") {
      CHECK(kernel->cpu_supports() == cpu_has_independently("avx2"));
    }
    if (kernel->name == "amd64-avx512-x8") {
      CHECK(kernel->cpu_supports() == cpu_has_independently("avx512f"));
    }
    if (kernel->name == "amd64-avx512-x4") {
      CHECK(kernel->cpu_supports() ==
            (cpu_has_independently("avx512f") && cpu_has_independently("avx512vl")));
    }
    // Under an emulator the run states which generated batch kernels its CPU runs (the
    // riscv64 vector kernels by VLEN: riscv64-v-x2 at 128 bits, -x4 from 256, -x8 from 512).
    if (const char* listed = std::getenv("SPONGE_EXPECTED_RUNNABLE_BATCH_KERNELS");
        listed != nullptr && kernel->name != "portable-x4" && kernel->name != "single") {
      const std::vector<std::string> names = split_kernel_list(listed);
      INFO("SPONGE_EXPECTED_RUNNABLE_BATCH_KERNELS=" << listed << ", kernel " << kernel->name);
      CHECK(kernel->cpu_supports() ==
            (std::find(names.begin(), names.end(), kernel->name) != names.end()));
    }
    if (!kernel->cpu_supports()) {
      MESSAGE("batch kernel " << kernel->name << ": compiled, but this CPU cannot run it");
      continue;
    }
    for (const BatchEntry& entry : batch_entries_of(*kernel)) {
      const std::string failure = check_entry(entry, rng);
      INFO(failure);
      CHECK(failure.empty());
    }
    MESSAGE("batch kernel " << kernel->name << " (" << kernel->states
                            << " states): " << kTrialsPerEntry << " trials of each of its "
                            << batch_entries_of(*kernel).size() << " entries match portable");
    ++tested;
  }
  // portable-x4 and single run everywhere.
  CHECK(tested >= 2);
}

TEST_CASE("absorb_for and permute_for pick the batch table's entries") {
  for (const KeccakBatchKernel* kernel : sponge::detail::compiled_batch_kernels()) {
    INFO(kernel->name);
    CHECK(kernel->states >= 1);
    CHECK(kernel->states <= sponge::detail::kMaxBatchStates);
    CHECK((kernel->permute_for(24) == kernel->permute));
    CHECK((kernel->permute_for(12) == kernel->permute12));
    for (std::size_t slot = 0; slot < sponge::detail::kRateCount; ++slot)
      CHECK((kernel->absorb_for(sponge::detail::kRates[slot], 24) == kernel->absorb[slot]));
    for (std::size_t slot = 0; slot < sponge::detail::kRate12Count; ++slot)
      CHECK((kernel->absorb_for(sponge::detail::kRates12[slot], 12) == kernel->absorb12[slot]));
    for (std::size_t slot = 0; slot < sponge::detail::kRateCount; ++slot) {
      CHECK((kernel->absorb_blocks_for(sponge::detail::kRates[slot], 24) ==
             kernel->absorb_blocks[slot]));
    }
    for (std::size_t slot = 0; slot < sponge::detail::kRate12Count; ++slot) {
      CHECK((kernel->absorb_blocks_for(sponge::detail::kRates12[slot], 12) ==
             kernel->absorb_blocks12[slot]));
    }
  }
}

// The batch scheduler falls back to one-block calls where a kernel has no block entry, so a
// table that lost them would still hash right, only slower: this is where that shows.
TEST_CASE("the generated batch kernels this CPU runs have their block entries") {
  std::size_t checked = 0;
  for (const KeccakBatchKernel* kernel : sponge::detail::compiled_batch_kernels()) {
    if (kernel->name != "amd64-avx512-x8" && kernel->name != "amd64-avx512-x4" &&
        kernel->name != "amd64-avx2-x4" && kernel->name != "arm64-sha3-x2" &&
        !kernel->name.starts_with("riscv64-v-x")) {
      continue;
    }
    if (!kernel->cpu_supports()) continue;
    INFO(kernel->name);
    for (const int rounds : {sponge::detail::kFullRounds, sponge::detail::kReducedRounds}) {
      for (const std::size_t rate : {std::size_t{136}, std::size_t{168}}) {
        INFO(rounds << " rounds, rate " << rate);
        CHECK((kernel->absorb_blocks_for(rate, rounds) != nullptr));
      }
    }
    ++checked;
  }
#if defined(__x86_64__)
  // All three are compiled into every amd64 build; the CPU decides whether they run.
  const std::size_t expected =
      (cpu_has_independently("avx2") ? 1 : 0) + (cpu_has_independently("avx512f") ? 1 : 0) +
      (cpu_has_independently("avx512f") && cpu_has_independently("avx512vl") ? 1 : 0);
  CHECK(checked == expected);
#elif defined(__aarch64__) && defined(__linux__)
  CHECK(checked == (cpu_has_independently("sha3") ? 1u : 0u));
#elif defined(__riscv) && __riscv_xlen == 64 && defined(__linux__)
  // riscv64-v-x2, -x4 and -x8 are compiled in; V and the VLEN decide which run.
  using namespace sponge::detail;
  std::size_t fitting = 0;
  if (riscv_extension_present(riscv_extension_sources(), kRiscvHwprobeImaV, "v")) {
    for (const unsigned states : {2u, 4u, 8u})
      fitting += 64u * states <= riscv_vlen_bits() ? 1 : 0;
  }
  INFO("V and VLEN allow " << fitting << " vector kernels");
  CHECK(checked == fitting);
#endif
}

#if defined(__riscv) && __riscv_xlen == 64 && defined(__linux__)
// A vector kernel's entry called where the CPU's VLEN holds fewer states than it permutes
// must stop at its trap (unimp: SIGILL) instead of permuting fewer states. The dispatcher
// never calls it there (its CPU check asks for the VLEN); this calls it directly, in a child.
TEST_CASE("a riscv64 vector entry called where VLEN is too small traps") {
  using namespace sponge::detail;
  if (!riscv_extension_present(riscv_extension_sources(), kRiscvHwprobeImaV, "v")) {
    MESSAGE("no V: no vector entry to call");
    return;
  }
  const unsigned vlen = riscv_vlen_bits();
  std::size_t too_wide = 0, trapped = 0;
  for (const KeccakBatchKernel* kernel : compiled_batch_kernels()) {
    if (!kernel->name.starts_with("riscv64-v-x")) continue;
    INFO(kernel->name << " at VLEN " << vlen);
    const bool fits = 64u * static_cast<unsigned>(kernel->states) <= vlen;
    CHECK(kernel->cpu_supports() == fits);
    if (fits) continue;
    ++too_wide;
    std::vector<std::uint64_t> states(25u * static_cast<std::size_t>(kernel->states));
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      const rlimit no_core{0, 0};
      setrlimit(RLIMIT_CORE, &no_core);
      std::signal(SIGILL, SIG_DFL);  // not doctest's handler: the parent reads the signal
      kernel->permute(states.data());
      _exit(0);
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status));
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGILL) ++trapped;
  }
  MESSAGE(trapped << " of " << too_wide << " vector kernels too wide for VLEN " << vlen
                  << " trapped");
  CHECK(trapped == too_wide);
}
#endif
