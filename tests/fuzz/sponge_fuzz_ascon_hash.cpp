// sponge_fuzz_ascon_hash: Ascon-Hash256, Ascon-XOF128 and Ascon-CXOF128 (NIST SP 800-232) on
// a message the fuzz input cuts into streaming pieces, on every compiled Ascon kernel this
// CPU runs. The portable kernel's one-shot output is first checked against a byte-at-a-time
// sponge written out here on the portable rounds (an oracle that shares no buffering or
// padding code with the library), then every kernel's one-shot and streamed output against
// the portable kernel's. Streaming checks: update() in the input's pieces (empty ones
// included), digest() twice, squeeze() in the input's pieces, update() after squeeze() throws
// std::logic_error, reset() starts over (for CXOF128: from the state after the customization
// string). A customization string over 256 bytes must be refused by the constructor, the
// one-shot function and the C API, with nothing written. Any difference aborts.
//
// Input (bytes past the end read as zero; make_corpus.py writes examples):
//   function (% 3: Hash256, XOF128, CXOF128), message length (u16, % 1025), message seed (u16),
//   input placement (see PlacedBuffer), customization length (u16, % 301; CXOF128 only),
//   output length (u16, % 513; the XOFs only, Hash256 gives 32 bytes), then one byte per
//   update() piece (% 41 bytes) until the message is cut, then (the XOFs) one byte per
//   squeeze() piece (% 41 bytes) until the output is cut; past the input's end the rest is
//   one piece.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ascon/ascon_kernel.hpp"
#include "ascon/ascon_modes.hpp"
#include "ascon/ascon_portable.hpp"
#include "fuzz/fuzz_support.hpp"
#include "sponge/sponge.h"
#include "sponge/sponge.hpp"
#include "support/test_support.hpp"

namespace {

using sponge::detail::AsconKernel;
using sponge_fuzz::FuzzInput;
using sponge_fuzz::PlacedBuffer;
using sponge_fuzz::require_equal;
using sponge_test::Bytes;

constexpr std::size_t kMaxMessage = 1024;  // 128 hash blocks
constexpr std::size_t kMaxCustomization = 300;
constexpr std::size_t kMaxOutput = 512;
constexpr std::size_t kMaxPiece = 40;  // five blocks: pieces end before, at and after a block
constexpr std::size_t kRate = 8;

enum class Function { hash256, xof128, cxof128 };

const sponge_fuzz::GuardedRegion& input_region() {
  static const sponge_fuzz::GuardedRegion region(kMaxMessage);
  return region;
}
const sponge_fuzz::GuardedRegion& output_region() {
  static const sponge_fuzz::GuardedRegion region(kMaxOutput);
  return region;
}

// SP 800-232's hash sponge one byte at a time, on the portable rounds stepped one by one
// (not a kernel entry): the initial state is computed from the IV, not taken from the
// library's precomputed constants.
class ReferenceHash {
 public:
  explicit ReferenceHash(std::uint64_t iv) {
    words_[0] = iv;
    permute12();
  }

  void absorb(std::span<const std::uint8_t> data) {
    for (const std::uint8_t value : data) {
      words_[0] ^= std::uint64_t{value} << (8 * position_);
      if (++position_ == kRate) {
        permute12();
        position_ = 0;
      }
    }
  }
  // Pads the last block (0x01 after the data) and permutes.
  void finish_absorbing() {
    words_[0] ^= std::uint64_t{0x01} << (8 * position_);
    permute12();
    position_ = 0;
  }
  Bytes squeeze(std::size_t length) {
    finish_absorbing();
    Bytes out(length);
    for (std::size_t i = 0; i < length; ++i) {
      if (i > 0 && i % kRate == 0) permute12();
      out[i] = static_cast<std::uint8_t>(words_[0] >> (8 * (i % kRate)));
    }
    return out;
  }
  // CXOF128: |Z| in bits as one block, then Z as a padded message.
  void customize(std::span<const std::uint8_t> customization) {
    words_[0] ^= 8 * static_cast<std::uint64_t>(customization.size());
    permute12();
    absorb(customization);
    finish_absorbing();
  }

 private:
  void permute12() { sponge::detail::ascon_p320_rounds_portable(words_.data(), 0, 12); }

  std::array<std::uint64_t, 5> words_{};
  std::size_t position_ = 0;
};

Bytes reference_output(Function function, std::span<const std::uint8_t> message,
                       std::span<const std::uint8_t> customization, std::size_t length) {
  switch (function) {
    case Function::hash256: {
      ReferenceHash hash(sponge::detail::kAsconHash256Iv);
      hash.absorb(message);
      return hash.squeeze(length);
    }
    case Function::xof128: {
      ReferenceHash xof(sponge::detail::kAsconXof128Iv);
      xof.absorb(message);
      return xof.squeeze(length);
    }
    default: {
      ReferenceHash cxof(sponge::detail::kAsconCxof128Iv);
      cxof.customize(customization);
      cxof.absorb(message);
      return cxof.squeeze(length);
    }
  }
}

std::string label(const AsconKernel& kernel, std::string_view what) {
  std::string text = "Ascon kernel ";
  text.append(kernel.name);
  text += ": ";
  text.append(what);
  return text;
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

// The one-shot function of `function` on `kernel`.
Bytes one_shot(const AsconKernel& kernel, Function function, std::span<const std::uint8_t> message,
               std::span<const std::uint8_t> customization, std::size_t length) {
  Bytes out(length);
  switch (function) {
    case Function::hash256: {
      const auto digest = sponge::detail::ascon_hash256_on(kernel, message);
      std::copy(digest.begin(), digest.end(), out.begin());
      break;
    }
    case Function::xof128:
      sponge::detail::ascon_xof128_on(kernel, message, out);
      break;
    default:
      sponge::detail::ascon_cxof128_on(kernel, message, customization, out);
      break;
  }
  return out;
}

void update_in_pieces(auto& hasher, std::span<const std::uint8_t> message,
                      const std::vector<std::size_t>& pieces) {
  std::size_t at = 0;
  for (const std::size_t piece : pieces) {
    hasher.update(message.subspan(at, piece));
    at += piece;
  }
}

// squeeze() in the input's pieces, each into its own buffer (at the guard page or on the
// heap), collected into one output stream.
Bytes squeezed_in_pieces(auto& xof, const std::vector<std::size_t>& pieces,
                         std::uint8_t placement) {
  Bytes out;
  for (const std::size_t piece : pieces) {
    const PlacedBuffer buffer(output_region(), placement, piece);
    xof.squeeze(buffer.bytes());
    out.insert(out.end(), buffer.bytes().begin(), buffer.bytes().end());
  }
  return out;
}

// The XOF's life after its output: once squeeze() was called (an empty squeeze() counts),
// update() is refused; reset() starts over.
void check_after_squeeze(const AsconKernel& kernel, auto& xof, bool squeezed,
                         std::span<const std::uint8_t> message, const Bytes& expected) {
  const bool refused = throws_logic_error([&] { xof.update(message.first(0)); });
  if (refused != squeezed) {
    sponge_fuzz::fail(label(kernel, refused ? "update() threw before squeeze()"
                                            : "update() after squeeze() did not throw"));
  }
  xof.reset();
  xof.update(message);
  Bytes again(expected.size());
  xof.squeeze(again);
  require_equal(label(kernel, "squeeze() after reset() and one update()"), expected, again);
}

// A customization string over 256 bytes: refused everywhere, nothing computed or written.
void check_customization_refused(std::span<const std::uint8_t> message,
                                 std::span<const std::uint8_t> customization, std::size_t length) {
  for (const AsconKernel* kernel : sponge_fuzz::runnable_ascon_kernels()) {
    bool refused = false;
    try {
      const sponge::AsconCxof128 cxof(*kernel, customization);
    } catch (const std::invalid_argument&) {
      refused = true;
    }
    if (!refused) sponge_fuzz::fail(label(*kernel, "AsconCxof128 accepted Z over 256 bytes"));
  }
  const Bytes untouched(length, 0xA5);
  Bytes out = untouched;
  bool refused = false;
  try {
    sponge::ascon_cxof128(message, customization, out);
  } catch (const std::invalid_argument&) {
    refused = true;
  }
  if (!refused) sponge_fuzz::fail("ascon_cxof128 accepted a customization over 256 bytes");
  require_equal("ascon_cxof128's output after refusing Z", untouched, out);
  const sponge_status status =
      sponge_ascon_cxof128(customization.data(), customization.size(), message.data(),
                           message.size(), out.data(), out.size());
  if (status != SPONGE_ERROR_INVALID_PARAMETER) {
    sponge_fuzz::fail("sponge_ascon_cxof128 did not refuse Z over 256 bytes");
  }
  require_equal("sponge_ascon_cxof128's output after refusing Z", untouched, out);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sponge_fuzz::start_ascon_target("sponge_fuzz_ascon_hash");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput input(data, size);
  const auto function = static_cast<Function>(input.byte() % 3);
  const std::size_t message_length = input.u16() % (kMaxMessage + 1);
  const std::uint16_t seed = input.u16();
  const std::uint8_t placement = input.byte();
  const std::size_t customization_length = input.u16() % (kMaxCustomization + 1);
  const std::size_t xof_length = input.u16() % (kMaxOutput + 1);
  const bool is_xof = function != Function::hash256;
  const std::size_t output_length = is_xof ? xof_length : 32;
  const std::vector<std::size_t> update_pieces =
      sponge_fuzz::piece_lengths(input, message_length, kMaxPiece);
  // Hash256 has digest(), no squeeze(): it reads no squeeze pieces.
  const std::vector<std::size_t> squeeze_pieces =
      sponge_fuzz::piece_lengths(input, is_xof ? output_length : 0, kMaxPiece);

  sponge_test::Rng rng(seed);
  const Bytes message = rng.bytes(message_length);
  const Bytes customization =
      function == Function::cxof128 ? rng.bytes(customization_length) : Bytes();
  const PlacedBuffer placed(input_region(), placement & 15, message.size());
  std::copy(message.begin(), message.end(), placed.bytes().begin());
  const std::span<const std::uint8_t> in = placed.bytes();

  if (customization.size() > sponge::AsconCxof128::kMaxCustomizationBytes) {
    check_customization_refused(in, customization, output_length);
    return 0;
  }

  const Bytes reference = reference_output(function, message, customization, output_length);
  const AsconKernel& portable = sponge_fuzz::portable_ascon_kernel();
  const Bytes expected = one_shot(portable, function, in, customization, output_length);
  require_equal(label(portable, "one-shot vs the byte-wise reference sponge"), reference, expected);

  for (const AsconKernel* kernel : sponge_fuzz::runnable_ascon_kernels()) {
    require_equal(label(*kernel, "one-shot vs portable"), expected,
                  one_shot(*kernel, function, in, customization, output_length));
    switch (function) {
      case Function::hash256: {
        sponge::AsconHash256 hash(*kernel);
        update_in_pieces(hash, in, update_pieces);
        require_equal(label(*kernel, "digest() of the pieces vs portable one-shot"), expected,
                      hash.digest());
        require_equal(label(*kernel, "a second digest()"), expected, hash.digest());
        hash.reset();
        hash.update(in);
        require_equal(label(*kernel, "digest() after reset() and one update()"), expected,
                      hash.digest());
        break;
      }
      case Function::xof128: {
        sponge::AsconXof128 xof(*kernel);
        update_in_pieces(xof, in, update_pieces);
        require_equal(label(*kernel, "squeeze() in pieces vs portable one-shot"), expected,
                      squeezed_in_pieces(xof, squeeze_pieces, placement >> 4));
        check_after_squeeze(*kernel, xof, !squeeze_pieces.empty(), in, expected);
        break;
      }
      default: {
        sponge::AsconCxof128 cxof(*kernel, customization);
        update_in_pieces(cxof, in, update_pieces);
        require_equal(label(*kernel, "squeeze() in pieces vs portable one-shot"), expected,
                      squeezed_in_pieces(cxof, squeeze_pieces, placement >> 4));
        check_after_squeeze(*kernel, cxof, !squeeze_pieces.empty(), in, expected);
        break;
      }
    }
  }
  require_equal("the message after every call", message, in);
  return 0;
}
