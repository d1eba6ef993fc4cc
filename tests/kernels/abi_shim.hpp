// The ABI probes of abi_shim_amd64.S (System V AMD64), abi_shim_win64.S (Windows x64),
// abi_shim_arm64.S (AAPCS64) and abi_shim_riscv64.S (the RISC-V psABI, LP64D): the same
// interface on all, so test_abi.cpp serves all.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sponge_kernel_test {

#if defined(_WIN32) && defined(__x86_64__)

// Windows x64 preserves rdi, rsi and xmm6-xmm15 besides System V's six; each xmm register is
// observed as two 64-bit words.
inline constexpr int kCalleeSavedCount = 28;
inline constexpr const char* kCalleeSavedNames[kCalleeSavedCount] = {
    "rbx",      "rbp",      "r12",      "r13",      "r14",      "r15",      "rdi",
    "rsi",      "xmm6.lo",  "xmm6.hi",  "xmm7.lo",  "xmm7.hi",  "xmm8.lo",  "xmm8.hi",
    "xmm9.lo",  "xmm9.hi",  "xmm10.lo", "xmm10.hi", "xmm11.lo", "xmm11.hi", "xmm12.lo",
    "xmm12.hi", "xmm13.lo", "xmm13.hi", "xmm14.lo", "xmm14.hi", "xmm15.lo", "xmm15.hi"};
inline constexpr const char* kAbiName = "Windows x64";
inline constexpr std::uint64_t kDirectionFlag = 1u << 10;
// What sponge_test_bad_callee breaks: rbx, r13, rdi and both words of xmm6; rsp 8 bytes low.
inline constexpr int kBadCalleeClobbers[] = {0, 3, 6, 8, 9};
inline constexpr std::uint64_t kBadCalleeSpShift = 8;

// Layout shared with abi_shim_win64.S; see the comment there.
struct AbiObservation {
  std::uint64_t canary[kCalleeSavedCount];
  std::uint64_t after[kCalleeSavedCount];
  std::uint64_t sp_before;
  std::uint64_t sp_after;
  std::uint64_t rflags_after;
};
static_assert(offsetof(AbiObservation, after) == 224);
static_assert(offsetof(AbiObservation, sp_before) == 448);
static_assert(offsetof(AbiObservation, sp_after) == 456);
static_assert(offsetof(AbiObservation, rflags_after) == 464);

#elif defined(__x86_64__)

inline constexpr int kCalleeSavedCount = 6;
inline constexpr const char* kCalleeSavedNames[kCalleeSavedCount] = {"rbx", "rbp", "r12",
                                                                     "r13", "r14", "r15"};
inline constexpr const char* kAbiName = "System V AMD64";
inline constexpr std::uint64_t kDirectionFlag = 1u << 10;
// What sponge_test_bad_callee breaks: rbx and r13; rsp 8 bytes low.
inline constexpr int kBadCalleeClobbers[] = {0, 3};
inline constexpr std::uint64_t kBadCalleeSpShift = 8;

// Layout shared with abi_shim_amd64.S; see the comment there.
struct AbiObservation {
  std::uint64_t canary[kCalleeSavedCount];  // rbx rbp r12 r13 r14 r15 before the call
  std::uint64_t after[kCalleeSavedCount];   // the same registers after the call
  std::uint64_t sp_before;                  // rsp
  std::uint64_t sp_after;
  std::uint64_t rflags_after;
};
static_assert(offsetof(AbiObservation, after) == 48);
static_assert(offsetof(AbiObservation, sp_before) == 96);
static_assert(offsetof(AbiObservation, sp_after) == 104);
static_assert(offsetof(AbiObservation, rflags_after) == 112);

#elif defined(__aarch64__)

inline constexpr int kCalleeSavedCount = 18;
inline constexpr const char* kCalleeSavedNames[kCalleeSavedCount] = {
    "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27",
    "x28", "d8",  "d9",  "d10", "d11", "d12", "d13", "d14", "d15"};
inline constexpr const char* kAbiName = "AAPCS64";
// What sponge_test_bad_callee breaks: x19, x24, d9 and d15; sp 16 bytes low.
inline constexpr int kBadCalleeClobbers[] = {0, 5, 11, 17};
inline constexpr std::uint64_t kBadCalleeSpShift = 16;

// Layout shared with abi_shim_arm64.S; see the comment there.
struct AbiObservation {
  std::uint64_t canary[kCalleeSavedCount];  // x19-x28, then d8-d15, before the call
  std::uint64_t after[kCalleeSavedCount];   // the same registers after the call
  std::uint64_t sp_before;
  std::uint64_t sp_after;
};
static_assert(offsetof(AbiObservation, after) == 144);
static_assert(offsetof(AbiObservation, sp_before) == 288);
static_assert(offsetof(AbiObservation, sp_after) == 296);

#elif defined(__riscv) && __riscv_xlen == 64

inline constexpr int kCalleeSavedCount = 24;
inline constexpr const char* kCalleeSavedNames[kCalleeSavedCount] = {
    "s0",  "s1",  "s2",  "s3",  "s4",  "s5",  "s6",  "s7",  "s8",  "s9",  "s10",  "s11",
    "fs0", "fs1", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11"};
inline constexpr const char* kAbiName = "RISC-V psABI (LP64D)";
// What sponge_test_bad_callee breaks: s0, s5, fs1 and fs11; sp 16 bytes low.
inline constexpr int kBadCalleeClobbers[] = {0, 5, 13, 23};
inline constexpr std::uint64_t kBadCalleeSpShift = 16;

// Layout shared with abi_shim_riscv64.S; see the comment there.
struct AbiObservation {
  std::uint64_t canary[kCalleeSavedCount];  // s0-s11, then fs0-fs11, before the call
  std::uint64_t after[kCalleeSavedCount];   // the same registers after the call
  std::uint64_t sp_before;
  std::uint64_t sp_after;
};
static_assert(offsetof(AbiObservation, after) == 192);
static_assert(offsetof(AbiObservation, sp_before) == 384);
static_assert(offsetof(AbiObservation, sp_after) == 392);

#else
#error "no ABI shim for this architecture"
#endif

}  // namespace sponge_kernel_test

// Calls entry(state, block, third, fourth) with observed->canary in the callee-saved
// registers; returns sp after the call minus sp before it (0 for a correct callee). Keccak
// entries take two arguments (pass junk as the other two); Ascon's mode entries take a
// block count or an output pointer as the third and a block count as the fourth.
extern "C" std::uint64_t sponge_test_call_with_canaries(
    void* entry, std::uint64_t* state, const std::uint8_t* block,
    sponge_kernel_test::AbiObservation* observed, std::uint64_t third, std::uint64_t fourth);

namespace sponge_kernel_test {
// What the unused argument registers hold when a Keccak entry is called through the shim.
inline constexpr std::uint64_t kJunkThird = 0x0bad0bad0bad0d0dull;
inline constexpr std::uint64_t kJunkFourth = 0x0bad0bad0bad0c0cull;
}  // namespace sponge_kernel_test
// The shim's negative control, a callee that breaks the ABI on purpose (kBadCalleeClobbers):
//   amd64: clobbers rbx and r13 (Windows: rdi and xmm6 too), sets DF, returns with rsp 8
//          bytes low.
//   arm64: clobbers x19, x24, d9 and d15, returns with sp 16 bytes low.
//   riscv64: clobbers s0, s5, fs1 and fs11, returns with sp 16 bytes low.
extern "C" void sponge_test_bad_callee(std::uint64_t* state, const std::uint8_t* block);
