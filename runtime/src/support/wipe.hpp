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

// Zeroes a local buffer that held secret-derived bytes before it goes out of scope.
template <std::size_t Count>
inline void wipe_words(std::uint64_t (&words)[Count]) noexcept {
  zero_words(words);
  keep_stores(words);
}

// Zeroes `Bytes` of stack directly below the caller's frame, where the frames of the
// functions it called lay: dead, but not cleared. Not inlined, so its own frame starts where
// theirs did; the empty asm makes the array's contents observable, so the stores cannot be
// dropped. Not instrumented by AddressSanitizer, which would put a redzone above the array
// and leave the top of the released frames uncleared.
template <std::size_t Bytes>
[[gnu::noinline, gnu::no_sanitize_address]] void wipe_released_stack() noexcept {
  static_assert(Bytes % 8 == 0);
  std::uint64_t area[Bytes / 8];
  zero_words(area);
  keep_stores(area);
}

}  // namespace sponge::detail
