// Calling-convention conformance of every entry of every runnable kernel, through an
// assembly shim (abi_shim_amd64.S for System V AMD64, abi_shim_win64.S for Windows x64,
// abi_shim_arm64.S for AAPCS64, abi_shim_riscv64.S for the RISC-V psABI): the callee-saved
// registers (rbx rbp r12-r15, on Windows also rdi rsi xmm6-xmm15; x19-x28 and d8-d15;
// s0-s11 and fs0-fs11) hold canaries across the
// call, the stack pointer comes back unchanged, on amd64 the direction flag is clear on
// return, and the state still equals the portable reference. A deliberately wrong callee
// proves the shim sees each kind of violation.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "abi_shim.hpp"
#include "ascon/ascon_kernel.hpp"
#include "kernel_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sponge_kernel_test;

constexpr int kCanarySets = 64;

// Distinct canaries: set 0 is all ones, the others random with the register's index in the
// top byte, so no two registers of a set hold the same value.
void fill_canaries(AbiObservation& observed, int set, sponge_test::Rng& rng) {
  for (int reg = 0; reg < kCalleeSavedCount; ++reg) {
    const std::uint64_t value = set == 0 ? ~std::uint64_t{0} : rng.next();
    observed.canary[reg] =
        (value & 0x00ff'ffff'ffff'ffffull) | (static_cast<std::uint64_t>(0xc0 + reg) << 56);
  }
}

// The callee-saved registers that came back changed in at least one canary set, by name.
std::string clobbered_names(const std::array<int, kCalleeSavedCount>& clobbered_sets) {
  std::string names;
  for (int reg = 0; reg < kCalleeSavedCount; ++reg) {
    if (clobbered_sets[reg] == 0) continue;
    names.append(names.empty() ? "" : " ").append(kCalleeSavedNames[reg]);
  }
  return names;
}

}  // namespace

TEST_CASE("the ABI shim reports a callee that breaks the ABI (negative control)") {
  std::array<std::uint64_t, 25> state{};
  std::array<std::uint8_t, 168> block{};
  AbiObservation observed{};
  for (int i = 0; i < kCalleeSavedCount; ++i)
    observed.canary[i] = 0x0101010101010101ull * static_cast<std::uint64_t>(i + 1);
  const std::uint64_t sp_delta =
      sponge_test_call_with_canaries(reinterpret_cast<void*>(&sponge_test_bad_callee), state.data(),
                                     block.data(), &observed, kJunkThird, kJunkFourth);
#if defined(__x86_64__)
  CHECK((observed.rflags_after & kDirectionFlag) != 0);
#endif
  constexpr std::uint64_t kSpShift = kBadCalleeSpShift;
  for (int reg = 0; reg < kCalleeSavedCount; ++reg) {
    INFO("register " << std::string(kCalleeSavedNames[reg]));
    bool expect_clobbered = false;
    for (const int index : kBadCalleeClobbers)
      expect_clobbered = expect_clobbered || index == reg;
    CHECK((observed.after[reg] != observed.canary[reg]) == expect_clobbered);
  }
  CHECK(observed.sp_after == observed.sp_before - kSpShift);
  CHECK(sp_delta == static_cast<std::uint64_t>(0) - kSpShift);
  CHECK(observed.sp_before % 16 == 0);  // the shim calls with an aligned stack
}

TEST_CASE("every entry of every runnable kernel keeps the calling convention") {
  MESSAGE("calling convention: " << std::string(kAbiName));
  const ExpectedKernels expected = expected_runnable_kernels();
  REQUIRE_MESSAGE(!expected.source.empty(),
                  "cross build: set SPONGE_EXPECTED_RUNNABLE_KERNELS; scripts/test does");
  sponge_test::Rng rng(0xab1'ca11'0000'0001ull);
  std::size_t calls = 0, non_portable_calls = 0;
  std::vector<std::string> tested;
  for (const KeccakKernel* kernel : runnable_kernels()) {
    tested.emplace_back(kernel->name);
    for (const Entry& entry : entries_of(*kernel)) {
      // Per entry: which callee-saved registers came back changed, in how many canary sets.
      std::array<int, kCalleeSavedCount> clobbered_sets{};
      int sp_changed = 0, sp_misaligned = 0, state_wrong = 0, direction_flag_set = 0;
      for (int set = 0; set < kCanarySets; ++set) {
        AbiObservation observed{};
        fill_canaries(observed, set, rng);
        std::array<std::uint64_t, 25> state{}, expected_state{};
        for (auto& lane : state)
          lane = rng.next();
        alignas(8) std::array<std::uint8_t, 168 + 8> block_buffer{};
        for (auto& byte : block_buffer)
          byte = static_cast<std::uint8_t>(rng.next());
        const std::uint8_t* block = block_buffer.data() + set % 8;
        expected_state = state;
        reference_call(expected_state.data(), block, entry);

        const std::uint64_t sp_delta = sponge_test_call_with_canaries(
            entry.address(), state.data(), block, &observed, kJunkThird, kJunkFourth);
        ++calls;
        if (kernel->name != "portable") ++non_portable_calls;

        for (int reg = 0; reg < kCalleeSavedCount; ++reg) {
          if (observed.after[reg] != observed.canary[reg]) ++clobbered_sets[reg];
        }
        if (observed.sp_after != observed.sp_before || sp_delta != 0) ++sp_changed;
        if (observed.sp_before % 16 != 0) ++sp_misaligned;
#if defined(__x86_64__)
        if ((observed.rflags_after & kDirectionFlag) != 0) ++direction_flag_set;
#endif
        if (state != expected_state) ++state_wrong;
      }
      const std::string not_preserved = clobbered_names(clobbered_sets);
      INFO(entry.name() << " over " << kCanarySets << " canary sets");
      CHECK_MESSAGE(not_preserved == "", entry.name() << " does not preserve the callee-saved "
                                                      << "registers " << not_preserved);
      CHECK(sp_changed == 0);
      CHECK(sp_misaligned == 0);
      CHECK(direction_flag_set == 0);
      CHECK(state_wrong == 0);
    }
  }
  MESSAGE(calls << " calls through the ABI shim (" << non_portable_calls
                << " into non-portable kernels); kernels: " << join_names(tested));
  CHECK(calls > 0);
  INFO("expected runnable kernels from " << expected.source);
  CHECK(join_names(missing_kernels(expected, tested)) == "");
  if (cpu_has_bmi1_bmi2_independently()) CHECK(non_portable_calls > 0);
}

// The Ascon-p[320] kernels' entries through the same shim: the mode entries take a block
// count and an output pointer, so those argument registers carry real values here.
TEST_CASE("every entry of every runnable Ascon kernel keeps the calling convention") {
  using sponge::detail::AsconKernel;
  sponge_test::Rng rng(0xab1'ca11'0000'0002ull);
  const AsconKernel& portable = *sponge::detail::ascon_compiled_kernels().back();
  REQUIRE(portable.name == "portable");
  struct AsconEntryCase {
    const char* name;
    void* (*address)(const AsconKernel&);
    int kind;  // 0 permute, 1 absorb, 2 encrypt/decrypt
    std::size_t rate;
  };
  const AsconEntryCase cases[] = {
      {"p12", [](const AsconKernel& k) { return reinterpret_cast<void*>(k.permute12); }, 0, 0},
      {"p8", [](const AsconKernel& k) { return reinterpret_cast<void*>(k.permute8); }, 0, 0},
      {"p6", [](const AsconKernel& k) { return reinterpret_cast<void*>(k.permute6); }, 0, 0},
      {"absorb_hash", [](const AsconKernel& k) { return reinterpret_cast<void*>(k.absorb_hash); },
       1, 8},
      {"absorb_ad", [](const AsconKernel& k) { return reinterpret_cast<void*>(k.absorb_ad); }, 1,
       16},
      {"encrypt", [](const AsconKernel& k) { return reinterpret_cast<void*>(k.encrypt); }, 2, 16},
      {"decrypt", [](const AsconKernel& k) { return reinterpret_cast<void*>(k.decrypt); }, 2, 16},
  };
  std::size_t calls = 0;
  for (const AsconKernel* kernel : sponge::detail::ascon_compiled_kernels()) {
    if (!kernel->cpu_supports()) continue;
    for (const AsconEntryCase& entry : cases) {
      std::array<int, kCalleeSavedCount> clobbered_sets{};
      int sp_changed = 0, wrong = 0;
      for (int set = 0; set < kCanarySets; ++set) {
        AbiObservation observed{};
        fill_canaries(observed, set, rng);
        std::array<std::uint64_t, 5> state{}, expected{};
        for (auto& word : state)
          word = rng.next();
        expected = state;
        const std::size_t blocks = static_cast<std::size_t>(set % 4);
        alignas(8) std::array<std::uint8_t, 3 * 16 + 8> in{}, out{}, expected_out{};
        for (auto& byte : in)
          byte = static_cast<std::uint8_t>(rng.next());
        const std::uint8_t* input = in.data() + set % 8;
        std::uint64_t third = kJunkThird, fourth = kJunkFourth;
        if (entry.kind == 1) third = blocks;
        if (entry.kind == 2) {
          third = reinterpret_cast<std::uintptr_t>(out.data());
          fourth = blocks;
        }
        // The reference: the portable kernel's same entry, called directly.
        void* const reference = entry.address(portable);
        if (entry.kind == 0) {
          reinterpret_cast<void (*)(std::uint64_t*)>(reference)(expected.data());
        } else if (entry.kind == 1) {
          reinterpret_cast<void (*)(std::uint64_t*, const std::uint8_t*, std::size_t)>(reference)(
              expected.data(), input, blocks);
        } else {
          reinterpret_cast<void (*)(std::uint64_t*, const std::uint8_t*, std::uint8_t*,
                                    std::size_t)>(reference)(expected.data(), input,
                                                             expected_out.data(), blocks);
        }
        const std::uint64_t sp_delta = sponge_test_call_with_canaries(
            entry.address(*kernel), state.data(), input, &observed, third, fourth);
        ++calls;
        for (int reg = 0; reg < kCalleeSavedCount; ++reg) {
          if (observed.after[reg] != observed.canary[reg]) ++clobbered_sets[reg];
        }
        if (observed.sp_after != observed.sp_before || sp_delta != 0) ++sp_changed;
        if (state != expected || out != expected_out) ++wrong;
      }
      const std::string not_preserved = clobbered_names(clobbered_sets);
      INFO(kernel->name << " " << entry.name << " over " << kCanarySets << " canary sets");
      CHECK_MESSAGE(not_preserved == "", kernel->name << " " << entry.name
                                                      << " does not preserve the callee-saved "
                                                      << "registers " << not_preserved);
      CHECK(sp_changed == 0);
      CHECK(wrong == 0);
    }
  }
  MESSAGE(calls << " calls of Ascon entries through the ABI shim");
  CHECK(calls >= 7 * kCanarySets);
}

// The multi-state (batch) kernels' entries through the same shim: the second argument is the
// array of block pointers, one per state, and the block entries' third their block count. The
// generated ones hold lanes in vector registers (AVX2 ymm0-ymm13, arm64 v0-v31 with d8-d15 saved),
// so the d8-d15 canaries matter on arm64; on amd64 the direction flag must come back clear after
// the vector code too.
TEST_CASE("every entry of every runnable batch kernel keeps the calling convention") {
  using sponge::detail::KeccakBatchKernel;
  sponge_test::Rng rng(0xab1'ca11'0000'0003ull);
  std::size_t calls = 0;
  std::vector<std::string> tested;
  for (const KeccakBatchKernel* kernel : sponge::detail::compiled_batch_kernels()) {
    if (!kernel->cpu_supports()) {
      MESSAGE("batch kernel " << kernel->name << ": compiled, but this CPU cannot run it");
      continue;
    }
    tested.emplace_back(kernel->name);
    const auto words = static_cast<std::size_t>(25 * kernel->states);
    for (const BatchEntry& entry : batch_entries_of(*kernel)) {
      std::array<int, kCalleeSavedCount> clobbered_sets{};
      int sp_changed = 0, wrong = 0, direction_flag_set = 0;
      for (int set = 0; set < kCanarySets; ++set) {
        AbiObservation observed{};
        fill_canaries(observed, set, rng);
        std::vector<std::uint64_t> states(words), expected(words);
        for (auto& lane : states)
          lane = rng.next();
        expected = states;
        // The block entries loop over 0 to 3 blocks; amd64-avx512-x8's push r12-r14 around it.
        const auto block_count = static_cast<std::size_t>(set % 4);
        alignas(8) std::uint8_t block_buffers[sponge::detail::kMaxBatchStates][3 * 168 + 8];
        const std::uint8_t* blocks[sponge::detail::kMaxBatchStates];
        for (int s = 0; s < kernel->states; ++s) {
          for (auto& byte : block_buffers[s])
            byte = static_cast<std::uint8_t>(rng.next());
          blocks[s] = block_buffers[s] + (set + s) % 8;
        }
        batch_reference_call(expected.data(), blocks, entry, block_count);
        const std::uint64_t sp_delta = sponge_test_call_with_canaries(
            entry.address(), states.data(), reinterpret_cast<const std::uint8_t*>(blocks),
            &observed, entry.block_loop ? block_count : kJunkThird, kJunkFourth);
        ++calls;
        for (int reg = 0; reg < kCalleeSavedCount; ++reg) {
          if (observed.after[reg] != observed.canary[reg]) ++clobbered_sets[reg];
        }
        if (observed.sp_after != observed.sp_before || sp_delta != 0) ++sp_changed;
#if defined(__x86_64__)
        if ((observed.rflags_after & kDirectionFlag) != 0) ++direction_flag_set;
#endif
        if (states != expected) ++wrong;
      }
      const std::string not_preserved = clobbered_names(clobbered_sets);
      INFO(entry.name() << " over " << kCanarySets << " canary sets");
      CHECK_MESSAGE(not_preserved == "", entry.name() << " does not preserve the callee-saved "
                                                      << "registers " << not_preserved);
      CHECK(sp_changed == 0);
      CHECK(direction_flag_set == 0);
      CHECK(wrong == 0);
    }
  }
  MESSAGE(calls << " calls of batch entries through the ABI shim; kernels: " << join_names(tested));
  CHECK(calls >= 2 * 9 * kCanarySets);  // portable-x4 and single run everywhere
}
