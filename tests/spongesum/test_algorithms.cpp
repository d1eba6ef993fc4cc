// spongesum's algorithm table: each entry hashes as the library's own function, and -a/-l
// resolve as documented.
#include <doctest/doctest.h>

#include <set>
#include <sponge/sponge.hpp>
#include <string>
#include <variant>
#include <vector>

#include "algorithms.hpp"
#include "checksum_line.hpp"

namespace {

std::string table_hex(std::string_view name, std::size_t bits, std::string_view message) {
  const spongesum::Algorithm* algorithm = spongesum::find_algorithm(name);
  REQUIRE(algorithm != nullptr);
  auto hash = algorithm->make_hash();
  std::vector<std::uint8_t> out(bits / 8);
  // Twice: finish() must leave the hasher at the empty message for the next file.
  for (int round = 0; round < 2; ++round) {
    hash->update(sponge::detail::as_bytes(message.substr(0, 1)));
    hash->update(sponge::detail::as_bytes(message.substr(1)));
    hash->finish(out);
  }
  return spongesum::to_hex(out);
}

template <std::size_t N>
std::string hex_of(const std::array<std::uint8_t, N>& digest) {
  return spongesum::to_hex(digest);
}

}  // namespace

TEST_CASE("every table entry hashes as the library function it names") {
  const std::string_view abc = "abc";
  CHECK(table_hex("sha3-224", 224, abc) == hex_of(sponge::sha3_224(abc)));
  CHECK(table_hex("sha3-256", 256, abc) == hex_of(sponge::sha3_256(abc)));
  CHECK(table_hex("sha3-384", 384, abc) == hex_of(sponge::sha3_384(abc)));
  CHECK(table_hex("sha3-512", 512, abc) == hex_of(sponge::sha3_512(abc)));
  CHECK(table_hex("keccak-256", 256, abc) == hex_of(sponge::keccak256(abc)));
  std::vector<std::uint8_t> shake(200);
  sponge::shake128(abc, shake);
  CHECK(table_hex("shake128", 1600, abc) == spongesum::to_hex(shake));
  sponge::shake256(abc, shake);
  CHECK(table_hex("shake256", 1600, abc) == spongesum::to_hex(shake));
  const std::span<const std::uint8_t> abc_bytes(reinterpret_cast<const std::uint8_t*>(abc.data()),
                                                abc.size());
  sponge::turboshake128(abc_bytes, shake);
  CHECK(table_hex("turboshake128", 1600, abc) == spongesum::to_hex(shake));
  sponge::turboshake256(abc_bytes, shake);
  CHECK(table_hex("turboshake256", 1600, abc) == spongesum::to_hex(shake));
  sponge::kt128(abc_bytes, {}, shake);
  CHECK(table_hex("kt128", 1600, abc) == spongesum::to_hex(shake));
  sponge::kt256(abc_bytes, {}, shake);
  CHECK(table_hex("kt256", 1600, abc) == spongesum::to_hex(shake));
  CHECK(table_hex("ascon-hash256", 256, abc) == hex_of(sponge::ascon_hash256(abc)));
  sponge::ascon_xof128(abc_bytes, shake);
  CHECK(table_hex("ascon-xof128", 1600, abc) == spongesum::to_hex(shake));
  // Ascon-Hash256 of the byte 00, tests/kat/ascon-sp800-232 (Count = 2); the tag in any case.
  CHECK(table_hex("ASCON-HASH256", 256, std::string_view("\0", 1)) ==
        "0728621035af3ed2bca03bf6fde900f9456f5330e4b5ee23e7f6a1e70291bc80");
}

TEST_CASE("names and tags are unique, and found in any case") {
  std::set<std::string> seen;
  for (const spongesum::Algorithm& algorithm : spongesum::algorithms()) {
    CHECK(seen.insert(std::string(algorithm.name)).second);
    CHECK(seen.insert(std::string(algorithm.tag)).second);
    CHECK(spongesum::find_algorithm(algorithm.tag) == &algorithm);
  }
  CHECK(spongesum::find_algorithm("Sha3-256") == spongesum::find_algorithm("SHA3-256"));
  CHECK(spongesum::find_algorithm("md5") == nullptr);
  CHECK(spongesum::find_algorithm(spongesum::kDefaultAlgorithm) != nullptr);
}

TEST_CASE("an untagged digest's length picks SHA-3 before Keccak-256, and the SHAKEs") {
  CHECK(spongesum::find_algorithm_by_output_bits(256)->name == "sha3-256");
  CHECK(spongesum::find_algorithm_by_output_bits(1344)->name == "shake128");
  CHECK(spongesum::find_algorithm_by_output_bits(1088)->name == "shake256");
  CHECK(spongesum::find_algorithm_by_output_bits(160) == nullptr);
}

TEST_CASE("-a and -l") {
  using spongesum::select_algorithm;
  using spongesum::Selection;
  using spongesum::SelectionError;
  const auto sha3_384 = select_algorithm("sha3", 384);
  REQUIRE(std::holds_alternative<Selection>(sha3_384));
  CHECK(std::get<Selection>(sha3_384).algorithm->name == "sha3-384");
  const auto shake = select_algorithm("shake256", 256);
  REQUIRE(std::holds_alternative<Selection>(shake));
  CHECK(std::get<Selection>(shake).output_bits == 256);
  CHECK(std::get<Selection>(select_algorithm("shake128", std::nullopt)).output_bits == 1344);
  CHECK(std::get<Selection>(select_algorithm("sha3-256", 256)).output_bits == 256);
  CHECK(std::holds_alternative<SelectionError>(select_algorithm("sha3-256", 512)));
  CHECK(std::holds_alternative<SelectionError>(select_algorithm("shake128", 12)));
  CHECK(std::holds_alternative<SelectionError>(
      select_algorithm("shake128", spongesum::kMaxOutputBits + 8)));
  CHECK(std::holds_alternative<SelectionError>(select_algorithm("sha3", 160)));
  CHECK(std::holds_alternative<SelectionError>(select_algorithm("sha3", std::nullopt)));
}
