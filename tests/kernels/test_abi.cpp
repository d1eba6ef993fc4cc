// System V ABI conformance of every entry of every runnable kernel, through the assembly
// shim of abi_shim_amd64.S: callee-saved registers (rbx rbp r12-r15) hold canaries across
// the call, rsp comes back unchanged, the direction flag is clear on return, and the state
// still equals the portable reference. A deliberately wrong callee proves the shim sees
// each kind of violation.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>

#include "abi_shim.hpp"
#include "kernel_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sponge_kernel_test;

constexpr int kCanarySets = 64;

}  // namespace

TEST_CASE("the ABI shim reports a callee that breaks the ABI (negative control)") {
  std::array<std::uint64_t, 25> state{};
  std::array<std::uint8_t, 168> block{};
  AbiObservation observed{};
  for (int i = 0; i < 6; ++i)
    observed.canary[i] = 0x1111111111111111ull * static_cast<std::uint64_t>(i + 1);
  const std::uint64_t rsp_delta = sponge_test_call_with_canaries(
      reinterpret_cast<void*>(&sponge_test_bad_callee), state.data(), block.data(), &observed);
  CHECK(observed.after[0] != observed.canary[0]);  // rbx
  CHECK(observed.after[1] == observed.canary[1]);  // rbp
  CHECK(observed.after[2] == observed.canary[2]);  // r12
  CHECK(observed.after[3] != observed.canary[3]);  // r13
  CHECK(observed.after[4] == observed.canary[4]);  // r14
  CHECK(observed.after[5] == observed.canary[5]);  // r15
  CHECK(observed.rsp_after == observed.rsp_before - 8);
  CHECK(rsp_delta == static_cast<std::uint64_t>(-8));
  CHECK((observed.rflags_after & kDirectionFlag) != 0);
  CHECK(observed.rsp_before % 16 == 0);  // the shim calls with an aligned stack
}

TEST_CASE("every entry of every runnable kernel keeps the System V ABI") {
  sponge_test::Rng rng(0xab1'ca11'0000'0001ull);
  std::size_t calls = 0, non_portable_calls = 0;
  for (const KeccakKernel* kernel : runnable_kernels()) {
    for (const Entry& entry : entries_of(*kernel)) {
      for (int set = 0; set < kCanarySets; ++set) {
        AbiObservation observed{};
        for (auto& canary : observed.canary) {
          canary = set == 0 ? ~std::uint64_t{0} : rng.next();
        }
        std::array<std::uint64_t, 25> state{}, expected{};
        for (auto& lane : state)
          lane = rng.next();
        alignas(8) std::array<std::uint8_t, 168 + 8> block_buffer{};
        for (auto& byte : block_buffer)
          byte = static_cast<std::uint8_t>(rng.next());
        const std::uint8_t* block = block_buffer.data() + set % 8;
        expected = state;
        reference_call(expected.data(), block, entry.rate);

        const std::uint64_t rsp_delta =
            sponge_test_call_with_canaries(entry.address(), state.data(), block, &observed);
        ++calls;
        if (kernel->name != "portable") ++non_portable_calls;

        INFO(entry.name() << ", canary set " << set);
        for (int reg = 0; reg < 6; ++reg) {
          INFO("register " << kCalleeSavedNames[reg]);
          CHECK(observed.after[reg] == observed.canary[reg]);
        }
        CHECK(observed.rsp_before % 16 == 0);
        CHECK(observed.rsp_after == observed.rsp_before);
        CHECK(rsp_delta == 0);
        CHECK((observed.rflags_after & kDirectionFlag) == 0);
        CHECK(state == expected);
      }
    }
  }
  MESSAGE(calls << " calls through the ABI shim (" << non_portable_calls
                << " into non-portable kernels)");
  CHECK(calls > 0);
  if (cpu_has_bmi1_bmi2_independently()) CHECK(non_portable_calls > 0);
}
