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

#include "ascon/ascon_kernel.hpp"
#include "batch/batch_kernel.hpp"
#include "dispatch/arm64_core_choice.hpp"
#include "dispatch/dispatch.hpp"
#include "keccak/keccak_kernel.hpp"
#include "sponge/sponge.hpp"

namespace sponge::detail {

namespace {

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
  for (const KeccakBatchKernel* kernel : compiled_batch_kernels()) {
    if (kernel->chosen_by_default && kernel->cpu_supports()) return kernel->name;
  }
  return compiled_batch_kernels().back()->name;  // single
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
  return absorb_entry_for(absorb, absorb12, rate_bytes, rounds);
}

// Where both arm64 kernels are compiled, the core decides between them.
std::string_view preferred_keccak_kernel() noexcept {
  const KeccakKernel* sha3 = nullptr;
  bool has_scalar = false;
  for (const KeccakKernel* kernel : compiled_kernels()) {
    if (kernel->name == kArm64Sha3KernelName) sha3 = kernel;
    if (kernel->name == kArm64ScalarKernelName) has_scalar = true;
  }
  if (sha3 == nullptr || !has_scalar) return {};
  return arm64_keccak_kernel_for_this_machine(sha3->cpu_supports());
}

const KeccakKernel& active_keccak_kernel() noexcept {
  static const KeccakKernel& chosen = choose_kernel<KeccakKernel>(
      kKeccakKernelVariable, compiled_kernels(), preferred_keccak_kernel());
  return chosen;
}

// choose_kernel's `preferred` is the default: portable-x4 is runnable everywhere but must
// not win by being first.
const KeccakBatchKernel& active_batch_kernel() noexcept {
  static const KeccakBatchKernel& chosen = choose_kernel<KeccakBatchKernel>(
      kBatchKernelVariable, compiled_batch_kernels(), default_batch_kernel());
  return chosen;
}

const AsconKernel& active_ascon_kernel() noexcept {
  static const AsconKernel& chosen =
      choose_kernel<AsconKernel>(kAsconKernelVariable, ascon_compiled_kernels());
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
