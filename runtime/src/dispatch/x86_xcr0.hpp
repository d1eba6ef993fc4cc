// XCR0, the register state the OS saves across context switches, for the CPU checks of
// the vector kernels (the runtime's dispatcher and the generator's JIT self-check): CPUID
// says what the silicon has, XCR0 what the OS preserves.
#pragma once

#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

namespace sponge::detail {

// XCR0, or 0 when the OS has not enabled XGETBV (OSXSAVE, CPUID leaf 1 ecx bit 27).
inline std::uint64_t os_enabled_xcr0() noexcept {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || (ecx & (1u << 27)) == 0) return 0;
  unsigned low = 0, high = 0;
  __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return (std::uint64_t{high} << 32) | low;
}

}  // namespace sponge::detail
#endif
