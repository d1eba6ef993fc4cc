// Zeroing the stack a callee has just released: the frames of functions that held secret
// state (compiler spills of lanes, locals of unoptimised builds) are dead but not cleared.
#pragma once

#include <cstddef>
#include <cstring>

namespace sponge::detail {

// Zeroes `Bytes` of stack directly below the caller's frame, where the frames of the
// functions it called lay. Not inlined, so its own frame starts where theirs did; the
// empty asm makes the array's contents observable, so the stores cannot be dropped. Not
// instrumented by AddressSanitizer, which would put a redzone above the array: the top of
// the released frames would stay uncleared.
template <std::size_t Bytes>
[[gnu::noinline, gnu::no_sanitize_address]] void wipe_released_stack() noexcept {
  unsigned char area[Bytes];
  std::memset(area, 0, Bytes);
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

}  // namespace sponge::detail
