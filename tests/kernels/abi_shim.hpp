// The amd64 ABI probe of abi_shim_amd64.S.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sponge_kernel_test {

// Layout shared with abi_shim_amd64.S; see the comment there.
struct AbiObservation {
  std::uint64_t canary[6];  // rbx rbp r12 r13 r14 r15 before the call
  std::uint64_t after[6];   // the same registers after the call
  std::uint64_t rsp_before;
  std::uint64_t rsp_after;
  std::uint64_t rflags_after;
};
static_assert(offsetof(AbiObservation, after) == 48);
static_assert(offsetof(AbiObservation, rsp_before) == 96);
static_assert(offsetof(AbiObservation, rsp_after) == 104);
static_assert(offsetof(AbiObservation, rflags_after) == 112);

inline constexpr const char* kCalleeSavedNames[6] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};
inline constexpr std::uint64_t kDirectionFlag = 1u << 10;

}  // namespace sponge_kernel_test

extern "C" std::uint64_t sponge_test_call_with_canaries(
    void* entry, std::uint64_t* state, const std::uint8_t* block,
    sponge_kernel_test::AbiObservation* observed);
// The shim's negative control: clobbers rbx and r13, sets DF, returns with rsp 8 bytes low.
extern "C" void sponge_test_bad_callee(std::uint64_t* state, const std::uint8_t* block);
