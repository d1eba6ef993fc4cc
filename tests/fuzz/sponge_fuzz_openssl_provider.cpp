// libFuzzer target: random sequences of EVP calls and parameters on the sponge OpenSSL
// provider, each result compared with the library's own API.
//
// Input format (bytes past the end read as zero):
//   byte 0   the algorithm (kAlgorithms, modulo its size)
//   then up to 64 operations, each an opcode byte (modulo 8) and its operands:
//     0 INIT      settings from the input (customization, N, domain, leaf size, XOF, key,
//                 MAC size: as the algorithm takes them), then init of the active slot
//     1 UPDATE    u16 % 2049 bytes, one call
//     2 BYTES     byte % 65 bytes, one call per byte
//     3 FINAL     u16 % 600 + 1 bytes of output (XOFs; fixed digests their own length)
//     4 COPY      the active slot duplicated into the other (EVP_MD_CTX_copy_ex,
//                 EVP_MAC_CTX_dup), which becomes active
//     5 SWITCH    the other slot becomes active
//     6 BAD       a parameter that must be refused (byte % 4: an unknown key, xoflen or
//                 size 0, a mistyped value, a prefix parameter after data); the state must not
//                 change
//     7 AEAD      one Ascon-AEAD128 message (key, nonce, AD and text lengths, pieces, a tag
//                 bit to flip or not) encrypted and decrypted through EVP
// An operation that EVP must refuse (update or final after final, final before init) is
// checked to fail; every final that must succeed is compared with the library.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "evp_support.hpp"
#include "fuzz_support.hpp"
#include "sponge/sponge.hpp"
#include "sponge_provider.h"

namespace {

using sponge_evp::Bytes;
using sponge_evp::kSponge;
using sponge_fuzz::FuzzInput;

struct Settings {
  Bytes customization;
  Bytes function_name;
  std::uint8_t domain = 0x1F;
  std::size_t leaf_bytes = 8192;
  bool xof = false;
  Bytes key;
  std::size_t mac_bytes = 0;
};

enum Takes : unsigned {
  kCustomization = 1,
  kFunctionName = 2,
  kDomain = 4,
  kLeafBytes = 8,
  kXofFlag = 16,
  kKey = 32,
};

struct Algorithm {
  const char* name;
  bool mac;
  bool xof;               // output length chosen by the caller
  std::size_t out_bytes;  // fixed digests and the MACs' default
  unsigned takes;
  Bytes (*reference)(const Settings&, std::span<const std::uint8_t>, std::size_t);
};

template <std::size_t N>
Bytes bytes_of(const std::array<std::uint8_t, N>& array) {
  return Bytes(array.begin(), array.end());
}

const Algorithm kAlgorithms[] = {
    {"SHA3-256", false, false, 32, 0,
     [](const Settings&, std::span<const std::uint8_t> m, std::size_t) {
       return bytes_of(sponge::sha3_256(m));
     }},
    {"KECCAK-256", false, false, 32, 0,
     [](const Settings&, std::span<const std::uint8_t> m, std::size_t) {
       return bytes_of(sponge::keccak256(m));
     }},
    {"SHAKE128", false, true, 16, 0,
     [](const Settings&, std::span<const std::uint8_t> m, std::size_t n) {
       Bytes out(n);
       sponge::shake128(m, out);
       return out;
     }},
    {"TurboSHAKE128", false, true, 32, kDomain,
     [](const Settings& s, std::span<const std::uint8_t> m, std::size_t n) {
       Bytes out(n);
       sponge::turboshake128(m, out, s.domain);
       return out;
     }},
    {"KT128", false, true, 32, kCustomization,
     [](const Settings& s, std::span<const std::uint8_t> m, std::size_t n) {
       Bytes out(n);
       sponge::kt128(m, s.customization, out);
       return out;
     }},
    {"CSHAKE-256", false, true, 64, kCustomization | kFunctionName,
     [](const Settings& s, std::span<const std::uint8_t> m, std::size_t n) {
       Bytes out(n);
       sponge::cshake256(m, s.function_name, s.customization, out);
       return out;
     }},
    {"PARALLELHASH-128", false, true, 32, kCustomization | kLeafBytes | kXofFlag,
     [](const Settings& s, std::span<const std::uint8_t> m, std::size_t n) {
       Bytes out(n);
       if (s.xof)
         sponge::parallelhashxof128(m, s.leaf_bytes, s.customization, out);
       else
         sponge::parallelhash128(m, s.leaf_bytes, s.customization, out);
       return out;
     }},
    {"ASCON-HASH256", false, false, 32, 0,
     [](const Settings&, std::span<const std::uint8_t> m, std::size_t) {
       return bytes_of(sponge::ascon_hash256(m));
     }},
    {"ASCON-CXOF128", false, true, 32, kCustomization,
     [](const Settings& s, std::span<const std::uint8_t> m, std::size_t n) {
       Bytes out(n);
       sponge::ascon_cxof128(m, s.customization, out);
       return out;
     }},
    {"KMAC128", true, false, 32, kKey | kCustomization | kXofFlag,
     [](const Settings& s, std::span<const std::uint8_t> m, std::size_t n) {
       Bytes out(n);
       if (s.xof)
         sponge::kmacxof128(s.key, m, s.customization, out);
       else
         sponge::kmac128(s.key, m, s.customization, out);
       return out;
     }},
    {"KMAC256", true, false, 64, kKey | kCustomization | kXofFlag,
     [](const Settings& s, std::span<const std::uint8_t> m, std::size_t n) {
       Bytes out(n);
       if (s.xof)
         sponge::kmacxof256(s.key, m, s.customization, out);
       else
         sponge::kmac256(s.key, m, s.customization, out);
       return out;
     }},
};
constexpr std::size_t kAlgorithmCount = sizeof kAlgorithms / sizeof kAlgorithms[0];

Bytes take(FuzzInput& input, std::size_t length) {
  Bytes bytes;
  bytes.reserve(length);
  for (std::size_t i = 0; i < length; ++i)
    bytes.push_back(input.byte());
  return bytes;
}

// One EVP context (digest or MAC) and the model of what it must hold.
struct Slot {
  EVP_MD_CTX* md = nullptr;
  EVP_MAC_CTX* mac = nullptr;
  bool initialised = false;
  bool finished = false;
  Settings settings;
  Bytes message;

  Slot() = default;
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;
  ~Slot() { clear(); }
  void clear() {
    EVP_MD_CTX_free(md);
    EVP_MAC_CTX_free(mac);
    md = nullptr;
    mac = nullptr;
    initialised = finished = false;
    message.clear();
  }
};

void expect(bool condition, const char* what) {
  if (!condition) sponge_fuzz::fail(what);
}

sponge_evp::Params init_params(const Algorithm& algorithm, const Settings& settings) {
  sponge_evp::Params params;
  if (algorithm.mac) {
    params.octets(OSSL_MAC_PARAM_CUSTOM, settings.customization)
        .size(OSSL_MAC_PARAM_SIZE, settings.mac_bytes)
        .integer(OSSL_MAC_PARAM_XOF, settings.xof ? 1 : 0);
    return params;
  }
  if (algorithm.takes & kCustomization)
    params.octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, settings.customization);
  if (algorithm.takes & kFunctionName)
    params.octets(SPONGE_DIGEST_PARAM_FUNCTION_NAME, settings.function_name);
  if (algorithm.takes & kDomain) params.uint(SPONGE_DIGEST_PARAM_DOMAIN, settings.domain);
  if (algorithm.takes & kLeafBytes)
    params.size(SPONGE_DIGEST_PARAM_LEAF_BYTES, settings.leaf_bytes);
  if (algorithm.takes & kXofFlag) params.integer(SPONGE_DIGEST_PARAM_XOF, settings.xof ? 1 : 0);
  return params;
}

Settings read_settings(FuzzInput& input, const Algorithm& algorithm) {
  Settings settings;
  const std::uint8_t lengths = input.byte();
  if (algorithm.takes & kCustomization) settings.customization = take(input, lengths % 40);
  if (algorithm.takes & kFunctionName) settings.function_name = take(input, lengths / 40 % 6);
  if (algorithm.takes & kDomain)
    settings.domain = static_cast<std::uint8_t>(1 + input.byte() % 0x7F);
  if (algorithm.takes & kLeafBytes) settings.leaf_bytes = 1 + input.byte() % 200;
  if (algorithm.takes & kXofFlag) settings.xof = input.byte() % 2 == 1;
  if (algorithm.takes & kKey) {
    settings.key = take(input, 4 + input.byte() % 60);
    settings.mac_bytes = 1 + input.u16() % 300;
  }
  return settings;
}

void init(Slot& slot, const Algorithm& algorithm, Settings settings) {
  sponge_evp::Params params = init_params(algorithm, settings);
  if (algorithm.mac) {
    if (slot.mac == nullptr) {
      EVP_MAC* mac = EVP_MAC_fetch(sponge_evp::library(), algorithm.name, kSponge);
      slot.mac = EVP_MAC_CTX_new(mac);
      EVP_MAC_free(mac);
    }
    expect(EVP_MAC_CTX_set_params(slot.mac, params.get()) == 1, "EVP_MAC_CTX_set_params failed");
    expect(EVP_MAC_init(slot.mac, settings.key.data(), settings.key.size(), nullptr) == 1,
           "EVP_MAC_init failed");
  } else {
    if (slot.md == nullptr) slot.md = EVP_MD_CTX_new();
    EVP_MD* md = EVP_MD_fetch(sponge_evp::library(), algorithm.name, kSponge);
    const int ok = EVP_DigestInit_ex2(slot.md, md, params.get());
    EVP_MD_free(md);
    expect(ok == 1, "EVP_DigestInit_ex2 failed");
  }
  slot.settings = std::move(settings);
  slot.initialised = true;
  slot.finished = false;
  slot.message.clear();
}

bool update(Slot& slot, const std::uint8_t* data, std::size_t length) {
  return slot.mac != nullptr ? EVP_MAC_update(slot.mac, data, length) == 1
                             : EVP_DigestUpdate(slot.md, data, length) == 1;
}

void absorb(Slot& slot, const Bytes& data, bool byte_at_a_time) {
  if (!slot.initialised) return;
  bool ok = true;
  if (byte_at_a_time) {
    for (std::size_t i = 0; i < data.size(); ++i)
      ok = update(slot, data.data() + i, 1) && ok;
  } else {
    ok = update(slot, data.data(), data.size());
  }
  if (slot.finished) {
    // An empty update after final: EVP may not even reach the provider. Data must fail.
    expect(data.empty() || !ok, "update after final succeeded");
    ERR_clear_error();
    return;
  }
  expect(ok, "update failed");
  slot.message.insert(slot.message.end(), data.begin(), data.end());
}

void final(Slot& slot, const Algorithm& algorithm, std::size_t xof_bytes) {
  if (!slot.initialised) return;
  const std::size_t out_bytes = algorithm.mac   ? slot.settings.mac_bytes
                                : algorithm.xof ? xof_bytes
                                                : algorithm.out_bytes;
  Bytes out(out_bytes + 64);
  bool ok;
  if (slot.mac != nullptr) {
    std::size_t length = 0;
    ok = EVP_MAC_final(slot.mac, out.data(), &length, out.size()) == 1;
    if (ok) expect(length == out_bytes, "EVP_MAC_final length");
  } else if (algorithm.xof) {
    ok = EVP_DigestFinalXOF(slot.md, out.data(), out_bytes) == 1;
  } else {
    unsigned length = 0;
    ok = EVP_DigestFinal_ex(slot.md, out.data(), &length) == 1;
    if (ok) expect(length == out_bytes, "EVP_DigestFinal_ex length");
  }
  if (slot.finished) {
    expect(!ok, "final after final succeeded");
    ERR_clear_error();
    return;
  }
  expect(ok, "final failed");
  out.resize(out_bytes);
  sponge_fuzz::require_equal(algorithm.name,
                             algorithm.reference(slot.settings, slot.message, out_bytes), out);
  slot.finished = true;
}

void copy_into(Slot& from, Slot& to) {
  to.clear();
  if (!from.initialised) return;
  if (from.mac != nullptr) {
    to.mac = EVP_MAC_CTX_dup(from.mac);
    expect(to.mac != nullptr, "EVP_MAC_CTX_dup failed");
  } else {
    to.md = EVP_MD_CTX_new();
    expect(EVP_MD_CTX_copy_ex(to.md, from.md) == 1, "EVP_MD_CTX_copy_ex failed");
  }
  to.initialised = true;
  to.finished = from.finished;
  to.settings = from.settings;
  to.message = from.message;
}

void refused_parameter(Slot& slot, const Algorithm& algorithm, std::uint8_t variant) {
  if (!slot.initialised) return;
  sponge_evp::Params params;
  const Bytes three = {1, 2, 3};
  switch (variant % 4) {
    case 0:
      params.size("no-such-parameter", 1);
      break;
    case 1:
      if (algorithm.mac)
        params.size(OSSL_MAC_PARAM_SIZE, 0);
      else if (algorithm.xof)
        params.size(OSSL_DIGEST_PARAM_XOFLEN, 0);
      else
        params.size(OSSL_DIGEST_PARAM_XOFLEN, 32);  // a fixed digest has no xoflen
      break;
    case 2:
      params.octets(algorithm.mac ? OSSL_MAC_PARAM_SIZE : OSSL_DIGEST_PARAM_XOFLEN, three);
      break;
    default:
      // A prefix parameter once data is in: refused. Before data it would be accepted, so
      // then the case is the unknown key again.
      if ((algorithm.takes & kCustomization) && !algorithm.mac && !slot.message.empty())
        params.octets(SPONGE_DIGEST_PARAM_CUSTOMIZATION, three);
      else
        params.integer("xof-ish", 1);
      break;
  }
  const int ok = slot.mac != nullptr ? EVP_MAC_CTX_set_params(slot.mac, params.get())
                                     : EVP_MD_CTX_set_params(slot.md, params.get());
  expect(ok != 1, "a parameter that must be refused was accepted");
  expect(!sponge_evp::take_error_reason().empty(), "a refused parameter raised no error");
}

void aead_message(FuzzInput& input) {
  const Bytes key = take(input, 16), nonce = take(input, 16);
  const Bytes associated_data = take(input, input.byte() % 80);
  const Bytes plaintext = take(input, input.u16() % 700);
  const std::uint8_t feed_choice = input.byte();
  const auto feed = static_cast<sponge_evp::Feed>(feed_choice % 3);
  Bytes expected(plaintext.size() + 16);
  sponge::ascon_aead128_encrypt(
      std::span<const std::uint8_t, 16>(key.data(), 16),
      std::span<const std::uint8_t, 16>(nonce.data(), 16), associated_data, plaintext,
      std::span(expected).first(plaintext.size()),
      std::span<std::uint8_t, 16>(expected.data() + plaintext.size(), 16));
  const Bytes sealed = sponge_evp::aead_encrypt(key, nonce, associated_data, plaintext, feed);
  sponge_fuzz::require_equal("Ascon-AEAD128 encryption", expected, sealed);
  Bytes tampered = sealed;
  const std::uint16_t flip = input.u16();
  const bool tamper = flip % 2 == 1;
  if (tamper) tampered[(flip / 2) % tampered.size()] ^= static_cast<std::uint8_t>(1 << (flip % 8));
  bool ok = false;
  const Bytes opened = sponge_evp::aead_decrypt(key, nonce, associated_data, tampered, ok, feed);
  ERR_clear_error();
  expect(ok != tamper,
         tamper ? "a tampered message was accepted" : "a genuine message was refused");
  if (!tamper) sponge_fuzz::require_equal("Ascon-AEAD128 decryption", plaintext, opened);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sponge_fuzz::start_target("sponge_fuzz_openssl_provider");
  sponge_evp::library();  // loads the module once, before the first input
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput input(data, size);
  const Algorithm& algorithm = kAlgorithms[input.byte() % kAlgorithmCount];
  Slot slots[2];
  int active = 0;
  for (int operation = 0; operation < 64 && !input.empty(); ++operation) {
    Slot& slot = slots[active];
    switch (input.byte() % 8) {
      case 0:
        init(slot, algorithm, read_settings(input, algorithm));
        break;
      case 1:
        absorb(slot, take(input, input.u16() % 2049), false);
        break;
      case 2:
        absorb(slot, take(input, input.byte() % 65), true);
        break;
      case 3:
        final(slot, algorithm, 1 + input.u16() % 600);
        break;
      case 4:
        copy_into(slot, slots[1 - active]);
        active = 1 - active;
        break;
      case 5:
        active = 1 - active;
        break;
      case 6:
        refused_parameter(slot, algorithm, input.byte());
        break;
      default:
        aead_message(input);
        break;
    }
  }
  ERR_clear_error();
  return 0;
}
