// The residue tests' model of the Ascon modes (SP 800-232) on a secret: every state word at
// every round boundary, walked on the portable rounds, and the key words. A lane here is one
// of the five state words, or a key word. The functions that compute lanes are out of line,
// so that no register a caller must keep across a scenario is left holding one (their
// epilogues restore the caller's callee-saved registers).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ascon/ascon_modes.hpp"
#include "ascon/ascon_portable.hpp"
#include "support/residue_model.hpp"

namespace sponge_test::residue {

// The state walk of one Ascon mode run: every word at every round boundary of every
// permutation, and the words the caller receives whole (digest words, ciphertext blocks, the
// tag).
class AsconWalk {
 public:
  explicit AsconWalk(std::array<std::uint64_t, 5> state) : state_(state) {}

  void permute(int rounds) {
    for (int round = 12 - rounds; round <= 12; ++round) {
      for (int word = 0; word < 5; ++word)
        lanes.push_back({state_[word], permutations_, round, word});
      if (round < 12) sponge::detail::ascon_p320_rounds_portable(state_.data(), round, round + 1);
    }
    ++permutations_;
  }
  std::uint64_t& operator[](std::size_t word) { return state_[word]; }
  void secret_word(std::uint64_t value) { lanes.push_back({value, permutations_, -1, -1}); }

  std::vector<TrajectoryLane> lanes;
  std::vector<std::uint64_t> public_words;

 private:
  std::array<std::uint64_t, 5> state_;
  std::size_t permutations_ = 0;
};

inline std::uint64_t le_word(const Bytes& bytes, std::size_t offset, std::size_t length) {
  std::uint64_t word = 0;
  for (std::size_t i = 0; i < length; ++i)
    word |= std::uint64_t{bytes[offset + i]} << (8 * i);
  return word;
}

// Ascon-Hash256 or XOF128 (from `initial`, the state after P12(IV)) of the secret message.
[[gnu::noinline]] inline AsconWalk ascon_hash_walk(const std::uint64_t (&initial)[5],
                                                   const Bytes& message, std::size_t output_bytes) {
  AsconWalk walk({initial[0], initial[1], initial[2], initial[3], initial[4]});
  std::size_t offset = 0;
  for (; message.size() - offset >= 8; offset += 8) {
    walk[0] ^= le_word(message, offset, 8);
    walk.permute(12);
  }
  walk[0] ^= le_word(message, offset, message.size() - offset);
  walk[0] ^= std::uint64_t{1} << (8 * (message.size() - offset));
  walk.permute(12);
  for (std::size_t produced = 8;; produced += 8) {
    if (produced <= output_bytes) walk.public_words.push_back(walk[0]);
    if (produced >= output_bytes) break;
    walk.permute(12);
  }
  return walk;
}

// Ascon-AEAD128 with secret = key (16 bytes) || plaintext, a public nonce and associated data.
[[gnu::noinline]] inline AsconWalk ascon_aead_walk(const Bytes& secret, const Bytes& nonce,
                                                   const Bytes& associated_data) {
  const std::uint64_t k0 = le_word(secret, 0, 8), k1 = le_word(secret, 8, 8);
  AsconWalk walk(
      {sponge::detail::kAsconAead128Iv, k0, k1, le_word(nonce, 0, 8), le_word(nonce, 8, 8)});
  walk.secret_word(k0);
  walk.secret_word(k1);
  walk.permute(12);
  walk[3] ^= k0;
  walk[4] ^= k1;
  const auto absorb_padded = [&](const Bytes& bytes, std::size_t from, bool ciphertext_public) {
    std::size_t offset = from;
    for (; bytes.size() - offset >= 16; offset += 16) {
      walk[0] ^= le_word(bytes, offset, 8);
      walk[1] ^= le_word(bytes, offset + 8, 8);
      if (ciphertext_public) {
        walk.public_words.push_back(walk[0]);
        walk.public_words.push_back(walk[1]);
      }
      walk.permute(8);
    }
    const std::size_t rest = bytes.size() - offset;
    walk[0] ^= le_word(bytes, offset, std::min<std::size_t>(rest, 8));
    if (rest > 8) walk[1] ^= le_word(bytes, offset + 8, rest - 8);
    if (ciphertext_public && rest >= 8) walk.public_words.push_back(walk[0]);
    walk[rest / 8] ^= std::uint64_t{1} << (8 * (rest % 8));
  };
  if (!associated_data.empty()) {
    absorb_padded(associated_data, 0, false);
    walk.permute(8);
  }
  walk[4] ^= std::uint64_t{1} << 63;
  absorb_padded(secret, 16, true);
  for (std::size_t offset = 16; offset + 8 <= secret.size(); offset += 8)
    walk.secret_word(le_word(secret, offset, 8));  // the plaintext's own words
  walk[2] ^= k0;
  walk[3] ^= k1;
  walk.permute(12);
  walk.public_words.push_back(walk[3] ^ k0);
  walk.public_words.push_back(walk[4] ^ k1);
  return walk;
}

// The lanes of `walk` that differ in `other_walk` (the same run on another secret of the same
// length) and that the caller does not receive whole.
[[gnu::noinline]] inline std::vector<TrajectoryLane> ascon_secret_lanes(
    const AsconWalk& walk, const AsconWalk& other_walk) {
  require_model(walk.lanes.size() == other_walk.lanes.size(), "the two walks differ in length");
  std::vector<TrajectoryLane> lanes;
  for (std::size_t i = 0; i < walk.lanes.size(); ++i) {
    const TrajectoryLane& lane = walk.lanes[i];
    if (lane.value == other_walk.lanes[i].value) continue;
    if (std::find(walk.public_words.begin(), walk.public_words.end(), lane.value) !=
        walk.public_words.end()) {
      continue;
    }
    lanes.push_back(lane);
  }
  std::sort(lanes.begin(), lanes.end(),
            [](const TrajectoryLane& a, const TrajectoryLane& b) { return a.value < b.value; });
  require_model(lanes.size() > 100, "fewer than 100 secret Ascon words");
  return lanes;
}

inline Bytes flipped(Bytes bytes) {
  for (std::uint8_t& byte : bytes)
    byte ^= 0x5A;
  return bytes;
}

}  // namespace sponge_test::residue
