// The constant-time test: run under valgrind's memcheck (tests/CMakeLists.txt registers it),
// this program marks every secret input undefined (VALGRIND_MAKE_MEM_UNDEFINED), runs each
// secret-taking function of the C and the C++ API on it, and declares defined only what is
// public by contract: the digest, MAC or output the caller asked for, and the AEAD verdict
// (inside the library, through detail::declassify). Memcheck then reports every branch and
// every memory address computed from a secret, in the library or in the kernel it runs on
// (SPONGE_KERNEL, SPONGE_BATCH_KERNEL and SPONGE_ASCON_KERNEL pick them per registration);
// valgrind's --error-exitcode turns a report into a failure.
//
// Each case also runs once on the same inputs left defined and compares the outputs, so a
// case that computed nothing cannot pass.
//
//   test_constant_time               every case; exit status 1 on a mismatch
//   test_constant_time --control=branch | --control=index
//                                    a leak memcheck must report: a branch on a secret byte,
//                                    a table read at a secret index (the test's own code)
#include <valgrind/memcheck.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "constant_time_check.hpp"
#include "sponge/sponge.h"
#include "sponge/sponge.hpp"

namespace {

using namespace sponge_constant_time;

constexpr std::size_t kXofBytes = 200;  // past one SHAKE128 block of output

const Bytes kCustom = {'c', 'u', 's', 't', 'o', 'm'};
const Bytes kName = {'n', 'a', 'm', 'e'};

// ---- FIPS 202 ----------------------------------------------------------------------------

template <class Hasher, std::size_t Rate>
void check_fixed_hasher(std::string_view name,
                        sponge_status (*c_function)(const std::uint8_t*, std::size_t,
                                                    std::uint8_t*)) {
  for (std::size_t length : lengths_around(Rate)) {
    const Bytes message = pattern_bytes(length, 1);
    check(named(std::string(name) + " C", length), {message}, Hasher::digest_bytes,
          [&](std::span<std::uint8_t> out) {
            c_function(message.data(), message.size(), out.data());
          });
    check(named(std::string(name) + " class", length), {message}, Hasher::digest_bytes,
          [&](std::span<std::uint8_t> out) {
            Hasher hasher;
            const auto piece = std::span(message).first(length / 3);
            hasher.update(piece).update(std::span(message).subspan(piece.size()));
            const auto digest = hasher.digest();
            std::memcpy(out.data(), digest.data(), digest.size());
          });
  }
}

template <class Xof, std::size_t Rate>
void check_shake(std::string_view name,
                 sponge_status (*c_function)(const std::uint8_t*, std::size_t, std::uint8_t*,
                                             std::size_t),
                 void (*cpp_function)(std::span<const std::uint8_t>, std::span<std::uint8_t>)) {
  for (std::size_t length : lengths_around(Rate)) {
    const Bytes message = pattern_bytes(length, 2);
    check(named(std::string(name) + " C", length), {message}, kXofBytes,
          [&](std::span<std::uint8_t> out) {
            c_function(message.data(), message.size(), out.data(), out.size());
          });
    check(named(std::string(name) + " one-shot", length), {message}, kXofBytes,
          [&](std::span<std::uint8_t> out) { cpp_function(message, out); });
    check(named(std::string(name) + " class", length), {message}, kXofBytes,
          [&](std::span<std::uint8_t> out) {
            Xof xof;
            xof.update(std::span(message).first(length / 2));
            xof.update(std::span(message).subspan(length / 2));
            xof.squeeze(out.first(7));
            xof.squeeze(out.subspan(7));
          });
  }
}

void check_fips202() {
  check_fixed_hasher<sponge::Keccak256, 136>("Keccak-256", sponge_keccak256);
  check_fixed_hasher<sponge::Sha3_224, 144>("SHA3-224", sponge_sha3_224);
  check_fixed_hasher<sponge::Sha3_256, 136>("SHA3-256", sponge_sha3_256);
  check_fixed_hasher<sponge::Sha3_384, 104>("SHA3-384", sponge_sha3_384);
  check_fixed_hasher<sponge::Sha3_512, 72>("SHA3-512", sponge_sha3_512);
  for (std::size_t length : lengths_around(136)) {
    const Bytes message = pattern_bytes(length, 3);
    check(named("sha3_256 one-shot", length), {message}, 32, [&](std::span<std::uint8_t> out) {
      const auto digest = sponge::sha3_256(std::span<const std::uint8_t>(message));
      std::memcpy(out.data(), digest.data(), digest.size());
    });
  }
  check_shake<sponge::Shake128, 168>(
      "SHAKE128", sponge_shake128,
      [](std::span<const std::uint8_t> in, std::span<std::uint8_t> out) {
        sponge::shake128(in, out);
      });
  check_shake<sponge::Shake256, 136>(
      "SHAKE256", sponge_shake256,
      [](std::span<const std::uint8_t> in, std::span<std::uint8_t> out) {
        sponge::shake256(in, out);
      });
}

// ---- the batch functions and the four-stream SHAKE ---------------------------------------

// Five messages of different lengths: one group of four on a four-state kernel, and one more.
std::vector<Bytes> batch_messages(std::size_t rate) {
  std::vector<Bytes> messages;
  const std::size_t lengths[] = {0, rate - 1, rate + 1, 2 * rate + 5, 700};
  std::uint32_t seed = 10;
  for (std::size_t length : lengths)
    messages.push_back(pattern_bytes(length, seed++));
  return messages;
}

template <std::size_t DigestBytes>
void check_batch(std::string_view name, std::size_t rate,
                 sponge_status (*c_function)(const std::uint8_t* const*, const std::size_t*,
                                             std::size_t, std::uint8_t (*)[DigestBytes]),
                 void (*cpp_function)(std::span<const std::span<const std::uint8_t>>,
                                      std::span<std::array<std::uint8_t, DigestBytes>>)) {
  const std::vector<Bytes> messages = batch_messages(rate);
  std::vector<const std::uint8_t*> pointers;
  std::vector<std::size_t> lengths;
  std::vector<std::span<const std::uint8_t>> spans;
  for (const Bytes& message : messages) {
    pointers.push_back(message.data());
    lengths.push_back(message.size());
    spans.emplace_back(message);
  }
  const std::size_t out_bytes = DigestBytes * messages.size();
  auto run = [&](std::span<std::uint8_t> out, bool c_api) {
    std::vector<std::array<std::uint8_t, DigestBytes>> digests(messages.size());
    if (c_api) {
      c_function(pointers.data(), lengths.data(), messages.size(),
                 reinterpret_cast<std::uint8_t(*)[DigestBytes]>(digests.data()));
    } else {
      cpp_function(spans, digests);
    }
    std::memcpy(out.data(), digests.data(), out_bytes);
  };
  const std::initializer_list<std::span<const std::uint8_t>> secrets = {
      messages[0], messages[1], messages[2], messages[3], messages[4]};
  check(std::string(name) + " C", secrets, out_bytes,
        [&](std::span<std::uint8_t> out) { run(out, true); });
  check(std::string(name) + " C++", secrets, out_bytes,
        [&](std::span<std::uint8_t> out) { run(out, false); });
}

template <class ShakeX4, class CState>
void check_shake_x4(std::string_view name, sponge_status (*init)(CState*),
                    sponge_status (*absorb)(CState*, const std::uint8_t* const*, std::size_t),
                    sponge_status (*squeeze)(CState*, std::uint8_t* const*, std::size_t),
                    sponge_status (*clear)(CState*)) {
  for (std::size_t length :
       {std::size_t{0}, std::size_t{34}, ShakeX4::rate_bytes + 1, std::size_t{600}}) {
    std::array<Bytes, 4> inputs;
    for (std::size_t s = 0; s < 4; ++s)
      inputs[s] = pattern_bytes(length, 20 + s);
    const std::size_t stream_out = 2 * ShakeX4::rate_bytes + 3;
    const std::initializer_list<std::span<const std::uint8_t>> secrets = {inputs[0], inputs[1],
                                                                          inputs[2], inputs[3]};
    check(named(std::string(name) + " C", length), secrets, 4 * stream_out,
          [&](std::span<std::uint8_t> out) {
            CState state;
            init(&state);
            const std::uint8_t* in[4];
            std::uint8_t* outs[4];
            for (std::size_t s = 0; s < 4; ++s) {
              in[s] = inputs[s].data();
              outs[s] = out.data() + s * stream_out;
            }
            absorb(&state, in, length);
            squeeze(&state, outs, stream_out);
            clear(&state);
          });
    check(named(std::string(name) + " class", length), secrets, 4 * stream_out,
          [&](std::span<std::uint8_t> out) {
            ShakeX4 shake;
            typename ShakeX4::Inputs in;
            typename ShakeX4::Outputs first, rest;
            for (std::size_t s = 0; s < 4; ++s) {
              in[s] = inputs[s];
              first[s] = out.subspan(s * stream_out, 5);
              rest[s] = out.subspan(s * stream_out + 5, stream_out - 5);
            }
            shake.update(in);
            shake.squeeze(first);
            shake.squeeze(rest);
          });
  }
}

void check_batch_functions() {
  check_batch<32>("keccak256_batch", 136, sponge_keccak256_batch, sponge::keccak256_batch);
  check_batch<28>("sha3_224_batch", 144, sponge_sha3_224_batch, sponge::sha3_224_batch);
  check_batch<32>("sha3_256_batch", 136, sponge_sha3_256_batch, sponge::sha3_256_batch);
  check_batch<48>("sha3_384_batch", 104, sponge_sha3_384_batch, sponge::sha3_384_batch);
  check_batch<64>("sha3_512_batch", 72, sponge_sha3_512_batch, sponge::sha3_512_batch);
  check_shake_x4<sponge::Shake128x4>("Shake128x4", sponge_shake128_x4_init,
                                     sponge_shake128_x4_absorb, sponge_shake128_x4_squeeze,
                                     sponge_shake128_x4_clear);
  check_shake_x4<sponge::Shake256x4>("Shake256x4", sponge_shake256_x4_init,
                                     sponge_shake256_x4_absorb, sponge_shake256_x4_squeeze,
                                     sponge_shake256_x4_clear);
}

// ---- RFC 9861 ----------------------------------------------------------------------------

constexpr std::size_t kChunk = 8192;
// Two threads' worth: the threaded forms give each thread 1 MiB or more.
constexpr std::size_t kThreadedBytes = 2 * 1024 * 1024 + 1;

template <class TurboShake, std::size_t Rate>
void check_turboshake(std::string_view name,
                      sponge_status (*c_function)(const std::uint8_t*, std::size_t, std::uint8_t,
                                                  std::uint8_t*, std::size_t)) {
  for (std::size_t length : lengths_around(Rate)) {
    const Bytes message = pattern_bytes(length, 30);
    check(named(std::string(name) + " C", length), {message}, kXofBytes,
          [&](std::span<std::uint8_t> out) {
            c_function(message.data(), message.size(), 0x1F, out.data(), out.size());
          });
    check(named(std::string(name) + " class", length), {message}, kXofBytes,
          [&](std::span<std::uint8_t> out) {
            TurboShake xof(0x0B);
            xof.update(message);
            xof.squeeze(out);
          });
  }
}

template <class Kt>
void check_kangarootwelve(std::string_view name, std::size_t rate,
                          sponge_status (*c_function)(const std::uint8_t*, std::size_t,
                                                      const std::uint8_t*, std::size_t,
                                                      std::uint8_t*, std::size_t),
                          sponge_status (*c_parallel)(const std::uint8_t*, std::size_t,
                                                      const std::uint8_t*, std::size_t,
                                                      std::uint8_t*, std::size_t, unsigned)) {
  std::vector<std::size_t> lengths = lengths_around(rate);
  // One chunk, one chunk and a byte (the tree's first leaf), and five leaves and a byte
  // (a group of four leaves on a four-state batch kernel, and one more).
  lengths.insert(lengths.end(), {kChunk, kChunk + 1, 6 * kChunk + 1});
  for (std::size_t length : lengths) {
    const Bytes message = pattern_bytes(length, 40);
    check(named(std::string(name) + " C", length), {message}, 64, [&](std::span<std::uint8_t> out) {
      c_function(message.data(), message.size(), kCustom.data(), kCustom.size(), out.data(),
                 out.size());
    });
    check(named(std::string(name) + " class", length), {message}, 64,
          [&](std::span<std::uint8_t> out) {
            Kt xof(kCustom);
            xof.update(std::span(message).first(length / 3));
            xof.update(std::span(message).subspan(length / 3));
            xof.squeeze(out);
          });
  }
  const Bytes message = pattern_bytes(kThreadedBytes, 41);
  check(named(std::string(name) + " C on 2 threads", message.size()), {message}, 64,
        [&](std::span<std::uint8_t> out) {
          c_parallel(message.data(), message.size(), kCustom.data(), kCustom.size(), out.data(),
                     out.size(), 2);
        });
  check(named(std::string(name) + " class on 2 threads", message.size()), {message}, 64,
        [&](std::span<std::uint8_t> out) {
          Kt xof(kCustom, sponge::Threads{2});
          xof.update(message);
          xof.squeeze(out);
        });
}

void check_rfc9861() {
  check_turboshake<sponge::TurboShake128, 168>("TurboSHAKE128", sponge_turboshake128);
  check_turboshake<sponge::TurboShake256, 136>("TurboSHAKE256", sponge_turboshake256);
  check_kangarootwelve<sponge::Kt128>("KT128", 168, sponge_kt128, sponge_kt128_parallel);
  check_kangarootwelve<sponge::Kt256>("KT256", 136, sponge_kt256, sponge_kt256_parallel);
  const Bytes message = pattern_bytes(3 * kChunk + 7, 42);
  check(named("kt128 one-shot", message.size()), {message}, 32,
        [&](std::span<std::uint8_t> out) { sponge::kt128(message, kCustom, out); });
  check(named("turboshake256 one-shot", message.size()), {message}, 32,
        [&](std::span<std::uint8_t> out) { sponge::turboshake256(message, out, 0x01); });
}

// ---- SP 800-185 --------------------------------------------------------------------------

using Sp800185Function = sponge_status (*)(const std::uint8_t*, std::size_t, const std::uint8_t*,
                                           std::size_t, const std::uint8_t*, std::size_t,
                                           std::uint8_t*, std::size_t);

// cSHAKE (secret message; the name and customization strings secret too) and KMAC (secret
// key and message).
template <class Cshake, class Kmac, class KmacXof>
void check_cshake_kmac(std::string_view name, std::size_t rate, Sp800185Function c_cshake,
                       Sp800185Function c_kmac, Sp800185Function c_kmacxof) {
  for (std::size_t length : lengths_around(rate)) {
    const Bytes message = pattern_bytes(length, 50);
    const Bytes key = pattern_bytes(length == 2500 ? 32 : length, 51);
    const Bytes name_bytes = kName;
    const Bytes custom = kCustom;
    check(named("cSHAKE" + std::string(name) + " C", length), {message, name_bytes, custom},
          kXofBytes, [&](std::span<std::uint8_t> out) {
            c_cshake(message.data(), message.size(), name_bytes.data(), name_bytes.size(),
                     custom.data(), custom.size(), out.data(), out.size());
          });
    check(named("cSHAKE" + std::string(name) + " class", length), {message}, kXofBytes,
          [&](std::span<std::uint8_t> out) {
            Cshake xof(kName, kCustom);
            xof.update(message);
            xof.squeeze(out);
          });
    check(named("KMAC" + std::string(name) + " C (key and message)", length), {key, message}, 32,
          [&](std::span<std::uint8_t> out) {
            c_kmac(key.data(), key.size(), message.data(), message.size(), kCustom.data(),
                   kCustom.size(), out.data(), out.size());
          });
    check(named("KMACXOF" + std::string(name) + " C (key and message)", length), {key, message},
          kXofBytes, [&](std::span<std::uint8_t> out) {
            c_kmacxof(key.data(), key.size(), message.data(), message.size(), kCustom.data(),
                      kCustom.size(), out.data(), out.size());
          });
    check(named("KMAC" + std::string(name) + " class (key and message)", length), {key, message},
          64, [&](std::span<std::uint8_t> out) {
            Kmac mac(key, kCustom);
            mac.update(std::span(message).first(length / 2));
            mac.update(std::span(message).subspan(length / 2));
            mac.digest(out);
          });
    check(named("KMACXOF" + std::string(name) + " class (key and message)", length), {key, message},
          kXofBytes, [&](std::span<std::uint8_t> out) {
            KmacXof mac(key, kCustom);
            mac.update(message);
            mac.squeeze(out);
          });
  }
}

using TupleFunction = sponge_status (*)(const std::uint8_t* const*, const std::size_t*, std::size_t,
                                        const std::uint8_t*, std::size_t, std::uint8_t*,
                                        std::size_t);

template <class TupleHash, class TupleHashXof>
void check_tuplehash(std::string_view name, std::size_t rate, TupleFunction c_fixed,
                     TupleFunction c_xof) {
  for (std::size_t length : lengths_around(rate)) {
    const Bytes first = pattern_bytes(length, 60), second = pattern_bytes(length / 2 + 1, 61);
    const std::uint8_t* parts[] = {first.data(), second.data()};
    const std::size_t part_lengths[] = {first.size(), second.size()};
    check(named("TupleHash" + std::string(name) + " C", length), {first, second}, 32,
          [&](std::span<std::uint8_t> out) {
            c_fixed(parts, part_lengths, 2, kCustom.data(), kCustom.size(), out.data(), out.size());
          });
    check(named("TupleHashXOF" + std::string(name) + " C", length), {first, second}, kXofBytes,
          [&](std::span<std::uint8_t> out) {
            c_xof(parts, part_lengths, 2, kCustom.data(), kCustom.size(), out.data(), out.size());
          });
    check(named("TupleHash" + std::string(name) + " class", length), {first, second}, 48,
          [&](std::span<std::uint8_t> out) {
            TupleHash tuple(kCustom);
            tuple.add(first).add(second);
            tuple.digest(out);
          });
    check(named("TupleHashXOF" + std::string(name) + " class", length), {first, second}, kXofBytes,
          [&](std::span<std::uint8_t> out) {
            TupleHashXof tuple(kCustom);
            tuple.add(first).add(second);
            tuple.squeeze(out);
          });
  }
}

using ParallelFunction = sponge_status (*)(const std::uint8_t*, std::size_t, std::size_t,
                                           const std::uint8_t*, std::size_t, std::uint8_t*,
                                           std::size_t);
using ParallelThreadedFunction = sponge_status (*)(const std::uint8_t*, std::size_t, std::size_t,
                                                   const std::uint8_t*, std::size_t, std::uint8_t*,
                                                   std::size_t, unsigned);

template <class ParallelHash, class ParallelHashXof>
void check_parallelhash(std::string_view name, std::size_t rate, ParallelFunction c_fixed,
                        ParallelFunction c_xof, ParallelThreadedFunction c_threaded) {
  constexpr std::size_t kBlock = 64;  // 2500 bytes: 39 leaves, groups on a batch kernel
  for (std::size_t length : lengths_around(rate)) {
    const Bytes message = pattern_bytes(length, 70);
    check(named("ParallelHash" + std::string(name) + " C", length), {message}, 32,
          [&](std::span<std::uint8_t> out) {
            c_fixed(message.data(), message.size(), kBlock, kCustom.data(), kCustom.size(),
                    out.data(), out.size());
          });
    check(named("ParallelHashXOF" + std::string(name) + " C", length), {message}, kXofBytes,
          [&](std::span<std::uint8_t> out) {
            c_xof(message.data(), message.size(), kBlock, kCustom.data(), kCustom.size(),
                  out.data(), out.size());
          });
    check(named("ParallelHash" + std::string(name) + " class", length), {message}, 32,
          [&](std::span<std::uint8_t> out) {
            ParallelHash hash(kBlock, kCustom);
            hash.update(std::span(message).first(length / 3));
            hash.update(std::span(message).subspan(length / 3));
            hash.digest(out);
          });
    check(named("ParallelHashXOF" + std::string(name) + " class", length), {message}, kXofBytes,
          [&](std::span<std::uint8_t> out) {
            ParallelHashXof hash(kBlock, kCustom);
            hash.update(message);
            hash.squeeze(out);
          });
  }
  const Bytes message = pattern_bytes(kThreadedBytes, 71);
  check(named("ParallelHash" + std::string(name) + " C on 2 threads", message.size()), {message},
        32, [&](std::span<std::uint8_t> out) {
          c_threaded(message.data(), message.size(), kChunk, kCustom.data(), kCustom.size(),
                     out.data(), out.size(), 2);
        });
  check(named("ParallelHash" + std::string(name) + " class on 2 threads", message.size()),
        {message}, 32, [&](std::span<std::uint8_t> out) {
          ParallelHash hash(kChunk, kCustom, sponge::Threads{2});
          hash.update(message);
          hash.digest(out);
        });
}

void check_sp800_185() {
  check_cshake_kmac<sponge::Cshake128, sponge::Kmac128, sponge::KmacXof128>(
      "128", 168, sponge_cshake128, sponge_kmac128, sponge_kmacxof128);
  check_cshake_kmac<sponge::Cshake256, sponge::Kmac256, sponge::KmacXof256>(
      "256", 136, sponge_cshake256, sponge_kmac256, sponge_kmacxof256);
  check_tuplehash<sponge::TupleHash128, sponge::TupleHashXof128>("128", 168, sponge_tuplehash128,
                                                                 sponge_tuplehashxof128);
  check_tuplehash<sponge::TupleHash256, sponge::TupleHashXof256>("256", 136, sponge_tuplehash256,
                                                                 sponge_tuplehashxof256);
  check_parallelhash<sponge::ParallelHash128, sponge::ParallelHashXof128>(
      "128", 168, sponge_parallelhash128, sponge_parallelhashxof128,
      sponge_parallelhash128_parallel);
  check_parallelhash<sponge::ParallelHash256, sponge::ParallelHashXof256>(
      "256", 136, sponge_parallelhash256, sponge_parallelhashxof256,
      sponge_parallelhash256_parallel);
  const Bytes key = pattern_bytes(32, 72), message = pattern_bytes(300, 73);
  check("kmac256 one-shot", {key, message}, 64,
        [&](std::span<std::uint8_t> out) { sponge::kmac256(key, message, kCustom, out); });
  const Bytes element = pattern_bytes(150, 74);
  const std::span<const std::uint8_t> elements[] = {element, element};
  check("tuplehash128 one-shot", {element}, 32,
        [&](std::span<std::uint8_t> out) { sponge::tuplehash128(elements, kCustom, out); });
  check("parallelhash256 one-shot", {message}, 64,
        [&](std::span<std::uint8_t> out) { sponge::parallelhash256(message, 32, kCustom, out); });
}

// ---- Ascon (SP 800-232) ------------------------------------------------------------------

void check_ascon_hashes() {
  for (std::size_t length : lengths_around(8)) {
    const Bytes message = pattern_bytes(length, 80);
    const Bytes custom = pattern_bytes(length % 257, 81);
    check(named("Ascon-Hash256 C", length), {message}, 32, [&](std::span<std::uint8_t> out) {
      sponge_ascon_hash256(message.data(), message.size(), out.data());
    });
    check(named("Ascon-Hash256 class", length), {message}, 32, [&](std::span<std::uint8_t> out) {
      sponge::AsconHash256 hash;
      hash.update(std::span(message).first(length / 3));
      hash.update(std::span(message).subspan(length / 3));
      const auto digest = hash.digest();
      std::memcpy(out.data(), digest.data(), digest.size());
    });
    check(named("Ascon-XOF128 C", length), {message}, 77, [&](std::span<std::uint8_t> out) {
      sponge_ascon_xof128(message.data(), message.size(), out.data(), out.size());
    });
    check(named("Ascon-XOF128 class", length), {message}, 77, [&](std::span<std::uint8_t> out) {
      sponge::AsconXof128 xof;
      xof.update(message);
      xof.squeeze(out.first(3));
      xof.squeeze(out.subspan(3));
    });
    check(named("Ascon-CXOF128 C (message and customization)", length), {message, custom}, 77,
          [&](std::span<std::uint8_t> out) {
            sponge_ascon_cxof128(custom.data(), custom.size(), message.data(), message.size(),
                                 out.data(), out.size());
          });
    check(named("Ascon-CXOF128 class (message and customization)", length), {message, custom}, 77,
          [&](std::span<std::uint8_t> out) {
            sponge::AsconCxof128 xof(custom);
            xof.update(message);
            xof.squeeze(out);
          });
    check(named("ascon_hash256 one-shot", length), {message}, 32, [&](std::span<std::uint8_t> out) {
      const auto digest = sponge::ascon_hash256(std::span<const std::uint8_t>(message));
      std::memcpy(out.data(), digest.data(), digest.size());
    });
  }
}

// Encryption: the key, nonce, plaintext and associated data secret. Decryption: the key,
// nonce and ciphertext secret, with the right tag and a wrong one; the verdict is public
// (declassified inside the library), the plaintext is released only when it is true.
void check_ascon_aead() {
  for (std::size_t length : lengths_around(16)) {
    const Bytes key = pattern_bytes(16, 90), nonce = pattern_bytes(16, 91);
    const Bytes plaintext = pattern_bytes(length, 92), ad = pattern_bytes(length / 2 + 3, 93);
    const std::size_t out_bytes = length + 16;
    check(named("Ascon-AEAD128 encrypt C", length), {key, nonce, plaintext, ad}, out_bytes,
          [&](std::span<std::uint8_t> out) {
            sponge_ascon_aead128_encrypt(key.data(), nonce.data(), ad.data(), ad.size(),
                                         plaintext.data(), length, out.data(), out.data() + length);
          });
    check(named("Ascon-AEAD128 encrypt one-shot", length), {key, nonce, plaintext, ad}, out_bytes,
          [&](std::span<std::uint8_t> out) {
            sponge::ascon_aead128_encrypt(std::span<const std::uint8_t, 16>(key.data(), 16),
                                          std::span<const std::uint8_t, 16>(nonce.data(), 16), ad,
                                          plaintext, out.first(length),
                                          out.subspan(length).first<16>());
          });
    check(named("Ascon-AEAD128 Encryptor", length), {key, nonce, plaintext, ad}, out_bytes,
          [&](std::span<std::uint8_t> out) {
            sponge::AsconAead128Encryptor encryptor(
                std::span<const std::uint8_t, 16>(key.data(), 16),
                std::span<const std::uint8_t, 16>(nonce.data(), 16));
            encryptor.update_associated_data(ad);
            encryptor.update(std::span(plaintext).first(length / 2), out.first(length / 2));
            encryptor.update(std::span(plaintext).subspan(length / 2),
                             out.subspan(length / 2, length - length / 2));
            const auto tag = encryptor.finish();
            std::memcpy(out.data() + length, tag.data(), tag.size());
          });

    Bytes ciphertext(length), tag(16);
    sponge_ascon_aead128_encrypt(key.data(), nonce.data(), ad.data(), ad.size(), plaintext.data(),
                                 length, ciphertext.data(), tag.data());
    Bytes wrong_tag = tag;
    wrong_tag[length % 16] ^= 0x04;
    for (const Bytes* received : {&tag, &wrong_tag}) {
      const std::string which = received == &tag ? " (right tag)" : " (wrong tag)";
      // The output: the plaintext, then the verdict.
      check(named("Ascon-AEAD128 decrypt C" + which, length), {key, nonce, ciphertext}, length + 1,
            [&](std::span<std::uint8_t> out) {
              const sponge_status status = sponge_ascon_aead128_decrypt(
                  key.data(), nonce.data(), ad.data(), ad.size(), ciphertext.data(), length,
                  received->data(), out.data());
              out[length] = status == SPONGE_OK ? 1 : 0;
            });
      check(named("Ascon-AEAD128 decrypt one-shot" + which, length), {key, nonce, ciphertext},
            length + 1, [&](std::span<std::uint8_t> out) {
              const bool authentic = sponge::ascon_aead128_decrypt(
                  std::span<const std::uint8_t, 16>(key.data(), 16),
                  std::span<const std::uint8_t, 16>(nonce.data(), 16), ad, ciphertext,
                  std::span<const std::uint8_t, 16>(received->data(), 16), out.first(length));
              out[length] = authentic ? 1 : 0;
            });
      check(named("Ascon-AEAD128 Decryptor" + which, length), {key, nonce, ciphertext}, length + 1,
            [&](std::span<std::uint8_t> out) {
              sponge::AsconAead128Decryptor decryptor(
                  std::span<const std::uint8_t, 16>(key.data(), 16),
                  std::span<const std::uint8_t, 16>(nonce.data(), 16), out.first(length));
              decryptor.update_associated_data(ad);
              decryptor.update(std::span(ciphertext).first(length / 3));
              decryptor.update(std::span(ciphertext).subspan(length / 3));
              out[length] =
                  decryptor.finish(std::span<const std::uint8_t, 16>(received->data(), 16)) ? 1 : 0;
            });
    }
  }
}

// ---- the controls: leaks memcheck must report --------------------------------------------

// A branch on a secret byte (each side with its own call, so the compiler cannot turn it
// into a conditional move).
[[gnu::noinline]] int control_branch_on_secret(const std::uint8_t* secret) {
  if (*secret & 1) return std::puts("odd");
  return std::puts("even");
}

// A table read at a secret index.
[[gnu::noinline]] int control_table_read_at_secret_index(const std::uint8_t* secret) {
  static const std::uint8_t table[256] = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::uint8_t value = table[*secret];
  int result;
  // Keeps the read from being folded away, without a branch on it.
  __asm__ volatile("movzbl %1, %0" : "=r"(result) : "r"(value));
  return result;
}

int run_control(std::string_view which) {
  Bytes secret = pattern_bytes(1, 99);
  poison(secret);
  int result;
  if (which == "branch") {
    result = control_branch_on_secret(secret.data());
  } else if (which == "index") {
    result = control_table_read_at_secret_index(secret.data());
  } else {
    std::fprintf(stderr, "test_constant_time: unknown control %.*s\n",
                 static_cast<int>(which.size()), which.data());
    return 2;
  }
  VALGRIND_MAKE_MEM_DEFINED(&result, sizeof result);
  std::printf("control %.*s ran (%d)\n", static_cast<int>(which.size()), which.data(), result);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Outside valgrind the client requests do nothing and every case would pass untested.
  if (!RUNNING_ON_VALGRIND) {
    std::fprintf(stderr, "test_constant_time: run me under valgrind --tool=memcheck\n");
    return 1;
  }
  if (argc == 2 && std::string_view(argv[1]).starts_with("--control=")) {
    return run_control(std::string_view(argv[1]).substr(10));
  }
  if (argc != 1) {
    std::fprintf(stderr, "usage: test_constant_time [--control=branch|--control=index]\n");
    return 2;
  }
  std::printf("kernels: Keccak %s, batch %s, Ascon %s\n", sponge_active_kernel(),
              sponge_active_batch_kernel(), sponge_active_ascon_kernel());
  check_fips202();
  check_batch_functions();
  check_rfc9861();
  check_sp800_185();
  check_ascon_hashes();
  check_ascon_aead();
  std::printf("%d cases, %d failed\n", cases_run, cases_failed);
  return cases_failed == 0 ? 0 : 1;
}
