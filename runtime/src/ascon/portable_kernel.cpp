// The portable Ascon kernel as a dispatcher entry, its entry list in the generated lists'
// form (see ascon_kernel.hpp).
#include "ascon/ascon_kernel.hpp"
#include "ascon/ascon_portable.hpp"

namespace sponge::detail {

namespace {

bool always_supported() noexcept {
  return true;
}

#define SPONGE_ASCON_PORTABLE_ENTRIES(X)                        \
  X(permute, "ascon-p320", 12, 0, 1, ascon_p12_portable)        \
  X(permute, "ascon-p320", 8, 0, 1, ascon_p8_portable)          \
  X(permute, "ascon-p320", 6, 0, 1, ascon_p6_portable)          \
  X(absorb, "ascon-p320", 12, 8, 1, ascon_absorb_hash_portable) \
  X(absorb, "ascon-p320", 8, 16, 1, ascon_absorb_ad_portable)   \
  X(encrypt, "ascon-p320", 8, 16, 1, ascon_encrypt_portable)    \
  X(decrypt, "ascon-p320", 8, 16, 1, ascon_decrypt_portable)

constexpr AsconEntry kAsconPortableEntries[] = {SPONGE_ASCON_PORTABLE_ENTRIES(SPONGE_ASCON_ENTRY)};

}  // namespace

extern const AsconKernel kAsconPortableKernel =
    make_ascon_kernel("portable", always_supported, kAsconPortableEntries);

}  // namespace sponge::detail
