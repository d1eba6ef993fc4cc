// The kernel dispatcher's public face: Keccak-f[1600] through the chosen kernel, and which kernel
// each permutation family uses (the choice, and the environment variables that force it).
#pragma once

#include "sponge/export.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

SPONGE_API_BEGIN
namespace sponge {

// ---------------------------------------------------------------------------------------
// The permutation and the kernel in use.
// ---------------------------------------------------------------------------------------

// Keccak-f[1600] on 25 lanes, lane (x, y) at index x + 5y, through the dispatcher.
void keccak_f1600(std::uint64_t state[25]) noexcept;

// The name of the kernel the dispatcher chose: "portable", "amd64-bmi2", "arm64-sha3".
// The choice is made once per process, on first use. The environment variable
// SPONGE_KERNEL forces a kernel by name; a name that is unknown or that this CPU cannot run
// ends the process with a message on stderr (a hash must never silently run on a kernel
// other than the one asked for).
std::string_view active_kernel() noexcept;

// The permutation families, each dispatched on its own: its own kernel table and its own
// override variable, with the rules above.
enum class KernelFamily {
  keccak_p1600,  // Keccak-f[1600] and Keccak-p[1600, 12]; forced with SPONGE_KERNEL
  ascon_p320,    // Ascon-p[320] (p12, p8, p6); forced with SPONGE_ASCON_KERNEL
  // The multi-state Keccak-p[1600] kernel of the batch hashes ("portable-x4", "single", a
  // generated kernel such as "amd64-avx2-x4"); forced with SPONGE_BATCH_KERNEL. "single"
  // hashes one message at a time on the keccak_p1600 kernel.
  keccak_p1600_batch,
};
// The kernel chosen for one family; active_kernel() is active_kernel(keccak_p1600).
std::string_view active_kernel(KernelFamily family) noexcept;

}  // namespace sponge
SPONGE_API_END
