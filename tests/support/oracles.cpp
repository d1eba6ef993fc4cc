#include "support/oracles.hpp"

#include <cryptopp/keccak.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <memory>
#include <stdexcept>

namespace sponge_test {

Bytes openssl_hash(const EVP_MD* md, std::span<const std::uint8_t> in, std::size_t out_len,
                   bool xof) {
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(),
                                                                    EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), md, nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), in.data(), in.size()) != 1) {
    throw std::runtime_error("OpenSSL digest setup failed");
  }
  Bytes out(out_len);
  if (xof) {
    if (EVP_DigestFinalXOF(ctx.get(), out.data(), out.size()) != 1) {
      throw std::runtime_error("EVP_DigestFinalXOF failed");
    }
  } else {
    unsigned int written = 0;
    if (EVP_DigestFinal_ex(ctx.get(), out.data(), &written) != 1 || written != out_len) {
      throw std::runtime_error("EVP_DigestFinal_ex failed");
    }
  }
  return out;
}

Bytes openssl_kmac(int security_bits, std::span<const std::uint8_t> key,
                   std::span<const std::uint8_t> in, std::span<const std::uint8_t> customization,
                   std::size_t out_len, bool xof) {
  if (key.size() < kOpensslKmacMinKeyBytes || key.size() > kOpensslKmacMaxKeyBytes ||
      customization.size() > kOpensslKmacMaxCustomizationBytes) {
    throw std::runtime_error("KMAC key or customization length outside OpenSSL's limits");
  }
  const std::unique_ptr<EVP_MAC, decltype(&EVP_MAC_free)> mac(
      EVP_MAC_fetch(nullptr, security_bits == 128 ? "KMAC-128" : "KMAC-256", nullptr),
      EVP_MAC_free);
  if (!mac) throw std::runtime_error("EVP_MAC_fetch(KMAC) failed");
  const std::unique_ptr<EVP_MAC_CTX, decltype(&EVP_MAC_CTX_free)> ctx(EVP_MAC_CTX_new(mac.get()),
                                                                      EVP_MAC_CTX_free);
  int xof_flag = xof ? 1 : 0;
  std::size_t size = out_len;
  // OpenSSL reads the customization string through a non-const pointer, but does not write.
  auto* custom = const_cast<std::uint8_t*>(customization.data());
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_CUSTOM, custom, customization.size()),
      OSSL_PARAM_construct_int(OSSL_MAC_PARAM_XOF, &xof_flag),
      OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
      OSSL_PARAM_construct_end(),
  };
  Bytes out(out_len);
  std::size_t written = 0;
  if (!ctx || EVP_MAC_init(ctx.get(), key.data(), key.size(), params) != 1 ||
      EVP_MAC_update(ctx.get(), in.data(), in.size()) != 1 ||
      EVP_MAC_final(ctx.get(), out.data(), &written, out.size()) != 1 || written != out_len) {
    throw std::runtime_error("OpenSSL KMAC failed");
  }
  return out;
}

Bytes cryptopp_keccak256(std::span<const std::uint8_t> in) {
  CryptoPP::Keccak_256 hash;
  hash.Update(in.data(), in.size());
  Bytes out(CryptoPP::Keccak_256::DIGESTSIZE);
  hash.Final(out.data());
  return out;
}

}  // namespace sponge_test
