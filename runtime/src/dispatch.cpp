// Kernel dispatch: which Keccak-f[1600] kernel this process uses.
//
// The choice is made once, on first use, in a function-local static (thread-safe by the
// C++ memory model); afterwards every permutation costs one indirect call and nothing more.
// SPONGE_KERNEL=<name> forces a kernel. A name that is unknown, or a kernel this CPU cannot
// run, ends the process with a message: silently hashing on another kernel than the one
// asked for would make a test or benchmark report on the wrong code.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "kernel.hpp"
#include "sponge/sponge.hpp"

namespace sponge::detail {

extern const KeccakKernel kPortableKernel;
#if SPONGE_HAVE_AMD64_BMI2
extern const KeccakKernel kAmd64Bmi2Kernel;
#endif
#if SPONGE_HAVE_ARM64_SHA3
extern const KeccakKernel kArm64Sha3Kernel;
#endif

namespace {

// Best first. Every kernel added to the library is listed here and nowhere else.
const KeccakKernel* const kKernels[] = {
#if SPONGE_HAVE_AMD64_BMI2
    &kAmd64Bmi2Kernel,
#endif
#if SPONGE_HAVE_ARM64_SHA3
    &kArm64Sha3Kernel,
#endif
    &kPortableKernel,
};

// The value as a C string literal: quoted, with the quote, the backslash and every byte
// outside printable ASCII escaped, so a trailing space or newline shows and an escape
// sequence in the environment never reaches the terminal.
std::string quoted(std::string_view value) {
  std::string text = "\"";
  for (const char character : value) {
    const auto byte = static_cast<unsigned char>(character);
    switch (byte) {
      case '"':
        text += "\\\"";
        break;
      case '\\':
        text += "\\\\";
        break;
      case '\n':
        text += "\\n";
        break;
      case '\r':
        text += "\\r";
        break;
      case '\t':
        text += "\\t";
        break;
      default:
        if (byte < 0x20 || byte >= 0x7f) {
          constexpr char kHex[] = "0123456789abcdef";
          text += "\\x";
          text += kHex[byte >> 4];
          text += kHex[byte & 0xf];
        } else {
          text += character;
        }
    }
  }
  return text + "\"";
}

[[noreturn]] void fail_kernel_choice(const std::string& message) noexcept {
  std::string known;
  for (const KeccakKernel* kernel : kKernels) {
    if (!known.empty()) known += ", ";
    known += kernel->name;
  }
  std::fprintf(stderr, "sponge: %s (kernels in this build: %s)\n", message.c_str(), known.c_str());
  std::abort();
}

const KeccakKernel& choose_kernel() noexcept {
  // Unset and empty both mean "choose": `SPONGE_KERNEL= program` undoes an export.
  const char* forced = std::getenv("SPONGE_KERNEL");
  if (forced == nullptr || *forced == '\0') {
    for (const KeccakKernel* kernel : kKernels) {
      if (kernel->cpu_supports()) return *kernel;
    }
    return kPortableKernel;
  }
  for (const KeccakKernel* kernel : kKernels) {
    if (kernel->name != forced) continue;
    if (!kernel->cpu_supports()) {
      fail_kernel_choice("SPONGE_KERNEL=" + quoted(forced) + " names a kernel this CPU cannot run");
    }
    return *kernel;
  }
  fail_kernel_choice("SPONGE_KERNEL=" + quoted(forced) + " names no kernel");
}

}  // namespace

PermuteFn KeccakKernel::permute_for(int rounds) const noexcept {
  if (rounds == kFullRounds) return permute;
  if (rounds == kReducedRounds) return permute_reduced_rounds;
  std::abort();  // unreachable: the sponge only uses kFullRounds and kReducedRounds
}

AbsorbFn KeccakKernel::absorb_for(std::size_t rate_bytes, int rounds) const noexcept {
  static_assert(kRates[0] == 72 && kRates[1] == 104 && kRates[2] == 136 && kRates[3] == 144 &&
                    kRates[4] == 168,
                "the cases below follow kRates");
  static_assert(kReducedRoundRates[0] == 136 && kReducedRoundRates[1] == 168,
                "the cases below follow kReducedRoundRates");
  if (rounds == kFullRounds) {
    switch (rate_bytes) {
      case 72:
        return absorb[0];
      case 104:
        return absorb[1];
      case 136:
        return absorb[2];
      case 144:
        return absorb[3];
      case 168:
        return absorb[4];
    }
  } else if (rounds == kReducedRounds) {
    switch (rate_bytes) {
      case 136:
        return absorb_reduced_rounds[0];
      case 168:
        return absorb_reduced_rounds[1];
    }
  }
  std::abort();  // unreachable: the sponge only uses the (rate, rounds) pairs above
}

std::span<const KeccakKernel* const> compiled_kernels() noexcept {
  return kKernels;
}

const KeccakKernel& active_keccak_kernel() noexcept {
  static const KeccakKernel& chosen = choose_kernel();
  return chosen;
}

}  // namespace sponge::detail

namespace sponge {

void keccak_f1600(std::uint64_t state[25]) noexcept {
  detail::active_keccak_kernel().permute(state);
}

std::string_view active_kernel() noexcept {
  return detail::active_keccak_kernel().name;
}

}  // namespace sponge
