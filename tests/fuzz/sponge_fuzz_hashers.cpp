// sponge_fuzz_hashers: a program of operations decoded from the fuzz input runs on three
// hashers of one algorithm, and every output is compared with an independent implementation:
// OpenSSL (SHA3, SHAKE; its streaming context gets the same updates as the hasher) or
// Crypto++ (Keccak-256). Any difference aborts with a message, so libFuzzer keeps the input.
//
// Input (bytes past the end read as zero; make_corpus.py writes examples):
//   byte 0: algorithm % 25: Keccak256, Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128,
//           Shake256, then the 18 RFC 9861 and SP 800-185 functions, whose programs are
//           described in hashers_modes.cpp
//   then, for the seven, 8-byte operations until the input ends:
//     opcode, slot (% 3), placement, variant, length (u16), extra (u16)
//   placement: low nibble places the input, high nibble the output (see PlacedBuffer: at the
//   guard page, or misaligned on the heap). The message bytes come from an Rng seeded with
//   `extra`: what matters to the sponge are the lengths and splits, which the input chooses.
//   opcode % 7:
//     0 update    length % 1200 bytes, through overload variant % 3: span<const uint8_t>,
//                 span<const std::byte>, string_view. Must throw std::logic_error once the
//                 hasher squeezes.
//     1 peek      a copy squeezes length % 700 bytes (the stream from where the slot is);
//                 a fixed-output hasher also gives digest() twice (it must not change the
//                 object), or throws std::logic_error once it squeezes
//     2 squeeze   length % 700 bytes, through overload variant % 2: span<uint8_t>,
//                 span<std::byte>
//     3 reset
//     4 copy      the slot becomes a copy of slot extra % 3 (variant even: copy-assignment,
//                 odd: copy-construction)
//     5 move      the slot is moved from slot extra % 3, another slot (variant even:
//                 move-assignment, odd: move-construction); the source is then reset
//     6 one-shot  the algorithm's one-shot function on length % 1200 bytes, overload
//                 variant % 3; SHAKE writes extra % 700 bytes
// At the end every slot is peeked once more.
#include <openssl/evp.h>

#include <cryptopp/keccak.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "fuzz/fuzz_support.hpp"
#include "fuzz/hashers_modes.hpp"
#include "keccak/keccak_kernel.hpp"
#include "sponge/sponge.hpp"
#include "support/oracles.hpp"
#include "support/test_support.hpp"

namespace {

using sponge_fuzz::FuzzInput;
using sponge_fuzz::PlacedBuffer;
using sponge_fuzz::require_equal;
using sponge_test::Bytes;

constexpr std::size_t kMaxUpdate = 1200;  // several blocks of every rate
constexpr std::size_t kMaxSqueeze = 700;
constexpr std::size_t kSlots = 3;

const sponge_fuzz::GuardedRegion& input_region() {
  static const sponge_fuzz::GuardedRegion region(kMaxUpdate);
  return region;
}
const sponge_fuzz::GuardedRegion& output_region() {
  static const sponge_fuzz::GuardedRegion region(kMaxSqueeze);
  return region;
}

template <typename H>
constexpr bool is_xof = sponge_test::is_xof<H>;

template <typename H>
constexpr std::uint8_t domain_byte() {
  if constexpr (std::is_same_v<H, sponge::Keccak256>) return 0x01;
  if constexpr (is_xof<H>) return 0x1F;
  return 0x06;
}

// The OpenSSL digest for H; nullptr for Keccak-256, which OpenSSL 3.0 lacks (Crypto++).
template <typename H>
const EVP_MD* openssl_md() {
  using namespace sponge;
  if constexpr (std::is_same_v<H, Sha3_224>) return EVP_sha3_224();
  if constexpr (std::is_same_v<H, Sha3_256>) return EVP_sha3_256();
  if constexpr (std::is_same_v<H, Sha3_384>) return EVP_sha3_384();
  if constexpr (std::is_same_v<H, Sha3_512>) return EVP_sha3_512();
  if constexpr (std::is_same_v<H, Shake128>) return EVP_shake128();
  if constexpr (std::is_same_v<H, Shake256>) return EVP_shake256();
  return nullptr;
}

// The independent streaming implementation of one algorithm, fed the same update() calls
// as the hasher under test.
class OracleStream {
 public:
  explicit OracleStream(const EVP_MD* md) : md_(md) {
    if (md_ == nullptr) return;  // Crypto++ Keccak_256
    ctx_.reset(EVP_MD_CTX_new());
    if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), md_, nullptr) != 1) {
      sponge_fuzz::fail("EVP_DigestInit_ex failed");
    }
  }
  OracleStream(const OracleStream& other) : md_(other.md_), keccak_(other.keccak_) {
    if (md_ != nullptr) ctx_ = copy_context(other.ctx_.get());
  }
  OracleStream& operator=(const OracleStream& other) {
    if (this != &other) {
      md_ = other.md_;
      keccak_ = other.keccak_;
      ctx_.reset();
      if (md_ != nullptr) ctx_ = copy_context(other.ctx_.get());
    }
    return *this;
  }

  void update(std::span<const std::uint8_t> data) {
    if (md_ == nullptr) {
      keccak_.Update(data.data(), data.size());
    } else if (EVP_DigestUpdate(ctx_.get(), data.data(), data.size()) != 1) {
      sponge_fuzz::fail("EVP_DigestUpdate failed");
    }
  }

  // The digest (`length` must be its size), or `length` bytes of an XOF, of what was
  // absorbed so far. Works on a copy: OpenSSL 3.0 finalizes a context, XOF or not, once.
  Bytes output(std::size_t length, bool xof) const {
    Bytes out(length);
    if (md_ == nullptr) {
      CryptoPP::Keccak_256 copy(keccak_);
      if (length != CryptoPP::Keccak_256::DIGESTSIZE) sponge_fuzz::fail("Keccak-256 length");
      copy.Final(out.data());
      return out;
    }
    const auto copy = copy_context(ctx_.get());
    unsigned int written = 0;
    const bool ok =
        xof ? EVP_DigestFinalXOF(copy.get(), out.data(), out.size()) == 1
            : EVP_DigestFinal_ex(copy.get(), out.data(), &written) == 1 && written == length;
    if (!ok) sponge_fuzz::fail("OpenSSL digest finalization failed");
    return out;
  }

 private:
  using Context = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;
  static Context copy_context(const EVP_MD_CTX* from) {
    Context to(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    if (!to || EVP_MD_CTX_copy_ex(to.get(), from) != 1) sponge_fuzz::fail("EVP_MD_CTX_copy_ex");
    return to;
  }

  const EVP_MD* md_;
  Context ctx_{nullptr, EVP_MD_CTX_free};
  CryptoPP::Keccak_256 keccak_;
};

// The sponge construction written out byte by byte on the portable permutation. It is the
// oracle only where no library offers one: squeeze() on a fixed-output hasher reads on past
// the digest. Its first digest bytes are checked against the library first.
class ReferenceSponge {
 public:
  ReferenceSponge(std::size_t rate, std::uint8_t domain) : rate_(rate), domain_(domain) {}

  void absorb(std::span<const std::uint8_t> data) {
    for (const std::uint8_t value : data) {
      xor_byte(position_, value);
      if (++position_ == rate_) {
        sponge::detail::keccak_f1600_portable(lanes_.data());
        position_ = 0;
      }
    }
  }

  Bytes squeeze_copy(std::size_t length) const {
    ReferenceSponge padded = *this;
    padded.xor_byte(position_, domain_);
    padded.xor_byte(rate_ - 1, 0x80);
    Bytes out(length);
    for (std::size_t i = 0; i < length; ++i) {
      if (i % rate_ == 0) sponge::detail::keccak_f1600_portable(padded.lanes_.data());
      const std::size_t at = i % rate_;
      out[i] = static_cast<std::uint8_t>(padded.lanes_[at / 8] >> (8 * (at % 8)));
    }
    return out;
  }

 private:
  void xor_byte(std::size_t at, std::uint8_t value) {
    lanes_[at / 8] ^= std::uint64_t{value} << (8 * (at % 8));
  }

  std::array<std::uint64_t, 25> lanes_{};
  std::size_t rate_;
  std::uint8_t domain_;
  std::size_t position_ = 0;
};

// What a slot's hasher must produce: the oracles fed the same updates, whether it squeezes
// and how far, and the expected output stream (computed on demand, doubled as it grows).
template <typename H>
struct Model {
  OracleStream oracle{openssl_md<H>()};
  ReferenceSponge reference{H::rate_bytes, domain_byte<H>()};
  bool squeezing = false;
  std::size_t squeezed = 0;
  Bytes stream;  // a prefix of the output stream of what was absorbed

  void absorb(std::span<const std::uint8_t> data) {
    oracle.update(data);
    if constexpr (!is_xof<H>) reference.absorb(data);
    stream.clear();
  }

  std::span<const std::uint8_t> expected_stream(std::size_t from, std::size_t length) {
    if (stream.size() < from + length) {
      const std::size_t wanted = std::max({from + length, 2 * stream.size(), std::size_t{256}});
      if constexpr (is_xof<H>) {
        stream = oracle.output(wanted, true);
      } else {
        stream = reference.squeeze_copy(wanted);
        require_equal("reference sponge's first bytes vs the library's digest",
                      oracle.output(H::digest_bytes, false),
                      std::span(stream).first(H::digest_bytes));
      }
    }
    return std::span<const std::uint8_t>(stream).subspan(from, length);
  }
};

template <typename H>
struct Slot {
  std::optional<H> hasher{std::in_place};  // optional: copy and move construct into it
  Model<H> model;
};

// The algorithm's one-shot function through the overload `In`.
template <typename H, typename In>
auto one_shot_digest(In in) {
  using namespace sponge;
  if constexpr (std::is_same_v<H, Keccak256>) return keccak256(in);
  if constexpr (std::is_same_v<H, Sha3_224>) return sha3_224(in);
  if constexpr (std::is_same_v<H, Sha3_256>) return sha3_256(in);
  if constexpr (std::is_same_v<H, Sha3_384>) return sha3_384(in);
  if constexpr (std::is_same_v<H, Sha3_512>) return sha3_512(in);
}
// Constrained, so that a missing overload of the library reads as "not there" below.
template <typename H, typename In>
requires requires(In in, std::span<std::uint8_t> out) {
  sponge::shake128(in, out);
  sponge::shake256(in, out);
}
void one_shot_xof(In in, std::span<std::uint8_t> out) {
  if constexpr (std::is_same_v<H, sponge::Shake128>) {
    sponge::shake128(in, out);
  } else {
    sponge::shake256(in, out);
  }
}

// The three input overloads of update() and the one-shot functions, by number.
template <typename Call>
void with_input_overload(unsigned variant, std::span<const std::uint8_t> data, Call&& call) {
  switch (variant % 3) {
    case 0:
      call(data);
      break;
    case 1:
      call(std::as_bytes(data));
      break;
    default:
      call(std::string_view(reinterpret_cast<const char*>(data.data()), data.size()));
      break;
  }
}

template <typename Fn>
bool throws_logic_error(Fn&& fn) {
  try {
    fn();
  } catch (const std::logic_error&) {
    return true;
  }
  return false;
}

struct Operation {
  std::uint8_t opcode, slot, placement, variant;
  std::uint16_t length, extra;
};

template <typename H>
class Program {
 public:
  void run(FuzzInput& input) {
    while (!input.empty()) {
      Operation op{};
      op.opcode = input.byte();
      op.slot = input.byte() % kSlots;
      op.placement = input.byte();
      op.variant = input.byte();
      op.length = input.u16();
      op.extra = input.u16();
      execute(op);
    }
    for (Slot<H>& slot : slots_)
      peek(slot, 64);
  }

 private:
  void execute(const Operation& op) {
    Slot<H>& slot = slots_[op.slot];
    switch (op.opcode % 7) {
      case 0:
        update(slot, op);
        break;
      case 1:
        peek(slot, op.length % (kMaxSqueeze + 1));
        break;
      case 2:
        squeeze(slot, op);
        break;
      case 3:
        slot.hasher->reset();
        slot.model = Model<H>();
        break;
      case 4:
        copy(slot, slots_[op.extra % kSlots], op.variant % 2 != 0);
        break;
      case 5:
        move(op.slot, (op.slot + 1 + op.extra % (kSlots - 1)) % kSlots, op.variant % 2 != 0);
        break;
      default:
        one_shot(op);
        break;
    }
  }

  static Bytes message(const Operation& op) {
    return sponge_test::Rng(op.extra).bytes(op.length % (kMaxUpdate + 1));
  }

  void update(Slot<H>& slot, const Operation& op) {
    const Bytes data = message(op);
    const PlacedBuffer in(input_region(), op.placement & 15, data.size());
    std::copy(data.begin(), data.end(), in.bytes().begin());
    bool threw = false;
    with_input_overload(op.variant, in.bytes(), [&](auto view) {
      threw = throws_logic_error([&] { slot.hasher->update(view); });
    });
    if (threw != slot.model.squeezing) {
      sponge_fuzz::fail(threw ? "update() threw before squeezing"
                              : "update() after squeeze() did not throw std::logic_error");
    }
    if (!threw) slot.model.absorb(data);
    require_equal("update()'s input after the call", data, in.bytes());
  }

  // Reads the slot's output without disturbing it: digest() on fixed-output hashers, and a
  // copy that squeezes on.
  void peek(Slot<H>& slot, std::size_t length) {
    if constexpr (!is_xof<H>) {
      std::array<std::uint8_t, H::digest_bytes> first{}, second{};
      const bool threw = throws_logic_error([&] {
        first = slot.hasher->digest();
        second = slot.hasher->digest();
      });
      if (threw != slot.model.squeezing) {
        sponge_fuzz::fail(threw ? "digest() threw before squeezing"
                                : "digest() after squeeze() did not throw std::logic_error");
      }
      if (!threw) {
        const Bytes expected = slot.model.oracle.output(H::digest_bytes, false);
        require_equal("digest()", expected, first);
        require_equal("a second digest()", expected, second);
      }
    }
    H copy = *slot.hasher;
    Bytes out(length);
    copy.squeeze(std::span<std::uint8_t>(out));
    const std::size_t from = slot.model.squeezing ? slot.model.squeezed : 0;
    require_equal("squeeze() of a copy", slot.model.expected_stream(from, length), out);
  }

  void squeeze(Slot<H>& slot, const Operation& op) {
    const std::size_t length = op.length % (kMaxSqueeze + 1);
    const PlacedBuffer out(output_region(), op.placement >> 4, length);
    if (op.variant % 2 == 0) {
      slot.hasher->squeeze(out.bytes());
    } else {
      slot.hasher->squeeze(std::as_writable_bytes(out.bytes()));
    }
    require_equal("squeeze()", slot.model.expected_stream(slot.model.squeezed, length),
                  out.bytes());
    slot.model.squeezing = true;
    slot.model.squeezed += length;
  }

  static void copy(Slot<H>& to, const Slot<H>& from, bool construct) {
    const Model<H> model = from.model;  // `from` may be `to`
    if (construct) {
      const H source = *from.hasher;
      to.hasher.emplace(source);
    } else {
      *to.hasher = *from.hasher;
    }
    to.model = model;
  }

  void move(std::size_t to_index, std::size_t from_index, bool construct) {
    Slot<H>& to = slots_[to_index];
    Slot<H>& from = slots_[from_index];
    if (construct) {
      H moved(std::move(*from.hasher));
      to.hasher.emplace(std::move(moved));
    } else {
      *to.hasher = std::move(*from.hasher);
    }
    to.model = from.model;
    from.hasher->reset();  // a moved-from hasher must be usable after reset()
    from.model = Model<H>();
  }

  void one_shot(const Operation& op) {
    const Bytes data = message(op);
    const PlacedBuffer in(input_region(), op.placement & 15, data.size());
    std::copy(data.begin(), data.end(), in.bytes().begin());
    const EVP_MD* md = openssl_md<H>();
    if constexpr (is_xof<H>) {
      const std::size_t length = op.extra % (kMaxSqueeze + 1);
      const PlacedBuffer out(output_region(), op.placement >> 4, length);
      // The byte-span overload of shake128/shake256, when the library has it.
      constexpr bool has_byte_overload =
          requires(std::span<const std::byte> bytes, std::span<std::uint8_t> output) {
        one_shot_xof<H>(bytes, output);
      };
      const unsigned overload = op.variant % 3;
      if (overload == 0 || (overload == 1 && !has_byte_overload)) {
        one_shot_xof<H>(std::span<const std::uint8_t>(in.bytes()), out.bytes());
      } else if (overload == 1) {
        if constexpr (has_byte_overload) one_shot_xof<H>(std::as_bytes(in.bytes()), out.bytes());
      } else {
        one_shot_xof<H>(
            std::string_view(reinterpret_cast<const char*>(in.bytes().data()), data.size()),
            out.bytes());
      }
      require_equal("one-shot XOF", sponge_test::openssl_hash(md, data, length, true), out.bytes());
    } else {
      std::array<std::uint8_t, H::digest_bytes> digest{};
      with_input_overload(op.variant, in.bytes(),
                          [&](auto view) { digest = one_shot_digest<H>(view); });
      const Bytes expected = md == nullptr
                                 ? sponge_test::cryptopp_keccak256(data)
                                 : sponge_test::openssl_hash(md, data, H::digest_bytes, false);
      require_equal("one-shot digest", expected, digest);
    }
    require_equal("the one-shot function's input after the call", data, in.bytes());
  }

  std::array<Slot<H>, kSlots> slots_;
};

template <typename H>
void run_program(FuzzInput& input) {
  Program<H> program;
  program.run(input);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sponge_fuzz::start_target("sponge_fuzz_hashers");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput input(data, size);
  const std::size_t algorithm = input.byte() % (7 + sponge_fuzz::kModeFunctionCount);
  if (algorithm >= 7) {
    sponge_fuzz::run_mode_program(algorithm - 7, input);
    return 0;
  }
  switch (algorithm) {
    case 0:
      run_program<sponge::Keccak256>(input);
      break;
    case 1:
      run_program<sponge::Sha3_224>(input);
      break;
    case 2:
      run_program<sponge::Sha3_256>(input);
      break;
    case 3:
      run_program<sponge::Sha3_384>(input);
      break;
    case 4:
      run_program<sponge::Sha3_512>(input);
      break;
    case 5:
      run_program<sponge::Shake128>(input);
      break;
    default:
      run_program<sponge::Shake256>(input);
      break;
  }
  return 0;
}
