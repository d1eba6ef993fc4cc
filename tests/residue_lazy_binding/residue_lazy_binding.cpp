// No lane reaches the stack through the dynamic linker's lazy binding, at any alignment.
//
// The first call through a PLT entry that is not yet bound runs the dynamic linker's
// resolver, which saves the argument and vector registers (x86-64: xsave of every vector
// register) on the stack, where nobody wipes them. A program linked with the static library
// shares its PLT with the library, so the library's own calls into libc (memcpy, memset)
// are bound on their first use, which may be in the middle of a hash with lanes in
// registers. Whether what the resolver saved survives until the scan depends on where its
// save area lands, and that depends on the stack's alignment, which address randomisation
// varies from run to run. So each scenario runs in a fresh process (no PLT entry bound by an
// earlier scenario or by this program), at every 16-byte offset of its first frame from 0 to
// 240 bytes (every alignment modulo 256, whatever the randomised base), and nothing is
// called through the PLT before the scenario: the secret is written by a plain loop, the
// stack painted with plain stores.
//
//   residue_lazy_binding                         every scenario at every offset (the test)
//   residue_lazy_binding <scenario> <offset>     one process: the scenario at that offset
//                                                (offset in 16-byte steps); exit 1 when a
//                                                secret lane is found
//   residue_lazy_binding <scenario> random <n>   n processes at the randomised alignment
//                                                alone (the report's run counts)
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "lazy_binding_driver.hpp"
#include "sponge/sponge.h"
#include "sponge/sponge.hpp"

namespace {

using namespace sponge_test::residue;
using namespace sponge_test::lazy_binding;
namespace lazy_binding = sponge_test::lazy_binding;

// The AEAD scenarios' ciphertext, tag and decrypted plaintext (key || plaintext is the secret).
std::uint8_t ciphertext[lazy_binding::kSecretCapacity];
std::uint8_t opened[lazy_binding::kSecretCapacity];
std::array<std::uint8_t, 16> tag;

// Ascon-AEAD128 of the secret (key || plaintext) with the one-shot function.
void ascon_encrypt(std::size_t bytes) {
  sponge::ascon_aead128_encrypt(
      sponge::AsconAead128Key(secret, 16), sponge::AsconAead128Nonce(lazy_binding::kAsconNonce, 16),
      lazy_binding::kAsconAssociatedData, std::span<const std::uint8_t>(secret + 16, bytes - 16),
      std::span<std::uint8_t>(ciphertext, bytes - 16), tag);
}

std::span<const std::uint8_t> secret_span(std::size_t bytes) {
  return {secret, bytes};
}

// The secret's 64-bit words (little-endian, as Ascon loads them), sorted for find_lanes.
std::vector<TrajectoryLane> secret_words(const Bytes& secret) {
  std::vector<TrajectoryLane> words;
  for (std::size_t i = 0; i + 8 <= secret.size(); i += 8) {
    std::uint64_t word = 0;
    for (std::size_t b = 0; b < 8; ++b)
      word |= static_cast<std::uint64_t>(secret[i + b]) << (8 * b);
    words.push_back({word, 0, 0, static_cast<int>(i / 8)});
  }
  std::sort(words.begin(), words.end(),
            [](const TrajectoryLane& a, const TrajectoryLane& b) { return a.value < b.value; });
  return words;
}

// The program's own first call through an unbound PLT entry (getppid: nothing calls it before),
// made between two calls into the library, as a `printf` between `update()`s would be: the
// resolver saves whatever the library's last call left in the vector registers.
[[gnu::noinline]] void program_lazy_call() {
  const pid_t parent = getppid();
  __asm__ volatile("" : : "r"(parent));
}

Model kmac256_model() {
  return kmac(256, false, bytes_of(kPublicMessage), bytes_of(kCustomization), 64);
}

Model shake256_model() {
  return plain_sponge({136, 0x1F, 64});
}

const Scenario kScenarios[] = {
    {"Sha3_256 hasher of 30 B, digested and destroyed", 30,
     [](std::size_t bytes) {
       sponge::Sha3_256 hasher;
       hasher.update(secret_span(bytes));
       const auto digest = hasher.digest();
       for (std::size_t i = 0; i < digest.size(); ++i)
         output[i] = digest[i];
     },
     sha3_256_model},
    {"one-shot sha3_256 of 30 B", 30,
     [](std::size_t bytes) {
       const auto digest = sponge::sha3_256(secret_span(bytes));
       for (std::size_t i = 0; i < digest.size(); ++i)
         output[i] = digest[i];
     },
     sha3_256_model},
    {"sponge_keccak256 of 2 blocks + 50 B", 2 * 136 + 50,
     [](std::size_t bytes) { sponge_keccak256(secret, bytes, output); },
     [] {
       return plain_sponge({136, 0x01, 32});
     }},
    {"Shake128 hasher of 200 B, 64 B squeezed", 200,
     [](std::size_t bytes) {
       sponge::Shake128 xof;
       xof.update(secret_span(bytes));
       xof.squeeze(std::span<std::uint8_t>(output, 64));
     },
     [] {
       return plain_sponge({168, 0x1F, 64});
     }},
    {"Kmac256 class, 40-byte key", 40,
     [](std::size_t bytes) {
       sponge::Kmac256 mac(secret_span(bytes), kCustomization);
       mac.update(kPublicMessage);
       mac.digest(std::span<std::uint8_t>(output, 64));
     },
     [] { return kmac(256, false, bytes_of(kPublicMessage), bytes_of(kCustomization), 64); }},
    {"sponge_kt128 of 300 B", 300,
     [](std::size_t bytes) {
       sponge_kt128(secret, bytes, kCustomization, sizeof kCustomization, output, 32);
     },
     [] { return kangarootwelve(168, 32, bytes_of(kCustomization), 32); }},
    {"Kt256 class of 9,000 B (two leaves)", 9000,
     [](std::size_t bytes) {
       sponge::Kt256 xof(kCustomization);
       xof.update(secret_span(bytes));
       xof.squeeze(std::span<std::uint8_t>(output, 64));
     },
     [] { return kangarootwelve(136, 64, bytes_of(kCustomization), 64); }},
    {"sponge_kmacxof128, 32-byte key", 32,
     [](std::size_t bytes) {
       sponge_kmacxof128(secret, bytes, kPublicMessage, sizeof kPublicMessage, kCustomization,
                         sizeof kCustomization, output, 48);
     },
     [] { return kmac(128, true, bytes_of(kPublicMessage), bytes_of(kCustomization), 48); }},
    {"TupleHash256 class of two halves of 300 B", 300,
     [](std::size_t bytes) {
       sponge::TupleHash256 tuple(kCustomization);
       tuple.add(secret_span(bytes).first(bytes / 2)).add(secret_span(bytes).subspan(bytes / 2));
       tuple.digest(std::span<std::uint8_t>(output, 64));
     },
     [] { return tuplehash(256, false, bytes_of(kCustomization), 64); }},
    {"ParallelHash128 class of 1,000 B, B = 64", 1000,
     [](std::size_t bytes) {
       sponge::ParallelHash128 hash(64, kCustomization);
       hash.update(secret_span(bytes));
       hash.digest(std::span<std::uint8_t>(output, 32));
     },
     [] { return parallelhash(128, false, 64, bytes_of(kCustomization), 32); }},
    {"Kmac256 class, 40-byte key, program's lazy call after the constructor", 40,
     [](std::size_t bytes) {
       sponge::Kmac256 mac(secret_span(bytes), kCustomization);
       program_lazy_call();
       mac.update(kPublicMessage);
       mac.digest(std::span<std::uint8_t>(output, 64));
     },
     kmac256_model},
    {"Kmac256 class, 40-byte key, program's lazy call after update()", 40,
     [](std::size_t bytes) {
       sponge::Kmac256 mac(secret_span(bytes), kCustomization);
       mac.update(kPublicMessage);
       program_lazy_call();
       mac.digest(std::span<std::uint8_t>(output, 64));
     },
     kmac256_model},
    {"Sha3_256 hasher of 200 B, program's lazy call after update()", 200,
     [](std::size_t bytes) {
       sponge::Sha3_256 hasher;
       hasher.update(secret_span(bytes));
       program_lazy_call();
       const auto digest = hasher.digest();
       for (std::size_t i = 0; i < digest.size(); ++i)
         output[i] = digest[i];
     },
     [] {
       return plain_sponge({136, 0x06, 32});
     }},
    {"Shake256 hasher of 2 x 100 B, program's lazy call between", 200,
     [](std::size_t bytes) {
       sponge::Shake256 xof;
       xof.update(secret_span(bytes).first(bytes / 2));
       program_lazy_call();
       xof.update(secret_span(bytes).subspan(bytes / 2));
       xof.squeeze(std::span<std::uint8_t>(output, 64));
     },
     shake256_model},
    {"sponge_kmac256, 32-byte key, program's lazy call after it", 32,
     [](std::size_t bytes) {
       sponge_kmac256(secret, bytes, kPublicMessage, sizeof kPublicMessage, kCustomization,
                      sizeof kCustomization, output, 64);
       program_lazy_call();
     },
     kmac256_model},
    {"sponge_shake256 of 200 B, program's lazy call after it", 200,
     [](std::size_t bytes) {
       sponge_shake256(secret, bytes, output, 64);
       program_lazy_call();
     },
     shake256_model},
    {"AsconAead128Encryptor, key and nonce, program's lazy call after the constructor", 32,
     [](std::size_t) {
       sponge::AsconAead128Encryptor encryptor(std::span<const std::uint8_t, 16>(secret, 16),
                                               std::span<const std::uint8_t, 16>(secret + 16, 16));
       program_lazy_call();
       encryptor.update(kPublicMessage, std::span<std::uint8_t>(output, sizeof kPublicMessage));
       const auto tag = encryptor.finish();
       for (std::size_t i = 0; i < tag.size(); ++i)
         output[32 + i] = tag[i];
     },
     nullptr, secret_words},
    {"AsconHash256 of 30 B, digested and destroyed", 30,
     [](std::size_t bytes) {
       sponge::AsconHash256 hash;
       hash.update(secret_span(bytes));
       const auto digest = hash.digest();
       for (std::size_t i = 0; i < digest.size(); ++i)
         output[i] = digest[i];
     },
     nullptr, lazy_binding::ascon_hash256_lanes},
    {"one-shot ascon_aead128_encrypt, 16-byte key and 40 B", 16 + 40, ascon_encrypt, nullptr,
     lazy_binding::ascon_aead128_lanes},
    {"AsconAead128Decryptor of what was encrypted, right tag", 16 + 40,
     [](std::size_t bytes) {
       ascon_encrypt(bytes);
       sponge::AsconAead128Decryptor decryptor(
           sponge::AsconAead128Key(secret, 16),
           sponge::AsconAead128Nonce(lazy_binding::kAsconNonce, 16),
           std::span<std::uint8_t>(opened, bytes - 16));
       decryptor.update_associated_data(lazy_binding::kAsconAssociatedData);
       decryptor.update(std::span<const std::uint8_t>(ciphertext, bytes - 16));
       output[0] = decryptor.finish(tag) ? 1 : 0;
     },
     nullptr, lazy_binding::ascon_aead128_lanes},
};
}  // namespace

int main(int argc, char** argv) {
  return sponge_test::lazy_binding::run_lazy_binding_test(kScenarios, argc, argv);
}
