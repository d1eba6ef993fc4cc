// The residue tests' model of the sponges a function runs on a secret (test_residue.cpp and
// residue_lazy_binding/): every lane of every state at every round boundary, computed on the
// portable rounds from the standards' framing (SP 800-185, RFC 9861), and the search of
// memory for those lanes at every byte offset.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "keccak/keccak_portable.hpp"
#include "support/test_support.hpp"

namespace sponge_test::residue {

using sponge_test::Bytes;

inline void require_model(bool holds, const char* what) {
  if (!holds) throw std::logic_error(std::string("residue model: ") + what);
}

struct SpongeParameters {
  std::size_t rate_bytes;
  std::uint8_t domain_byte;
  std::size_t output_bytes;
};

// One sponge of a function: what it absorbs, framing included (the model knows the framing
// from the standards, not from the library), and what it outputs. A tree mode is several:
// its leaves' outputs stay inside the function, so they are secret lanes too.
struct SpongeRun {
  std::size_t rate_bytes;
  std::uint8_t domain_byte;
  int rounds;  // 24: Keccak-f[1600]; 12: Keccak-p[1600,12], the last 12 rounds
  Bytes absorbed;
  std::size_t output_bytes;
  bool output_is_public = true;
};

// The sponges a function runs on a secret.
using Model = std::function<std::vector<SpongeRun>(const Bytes& secret)>;

struct TrajectoryLane {
  std::uint64_t value;
  std::size_t permutation;
  int round;  // the state entering this round; 24 is the permutation's output
  int lane;
};

// Every lane of every state at every round boundary of the permutations a sponge runs, the
// values of the lanes it outputs whole, and its output bytes.
struct Trajectory {
  std::vector<TrajectoryLane> lanes;
  std::vector<std::uint64_t> output_lanes;
  Bytes output;
};

inline Trajectory sponge_trajectory(const SpongeRun& run) {
  Trajectory trajectory;
  std::uint64_t state[25] = {};
  std::size_t permutations = 0;
  const auto permute = [&] {
    for (int round = 24 - run.rounds; round <= 24; ++round) {
      for (int lane = 0; lane < 25; ++lane)
        trajectory.lanes.push_back({state[lane], permutations, round, lane});
      if (round < 24) sponge::detail::keccak_p1600_rounds_portable(state, round, round + 1);
    }
    ++permutations;
  };
  const auto xor_byte = [&](std::size_t position, std::uint8_t byte) {
    state[position / 8] ^= std::uint64_t{byte} << (8 * (position % 8));
  };
  const Bytes& message = run.absorbed;
  const std::size_t rate = run.rate_bytes;
  std::size_t offset = 0;
  for (; message.size() - offset >= rate; offset += rate) {
    for (std::size_t i = 0; i < rate; ++i)
      xor_byte(i, message[offset + i]);
    permute();
  }
  for (std::size_t i = offset; i < message.size(); ++i)
    xor_byte(i - offset, message[i]);
  xor_byte(message.size() - offset, run.domain_byte);
  xor_byte(rate - 1, 0x80);
  permute();
  for (std::size_t produced = 0;;) {
    for (std::size_t byte = 0; byte < rate && produced < run.output_bytes; ++byte, ++produced) {
      trajectory.output.push_back(static_cast<std::uint8_t>(state[byte / 8] >> (8 * (byte % 8))));
      if (byte % 8 == 7) trajectory.output_lanes.push_back(state[byte / 8]);  // a whole lane
    }
    if (produced == run.output_bytes) break;
    permute();
  }
  return trajectory;
}

// The model's view of a plain sponge whose message is the secret.
inline Model plain_sponge(const SpongeParameters& parameters, int rounds = 24) {
  return [parameters, rounds](const Bytes& secret) {
    return std::vector<SpongeRun>{
        {parameters.rate_bytes, parameters.domain_byte, rounds, secret, parameters.output_bytes}};
  };
}

// The lanes an attacker must not find: secret-dependent (they differ for another secret
// of the same length) and not handed to the caller whole.
[[gnu::noinline]] inline std::vector<TrajectoryLane> secret_lanes(const Model& model,
                                                                  const Bytes& secret) {
  Bytes other_secret = secret;
  for (std::uint8_t& byte : other_secret)
    byte ^= 0x5A;
  const std::vector<SpongeRun> runs = model(secret), other_runs = model(other_secret);
  require_model(runs.size() == other_runs.size(),
                "the model gives two secrets different sponge counts");
  std::vector<TrajectoryLane> lanes;
  std::vector<std::uint64_t> public_lanes;
  std::size_t permutations_before = 0;
  for (std::size_t run = 0; run < runs.size(); ++run) {
    const Trajectory trajectory = sponge_trajectory(runs[run]);
    const Trajectory other = sponge_trajectory(other_runs[run]);
    require_model(trajectory.lanes.size() == other.lanes.size(),
                  "the model gives two secrets different permutation counts");
    if (runs[run].output_is_public) {
      public_lanes.insert(public_lanes.end(), trajectory.output_lanes.begin(),
                          trajectory.output_lanes.end());
    }
    for (std::size_t i = 0; i < trajectory.lanes.size(); ++i) {
      TrajectoryLane lane = trajectory.lanes[i];
      if (lane.value == other.lanes[i].value) continue;
      lane.permutation += permutations_before;
      lanes.push_back(lane);
    }
    permutations_before += trajectory.lanes.empty() ? 0 : trajectory.lanes.back().permutation + 1;
  }
  std::erase_if(lanes, [&](const TrajectoryLane& lane) {
    return std::find(public_lanes.begin(), public_lanes.end(), lane.value) != public_lanes.end();
  });
  std::sort(lanes.begin(), lanes.end(),
            [](const TrajectoryLane& a, const TrajectoryLane& b) { return a.value < b.value; });
  return lanes;
}

// ---------------------------------------------------------------------------------------
// The framings of SP 800-185 and RFC 9861, written from the standards for the model.
// ---------------------------------------------------------------------------------------
inline Bytes big_endian_without_leading_zeros(std::uint64_t value) {
  Bytes digits;
  for (; value != 0; value >>= 8)
    digits.insert(digits.begin(), static_cast<std::uint8_t>(value));
  return digits;
}
inline Bytes left_encode(std::uint64_t value) {
  Bytes digits = big_endian_without_leading_zeros(value);
  if (digits.empty()) digits.push_back(0);
  digits.insert(digits.begin(), static_cast<std::uint8_t>(digits.size()));
  return digits;
}
inline Bytes right_encode(std::uint64_t value) {
  Bytes digits = big_endian_without_leading_zeros(value);
  if (digits.empty()) digits.push_back(0);
  digits.push_back(static_cast<std::uint8_t>(digits.size()));
  return digits;
}
inline Bytes length_encode(std::uint64_t value) {
  Bytes digits = big_endian_without_leading_zeros(value);
  digits.push_back(static_cast<std::uint8_t>(digits.size()));
  return digits;
}
inline Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes all;
  for (const Bytes& part : parts)
    all.insert(all.end(), part.begin(), part.end());
  return all;
}
inline Bytes encode_string(const Bytes& text) {
  return concat({left_encode(8 * text.size()), text});
}
inline Bytes bytepad(const Bytes& text, std::size_t rate) {
  Bytes padded = concat({left_encode(rate), text});
  padded.resize((padded.size() + rate - 1) / rate * rate, 0);
  return padded;
}
inline Bytes text_bytes(std::string_view text) {
  return Bytes(text.begin(), text.end());
}

// cSHAKE's sponge (domain bits 00: byte 0x04) on bytepad(encode_string(N) ||
// encode_string(S)) || body.
inline SpongeRun cshake_run(std::size_t rate, std::string_view name, const Bytes& customization,
                            const Bytes& body, std::size_t output_bytes) {
  return {rate, 0x04, 24,
          concat({bytepad(concat({encode_string(text_bytes(name)), encode_string(customization)}),
                          rate),
                  body}),
          output_bytes};
}

// KangarooTwelve on `rate` (KT128: 168, 32-byte chaining values; KT256: 136, 64) with
// customization C: one node up to 8 KiB of S = M || C || length_encode(|C|), else the final
// node over S_0, the marker, the leaves' chaining values, length_encode(n) and FF FF.
inline Model kangarootwelve(std::size_t rate, std::size_t chaining_value_bytes, Bytes customization,
                            std::size_t output_bytes) {
  return [=](const Bytes& secret) {
    constexpr std::size_t kChunk = 8192;
    const Bytes tree_input = concat({secret, customization, length_encode(customization.size())});
    if (tree_input.size() <= kChunk) {
      return std::vector<SpongeRun>{{rate, 0x07, 12, tree_input, output_bytes}};
    }
    std::vector<SpongeRun> runs;
    Bytes final_node(tree_input.begin(), tree_input.begin() + kChunk);
    const Bytes marker = {0x03, 0, 0, 0, 0, 0, 0, 0};
    final_node.insert(final_node.end(), marker.begin(), marker.end());
    std::size_t leaves = 0;
    for (std::size_t start = kChunk; start < tree_input.size(); start += kChunk, ++leaves) {
      const std::size_t end = std::min(tree_input.size(), start + kChunk);
      SpongeRun leaf{rate,
                     0x0B,
                     12,
                     Bytes(tree_input.begin() + start, tree_input.begin() + end),
                     chaining_value_bytes,
                     false};
      const Bytes chaining_value = sponge_trajectory(leaf).output;
      final_node.insert(final_node.end(), chaining_value.begin(), chaining_value.end());
      runs.push_back(std::move(leaf));
    }
    final_node = concat({final_node, length_encode(leaves), {0xFF, 0xFF}});
    runs.push_back({rate, 0x06, 12, final_node, output_bytes});
    return runs;
  };
}

inline std::size_t sp800_185_rate(int security_bits) {
  return security_bits == 128 ? 168 : 136;
}

// The output length's encoding at the end of KMAC, TupleHash and ParallelHash.
inline Bytes output_length_encoding(bool xof, std::size_t output_bytes) {
  return right_encode(xof ? 0 : 8 * output_bytes);
}

// KMAC with the secret as the key.
inline Model kmac(int security_bits, bool xof, Bytes message, Bytes customization,
                  std::size_t output_bytes) {
  return [=](const Bytes& key) {
    const std::size_t rate = sp800_185_rate(security_bits);
    return std::vector<SpongeRun>{cshake_run(rate, "KMAC", customization,
                                             concat({bytepad(encode_string(key), rate), message,
                                                     output_length_encoding(xof, output_bytes)}),
                                             output_bytes)};
  };
}

// TupleHash of the secret's two halves.
inline Model tuplehash(int security_bits, bool xof, Bytes customization, std::size_t output_bytes) {
  return [=](const Bytes& secret) {
    const Bytes first(secret.begin(), secret.begin() + secret.size() / 2);
    const Bytes second(secret.begin() + secret.size() / 2, secret.end());
    return std::vector<SpongeRun>{cshake_run(sp800_185_rate(security_bits), "TupleHash",
                                             customization,
                                             concat({encode_string(first), encode_string(second),
                                                     output_length_encoding(xof, output_bytes)}),
                                             output_bytes)};
  };
}

// ParallelHash of the secret with block size B: SHAKE leaves, then the main cSHAKE.
inline Model parallelhash(int security_bits, bool xof, std::size_t block_size, Bytes customization,
                          std::size_t output_bytes) {
  return [=](const Bytes& secret) {
    const std::size_t rate = sp800_185_rate(security_bits);
    std::vector<SpongeRun> runs;
    Bytes body = left_encode(block_size);
    std::size_t leaves = 0;
    for (std::size_t start = 0; start < secret.size(); start += block_size, ++leaves) {
      const std::size_t end = std::min(secret.size(), start + block_size);
      SpongeRun leaf{rate,
                     0x1F,
                     24,
                     Bytes(secret.begin() + start, secret.begin() + end),
                     static_cast<std::size_t>(security_bits) / 4,
                     false};
      const Bytes leaf_output = sponge_trajectory(leaf).output;
      body.insert(body.end(), leaf_output.begin(), leaf_output.end());
      runs.push_back(std::move(leaf));
    }
    body = concat({body, right_encode(leaves), output_length_encoding(xof, output_bytes)});
    runs.push_back(cshake_run(rate, "ParallelHash", customization, body, output_bytes));
    return runs;
  };
}

struct Finding {
  std::size_t offset_below_sp;
  TrajectoryLane lane;
  const char* where = "on the dead stack";
};

// Every secret lane found at any byte offset of `memory`. Out of line, so that the lane it
// compared last stays in no register its caller must keep across the next scenario (the
// callee-saved registers are restored on return).
[[gnu::noinline]] inline std::vector<Finding> find_lanes(std::span<const std::uint8_t> memory,
                                                         const std::vector<TrajectoryLane>& lanes) {
  std::vector<Finding> findings;
  for (std::size_t offset = 0; offset + 8 <= memory.size(); ++offset) {
    std::uint64_t value;
    std::memcpy(&value, memory.data() + offset, 8);
    auto match = std::lower_bound(
        lanes.begin(), lanes.end(), value,
        [](const TrajectoryLane& lane, std::uint64_t wanted) { return lane.value < wanted; });
    if (match != lanes.end() && match->value == value)
      findings.push_back({memory.size() - offset, *match});
  }
  return findings;
}

inline std::string describe(const std::vector<Finding>& findings) {
  std::string text;
  for (std::size_t i = 0; i < findings.size() && i < 8; ++i) {
    const Finding& finding = findings[i];
    char value[24];
    std::snprintf(value, sizeof value, "%016llx",
                  static_cast<unsigned long long>(finding.lane.value));
    text += "  " + std::string(value) + " at " + std::to_string(finding.offset_below_sp) +
            " bytes below sp: permutation " + std::to_string(finding.lane.permutation) +
            ", before round " + std::to_string(finding.lane.round) + ", lane " +
            std::to_string(finding.lane.lane) + ", " + finding.where + "\n";
  }
  return text;
}

}  // namespace sponge_test::residue
