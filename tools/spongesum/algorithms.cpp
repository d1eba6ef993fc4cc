#include "algorithms.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include <sponge/sponge.hpp>

namespace spongesum {
namespace {

// Adapts one sponge hasher class (update(), and digest() for a fixed output or squeeze() for
// an XOF, then reset()) to StreamingHash.
template <class Hasher>
class HashOf final : public StreamingHash {
 public:
  template <typename... Arguments>
  explicit HashOf(Arguments... arguments) : hasher_(arguments...) {}
  void update(std::span<const std::uint8_t> data) override { hasher_.update(data); }
  void finish(std::span<std::uint8_t> out) override {
    if constexpr (requires(const Hasher& hasher) { hasher.digest(); }) {
      const auto digest = hasher_.digest();
      std::copy_n(digest.begin(), std::min(out.size(), digest.size()), out.begin());
    } else {
      hasher_.squeeze(out);
    }
    hasher_.reset();
  }

 private:
  Hasher hasher_;
};

template <class Hasher>
std::unique_ptr<StreamingHash> make_hash() {
  return std::make_unique<HashOf<Hasher>>();
}

// A KangarooTwelve hasher (no customization) whose whole chunks go to `threads` threads.
template <class Hasher>
std::unique_ptr<StreamingHash> make_threaded_hash(unsigned threads) {
  return std::make_unique<HashOf<Hasher>>(sponge::Threads{threads});
}

template <class Hasher>
constexpr Algorithm fixed_output(std::string_view name, std::string_view tag) {
  return {name, tag, Hasher::digest_bytes * 8, Hasher::digest_bytes * 8, &make_hash<Hasher>, {}};
}

template <class Hasher>
constexpr Algorithm extendable_output(std::string_view name, std::string_view tag,
                                      std::size_t default_bits, std::string_view openssl_tag = {}) {
  return {name, tag, 0, default_bits, &make_hash<Hasher>, openssl_tag};
}

// An XOF whose tree spreads over threads: one large file hashes on several cores.
template <class Hasher>
constexpr Algorithm tree_output(std::string_view name, std::string_view tag,
                                std::size_t default_bits) {
  return {name, tag, 0, default_bits, &make_hash<Hasher>, {}, &make_threaded_hash<Hasher>};
}

// The table. A new function of the library joins with one line here. Order matters once:
// an untagged check line without -a takes the first entry of its digest's size, so SHA3-256
// comes before Keccak-256. The tags are coreutils' where coreutils has the function.
constexpr std::array kAlgorithms = {
    fixed_output<sponge::Sha3_224>("sha3-224", "SHA3-224"),
    fixed_output<sponge::Sha3_256>("sha3-256", "SHA3-256"),
    fixed_output<sponge::Sha3_384>("sha3-384", "SHA3-384"),
    fixed_output<sponge::Sha3_512>("sha3-512", "SHA3-512"),
    fixed_output<sponge::Keccak256>("keccak-256", "KECCAK-256"),
    // One rate block by default, as the Perl sha3sum prints them (its -a 128000, 256000).
    // OpenSSL 3 writes SHAKE-128(FILE)= HEX; its SHA-3 and KECCAK-256 tags are these.
    extendable_output<sponge::Shake128>("shake128", "SHAKE128", 1344, "SHAKE-128"),
    extendable_output<sponge::Shake256>("shake256", "SHAKE256", 1088, "SHAKE-256"),
    // RFC 9861, default domain byte and no customization; by default the output lengths
    // of the RFC's test vectors (32 and 64 bytes).
    extendable_output<sponge::TurboShake128>("turboshake128", "TURBOSHAKE128", 256),
    extendable_output<sponge::TurboShake256>("turboshake256", "TURBOSHAKE256", 512),
    tree_output<sponge::Kt128>("kt128", "KT128", 256),
    tree_output<sponge::Kt256>("kt256", "KT256", 512),
    // NIST SP 800-232 (after SHA3-256 and Keccak-256: an untagged 256-bit line stays SHA3-256).
    // Ascon-XOF128 by default 256 bits, twice its 128-bit security strength.
    fixed_output<sponge::AsconHash256>("ascon-hash256", "ASCON-HASH256"),
    extendable_output<sponge::AsconXof128>("ascon-xof128", "ASCON-XOF128", 256),
};

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return std::ranges::equal(a, b, [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

}  // namespace

std::span<const Algorithm> algorithms() {
  return kAlgorithms;
}

const Algorithm* find_algorithm(std::string_view name) {
  for (const Algorithm& algorithm : kAlgorithms) {
    if (equal_ignoring_case(name, algorithm.name) || equal_ignoring_case(name, algorithm.tag)) {
      return &algorithm;
    }
  }
  return nullptr;
}

const Algorithm* find_check_line_algorithm(std::string_view tag) {
  if (const Algorithm* algorithm = find_algorithm(tag)) return algorithm;
  for (const Algorithm& algorithm : kAlgorithms) {
    if (!algorithm.openssl_tag.empty() && equal_ignoring_case(tag, algorithm.openssl_tag)) {
      return &algorithm;
    }
  }
  return nullptr;
}

const Algorithm* find_algorithm_by_output_bits(std::size_t bits) {
  for (const Algorithm& algorithm : kAlgorithms) {
    if (algorithm.default_bits == bits) return &algorithm;
  }
  return nullptr;
}

std::variant<Selection, SelectionError> select_algorithm(std::string_view name,
                                                         std::optional<std::size_t> bits) {
  if (bits && (*bits % 8 != 0 || *bits > kMaxOutputBits)) {
    return SelectionError{"invalid length: '" + std::to_string(*bits) +
                          "': a multiple of 8 from 8 to " + std::to_string(kMaxOutputBits)};
  }
  const Algorithm* algorithm = find_algorithm(name);
  if (!algorithm && bits) {
    algorithm = find_algorithm(std::string(name) + "-" + std::to_string(*bits));
  }
  if (!algorithm) {
    return SelectionError{"invalid argument '" + std::string(name) +
                          "' for '--algorithm'; valid arguments are " + algorithm_names()};
  }
  if (!bits) return Selection{algorithm, algorithm->default_bits};
  if (!algorithm->is_xof() && *bits != algorithm->fixed_bits) {
    return SelectionError{"invalid length: '" + std::to_string(*bits) + "' for " +
                          std::string(algorithm->name) + ", which has " +
                          std::to_string(algorithm->fixed_bits) + " bits"};
  }
  return Selection{algorithm, *bits};
}

std::string algorithm_names() {
  std::string names;
  for (const Algorithm& algorithm : kAlgorithms) {
    if (!names.empty()) names += ", ";
    names += algorithm.name;
  }
  return names;
}

}  // namespace spongesum
