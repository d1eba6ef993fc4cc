// Compiled with `sponge` renamed (bench/CMakeLists.txt), beside the runtime's portable sources
// compiled the same way: takes the entries of that copy's portable kernels.
#include "portable_native.hpp"

#include "ascon/ascon_kernel.hpp"
#include "keccak/keccak_kernel.hpp"

namespace sponge::detail {
extern const KeccakKernel kPortableKernel;
extern const AsconKernel kAsconPortableKernel;
}  // namespace sponge::detail

const PortableNativeEntries& portable_native_entries() noexcept {
  using sponge::detail::kAsconPortableKernel;
  using sponge::detail::kPortableKernel;
  static_assert(std::size(kPortableKernel.absorb) ==
                std::size(PortableNativeEntries{}.keccak_absorb));
  static_assert(std::size(kPortableKernel.absorb12) ==
                std::size(PortableNativeEntries{}.keccak_absorb12));
  static const PortableNativeEntries entries = {
      kPortableKernel.permute,
      {kPortableKernel.absorb[0], kPortableKernel.absorb[1], kPortableKernel.absorb[2],
       kPortableKernel.absorb[3], kPortableKernel.absorb[4]},
      kPortableKernel.permute12,
      {kPortableKernel.absorb12[0], kPortableKernel.absorb12[1]},
      kAsconPortableKernel.permute12,
      kAsconPortableKernel.permute8,
      kAsconPortableKernel.permute6,
      kAsconPortableKernel.absorb_hash,
      kAsconPortableKernel.absorb_ad,
      kAsconPortableKernel.encrypt,
      kAsconPortableKernel.decrypt,
  };
  return entries;
}
