// The driver of the lazy-binding residue tests (residue_lazy_binding.cpp: the library linked
// like a user's; evp_residue_lazy_binding.cpp: a program calling the OpenSSL provider through
// EVP): each scenario in fresh processes at every 16-byte offset of its first frame, the dead
// stack scanned for the secret's lanes after it. Scenario 0 is the driver's control.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "support/residue_model.hpp"

namespace sponge_test::lazy_binding {

using residue::Bytes;
using residue::Model;
using residue::TrajectoryLane;

inline constexpr std::size_t kSecretCapacity = 9000;

// Written before the scenario with plain stores, read by the model after it.
extern std::uint8_t secret[kSecretCapacity];
extern std::uint8_t output[64];

// Constant-initialised (no code runs for it before main), and the models are built only
// after the scenario: building them copies bytes through memcpy's PLT entry.
struct Scenario {
  const char* name;
  std::size_t secret_bytes;
  void (*run)(std::size_t secret_bytes);
  // The Keccak sponges the scenario runs on the secret, or (`model` null) its secret lanes
  // computed otherwise (Ascon's state words).
  Model (*model)();
  std::vector<TrajectoryLane> (*lanes)(const Bytes& secret) = nullptr;
};

Model sha3_256_model();

// The scenarios' public inputs besides the secret: a customization string and a message.
inline constexpr std::uint8_t kCustomization[] = {'r', 'e', 's', 'i', 'd', 'u', 'e'};
inline constexpr std::uint8_t kPublicMessage[] = {'p', 'u', 'b', 'l', 'i', 'c'};

// A model's copy of `bytes`; copying calls memcpy, so only after the scenario.
Bytes bytes_of(std::span<const std::uint8_t> bytes);

// The Ascon scenarios' public inputs and models: Ascon-Hash256 of the secret, and
// Ascon-AEAD128 of secret = key (16 bytes) || plaintext under kAsconNonce and
// kAsconAssociatedData.
inline constexpr std::uint8_t kAsconNonce[16] = {'r', 'e', 's', 'i', 'd', 'u', 'e', ' ',
                                                 'n', 'o', 'n', 'c', 'e', ' ', '1', '6'};
inline constexpr std::uint8_t kAsconAssociatedData[] = {'h', 'e', 'a', 'd', 'e', 'r'};
std::vector<TrajectoryLane> ascon_hash256_lanes(const Bytes& secret);
std::vector<TrajectoryLane> ascon_aead128_lanes(const Bytes& secret);

// No arguments: every scenario (the driver's control first) at every offset, in children;
// exit 0 when the control found its lane at every offset and no scenario found any.
// "<scenario> <offset 0-15>" and "<scenario> random <runs>": see residue_lazy_binding.cpp.
int run_lazy_binding_test(std::span<const Scenario> scenarios, int argc, char** argv);

}  // namespace sponge_test::lazy_binding
