// Known-answer tests: every byte-aligned entry of the NIST CAVP, XKCP and Keccak-team files
// in SPONGE_KAT_DIR (see tests/kat/SOURCES.md), through the one-shot function and through
// the streaming class, and the Keccak-f[1600] permutation against the Keccak team's
// intermediate values. A missing folder or file fails the test with its path.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "keccak/keccak_kernel.hpp"
#include "sponge/sponge.hpp"
#include "support/test_support.hpp"

using sponge_test::Bytes;
using sponge_test::read_kat;
using sponge_test::to_hex;

namespace {

// Keccak with the original padding (domain byte 0x01) at the other Keccak-team rates:
// test-only instances of the public Hasher template.
using Keccak224 = sponge::detail::Hasher<144, 0x01, 28>;
using Keccak384 = sponge::detail::Hasher<104, 0x01, 48>;
using Keccak512 = sponge::detail::Hasher<72, 0x01, 64>;

// Checks every byte-aligned entry of `file` with hash H and returns how many it checked.
template <typename H>
std::size_t check_kat_file(const char* file) {
  const sponge_test::KatFile kat = read_kat(file);
  std::size_t checked = 0;
  for (const sponge_test::KatEntry& entry : kat.entries) {
    INFO(kat.path << ":" << entry.line << " (" << entry.msg.size() << "-byte message)");
    const std::size_t split = entry.msg.size() / 2;
    CHECK(to_hex(sponge_test::one_shot<H>(entry.msg, entry.out.size())) == to_hex(entry.out));
    CHECK(to_hex(sponge_test::streamed<H>(entry.msg, split, entry.out.size())) ==
          to_hex(entry.out));
    ++checked;
  }
  MESSAGE(kat.path << ": checked " << checked << " byte-aligned vectors ("
                   << kat.bit_entries_skipped << " bit-length entries are not byte messages)");
  return checked;
}

}  // namespace

TEST_CASE("the KAT folder exists") {
  const std::filesystem::path dir = sponge_test::kat_dir();
  INFO("SPONGE_KAT_DIR = " << dir.string());
  REQUIRE(std::filesystem::is_directory(dir));
  CHECK(std::filesystem::is_regular_file(dir / "SOURCES.md"));
}

TEST_CASE("the KAT reader fails loudly on a missing file, naming its path") {
  CHECK_THROWS_WITH(read_kat("fips202-cavp/NoSuchFile.rsp"),
                    doctest::Contains("fips202-cavp/NoSuchFile.rsp"));
}

// The expected counts are the byte-aligned entries of each file as published: CAVP ShortMsg
// runs Len 0 to one rate block in steps of 8 bits (rate + 1 entries), LongMsg and
// VariableOut files have fixed counts, the Keccak-team files have 256 byte messages among
// their 2048 entries.
TEST_CASE("KAT fips202-cavp SHA3 ShortMsg and LongMsg") {
  CHECK(check_kat_file<sponge::Sha3_224>("fips202-cavp/SHA3_224ShortMsg.rsp") == 145);
  CHECK(check_kat_file<sponge::Sha3_256>("fips202-cavp/SHA3_256ShortMsg.rsp") == 137);
  CHECK(check_kat_file<sponge::Sha3_384>("fips202-cavp/SHA3_384ShortMsg.rsp") == 105);
  CHECK(check_kat_file<sponge::Sha3_512>("fips202-cavp/SHA3_512ShortMsg.rsp") == 73);
  CHECK(check_kat_file<sponge::Sha3_224>("fips202-cavp/SHA3_224LongMsg.rsp") == 100);
  CHECK(check_kat_file<sponge::Sha3_256>("fips202-cavp/SHA3_256LongMsg.rsp") == 100);
  CHECK(check_kat_file<sponge::Sha3_384>("fips202-cavp/SHA3_384LongMsg.rsp") == 100);
  CHECK(check_kat_file<sponge::Sha3_512>("fips202-cavp/SHA3_512LongMsg.rsp") == 100);
}

TEST_CASE("KAT fips202-cavp SHAKE ShortMsg, LongMsg and VariableOut") {
  CHECK(check_kat_file<sponge::Shake128>("fips202-cavp/SHAKE128ShortMsg.rsp") == 337);
  CHECK(check_kat_file<sponge::Shake256>("fips202-cavp/SHAKE256ShortMsg.rsp") == 273);
  CHECK(check_kat_file<sponge::Shake128>("fips202-cavp/SHAKE128LongMsg.rsp") == 100);
  CHECK(check_kat_file<sponge::Shake256>("fips202-cavp/SHAKE256LongMsg.rsp") == 100);
  CHECK(check_kat_file<sponge::Shake128>("fips202-cavp/SHAKE128VariableOut.rsp") == 1126);
  CHECK(check_kat_file<sponge::Shake256>("fips202-cavp/SHAKE256VariableOut.rsp") == 1246);
}

TEST_CASE("KAT fips202-xkcp SHA3 and SHAKE (512-byte multi-block squeeze)") {
  CHECK(check_kat_file<sponge::Sha3_224>("fips202-xkcp/ShortMsgKAT_SHA3-224.txt") == 256);
  CHECK(check_kat_file<sponge::Sha3_256>("fips202-xkcp/ShortMsgKAT_SHA3-256.txt") == 256);
  CHECK(check_kat_file<sponge::Sha3_384>("fips202-xkcp/ShortMsgKAT_SHA3-384.txt") == 256);
  CHECK(check_kat_file<sponge::Sha3_512>("fips202-xkcp/ShortMsgKAT_SHA3-512.txt") == 256);
  CHECK(check_kat_file<sponge::Shake128>("fips202-xkcp/ShortMsgKAT_SHAKE128.txt") == 256);
  CHECK(check_kat_file<sponge::Shake256>("fips202-xkcp/ShortMsgKAT_SHAKE256.txt") == 256);
  // The Squeezed outputs really are several rate blocks long.
  const sponge_test::KatFile shake128 = read_kat("fips202-xkcp/ShortMsgKAT_SHAKE128.txt");
  REQUIRE(!shake128.entries.empty());
  CHECK(shake128.entries.front().out.size() == 512);
}

TEST_CASE("KAT keccak-legacy Keccak-256 (Ethereum) ShortMsg and LongMsg") {
  CHECK(check_kat_file<sponge::Keccak256>("keccak-legacy/ShortMsgKAT_256.txt") == 256);
  CHECK(check_kat_file<sponge::Keccak256>("keccak-legacy/LongMsgKAT_256.txt") == 65);
}

TEST_CASE("KAT keccak-legacy Keccak-224/384/512 through test-only Hasher instances") {
  CHECK(check_kat_file<Keccak224>("keccak-legacy/ShortMsgKAT_224.txt") == 256);
  CHECK(check_kat_file<Keccak384>("keccak-legacy/ShortMsgKAT_384.txt") == 256);
  CHECK(check_kat_file<Keccak512>("keccak-legacy/ShortMsgKAT_512.txt") == 256);
}

TEST_CASE("KAT Keccak-f[1600] intermediate values: two permutations from the zero state") {
  const auto examples =
      sponge_test::read_permutation_examples("fips202-xkcp/KeccakF-1600-IntermediateValues.txt");
  MESSAGE("checked " << examples.size() << " permutations");
  REQUIRE(examples.size() == 2);
  CHECK(examples[0].input == std::array<std::uint64_t, 25>{});  // the zero state
  CHECK(examples[1].input == examples[0].output);               // then the previous output
  // Lane 0 of the first output, as printed in the file's "lanes as 64-bit words" view.
  CHECK(examples[0].output[0] == 0xF1258F7940E1DDE7ull);
  for (const auto& example : examples) {
    std::array<std::uint64_t, 25> dispatched = example.input;
    sponge::keccak_f1600(dispatched.data());
    CHECK(dispatched == example.output);
    std::array<std::uint64_t, 25> portable = example.input;
    sponge::detail::keccak_f1600_portable(portable.data());
    CHECK(portable == example.output);
  }
}
