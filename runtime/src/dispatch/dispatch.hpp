// Kernel dispatch, generic over permutation families: each family (Keccak-p[1600] today,
// Ascon-p next) has its own table of kernels, best first with an always-runnable kernel
// last, and its own environment variable that forces one by name. Names only need to be
// unique within a family. The rules are the same for every family: unset or empty lets
// the dispatcher choose; an unknown name, or a kernel this CPU cannot run, ends the
// process with a message that quotes the value with C escapes.
#pragma once

#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

namespace sponge::detail {

// Ends the process: "sponge: <variable>=<quoted value> <problem> (kernels in this build: ...)".
[[noreturn]] void fail_kernel_choice(const char* variable, std::string_view value,
                                     std::string_view problem, const std::string& known) noexcept;

// `Kernel` has `std::string_view name` and `bool (*cpu_supports)() noexcept`. Unforced, the
// choice is `preferred` when it names a kernel this CPU runs (a family whose best kernel
// depends on more than CPU features, such as Keccak on arm64, says which), else the first
// kernel in the table this CPU runs.
template <class Kernel>
const Kernel& choose_kernel(const char* variable, std::span<const Kernel* const> kernels,
                            std::string_view preferred = {}) noexcept {
  const char* forced = std::getenv(variable);
  if (forced == nullptr || *forced == '\0') {
    for (const Kernel* kernel : kernels) {
      if (!preferred.empty() && kernel->name == preferred && kernel->cpu_supports()) {
        return *kernel;
      }
    }
    for (const Kernel* kernel : kernels) {
      if (kernel->cpu_supports()) return *kernel;
    }
    return *kernels.back();
  }
  auto known = [&] {
    std::string names;
    for (const Kernel* kernel : kernels)
      names += (names.empty() ? "" : ", ") + std::string(kernel->name);
    return names;
  };
  for (const Kernel* kernel : kernels) {
    if (kernel->name != forced) continue;
    if (!kernel->cpu_supports()) {
      fail_kernel_choice(variable, forced, "names a kernel this CPU cannot run", known());
    }
    return *kernel;
  }
  fail_kernel_choice(variable, forced, "names no kernel", known());
}

}  // namespace sponge::detail
