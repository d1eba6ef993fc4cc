// sponge_fuzz_batch: a set of messages from the fuzz input hashed by the batch scheduler on
// every batch kernel this CPU runs, and by the public C++ and C batch functions, against the
// one-shot function of each message. The messages are windows of one pool (so they may
// overlap each other); the digests and the last message end at a PROT_NONE page when the
// placement byte says so. SPONGE_BATCH_KERNEL plays no part in the scheduler calls (every
// batch kernel runs on each input); the public functions use the active one.
//
// Input (bytes past the end read as zero; make_corpus.py writes examples):
//   function (% 5: keccak256, sha3_224, sha3_256, sha3_384, sha3_512), message count
//   (% 34), placement (odd: digests and the last message at the guard page), then per
//   message: offset u16 (% pool size), length u16 (% (4 * rate + 2)); then the pool bytes
//   (up to 1024 bytes, zeros past the input's end).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "batch/batch_hash.hpp"
#include "fuzz/fuzz_support.hpp"
#include "sponge/sponge.h"
#include "sponge/sponge.hpp"
#include "support/test_support.hpp"

namespace {

using sponge_fuzz::FuzzInput;

constexpr std::size_t kPoolBytes = 1024;
constexpr std::size_t kMaxMessages = 33;
constexpr std::size_t kMaxMessageBytes = 4 * 168 + 1;

struct Function {
  const char* name;
  sponge::detail::BatchHashFunction sponge;
  sponge_test::Bytes (*one_shot)(std::span<const std::uint8_t>);
  // The public C++ and C batch functions, digests contiguous.
  void (*cpp_batch)(std::span<const std::span<const std::uint8_t>>, std::uint8_t*);
  sponge_status (*c_batch)(const std::uint8_t* const*, const std::size_t*, std::size_t,
                           std::uint8_t*);
};

template <typename Hash, auto CppBatch, auto CBatch>
Function function_of(const char* name) {
  constexpr std::size_t kDigest = Hash::digest_bytes;
  using Digest = std::array<std::uint8_t, kDigest>;
  return {name,
          {Hash::rate_bytes, Hash::domain_byte, kDigest, 24},
          [](std::span<const std::uint8_t> message) {
            return sponge_test::one_shot<Hash>(message, kDigest);
          },
          [](std::span<const std::span<const std::uint8_t>> messages, std::uint8_t* out) {
            CppBatch(messages, std::span<Digest>(reinterpret_cast<Digest*>(out), messages.size()));
          },
          [](const std::uint8_t* const* messages, const std::size_t* lengths, std::size_t count,
             std::uint8_t* out) {
            return CBatch(messages, lengths, count,
                          reinterpret_cast<std::uint8_t(*)[kDigest]>(out));
          }};
}

const Function kFunctions[] = {
    function_of<sponge::Keccak256, sponge::keccak256_batch, sponge_keccak256_batch>("keccak256"),
    function_of<sponge::Sha3_224, sponge::sha3_224_batch, sponge_sha3_224_batch>("sha3_224"),
    function_of<sponge::Sha3_256, sponge::sha3_256_batch, sponge_sha3_256_batch>("sha3_256"),
    function_of<sponge::Sha3_384, sponge::sha3_384_batch, sponge_sha3_384_batch>("sha3_384"),
    function_of<sponge::Sha3_512, sponge::sha3_512_batch, sponge_sha3_512_batch>("sha3_512"),
};

const sponge_fuzz::GuardedRegion& digest_region() {
  static const sponge_fuzz::GuardedRegion region(kMaxMessages * 64);
  return region;
}
const sponge_fuzz::GuardedRegion& message_region() {
  static const sponge_fuzz::GuardedRegion region(kMaxMessageBytes);
  return region;
}

const std::vector<const sponge::detail::KeccakBatchKernel*>& batch_kernels() {
  static const auto kernels = sponge_test::runnable_batch_kernels();
  return kernels;
}

void check_digests(const std::string& what, const Function& function,
                   const std::vector<sponge_test::Bytes>& expected,
                   std::span<const std::uint8_t> digests) {
  const std::size_t size = function.sponge.digest_bytes;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    sponge_fuzz::require_equal(what + ", message " + std::to_string(i), expected[i],
                               digests.subspan(i * size, size));
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sponge_fuzz::start_target("sponge_fuzz_batch");
  std::string names;
  for (const auto* kernel : batch_kernels())
    names += (names.empty() ? "" : ", ") + std::string(kernel->name);
  std::fprintf(stderr, "sponge_fuzz_batch: batch kernels this CPU runs: %s; active: %s\n",
               names.c_str(), sponge_active_batch_kernel());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput input(data, size);
  const Function& function = kFunctions[input.byte() % std::size(kFunctions)];
  const std::size_t count = input.byte() % (kMaxMessages + 1);
  const bool at_guard = input.byte() % 2 != 0;
  const std::size_t rate = function.sponge.rate_bytes;
  std::vector<std::pair<std::size_t, std::size_t>> windows(count);
  for (auto& [offset, length] : windows) {
    offset = input.u16() % kPoolBytes;
    length = input.u16() % (4 * rate + 2);
  }
  // The pool repeats itself so every window fits: byte i of the pool is byte i % 1024 of
  // the input's pool bytes.
  std::vector<std::uint8_t> pool_bytes(kPoolBytes);
  input.fill(pool_bytes);
  std::vector<std::uint8_t> pool(kPoolBytes + kMaxMessageBytes);
  for (std::size_t i = 0; i < pool.size(); ++i)
    pool[i] = pool_bytes[i % kPoolBytes];

  std::vector<std::span<const std::uint8_t>> messages;
  for (const auto& [offset, length] : windows)
    messages.push_back(std::span(pool).subspan(offset, length));
  if (at_guard && count != 0) {
    const std::span<std::uint8_t> guarded =
        message_region().ending_at_guard(messages.back().size());
    std::copy(messages.back().begin(), messages.back().end(), guarded.begin());
    messages.back() = guarded;
  }
  std::vector<sponge_test::Bytes> expected;
  for (const auto message : messages)
    expected.push_back(function.one_shot(message));

  const std::size_t digest_bytes = count * function.sponge.digest_bytes;
  std::vector<std::uint8_t> heap_digests;
  std::span<std::uint8_t> digests;
  if (at_guard) {
    digests = digest_region().ending_at_guard(digest_bytes);
  } else {
    heap_digests.resize(digest_bytes);
    digests = heap_digests;
  }
  const std::string name = function.name;
  for (const auto* kernel : batch_kernels()) {
    std::fill(digests.begin(), digests.end(), 0);
    sponge::detail::hash_batch(*kernel, function.sponge, sponge::detail::BatchMessages(messages),
                               digests.data());
    check_digests(name + " on " + std::string(kernel->name), function, expected, digests);
  }
  std::fill(digests.begin(), digests.end(), 0);
  function.cpp_batch(messages, digests.data());
  check_digests(name + "_batch (C++)", function, expected, digests);

  std::vector<const std::uint8_t*> pointers;
  std::vector<std::size_t> lengths;
  for (const auto message : messages) {
    pointers.push_back(message.data());
    lengths.push_back(message.size());
  }
  std::fill(digests.begin(), digests.end(), 0);
  if (function.c_batch(pointers.data(), lengths.data(), count, digests.data()) != SPONGE_OK) {
    sponge_fuzz::fail(name + "_batch (C): not SPONGE_OK");
  }
  check_digests(name + "_batch (C)", function, expected, digests);
  return 0;
}
