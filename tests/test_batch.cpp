// The batch hash functions: on every compiled batch kernel this CPU runs, called
// through the scheduler directly, the digests equal the one-shot functions' for every message
// count 0..33 and mixed lengths 0..4 * rate + 1 (random and structured); messages that
// overlap each other, digests that overlap their own message (the documented rule), messages
// and digests that end at a PROT_NONE page; a passenger sponge in a spare state (KangarooTwelve's
// final node); the public API's argument rule and kernel choice.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "batch/batch_hash.hpp"
#include "fuzz/fuzz_support.hpp"
#include "sponge/sponge.h"
#include "sponge/sponge.hpp"
#include "support/batch_kernels_check.hpp"
#include "support/test_support.hpp"

namespace {

using sponge::detail::BatchHashFunction;
using sponge::detail::BatchMessages;
using sponge::detail::KeccakBatchKernel;
using sponge::detail::KeccakSponge;
using sponge_test::Bytes;

// One of the five fixed-output functions: its sponge parameters and its one-shot function.
struct Function {
  const char* name;
  BatchHashFunction sponge;
  Bytes (*one_shot)(std::span<const std::uint8_t>);
};

template <typename Hash>
Function function_of(const char* name) {
  return {name,
          {Hash::rate_bytes, Hash::domain_byte, Hash::digest_bytes, 24},
          [](std::span<const std::uint8_t> message) {
            return sponge_test::one_shot<Hash>(message, Hash::digest_bytes);
          }};
}

const std::vector<Function>& functions() {
  static const std::vector<Function> all = {
      function_of<sponge::Keccak256>("keccak256"), function_of<sponge::Sha3_224>("sha3_224"),
      function_of<sponge::Sha3_256>("sha3_256"), function_of<sponge::Sha3_384>("sha3_384"),
      function_of<sponge::Sha3_512>("sha3_512")};
  return all;
}

// hash_batch on `kernel` against the one-shot function, message by message.
void check_batch(const KeccakBatchKernel& kernel, const Function& function,
                 const std::vector<std::span<const std::uint8_t>>& messages,
                 const std::string& what) {
  const std::size_t digest_bytes = function.sponge.digest_bytes;
  // One guard byte pattern after the last digest: the scheduler writes nothing beyond.
  Bytes digests(messages.size() * digest_bytes + 16, 0xEE);
  sponge::detail::hash_batch(kernel, function.sponge, BatchMessages(messages), digests.data());
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const Bytes expected = function.one_shot(messages[i]);
    const Bytes actual(digests.begin() + static_cast<std::ptrdiff_t>(i * digest_bytes),
                       digests.begin() + static_cast<std::ptrdiff_t>((i + 1) * digest_bytes));
    if (actual != expected) {
      FAIL_CHECK(kernel.name << " " << std::string(function.name) << " " << what << ": message "
                             << i << " of " << messages.size() << " (" << messages[i].size()
                             << " bytes) differs from the one-shot digest");
      return;
    }
  }
  CHECK(std::all_of(digests.end() - 16, digests.end(), [](std::uint8_t b) { return b == 0xEE; }));
}

// The length patterns of a batch of `count` messages for rate `rate`.
std::vector<std::pair<std::string, std::vector<std::size_t>>> length_patterns(
    std::size_t count, std::size_t rate, sponge_test::Rng& rng) {
  const std::size_t longest = 4 * rate + 1;
  std::vector<std::pair<std::string, std::vector<std::size_t>>> patterns;
  std::vector<std::size_t> random(count), equal(count), different(count), one_long(count);
  const std::size_t equal_length = rng.below_or_equal(longest);
  for (std::size_t i = 0; i < count; ++i) {
    random[i] = rng.below_or_equal(longest);
    equal[i] = equal_length;
    // All different: spread over 0..longest, around block boundaries.
    different[i] = (i * (rate + 1) / 2 + i) % (longest + 1);
    one_long[i] = i == count / 2 ? longest : rng.below_or_equal(rate / 4);
  }
  patterns.emplace_back("random lengths", random);
  patterns.emplace_back("all " + std::to_string(equal_length) + " bytes", equal);
  patterns.emplace_back("all different", different);
  patterns.emplace_back("one long, many short", one_long);
  std::vector<std::size_t> boundaries(count);
  for (std::size_t i = 0; i < count; ++i)
    boundaries[i] = (i / 3) * rate + (i % 3) - 1 + (i < 3 ? 1 : 0);  // k*rate-1, k*rate, k*rate+1
  patterns.emplace_back("around block boundaries", boundaries);
  return patterns;
}

}  // namespace

TEST_CASE("batch: every runnable batch kernel equals the one-shot functions, 0..33 messages") {
  sponge_test::Rng rng(0xBA7C4);
  const Bytes pool = rng.bytes(40 * (4 * 168 + 2));
  std::size_t batches = 0;
  for (const KeccakBatchKernel* kernel : tested_batch_kernels()) {
    for (const Function& function : functions()) {
      const std::size_t rate = function.sponge.rate_bytes;
      for (std::size_t count = 0; count <= 33; ++count) {
        for (const auto& [pattern, lengths] : length_patterns(count, rate, rng)) {
          std::vector<std::span<const std::uint8_t>> messages;
          std::size_t offset = 0;
          for (const std::size_t length : lengths) {
            messages.push_back(std::span(pool).subspan(offset, length));
            offset += length + 1;
          }
          check_batch(*kernel, function, messages,
                      pattern + ", " + std::to_string(count) + " messages");
          ++batches;
        }
      }
    }
    MESSAGE("batch kernel " << kernel->name << " (" << kernel->states
                            << " states): checked against the one-shot functions");
  }
  MESSAGE(batches << " batches checked");
  CHECK(batches > 0);
}

TEST_CASE("batch: a passenger's blocks absorbed in a spare state equal the single-state sponge") {
  // KangarooTwelve's final node rides this way beside its first leaves. Random starting
  // lanes, 1 to 9 blocks, beside 0 to N messages of mixed lengths (with N messages no state
  // is spare and the passenger goes through the single-state kernel), at 24 and 12 rounds.
  sponge_test::Rng rng(0x9A55);
  const Bytes pool = rng.bytes(9 * 168 + 40 * (4 * 168 + 2));
  std::size_t runs = 0;
  for (const KeccakBatchKernel* kernel : tested_batch_kernels()) {
    const std::size_t n = static_cast<std::size_t>(kernel->states);
    for (const int rounds : {24, 12}) {
      for (const std::size_t rate : {std::size_t{136}, std::size_t{168}}) {
        const BatchHashFunction leaf{rate, 0x0B, 32, rounds};
        for (std::size_t count = 0; count <= n; ++count) {
          for (const std::size_t block_count : {std::size_t{1}, std::size_t{2}, std::size_t{9}}) {
            INFO(kernel->name << ", " << rounds << " rounds, rate " << rate << ", " << count
                              << " messages, a passenger of " << block_count << " blocks");
            const std::uint8_t* blocks = pool.data() + 1;  // unaligned
            std::vector<std::span<const std::uint8_t>> messages;
            std::size_t offset = 9 * 168 + 2;
            for (std::size_t i = 0; i < count; ++i) {
              const std::size_t length = rng.below_or_equal(4 * rate + 1);
              messages.push_back(std::span(pool).subspan(offset, length));
              offset += length + 1;
            }
            std::uint64_t lanes[25];
            for (std::uint64_t& lane : lanes)
              lane = rng.next();
            // The model: the same lanes in a sponge at a block boundary, the blocks absorbed.
            KeccakSponge model(rate, 0x0B, rounds);
            std::copy(std::begin(lanes), std::end(lanes), model.lanes_at_block_boundary());
            model.absorb(blocks, block_count * rate);
            const sponge::detail::BatchPassenger passenger{lanes, blocks, block_count};
            Bytes digests(count * 32);
            sponge::detail::hash_batch(*kernel, leaf, BatchMessages(messages), digests.data(),
                                       &passenger);
            CHECK(std::equal(std::begin(lanes), std::end(lanes), model.lanes_at_block_boundary()));
            for (std::size_t i = 0; i < count; ++i) {
              KeccakSponge one(rate, 0x0B, rounds);
              one.absorb(messages[i].data(), messages[i].size());
              Bytes digest(32);
              one.squeeze(digest.data(), digest.size());
              CHECK(sponge_test::to_hex(
                        Bytes(digests.begin() + static_cast<std::ptrdiff_t>(32 * i),
                              digests.begin() + static_cast<std::ptrdiff_t>(32 * (i + 1)))) ==
                    sponge_test::to_hex(digest));
            }
            ++runs;
          }
        }
      }
    }
  }
  CHECK(runs > 0);
}

TEST_CASE("batch: messages that overlap each other, and empty messages with no data") {
  sponge_test::Rng rng(0xA11A5);
  const Bytes pool = rng.bytes(2000);
  for (const KeccakBatchKernel* kernel : tested_batch_kernels()) {
    for (const Function& function : functions()) {
      const std::size_t rate = function.sponge.rate_bytes;
      std::vector<std::span<const std::uint8_t>> messages;
      // The same message many times, nested prefixes and shifted windows of one buffer.
      for (int i = 0; i < 5; ++i)
        messages.push_back(std::span(pool).first(2 * rate + 3));
      for (std::size_t i = 0; i < 7; ++i)
        messages.push_back(std::span(pool).first(i * rate / 2));
      for (std::size_t i = 0; i < 7; ++i)
        messages.push_back(std::span(pool).subspan(i, 3 * rate - i));
      messages.push_back({});  // data() == nullptr, size 0
      messages.push_back(std::span(pool).subspan(100, 0));
      check_batch(*kernel, function, messages, "overlapping messages");
    }
  }
}

TEST_CASE("batch: digests[i] may overlap messages[i] (in-place hashing)") {
  // Messages of exactly one digest each, laid out contiguously: digest i is written over
  // message i and nothing else.
  sponge_test::Rng rng(0x1B7ACE);
  for (const KeccakBatchKernel* kernel : tested_batch_kernels()) {
    for (const Function& function : functions()) {
      const std::size_t digest_bytes = function.sponge.digest_bytes;
      for (std::size_t count : {1, 2, 4, 5, 9, 17}) {
        Bytes memory = rng.bytes(count * digest_bytes);
        std::vector<Bytes> expected;
        std::vector<std::span<const std::uint8_t>> messages;
        for (std::size_t i = 0; i < count; ++i) {
          const auto message = std::span(memory).subspan(i * digest_bytes, digest_bytes);
          expected.push_back(function.one_shot(message));
          messages.push_back(message);
        }
        sponge::detail::hash_batch(*kernel, function.sponge, BatchMessages(messages),
                                   memory.data());
        for (std::size_t i = 0; i < count; ++i) {
          INFO(kernel->name << " " << std::string(function.name) << " count " << count
                            << " message " << i);
          CHECK(Bytes(memory.begin() + static_cast<std::ptrdiff_t>(i * digest_bytes),
                      memory.begin() + static_cast<std::ptrdiff_t>((i + 1) * digest_bytes)) ==
                expected[i]);
        }
      }
    }
  }
}

TEST_CASE("batch: a long message whose first bytes are its own digest's buffer") {
  // The last digest over the first bytes of a message that runs 700 bytes past the digest
  // array; the other messages elsewhere, in flight while it is hashed.
  sponge_test::Rng rng(0x10C0);
  for (const KeccakBatchKernel* kernel : tested_batch_kernels()) {
    const Function& function = functions()[0];  // Keccak-256, 32-byte digests
    constexpr std::size_t kCount = 6;
    Bytes memory = rng.bytes(kCount * 32 + 700);
    const Bytes others = rng.bytes(kCount * 400);
    std::vector<std::span<const std::uint8_t>> messages;
    for (std::size_t i = 0; i < kCount; ++i)
      messages.push_back(std::span(others).subspan(i * 400, 50 + 60 * i));
    messages[kCount - 1] = std::span(memory).subspan((kCount - 1) * 32, 32 + 700);
    std::vector<Bytes> expected;
    for (const auto message : messages)
      expected.push_back(function.one_shot(message));
    sponge::detail::hash_batch(*kernel, function.sponge, BatchMessages(messages), memory.data());
    for (std::size_t i = 0; i < kCount; ++i) {
      INFO(kernel->name << " message " << i);
      CHECK(Bytes(memory.begin() + static_cast<std::ptrdiff_t>(i * 32),
                  memory.begin() + static_cast<std::ptrdiff_t>((i + 1) * 32)) == expected[i]);
    }
  }
}

TEST_CASE("batch: messages and digests that end at a PROT_NONE page") {
  sponge_test::Rng rng(0x6A4D);
  static const sponge_fuzz::GuardedRegion message_region(4 * 168 + 1);
  static const sponge_fuzz::GuardedRegion digest_region(33 * 64);
  for (const KeccakBatchKernel* kernel : tested_batch_kernels()) {
    for (const Function& function : functions()) {
      const std::size_t rate = function.sponge.rate_bytes;
      const std::size_t digest_bytes = function.sponge.digest_bytes;
      for (const std::size_t guarded_length :
           {std::size_t{0}, std::size_t{1}, rate - 1, rate, rate + 1, 4 * rate + 1}) {
        for (std::size_t count : {1, 3, 4, 5, 33}) {
          const Bytes pool = rng.bytes(count * (2 * rate + 1));
          const std::span<std::uint8_t> guarded = message_region.ending_at_guard(guarded_length);
          const Bytes guarded_bytes = rng.bytes(guarded_length);
          std::copy(guarded_bytes.begin(), guarded_bytes.end(), guarded.begin());
          std::vector<std::span<const std::uint8_t>> messages;
          for (std::size_t i = 0; i < count; ++i)
            messages.push_back(std::span(pool).subspan(i * (2 * rate + 1), (i * 37) % (2 * rate)));
          messages[count / 2] = guarded;  // the one at the guard, mid-batch
          const std::span<std::uint8_t> digests =
              digest_region.ending_at_guard(count * digest_bytes);
          sponge::detail::hash_batch(*kernel, function.sponge, BatchMessages(messages),
                                     digests.data());
          for (std::size_t i = 0; i < count; ++i) {
            INFO(kernel->name << " " << std::string(function.name) << " guarded length "
                              << guarded_length << " count " << count << " message " << i);
            CHECK(Bytes(digests.begin() + static_cast<std::ptrdiff_t>(i * digest_bytes),
                        digests.begin() + static_cast<std::ptrdiff_t>((i + 1) * digest_bytes)) ==
                  function.one_shot(messages[i]));
          }
        }
      }
    }
  }
}

TEST_CASE("batch: the public functions, their argument rule and the C API") {
  sponge_test::Rng rng(0xC0FFEE);
  const Bytes pool = rng.bytes(3000);
  std::vector<std::span<const std::uint8_t>> messages;
  for (std::size_t i = 0; i < 11; ++i)
    messages.push_back(std::span(pool).subspan(i * 200, i * 61 % 400));

  std::vector<std::array<std::uint8_t, 32>> d32(messages.size());
  std::vector<std::array<std::uint8_t, 28>> d28(messages.size());
  std::vector<std::array<std::uint8_t, 48>> d48(messages.size());
  std::vector<std::array<std::uint8_t, 64>> d64(messages.size());
  sponge::keccak256_batch(messages, d32);
  for (std::size_t i = 0; i < messages.size(); ++i)
    CHECK(d32[i] == sponge::keccak256(messages[i]));
  sponge::sha3_256_batch(messages, d32);
  for (std::size_t i = 0; i < messages.size(); ++i)
    CHECK(d32[i] == sponge::sha3_256(messages[i]));
  sponge::sha3_224_batch(messages, d28);
  sponge::sha3_384_batch(messages, d48);
  sponge::sha3_512_batch(messages, d64);
  for (std::size_t i = 0; i < messages.size(); ++i) {
    CHECK(d28[i] == sponge::sha3_224(messages[i]));
    CHECK(d48[i] == sponge::sha3_384(messages[i]));
    CHECK(d64[i] == sponge::sha3_512(messages[i]));
  }

  // A count mismatch throws and writes nothing.
  std::vector<std::array<std::uint8_t, 32>> short_digests(messages.size() - 1);
  for (auto& digest : short_digests)
    digest.fill(0x77);
  CHECK_THROWS_AS(sponge::keccak256_batch(messages, short_digests), std::invalid_argument);
  std::vector<std::array<std::uint8_t, 64>> long_digests(messages.size() + 1);
  for (auto& digest : long_digests)
    digest.fill(0x77);
  CHECK_THROWS_AS(sponge::sha3_512_batch(messages, long_digests), std::invalid_argument);
  CHECK_THROWS_AS(sponge::sha3_256_batch({}, short_digests), std::invalid_argument);
  for (const auto& digest : short_digests)
    CHECK(std::all_of(digest.begin(), digest.end(), [](std::uint8_t b) { return b == 0x77; }));
  for (const auto& digest : long_digests)
    CHECK(std::all_of(digest.begin(), digest.end(), [](std::uint8_t b) { return b == 0x77; }));
  // Zero messages, zero digests: nothing to do.
  sponge::keccak256_batch({}, {});

  // The C functions agree with the C++ ones.
  std::vector<const std::uint8_t*> pointers;
  std::vector<std::size_t> lengths;
  for (const auto message : messages) {
    pointers.push_back(message.data());
    lengths.push_back(message.size());
  }
  std::vector<std::array<std::uint8_t, 32>> c32(messages.size());
  REQUIRE(sponge_keccak256_batch(pointers.data(), lengths.data(), messages.size(),
                                 reinterpret_cast<std::uint8_t(*)[32]>(c32.data())) == SPONGE_OK);
  sponge::keccak256_batch(messages, d32);
  CHECK(c32 == d32);
}

TEST_CASE("batch: the active batch kernel is the one this run asked for") {
  const std::string active(sponge::active_kernel(sponge::KernelFamily::keccak_p1600_batch));
  MESSAGE("active batch kernel: " << active);
  CHECK(std::string(sponge_active_batch_kernel()) == active);
  const char* expected = std::getenv("SPONGE_EXPECTED_BATCH_KERNEL");
  if (expected != nullptr && *expected != '\0') {
    CHECK(active == expected);
  } else {
    // Unforced: the first runnable kernel chosen by default; portable-x4 never is.
    const char* forced = std::getenv("SPONGE_BATCH_KERNEL");
    CHECK((forced == nullptr || *forced == '\0'));
    std::string best;
    for (const KeccakBatchKernel* kernel : sponge::detail::compiled_batch_kernels()) {
      if (best.empty() && kernel->chosen_by_default && kernel->cpu_supports())
        best = std::string(kernel->name);
    }
    CHECK(active == best);
    CHECK(active != "portable-x4");
  }
  // The table: single is last, one state, chosen by default; portable-x4 has four states.
  const auto kernels = sponge::detail::compiled_batch_kernels();
  REQUIRE(!kernels.empty());
  CHECK(kernels.back()->name == "single");
  CHECK(kernels.back()->states == 1);
  CHECK(kernels.back()->chosen_by_default);
  bool has_portable_x4 = false;
  for (const KeccakBatchKernel* kernel : kernels) {
    if (kernel->name == "portable-x4") {
      has_portable_x4 = true;
      CHECK(kernel->states == 4);
      CHECK(!kernel->chosen_by_default);
    }
  }
  CHECK(has_portable_x4);
}
