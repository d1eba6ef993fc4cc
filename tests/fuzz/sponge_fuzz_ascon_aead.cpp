// sponge_fuzz_ascon_aead: Ascon-AEAD128 (NIST SP 800-232) on every compiled Ascon kernel this
// CPU runs, with associated data and text the fuzz input cuts into streaming pieces. The
// portable kernel's one-shot encryption is first checked against SP 800-232's mode written out
// here byte by byte on the portable rounds; then on every kernel, against the portable
// kernel's ciphertext and tag: one-shot encryption (separate buffers, then in place),
// streaming encryption in place in the input's pieces, one-shot decryption in place and
// streaming decryption in place; each must give back the plaintext. Then one bit the input
// chooses, of the ciphertext, the tag or the associated data, is flipped: one-shot and
// streaming decryption must refuse it and leave their output all zero (no unverified
// plaintext released), and so must the C API. Encryption into an output partly overlapping
// the plaintext (by 1 to 32 bytes, from the seed) must be refused, output zeroed, on each
// path. Any difference aborts.
//
// Input (bytes past the end read as zero; make_corpus.py writes examples):
//   associated data length (u16, % 301), text length (u16, % 1025), seed (u16: key, nonce,
//   associated data and plaintext come from it), placement (low nibble: the text buffer,
//   high nibble: the associated data; see PlacedBuffer), tampered bit (u16, modulo the bits
//   of ciphertext, then tag, then associated data), then one byte per associated-data piece
//   (% 41 bytes) until the associated data is cut, then one byte per text piece (% 41 bytes)
//   until the text is cut; past the input's end the rest is one piece.
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
#include "support/byte_order.hpp"
#include "support/test_support.hpp"

namespace {

using sponge::detail::AsconKernel;
using sponge_fuzz::FuzzInput;
using sponge_fuzz::PlacedBuffer;
using sponge_fuzz::require_equal;
using sponge_test::Bytes;
using Key = std::array<std::uint8_t, 16>;
using Tag = std::array<std::uint8_t, 16>;

constexpr std::size_t kMaxAssociatedData = 300;
constexpr std::size_t kMaxText = 1024;  // 64 blocks
constexpr std::size_t kMaxPiece = 40;   // two and a half blocks
constexpr std::size_t kRate = 16;

const sponge_fuzz::GuardedRegion& text_region() {
  static const sponge_fuzz::GuardedRegion region(kMaxText);
  return region;
}
const sponge_fuzz::GuardedRegion& associated_data_region() {
  static const sponge_fuzz::GuardedRegion region(kMaxAssociatedData);
  return region;
}

// SP 800-232's Ascon-AEAD128 encryption one byte at a time, on the portable rounds stepped
// one by one (not a kernel entry).
class ReferenceAead {
 public:
  ReferenceAead(const Key& key, const Key& nonce) {
    key0_ = sponge::detail::load_le64(key.data());
    key1_ = sponge::detail::load_le64(key.data() + 8);
    words_ = {sponge::detail::kAsconAead128Iv, key0_, key1_,
              sponge::detail::load_le64(nonce.data()), sponge::detail::load_le64(nonce.data() + 8)};
    permute(12);
    words_[3] ^= key0_;
    words_[4] ^= key1_;
  }

  void encrypt(std::span<const std::uint8_t> associated_data,
               std::span<const std::uint8_t> plaintext, Bytes& ciphertext, Tag& tag) {
    if (!associated_data.empty()) {
      std::size_t position = 0;
      for (const std::uint8_t value : associated_data) {
        xor_byte(position, value);
        if (++position == kRate) {
          permute(8);
          position = 0;
        }
      }
      xor_byte(position, 0x01);
      permute(8);
    }
    words_[4] ^= std::uint64_t{1} << 63;  // domain separation, always
    ciphertext.resize(plaintext.size());
    std::size_t position = 0;
    for (std::size_t i = 0; i < plaintext.size(); ++i) {
      xor_byte(position, plaintext[i]);
      ciphertext[i] = byte_at(position);
      if (++position == kRate) {
        permute(8);
        position = 0;
      }
    }
    xor_byte(position, 0x01);
    words_[2] ^= key0_;
    words_[3] ^= key1_;
    permute(12);
    sponge::detail::store_le64(tag.data(), words_[3] ^ key0_);
    sponge::detail::store_le64(tag.data() + 8, words_[4] ^ key1_);
  }

 private:
  // The rate is x0 || x1, bytes little-endian.
  void xor_byte(std::size_t position, std::uint8_t value) {
    words_[position / 8] ^= std::uint64_t{value} << (8 * (position % 8));
  }
  std::uint8_t byte_at(std::size_t position) const {
    return static_cast<std::uint8_t>(words_[position / 8] >> (8 * (position % 8)));
  }
  void permute(int rounds) {
    sponge::detail::ascon_p320_rounds_portable(words_.data(), 12 - rounds, 12);
  }

  std::array<std::uint64_t, 5> words_{};
  std::uint64_t key0_ = 0, key1_ = 0;
};

std::string label(const AsconKernel& kernel, std::string_view what) {
  std::string text = "Ascon kernel ";
  text.append(kernel.name);
  text += ": ";
  text.append(what);
  return text;
}

// One message and how the input cuts it.
struct Case {
  Key key{}, nonce{};
  Bytes associated_data, plaintext;
  std::vector<std::size_t> associated_data_pieces, text_pieces;
  std::uint8_t text_placement = 0;
  std::span<const std::uint8_t> placed_associated_data;  // at the guard page or on the heap
};

void add_associated_data_in_pieces(auto& stream, const Case& c,
                                   std::span<const std::uint8_t> associated_data) {
  std::size_t at = 0;
  for (const std::size_t piece : c.associated_data_pieces) {
    stream.update_associated_data(associated_data.subspan(at, piece));
    at += piece;
  }
}

// Streaming encryption in place, in the input's pieces; returns the tag.
Tag encrypt_streamed_in_place(const AsconKernel& kernel, const Case& c,
                              std::span<std::uint8_t> buffer) {
  sponge::AsconAead128Encryptor encryptor(kernel, c.key, c.nonce);
  add_associated_data_in_pieces(encryptor, c, c.placed_associated_data);
  std::size_t at = 0;
  for (const std::size_t piece : c.text_pieces) {
    encryptor.update(buffer.subspan(at, piece), buffer.subspan(at, piece));
    at += piece;
  }
  const Tag tag = encryptor.finish();
  bool refused = false;
  try {
    encryptor.update(buffer.first(0), buffer.first(0));
  } catch (const std::logic_error&) {
    refused = true;
  }
  if (!refused) sponge_fuzz::fail(label(kernel, "Encryptor::update() after finish() went on"));
  return tag;
}

// Streaming decryption in place, in the input's pieces; the tag check's verdict.
bool decrypt_streamed_in_place(const AsconKernel& kernel, const Case& c,
                               std::span<const std::uint8_t> associated_data,
                               std::span<std::uint8_t> buffer, const Tag& tag) {
  sponge::AsconAead128Decryptor decryptor(kernel, c.key, c.nonce, buffer);
  add_associated_data_in_pieces(decryptor, c, associated_data);
  std::size_t at = 0;
  for (const std::size_t piece : c.text_pieces) {
    decryptor.update(buffer.subspan(at, piece));
    at += piece;
  }
  const bool accepted = decryptor.finish(tag);
  if (accepted && decryptor.plaintext_bytes() != buffer.size()) {
    sponge_fuzz::fail(label(kernel, "Decryptor::plaintext_bytes() is not the text length"));
  }
  return accepted;
}

void check_round_trip(const AsconKernel& kernel, const Case& c, const Bytes& ciphertext,
                      const Tag& tag) {
  const std::span<const std::uint8_t> associated_data = c.placed_associated_data;
  {
    const PlacedBuffer in(text_region(), c.text_placement, c.plaintext.size());
    std::copy(c.plaintext.begin(), c.plaintext.end(), in.bytes().begin());
    Bytes out(c.plaintext.size());
    Tag out_tag{};
    sponge::detail::ascon_aead128_encrypt_on(kernel, c.key, c.nonce, associated_data, in.bytes(),
                                             out, out_tag);
    require_equal(label(kernel, "one-shot ciphertext vs portable"), ciphertext, out);
    require_equal(label(kernel, "one-shot tag vs portable"), tag, out_tag);
    require_equal(label(kernel, "the plaintext after one-shot encryption"), c.plaintext,
                  in.bytes());
  }
  const PlacedBuffer placed(text_region(), c.text_placement, c.plaintext.size());
  const std::span<std::uint8_t> buffer = placed.bytes();

  std::copy(c.plaintext.begin(), c.plaintext.end(), buffer.begin());
  Tag in_place_tag{};
  sponge::detail::ascon_aead128_encrypt_on(kernel, c.key, c.nonce, associated_data, buffer, buffer,
                                           in_place_tag);
  require_equal(label(kernel, "one-shot in-place ciphertext"), ciphertext, buffer);
  require_equal(label(kernel, "one-shot in-place tag"), tag, in_place_tag);

  std::copy(c.plaintext.begin(), c.plaintext.end(), buffer.begin());
  const Tag streamed_tag = encrypt_streamed_in_place(kernel, c, buffer);
  require_equal(label(kernel, "streamed in-place ciphertext"), ciphertext, buffer);
  require_equal(label(kernel, "streamed tag"), tag, streamed_tag);

  if (!sponge::detail::ascon_aead128_decrypt_on(kernel, c.key, c.nonce, associated_data, buffer,
                                                tag, buffer)) {
    sponge_fuzz::fail(label(kernel, "one-shot in-place decryption refused its own message"));
  }
  require_equal(label(kernel, "one-shot in-place decryption"), c.plaintext, buffer);

  std::copy(ciphertext.begin(), ciphertext.end(), buffer.begin());
  if (!decrypt_streamed_in_place(kernel, c, associated_data, buffer, tag)) {
    sponge_fuzz::fail(label(kernel, "streamed decryption refused its own message"));
  }
  require_equal(label(kernel, "streamed in-place decryption"), c.plaintext, buffer);
}

// Encryption into an output that partly overlaps the plaintext, `shift` bytes ahead of it and
// behind it: one-shot (on the kernel and through the C API) and streamed, each refused with
// the ciphertext (and the one-shot tag) zeroed.
void check_overlap_refused(const AsconKernel& kernel, const Case& c, std::size_t shift) {
  const std::size_t length = c.plaintext.size();
  // A partial overlap needs an output 1 to length - 1 bytes away: none exists for a
  // plaintext of fewer than two bytes (a shift of `length` puts the output just apart).
  if (length < 2) return;
  shift = 1 + shift % std::min<std::size_t>(length - 1, 2 * kRate);
  const Bytes zeros(length, 0);
  const Tag zero_tag{};
  Bytes buffer(length + 2 * shift);
  for (const bool ahead : {true, false}) {
    const std::span<std::uint8_t> in = std::span(buffer).subspan(shift, length);
    const std::span<std::uint8_t> out = std::span(buffer).subspan(ahead ? 2 * shift : 0, length);
    const auto place = [&] { std::copy(c.plaintext.begin(), c.plaintext.end(), in.begin()); };
    place();
    Tag tag;
    tag.fill(0xA5);
    bool refused = false;
    try {
      sponge::detail::ascon_aead128_encrypt_on(kernel, c.key, c.nonce, c.placed_associated_data, in,
                                               out, tag);
    } catch (const std::invalid_argument&) {
      refused = true;
    }
    if (!refused)
      sponge_fuzz::fail(label(kernel, "one-shot encryption into a partly overlapping output"));
    require_equal(label(kernel, "the output of a refused overlap"), zeros, out);
    require_equal(label(kernel, "the tag of a refused overlap"), zero_tag, tag);

    place();
    sponge::AsconAead128Encryptor encryptor(kernel, c.key, c.nonce);
    refused = false;
    try {
      encryptor.update(in, out);
    } catch (const std::invalid_argument&) {
      refused = true;
    }
    if (!refused)
      sponge_fuzz::fail(label(kernel, "Encryptor::update() into a partly overlapping output"));
    require_equal(label(kernel, "the streamed output of a refused overlap"), zeros, out);

    place();
    tag.fill(0xA5);
    if (sponge_ascon_aead128_encrypt(c.key.data(), c.nonce.data(), c.associated_data.data(),
                                     c.associated_data.size(), in.data(), length, out.data(),
                                     tag.data()) != SPONGE_ERROR_OVERLAP) {
      sponge_fuzz::fail("sponge_ascon_aead128_encrypt into a partly overlapping output");
    }
    require_equal("sponge_ascon_aead128_encrypt's output after an overlap", zeros, out);
    require_equal("sponge_ascon_aead128_encrypt's tag after an overlap", zero_tag, tag);
  }
}

// The message with one bit flipped in the ciphertext, the tag or the associated data.
struct Forgery {
  Bytes associated_data, ciphertext;
  Tag tag{};
};

Forgery forge(const Case& c, const Bytes& ciphertext, const Tag& tag, std::size_t bit) {
  Forgery forgery{c.associated_data, ciphertext, tag};
  bit %= 8 * (ciphertext.size() + tag.size() + c.associated_data.size());
  const auto flip = [](std::uint8_t& value, std::size_t bit_in_byte) {
    value = static_cast<std::uint8_t>(value ^ (1u << bit_in_byte));
  };
  if (bit < 8 * ciphertext.size()) {
    flip(forgery.ciphertext[bit / 8], bit % 8);
    return forgery;
  }
  bit -= 8 * ciphertext.size();
  if (bit < 8 * tag.size()) {
    flip(forgery.tag[bit / 8], bit % 8);
    return forgery;
  }
  bit -= 8 * tag.size();
  flip(forgery.associated_data[bit / 8], bit % 8);
  return forgery;
}

void check_forgery_refused(const AsconKernel& kernel, const Case& c, const Forgery& forgery) {
  const Bytes zeros(forgery.ciphertext.size(), 0);
  const PlacedBuffer placed(text_region(), c.text_placement, forgery.ciphertext.size());
  const std::span<std::uint8_t> buffer = placed.bytes();

  Bytes opened(forgery.ciphertext.size(), 0xA5);
  if (sponge::detail::ascon_aead128_decrypt_on(kernel, c.key, c.nonce, forgery.associated_data,
                                               forgery.ciphertext, forgery.tag, opened)) {
    sponge_fuzz::fail(label(kernel, "one-shot decryption accepted a flipped bit"));
  }
  require_equal(label(kernel, "one-shot output after a refused forgery"), zeros, opened);

  std::copy(forgery.ciphertext.begin(), forgery.ciphertext.end(), buffer.begin());
  if (sponge::detail::ascon_aead128_decrypt_on(kernel, c.key, c.nonce, forgery.associated_data,
                                               buffer, forgery.tag, buffer)) {
    sponge_fuzz::fail(label(kernel, "one-shot in-place decryption accepted a flipped bit"));
  }
  require_equal(label(kernel, "in-place output after a refused forgery"), zeros, buffer);

  std::copy(forgery.ciphertext.begin(), forgery.ciphertext.end(), buffer.begin());
  if (decrypt_streamed_in_place(kernel, c, forgery.associated_data, buffer, forgery.tag)) {
    sponge_fuzz::fail(label(kernel, "streamed decryption accepted a flipped bit"));
  }
  require_equal(label(kernel, "streamed output after a refused forgery"), zeros, buffer);
}

// The C API on the dispatcher's kernel: the genuine message opens, the forgery is refused
// with SPONGE_ERROR_AUTHENTICATION and a zeroed output.
void check_c_api(const Case& c, const Bytes& ciphertext, const Tag& tag, const Forgery& forgery) {
  Bytes opened(ciphertext.size(), 0xA5);
  if (sponge_ascon_aead128_decrypt(c.key.data(), c.nonce.data(), c.associated_data.data(),
                                   c.associated_data.size(), ciphertext.data(), ciphertext.size(),
                                   tag.data(), opened.data()) != SPONGE_OK) {
    sponge_fuzz::fail("sponge_ascon_aead128_decrypt refused a genuine message");
  }
  require_equal("sponge_ascon_aead128_decrypt", c.plaintext, opened);
  std::fill(opened.begin(), opened.end(), 0xA5);
  if (sponge_ascon_aead128_decrypt(c.key.data(), c.nonce.data(), forgery.associated_data.data(),
                                   forgery.associated_data.size(), forgery.ciphertext.data(),
                                   forgery.ciphertext.size(), forgery.tag.data(),
                                   opened.data()) != SPONGE_ERROR_AUTHENTICATION) {
    sponge_fuzz::fail("sponge_ascon_aead128_decrypt did not report a flipped bit");
  }
  require_equal("sponge_ascon_aead128_decrypt's output after a forgery",
                Bytes(ciphertext.size(), 0), opened);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sponge_fuzz::start_ascon_target("sponge_fuzz_ascon_aead");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput input(data, size);
  const std::size_t associated_data_length = input.u16() % (kMaxAssociatedData + 1);
  const std::size_t text_length = input.u16() % (kMaxText + 1);
  const std::uint16_t seed = input.u16();
  const std::uint8_t placement = input.byte();
  const std::size_t tampered_bit = input.u16();

  Case c;
  c.associated_data_pieces = sponge_fuzz::piece_lengths(input, associated_data_length, kMaxPiece);
  c.text_pieces = sponge_fuzz::piece_lengths(input, text_length, kMaxPiece);
  c.text_placement = placement & 15;
  sponge_test::Rng rng(seed);
  const Bytes key = rng.bytes(16), nonce = rng.bytes(16);
  std::copy(key.begin(), key.end(), c.key.begin());
  std::copy(nonce.begin(), nonce.end(), c.nonce.begin());
  c.associated_data = rng.bytes(associated_data_length);
  c.plaintext = rng.bytes(text_length);
  const PlacedBuffer associated_data(associated_data_region(), placement >> 4,
                                     associated_data_length);
  std::copy(c.associated_data.begin(), c.associated_data.end(), associated_data.bytes().begin());
  c.placed_associated_data = associated_data.bytes();

  Bytes reference_ciphertext;
  Tag reference_tag{};
  ReferenceAead(c.key, c.nonce)
      .encrypt(c.associated_data, c.plaintext, reference_ciphertext, reference_tag);
  const AsconKernel& portable = sponge_fuzz::portable_ascon_kernel();
  Bytes ciphertext(text_length);
  Tag tag{};
  sponge::detail::ascon_aead128_encrypt_on(portable, c.key, c.nonce, c.associated_data, c.plaintext,
                                           ciphertext, tag);
  require_equal(label(portable, "ciphertext vs the byte-wise reference"), reference_ciphertext,
                ciphertext);
  require_equal(label(portable, "tag vs the byte-wise reference"), reference_tag, tag);

  const Forgery forgery = forge(c, ciphertext, tag, tampered_bit);
  for (const AsconKernel* kernel : sponge_fuzz::runnable_ascon_kernels()) {
    check_round_trip(*kernel, c, ciphertext, tag);
    check_forgery_refused(*kernel, c, forgery);
    check_overlap_refused(*kernel, c, seed);
  }
  check_c_api(c, ciphertext, tag, forgery);
  require_equal("the associated data after every call", c.associated_data,
                c.placed_associated_data);
  return 0;
}
