// The tree modes' leaves on the batch kernels (leaf_hashing.hpp): KangarooTwelve's and
// ParallelHash's whole leaves are hashed up to N at a time on a multi-state kernel, a lone
// last leaf on the single-state path, and the outputs must be the sequential path's, in
// leaf order.
//
// - On every compiled batch kernel this CPU runs, called directly: hash_whole_leaves for the
//   four leaf functions (KT128, KT256: TurboSHAKE, D = 0x0B; ParallelHash128/256: SHAKE),
//   leaf counts 0 .. 2N + 1 and leaf sizes from 1 byte (no full rate block) through rate +- 1
//   to 8 KiB, against fresh single-state sponges, leaf by leaf.
// - Through the public functions and classes, on the active batch kernel (the executable is
//   registered once per batch kernel with SPONGE_BATCH_KERNEL): KT128, KT256, ParallelHash128
//   and 256 and their XOF forms against models built from TurboSHAKE, SHAKE and cSHAKE, for
//   messages of 0 .. N + 1 whole leaves plus partial leaves, at leaf boundaries +- 1, one-shot
//   and streamed in uneven pieces.
// - The threaded forms: ParallelLeafRuns called directly, and the public and C API
//   functions and classes at 1 to 4 threads and one per CPU, at leaf counts around the split
//   points, against the single-threaded functions and the models.
#include <doctest/doctest.h>

#include <sponge/sponge.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "batch/batch_kernel.hpp"
#include "sponge/sponge.hpp"
#include "support/batch_kernels_check.hpp"
#include "support/test_support.hpp"
#include "tree/leaf_hashing.hpp"
#include "tree/parallel_leaves.hpp"

namespace {

using sponge::detail::KeccakBatchKernel;
using sponge::detail::KeccakSponge;
using sponge_test::Bytes;

struct LeafFunction {
  const char* name;
  std::size_t rate_bytes;
  std::uint8_t domain_byte;
  int rounds;
  std::size_t output_bytes;
};

constexpr LeafFunction kLeafFunctions[] = {
    {"KT128 leaf", 168, 0x0B, 12, 32},
    {"KT256 leaf", 136, 0x0B, 12, 64},
    {"ParallelHash128 leaf", 168, 0x1F, 24, 32},
    {"ParallelHash256 leaf", 136, 0x1F, 24, 64},
};

// The outputs of `count` leaves of `leaf_bytes` each, one fresh single-state sponge per leaf.
Bytes sequential_leaves(const LeafFunction& function, const std::uint8_t* leaves,
                        std::size_t leaf_bytes, std::size_t count) {
  Bytes outputs;
  for (std::size_t i = 0; i < count; ++i) {
    KeccakSponge leaf(function.rate_bytes, function.domain_byte, function.rounds);
    leaf.absorb(leaves + i * leaf_bytes, leaf_bytes);
    Bytes output(function.output_bytes);
    leaf.squeeze(output.data(), output.size());
    outputs.insert(outputs.end(), output.begin(), output.end());
  }
  return outputs;
}

// ---------------------------------------------------------------------------------------
// Models of the tree modes on the public single-sponge functions.
// ---------------------------------------------------------------------------------------
Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes all;
  for (const Bytes& part : parts)
    all.insert(all.end(), part.begin(), part.end());
  return all;
}
Bytes big_endian_digits(std::uint64_t value) {
  Bytes digits;
  for (; value != 0; value >>= 8)
    digits.insert(digits.begin(), static_cast<std::uint8_t>(value));
  return digits;
}
Bytes length_encode(std::uint64_t value) {
  Bytes digits = big_endian_digits(value);
  digits.push_back(static_cast<std::uint8_t>(digits.size()));
  return digits;
}
Bytes left_encode(std::uint64_t value) {
  Bytes digits = big_endian_digits(value);
  if (digits.empty()) digits.push_back(0);
  digits.insert(digits.begin(), static_cast<std::uint8_t>(digits.size()));
  return digits;
}
Bytes right_encode(std::uint64_t value) {
  Bytes digits = big_endian_digits(value);
  if (digits.empty()) digits.push_back(0);
  digits.push_back(static_cast<std::uint8_t>(digits.size()));
  return digits;
}

template <typename TurboShake>
Bytes turboshake(std::span<const std::uint8_t> in, std::uint8_t domain_byte, std::size_t length) {
  TurboShake xof(domain_byte);
  xof.update(in);
  Bytes out(length);
  xof.squeeze(std::span(out));
  return out;
}

// RFC 9861 section 3.2, chunk by chunk.
template <typename TurboShake>
Bytes kangarootwelve_model(std::span<const std::uint8_t> message,
                           std::span<const std::uint8_t> customization,
                           std::size_t chaining_value_bytes, std::size_t output_bytes) {
  constexpr std::size_t kChunk = 8192;
  const Bytes s = concat({Bytes(message.begin(), message.end()),
                          Bytes(customization.begin(), customization.end()),
                          length_encode(customization.size())});
  if (s.size() <= kChunk) return turboshake<TurboShake>(s, 0x07, output_bytes);
  Bytes final_node(s.begin(), s.begin() + kChunk);
  final_node.insert(final_node.end(), {0x03, 0, 0, 0, 0, 0, 0, 0});
  std::size_t leaves = 0;
  for (std::size_t start = kChunk; start < s.size(); start += kChunk, ++leaves) {
    const std::size_t end = std::min(s.size(), start + kChunk);
    const Bytes chaining_value = turboshake<TurboShake>(std::span(s).subspan(start, end - start),
                                                        0x0B, chaining_value_bytes);
    final_node.insert(final_node.end(), chaining_value.begin(), chaining_value.end());
  }
  final_node = concat({final_node, length_encode(leaves), {0xFF, 0xFF}});
  return turboshake<TurboShake>(final_node, 0x06, output_bytes);
}

// SP 800-185 section 6.3: cSHAKE(left_encode(B) || SHAKE(X_0) .. || right_encode(n) ||
// right_encode(L or 0), "ParallelHash", S).
template <int SecurityBits>
Bytes parallelhash_model(std::span<const std::uint8_t> message, std::size_t block_size,
                         std::span<const std::uint8_t> customization, bool xof,
                         std::size_t output_bytes) {
  using Shake = std::conditional_t<SecurityBits == 128, sponge::Shake128, sponge::Shake256>;
  sponge::detail::Cshake<SecurityBits> cshake(sponge::detail::kParallelHashName, customization);
  cshake.update(left_encode(block_size));
  std::size_t leaves = 0;
  for (std::size_t start = 0; start < message.size(); start += block_size, ++leaves) {
    Shake shake;
    shake.update(message.subspan(start, std::min(block_size, message.size() - start)));
    Bytes leaf_output(SecurityBits / 4);
    shake.squeeze(std::span(leaf_output));
    cshake.update(leaf_output);
  }
  cshake.update(right_encode(leaves));
  cshake.update(right_encode(xof ? 0 : 8 * output_bytes));
  Bytes out(output_bytes);
  cshake.squeeze(std::span(out));
  return out;
}

// The message lengths of `leaves_before` (bytes before the first leaf: KT's chunk 0) plus
// 0 .. max_leaves whole leaves of `leaf_bytes`, each -1, +0, +1 and + half a leaf.
std::vector<std::size_t> lengths_around_leaves(std::size_t leaves_before, std::size_t leaf_bytes,
                                               std::size_t max_leaves) {
  std::vector<std::size_t> lengths;
  for (std::size_t leaves = 0; leaves <= max_leaves; ++leaves) {
    const std::size_t boundary = leaves_before + leaves * leaf_bytes;
    // boundary - 1 wraps around for boundary 0, and is dropped.
    for (const std::size_t length :
         {boundary - 1, boundary, boundary + 1, boundary + leaf_bytes / 2}) {
      if (length <= boundary + leaf_bytes) lengths.push_back(length);
    }
  }
  std::sort(lengths.begin(), lengths.end());
  lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
  return lengths;
}

}  // namespace

TEST_CASE("leaves: every runnable batch kernel hashes whole leaves like the single-state path") {
  sponge_test::Rng rng(0x1EAF);
  const Bytes pool = rng.bytes(17 * 8192 + 64);
  std::size_t runs = 0;
  for (const KeccakBatchKernel* kernel : tested_batch_kernels()) {
    const std::size_t n = static_cast<std::size_t>(kernel->states);
    for (const LeafFunction& function : kLeafFunctions) {
      const std::size_t rate = function.rate_bytes;
      for (const std::size_t leaf_bytes :
           {std::size_t{1}, std::size_t{7}, rate - 1, rate, rate + 1, 2 * rate, 3 * rate + 5,
            std::size_t{1000}, std::size_t{8191}, std::size_t{8192}}) {
        for (std::size_t count = 0; count <= 2 * n + 1; ++count) {
          INFO(kernel->name << " (" << n << " states), " << function.name << ", " << count
                            << " leaves of " << leaf_bytes << " bytes");
          REQUIRE(count * leaf_bytes + 3 <= pool.size());
          // Unaligned leaves: they start 3 bytes into the pool.
          const std::uint8_t* leaves = pool.data() + 3;
          KeccakSponge leaf(rate, function.domain_byte, function.rounds);
          Bytes outputs;
          std::size_t calls = 0;
          sponge::detail::hash_whole_leaves(
              *kernel, leaf, leaves, leaf_bytes, count, function.output_bytes,
              [&](std::span<const std::uint8_t> output) {
                CHECK(output.size() == function.output_bytes);
                outputs.insert(outputs.end(), output.begin(), output.end());
                ++calls;
              });
          CHECK(calls == count);
          CHECK(sponge_test::to_hex(outputs) ==
                sponge_test::to_hex(sequential_leaves(function, leaves, leaf_bytes, count)));
          // The leaf sponge is fresh again: it hashes one more leaf like a new one.
          CHECK(sponge_test::to_hex(sequential_leaves(function, leaves, leaf_bytes, 1)) == [&] {
            leaf.absorb(leaves, leaf_bytes);
            Bytes output(function.output_bytes);
            leaf.squeeze(output.data(), output.size());
            return sponge_test::to_hex(output);
          }());
          ++runs;
        }
      }
    }
    MESSAGE("batch kernel " << kernel->name << " (" << n
                            << " states): leaves checked against the single-state path");
  }
  CHECK(runs > 0);
}

TEST_CASE("leaves: KT128 and KT256 on the active batch kernel equal the chunk-by-chunk model") {
  const KeccakBatchKernel& kernel = sponge::detail::active_batch_kernel();
  MESSAGE("active batch kernel: " << kernel.name << " (" << kernel.states << " states)");
  const std::size_t max_leaves = static_cast<std::size_t>(std::max(kernel.states, 4)) + 1;
  constexpr std::size_t kChunk = 8192;
  sponge_test::Rng rng(0x12C0);
  const Bytes pool = rng.bytes(kChunk * (max_leaves + 3));
  const Bytes customization = rng.bytes(10);
  std::size_t checked = 0;
  for (const std::size_t length : lengths_around_leaves(kChunk, kChunk, max_leaves)) {
    const std::span<const std::uint8_t> message = std::span(pool).first(length);
    for (const std::span<const std::uint8_t> c :
         {std::span<const std::uint8_t>(), std::span<const std::uint8_t>(customization)}) {
      INFO(length << "-byte message, " << c.size() << "-byte customization");
      Bytes out(100);
      sponge::kt128(message, c, out);
      const Bytes expected128 = kangarootwelve_model<sponge::TurboShake128>(message, c, 32, 100);
      CHECK(sponge_test::to_hex(out) == sponge_test::to_hex(expected128));
      sponge::Kt128 kt128(c);
      // Uneven pieces: part of chunk 0, the rest of it and several leaves, a tail.
      CHECK(sponge_test::to_hex(sponge_test::squeezed_in_pieces(
                kt128, message, std::min(length, std::size_t{5000}), 100)) ==
            sponge_test::to_hex(expected128));

      Bytes out256(130);
      sponge::kt256(message, c, out256);
      CHECK(sponge_test::to_hex(out256) ==
            sponge_test::to_hex(kangarootwelve_model<sponge::TurboShake256>(message, c, 64, 130)));
      sponge::Kt256 kt256(c);
      // A split inside the first leaf: the rest of that leaf streams, the next ones are whole.
      CHECK(sponge_test::to_hex(sponge_test::squeezed_in_pieces(
                kt256, message, std::min(length, kChunk + 777), 130)) ==
            sponge_test::to_hex(out256));
      ++checked;
    }
  }
  MESSAGE(checked << " KangarooTwelve messages checked");
}

TEST_CASE("leaves: ParallelHash and ParallelHashXOF on the active batch kernel equal the model") {
  const KeccakBatchKernel& kernel = sponge::detail::active_batch_kernel();
  const std::size_t max_leaves = static_cast<std::size_t>(std::max(kernel.states, 4)) + 1;
  sponge_test::Rng rng(0x9A2A);
  const Bytes customization = rng.bytes(13);
  std::size_t checked = 0;
  for (const std::size_t block_size :
       {std::size_t{1}, std::size_t{8}, std::size_t{135}, std::size_t{136}, std::size_t{137},
        std::size_t{168}, std::size_t{169}, std::size_t{400}}) {
    const Bytes pool = rng.bytes(block_size * (max_leaves + 2));
    for (const std::size_t length : lengths_around_leaves(0, block_size, max_leaves)) {
      const std::span<const std::uint8_t> message = std::span(pool).first(length);
      INFO("B = " << block_size << ", " << length << "-byte message");
      Bytes out(32);
      sponge::parallelhash128(message, block_size, customization, out);
      CHECK(sponge_test::to_hex(out) == sponge_test::to_hex(parallelhash_model<128>(
                                            message, block_size, customization, false, 32)));
      Bytes out256(64);
      sponge::parallelhash256(message, block_size, {}, out256);
      CHECK(sponge_test::to_hex(out256) ==
            sponge_test::to_hex(parallelhash_model<256>(message, block_size, {}, false, 64)));

      const Bytes expected_xof128 =
          parallelhash_model<128>(message, block_size, customization, true, 100);
      Bytes out_xof(100);
      sponge::parallelhashxof128(message, block_size, customization, out_xof);
      CHECK(sponge_test::to_hex(out_xof) == sponge_test::to_hex(expected_xof128));
      sponge::ParallelHashXof128 xof128(block_size, customization);
      // Split one byte into the second leaf: a partial leaf, then whole ones.
      CHECK(sponge_test::to_hex(sponge_test::squeezed_in_pieces(
                xof128, message, std::min(length, block_size + 1), 100)) ==
            sponge_test::to_hex(expected_xof128));

      const Bytes expected_xof256 = parallelhash_model<256>(message, block_size, {}, true, 90);
      sponge::ParallelHashXof256 xof256(block_size);
      CHECK(sponge_test::to_hex(sponge_test::squeezed_in_pieces(xof256, message, length / 2, 90)) ==
            sponge_test::to_hex(expected_xof256));
      sponge::ParallelHash256 fixed256(block_size);
      fixed256.update(message);
      fixed256.digest(std::span(out256));
      CHECK(sponge_test::to_hex(out256) ==
            sponge_test::to_hex(parallelhash_model<256>(message, block_size, {}, false, 64)));
      ++checked;
    }
  }
  MESSAGE(checked << " ParallelHash messages checked");
}

// ---------------------------------------------------------------------------------------
// The threaded forms (parallel_leaves.hpp): runs of whole leaves split across threads.
// ---------------------------------------------------------------------------------------
namespace {

// Counts of leaves of `leaf_bytes` around the split points: one thread below twice the
// per-thread minimum, then runs of whole groups of 8 across 2, 3 and 4 threads, with and
// without a remainder.
std::vector<std::size_t> parallel_leaf_counts(std::size_t leaf_bytes) {
  const std::size_t least = sponge::detail::min_leaves_per_thread(leaf_bytes);
  return {2 * least - 1, 2 * least, 2 * least + 7, 3 * least + 5, 4 * least + 9};
}

constexpr unsigned kThreadCounts[] = {1, 2, 3, 0};

}  // namespace

TEST_CASE("leaves: ParallelLeafRuns on 2 to 4 threads equals the single-state path") {
  if (!sponge_test::kThreadsRun) {
    MESSAGE("not run: this program cannot start threads here (qemu-user); its static copy does");
    return;
  }
  sponge_test::Rng rng(0x7EAD);
  constexpr std::size_t kLeafBytes = 8192;  // KT's chunk, ParallelHash's usual B
  const std::vector<std::size_t> counts = parallel_leaf_counts(kLeafBytes);
  const Bytes pool = rng.bytes(kLeafBytes * counts.back());
  for (const LeafFunction& function : kLeafFunctions) {
    const KeccakSponge fresh(function.rate_bytes, function.domain_byte, function.rounds);
    for (const std::size_t count : counts) {
      const Bytes expected = sequential_leaves(function, pool.data(), kLeafBytes, count);
      for (const unsigned threads : {1u, 2u, 4u, 1000u}) {
        INFO(function.name << ", " << count << " leaves, " << threads << " threads");
        sponge::detail::ParallelLeafRuns runs;
        const std::size_t caller_leaves =
            runs.start(fresh, function.output_bytes, pool.data(), kLeafBytes, count, threads);
        const std::size_t useful = count / sponge::detail::min_leaves_per_thread(kLeafBytes);
        CHECK((caller_leaves != 0) == (threads >= 2 && useful >= 2));
        if (caller_leaves == 0) continue;
        // Every requested thread that has a run of its own is started here (nothing limits
        // threads in the test environment).
        CHECK(runs.threads_used() == std::min<std::size_t>({threads, useful, 64}));
        CHECK(caller_leaves % sponge::detail::kMaxBatchStates == 0);
        CHECK(caller_leaves < count);
        // The first run, hashed here while the threads hash theirs, then theirs.
        KeccakSponge own = fresh;
        Bytes got;
        sponge::detail::hash_whole_leaves(own, pool.data(), kLeafBytes, caller_leaves,
                                          function.output_bytes,
                                          [&got](std::span<const std::uint8_t> output) {
                                            got.insert(got.end(), output.begin(), output.end());
                                          });
        runs.join();
        for (std::size_t i = caller_leaves; i < count; ++i) {
          const auto output = runs.output(i);
          got.insert(got.end(), output.begin(), output.end());
        }
        CHECK(sponge_test::to_hex(got) == sponge_test::to_hex(expected));
      }
    }
  }
}

TEST_CASE("leaves: kt128_parallel and kt256_parallel at 1 to 4 threads equal kt128 and kt256") {
  if (!sponge_test::kThreadsRun) {
    MESSAGE("not run: this program cannot start threads here (qemu-user); its static copy does");
    return;
  }
  constexpr std::size_t kChunk = 8192;
  sponge_test::Rng rng(0x7E12);
  const std::vector<std::size_t> counts = parallel_leaf_counts(kChunk);
  const std::size_t most = counts.back();
  const Bytes pool = rng.bytes(kChunk * (most + 2));
  const Bytes customization = rng.bytes(7);
  std::size_t checked = 0;
  for (const std::size_t leaves : counts) {
    // Chunk 0, then `leaves` leaves; the customization and its length end the last leaf,
    // which is whole, or a byte into the next.
    for (const std::size_t tail : {std::size_t{0}, kChunk + 1}) {
      const std::size_t length = kChunk + (leaves - 1) * kChunk + tail;
      const std::span<const std::uint8_t> message = std::span(pool).first(length);
      Bytes expected128(48), expected256(80);
      sponge::kt128(message, customization, expected128);
      sponge::kt256(message, {}, expected256);
      for (const unsigned threads : kThreadCounts) {
        INFO(length << "-byte message, " << threads << " threads");
        Bytes out128(48), out256(80);
        sponge::kt128_parallel(message, customization, out128, threads);
        sponge::kt256_parallel(message, {}, out256, threads);
        CHECK(sponge_test::to_hex(out128) == sponge_test::to_hex(expected128));
        CHECK(sponge_test::to_hex(out256) == sponge_test::to_hex(expected256));
        // Streamed: a piece ending inside a leaf, then the rest in one update (its whole
        // chunks split across threads), squeezed in pieces.
        sponge::Kt128 streamed(customization, sponge::Threads{threads});
        CHECK(sponge_test::to_hex(sponge_test::squeezed_in_pieces(
                  streamed, message, std::min(length, kChunk + 3000), 48)) ==
              sponge_test::to_hex(expected128));
        Bytes c_api(48);
        CHECK(sponge_kt128_parallel(message.data(), message.size(), customization.data(),
                                    customization.size(), c_api.data(), c_api.size(),
                                    threads) == SPONGE_OK);
        CHECK(c_api == expected128);
        ++checked;
      }
    }
  }
  // One check against the chunk-by-chunk model, on the longest split message.
  const std::span<const std::uint8_t> longest = std::span(pool).first(kChunk * (most + 1));
  Bytes out(32);
  sponge::kt128_parallel(longest, customization, out, 4);
  CHECK(sponge_test::to_hex(out) == sponge_test::to_hex(kangarootwelve_model<sponge::TurboShake128>(
                                        longest, customization, 32, 32)));
  MESSAGE(checked << " threaded KangarooTwelve cases checked");
}

TEST_CASE("leaves: the ParallelHash threaded forms at 1 to 4 threads equal the plain ones") {
  if (!sponge_test::kThreadsRun) {
    MESSAGE("not run: this program cannot start threads here (qemu-user); its static copy does");
    return;
  }
  sponge_test::Rng rng(0x9A2B);
  const Bytes customization = rng.bytes(5);
  std::size_t checked = 0;
  for (const std::size_t block_size : {std::size_t{169}, std::size_t{8192}}) {
    const std::vector<std::size_t> counts = parallel_leaf_counts(block_size);
    const std::size_t most = counts.back();
    const Bytes pool = rng.bytes(block_size * (most + 1));
    for (const std::size_t blocks : counts) {
      const std::size_t length = blocks * block_size + (blocks % 2 == 0 ? 0 : block_size / 2);
      const std::span<const std::uint8_t> message = std::span(pool).first(length);
      Bytes expected128(32), expected256(64), expected_xof128(70), expected_xof256(90);
      sponge::parallelhash128(message, block_size, customization, expected128);
      sponge::parallelhash256(message, block_size, {}, expected256);
      sponge::parallelhashxof128(message, block_size, customization, expected_xof128);
      sponge::parallelhashxof256(message, block_size, {}, expected_xof256);
      for (const unsigned threads : kThreadCounts) {
        INFO("B = " << block_size << ", " << length << "-byte message, " << threads << " threads");
        Bytes out128(32), out256(64), out_xof128(70), out_xof256(90);
        sponge::parallelhash128_parallel(message, block_size, customization, out128, threads);
        sponge::parallelhash256_parallel(message, block_size, {}, out256, threads);
        sponge::parallelhashxof128_parallel(message, block_size, customization, out_xof128,
                                            threads);
        sponge::parallelhashxof256_parallel(message, block_size, {}, out_xof256, threads);
        CHECK(out128 == expected128);
        CHECK(out256 == expected256);
        CHECK(out_xof128 == expected_xof128);
        CHECK(out_xof256 == expected_xof256);
        sponge::ParallelHashXof256 streamed(block_size, sponge::Threads{threads});
        CHECK(sponge_test::squeezed_in_pieces(streamed, message, std::min(length, block_size + 1),
                                              90) == expected_xof256);
        Bytes c_api(32);
        CHECK(sponge_parallelhash128_parallel(message.data(), message.size(), block_size,
                                              customization.data(), customization.size(),
                                              c_api.data(), c_api.size(), threads) == SPONGE_OK);
        CHECK(c_api == expected128);
        ++checked;
      }
    }
    if (block_size == 169) {
      const std::span<const std::uint8_t> longest = std::span(pool).first(block_size * most);
      Bytes out(32);
      sponge::parallelhash128_parallel(longest, block_size, customization, out, 3);
      CHECK(sponge_test::to_hex(out) == sponge_test::to_hex(parallelhash_model<128>(
                                            longest, block_size, customization, false, 32)));
    }
  }
  // The C API's checks come first, as for the plain functions.
  Bytes out(32);
  CHECK(sponge_parallelhash256_parallel(nullptr, 5, 8, nullptr, 0, out.data(), out.size(), 2) ==
        SPONGE_ERROR_NULL_INPUT);
  CHECK(sponge_parallelhash256_parallel(out.data(), 1, 0, nullptr, 0, out.data(), out.size(), 2) ==
        SPONGE_ERROR_INVALID_PARAMETER);
  CHECK(sponge_kt256_parallel(out.data(), 1, nullptr, 0, nullptr, 4, 2) ==
        SPONGE_ERROR_NULL_OUTPUT);
  CHECK_THROWS_AS(sponge::parallelhash128_parallel({}, 0, {}, out, 2), std::invalid_argument);
  MESSAGE(checked << " threaded ParallelHash cases checked");
}
