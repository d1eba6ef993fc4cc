// Known answers of RFC 9861: every TurboSHAKE128/256 and KT128/KT256 vector in
// SPONGE_KAT_DIR/rfc9861 (see tests/kat/SOURCES.md), through the one-shot function and,
// for messages up to kLargestStreamedMessage, through the streaming class too. The largest
// messages (17^6 bytes = 23 MiB) run once: this executable is registered once per kernel,
// and it runs under qemu for arm64.
#include <doctest/doctest.h>

#include <chrono>

#include "sponge/sponge.hpp"
#include "support/test_support.hpp"

using sponge_test::Bytes;
using sponge_test::to_hex;

namespace {

constexpr std::size_t kLargestStreamedMessage = 17 * 17 * 17 * 17;  // the 17^4-byte vectors

// Computes each vector of `file` with `compute(block, message, out, streamed)` and returns
// how many it checked; prints the time the file took.
template <typename Compute>
std::size_t check_rfc9861_file(const char* file, Compute compute) {
  const auto started = std::chrono::steady_clock::now();
  const sponge_test::KatBlockFile kat = sponge_test::read_kat_blocks(file);
  std::size_t checked = 0;
  for (const sponge_test::KatBlock& block : kat.blocks) {
    const Bytes message = sponge_test::rfc9861_bytes(block.value("Message"));
    const std::size_t offset = block.number("OutputOffset");
    const std::string expected = block.value("Output");
    INFO(block.where << " (" << message.size() << "-byte message)");
    Bytes out(block.number("OutputLength"));
    REQUIRE(offset < out.size());
    compute(block, message, out, false);
    CHECK(to_hex(std::span(out).subspan(offset)) == expected);
    if (message.size() <= kLargestStreamedMessage) {
      compute(block, message, out, true);
      CHECK(to_hex(std::span(out).subspan(offset)) == expected);
    }
    ++checked;
  }
  const auto elapsed =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started);
  MESSAGE(kat.path << ": checked " << checked << " vectors in " << elapsed.count() << " ms");
  return checked;
}

template <typename TurboShake>
void turboshake(const sponge_test::KatBlock& block, const Bytes& message, Bytes& out,
                bool streamed) {
  const std::uint8_t domain = sponge_test::from_hex(block.value("Domain")).at(0);
  if (streamed) {
    TurboShake xof(domain);
    out = sponge_test::squeezed_in_pieces(xof, message, message.size() / 3, out.size());
  } else if constexpr (std::is_same_v<TurboShake, sponge::TurboShake128>) {
    sponge::turboshake128(message, out, domain);
  } else {
    sponge::turboshake256(message, out, domain);
  }
}

template <typename Kt>
void kangarootwelve(const sponge_test::KatBlock& block, const Bytes& message, Bytes& out,
                    bool streamed) {
  const Bytes customization = sponge_test::rfc9861_bytes(block.value("Customization"));
  // The parallel forms must give the same bytes: the longest vectors (17^6 bytes, about 3,000
  // leaves) are split across threads, the rest stay on the caller's thread.
  Bytes parallel(out.size());
  if (streamed) {
    // Split off the first chunk and an odd part of the next, so a leaf is streamed in pieces.
    const std::size_t split = std::min(message.size(), std::size_t{8192 + 1000});
    Kt xof(customization);
    out = sponge_test::squeezed_in_pieces(xof, message, split, out.size());
    Kt threaded(customization, sponge::Threads{sponge_test::kThreadsRun ? 2u : 1u});
    parallel = sponge_test::squeezed_in_pieces(threaded, message, split, out.size());
  } else if constexpr (std::is_same_v<Kt, sponge::Kt128>) {
    sponge::kt128(message, customization, out);
    sponge::kt128_parallel(message, customization, parallel, sponge_test::kThreadsRun ? 3 : 1);
  } else {
    sponge::kt256(message, customization, out);
    sponge::kt256_parallel(message, customization, parallel, sponge_test::kThreadsRun ? 0 : 1);
  }
  CHECK(parallel == out);
}

}  // namespace

// The counts are the RFC's: 16 TurboSHAKE128 and 15 TurboSHAKE256 vectors, 18 each for KT.
TEST_CASE("KAT rfc9861 TurboSHAKE128 and TurboSHAKE256") {
  CHECK(check_rfc9861_file("rfc9861/turboshake128.txt", turboshake<sponge::TurboShake128>) == 16);
  CHECK(check_rfc9861_file("rfc9861/turboshake256.txt", turboshake<sponge::TurboShake256>) == 15);
}

TEST_CASE("KAT rfc9861 KT128 and KT256") {
  CHECK(check_rfc9861_file("rfc9861/kt128.txt", kangarootwelve<sponge::Kt128>) == 18);
  CHECK(check_rfc9861_file("rfc9861/kt256.txt", kangarootwelve<sponge::Kt256>) == 18);
}
