// Zeroing memory that held secret state, with straight-line stores: a memset or a plain
// loop of a few hundred bytes becomes `rep stos` at -O2, which costs 65 TSC ticks for
// 512 bytes on an AMD EPYC (Zen 3) against 24 for these stores (measured, see README).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sponge::detail {

// Zeroes `words` with one store each (the compiler merges them into vector stores).
template <std::size_t Count>
inline void zero_words(std::uint64_t (&words)[Count]) noexcept {
#pragma GCC unroll 128
  for (std::uint64_t& word : words)
    word = 0;
}

// Keeps the compiler from dropping stores to memory about to die (a local buffer at the end
// of its scope, an object in its destructor): the empty asm may read it.
inline void keep_stores(const void* memory) noexcept {
  __asm__ __volatile__("" : : "r"(memory) : "memory");
}

// Zeroes the registers a called function may leave as it likes (the caller-saved ones of the
// target's ABI), general-purpose and vector, so that no lane a compiled body held in them
// reaches memory later: the dynamic linker's lazy-binding resolver saves the vector registers
// on the stack, a signal frame saves all of them, and any later spill writes them where nobody
// wipes. The generated kernels clear theirs the same way before they return. Registers a body
// must preserve (callee-saved) were restored to the caller's values by its epilogue. About 20
// instructions, against ~900 TSC ticks of a portable permutation.
//
// On x86-64 the vector registers are cleared whole where the CPU has them, whatever this file
// was compiled for: libc's memcpy and memset, chosen at run time, copy through ymm and (with
// AVX-512) ymm16-31, so a block copied into a state leaves message bytes there.
[[gnu::always_inline]] inline void clear_caller_saved_registers() noexcept {
#if defined(__x86_64__)
#if defined(_WIN32)
  // Windows x64: rax, rcx, rdx, r8-r11 and xmm0-5; xmm6-15 are callee-saved (their upper
  // halves are not, which vzeroupper clears).
  __asm__ volatile(
      "xorl %%eax, %%eax\n\txorl %%ecx, %%ecx\n\txorl %%edx, %%edx\n\t"
      "xorl %%r8d, %%r8d\n\txorl %%r9d, %%r9d\n\txorl %%r10d, %%r10d\n\txorl %%r11d, %%r11d\n\t"
      "pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\tpxor %%xmm2, %%xmm2\n\t"
      "pxor %%xmm3, %%xmm3\n\tpxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5" ::
          : "rax", "rcx", "rdx", "r8", "r9", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
            "xmm5", "cc");
  if (__builtin_cpu_supports("avx")) __asm__ volatile("vzeroupper" ::: "memory");
#else
  // System V: every general-purpose register but rbx, rbp, rsp and r12-r15, and every vector
  // register.
  __asm__ volatile(
      "xorl %%eax, %%eax\n\txorl %%ecx, %%ecx\n\txorl %%edx, %%edx\n\t"
      "xorl %%esi, %%esi\n\txorl %%edi, %%edi\n\txorl %%r8d, %%r8d\n\t"
      "xorl %%r9d, %%r9d\n\txorl %%r10d, %%r10d\n\txorl %%r11d, %%r11d" ::
          : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "cc");
  if (__builtin_cpu_supports("avx")) {
    __asm__ volatile("vzeroall" ::
                         : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
                           "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
  } else {
    __asm__ volatile(
        "pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\tpxor %%xmm2, %%xmm2\n\t"
        "pxor %%xmm3, %%xmm3\n\tpxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
        "pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\tpxor %%xmm8, %%xmm8\n\t"
        "pxor %%xmm9, %%xmm9\n\tpxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
        "pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\tpxor %%xmm14, %%xmm14\n\t"
        "pxor %%xmm15, %%xmm15" ::
            : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
              "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
  }
#endif
  // zmm16-31 are caller-saved in both ABIs. Code compiled without AVX-512 never holds a value
  // there, so they need not be named as clobbered.
  if (__builtin_cpu_supports("avx512f")) {
    __asm__ volatile(
        "vpxord %%zmm16, %%zmm16, %%zmm16\n\tvpxord %%zmm17, %%zmm17, %%zmm17\n\t"
        "vpxord %%zmm18, %%zmm18, %%zmm18\n\tvpxord %%zmm19, %%zmm19, %%zmm19\n\t"
        "vpxord %%zmm20, %%zmm20, %%zmm20\n\tvpxord %%zmm21, %%zmm21, %%zmm21\n\t"
        "vpxord %%zmm22, %%zmm22, %%zmm22\n\tvpxord %%zmm23, %%zmm23, %%zmm23\n\t"
        "vpxord %%zmm24, %%zmm24, %%zmm24\n\tvpxord %%zmm25, %%zmm25, %%zmm25\n\t"
        "vpxord %%zmm26, %%zmm26, %%zmm26\n\tvpxord %%zmm27, %%zmm27, %%zmm27\n\t"
        "vpxord %%zmm28, %%zmm28, %%zmm28\n\tvpxord %%zmm29, %%zmm29, %%zmm29\n\t"
        "vpxord %%zmm30, %%zmm30, %%zmm30\n\tvpxord %%zmm31, %%zmm31, %%zmm31" ::
            : "memory");
  }
#elif defined(__aarch64__)
  // AAPCS64: x0-x17, x18 where it is not the platform's (Linux: GCC allocates it like any
  // temporary, and the portable rounds use it), v0-v7 and v16-v31 whole, and the upper halves of
  // v8-v15, whose low halves (d8-d15) are callee-saved: naming v8-v15 as clobbered makes the
  // compiler save and restore d8-d15 around this.
  __asm__ volatile(
      "mov x0, xzr\n\tmov x1, xzr\n\tmov x2, xzr\n\tmov x3, xzr\n\tmov x4, xzr\n\t"
      "mov x5, xzr\n\tmov x6, xzr\n\tmov x7, xzr\n\tmov x8, xzr\n\tmov x9, xzr\n\t"
      "mov x10, xzr\n\tmov x11, xzr\n\tmov x12, xzr\n\tmov x13, xzr\n\tmov x14, xzr\n\t"
      "mov x15, xzr\n\tmov x16, xzr\n\tmov x17, xzr\n\t"
      "movi v0.16b, #0\n\tmovi v1.16b, #0\n\tmovi v2.16b, #0\n\tmovi v3.16b, #0\n\t"
      "movi v4.16b, #0\n\tmovi v5.16b, #0\n\tmovi v6.16b, #0\n\tmovi v7.16b, #0\n\t"
      "movi v8.16b, #0\n\tmovi v9.16b, #0\n\tmovi v10.16b, #0\n\tmovi v11.16b, #0\n\t"
      "movi v12.16b, #0\n\tmovi v13.16b, #0\n\tmovi v14.16b, #0\n\tmovi v15.16b, #0\n\t"
      "movi v16.16b, #0\n\tmovi v17.16b, #0\n\tmovi v18.16b, #0\n\tmovi v19.16b, #0\n\t"
      "movi v20.16b, #0\n\tmovi v21.16b, #0\n\tmovi v22.16b, #0\n\tmovi v23.16b, #0\n\t"
      "movi v24.16b, #0\n\tmovi v25.16b, #0\n\tmovi v26.16b, #0\n\tmovi v27.16b, #0\n\t"
      "movi v28.16b, #0\n\tmovi v29.16b, #0\n\tmovi v30.16b, #0\n\tmovi v31.16b, #0" ::
          : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13",
            "x14", "x15", "x16", "x17", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9",
            "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21",
            "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31");
#if defined(__linux__)
  __asm__ volatile("mov x18, xzr" ::: "x18");
#endif
#elif defined(__riscv) && __riscv_xlen == 64
  // The RISC-V psABI: t0-t6 and a0-a7, and with the D extension ft0-ft11 and fa0-fa7 (s0-s11
  // and fs0-fs11 are callee-saved). The vector registers, all caller-saved, hold nothing of
  // code compiled without V, which this library and Debian's riscv64 libc are.
  __asm__ volatile(
      "li t0, 0\n\tli t1, 0\n\tli t2, 0\n\tli t3, 0\n\tli t4, 0\n\t"
      "li t5, 0\n\tli t6, 0\n\tli a0, 0\n\tli a1, 0\n\tli a2, 0\n\t"
      "li a3, 0\n\tli a4, 0\n\tli a5, 0\n\tli a6, 0\n\tli a7, 0" ::
          : "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4", "a5", "a6",
            "a7");
#if defined(__riscv_flen) && __riscv_flen >= 64
  __asm__ volatile(
      "fmv.d.x ft0, zero\n\tfmv.d.x ft1, zero\n\tfmv.d.x ft2, zero\n\tfmv.d.x ft3, zero\n\t"
      "fmv.d.x ft4, zero\n\tfmv.d.x ft5, zero\n\tfmv.d.x ft6, zero\n\tfmv.d.x ft7, zero\n\t"
      "fmv.d.x ft8, zero\n\tfmv.d.x ft9, zero\n\tfmv.d.x ft10, zero\n\tfmv.d.x ft11, zero\n\t"
      "fmv.d.x fa0, zero\n\tfmv.d.x fa1, zero\n\tfmv.d.x fa2, zero\n\tfmv.d.x fa3, zero\n\t"
      "fmv.d.x fa4, zero\n\tfmv.d.x fa5, zero\n\tfmv.d.x fa6, zero\n\tfmv.d.x fa7, zero" ::
          : "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "ft8", "ft9", "ft10", "ft11",
            "fa0", "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7");
#endif
#endif
}

// Zeroes a local buffer that held secret-derived bytes before it goes out of scope, and the
// caller-saved registers, which held its words last.
template <std::size_t Count>
inline void wipe_words(std::uint64_t (&words)[Count]) noexcept {
  zero_words(words);
  keep_stores(words);
  clear_caller_saved_registers();
}

// What a portable body leaves when it returns, cleared: `Bytes` of stack directly below the
// caller's frame, where the frames of the functions it called lay (dead, but not cleared), and
// the caller-saved registers. Not inlined, so its own frame starts where theirs did; the empty
// asm makes the array's contents observable, so the stores cannot be dropped. Not instrumented
// by AddressSanitizer, which would put a redzone above the array and leave the top of the
// released frames uncleared.
template <std::size_t Bytes>
[[gnu::noinline, gnu::no_sanitize_address]] void wipe_released_stack_and_registers() noexcept {
  static_assert(Bytes % 8 == 0);
  std::uint64_t area[Bytes / 8];
  zero_words(area);
  keep_stores(area);
  clear_caller_saved_registers();
}

// Clears the caller-saved registers when it goes out of scope: each public entry point that
// works on a state (what the user's code, or the inline code of the headers, calls) declares
// one first, so none returns to the program with a lane in a caller-saved register. The
// program's own next call through an unbound PLT entry runs the dynamic linker's resolver,
// which saves the vector registers on the stack: the first call to each exported function of
// libsponge.so, or, whatever the link, the first call to any libc function (a printf between
// a KMAC constructor and its update(), which left the key's lanes there). That holds for a
// static link too, where the calls into the library are direct but the program's calls into
// libc are not.
class ClearRegistersOnReturn {
 public:
  ClearRegistersOnReturn() = default;
  ClearRegistersOnReturn(const ClearRegistersOnReturn&) = delete;
  ClearRegistersOnReturn& operator=(const ClearRegistersOnReturn&) = delete;
  ~ClearRegistersOnReturn() { clear_caller_saved_registers(); }
};

// The same, in a shared library (SPONGE_SHARED_LIBRARY) only, for exported member functions
// that the headers never call but the library's entry points call many times per message
// (permute, the block and leaf helpers): the entry point that called them clears as it
// returns, so linked statically they skip the ~20 instructions; exported, a program could
// still call one through its PLT.
class ClearRegistersOnReturnInSharedLibrary {
 public:
  ClearRegistersOnReturnInSharedLibrary() = default;
  ClearRegistersOnReturnInSharedLibrary(const ClearRegistersOnReturnInSharedLibrary&) = delete;
  ClearRegistersOnReturnInSharedLibrary& operator=(const ClearRegistersOnReturnInSharedLibrary&) =
      delete;
#if defined(SPONGE_SHARED_LIBRARY)
  ~ClearRegistersOnReturnInSharedLibrary() {
    clear_caller_saved_registers();
  }
#endif
};

}  // namespace sponge::detail
