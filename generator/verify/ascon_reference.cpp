// The reference the JIT self-check runs for an Ascon entry: the runtime's portable entries.
#include "ascon/ascon_portable.hpp"  // the runtime's portable reference (runtime/src)
#include "kernels/kernel.hpp"

namespace spongegen::kernels {

void ascon_reference_call(const EntryShape& shape, const EntryCall& call) {
  using namespace sponge::detail;
  switch (shape.kind) {
    case EntryKind::permute:
      ascon_p320_rounds_portable(call.state, ascon_first_round(shape.rounds), kAsconMaxRounds);
      return;
    case EntryKind::absorb:
      if (shape.rate_bytes == 8) {
        ascon_absorb_hash_portable(call.state, call.in, call.block_count);
      } else {
        ascon_absorb_ad_portable(call.state, call.in, call.block_count);
      }
      return;
    case EntryKind::encrypt:
      ascon_encrypt_portable(call.state, call.in, call.out, call.block_count);
      return;
    case EntryKind::decrypt:
      ascon_decrypt_portable(call.state, call.in, call.out, call.block_count);
      return;
  }
  throw GenerationError("Ascon reference: unknown entry kind");
}

}  // namespace spongegen::kernels
