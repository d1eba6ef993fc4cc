// Kernel dispatch: which kernel of each permutation family this process uses.
//
// The choice is made once per family, on first use, in a function-local static (thread-safe
// by the C++ memory model); afterwards every permutation costs one indirect call and nothing
// more. SPONGE_KERNEL=<name> forces a Keccak-p[1600] kernel, SPONGE_ASCON_KERNEL=<name> an
// Ascon-p[320] kernel, SPONGE_BATCH_KERNEL=<name> the multi-state kernel of the batch hashes. A
// name that is unknown, or a kernel this CPU cannot run, ends the process with a message: silently
// hashing on another kernel than the one asked for would make a test or benchmark report on the
// wrong code.
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

#include "arm64_core_choice.hpp"
#include "ascon_kernel.hpp"
#include "batch_kernel.hpp"
#include "dispatch.hpp"
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
#if SPONGE_HAVE_ARM64_SCALAR
extern const KeccakKernel kArm64ScalarKernel;
#endif

// The batch kernels (batch_kernel.hpp). A generated batch kernel is declared and listed
// below under its SPONGE_HAVE_ macro, which runtime/CMakeLists.txt sets where it links it.
#if SPONGE_HAVE_AMD64_AVX512_X8
extern const KeccakBatchKernel kAmd64Avx512X8BatchKernel;
#endif
#if SPONGE_HAVE_AMD64_AVX512_X4
extern const KeccakBatchKernel kAmd64Avx512X4BatchKernel;
#endif
#if SPONGE_HAVE_AMD64_AVX2_X4
extern const KeccakBatchKernel kAmd64Avx2X4BatchKernel;
#endif
#if SPONGE_HAVE_ARM64_SHA3_X2
extern const KeccakBatchKernel kArm64Sha3X2BatchKernel;
#endif
extern const KeccakBatchKernel kPortableX4BatchKernel;
extern const KeccakBatchKernel kSingleBatchKernel;

extern const AsconKernel kAsconPortableKernel;
#if SPONGE_HAVE_AMD64_BMI2
extern const AsconKernel kAsconAmd64Bmi2Kernel;
#endif
#if SPONGE_HAVE_ASCON_ARM64
extern const AsconKernel kAsconArm64Kernel;
#endif

namespace {

// Best first where CPU features alone decide. Every kernel added to the library is listed
// here and nowhere else. On arm64 the SHA3 kernel comes first but is the default only on
// the cores arm64_core_choice.cpp rates for it.
const KeccakKernel* const kKernels[] = {
#if SPONGE_HAVE_AMD64_BMI2
    &kAmd64Bmi2Kernel,
#endif
#if SPONGE_HAVE_ARM64_SHA3
    &kArm64Sha3Kernel,
#endif
#if SPONGE_HAVE_ARM64_SCALAR
    &kArm64ScalarKernel,
#endif
    &kPortableKernel,
};

// The Ascon-p[320] kernels, best first; a generated Ascon kernel is listed here and nowhere
// else, like the Keccak kernels above.
const AsconKernel* const kAsconKernels[] = {
#if SPONGE_HAVE_AMD64_BMI2
    &kAsconAmd64Bmi2Kernel,
#endif
#if SPONGE_HAVE_ASCON_ARM64
    &kAsconArm64Kernel,
#endif
    &kAsconPortableKernel,
};

// The batch kernels, best first: the generated multi-state kernels, then portable-x4 (chosen
// only by name), then single (always runnable: one message at a time on the active kernel).
// A new generated batch kernel is one line here and its file in runtime/CMakeLists.txt.
const KeccakBatchKernel* const kBatchKernels[] = {
#if SPONGE_HAVE_AMD64_AVX512_X8
    &kAmd64Avx512X8BatchKernel,
#endif
#if SPONGE_HAVE_AMD64_AVX512_X4
    &kAmd64Avx512X4BatchKernel,  // the four-stream SHAKE objects' kernel where x8 runs
#endif
#if SPONGE_HAVE_AMD64_AVX2_X4
    &kAmd64Avx2X4BatchKernel,
#endif
#if SPONGE_HAVE_ARM64_SHA3_X2
    &kArm64Sha3X2BatchKernel,
#endif
    &kPortableX4BatchKernel,  // only by name
    &kSingleBatchKernel,
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

// The Keccak-p[1600] family's override variable.
constexpr const char* kKeccakKernelVariable = "SPONGE_KERNEL";
// The Ascon-p[320] family's override variable.
constexpr const char* kAsconKernelVariable = "SPONGE_ASCON_KERNEL";
// The batch family's override variable.
constexpr const char* kBatchKernelVariable = "SPONGE_BATCH_KERNEL";

// The first batch kernel this CPU runs that may be chosen without being named.
std::string_view default_batch_kernel() noexcept {
  for (const KeccakBatchKernel* kernel : kBatchKernels) {
    if (kernel->chosen_by_default && kernel->cpu_supports()) return kernel->name;
  }
  return kSingleBatchKernel.name;
}

}  // namespace

void fail_kernel_choice(const char* variable, std::string_view value, std::string_view problem,
                        const std::string& known) noexcept {
  std::fprintf(stderr, "sponge: %s=%s %.*s (kernels in this build: %s)\n", variable,
               quoted(value).c_str(), static_cast<int>(problem.size()), problem.data(),
               known.c_str());
  std::abort();
}

PermuteFn KeccakKernel::permute_for(int rounds) const noexcept {
  switch (rounds) {
    case kFullRounds:
      return permute;
    case kReducedRounds:
      return permute12;
  }
  std::abort();  // unreachable: the modes only use 24 and 12 rounds
}

AbsorbFn KeccakKernel::absorb_for(std::size_t rate_bytes, int rounds) const noexcept {
  const std::span<const std::size_t> rates = rounds == kFullRounds
                                                 ? std::span<const std::size_t>(kRates)
                                                 : std::span<const std::size_t>(kRates12);
  const AbsorbFn* entries = rounds == kFullRounds ? absorb : absorb12;
  if (rounds == kFullRounds || rounds == kReducedRounds) {
    for (std::size_t slot = 0; slot < rates.size(); ++slot) {
      if (rates[slot] == rate_bytes) return entries[slot];
    }
  }
  std::abort();  // unreachable: the modes only use the rates of kRates and kRates12
}

std::span<const KeccakKernel* const> compiled_kernels() noexcept {
  return kKernels;
}

std::string_view preferred_keccak_kernel() noexcept {
#if SPONGE_HAVE_ARM64_SHA3 && SPONGE_HAVE_ARM64_SCALAR
  return arm64_keccak_kernel_for_this_machine(kArm64Sha3Kernel.cpu_supports());
#else
  return {};
#endif
}

const KeccakKernel& active_keccak_kernel() noexcept {
  static const KeccakKernel& chosen = choose_kernel<KeccakKernel>(
      kKeccakKernelVariable, std::span(kKernels), preferred_keccak_kernel());
  return chosen;
}

std::span<const KeccakBatchKernel* const> compiled_batch_kernels() noexcept {
  return kBatchKernels;
}

// choose_kernel's `preferred` is the default: portable-x4 is runnable everywhere but must
// not win by being first.
const KeccakBatchKernel& active_batch_kernel() noexcept {
  static const KeccakBatchKernel& chosen = choose_kernel<KeccakBatchKernel>(
      kBatchKernelVariable, std::span(kBatchKernels), default_batch_kernel());
  return chosen;
}

std::span<const AsconKernel* const> ascon_compiled_kernels() noexcept {
  return kAsconKernels;
}

const AsconKernel& active_ascon_kernel() noexcept {
  static const AsconKernel& chosen =
      choose_kernel<AsconKernel>(kAsconKernelVariable, std::span(kAsconKernels));
  return chosen;
}

}  // namespace sponge::detail

namespace sponge {

void keccak_f1600(std::uint64_t state[25]) noexcept {
  detail::active_keccak_kernel().permute(state);
}

std::string_view active_kernel() noexcept {
  return active_kernel(KernelFamily::keccak_p1600);
}

std::string_view active_kernel(KernelFamily family) noexcept {
  switch (family) {
    case KernelFamily::keccak_p1600:
      return detail::active_keccak_kernel().name;
    case KernelFamily::ascon_p320:
      return detail::active_ascon_kernel().name;
    case KernelFamily::keccak_p1600_batch:
      return detail::active_batch_kernel().name;
  }
  std::abort();  // unreachable: every family is a case above
}

}  // namespace sponge
