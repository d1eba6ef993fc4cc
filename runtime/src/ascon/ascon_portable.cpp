// The portable Ascon-p[320] kernel: the permutations and the mode entries, each with the
// five words in locals for the whole call, so across many blocks the state stays in
// registers as a generated kernel keeps it.
//
// Each entry is a non-inlined body, whose frame holds whatever the compiler spilled (state
// words among it), and a wrapper that clears the stack below itself after the body returns:
// the wipe rule (see keccak_portable.cpp and wipe.hpp) for a state that is a key's image.
#include "ascon/ascon_portable.hpp"

#include "support/byte_order.hpp"
#include "support/wipe.hpp"

namespace sponge::detail {
namespace {

// A bound on the stack an entry's body uses below its wrapper: a few saved registers and
// spills at -O2/-O3 (GCC 12, x86-64 and AArch64); unoptimised and sanitised builds keep every
// local in memory, with redzones. tests/test_residue.cpp checks the bound holds on every
// build scripts/test makes.
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kAsconBodyStackBytes = 256;
#else
constexpr std::size_t kAsconBodyStackBytes = 8192;
#endif

AsconWords load_words(const std::uint64_t* state) noexcept {
  return {state[0], state[1], state[2], state[3], state[4]};
}

void store_words(std::uint64_t* state, const AsconWords& s) noexcept {
  state[0] = s.x0;
  state[1] = s.x1;
  state[2] = s.x2;
  state[3] = s.x3;
  state[4] = s.x4;
}

template <int Rounds>
[[gnu::noinline]] void permute_body(std::uint64_t* state) noexcept {
  AsconWords s = load_words(state);
  ascon_rounds<ascon_first_round(Rounds)>(s);
  store_words(state, s);
}

// Hash, XOF and CXOF: 8-byte blocks into x0, P12 after each.
[[gnu::noinline]] void absorb_hash_body(std::uint64_t* state, const std::uint8_t* blocks,
                                        std::size_t block_count) noexcept {
  AsconWords s = load_words(state);
  for (; block_count != 0; --block_count, blocks += 8) {
    s.x0 ^= load_le64(blocks);
    ascon_rounds<ascon_first_round(12)>(s);
  }
  store_words(state, s);
}

// AEAD associated data: 16-byte blocks into x0, x1, P8 after each.
[[gnu::noinline]] void absorb_ad_body(std::uint64_t* state, const std::uint8_t* blocks,
                                      std::size_t block_count) noexcept {
  AsconWords s = load_words(state);
  for (; block_count != 0; --block_count, blocks += 16) {
    s.x0 ^= load_le64(blocks);
    s.x1 ^= load_le64(blocks + 8);
    ascon_rounds<ascon_first_round(8)>(s);
  }
  store_words(state, s);
}

// Encryption: the ciphertext is the rate after the plaintext is XORed in. Both input words
// are loaded before an output word is stored, so `out` may be `in`.
[[gnu::noinline]] void encrypt_body(std::uint64_t* state, const std::uint8_t* in, std::uint8_t* out,
                                    std::size_t block_count) noexcept {
  AsconWords s = load_words(state);
  for (; block_count != 0; --block_count, in += 16, out += 16) {
    s.x0 ^= load_le64(in);
    s.x1 ^= load_le64(in + 8);
    store_le64(out, s.x0);
    store_le64(out + 8, s.x1);
    ascon_rounds<ascon_first_round(8)>(s);
  }
  store_words(state, s);
}

// Decryption: plaintext = rate ^ ciphertext, and the ciphertext becomes the rate.
[[gnu::noinline]] void decrypt_body(std::uint64_t* state, const std::uint8_t* in, std::uint8_t* out,
                                    std::size_t block_count) noexcept {
  AsconWords s = load_words(state);
  for (; block_count != 0; --block_count, in += 16, out += 16) {
    const std::uint64_t c0 = load_le64(in);
    const std::uint64_t c1 = load_le64(in + 8);
    store_le64(out, s.x0 ^ c0);
    store_le64(out + 8, s.x1 ^ c1);
    s.x0 = c0;
    s.x1 = c1;
    ascon_rounds<ascon_first_round(8)>(s);
  }
  store_words(state, s);
}

}  // namespace

void ascon_p12_portable(std::uint64_t* state) noexcept {
  permute_body<12>(state);
  wipe_released_stack_and_registers<kAsconBodyStackBytes>();
}

void ascon_p8_portable(std::uint64_t* state) noexcept {
  permute_body<8>(state);
  wipe_released_stack_and_registers<kAsconBodyStackBytes>();
}

void ascon_p6_portable(std::uint64_t* state) noexcept {
  permute_body<6>(state);
  wipe_released_stack_and_registers<kAsconBodyStackBytes>();
}

void ascon_absorb_hash_portable(std::uint64_t* state, const std::uint8_t* blocks,
                                std::size_t block_count) noexcept {
  absorb_hash_body(state, blocks, block_count);
  wipe_released_stack_and_registers<kAsconBodyStackBytes>();
}

void ascon_absorb_ad_portable(std::uint64_t* state, const std::uint8_t* blocks,
                              std::size_t block_count) noexcept {
  absorb_ad_body(state, blocks, block_count);
  wipe_released_stack_and_registers<kAsconBodyStackBytes>();
}

void ascon_encrypt_portable(std::uint64_t* state, const std::uint8_t* in, std::uint8_t* out,
                            std::size_t block_count) noexcept {
  encrypt_body(state, in, out, block_count);
  wipe_released_stack_and_registers<kAsconBodyStackBytes>();
}

void ascon_decrypt_portable(std::uint64_t* state, const std::uint8_t* in, std::uint8_t* out,
                            std::size_t block_count) noexcept {
  decrypt_body(state, in, out, block_count);
  wipe_released_stack_and_registers<kAsconBodyStackBytes>();
}

void ascon_p320_rounds_portable(std::uint64_t* state, int first_round, int end_round) noexcept {
  AsconWords s = load_words(state);
  for (int round = first_round; round < end_round; ++round)
    ascon_round(s, round);
  store_words(state, s);
}

}  // namespace sponge::detail
