// The `sponge` OpenSSL 3 provider: the library's Keccak and Ascon functions behind OpenSSL's
// EVP digest, MAC and cipher interfaces, so a program that hashes through libcrypto (the
// openssl command, Python's hashlib, curl) gets them by configuration alone.
//
// The module links no OpenSSL library. Errors go through the core's upcalls (new_error,
// vset_error) with this provider's reason strings, and parameters are read by hand
// (provider_params.hpp), so it runs inside whichever libcrypto 3 loaded it.
//
// Every entry point catches what the library throws (std::invalid_argument, std::logic_error,
// std::bad_alloc) and turns it into an OpenSSL error: no exception crosses into C. The phase
// of each context is tracked here, so misuse (update after final, final twice) is refused
// with a reason before the library would see it.
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>

#include <atomic>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <vector>

#include "ascon/ascon_kernel.hpp"  // the dispatcher's Ascon kernel, for streaming decryption
#include "provider_params.hpp"
#include "sponge/sponge.hpp"
#include "sponge_provider.h"
#include "support/declassify.hpp"  // the AEAD verdict, for the constant-time test
#include "support/wipe.hpp"

namespace sponge_provider {
namespace {

using Bytes = std::vector<std::uint8_t>;

// ---------------------------------------------------------------------------------------
// The provider, its errors and its counter.
// ---------------------------------------------------------------------------------------

struct Provider {
  const OSSL_CORE_HANDLE* handle;
};

OSSL_FUNC_core_new_error_fn* core_new_error = nullptr;
OSSL_FUNC_core_set_error_debug_fn* core_set_error_debug = nullptr;
OSSL_FUNC_core_vset_error_fn* core_vset_error = nullptr;

// Completed finals, for SPONGE_PROV_PARAM_FINALS. Relaxed: a count, not a synchronisation.
std::atomic<std::uint64_t> completed_finals{0};

enum Reason : int {
  kUnknownParameter = 1,
  kBadParameter,
  kOutputLengthZero,
  kOutputTooLong,
  kOutputBufferTooSmall,
  kNotInitialised,
  kUpdateAfterFinal,
  kFinalTwice,
  kParameterAfterData,
  kNoKey,
  kBadKeyLength,
  kBadNonceLength,
  kBadTagLength,
  kTagNotSet,
  kTagMismatch,
  kAssociatedDataAfterText,
  kLibraryError,
};

const OSSL_ITEM kReasonStrings[] = {
    {kUnknownParameter, const_cast<char*>("unknown parameter")},
    {kBadParameter, const_cast<char*>("invalid parameter value")},
    {kOutputLengthZero, const_cast<char*>("output length of zero")},
    {kOutputTooLong, const_cast<char*>("output length too long")},
    {kOutputBufferTooSmall, const_cast<char*>("output buffer too small")},
    {kNotInitialised, const_cast<char*>("context not initialised")},
    {kUpdateAfterFinal, const_cast<char*>("update after final")},
    {kFinalTwice, const_cast<char*>("final called twice")},
    {kParameterAfterData, const_cast<char*>("parameter set after data was absorbed")},
    {kNoKey, const_cast<char*>("no key set")},
    {kBadKeyLength, const_cast<char*>("invalid key length")},
    {kBadNonceLength, const_cast<char*>("invalid nonce length")},
    {kBadTagLength, const_cast<char*>("invalid tag length")},
    {kTagNotSet, const_cast<char*>("tag not set")},
    {kTagMismatch, const_cast<char*>("tag mismatch")},
    {kAssociatedDataAfterText, const_cast<char*>("associated data after text")},
    {kLibraryError, const_cast<char*>("sponge library error")},
    {0, nullptr},
};

[[gnu::format(printf, 3, 4)]] void raise(const Provider* provider, int reason, const char* format,
                                         ...) {
  if (provider == nullptr || core_new_error == nullptr || core_vset_error == nullptr) return;
  core_new_error(provider->handle);
  if (core_set_error_debug != nullptr)
    core_set_error_debug(provider->handle, "sponge_provider.cpp", 0, "sponge provider");
  va_list arguments;
  va_start(arguments, format);
  core_vset_error(provider->handle, static_cast<std::uint32_t>(reason), format, arguments);
  va_end(arguments);
}

// The clear at return of every dispatch function that touches a key, a message or a state:
// libcrypto and the program it returns to may then make a call their PLT binds lazily, and the
// dynamic linker's resolver would save the lanes still in the vector registers on the stack.
using sponge::detail::ClearRegistersOnReturn;

// Runs `body`, turning an exception into an OpenSSL error and a 0 return; returns with the
// caller-saved registers cleared.
template <typename Body>
int guarded(const Provider* provider, Body body) noexcept {
  [[maybe_unused]] const ClearRegistersOnReturn clear_registers_on_return{};
  try {
    return body();
  } catch (const std::bad_alloc&) {
    raise(provider, kLibraryError, "out of memory");
  } catch (const std::exception& error) {
    raise(provider, kLibraryError, "%s", error.what());
  } catch (...) {
    raise(provider, kLibraryError, "unknown exception");
  }
  return 0;
}

// Zeroes memory the compiler may not drop as a dead store: keys and expected tags.
void wipe(void* data, std::size_t length) noexcept {
  std::memset(data, 0, length);
  __asm__ __volatile__("" : : "r"(data) : "memory");
}

bool key_is(const OSSL_PARAM& param, const char* key) {
  return std::strcmp(param.key, key) == 0;
}

// A byte string set by parameter (a customization string, a function name), wiped when
// replaced or destroyed.
class ParamBytes {
 public:
  ParamBytes() = default;
  ParamBytes(const ParamBytes&) = default;
  ParamBytes& operator=(const ParamBytes& other) {
    if (this != &other) {
      clear();
      bytes_ = other.bytes_;
    }
    return *this;
  }
  ~ParamBytes() { clear(); }
  void assign(std::span<const std::uint8_t> bytes) {
    clear();
    bytes_.assign(bytes.begin(), bytes.end());
  }
  void clear() noexcept {
    if (!bytes_.empty()) wipe(bytes_.data(), bytes_.size());
    bytes_.clear();
  }
  std::span<const std::uint8_t> span() const noexcept { return bytes_; }

 private:
  Bytes bytes_;
};

// ---------------------------------------------------------------------------------------
// Digests. DigestContext<Algorithm> owns the EVP contract (phases, xoflen, errors, the
// counter); each Algorithm says how to restart, absorb and finish, and which parameters of
// its own it takes.
// ---------------------------------------------------------------------------------------

enum class Phase : std::uint8_t { kUninitialised, kRunning, kFinished };

// Whether a context in `phase` takes `operation` ("update" or "final"); if not, raises why:
// after final (`start_over` says how to go on) or before `ready` (what init must give first).
bool running_or_raise(const Provider* provider, Phase phase, const char* operation,
                      const char* start_over = "initialise the context again",
                      const char* ready = "init") {
  if (phase == Phase::kRunning) return true;
  if (phase == Phase::kFinished)
    raise(provider, std::strcmp(operation, "final") == 0 ? kFinalTwice : kUpdateAfterFinal,
          "%s after final; %s", operation, start_over);
  else
    raise(provider, kNotInitialised, "%s before %s", operation, ready);
  return false;
}

// What Algorithm::set_param made of a parameter: not its own, invalid (error raised), or a
// setting that changes the absorbed prefix (so it must come before any data).
enum class ParamEffect { kUnknown, kInvalid, kPrefix };

constexpr std::size_t kNoOutputLimit = SIZE_MAX;

// The settings every algorithm without parameters of its own shares.
struct NoSettings {
  void reset_settings() noexcept {}
  ParamEffect set_param(const Provider*, const OSSL_PARAM&) { return ParamEffect::kUnknown; }
};

// The EVP constants every XOF shares: any output length, and an AlgorithmIdentifier with
// parameters.
template <std::size_t BlockBytes, std::size_t DefaultOutput>
struct XofConstants {
  static constexpr std::size_t kBlockBytes = BlockBytes;
  static constexpr std::size_t kDefaultOutput = DefaultOutput;
  static constexpr bool kVariableOutput = true;
  static constexpr std::size_t kMaxOutput = kNoOutputLimit;
  static constexpr bool kAlgorithmIdAbsent = false;
};

constexpr OSSL_PARAM kNoParams[] = {param_end()};
constexpr OSSL_PARAM kXofLenParams[] = {param_size(OSSL_DIGEST_PARAM_XOFLEN), param_end()};

// SHA3-*, SHAKE*, Keccak-*: a Hasher of the library's keccak.hpp.
template <typename Hasher, std::size_t DefaultOutput, bool VariableOutput>
class HasherDigest : public NoSettings {
 public:
  static constexpr std::size_t kBlockBytes = Hasher::rate_bytes;
  static constexpr std::size_t kDefaultOutput = DefaultOutput;
  static constexpr bool kVariableOutput = VariableOutput;
  static constexpr std::size_t kMaxOutput = VariableOutput ? kNoOutputLimit : DefaultOutput;
  // SHA3 and SHAKE sign without algorithm parameters (RFC 8692, 8702), as OpenSSL says.
  static constexpr bool kAlgorithmIdAbsent = true;
  static const OSSL_PARAM* settable() { return VariableOutput ? kXofLenParams : kNoParams; }

  void restart() noexcept { hasher_.reset(); }
  void absorb(const std::uint8_t* data, std::size_t length) {
    hasher_.update(std::span(data, length));
  }
  void finish(std::uint8_t* out, std::size_t length) { hasher_.squeeze(std::span(out, length)); }

 private:
  Hasher hasher_;
};

// KECCAK-KMAC-128/256: OpenSSL's own building block of KMAC, the Keccak sponge with cSHAKE's
// domain bits (0x04) and no prefix; an XOF whose default length is KMAC's.
template <std::size_t RateBytes, std::size_t DefaultOutput>
class KeccakKmacDigest : public NoSettings, public XofConstants<RateBytes, DefaultOutput> {
 public:
  static const OSSL_PARAM* settable() { return kXofLenParams; }

  void restart() noexcept { sponge_.reset(); }
  void absorb(const std::uint8_t* data, std::size_t length) { sponge_.absorb(data, length); }
  void finish(std::uint8_t* out, std::size_t length) { sponge_.squeeze(out, length); }

 private:
  sponge::detail::KeccakSponge sponge_{RateBytes, 0x04};
};

bool read_customization(const Provider* provider, const OSSL_PARAM& param, ParamBytes& into,
                        std::size_t max_bytes = SIZE_MAX) {
  std::span<const std::uint8_t> bytes;
  if (!read_octets(param, bytes)) {
    raise(provider, kBadParameter, "%s must be an octet string", param.key);
    return false;
  }
  if (bytes.size() > max_bytes) {
    raise(provider, kBadParameter, "%s is %zu bytes, more than %zu", param.key, bytes.size(),
          max_bytes);
    return false;
  }
  into.assign(bytes);
  return true;
}

bool read_threads(const Provider* provider, const OSSL_PARAM& param, unsigned& threads) {
  std::uint64_t value = 0;
  if (!read_unsigned(param, value) || value > 1024) {
    raise(provider, kBadParameter, "%s must be an unsigned integer up to 1024", param.key);
    return false;
  }
  threads = static_cast<unsigned>(value);
  return true;
}

// TurboSHAKE128/256 with the domain byte D.
template <std::size_t RateBytes, std::size_t DefaultOutput>
class TurboShakeDigest : public XofConstants<RateBytes, DefaultOutput> {
  using TurboShake = sponge::detail::TurboShake<RateBytes>;

 public:
  static const OSSL_PARAM* settable() {
    static const OSSL_PARAM params[] = {param_size(OSSL_DIGEST_PARAM_XOFLEN),
                                        param_uint(SPONGE_DIGEST_PARAM_DOMAIN), param_end()};
    return params;
  }

  void reset_settings() noexcept { domain_ = TurboShake::kDefaultDomainByte; }
  ParamEffect set_param(const Provider* provider, const OSSL_PARAM& param) {
    if (!key_is(param, SPONGE_DIGEST_PARAM_DOMAIN)) return ParamEffect::kUnknown;
    std::uint64_t value = 0;
    if (!read_unsigned(param, value) || value < 0x01 || value > 0x7F) {
      raise(provider, kBadParameter, "domain must be an unsigned integer in 0x01..0x7F");
      return ParamEffect::kInvalid;
    }
    domain_ = static_cast<std::uint8_t>(value);
    return ParamEffect::kPrefix;
  }
  void restart() { state_.emplace(domain_); }
  void absorb(const std::uint8_t* data, std::size_t length) {
    state_->update(std::span(data, length));
  }
  void finish(std::uint8_t* out, std::size_t length) { state_->squeeze(std::span(out, length)); }

 private:
  std::uint8_t domain_ = TurboShake::kDefaultDomainByte;
  std::optional<TurboShake> state_;
};

// KT128/KT256 with the customization string C and, for long inputs, threads. The library's
// KangarooTwelve keeps a view of C, not a copy; C lives in an immutable shared buffer, so a
// duplicated context (EVP_MD_CTX_copy) views the same bytes for as long as either lives.
template <std::size_t RateBytes, std::size_t ChainingValueBytes, std::size_t DefaultOutput>
class KangarooTwelveDigest : public XofConstants<RateBytes, DefaultOutput> {
  using Kt = sponge::detail::KangarooTwelve<RateBytes, ChainingValueBytes>;

 public:
  static const OSSL_PARAM* settable() {
    static const OSSL_PARAM params[] = {param_size(OSSL_DIGEST_PARAM_XOFLEN),
                                        param_octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION),
                                        param_uint(SPONGE_DIGEST_PARAM_THREADS), param_end()};
    return params;
  }

  void reset_settings() noexcept {
    customization_.reset();
    threads_ = 1;
  }
  ParamEffect set_param(const Provider* provider, const OSSL_PARAM& param) {
    if (key_is(param, SPONGE_DIGEST_PARAM_CUSTOMIZATION)) {
      auto customization = std::make_shared<ParamBytes>();
      if (!read_customization(provider, param, *customization)) return ParamEffect::kInvalid;
      customization_ = std::move(customization);
      return ParamEffect::kPrefix;
    }
    if (key_is(param, SPONGE_DIGEST_PARAM_THREADS))
      return read_threads(provider, param, threads_) ? ParamEffect::kPrefix : ParamEffect::kInvalid;
    return ParamEffect::kUnknown;
  }
  void restart() {
    const std::span<const std::uint8_t> customization =
        customization_ ? customization_->span() : std::span<const std::uint8_t>();
    // The object views the buffer it was built on: it shares that buffer from here on.
    state_customization_ = customization_;
    if (threads_ == 1)
      state_.emplace(customization);
    else
      state_.emplace(customization, sponge::Threads{threads_});
  }
  void absorb(const std::uint8_t* data, std::size_t length) {
    state_->update(std::span(data, length));
  }
  void finish(std::uint8_t* out, std::size_t length) { state_->squeeze(std::span(out, length)); }

 private:
  std::shared_ptr<const ParamBytes> customization_;
  std::shared_ptr<const ParamBytes> state_customization_;
  unsigned threads_ = 1;
  std::optional<Kt> state_;
};

// cSHAKE128/256 with the function name N and the customization string S.
template <int SecurityBits, std::size_t DefaultOutput>
class CshakeDigest
    : public XofConstants<sponge::detail::kSp800185Rate<SecurityBits>, DefaultOutput> {
 public:
  static const OSSL_PARAM* settable() {
    static const OSSL_PARAM params[] = {
        param_size(OSSL_DIGEST_PARAM_XOFLEN), param_octets(SPONGE_DIGEST_PARAM_FUNCTION_NAME),
        param_octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION), param_end()};
    return params;
  }

  void reset_settings() noexcept {
    function_name_.clear();
    customization_.clear();
  }
  ParamEffect set_param(const Provider* provider, const OSSL_PARAM& param) {
    ParamBytes* target = key_is(param, SPONGE_DIGEST_PARAM_FUNCTION_NAME)   ? &function_name_
                         : key_is(param, SPONGE_DIGEST_PARAM_CUSTOMIZATION) ? &customization_
                                                                            : nullptr;
    if (target == nullptr) return ParamEffect::kUnknown;
    return read_customization(provider, param, *target) ? ParamEffect::kPrefix
                                                        : ParamEffect::kInvalid;
  }
  void restart() { state_.emplace(function_name_.span(), customization_.span()); }
  void absorb(const std::uint8_t* data, std::size_t length) {
    state_->update(std::span(data, length));
  }
  void finish(std::uint8_t* out, std::size_t length) { state_->squeeze(std::span(out, length)); }

 private:
  ParamBytes function_name_;
  ParamBytes customization_;
  std::optional<sponge::detail::Cshake<SecurityBits>> state_;
};

// ParallelHash128/256 (the output length L is EVP's xoflen) and, with xof = 1,
// ParallelHashXOF128/256; block size B, customization S, threads.
template <int SecurityBits, std::size_t DefaultOutput>
class ParallelHashDigest
    : public XofConstants<sponge::detail::kSp800185Rate<SecurityBits>, DefaultOutput> {
 public:
  static constexpr std::size_t kDefaultLeafBytes = 8192;
  static const OSSL_PARAM* settable() {
    static const OSSL_PARAM params[] = {param_size(OSSL_DIGEST_PARAM_XOFLEN),
                                        param_size(SPONGE_DIGEST_PARAM_LEAF_BYTES),
                                        param_octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION),
                                        param_int(SPONGE_DIGEST_PARAM_XOF),
                                        param_uint(SPONGE_DIGEST_PARAM_THREADS),
                                        param_end()};
    return params;
  }

  void reset_settings() noexcept {
    customization_.clear();
    leaf_bytes_ = kDefaultLeafBytes;
    xof_ = false;
    threads_ = 1;
  }
  ParamEffect set_param(const Provider* provider, const OSSL_PARAM& param) {
    if (key_is(param, SPONGE_DIGEST_PARAM_CUSTOMIZATION))
      return read_customization(provider, param, customization_) ? ParamEffect::kPrefix
                                                                 : ParamEffect::kInvalid;
    if (key_is(param, SPONGE_DIGEST_PARAM_THREADS))
      return read_threads(provider, param, threads_) ? ParamEffect::kPrefix : ParamEffect::kInvalid;
    std::uint64_t value = 0;
    if (key_is(param, SPONGE_DIGEST_PARAM_LEAF_BYTES)) {
      if (!read_unsigned(param, value) || value == 0 || value > (std::uint64_t{1} << 32)) {
        raise(provider, kBadParameter, "leaf-bytes must be an integer in 1..2^32");
        return ParamEffect::kInvalid;
      }
      leaf_bytes_ = static_cast<std::size_t>(value);
      return ParamEffect::kPrefix;
    }
    if (key_is(param, SPONGE_DIGEST_PARAM_XOF)) {
      if (!read_unsigned(param, value) || value > 1) {
        raise(provider, kBadParameter, "xof must be 0 or 1");
        return ParamEffect::kInvalid;
      }
      xof_ = value == 1;
      return ParamEffect::kPrefix;
    }
    return ParamEffect::kUnknown;
  }
  void restart() {
    fixed_.reset();
    xof_state_.reset();
    const sponge::Threads threads{threads_};
    if (xof_)
      xof_state_.emplace(leaf_bytes_, customization_.span(), threads);
    else
      fixed_.emplace(leaf_bytes_, customization_.span(), threads);
  }
  void absorb(const std::uint8_t* data, std::size_t length) {
    if (xof_)
      xof_state_->update(std::span(data, length));
    else
      fixed_->update(std::span(data, length));
  }
  void finish(std::uint8_t* out, std::size_t length) {
    if (xof_)
      xof_state_->squeeze(std::span(out, length));
    else
      fixed_->digest(std::span(out, length));
  }

 private:
  ParamBytes customization_;
  std::size_t leaf_bytes_ = kDefaultLeafBytes;
  bool xof_ = false;
  unsigned threads_ = 1;
  std::optional<sponge::detail::ParallelHash<SecurityBits, false>> fixed_;
  std::optional<sponge::detail::ParallelHash<SecurityBits, true>> xof_state_;
};

class AsconHash256Digest : public NoSettings {
 public:
  static constexpr std::size_t kBlockBytes = 8;
  static constexpr std::size_t kDefaultOutput = sponge::AsconHash256::digest_bytes;
  static constexpr bool kVariableOutput = false;
  static constexpr std::size_t kMaxOutput = kDefaultOutput;
  static constexpr bool kAlgorithmIdAbsent = false;
  static const OSSL_PARAM* settable() { return kNoParams; }

  void restart() noexcept { hash_.reset(); }
  void absorb(const std::uint8_t* data, std::size_t length) {
    hash_.update(std::span(data, length));
  }
  void finish(std::uint8_t* out, std::size_t length) {
    const std::array<std::uint8_t, kDefaultOutput> digest = hash_.digest();
    std::memcpy(out, digest.data(), length);
  }

 private:
  sponge::AsconHash256 hash_;
};

class AsconXof128Digest : public NoSettings, public XofConstants<8, 32> {
 public:
  static const OSSL_PARAM* settable() { return kXofLenParams; }

  void restart() noexcept { xof_.reset(); }
  void absorb(const std::uint8_t* data, std::size_t length) {
    xof_.update(std::span(data, length));
  }
  void finish(std::uint8_t* out, std::size_t length) { xof_.squeeze(std::span(out, length)); }

 private:
  sponge::AsconXof128 xof_;
};

// Ascon-CXOF128 with the customization string Z (at most 256 bytes).
class AsconCxof128Digest : public XofConstants<8, 32> {
 public:
  static const OSSL_PARAM* settable() {
    static const OSSL_PARAM params[] = {param_size(OSSL_DIGEST_PARAM_XOFLEN),
                                        param_octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION),
                                        param_end()};
    return params;
  }

  void reset_settings() noexcept { customization_.clear(); }
  ParamEffect set_param(const Provider* provider, const OSSL_PARAM& param) {
    if (!key_is(param, SPONGE_DIGEST_PARAM_CUSTOMIZATION)) return ParamEffect::kUnknown;
    return read_customization(provider, param, customization_,
                              sponge::AsconCxof128::kMaxCustomizationBytes)
               ? ParamEffect::kPrefix
               : ParamEffect::kInvalid;
  }
  void restart() { state_.emplace(customization_.span()); }
  void absorb(const std::uint8_t* data, std::size_t length) {
    state_->update(std::span(data, length));
  }
  void finish(std::uint8_t* out, std::size_t length) { state_->squeeze(std::span(out, length)); }

 private:
  ParamBytes customization_;
  std::optional<sponge::AsconCxof128> state_;
};

template <typename Algorithm>
class DigestContext {
 public:
  explicit DigestContext(const Provider* provider) : provider_(provider) {}

  int init(const OSSL_PARAM params[]) {
    algorithm_.reset_settings();
    output_bytes_ = Algorithm::kDefaultOutput;
    phase_ = Phase::kUninitialised;
    absorbed_ = false;
    if (!apply(params, false)) return 0;
    algorithm_.restart();
    phase_ = Phase::kRunning;
    return 1;
  }

  int update(const unsigned char* data, std::size_t length) {
    if (!running("update")) return 0;
    if (length == 0) return 1;
    algorithm_.absorb(data, length);
    absorbed_ = true;
    return 1;
  }

  int final(unsigned char* out, std::size_t* out_length, std::size_t out_size) {
    if (!running("final")) return 0;
    if (out_size < output_bytes_) {
      raise(provider_, kOutputBufferTooSmall, "the output is %zu bytes, the buffer %zu",
            output_bytes_, out_size);
      return 0;
    }
    algorithm_.finish(out, output_bytes_);
    phase_ = Phase::kFinished;
    *out_length = output_bytes_;
    completed_finals.fetch_add(1, std::memory_order_relaxed);
    return 1;
  }

  int set_params(const OSSL_PARAM params[]) {
    if (!apply(params, true)) return 0;
    return 1;
  }

  const Provider* provider() const noexcept { return provider_; }

 private:
  bool running(const char* operation) { return running_or_raise(provider_, phase_, operation); }

  // Applies `params`; after init (`restart_after`), a parameter that changes the prefix
  // restarts the function, and is refused once data was absorbed.
  bool apply(const OSSL_PARAM params[], bool restart_after) {
    if (params == nullptr) return true;
    bool prefix_changed = false;
    for (const OSSL_PARAM* param = params; param->key != nullptr; ++param) {
      if (key_is(*param, OSSL_DIGEST_PARAM_XOFLEN) && Algorithm::kVariableOutput) {
        std::uint64_t length = 0;
        if (!read_unsigned(*param, length)) {
          raise(provider_, kBadParameter, "xoflen must be an unsigned integer");
          return false;
        }
        if (length == 0) {
          raise(provider_, kOutputLengthZero, "xoflen must be at least 1");
          return false;
        }
        if (length > Algorithm::kMaxOutput) {
          raise(provider_, kOutputTooLong, "xoflen %llu exceeds %zu",
                static_cast<unsigned long long>(length), Algorithm::kMaxOutput);
          return false;
        }
        output_bytes_ = static_cast<std::size_t>(length);
        continue;
      }
      if (restart_after && (absorbed_ || phase_ == Phase::kFinished)) {
        // Only an unknown key may reach here without being a prefix setting: check first.
        Algorithm probe = algorithm_;
        const ParamEffect effect = probe.set_param(provider_, *param);
        if (effect == ParamEffect::kUnknown) {
          raise(provider_, kUnknownParameter, "%s", param->key);
          return false;
        }
        if (effect == ParamEffect::kInvalid) return false;
        raise(provider_, kParameterAfterData, "%s must be set before the first update", param->key);
        return false;
      }
      const ParamEffect effect = algorithm_.set_param(provider_, *param);
      if (effect == ParamEffect::kUnknown) {
        raise(provider_, kUnknownParameter, "%s", param->key);
        return false;
      }
      if (effect == ParamEffect::kInvalid) return false;
      prefix_changed = true;
    }
    if (restart_after && prefix_changed && phase_ == Phase::kRunning) algorithm_.restart();
    return true;
  }

  const Provider* provider_;
  Algorithm algorithm_;
  std::size_t output_bytes_ = Algorithm::kDefaultOutput;
  Phase phase_ = Phase::kUninitialised;
  bool absorbed_ = false;
};

int write_digest_constants(OSSL_PARAM params[], std::size_t block_bytes, std::size_t size, bool xof,
                           bool algorithm_id_absent) {
  for (OSSL_PARAM* param = params; param != nullptr && param->key != nullptr; ++param) {
    bool written = true;
    if (key_is(*param, OSSL_DIGEST_PARAM_BLOCK_SIZE))
      written = write_unsigned(*param, block_bytes);
    else if (key_is(*param, OSSL_DIGEST_PARAM_SIZE))
      written = write_unsigned(*param, size);
    else if (key_is(*param, OSSL_DIGEST_PARAM_XOF))
      written = write_unsigned(*param, xof ? 1 : 0);
    else if (key_is(*param, OSSL_DIGEST_PARAM_ALGID_ABSENT))
      written = write_unsigned(*param, algorithm_id_absent ? 1 : 0);
    if (!written) return 0;
  }
  return 1;
}

constexpr OSSL_PARAM kDigestGettable[] = {
    param_size(OSSL_DIGEST_PARAM_BLOCK_SIZE), param_size(OSSL_DIGEST_PARAM_SIZE),
    param_int(OSSL_DIGEST_PARAM_XOF), param_int(OSSL_DIGEST_PARAM_ALGID_ABSENT), param_end()};

// The dispatch entries every context shares: its lifecycle and its parameters. A member is
// instantiated only where a dispatch table names it, so a context that cannot be copied
// (Ascon-AEAD's) inherits a dupctx it never names.
template <typename Context>
struct ContextEntries {
  static void* newctx(void* provider) {
    try {
      return new Context(static_cast<const Provider*>(provider));
    } catch (...) {
      raise(static_cast<const Provider*>(provider), kLibraryError, "out of memory");
      return nullptr;
    }
  }
  static void freectx(void* context) {
    [[maybe_unused]] const ClearRegistersOnReturn clear_registers_on_return{};
    delete static_cast<Context*>(context);
  }
  static void* dupctx(void* context) {
    [[maybe_unused]] const ClearRegistersOnReturn clear_registers_on_return{};
    const auto* source = static_cast<const Context*>(context);
    try {
      return new Context(*source);
    } catch (...) {
      raise(source->provider(), kLibraryError, "out of memory");
      return nullptr;
    }
  }
  static int set_ctx_params(void* context, const OSSL_PARAM params[]) {
    auto* self = static_cast<Context*>(context);
    return guarded(self->provider(), [&] { return self->set_params(params); });
  }
};

// The entries of a context that takes a message in updates and gives its output at final
// (the digests and KMAC).
template <typename Context>
struct MessageEntries : ContextEntries<Context> {
  static int update(void* context, const unsigned char* data, std::size_t length) {
    auto* self = static_cast<Context*>(context);
    return guarded(self->provider(), [&] { return self->update(data, length); });
  }
  static int final(void* context, unsigned char* out, std::size_t* out_length,
                   std::size_t out_size) {
    auto* self = static_cast<Context*>(context);
    return guarded(self->provider(), [&] { return self->final(out, out_length, out_size); });
  }
};

template <typename Algorithm>
struct DigestEntries : MessageEntries<DigestContext<Algorithm>> {
  using Context = DigestContext<Algorithm>;

  static int init(void* context, const OSSL_PARAM params[]) {
    auto* self = static_cast<Context*>(context);
    return guarded(self->provider(), [&] { return self->init(params); });
  }
  static const OSSL_PARAM* settable_ctx_params(void*, void*) { return Algorithm::settable(); }
  static int get_params(OSSL_PARAM params[]) {
    return write_digest_constants(params, Algorithm::kBlockBytes, Algorithm::kDefaultOutput,
                                  Algorithm::kVariableOutput, Algorithm::kAlgorithmIdAbsent);
  }
  static const OSSL_PARAM* gettable_params(void*) { return kDigestGettable; }
};

template <typename Function>
void (*entry(Function* function))() {
  return reinterpret_cast<void (*)()>(function);
}

template <typename Algorithm>
const OSSL_DISPATCH kDigestDispatch[] = {
    {OSSL_FUNC_DIGEST_NEWCTX, entry(&DigestEntries<Algorithm>::newctx)},
    {OSSL_FUNC_DIGEST_FREECTX, entry(&DigestEntries<Algorithm>::freectx)},
    {OSSL_FUNC_DIGEST_DUPCTX, entry(&DigestEntries<Algorithm>::dupctx)},
    {OSSL_FUNC_DIGEST_INIT, entry(&DigestEntries<Algorithm>::init)},
    {OSSL_FUNC_DIGEST_UPDATE, entry(&DigestEntries<Algorithm>::update)},
    {OSSL_FUNC_DIGEST_FINAL, entry(&DigestEntries<Algorithm>::final)},
    {OSSL_FUNC_DIGEST_SET_CTX_PARAMS, entry(&DigestEntries<Algorithm>::set_ctx_params)},
    {OSSL_FUNC_DIGEST_SETTABLE_CTX_PARAMS, entry(&DigestEntries<Algorithm>::settable_ctx_params)},
    {OSSL_FUNC_DIGEST_GET_PARAMS, entry(&DigestEntries<Algorithm>::get_params)},
    {OSSL_FUNC_DIGEST_GETTABLE_PARAMS, entry(&DigestEntries<Algorithm>::gettable_params)},
    {0, nullptr},
};

// ---------------------------------------------------------------------------------------
// KMAC128/256 as OpenSSL's KMAC takes its parameters: key (4..512 bytes), custom (up to 512
// bytes), size (the output length L, 32 or 64 bytes by default), xof (KMACXOF). A key or
// customization set by parameter takes effect at the next init, as in OpenSSL.
// ---------------------------------------------------------------------------------------

constexpr std::size_t kKmacMinKeyBytes = 4;
constexpr std::size_t kKmacMaxKeyBytes = 512;
constexpr std::size_t kKmacMaxCustomBytes = 512;
constexpr std::size_t kKmacMaxOutputBytes = 0xFFFFFF / 8;  // OpenSSL's limit, kept for parity

template <int SecurityBits>
class KmacContext {
 public:
  static constexpr std::size_t kRateBytes = sponge::detail::kSp800185Rate<SecurityBits>;
  static constexpr std::size_t kDefaultOutput = SecurityBits / 4;

  explicit KmacContext(const Provider* provider) : provider_(provider) {}
  KmacContext(const KmacContext& other)
      : provider_(other.provider_),
        key_bytes_(other.key_bytes_),
        customization_(other.customization_),
        output_bytes_(other.output_bytes_),
        xof_(other.xof_),
        phase_(other.phase_),
        state_(other.state_) {
    std::memcpy(key_, other.key_, sizeof key_);
  }
  KmacContext& operator=(const KmacContext&) = delete;
  ~KmacContext() { wipe(key_, sizeof key_); }

  int init(const unsigned char* key, std::size_t key_length, const OSSL_PARAM params[]) {
    if (!set_params(params)) return 0;
    if (key != nullptr && !set_key(std::span(key, key_length))) return 0;
    if (key_bytes_ == 0) {
      raise(provider_, kNoKey, "KMAC needs a key (parameter \"key\" or the init argument)");
      return 0;
    }
    state_.reset();  // wipes the previous message's state (and key) before the new one
    state_.emplace(kRateBytes, sponge::detail::kKmacName, customization_.span());
    state_->absorb_key(std::span<const std::uint8_t>(key_, key_bytes_));
    phase_ = Phase::kRunning;
    return 1;
  }

  int update(const unsigned char* data, std::size_t length) {
    if (!running("update")) return 0;
    if (length != 0) state_->absorb(std::span(data, length));
    return 1;
  }

  int final(unsigned char* out, std::size_t* out_length, std::size_t out_size) {
    if (!running("final")) return 0;
    if (out_size < output_bytes_) {
      raise(provider_, kOutputBufferTooSmall, "the MAC is %zu bytes, the buffer %zu", output_bytes_,
            out_size);
      return 0;
    }
    const std::span<std::uint8_t> output(out, output_bytes_);
    if (xof_)
      state_->squeeze_xof(output);
    else
      state_->digest(output);
    state_.reset();
    phase_ = Phase::kFinished;
    *out_length = output_bytes_;
    completed_finals.fetch_add(1, std::memory_order_relaxed);
    return 1;
  }

  int set_params(const OSSL_PARAM params[]) {
    if (params == nullptr) return 1;
    for (const OSSL_PARAM* param = params; param->key != nullptr; ++param) {
      std::uint64_t value = 0;
      std::span<const std::uint8_t> bytes;
      if (key_is(*param, OSSL_MAC_PARAM_KEY)) {
        if (!read_octets(*param, bytes)) {
          raise(provider_, kBadParameter, "key must be an octet string");
          return 0;
        }
        if (!set_key(bytes)) return 0;
      } else if (key_is(*param, OSSL_MAC_PARAM_CUSTOM)) {
        if (!read_customization(provider_, *param, customization_, kKmacMaxCustomBytes)) return 0;
      } else if (key_is(*param, OSSL_MAC_PARAM_SIZE)) {
        if (!read_unsigned(*param, value)) {
          raise(provider_, kBadParameter, "size must be an unsigned integer");
          return 0;
        }
        if (value == 0) {
          raise(provider_, kOutputLengthZero, "size must be at least 1");
          return 0;
        }
        if (value > kKmacMaxOutputBytes) {
          raise(provider_, kOutputTooLong, "size %llu exceeds %zu",
                static_cast<unsigned long long>(value), kKmacMaxOutputBytes);
          return 0;
        }
        output_bytes_ = static_cast<std::size_t>(value);
      } else if (key_is(*param, OSSL_MAC_PARAM_XOF)) {
        if (!read_unsigned(*param, value) || value > 1) {
          raise(provider_, kBadParameter, "xof must be 0 or 1");
          return 0;
        }
        xof_ = value == 1;
      } else {
        raise(provider_, kUnknownParameter, "%s", param->key);
        return 0;
      }
    }
    return 1;
  }

  int get_params(OSSL_PARAM params[]) const {
    for (OSSL_PARAM* param = params; param != nullptr && param->key != nullptr; ++param) {
      bool written = true;
      if (key_is(*param, OSSL_MAC_PARAM_SIZE))
        written = write_unsigned(*param, output_bytes_);
      else if (key_is(*param, OSSL_MAC_PARAM_BLOCK_SIZE))
        written = write_unsigned(*param, kRateBytes);
      if (!written) return 0;
    }
    return 1;
  }

  const Provider* provider() const noexcept { return provider_; }

 private:
  bool set_key(std::span<const std::uint8_t> key) {
    if (key.size() < kKmacMinKeyBytes || key.size() > kKmacMaxKeyBytes) {
      raise(provider_, kBadKeyLength, "the key is %zu bytes; KMAC takes %zu..%zu", key.size(),
            kKmacMinKeyBytes, kKmacMaxKeyBytes);
      return false;
    }
    wipe(key_, sizeof key_);
    std::memcpy(key_, key.data(), key.size());
    key_bytes_ = key.size();
    return true;
  }
  bool running(const char* operation) { return running_or_raise(provider_, phase_, operation); }

  const Provider* provider_;
  std::uint8_t key_[kKmacMaxKeyBytes] = {};
  std::size_t key_bytes_ = 0;
  ParamBytes customization_;
  std::size_t output_bytes_ = kDefaultOutput;
  bool xof_ = false;
  Phase phase_ = Phase::kUninitialised;
  std::optional<sponge::detail::Sp800185Sponge> state_;
};

constexpr OSSL_PARAM kKmacSettable[] = {
    param_octets(OSSL_MAC_PARAM_KEY), param_octets(OSSL_MAC_PARAM_CUSTOM),
    param_size(OSSL_MAC_PARAM_SIZE), param_int(OSSL_MAC_PARAM_XOF), param_end()};
constexpr OSSL_PARAM kKmacGettable[] = {param_size(OSSL_MAC_PARAM_SIZE),
                                        param_size(OSSL_MAC_PARAM_BLOCK_SIZE), param_end()};

template <int SecurityBits>
struct KmacEntries : MessageEntries<KmacContext<SecurityBits>> {
  using Context = KmacContext<SecurityBits>;

  static int init(void* context, const unsigned char* key, std::size_t key_length,
                  const OSSL_PARAM params[]) {
    auto* self = static_cast<Context*>(context);
    return guarded(self->provider(), [&] { return self->init(key, key_length, params); });
  }
  static int get_ctx_params(void* context, OSSL_PARAM params[]) {
    return static_cast<const Context*>(context)->get_params(params);
  }
  static const OSSL_PARAM* settable_ctx_params(void*, void*) { return kKmacSettable; }
  static const OSSL_PARAM* gettable_ctx_params(void*, void*) { return kKmacGettable; }
};

template <int SecurityBits>
const OSSL_DISPATCH kKmacDispatch[] = {
    {OSSL_FUNC_MAC_NEWCTX, entry(&KmacEntries<SecurityBits>::newctx)},
    {OSSL_FUNC_MAC_FREECTX, entry(&KmacEntries<SecurityBits>::freectx)},
    {OSSL_FUNC_MAC_DUPCTX, entry(&KmacEntries<SecurityBits>::dupctx)},
    {OSSL_FUNC_MAC_INIT, entry(&KmacEntries<SecurityBits>::init)},
    {OSSL_FUNC_MAC_UPDATE, entry(&KmacEntries<SecurityBits>::update)},
    {OSSL_FUNC_MAC_FINAL, entry(&KmacEntries<SecurityBits>::final)},
    {OSSL_FUNC_MAC_SET_CTX_PARAMS, entry(&KmacEntries<SecurityBits>::set_ctx_params)},
    {OSSL_FUNC_MAC_GET_CTX_PARAMS, entry(&KmacEntries<SecurityBits>::get_ctx_params)},
    {OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, entry(&KmacEntries<SecurityBits>::settable_ctx_params)},
    {OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, entry(&KmacEntries<SecurityBits>::gettable_ctx_params)},
    {0, nullptr},
};

// ---------------------------------------------------------------------------------------
// Ascon-AEAD128 (16-byte key, nonce and tag). EVP's streaming contract hands each update's
// output to the caller at once, so a decrypting caller holds plaintext before
// EVP_DecryptFinal_ex has checked the tag: it must not use any of it until final returns 1
// (docs/openssl.md). The context cannot be duplicated: a copy would invite encrypting two
// messages under one nonce.
// ---------------------------------------------------------------------------------------

constexpr std::size_t kAeadKeyBytes = sponge::kAsconAead128KeyBytes;
constexpr std::size_t kAeadNonceBytes = sponge::kAsconAead128NonceBytes;
constexpr std::size_t kAeadTagBytes = sponge::kAsconAead128TagBytes;

class AeadContext {
 public:
  explicit AeadContext(const Provider* provider) : provider_(provider) {}
  AeadContext(const AeadContext&) = delete;
  AeadContext& operator=(const AeadContext&) = delete;
  ~AeadContext() { wipe_all(); }

  int init(bool encrypting, const unsigned char* key, std::size_t key_length,
           const unsigned char* nonce, std::size_t nonce_length, const OSSL_PARAM params[]) {
    if (key != nullptr && key_length != kAeadKeyBytes) {
      raise(provider_, kBadKeyLength, "the key is %zu bytes; Ascon-AEAD128 takes %zu", key_length,
            kAeadKeyBytes);
      return 0;
    }
    if (nonce != nullptr && nonce_length != kAeadNonceBytes) {
      raise(provider_, kBadNonceLength, "the nonce is %zu bytes; Ascon-AEAD128 takes %zu",
            nonce_length, kAeadNonceBytes);
      return 0;
    }
    encrypting_ = encrypting;
    state_.reset();  // wipes an unfinished message's state and key
    if (key != nullptr) {
      std::memcpy(key_, key, kAeadKeyBytes);
      has_key_ = true;
    }
    if (nonce != nullptr) {
      std::memcpy(nonce_, nonce, kAeadNonceBytes);
      has_nonce_ = true;
    }
    if (!set_params(params)) return 0;
    phase_ = Phase::kUninitialised;
    if (has_key_ && has_nonce_) {
      state_.emplace(sponge::detail::active_ascon_kernel(), key_, nonce_);
      // One message per nonce: the nonce is spent, the next message needs a new one.
      wipe(nonce_, sizeof nonce_);
      has_nonce_ = false;
      has_tag_ = false;
      phase_ = Phase::kRunning;
    }
    return 1;
  }

  // `out` null: associated data (EVP's AEAD convention); otherwise text.
  int update(unsigned char* out, std::size_t* out_length, std::size_t out_size,
             const unsigned char* in, std::size_t in_length) {
    if (!running("update")) return 0;
    *out_length = 0;
    if (out == nullptr) {
      if (text_started_) {
        raise(provider_, kAssociatedDataAfterText,
              "associated data must come before the first plaintext or ciphertext");
        return 0;
      }
      if (in_length != 0) state_->absorb_associated_data(in, in_length);
      return 1;
    }
    if (out_size < in_length) {
      raise(provider_, kOutputBufferTooSmall, "the output is %zu bytes, the buffer %zu", in_length,
            out_size);
      return 0;
    }
    text_started_ = true;
    if (in_length == 0) return 1;
    if (encrypting_)
      state_->encrypt(in, out, in_length);
    else
      state_->decrypt(in, out, in_length);
    *out_length = in_length;
    return 1;
  }

  int final(std::size_t* out_length) {
    if (!running("final")) return 0;
    *out_length = 0;
    if (!encrypting_ && !has_tag_) {
      raise(provider_, kTagNotSet, "set the expected tag (parameter \"tag\") before final");
      return 0;
    }
    std::uint8_t computed[kAeadTagBytes];
    state_->finish(computed);
    state_.reset();
    phase_ = Phase::kFinished;
    text_started_ = false;
    int result = 1;
    if (encrypting_) {
      std::memcpy(tag_, computed, kAeadTagBytes);
      has_tag_ = true;
    } else {
      std::uint8_t difference = 0;
      for (std::size_t i = 0; i < kAeadTagBytes; ++i)
        difference |= computed[i] ^ tag_[i];
      // No branch until the difference is complete: the empty asm hides its origin. The
      // verdict is public (EVP_DecryptFinal_ex returns it), the tag bytes that made it are not.
      __asm__("" : "+r"(difference));
      sponge::detail::declassify(&difference, sizeof difference);
      wipe(tag_, sizeof tag_);
      has_tag_ = false;
      if (difference != 0) {
        raise(provider_, kTagMismatch, "the ciphertext, associated data or tag was altered");
        result = 0;
      }
    }
    wipe(computed, sizeof computed);
    if (result == 1) completed_finals.fetch_add(1, std::memory_order_relaxed);
    return result;
  }

  int set_params(const OSSL_PARAM params[]) {
    if (params == nullptr) return 1;
    for (const OSSL_PARAM* param = params; param->key != nullptr; ++param) {
      std::uint64_t value = 0;
      std::span<const std::uint8_t> bytes;
      if (key_is(*param, OSSL_CIPHER_PARAM_AEAD_TAG)) {
        if (param->data_type != OSSL_PARAM_OCTET_STRING) {
          raise(provider_, kBadParameter, "tag must be an octet string");
          return 0;
        }
        if (param->data_size != kAeadTagBytes) {
          raise(provider_, kBadTagLength, "the tag is %zu bytes; Ascon-AEAD128 takes %zu",
                param->data_size, kAeadTagBytes);
          return 0;
        }
        // EVP_CTRL_AEAD_SET_TAG with no data sets only the length (GCM's convention).
        if (param->data == nullptr) continue;
        if (encrypting_) {
          raise(provider_, kBadParameter, "the tag is set only when decrypting");
          return 0;
        }
        read_octets(*param, bytes);
        std::memcpy(tag_, bytes.data(), kAeadTagBytes);
        has_tag_ = true;
      } else if (key_is(*param, OSSL_CIPHER_PARAM_AEAD_IVLEN) ||
                 key_is(*param, OSSL_CIPHER_PARAM_KEYLEN) ||
                 key_is(*param, OSSL_CIPHER_PARAM_AEAD_TAGLEN)) {
        const bool iv = key_is(*param, OSSL_CIPHER_PARAM_AEAD_IVLEN);
        const bool key = key_is(*param, OSSL_CIPHER_PARAM_KEYLEN);
        const std::size_t fixed = iv ? kAeadNonceBytes : key ? kAeadKeyBytes : kAeadTagBytes;
        if (!read_unsigned(*param, value) || value != fixed) {
          raise(provider_,
                iv    ? kBadNonceLength
                : key ? kBadKeyLength
                      : kBadTagLength,
                "%s must be %zu for Ascon-AEAD128", param->key, fixed);
          return 0;
        }
      } else {
        raise(provider_, kUnknownParameter, "%s", param->key);
        return 0;
      }
    }
    return 1;
  }

  int get_params(OSSL_PARAM params[]) {
    for (OSSL_PARAM* param = params; param != nullptr && param->key != nullptr; ++param) {
      bool written = true;
      if (key_is(*param, OSSL_CIPHER_PARAM_KEYLEN))
        written = write_unsigned(*param, kAeadKeyBytes);
      else if (key_is(*param, OSSL_CIPHER_PARAM_IVLEN))
        written = write_unsigned(*param, kAeadNonceBytes);
      else if (key_is(*param, OSSL_CIPHER_PARAM_AEAD_TAGLEN))
        written = write_unsigned(*param, kAeadTagBytes);
      else if (key_is(*param, OSSL_CIPHER_PARAM_AEAD_TAG)) {
        if (!encrypting_ || phase_ != Phase::kFinished || !has_tag_) {
          raise(provider_, kTagNotSet, "the tag is available after EVP_EncryptFinal_ex");
          return 0;
        }
        if (param->data_size != kAeadTagBytes) {
          raise(provider_, kBadTagLength, "the tag is %zu bytes, not %zu", kAeadTagBytes,
                param->data_size);
          return 0;
        }
        written = write_octets(*param, std::span<const std::uint8_t>(tag_, kAeadTagBytes));
      }
      if (!written) return 0;
    }
    return 1;
  }

  const Provider* provider() const noexcept { return provider_; }

 private:
  bool running(const char* operation) {
    return running_or_raise(provider_, phase_, operation,
                            "initialise the context again with a new nonce",
                            "the key and nonce were set");
  }
  void wipe_all() noexcept {
    state_.reset();
    wipe(key_, sizeof key_);
    wipe(nonce_, sizeof nonce_);
    wipe(tag_, sizeof tag_);
  }

  const Provider* provider_;
  std::uint8_t key_[kAeadKeyBytes] = {};
  std::uint8_t nonce_[kAeadNonceBytes] = {};
  std::uint8_t tag_[kAeadTagBytes] = {};
  bool has_key_ = false;
  bool has_nonce_ = false;
  bool has_tag_ = false;
  bool encrypting_ = true;
  bool text_started_ = false;
  Phase phase_ = Phase::kUninitialised;
  std::optional<sponge::detail::AsconAeadState> state_;
};

struct AeadEntries : ContextEntries<AeadContext> {
  static int encrypt_init(void* context, const unsigned char* key, std::size_t key_length,
                          const unsigned char* nonce, std::size_t nonce_length,
                          const OSSL_PARAM params[]) {
    auto* self = static_cast<AeadContext*>(context);
    return guarded(self->provider(),
                   [&] { return self->init(true, key, key_length, nonce, nonce_length, params); });
  }
  static int decrypt_init(void* context, const unsigned char* key, std::size_t key_length,
                          const unsigned char* nonce, std::size_t nonce_length,
                          const OSSL_PARAM params[]) {
    auto* self = static_cast<AeadContext*>(context);
    return guarded(self->provider(),
                   [&] { return self->init(false, key, key_length, nonce, nonce_length, params); });
  }
  static int update(void* context, unsigned char* out, std::size_t* out_length,
                    std::size_t out_size, const unsigned char* in, std::size_t in_length) {
    auto* self = static_cast<AeadContext*>(context);
    return guarded(self->provider(),
                   [&] { return self->update(out, out_length, out_size, in, in_length); });
  }
  static int final(void* context, unsigned char*, std::size_t* out_length, std::size_t) {
    auto* self = static_cast<AeadContext*>(context);
    return guarded(self->provider(), [&] { return self->final(out_length); });
  }
  static int get_params(OSSL_PARAM params[]) {
    for (OSSL_PARAM* param = params; param != nullptr && param->key != nullptr; ++param) {
      bool written = true;
      if (key_is(*param, OSSL_CIPHER_PARAM_MODE))
        written = write_unsigned(*param, 0);  // EVP_CIPH_STREAM_CIPHER
      else if (key_is(*param, OSSL_CIPHER_PARAM_KEYLEN))
        written = write_unsigned(*param, kAeadKeyBytes);
      else if (key_is(*param, OSSL_CIPHER_PARAM_IVLEN))
        written = write_unsigned(*param, kAeadNonceBytes);
      else if (key_is(*param, OSSL_CIPHER_PARAM_BLOCK_SIZE))
        written = write_unsigned(*param, 1);
      else if (key_is(*param, OSSL_CIPHER_PARAM_AEAD) ||
               key_is(*param, OSSL_CIPHER_PARAM_CUSTOM_IV))
        written = write_unsigned(*param, 1);
      else if (key_is(*param, OSSL_CIPHER_PARAM_CTS) ||
               key_is(*param, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK) ||
               key_is(*param, OSSL_CIPHER_PARAM_HAS_RAND_KEY))
        written = write_unsigned(*param, 0);
      if (!written) return 0;
    }
    return 1;
  }
  static int get_ctx_params(void* context, OSSL_PARAM params[]) {
    auto* self = static_cast<AeadContext*>(context);
    return guarded(self->provider(), [&] { return self->get_params(params); });
  }
  static const OSSL_PARAM* gettable_params(void*) {
    static const OSSL_PARAM params[] = {
        param_uint(OSSL_CIPHER_PARAM_MODE),        param_size(OSSL_CIPHER_PARAM_KEYLEN),
        param_size(OSSL_CIPHER_PARAM_IVLEN),       param_size(OSSL_CIPHER_PARAM_BLOCK_SIZE),
        param_int(OSSL_CIPHER_PARAM_AEAD),         param_int(OSSL_CIPHER_PARAM_CUSTOM_IV),
        param_int(OSSL_CIPHER_PARAM_CTS),          param_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK),
        param_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY), param_end()};
    return params;
  }
  static const OSSL_PARAM* gettable_ctx_params(void*, void*) {
    static const OSSL_PARAM params[] = {param_size(OSSL_CIPHER_PARAM_KEYLEN),
                                        param_size(OSSL_CIPHER_PARAM_IVLEN),
                                        param_size(OSSL_CIPHER_PARAM_AEAD_TAGLEN),
                                        param_octets(OSSL_CIPHER_PARAM_AEAD_TAG), param_end()};
    return params;
  }
  static const OSSL_PARAM* settable_ctx_params(void*, void*) {
    static const OSSL_PARAM params[] = {param_octets(OSSL_CIPHER_PARAM_AEAD_TAG),
                                        param_size(OSSL_CIPHER_PARAM_AEAD_IVLEN),
                                        param_size(OSSL_CIPHER_PARAM_KEYLEN),
                                        param_size(OSSL_CIPHER_PARAM_AEAD_TAGLEN), param_end()};
    return params;
  }
};

const OSSL_DISPATCH kAeadDispatch[] = {
    {OSSL_FUNC_CIPHER_NEWCTX, entry(&AeadEntries::newctx)},
    {OSSL_FUNC_CIPHER_FREECTX, entry(&AeadEntries::freectx)},
    {OSSL_FUNC_CIPHER_ENCRYPT_INIT, entry(&AeadEntries::encrypt_init)},
    {OSSL_FUNC_CIPHER_DECRYPT_INIT, entry(&AeadEntries::decrypt_init)},
    {OSSL_FUNC_CIPHER_UPDATE, entry(&AeadEntries::update)},
    {OSSL_FUNC_CIPHER_FINAL, entry(&AeadEntries::final)},
    {OSSL_FUNC_CIPHER_GET_PARAMS, entry(&AeadEntries::get_params)},
    {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, entry(&AeadEntries::get_ctx_params)},
    {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, entry(&AeadEntries::set_ctx_params)},
    {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, entry(&AeadEntries::gettable_params)},
    {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, entry(&AeadEntries::gettable_ctx_params)},
    {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, entry(&AeadEntries::settable_ctx_params)},
    {0, nullptr},
};

// ---------------------------------------------------------------------------------------
// The algorithm tables, under OpenSSL's names (with its aliases and OIDs) where OpenSSL has
// the function; the others under the names OpenSSL's pending pull requests give them.
// ---------------------------------------------------------------------------------------

constexpr const char* kProperties = "provider=sponge";

template <std::size_t Rate, std::size_t Bytes>
using Sha3 = HasherDigest<sponge::detail::Hasher<Rate, 0x06, Bytes>, Bytes, false>;
template <std::size_t Rate, std::size_t Bytes>
using Keccak = HasherDigest<sponge::detail::Hasher<Rate, 0x01, Bytes>, Bytes, false>;

const OSSL_ALGORITHM kDigests[] = {
    {"SHA3-224:2.16.840.1.101.3.4.2.7", kProperties, kDigestDispatch<Sha3<144, 28>>, "SHA3-224"},
    {"SHA3-256:2.16.840.1.101.3.4.2.8", kProperties, kDigestDispatch<Sha3<136, 32>>, "SHA3-256"},
    {"SHA3-384:2.16.840.1.101.3.4.2.9", kProperties, kDigestDispatch<Sha3<104, 48>>, "SHA3-384"},
    {"SHA3-512:2.16.840.1.101.3.4.2.10", kProperties, kDigestDispatch<Sha3<72, 64>>, "SHA3-512"},
    {"SHAKE-128:SHAKE128:2.16.840.1.101.3.4.2.11", kProperties,
     kDigestDispatch<HasherDigest<sponge::Shake128, 16, true>>, "SHAKE128"},
    {"SHAKE-256:SHAKE256:2.16.840.1.101.3.4.2.12", kProperties,
     kDigestDispatch<HasherDigest<sponge::Shake256, 32, true>>, "SHAKE256"},
    {"KECCAK-224", kProperties, kDigestDispatch<Keccak<144, 28>>, "Keccak-224 (original padding)"},
    {"KECCAK-256", kProperties, kDigestDispatch<Keccak<136, 32>>, "Keccak-256 (Ethereum's)"},
    {"KECCAK-384", kProperties, kDigestDispatch<Keccak<104, 48>>, "Keccak-384 (original padding)"},
    {"KECCAK-512", kProperties, kDigestDispatch<Keccak<72, 64>>, "Keccak-512 (original padding)"},
    {"KECCAK-KMAC-128:KECCAK-KMAC128", kProperties, kDigestDispatch<KeccakKmacDigest<168, 32>>,
     "KMAC128's Keccak"},
    {"KECCAK-KMAC-256:KECCAK-KMAC256", kProperties, kDigestDispatch<KeccakKmacDigest<136, 64>>,
     "KMAC256's Keccak"},
    {"TurboSHAKE128:TURBOSHAKE-128", kProperties, kDigestDispatch<TurboShakeDigest<168, 32>>,
     "TurboSHAKE128 (RFC 9861)"},
    {"TurboSHAKE256:TURBOSHAKE-256", kProperties, kDigestDispatch<TurboShakeDigest<136, 64>>,
     "TurboSHAKE256 (RFC 9861)"},
    {"KT128:KangarooTwelve", kProperties, kDigestDispatch<KangarooTwelveDigest<168, 32, 32>>,
     "KT128 (RFC 9861)"},
    {"KT256", kProperties, kDigestDispatch<KangarooTwelveDigest<136, 64, 64>>, "KT256 (RFC 9861)"},
    {"CSHAKE-128:CSHAKE128", kProperties, kDigestDispatch<CshakeDigest<128, 32>>,
     "cSHAKE128 (SP 800-185)"},
    {"CSHAKE-256:CSHAKE256", kProperties, kDigestDispatch<CshakeDigest<256, 64>>,
     "cSHAKE256 (SP 800-185)"},
    {"PARALLELHASH-128:PARALLELHASH128", kProperties, kDigestDispatch<ParallelHashDigest<128, 32>>,
     "ParallelHash128 (SP 800-185)"},
    {"PARALLELHASH-256:PARALLELHASH256", kProperties, kDigestDispatch<ParallelHashDigest<256, 64>>,
     "ParallelHash256 (SP 800-185)"},
    {"ASCON-HASH256", kProperties, kDigestDispatch<AsconHash256Digest>,
     "Ascon-Hash256 (SP 800-232)"},
    {"ASCON-XOF128", kProperties, kDigestDispatch<AsconXof128Digest>, "Ascon-XOF128 (SP 800-232)"},
    {"ASCON-CXOF128", kProperties, kDigestDispatch<AsconCxof128Digest>,
     "Ascon-CXOF128 (SP 800-232)"},
    {nullptr, nullptr, nullptr, nullptr},
};

const OSSL_ALGORITHM kMacs[] = {
    {"KMAC-128:KMAC128:2.16.840.1.101.3.4.2.19", kProperties, kKmacDispatch<128>, "KMAC128"},
    {"KMAC-256:KMAC256:2.16.840.1.101.3.4.2.20", kProperties, kKmacDispatch<256>, "KMAC256"},
    {nullptr, nullptr, nullptr, nullptr},
};

const OSSL_ALGORITHM kCiphers[] = {
    {"ASCON-AEAD128", kProperties, kAeadDispatch, "Ascon-AEAD128 (SP 800-232)"},
    {nullptr, nullptr, nullptr, nullptr},
};

// ---------------------------------------------------------------------------------------
// The provider's own entry points.
// ---------------------------------------------------------------------------------------

const OSSL_ALGORITHM* query_operation(void*, int operation, int* no_cache) {
  *no_cache = 0;
  switch (operation) {
    case OSSL_OP_DIGEST:
      return kDigests;
    case OSSL_OP_MAC:
      return kMacs;
    case OSSL_OP_CIPHER:
      return kCiphers;
    default:
      return nullptr;
  }
}

const OSSL_PARAM* provider_gettable_params(void*) {
  static const OSSL_PARAM params[] = {
      param_text_ptr(OSSL_PROV_PARAM_NAME),
      param_text_ptr(OSSL_PROV_PARAM_VERSION),
      param_text_ptr(OSSL_PROV_PARAM_BUILDINFO),
      param_int(OSSL_PROV_PARAM_STATUS),
      {SPONGE_PROV_PARAM_FINALS, OSSL_PARAM_UNSIGNED_INTEGER, nullptr, sizeof(std::uint64_t), 0},
      param_text_ptr(SPONGE_PROV_PARAM_KERNEL),
      param_end()};
  return params;
}

int provider_get_params(void*, OSSL_PARAM params[]) {
  for (OSSL_PARAM* param = params; param != nullptr && param->key != nullptr; ++param) {
    bool written = true;
    if (key_is(*param, OSSL_PROV_PARAM_NAME))
      written = write_text(*param, "sponge: Keccak and Ascon on generated kernels");
    else if (key_is(*param, OSSL_PROV_PARAM_VERSION))
      written = write_text(*param, SPONGE_PROVIDER_VERSION);
    else if (key_is(*param, OSSL_PROV_PARAM_BUILDINFO))
      written = write_text(*param, "sponge " SPONGE_PROVIDER_VERSION);
    else if (key_is(*param, OSSL_PROV_PARAM_STATUS))
      written = write_unsigned(*param, 1);
    else if (key_is(*param, SPONGE_PROV_PARAM_FINALS))
      written = write_unsigned(*param, completed_finals.load(std::memory_order_relaxed));
    else if (key_is(*param, SPONGE_PROV_PARAM_KERNEL))
      written = write_text(*param, sponge::active_kernel().data());
    if (!written) return 0;
  }
  return 1;
}

const OSSL_ITEM* provider_reason_strings(void*) {
  return kReasonStrings;
}

void provider_teardown(void* provider) {
  delete static_cast<Provider*>(provider);
}

const OSSL_DISPATCH kProviderDispatch[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, entry(&provider_teardown)},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, entry(&query_operation)},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, entry(&provider_gettable_params)},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, entry(&provider_get_params)},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, entry(&provider_reason_strings)},
    {0, nullptr},
};

}  // namespace
}  // namespace sponge_provider

extern "C" __attribute__((visibility("default"))) int OSSL_provider_init(
    const OSSL_CORE_HANDLE* handle, const OSSL_DISPATCH* in, const OSSL_DISPATCH** out,
    void** provider_context) {
  using namespace sponge_provider;
  for (const OSSL_DISPATCH* function = in; function != nullptr && function->function_id != 0;
       ++function) {
    switch (function->function_id) {
      case OSSL_FUNC_CORE_NEW_ERROR:
        core_new_error = reinterpret_cast<OSSL_FUNC_core_new_error_fn*>(function->function);
        break;
      case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
        core_set_error_debug =
            reinterpret_cast<OSSL_FUNC_core_set_error_debug_fn*>(function->function);
        break;
      case OSSL_FUNC_CORE_VSET_ERROR:
        core_vset_error = reinterpret_cast<OSSL_FUNC_core_vset_error_fn*>(function->function);
        break;
      default:
        break;
    }
  }
  auto* provider = new (std::nothrow) Provider{handle};
  if (provider == nullptr) return 0;
  *provider_context = provider;
  *out = kProviderDispatch;
  return 1;
}
