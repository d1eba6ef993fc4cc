// The hash functions spongesum offers, as one table (algorithms.cpp): the -a names, the
// --tag names, the output sizes and how to make a hasher all come from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace spongesum {

// One hasher behind a virtual interface, so the file reader and the checker work on any
// table entry; the virtual call happens once per read block, not per byte.
class StreamingHash {
 public:
  virtual ~StreamingHash() = default;
  virtual void update(std::span<const std::uint8_t> data) = 0;
  // Writes the digest (an XOF: out.size() bytes of output) and starts a new empty message.
  virtual void finish(std::span<std::uint8_t> out) = 0;
};

struct Algorithm {
  std::string_view name;     // the -a value, e.g. "sha3-256"
  std::string_view tag;      // the --tag (BSD) name, e.g. "SHA3-256"
  std::size_t fixed_bits;    // the digest size; 0 for an extendable-output function
  std::size_t default_bits;  // an XOF's output without -l; fixed_bits otherwise
  std::unique_ptr<StreamingHash> (*make_hash)();
  std::string_view openssl_tag = {};  // `openssl dgst`'s name where it differs from `tag`
  // A hasher that spreads one input over `threads` threads (the tree modes), or nullptr.
  std::unique_ptr<StreamingHash> (*make_threaded_hash)(unsigned threads) = nullptr;

  bool is_xof() const { return fixed_bits == 0; }
};

// The largest output -l accepts, in bits (an XOF could give more; nobody checks that much).
inline constexpr std::size_t kMaxOutputBits = 65536 * 8;

inline constexpr std::string_view kDefaultAlgorithm = "sha3-256";

std::span<const Algorithm> algorithms();

// By -a name or tag, case-insensitively: "sha3-256", "SHA3-256".
const Algorithm* find_algorithm(std::string_view name);

// The algorithm of a tagged check line: by -a name, tag or OpenSSL's tag, case-insensitively.
const Algorithm* find_check_line_algorithm(std::string_view tag);

// The first table entry (in table order) whose default output has `bits` bits: the
// algorithm of an untagged check line when -a was not given.
const Algorithm* find_algorithm_by_output_bits(std::size_t bits);

// An algorithm and its output size, as chosen on the command line.
struct Selection {
  const Algorithm* algorithm;
  std::size_t output_bits;
};

// Resolves -a NAME and -l BITS (nullopt: -l absent or 0, the default size). NAME may also
// be a family that -l completes, as in coreutils' `cksum -a sha3 -l 256`. On error returns
// the message for the user.
struct SelectionError {
  std::string message;
};
std::variant<Selection, SelectionError> select_algorithm(std::string_view name,
                                                         std::optional<std::size_t> bits);

// "sha3-224, sha3-256, ..." for --help and error messages.
std::string algorithm_names();

}  // namespace spongesum
