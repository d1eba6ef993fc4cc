// Declassification for the constant-time test (tests/test_constant_time.cpp): that test runs
// the library under valgrind's memcheck with every secret input marked undefined, so memcheck
// reports each branch and each memory address computed from a secret. A value that is public
// by contract but computed from secrets inside the library (the AEAD verdict) is declared
// defined here, right before the branch on it, and nowhere else.
//
// The hook exists only in the test's own copy of the library, compiled with
// SPONGE_CONSTANT_TIME_TEST (tests/CMakeLists.txt builds it from the library's sources); in
// the library users link it is an empty inline function, so no client request, call or
// symbol is left. A weak function would not do: it is a call the compiler cannot remove (and,
// in a shared library, a PLT call the dynamic linker may bind lazily while secrets are in
// registers), and a macro that reads an environment variable would be a branch.
#pragma once

#include <cstddef>

#if defined(SPONGE_CONSTANT_TIME_TEST)
#include <valgrind/memcheck.h>
#endif

namespace sponge::detail {

// Declares the `bytes` bytes at `memory` public: derived from secrets, but released by
// contract. Only values the caller receives anyway may be declassified.
inline void declassify([[maybe_unused]] const void* memory,
                       [[maybe_unused]] std::size_t bytes) noexcept {
#if defined(SPONGE_CONSTANT_TIME_TEST)
  VALGRIND_MAKE_MEM_DEFINED(memory, bytes);
#endif
}

}  // namespace sponge::detail
