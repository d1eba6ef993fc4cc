// Keccak-256 of each file named, by Crypto++ (an implementation independent of ours, and
// not OpenSSL, which has no Keccak-256 in 3.0): one lower-case hex digest per line, in
// argument order. rhash 1.4.3, Debian 12's, has no Keccak-256.
#include <cryptopp/keccak.h>

#include <cstdio>
#include <fstream>
#include <vector>

int main(int argc, char** argv) {
  std::vector<char> block(1 << 20);
  for (int i = 1; i < argc; ++i) {
    std::ifstream file(argv[i], std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "keccak256_reference: cannot open %s\n", argv[i]);
      return 1;
    }
    CryptoPP::Keccak_256 hash;
    while (file.read(block.data(), static_cast<std::streamsize>(block.size())) ||
           file.gcount() > 0) {
      hash.Update(reinterpret_cast<const CryptoPP::byte*>(block.data()),
                  static_cast<std::size_t>(file.gcount()));
    }
    CryptoPP::byte digest[CryptoPP::Keccak_256::DIGESTSIZE];
    hash.Final(digest);
    for (CryptoPP::byte b : digest)
      std::printf("%02x", b);
    std::printf("\n");
  }
  return 0;
}
