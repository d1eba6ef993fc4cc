// The tree modes' leaves on the batch kernels (leaf_hashing.hpp): KangarooTwelve's and
// ParallelHash's whole leaves are hashed N at a time on a multi-state kernel, the rest on the
// single-state path, and the outputs must be the sequential path's, in leaf order.
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
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "batch/batch_kernel.hpp"
#include "sponge/sponge.hpp"
#include "support/batch_kernels_check.hpp"
#include "support/test_support.hpp"
#include "tree/leaf_hashing.hpp"

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
