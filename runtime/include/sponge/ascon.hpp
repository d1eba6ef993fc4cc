// Ascon (NIST SP 800-232) on Ascon-p[320]: Ascon-Hash256, Ascon-XOF128, Ascon-CXOF128 and
// Ascon-AEAD128. No hashing path allocates heap memory; an Ascon-CXOF128 customization string
// over 256 bytes and AEAD buffers of different lengths throw std::invalid_argument.
#pragma once

#include "sponge/export.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "sponge/byte_io.hpp"
#include "sponge/kernels.hpp"

SPONGE_API_BEGIN
namespace sponge {

// ---------------------------------------------------------------------------------------
// Ascon (NIST SP 800-232) on Ascon-p[320], dispatched on its own (KernelFamily::ascon_p320):
// Ascon-Hash256, Ascon-XOF128, Ascon-CXOF128 and Ascon-AEAD128. The hash classes follow the
// SHAKE classes: update() absorbs, digest() (Hash256) or squeeze() (the XOFs, in pieces of any
// size) gives output, and update() throws std::logic_error once squeezing has begun, until
// reset(). Every state and key is wiped when an object is destroyed, and an AEAD object's as
// soon as finish() returns.
//
// Ascon-AEAD128: a 16-byte key, a 16-byte nonce, a 16-byte tag; the ciphertext is as long as
// the plaintext. The caller must never use a nonce twice with the same key: that is the
// caller's duty, which this library cannot check (a repeated nonce reveals the XOR of the two
// plaintexts and voids authenticity). Decryption compares the tag in constant time; on a
// mismatch it reports failure and zeroes the plaintext output, so no unverified plaintext is
// released. Plaintext and ciphertext may be the same buffer (in-place), but must not partly
// overlap: encryption and decryption throw std::invalid_argument for that, the output zeroed.
// ---------------------------------------------------------------------------------------
namespace detail {

struct AsconKernel;  // runtime/src/ascon/ascon_kernel.hpp: the dispatcher's view of a kernel

// The sponge of the hash functions: a 64-bit rate (x0), P12 after every block.
class AsconHashSponge {
 public:
  static constexpr std::size_t kRateBytes = 8;

  // Starts from `initial` (the state after the initialisation, which the caller computed).
  AsconHashSponge(const AsconKernel& kernel, const std::uint64_t (&initial)[5]) noexcept;
  AsconHashSponge(const AsconHashSponge&) = default;
  AsconHashSponge& operator=(const AsconHashSponge&) = default;
  ~AsconHashSponge();

  // Throws std::logic_error once squeezing has begun.
  void absorb(const std::uint8_t* data, std::size_t length);
  void require_absorbing() const;
  // Pads the last (partial or empty) block and permutes; absorbing may continue with a new
  // block sequence (CXOF128's customization string ends this way).
  void finish_absorbing() noexcept;
  // Pads on the first call, then reads output; successive calls continue the stream.
  void squeeze(std::uint8_t* out, std::size_t length) noexcept;
  void restart(const std::uint64_t (&initial)[5]) noexcept;
  void copy_state(std::uint64_t (&out)[5]) const noexcept;
  const AsconKernel& kernel() const noexcept { return *kernel_; }

 private:
  // Word-sized fields only: no padding bytes, so a destroyed sponge leaves only zeros.
  std::uint64_t words_[5];
  const AsconKernel* kernel_;
  std::uint64_t position_;  // bytes of the current block absorbed, or of x0 read out
  std::uint64_t squeezing_;
};

// The AEAD state: key, state words, the phase, and the position in the current block.
class AsconAeadState {
 public:
  static constexpr std::size_t kRateBytes = 16;

  AsconAeadState(const AsconKernel& kernel, const std::uint8_t* key,
                 const std::uint8_t* nonce) noexcept;
  AsconAeadState(const AsconAeadState&) = delete;
  AsconAeadState& operator=(const AsconAeadState&) = delete;
  ~AsconAeadState();

  // Throw std::logic_error out of order: associated data after text, anything after finish.
  void absorb_associated_data(const std::uint8_t* data, std::size_t length);
  void encrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t length);
  void decrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t length);
  // The tag; wipes the state and the key. Throws std::logic_error after finish.
  void finish(std::uint8_t* tag);

 private:
  enum Phase : std::uint64_t { kNoAssociatedData, kAssociatedData, kText, kFinished };
  void require_phase_at_most(Phase phase, const char* operation) const;
  void begin_text() noexcept;
  void wipe() noexcept;

  std::uint64_t words_[5];
  std::uint64_t key_[2];
  const AsconKernel* kernel_;
  std::uint64_t position_;  // bytes of the current 16-byte block
  Phase phase_;
};

}  // namespace detail

// Ascon-Hash256: 32-byte digest.
class AsconHash256 : public detail::ByteInput<AsconHash256> {
 public:
  static constexpr std::size_t digest_bytes = 32;
  AsconHash256() noexcept;
  // On a given compiled kernel (the tests and benchmarks run each one); the default
  // constructor uses the dispatcher's choice.
  explicit AsconHash256(const detail::AsconKernel& kernel) noexcept;
  // The digest of everything absorbed so far; leaves the object unchanged.
  std::array<std::uint8_t, 32> digest() const;
  void reset() noexcept;

 private:
  friend detail::ByteInput<AsconHash256>;
  void absorb_bytes(std::span<const std::uint8_t> data) {
    sponge_.absorb(data.data(), data.size());
  }
  detail::AsconHashSponge sponge_;
};

// Ascon-XOF128: output of any length.
class AsconXof128 : public detail::ByteInput<AsconXof128>, public detail::ByteOutput<AsconXof128> {
 public:
  AsconXof128() noexcept;
  explicit AsconXof128(const detail::AsconKernel& kernel) noexcept;
  void reset() noexcept;

 private:
  friend detail::ByteInput<AsconXof128>;
  friend detail::ByteOutput<AsconXof128>;
  void absorb_bytes(std::span<const std::uint8_t> data) {
    sponge_.absorb(data.data(), data.size());
  }
  void squeeze_bytes(std::span<std::uint8_t> out) noexcept {
    sponge_.squeeze(out.data(), out.size());
  }
  detail::AsconHashSponge sponge_;
};

// Ascon-CXOF128: Ascon-XOF128 with a customization string Z of at most 256 bytes, absorbed
// (with its length) in the constructor; reset() returns to the state after it.
class AsconCxof128 : public detail::ByteInput<AsconCxof128>,
                     public detail::ByteOutput<AsconCxof128> {
 public:
  static constexpr std::size_t kMaxCustomizationBytes = 256;  // 2048 bits (SP 800-232)
  // Throws std::invalid_argument when the customization string is longer than 256 bytes.
  explicit AsconCxof128(std::span<const std::uint8_t> customization = {});
  explicit AsconCxof128(std::string_view customization)
      : AsconCxof128(detail::as_bytes(customization)) {}
  AsconCxof128(const detail::AsconKernel& kernel, std::span<const std::uint8_t> customization);
  AsconCxof128(const AsconCxof128&) = default;
  AsconCxof128& operator=(const AsconCxof128&) = default;
  ~AsconCxof128();
  void reset() noexcept;

 private:
  friend detail::ByteInput<AsconCxof128>;
  friend detail::ByteOutput<AsconCxof128>;
  void absorb_bytes(std::span<const std::uint8_t> data) {
    sponge_.absorb(data.data(), data.size());
  }
  void squeeze_bytes(std::span<std::uint8_t> out) noexcept {
    sponge_.squeeze(out.data(), out.size());
  }
  detail::AsconHashSponge sponge_;
  std::uint64_t customized_[5];  // the state after Z: where reset() returns
};

inline constexpr std::size_t kAsconAead128KeyBytes = 16;
inline constexpr std::size_t kAsconAead128NonceBytes = 16;
inline constexpr std::size_t kAsconAead128TagBytes = 16;
using AsconAead128Key = std::span<const std::uint8_t, kAsconAead128KeyBytes>;
using AsconAead128Nonce = std::span<const std::uint8_t, kAsconAead128NonceBytes>;
using AsconAead128Tag = std::array<std::uint8_t, kAsconAead128TagBytes>;

// Streaming Ascon-AEAD128 encryption: associated data in pieces of any size, then plaintext
// in pieces of any size (each piece's ciphertext is written at once), then finish() for the
// tag. Not copyable: a copy would invite encrypting two messages under one nonce.
class AsconAead128Encryptor {
 public:
  AsconAead128Encryptor(AsconAead128Key key, AsconAead128Nonce nonce) noexcept;
  AsconAead128Encryptor(const detail::AsconKernel& kernel, AsconAead128Key key,
                        AsconAead128Nonce nonce) noexcept;
  // Throws std::logic_error after update() or finish().
  AsconAead128Encryptor& update_associated_data(std::span<const std::uint8_t> data);
  // Encrypts `plaintext` into `ciphertext` (the same size: std::invalid_argument otherwise;
  // the same buffer is allowed; partly overlapping buffers: std::invalid_argument, this
  // piece not encrypted and `ciphertext` zeroed). Throws std::logic_error after finish().
  void update(std::span<const std::uint8_t> plaintext, std::span<std::uint8_t> ciphertext);
  // The tag. The state and key are wiped; any later call throws std::logic_error.
  AsconAead128Tag finish();

 private:
  detail::AsconAeadState state_;
};

// Streaming Ascon-AEAD128 decryption into one caller buffer, `plaintext`, fixed at
// construction: update() writes each ciphertext piece's plaintext into the next bytes of it,
// and finish() verifies the tag; on a mismatch it zeroes the whole buffer and returns false.
// Until finish() has returned true the buffer holds unverified plaintext, which the caller
// must not use or release.
class AsconAead128Decryptor {
 public:
  AsconAead128Decryptor(AsconAead128Key key, AsconAead128Nonce nonce,
                        std::span<std::uint8_t> plaintext) noexcept;
  AsconAead128Decryptor(const detail::AsconKernel& kernel, AsconAead128Key key,
                        AsconAead128Nonce nonce, std::span<std::uint8_t> plaintext) noexcept;
  AsconAead128Decryptor(const AsconAead128Decryptor&) = delete;
  AsconAead128Decryptor& operator=(const AsconAead128Decryptor&) = delete;
  ~AsconAead128Decryptor();
  // Throws std::logic_error after update() or finish().
  AsconAead128Decryptor& update_associated_data(std::span<const std::uint8_t> data);
  // Throws std::length_error when the ciphertext so far is longer than the plaintext buffer
  // (nothing of this piece is written), std::logic_error after finish(). The ciphertext may
  // lie in the plaintext buffer itself, at the bytes this piece's plaintext goes to; partly
  // overlapping them throws std::invalid_argument with those bytes zeroed and the piece not
  // decrypted (finish() then reports a mismatch).
  void update(std::span<const std::uint8_t> ciphertext);
  // True when `tag` is the tag of what was decrypted (compared in constant time). False: the
  // whole plaintext buffer is zeroed. Either way the state and key are wiped; a later call
  // throws std::logic_error. The plaintext is the first plaintext_bytes() of the buffer.
  [[nodiscard]] bool finish(std::span<const std::uint8_t, kAsconAead128TagBytes> tag);
  std::size_t plaintext_bytes() const noexcept { return written_; }

 private:
  detail::AsconAeadState state_;
  std::span<std::uint8_t> plaintext_;
  std::size_t written_ = 0;
};

// One-shot forms.
std::array<std::uint8_t, 32> ascon_hash256(std::span<const std::uint8_t> data) noexcept;
inline std::array<std::uint8_t, 32> ascon_hash256(std::string_view text) noexcept {
  return ascon_hash256(detail::as_bytes(text));
}
void ascon_xof128(std::span<const std::uint8_t> in, std::span<std::uint8_t> out) noexcept;
// Throws std::invalid_argument, computing nothing, when `customization` is longer than 256 bytes.
void ascon_cxof128(std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
                   std::span<std::uint8_t> out);
// `ciphertext` must be as long as `plaintext` (std::invalid_argument otherwise), and be it or
// not overlap it (partly overlapping: std::invalid_argument, `ciphertext` and `tag` zeroed).
void ascon_aead128_encrypt(AsconAead128Key key, AsconAead128Nonce nonce,
                           std::span<const std::uint8_t> associated_data,
                           std::span<const std::uint8_t> plaintext,
                           std::span<std::uint8_t> ciphertext,
                           std::span<std::uint8_t, kAsconAead128TagBytes> tag);
// True when the tag matches. False: `plaintext` is zeroed. `plaintext` must be as long as
// `ciphertext` (std::invalid_argument otherwise), and be it or not overlap it (partly
// overlapping: std::invalid_argument, `plaintext` zeroed).
[[nodiscard]] bool ascon_aead128_decrypt(AsconAead128Key key, AsconAead128Nonce nonce,
                                         std::span<const std::uint8_t> associated_data,
                                         std::span<const std::uint8_t> ciphertext,
                                         std::span<const std::uint8_t, kAsconAead128TagBytes> tag,
                                         std::span<std::uint8_t> plaintext);

}  // namespace sponge
SPONGE_API_END
