// sponge_fuzz_hashers, RFC 9861 and SP 800-185 functions: a program decoded from the fuzz
// input streams into one object of the function with input-chosen splits, reads its output
// in input-chosen pieces (digest() of any length on the fixed-output forms, which must leave
// the object unchanged), resets it, and checks every output against the one-shot function
// on everything absorbed since the last reset; KMAC and KMACXOF also against OpenSSL's
// EVP_MAC (within OpenSSL's key and customization limits). No other peer exists in OpenSSL
// 3.0 or Crypto++; the known answers (tests/test_kat_*) pin the one-shot functions.
//
// Input after the function byte (bytes past the end read as zero):
//   key length (u16, % 600), customization length (u16, % 600), function name length
//   (byte), parameter (byte: TurboSHAKE's D is 1 + parameter % 0x7F; ParallelHash's B is
//   1 + parameter), seed (u16: the bytes of key, customization and name), then 4-byte
//   operations until the input ends: opcode, placement, length (u16)
//     opcode % 4: 0 update (TupleHash: add one element) of length % 1200 bytes
//                 1 output: squeeze length % 700 bytes (XOF forms), or digest(length % 700)
//                 2 reset
//                 3 update of length % 20000 bytes (KT's 8 KiB chunks, several leaves)
//   placement: low nibble the input buffer, high nibble the output (PlacedBuffer).
#include "fuzz/hashers_modes.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sponge/sponge.hpp"
#include "support/oracles.hpp"
#include "support/test_support.hpp"

namespace sponge_fuzz {
namespace {

using sponge_test::Bytes;

constexpr std::size_t kMaxUpdate = 1200;
constexpr std::size_t kMaxLongUpdate = 20000;
constexpr std::size_t kMaxOutput = 700;

const GuardedRegion& input_region() {
  static const GuardedRegion region(kMaxLongUpdate);
  return region;
}
const GuardedRegion& output_region() {
  static const GuardedRegion region(kMaxOutput);
  return region;
}

struct Parameters {
  Bytes key, customization, name;
  std::uint8_t domain_byte;
  std::size_t block_size;
};

// One object of a function, behind one interface.
class Streaming {
 public:
  virtual ~Streaming() = default;
  virtual void update(std::span<const std::uint8_t> data) = 0;  // TupleHash: add()
  virtual void output(std::span<std::uint8_t> out) = 0;         // squeeze() or digest()
  virtual void reset() = 0;
};

template <typename Object>
class StreamingOf final : public Streaming {
 public:
  template <typename... Arguments>
  explicit StreamingOf(Arguments&&... arguments) : object_(arguments...) {}
  void update(std::span<const std::uint8_t> data) override {
    if constexpr (requires { object_.add(data); }) {
      object_.add(data);
    } else {
      object_.update(data);
    }
  }
  void output(std::span<std::uint8_t> out) override {
    if constexpr (requires { object_.digest(out); }) {
      object_.digest(out);
    } else {
      object_.squeeze(out);
    }
  }
  void reset() override { object_.reset(); }

 private:
  Object object_;
};

struct ModeFunction {
  const char* name;
  bool xof;
  std::unique_ptr<Streaming> (*make)(const Parameters&);
  // The one-shot function on the updates since the last reset (TupleHash: the elements).
  void (*one_shot)(const Parameters&, const std::vector<Bytes>& updates, std::span<std::uint8_t>);
  int kmac_security_bits;  // 0: not KMAC
};

Bytes joined(const std::vector<Bytes>& updates) {
  Bytes all;
  for (const Bytes& update : updates)
    all.insert(all.end(), update.begin(), update.end());
  return all;
}

template <typename Object>
std::unique_ptr<Streaming> make_with_domain(const Parameters& p) {
  return std::make_unique<StreamingOf<Object>>(p.domain_byte);
}
template <typename Object>
std::unique_ptr<Streaming> make_with_customization(const Parameters& p) {
  return std::make_unique<StreamingOf<Object>>(std::span<const std::uint8_t>(p.customization));
}
template <typename Object>
std::unique_ptr<Streaming> make_with_name(const Parameters& p) {
  return std::make_unique<StreamingOf<Object>>(std::span<const std::uint8_t>(p.name),
                                               std::span<const std::uint8_t>(p.customization));
}
template <typename Object>
std::unique_ptr<Streaming> make_with_key(const Parameters& p) {
  return std::make_unique<StreamingOf<Object>>(std::span<const std::uint8_t>(p.key),
                                               std::span<const std::uint8_t>(p.customization));
}
template <typename Object>
std::unique_ptr<Streaming> make_with_block_size(const Parameters& p) {
  return std::make_unique<StreamingOf<Object>>(p.block_size,
                                               std::span<const std::uint8_t>(p.customization));
}

template <auto Fn>
void turboshake_one_shot(const Parameters& p, const std::vector<Bytes>& u,
                         std::span<std::uint8_t> out) {
  Fn(joined(u), out, p.domain_byte);
}
template <auto Fn>
void kt_one_shot(const Parameters& p, const std::vector<Bytes>& u, std::span<std::uint8_t> out) {
  Fn(joined(u), p.customization, out);
}
template <auto Fn>
void cshake_one_shot(const Parameters& p, const std::vector<Bytes>& u,
                     std::span<std::uint8_t> out) {
  Fn(joined(u), p.name, p.customization, out);
}
template <auto Fn>
void kmac_one_shot(const Parameters& p, const std::vector<Bytes>& u, std::span<std::uint8_t> out) {
  Fn(p.key, joined(u), p.customization, out);
}
template <auto Fn>
void tuple_one_shot(const Parameters& p, const std::vector<Bytes>& u, std::span<std::uint8_t> out) {
  const std::vector<std::span<const std::uint8_t>> elements(u.begin(), u.end());
  Fn(elements, p.customization, out);
}
template <auto Fn>
void parallel_one_shot(const Parameters& p, const std::vector<Bytes>& u,
                       std::span<std::uint8_t> out) {
  Fn(joined(u), p.block_size, p.customization, out);
}

const ModeFunction kModeFunctions[kModeFunctionCount] = {
    {"TurboShake128", true, make_with_domain<sponge::TurboShake128>,
     turboshake_one_shot<sponge::turboshake128>, 0},
    {"TurboShake256", true, make_with_domain<sponge::TurboShake256>,
     turboshake_one_shot<sponge::turboshake256>, 0},
    {"Kt128", true, make_with_customization<sponge::Kt128>, kt_one_shot<sponge::kt128>, 0},
    {"Kt256", true, make_with_customization<sponge::Kt256>, kt_one_shot<sponge::kt256>, 0},
    {"Cshake128", true, make_with_name<sponge::Cshake128>, cshake_one_shot<sponge::cshake128>, 0},
    {"Cshake256", true, make_with_name<sponge::Cshake256>, cshake_one_shot<sponge::cshake256>, 0},
    {"Kmac128", false, make_with_key<sponge::Kmac128>, kmac_one_shot<sponge::kmac128>, 128},
    {"Kmac256", false, make_with_key<sponge::Kmac256>, kmac_one_shot<sponge::kmac256>, 256},
    {"KmacXof128", true, make_with_key<sponge::KmacXof128>, kmac_one_shot<sponge::kmacxof128>, 128},
    {"KmacXof256", true, make_with_key<sponge::KmacXof256>, kmac_one_shot<sponge::kmacxof256>, 256},
    {"TupleHash128", false, make_with_customization<sponge::TupleHash128>,
     tuple_one_shot<sponge::tuplehash128>, 0},
    {"TupleHash256", false, make_with_customization<sponge::TupleHash256>,
     tuple_one_shot<sponge::tuplehash256>, 0},
    {"TupleHashXof128", true, make_with_customization<sponge::TupleHashXof128>,
     tuple_one_shot<sponge::tuplehashxof128>, 0},
    {"TupleHashXof256", true, make_with_customization<sponge::TupleHashXof256>,
     tuple_one_shot<sponge::tuplehashxof256>, 0},
    {"ParallelHash128", false, make_with_block_size<sponge::ParallelHash128>,
     parallel_one_shot<sponge::parallelhash128>, 0},
    {"ParallelHash256", false, make_with_block_size<sponge::ParallelHash256>,
     parallel_one_shot<sponge::parallelhash256>, 0},
    {"ParallelHashXof128", true, make_with_block_size<sponge::ParallelHashXof128>,
     parallel_one_shot<sponge::parallelhashxof128>, 0},
    {"ParallelHashXof256", true, make_with_block_size<sponge::ParallelHashXof256>,
     parallel_one_shot<sponge::parallelhashxof256>, 0},
};

bool within_openssl_kmac_limits(const Parameters& p) {
  return p.key.size() >= sponge_test::kOpensslKmacMinKeyBytes &&
         p.key.size() <= sponge_test::kOpensslKmacMaxKeyBytes &&
         p.customization.size() <= sponge_test::kOpensslKmacMaxCustomizationBytes;
}

class ModeProgram {
 public:
  ModeProgram(const ModeFunction& function, FuzzInput& input) : function_(function) {
    const std::size_t key_bytes = input.u16() % 600;
    const std::size_t customization_bytes = input.u16() % 600;
    const std::size_t name_bytes = input.byte();
    const std::uint8_t parameter = input.byte();
    sponge_test::Rng rng(input.u16());
    parameters_ = {rng.bytes(key_bytes), rng.bytes(customization_bytes), rng.bytes(name_bytes),
                   static_cast<std::uint8_t>(1 + parameter % 0x7F), std::size_t{1} + parameter};
    object_ = function_.make(parameters_);
  }

  void run(FuzzInput& input) {
    while (!input.empty()) {
      const std::uint8_t opcode = input.byte();
      const std::uint8_t placement = input.byte();
      const std::uint16_t length = input.u16();
      switch (opcode % 4) {
        case 0:
          update(placement, length % (kMaxUpdate + 1), length);
          break;
        case 1:
          output(placement, length % (kMaxOutput + 1));
          break;
        case 2:
          object_->reset();
          updates_.clear();
          squeezing_ = false;
          squeezed_ = 0;
          break;
        default:
          update(placement, length % (kMaxLongUpdate + 1), length);
          break;
      }
    }
    output(0, 64);
  }

 private:
  std::string what(const char* operation) const {
    return std::string(function_.name) + " " + operation + " (after " +
           std::to_string(updates_.size()) + " updates, " + std::to_string(squeezed_) +
           " bytes squeezed)";
  }

  void update(std::uint8_t placement, std::size_t length, std::uint16_t seed) {
    const Bytes data = sponge_test::Rng(seed).bytes(length);
    const PlacedBuffer in(input_region(), placement & 15, length);
    std::copy(data.begin(), data.end(), in.bytes().begin());
    bool threw = false;
    try {
      object_->update(in.bytes());
    } catch (const std::logic_error&) {
      threw = true;
    }
    if (threw != squeezing_) {
      fail(what(threw ? "update threw before squeezing" : "update after squeeze did not throw"));
    }
    if (!threw) updates_.push_back(data);
    require_equal(what("update's input after the call"), data, in.bytes());
  }

  void output(std::uint8_t placement, std::size_t length) {
    const PlacedBuffer out(output_region(), placement >> 4, length);
    object_->output(out.bytes());
    // The expected bytes: a prefix of the one-shot XOF stream, or the one-shot digest of
    // this length (every byte depends on the length).
    const std::size_t from = function_.xof ? squeezed_ : 0;
    Bytes expected(from + length);
    function_.one_shot(parameters_, updates_, expected);
    require_equal(what("output vs the one-shot function"), std::span(expected).subspan(from),
                  out.bytes());
    if (function_.kmac_security_bits != 0 && within_openssl_kmac_limits(parameters_)) {
      const Bytes openssl =
          sponge_test::openssl_kmac(function_.kmac_security_bits, parameters_.key, joined(updates_),
                                    parameters_.customization, from + length, function_.xof);
      require_equal(what("output vs OpenSSL EVP_MAC KMAC"), std::span(openssl).subspan(from),
                    out.bytes());
    }
    // Any squeeze, of 0 bytes too, ends absorbing (as on the SHAKE classes).
    if (function_.xof) {
      squeezing_ = true;
      squeezed_ += length;
    }
  }

  const ModeFunction& function_;
  Parameters parameters_;
  std::unique_ptr<Streaming> object_;
  std::vector<Bytes> updates_;  // since the last reset
  bool squeezing_ = false;
  std::size_t squeezed_ = 0;
};

}  // namespace

void run_mode_program(std::size_t function, FuzzInput& input) {
  ModeProgram program(kModeFunctions[function % kModeFunctionCount], input);
  program.run(input);
}

}  // namespace sponge_fuzz
