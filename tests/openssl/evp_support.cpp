#include "evp_support.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "sponge_provider.h"

namespace sponge_evp {

namespace {

struct MdCtxFree {
  void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};
struct MdFree {
  void operator()(EVP_MD* md) const { EVP_MD_free(md); }
};
struct MacCtxFree {
  void operator()(EVP_MAC_CTX* context) const { EVP_MAC_CTX_free(context); }
};
struct MacFree {
  void operator()(EVP_MAC* mac) const { EVP_MAC_free(mac); }
};
struct CipherCtxFree {
  void operator()(EVP_CIPHER_CTX* context) const { EVP_CIPHER_CTX_free(context); }
};
struct CipherFree {
  void operator()(EVP_CIPHER* cipher) const { EVP_CIPHER_free(cipher); }
};

// Calls `update(data, length)` for `message` as `feed` says; false when one call fails.
template <typename Update>
bool feed_message(std::span<const std::uint8_t> message, Feed feed, Update update) {
  switch (feed) {
    case Feed::kAllAtOnce:
      return update(message.data(), message.size());
    case Feed::kByteAtATime:
      for (std::size_t i = 0; i < message.size(); ++i)
        if (!update(message.data() + i, 1)) return false;
      return true;
    case Feed::kSplit: {
      const std::size_t split = message.size() / 3;
      return update(message.data(), split) &&
             update(message.data() + split, message.size() - split);
    }
  }
  return false;
}

}  // namespace

OSSL_LIB_CTX* library() {
  static OSSL_LIB_CTX* const context = [] {
    OSSL_LIB_CTX* created = OSSL_LIB_CTX_new();
    if (created == nullptr ||
        !OSSL_PROVIDER_set_default_search_path(created, SPONGE_PROVIDER_DIR) ||
        OSSL_PROVIDER_load(created, "sponge") == nullptr ||
        OSSL_PROVIDER_load(created, "default") == nullptr) {
      std::fprintf(stderr, "cannot load the sponge provider from %s\n", SPONGE_PROVIDER_DIR);
      ERR_print_errors_fp(stderr);
      std::abort();
    }
    return created;
  }();
  return context;
}

OSSL_LIB_CTX* default_only_library() {
  static OSSL_LIB_CTX* const context = [] {
    OSSL_LIB_CTX* created = OSSL_LIB_CTX_new();
    if (created == nullptr || OSSL_PROVIDER_load(created, "default") == nullptr) {
      ERR_print_errors_fp(stderr);
      std::abort();
    }
    return created;
  }();
  return context;
}

OSSL_LIB_CTX* library_for(const char* properties) {
  return std::strcmp(properties, kDefault) == 0 ? default_only_library() : library();
}

std::string take_error_reason() {
  const unsigned long code = ERR_peek_last_error();
  std::string reason;
  if (code != 0) {
    const char* text = ERR_reason_error_string(code);
    reason = text != nullptr ? text : "(reason " + std::to_string(ERR_GET_REASON(code)) + ")";
  }
  ERR_clear_error();
  return reason;
}

Params& Params::octets(const char* key, std::span<const std::uint8_t> bytes) {
  entries_.push_back({key, OSSL_PARAM_OCTET_STRING, Bytes(bytes.begin(), bytes.end()), 0, 0, 0});
  return *this;
}
Params& Params::size(const char* key, std::size_t value) {
  entries_.push_back({key, OSSL_PARAM_UNSIGNED_INTEGER, {}, value, 0, 0});
  return *this;
}
Params& Params::integer(const char* key, int value) {
  entries_.push_back({key, OSSL_PARAM_INTEGER, {}, 0, value, 0});
  return *this;
}
Params& Params::uint(const char* key, unsigned value) {
  entries_.push_back({key, -1, {}, 0, 0, value});
  return *this;
}
const OSSL_PARAM* Params::get() {
  if (entries_.empty()) return nullptr;
  built_.clear();
  for (Entry& entry : entries_) {
    if (entry.kind == OSSL_PARAM_OCTET_STRING)
      built_.push_back(OSSL_PARAM_construct_octet_string(entry.key.c_str(), entry.bytes.data(),
                                                         entry.bytes.size()));
    else if (entry.kind == OSSL_PARAM_UNSIGNED_INTEGER)
      built_.push_back(OSSL_PARAM_construct_size_t(entry.key.c_str(), &entry.size_value));
    else if (entry.kind == OSSL_PARAM_INTEGER)
      built_.push_back(OSSL_PARAM_construct_int(entry.key.c_str(), &entry.int_value));
    else
      built_.push_back(OSSL_PARAM_construct_uint(entry.key.c_str(), &entry.uint_value));
  }
  built_.push_back(OSSL_PARAM_construct_end());
  return built_.data();
}

Bytes digest(const char* name, const char* properties, std::span<const std::uint8_t> message,
             std::size_t out_bytes, bool xof, const OSSL_PARAM* params, Feed feed) {
  const std::unique_ptr<EVP_MD, MdFree> md(EVP_MD_fetch(library_for(properties), name, properties));
  const std::unique_ptr<EVP_MD_CTX, MdCtxFree> context(EVP_MD_CTX_new());
  if (md == nullptr || context == nullptr) return {};
  if (!EVP_DigestInit_ex2(context.get(), md.get(), params)) return {};
  if (!feed_message(message, feed, [&](const std::uint8_t* data, std::size_t length) {
        return EVP_DigestUpdate(context.get(), data, length) == 1;
      }))
    return {};
  Bytes out(out_bytes);
  if (xof) {
    if (!EVP_DigestFinalXOF(context.get(), out.data(), out.size())) return {};
  } else {
    unsigned length = 0;
    out.resize(EVP_MAX_MD_SIZE);
    if (!EVP_DigestFinal_ex(context.get(), out.data(), &length)) return {};
    out.resize(length);
  }
  return out;
}

Bytes mac(const char* name, const char* properties, std::span<const std::uint8_t> key,
          std::span<const std::uint8_t> message, const OSSL_PARAM* params, Feed feed) {
  const std::unique_ptr<EVP_MAC, MacFree> mac(
      EVP_MAC_fetch(library_for(properties), name, properties));
  if (mac == nullptr) return {};
  const std::unique_ptr<EVP_MAC_CTX, MacCtxFree> context(EVP_MAC_CTX_new(mac.get()));
  if (context == nullptr) return {};
  if (params != nullptr && !EVP_MAC_CTX_set_params(context.get(), params)) return {};
  if (!EVP_MAC_init(context.get(), key.data(), key.size(), nullptr)) return {};
  if (!feed_message(message, feed, [&](const std::uint8_t* data, std::size_t length) {
        return EVP_MAC_update(context.get(), data, length) == 1;
      }))
    return {};
  std::size_t length = 0;
  if (!EVP_MAC_final(context.get(), nullptr, &length, 0)) return {};
  Bytes out(length);
  if (!EVP_MAC_final(context.get(), out.data(), &length, out.size())) return {};
  out.resize(length);
  return out;
}

namespace {

// Runs one Ascon-AEAD128 message through EVP: the associated data and the text fed as `feed`
// says. Decrypting, the tag is set before final. Returns the text out (and the tag appended
// when encrypting).
Bytes aead(bool encrypting, std::span<const std::uint8_t> key, std::span<const std::uint8_t> nonce,
           std::span<const std::uint8_t> associated_data, std::span<const std::uint8_t> text,
           std::span<const std::uint8_t> tag, bool& ok, Feed feed) {
  ok = false;
  const std::unique_ptr<EVP_CIPHER, CipherFree> cipher(
      EVP_CIPHER_fetch(library(), "ASCON-AEAD128", kSponge));
  const std::unique_ptr<EVP_CIPHER_CTX, CipherCtxFree> context(EVP_CIPHER_CTX_new());
  if (cipher == nullptr || context == nullptr) return {};
  if (!EVP_CipherInit_ex2(context.get(), cipher.get(), key.data(), nonce.data(), encrypting ? 1 : 0,
                          nullptr))
    return {};
  int length = 0;
  if (!feed_message(associated_data, feed, [&](const std::uint8_t* data, std::size_t size) {
        return EVP_CipherUpdate(context.get(), nullptr, &length, data, static_cast<int>(size)) == 1;
      }))
    return {};
  Bytes out(text.size() + 16);
  std::size_t written = 0;
  if (!feed_message(text, feed, [&](const std::uint8_t* data, std::size_t size) {
        if (EVP_CipherUpdate(context.get(), out.data() + written, &length, data,
                             static_cast<int>(size)) != 1)
          return false;
        written += static_cast<std::size_t>(length);
        return true;
      }))
    return {};
  if (!encrypting &&
      !EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag.size()),
                           const_cast<std::uint8_t*>(tag.data())))
    return {};
  if (!EVP_CipherFinal_ex(context.get(), out.data() + written, &length)) {
    out.resize(written);
    return out;
  }
  written += static_cast<std::size_t>(length);
  if (encrypting) {
    if (!EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_AEAD_GET_TAG, 16, out.data() + written))
      return {};
    written += 16;
  }
  out.resize(written);
  ok = true;
  return out;
}

}  // namespace

Bytes aead_encrypt(std::span<const std::uint8_t> key, std::span<const std::uint8_t> nonce,
                   std::span<const std::uint8_t> associated_data,
                   std::span<const std::uint8_t> plaintext, Feed feed) {
  bool ok = false;
  Bytes out = aead(true, key, nonce, associated_data, plaintext, {}, ok, feed);
  return ok ? out : Bytes();
}

Bytes aead_decrypt(std::span<const std::uint8_t> key, std::span<const std::uint8_t> nonce,
                   std::span<const std::uint8_t> associated_data,
                   std::span<const std::uint8_t> ciphertext_and_tag, bool& ok, Feed feed) {
  ok = false;
  if (ciphertext_and_tag.size() < 16) return {};
  const std::size_t text = ciphertext_and_tag.size() - 16;
  return aead(false, key, nonce, associated_data, ciphertext_and_tag.first(text),
              ciphertext_and_tag.subspan(text), ok, feed);
}

std::uint64_t sponge_finals() {
  OSSL_PROVIDER* provider = OSSL_PROVIDER_load(library(), "sponge");  // a reference
  std::uint64_t finals = 0;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_uint64(SPONGE_PROV_PARAM_FINALS, &finals),
                         OSSL_PARAM_construct_end()};
  const int got = OSSL_PROVIDER_get_params(provider, params);
  OSSL_PROVIDER_unload(provider);
  return got == 1 ? finals : 0;
}

}  // namespace sponge_evp
