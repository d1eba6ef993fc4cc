#include "support/oracles.hpp"

#include <cryptopp/keccak.h>

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

Bytes cryptopp_keccak256(std::span<const std::uint8_t> in) {
  CryptoPP::Keccak_256 hash;
  hash.Update(in.data(), in.size());
  Bytes out(CryptoPP::Keccak_256::DIGESTSIZE);
  hash.Final(out.data());
  return out;
}

}  // namespace sponge_test
