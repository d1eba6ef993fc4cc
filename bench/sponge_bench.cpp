// sponge_bench: Keccak-256 speed of the sponge runtime, on every kernel this CPU runs, next
// to OpenSSL (SHA3-256) and Crypto++ (Keccak_256), in one process.
//
// Benchmark names are <family>/<implementation>[/<message bytes>], which bench/report.py
// reads back:
//   families         oneshot   one message hashed from scratch, all at once
//                    stream64  one message fed in 64-byte update() calls, then finished
//                    permute   one Keccak-f[1600] call on a 200-byte state
//                    absorb136 one fused "XOR a 136-byte block, then permute" kernel call
//                    ascon-p12, ascon-p8, ascon-p6
//                              one Ascon-p[320] call (12, 8 or 6 rounds) on a 40-byte state
//                    ascon-hash256, ascon-xof128, ascon-aead128-encrypt
//                              Ascon-Hash256 of a message; Ascon-XOF128 of a message, 32
//                              bytes out; Ascon-AEAD128 encryption of a message (no
//                              associated data) with its tag
//   implementations  sponge             the public API, sponge::keccak256 / Keccak256 /
//                                       keccak_f1600, on the kernel the dispatcher chose
//                    kernel:<name>      Keccak-256 built right here on one kernel's entries
//                                       from the internal table (absorb_for(136), permute),
//                                       so every kernel is timed in this one run; in the
//                                       Ascon families, the mode on one Ascon kernel of the
//                                       Ascon kernel table (ascon_hash256_on and
//                                       ascon_aead128_encrypt_on), the report's reference
//                                       column being kernel:portable
//                    openssl-ctx        SHA3-256, one EVP_MD_CTX reused: DigestInit_ex2,
//                                       DigestUpdate, DigestFinal_ex
//                    openssl-evpdigest  SHA3-256 through EVP_Digest (one call per message)
//                    cryptopp           CryptoPP::Keccak_256, one object reused: Update,
//                                       TruncatedFinal
//                    ascon-c            in the Ascon families, ascon-c's opt64 code, when the
//                                       build names a library of it (SPONGE_BENCH_ASCON_C_LIB)
// Before any timing, every implementation is checked against sponge::keccak256 (or
// sponge::sha3_256 for OpenSSL) on messages around the block size; a mismatch ends the run.
#include <benchmark/benchmark.h>
#include <cryptopp/keccak.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ascon/ascon_kernel.hpp"
#include "ascon/ascon_modes.hpp"
#include "batch/batch_hash.hpp"
#include "keccak/keccak_kernel.hpp"
#include "sponge/sponge.hpp"
#include "support/byte_order.hpp"
#include "tree/leaf_hashing.hpp"

#if SPONGE_BENCH_PORTABLE_NATIVE
#include "portable_native.hpp"
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define SPONGE_BENCH_HAVE_TSC 1
#else
#define SPONGE_BENCH_HAVE_TSC 0
#endif

namespace {

using sponge::detail::AbsorbFn;
using sponge::detail::KeccakKernel;
using Digest = std::array<std::uint8_t, 32>;

constexpr std::size_t kRate = 136;  // Keccak-256 and SHA3-256 alike
constexpr std::uint8_t kKeccakDomain = 0x01;
constexpr std::size_t kStreamPiece = 64;
constexpr std::int64_t kOneShotSizes[] = {0, 32, 64, 128, 136, 256, 1024, 4096, 16384, 1 << 20};
constexpr std::int64_t kStreamSizes[] = {4096, 1 << 20};
constexpr std::size_t kMaxMessage = 1 << 20;

// The message bytes: fixed pseudo-random content (splitmix64), 64-byte aligned.
const std::uint8_t* message() {
  static const std::vector<std::uint64_t> words = [] {
    std::vector<std::uint64_t> out(kMaxMessage / 8 + 8);
    std::uint64_t x = 0x5eed5eed5eed5eedull;
    for (std::uint64_t& word : out) {
      std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      word = z ^ (z >> 31);
    }
    return out;
  }();
  const auto address = reinterpret_cast<std::uintptr_t>(words.data());
  return reinterpret_cast<const std::uint8_t*>(words.data()) + ((64 - address % 64) % 64);
}

// ---------------------------------------------------------------------------------------
// Keccak-256 on one kernel's entries: the runtime's own sponge steps (sponge.cpp), minus the
// streaming object: full blocks straight from the input through the fused entry, the padded
// last block XORed in C++ (only the lanes it touches) and permuted with the permute entry.
// ---------------------------------------------------------------------------------------
Digest keccak256_on(const KeccakKernel& kernel, AbsorbFn absorb, const std::uint8_t* data,
                    std::size_t length) noexcept {
  std::uint64_t lanes[25] = {};
  for (; length >= kRate; data += kRate, length -= kRate)
    absorb(lanes, data);
  std::uint8_t last[kRate] = {};
  std::memcpy(last, data, length);
  last[length] ^= kKeccakDomain;
  last[kRate - 1] ^= 0x80;
  const std::size_t filled_lanes = length / 8 + 1;
  for (std::size_t lane = 0; lane < filled_lanes; ++lane) {
    lanes[lane] ^= sponge::detail::load_le64(last + 8 * lane);
  }
  if (filled_lanes < kRate / 8) lanes[kRate / 8 - 1] ^= sponge::detail::load_le64(last + kRate - 8);
  kernel.permute(lanes);
  Digest out;
  sponge::detail::copy_state_bytes(lanes, 0, out.data(), out.size());
  return out;
}

// ---------------------------------------------------------------------------------------
// Timing helpers.
// ---------------------------------------------------------------------------------------
std::uint64_t ticks() noexcept {
#if SPONGE_BENCH_HAVE_TSC
  return __rdtsc();
#else
  return 0;
#endif
}

// Runs `body` once per benchmark iteration and records bytes/s (when it hashes bytes), and,
// where the CPU has a time-stamp counter, TSC ticks per iteration ("ticks") and per message
// byte ("ticks/B").
template <typename Body>
void run(benchmark::State& state, std::size_t bytes_per_iteration, Body&& body) {
  const std::uint64_t start = ticks();
  for (auto _ : state) {
    body();
  }
  const std::uint64_t stop = ticks();
  const auto iterations = static_cast<double>(state.iterations());
  if (bytes_per_iteration != 0) {
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes_per_iteration));
  }
  if (SPONGE_BENCH_HAVE_TSC && iterations > 0) {
    const auto elapsed = static_cast<double>(stop - start);
    state.counters["ticks"] = benchmark::Counter(elapsed / iterations);
    if (bytes_per_iteration != 0) {
      state.counters["ticks/B"] =
          benchmark::Counter(elapsed / (iterations * static_cast<double>(bytes_per_iteration)));
    }
  }
}

std::size_t size_of(const benchmark::State& state) {
  return static_cast<std::size_t>(state.range(0));
}

// One SHA3-256 EVP_MD for the whole process, fetched once (no per-call name lookup).
EVP_MD* openssl_sha3_256() {
  static EVP_MD* md = EVP_MD_fetch(nullptr, "SHA3-256", nullptr);
  return md;
}

struct OpenSslContext {
  OpenSslContext() : ctx(EVP_MD_CTX_new()) {}
  ~OpenSslContext() { EVP_MD_CTX_free(ctx); }
  OpenSslContext(const OpenSslContext&) = delete;
  OpenSslContext& operator=(const OpenSslContext&) = delete;
  EVP_MD_CTX* ctx;
};

// ---------------------------------------------------------------------------------------
// One-shot benchmarks.
// ---------------------------------------------------------------------------------------
void oneshot_sponge(benchmark::State& state) {
  const std::span<const std::uint8_t> data(message(), size_of(state));
  run(state, data.size(), [&] {
    Digest out = sponge::keccak256(data);
    benchmark::DoNotOptimize(out);
  });
}

void oneshot_kernel(benchmark::State& state, const KeccakKernel* kernel) {
  const std::uint8_t* data = message();
  const std::size_t size = size_of(state);
  const AbsorbFn absorb = kernel->absorb_for(kRate);
  run(state, size, [&] {
    Digest out = keccak256_on(*kernel, absorb, data, size);
    benchmark::DoNotOptimize(out);
  });
}

void oneshot_openssl_ctx(benchmark::State& state) {
  const std::uint8_t* data = message();
  const std::size_t size = size_of(state);
  EVP_MD* md = openssl_sha3_256();
  OpenSslContext context;
  int ok = 1;
  run(state, size, [&] {
    Digest out;
    unsigned int out_length = 0;
    ok &= EVP_DigestInit_ex2(context.ctx, md, nullptr);
    ok &= EVP_DigestUpdate(context.ctx, data, size);
    ok &= EVP_DigestFinal_ex(context.ctx, out.data(), &out_length);
    benchmark::DoNotOptimize(out);
  });
  if (!ok) state.SkipWithError("OpenSSL EVP_Digest{Init_ex2,Update,Final_ex} failed");
}

void oneshot_openssl_evpdigest(benchmark::State& state) {
  const std::uint8_t* data = message();
  const std::size_t size = size_of(state);
  EVP_MD* md = openssl_sha3_256();
  int ok = 1;
  run(state, size, [&] {
    Digest out;
    unsigned int out_length = 0;
    ok &= EVP_Digest(data, size, out.data(), &out_length, md, nullptr);
    benchmark::DoNotOptimize(out);
  });
  if (!ok) state.SkipWithError("OpenSSL EVP_Digest failed");
}

void oneshot_cryptopp(benchmark::State& state) {
  const std::uint8_t* data = message();
  const std::size_t size = size_of(state);
  CryptoPP::Keccak_256 hash;
  run(state, size, [&] {
    Digest out;
    hash.Update(data, size);
    hash.TruncatedFinal(out.data(), out.size());  // also restarts the object
    benchmark::DoNotOptimize(out);
  });
}

// ---------------------------------------------------------------------------------------
// Streaming benchmarks: the message in 64-byte pieces, then the digest.
// ---------------------------------------------------------------------------------------
void stream_sponge(benchmark::State& state) {
  const std::uint8_t* data = message();
  const std::size_t size = size_of(state);
  sponge::Keccak256 hash;
  run(state, size, [&] {
    Digest out;
    hash.reset();
    for (std::size_t offset = 0; offset < size; offset += kStreamPiece) {
      hash.update(std::span<const std::uint8_t>(data + offset, kStreamPiece));
    }
    hash.squeeze(out);  // digest() would copy the sponge first, to leave it usable
    benchmark::DoNotOptimize(out);
  });
}

void stream_openssl_ctx(benchmark::State& state) {
  const std::uint8_t* data = message();
  const std::size_t size = size_of(state);
  EVP_MD* md = openssl_sha3_256();
  OpenSslContext context;
  int ok = 1;
  run(state, size, [&] {
    Digest out;
    unsigned int out_length = 0;
    ok &= EVP_DigestInit_ex2(context.ctx, md, nullptr);
    for (std::size_t offset = 0; offset < size; offset += kStreamPiece) {
      ok &= EVP_DigestUpdate(context.ctx, data + offset, kStreamPiece);
    }
    ok &= EVP_DigestFinal_ex(context.ctx, out.data(), &out_length);
    benchmark::DoNotOptimize(out);
  });
  if (!ok) state.SkipWithError("OpenSSL EVP_Digest{Init_ex2,Update,Final_ex} failed");
}

void stream_cryptopp(benchmark::State& state) {
  const std::uint8_t* data = message();
  const std::size_t size = size_of(state);
  CryptoPP::Keccak_256 hash;
  run(state, size, [&] {
    Digest out;
    for (std::size_t offset = 0; offset < size; offset += kStreamPiece) {
      hash.Update(data + offset, kStreamPiece);
    }
    hash.TruncatedFinal(out.data(), out.size());
    benchmark::DoNotOptimize(out);
  });
}

// ---------------------------------------------------------------------------------------
// The bare permutation, and one fused absorb call.
// ---------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------
// Keccak-p[1600,12] against Keccak-f[1600] on the same kernel (the dispatcher's), and KMAC.
// ---------------------------------------------------------------------------------------
constexpr std::int64_t kReducedRoundSizes[] = {32, 4096, 1 << 20};
constexpr std::int64_t kKmacSizes[] = {32, 4096};
constexpr std::size_t kXofOutput = 32;
constexpr std::size_t kKmacOutput = 64;
constexpr std::uint8_t kKmacKey[32] = {
    0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x4B, 0x4C, 0x4D, 0x4E, 0x4F,
    0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x5B, 0x5C, 0x5D, 0x5E, 0x5F};

// `hash(in, out)` on a message of the benchmark's size, 32 bytes of output.
template <typename Hash>
void xof_oneshot(benchmark::State& state, Hash hash) {
  const std::span<const std::uint8_t> data(message(), size_of(state));
  std::array<std::uint8_t, kXofOutput> out;
  run(state, data.size(), [&] {
    hash(data, std::span<std::uint8_t>(out));
    benchmark::DoNotOptimize(out);
  });
}

void shake128_sponge(benchmark::State& state) {
  xof_oneshot(state, [](auto in, auto out) { sponge::shake128(in, out); });
}
void turboshake128_sponge(benchmark::State& state) {
  xof_oneshot(state, [](auto in, auto out) { sponge::turboshake128(in, out); });
}
void kt128_sponge(benchmark::State& state) {
  xof_oneshot(state, [](auto in, auto out) { sponge::kt128(in, {}, out); });
}

void kmac256_sponge(benchmark::State& state) {
  const std::span<const std::uint8_t> data(message(), size_of(state));
  std::array<std::uint8_t, kKmacOutput> out;
  run(state, data.size(), [&] {
    sponge::kmac256(kKmacKey, data, {}, out);
    benchmark::DoNotOptimize(out);
  });
}

// OpenSSL's KMAC256 as an application uses it for one message: a context made once, then
// per message init with the key (which absorbs it, as ours does), update, final.
void kmac256_openssl(benchmark::State& state) {
  const std::span<const std::uint8_t> data(message(), size_of(state));
  EVP_MAC* mac = EVP_MAC_fetch(nullptr, "KMAC-256", nullptr);
  EVP_MAC_CTX* ctx = mac != nullptr ? EVP_MAC_CTX_new(mac) : nullptr;
  std::size_t size = kKmacOutput;
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
                               OSSL_PARAM_construct_end()};
  if (ctx == nullptr || EVP_MAC_CTX_set_params(ctx, params) != 1) {
    state.SkipWithError("OpenSSL KMAC-256 unavailable");
  }
  std::array<std::uint8_t, kKmacOutput> out;
  run(state, data.size(), [&] {
    std::size_t written = 0;
    if (EVP_MAC_init(ctx, kKmacKey, sizeof kKmacKey, nullptr) != 1 ||
        EVP_MAC_update(ctx, data.data(), data.size()) != 1 ||
        EVP_MAC_final(ctx, out.data(), &written, out.size()) != 1) {
      state.SkipWithError("OpenSSL KMAC-256 failed");
    }
    benchmark::DoNotOptimize(out);
  });
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(mac);
}

void permute_sponge(benchmark::State& state) {
  std::uint64_t lanes[25] = {};
  run(state, 0, [&] { sponge::keccak_f1600(lanes); });
  benchmark::DoNotOptimize(lanes[0]);
}

void permute_kernel(benchmark::State& state, const KeccakKernel* kernel) {
  std::uint64_t lanes[25] = {};
  const sponge::detail::PermuteFn permute = kernel->permute;
  run(state, 0, [&] { permute(lanes); });
  benchmark::DoNotOptimize(lanes[0]);
}

void absorb136_kernel(benchmark::State& state, const KeccakKernel* kernel) {
  std::uint64_t lanes[25] = {};
  const AbsorbFn absorb = kernel->absorb_for(kRate);
  const std::uint8_t* block = message();
  run(state, kRate, [&] { absorb(lanes, block); });
  benchmark::DoNotOptimize(lanes[0]);
}

// ---------------------------------------------------------------------------------------
// Ascon (SP 800-232) on every Ascon kernel this CPU runs. The Ascon kernel table is separate
// from the Keccak one, and a generated Ascon kernel appears in it (and here) on its own; the
// report divides each column by kernel:portable's time.
// ---------------------------------------------------------------------------------------
using sponge::detail::AsconKernel;
using sponge::detail::AsconPermuteFn;

constexpr std::int64_t kAsconSizes[] = {16, 32, 64, 1024, 16384, 1 << 20};

// Ascon-XOF128's output length in its benchmarks.
constexpr std::size_t kAsconXofOutBytes = 32;

#if SPONGE_BENCH_ASCON_C
// ascon-c's opt64 code (github.com/ascon/ascon-c), built outside this tree and named by
// SPONGE_BENCH_ASCON_C_LIB, with its crypto_* entry points renamed to these.
extern "C" {
int asconc_hash256_crypto_hash(unsigned char* out, const unsigned char* in,
                               unsigned long long inlen);
int asconc_xof128_ascon_xof(std::uint8_t* out, std::uint64_t outlen, const std::uint8_t* in,
                            std::uint64_t inlen);
int asconc_aead128_crypto_aead_encrypt(unsigned char* c, unsigned long long* clen,
                                       const unsigned char* m, unsigned long long mlen,
                                       const unsigned char* ad, unsigned long long adlen,
                                       const unsigned char* nsec, const unsigned char* npub,
                                       const unsigned char* k);
}
#endif

void ascon_permute_kernel(benchmark::State& state, AsconPermuteFn permute) {
  std::uint64_t words[5] = {1, 2, 3, 4, 5};
  run(state, 0, [&] { permute(words); });
  benchmark::DoNotOptimize(words[0]);
}

void ascon_hash256_sponge(benchmark::State& state) {
  const std::span<const std::uint8_t> data(message(), size_of(state));
  run(state, data.size(), [&] {
    Digest out = sponge::ascon_hash256(data);
    benchmark::DoNotOptimize(out);
  });
}

void ascon_hash256_kernel(benchmark::State& state, const AsconKernel* kernel) {
  const std::span<const std::uint8_t> data(message(), size_of(state));
  run(state, data.size(), [&] {
    Digest out = sponge::detail::ascon_hash256_on(*kernel, data);
    benchmark::DoNotOptimize(out);
  });
}

void ascon_xof128_sponge(benchmark::State& state) {
  const std::span<const std::uint8_t> data(message(), size_of(state));
  std::array<std::uint8_t, kAsconXofOutBytes> out;
  run(state, data.size(), [&] {
    sponge::ascon_xof128(data, out);
    benchmark::DoNotOptimize(out);
  });
}

constexpr std::array<std::uint8_t, 16> kAsconKey = {0, 1, 2,  3,  4,  5,  6,  7,
                                                    8, 9, 10, 11, 12, 13, 14, 15};
constexpr std::array<std::uint8_t, 16> kAsconNonce = {16, 17, 18, 19, 20, 21, 22, 23,
                                                      24, 25, 26, 27, 28, 29, 30, 31};

// The ciphertext buffer of the AEAD benchmarks: one per process, as large as the largest
// message (the benchmarks run one at a time).
std::span<std::uint8_t> ascon_ciphertext_buffer(std::size_t size) {
  static std::vector<std::uint8_t> buffer(kMaxMessage);
  return std::span<std::uint8_t>(buffer).first(size);
}

void ascon_aead128_encrypt_sponge(benchmark::State& state) {
  const std::span<const std::uint8_t> plaintext(message(), size_of(state));
  const std::span<std::uint8_t> ciphertext = ascon_ciphertext_buffer(plaintext.size());
  std::array<std::uint8_t, 16> tag{};
  run(state, plaintext.size(), [&] {
    sponge::ascon_aead128_encrypt(kAsconKey, kAsconNonce, {}, plaintext, ciphertext, tag);
    benchmark::DoNotOptimize(tag);
  });
}

void ascon_aead128_encrypt_kernel(benchmark::State& state, const AsconKernel* kernel) {
  const std::span<const std::uint8_t> plaintext(message(), size_of(state));
  const std::span<std::uint8_t> ciphertext = ascon_ciphertext_buffer(plaintext.size());
  std::array<std::uint8_t, 16> tag{};
  run(state, plaintext.size(), [&] {
    sponge::detail::ascon_aead128_encrypt_on(*kernel, kAsconKey, kAsconNonce, {}, plaintext,
                                             ciphertext, tag);
    benchmark::DoNotOptimize(tag);
  });
}

#if SPONGE_BENCH_ASCON_C
void ascon_hash256_ascon_c(benchmark::State& state) {
  const std::span<const std::uint8_t> data(message(), size_of(state));
  run(state, data.size(), [&] {
    Digest out;
    asconc_hash256_crypto_hash(out.data(), data.data(), data.size());
    benchmark::DoNotOptimize(out);
  });
}

void ascon_xof128_ascon_c(benchmark::State& state) {
  const std::span<const std::uint8_t> data(message(), size_of(state));
  std::array<std::uint8_t, kAsconXofOutBytes> out;
  run(state, data.size(), [&] {
    asconc_xof128_ascon_xof(out.data(), out.size(), data.data(), data.size());
    benchmark::DoNotOptimize(out);
  });
}

// ascon-c appends the tag to the ciphertext: its buffer holds 16 bytes more.
void ascon_aead128_encrypt_ascon_c(benchmark::State& state) {
  const std::span<const std::uint8_t> plaintext(message(), size_of(state));
  static std::vector<std::uint8_t> ciphertext(kMaxMessage + 16);
  run(state, plaintext.size(), [&] {
    unsigned long long length = 0;
    asconc_aead128_crypto_aead_encrypt(ciphertext.data(), &length, plaintext.data(),
                                       plaintext.size(), nullptr, 0, nullptr, kAsconNonce.data(),
                                       kAsconKey.data());
    benchmark::DoNotOptimize(ciphertext.data());
    benchmark::ClobberMemory();
  });
}
#endif

#if SPONGE_BENCH_PORTABLE_NATIVE
bool runs_here() noexcept {
  return true;
}

// The portable Ascon kernel compiled for this machine (bench/portable_native.hpp).
const AsconKernel& portable_native_ascon_kernel() {
  const PortableNativeEntries& entries = portable_native_entries();
  static const AsconKernel kernel{"portable-native",       runs_here,
                                  entries.ascon_permute12, entries.ascon_permute8,
                                  entries.ascon_permute6,  entries.ascon_absorb_hash,
                                  entries.ascon_absorb_ad, entries.ascon_encrypt,
                                  entries.ascon_decrypt};
  return kernel;
}
#endif

// The table's kernels this CPU runs, then the portable one compiled for this machine.
std::vector<const AsconKernel*> runnable_ascon_kernels() {
  std::vector<const AsconKernel*> out;
  for (const AsconKernel* kernel : sponge::detail::ascon_compiled_kernels()) {
    if (kernel->cpu_supports()) out.push_back(kernel);
  }
#if SPONGE_BENCH_PORTABLE_NATIVE
  out.push_back(&portable_native_ascon_kernel());
#endif
  return out;
}

std::string join_ascon_kernel_names(const std::vector<const AsconKernel*>& kernels) {
  std::string names;
  for (const AsconKernel* kernel : kernels) {
    if (!names.empty()) names += ", ";
    names += kernel->name;
  }
  return names.empty() ? "none" : names;
}

// Every Ascon kernel must agree with the dispatcher's, and the AEAD must open what it sealed,
// before its speed means anything.
bool ascon_self_check(const std::vector<const AsconKernel*>& kernels) {
  const std::uint8_t* data = message();
  bool ok = true;
  for (const std::size_t size : {0, 1, 7, 8, 9, 15, 16, 17, 32, 1000, 1024}) {
    const std::span<const std::uint8_t> bytes(data, size);
    const Digest expected = sponge::ascon_hash256(bytes);
    std::vector<std::uint8_t> expected_ciphertext(size), ciphertext(size), opened(size);
    std::array<std::uint8_t, 16> expected_tag{}, tag{};
    sponge::ascon_aead128_encrypt(kAsconKey, kAsconNonce, {}, bytes, expected_ciphertext,
                                  expected_tag);
    for (const AsconKernel* kernel : kernels) {
      sponge::detail::ascon_aead128_encrypt_on(*kernel, kAsconKey, kAsconNonce, {}, bytes,
                                               ciphertext, tag);
      const bool opens = sponge::detail::ascon_aead128_decrypt_on(*kernel, kAsconKey, kAsconNonce,
                                                                  {}, ciphertext, tag, opened);
      if (sponge::detail::ascon_hash256_on(*kernel, bytes) != expected ||
          ciphertext != expected_ciphertext || tag != expected_tag || !opens ||
          !std::equal(opened.begin(), opened.end(), bytes.begin())) {
        std::fprintf(stderr, "sponge_bench: self-check failed: Ascon kernel %s, %zu bytes\n",
                     std::string(kernel->name).c_str(), size);
        ok = false;
      }
    }
    std::array<std::uint8_t, kAsconXofOutBytes> xof{};
    sponge::AsconXof128 streamed;
    streamed.update(bytes);
    streamed.squeeze(xof);
    std::array<std::uint8_t, kAsconXofOutBytes> xof_oneshot{};
    sponge::ascon_xof128(bytes, xof_oneshot);
    if (xof_oneshot != xof) {
      std::fprintf(stderr, "sponge_bench: self-check failed: Ascon-XOF128, %zu bytes\n", size);
      ok = false;
    }
#if SPONGE_BENCH_ASCON_C
    Digest peer_digest{};
    std::array<std::uint8_t, kAsconXofOutBytes> peer_xof{};
    std::vector<std::uint8_t> peer_sealed(size + 16);
    unsigned long long sealed_length = 0;
    asconc_hash256_crypto_hash(peer_digest.data(), bytes.data(), size);
    asconc_xof128_ascon_xof(peer_xof.data(), peer_xof.size(), bytes.data(), size);
    asconc_aead128_crypto_aead_encrypt(peer_sealed.data(), &sealed_length, bytes.data(), size,
                                       nullptr, 0, nullptr, kAsconNonce.data(), kAsconKey.data());
    if (peer_digest != expected || peer_xof != xof || sealed_length != size + 16 ||
        !std::equal(expected_ciphertext.begin(), expected_ciphertext.end(), peer_sealed.begin()) ||
        !std::equal(expected_tag.begin(), expected_tag.end(), peer_sealed.begin() + size)) {
      std::fprintf(stderr, "sponge_bench: self-check failed: ascon-c, %zu bytes\n", size);
      ok = false;
    }
#endif
  }
  return ok;
}

// "<family>/kernel:<name>", built by appending (GCC 12 at -O3 warns falsely, -Wrestrict, on
// a literal + std::string temporary).
std::string ascon_kernel_benchmark_name(std::string_view family, const AsconKernel& kernel) {
  std::string name(family);
  name += "/kernel:";
  name += kernel.name;
  return name;
}

void register_ascon_benchmarks(const std::vector<const AsconKernel*>& kernels) {
  auto sized = [](benchmark::internal::Benchmark* benchmark) {
    for (std::int64_t size : kAsconSizes)
      benchmark->Arg(size);
  };
  for (const AsconKernel* kernel : kernels) {
    benchmark::RegisterBenchmark(ascon_kernel_benchmark_name("ascon-p12", *kernel).c_str(),
                                 ascon_permute_kernel, kernel->permute12);
    benchmark::RegisterBenchmark(ascon_kernel_benchmark_name("ascon-p8", *kernel).c_str(),
                                 ascon_permute_kernel, kernel->permute8);
    benchmark::RegisterBenchmark(ascon_kernel_benchmark_name("ascon-p6", *kernel).c_str(),
                                 ascon_permute_kernel, kernel->permute6);
  }
  sized(benchmark::RegisterBenchmark("ascon-hash256/sponge", ascon_hash256_sponge));
  for (const AsconKernel* kernel : kernels) {
    sized(
        benchmark::RegisterBenchmark(ascon_kernel_benchmark_name("ascon-hash256", *kernel).c_str(),
                                     ascon_hash256_kernel, kernel));
  }
#if SPONGE_BENCH_ASCON_C
  sized(benchmark::RegisterBenchmark("ascon-hash256/ascon-c", ascon_hash256_ascon_c));
#endif
  sized(benchmark::RegisterBenchmark("ascon-xof128/sponge", ascon_xof128_sponge));
#if SPONGE_BENCH_ASCON_C
  sized(benchmark::RegisterBenchmark("ascon-xof128/ascon-c", ascon_xof128_ascon_c));
#endif
  sized(benchmark::RegisterBenchmark("ascon-aead128-encrypt/sponge", ascon_aead128_encrypt_sponge));
#if SPONGE_BENCH_ASCON_C
  sized(
      benchmark::RegisterBenchmark("ascon-aead128-encrypt/ascon-c", ascon_aead128_encrypt_ascon_c));
#endif
  for (const AsconKernel* kernel : kernels) {
    sized(benchmark::RegisterBenchmark(
        ascon_kernel_benchmark_name("ascon-aead128-encrypt", *kernel).c_str(),
        ascon_aead128_encrypt_kernel, kernel));
  }
}

// ---------------------------------------------------------------------------------------
// Set-up: which kernels, the self-check, registration, context.
// ---------------------------------------------------------------------------------------
#if SPONGE_BENCH_PORTABLE_NATIVE
// The portable Keccak kernel compiled for this machine (bench/portable_native.hpp).
const KeccakKernel& portable_native_keccak_kernel() {
  static const KeccakKernel kernel = [] {
    const PortableNativeEntries& entries = portable_native_entries();
    KeccakKernel built{"portable-native",        runs_here, entries.keccak_permute, {},
                       entries.keccak_permute12, {}};
    std::copy(std::begin(entries.keccak_absorb), std::end(entries.keccak_absorb), built.absorb);
    std::copy(std::begin(entries.keccak_absorb12), std::end(entries.keccak_absorb12),
              built.absorb12);
    return built;
  }();
  return kernel;
}
#endif

// The table's kernels this CPU runs, then the portable one compiled for this machine.
std::vector<const KeccakKernel*> runnable_kernels() {
  std::vector<const KeccakKernel*> out;
  for (const KeccakKernel* kernel : sponge::detail::compiled_kernels()) {
    if (kernel->cpu_supports()) out.push_back(kernel);
  }
#if SPONGE_BENCH_PORTABLE_NATIVE
  out.push_back(&portable_native_keccak_kernel());
#endif
  return out;
}

std::string join_kernel_names(std::span<const KeccakKernel* const> kernels) {
  std::string names;
  for (const KeccakKernel* kernel : kernels) {
    if (!names.empty()) names += ", ";
    names += kernel->name;
  }
  return names.empty() ? "none" : names;
}

std::vector<const KeccakKernel*> unrunnable_kernels() {
  std::vector<const KeccakKernel*> out;
  for (const KeccakKernel* kernel : sponge::detail::compiled_kernels()) {
    if (!kernel->cpu_supports()) out.push_back(kernel);
  }
  return out;
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const auto begin = line.find_first_not_of(" \t", colon + 1);
    return begin == std::string::npos ? "unknown" : line.substr(begin);
  }
  return "unknown";
}

// Every implementation must give the right digest before its speed means anything.
bool self_check(const std::vector<const KeccakKernel*>& kernels) {
  const std::uint8_t* data = message();
  const std::size_t sizes[] = {0, 1, 31, 32, 64, 128, 135, 136, 137, 271, 272, 273, 1000, 4096};
  bool ok = true;
  auto fail = [&](const char* what, std::size_t size) {
    std::fprintf(stderr, "sponge_bench: self-check failed: %s, %zu bytes\n", what, size);
    ok = false;
  };
  EVP_MD* md = openssl_sha3_256();
  for (std::size_t size : sizes) {
    const std::span<const std::uint8_t> bytes(data, size);
    const Digest expected = sponge::keccak256(bytes);
    for (const KeccakKernel* kernel : kernels) {
      if (keccak256_on(*kernel, kernel->absorb_for(kRate), data, size) != expected) {
        fail(std::string(kernel->name).c_str(), size);
      }
    }
    Digest out;
    CryptoPP::Keccak_256 cryptopp;
    cryptopp.Update(data, size);
    cryptopp.TruncatedFinal(out.data(), out.size());
    if (out != expected) fail("Crypto++ Keccak_256", size);
    if (size % kStreamPiece == 0) {
      sponge::Keccak256 stream;
      for (std::size_t offset = 0; offset < size; offset += kStreamPiece) {
        stream.update(std::span<const std::uint8_t>(data + offset, kStreamPiece));
      }
      stream.squeeze(out);
      if (out != expected) fail("sponge::Keccak256 in 64-byte pieces", size);
    }
    unsigned int out_length = 0;
    if (md == nullptr || !EVP_Digest(data, size, out.data(), &out_length, md, nullptr) ||
        out_length != out.size() || out != sponge::sha3_256(bytes)) {
      fail("OpenSSL SHA3-256", size);
    }
  }
  return ok;
}

// ---------------------------------------------------------------------------------------
// Batch hashing: Keccak-256 of 1,024 messages of one size, as one batch (the public function
// on the active batch kernel, and the scheduler on each batch kernel this CPU runs) and as a
// loop of the one-shot function. "per_message" is the time per message.
// ---------------------------------------------------------------------------------------
constexpr std::size_t kBatchMessages = 1024;
constexpr std::int64_t kBatchSizes[] = {32, 136, 532};

struct BatchInput {
  std::vector<std::uint8_t> bytes;
  std::vector<std::span<const std::uint8_t>> messages;
  std::vector<Digest> digests;
};

// 1,024 consecutive messages of `size` bytes.
BatchInput batch_input(std::size_t size) {
  BatchInput input;
  input.bytes.resize(kBatchMessages * size);
  for (std::size_t i = 0; i < input.bytes.size(); ++i)
    input.bytes[i] = static_cast<std::uint8_t>(i * 131 + 7);
  for (std::size_t i = 0; i < kBatchMessages; ++i)
    input.messages.emplace_back(input.bytes.data() + i * size, size);
  input.digests.resize(kBatchMessages);
  return input;
}

void per_message(benchmark::State& state) {
  state.counters["per_message"] = benchmark::Counter(
      static_cast<double>(kBatchMessages),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void batch_sponge(benchmark::State& state) {
  BatchInput input = batch_input(size_of(state));
  run(state, input.bytes.size(), [&] {
    sponge::keccak256_batch(input.messages, input.digests);
    benchmark::DoNotOptimize(input.digests.data());
  });
  per_message(state);
}

void batch_kernel(benchmark::State& state, const sponge::detail::KeccakBatchKernel* kernel) {
  BatchInput input = batch_input(size_of(state));
  const sponge::detail::BatchMessages messages(input.messages);
  run(state, input.bytes.size(), [&] {
    sponge::detail::hash_batch(*kernel, {kRate, kKeccakDomain, 32, 24}, messages,
                               input.digests[0].data());
    benchmark::DoNotOptimize(input.digests.data());
  });
  per_message(state);
}

void batch_single_loop(benchmark::State& state) {
  BatchInput input = batch_input(size_of(state));
  run(state, input.bytes.size(), [&] {
    for (std::size_t i = 0; i < kBatchMessages; ++i)
      input.digests[i] = sponge::keccak256(input.messages[i]);
    benchmark::DoNotOptimize(input.digests.data());
  });
  per_message(state);
}

// OpenSSL has no Keccak-256 (3.0); SHA3-256 has the same rate and permutation, so its loop
// over the messages is the peer's cost of the same work.
void batch_openssl_loop(benchmark::State& state) {
  BatchInput input = batch_input(size_of(state));
  EVP_MD* md = openssl_sha3_256();
  bool ok = md != nullptr;
  run(state, input.bytes.size(), [&] {
    for (std::size_t i = 0; i < kBatchMessages; ++i) {
      unsigned int out_length = 0;
      ok &= EVP_Digest(input.messages[i].data(), input.messages[i].size(), input.digests[i].data(),
                       &out_length, md, nullptr) == 1;
    }
    benchmark::DoNotOptimize(input.digests.data());
  });
  if (!ok) state.SkipWithError("OpenSSL EVP_Digest failed");
  per_message(state);
}

// One call of a batch kernel's Keccak-f[1600] on its N interleaved states; "per_state" is the
// time per state, to set beside permute/kernel:<single-state kernel>.
void permute_batch_kernel(benchmark::State& state,
                          const sponge::detail::KeccakBatchKernel* kernel) {
  alignas(64) std::uint64_t lanes[25 * sponge::detail::kMaxBatchStates] = {};
  for (auto _ : state) {
    kernel->permute(lanes);
    benchmark::DoNotOptimize(lanes);
  }
  state.counters["per_state"] = benchmark::Counter(
      static_cast<double>(kernel->states),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void register_batch_benchmarks() {
  auto sized = [](benchmark::internal::Benchmark* benchmark) {
    for (std::int64_t size : kBatchSizes)
      benchmark->Arg(size);
  };
  // Ours on the active batch kernel first, so the report's ratio is the other's time / ours.
  sized(benchmark::RegisterBenchmark("batch1024/sponge", batch_sponge));
  sized(benchmark::RegisterBenchmark("batch1024/oneshot-loop", batch_single_loop));
  sized(benchmark::RegisterBenchmark("batch1024/openssl-sha3-256-loop", batch_openssl_loop));
  for (const sponge::detail::KeccakBatchKernel* kernel : sponge::detail::compiled_batch_kernels()) {
    if (!kernel->cpu_supports()) continue;
    const std::string name = "batch1024/kernel:" + std::string(kernel->name);
    sized(benchmark::RegisterBenchmark(name.c_str(), batch_kernel, kernel));
    const std::string permute_name = "permute-batch/kernel:" + std::string(kernel->name);
    benchmark::RegisterBenchmark(permute_name.c_str(), permute_batch_kernel, kernel);
  }
}

// ---------------------------------------------------------------------------------------
// KangarooTwelve's leaves on the batch kernel: KT128 of 1 and 16 MiB through the public
// function (the active batch kernel; run with SPONGE_BATCH_KERNEL=single for the sequential
// path), its whole leaves alone on each batch kernel this CPU runs (hash_whole_leaves, called
// directly: `single` is the sequential path), and SHAKE128 of the same size.
// ---------------------------------------------------------------------------------------
constexpr std::int64_t kTreeSizes[] = {1 << 20, 16 << 20};
constexpr std::size_t kKtChunk = sponge::detail::KangarooTwelveTree::kChunkBytes;

const std::uint8_t* tree_message() {
  static const std::vector<std::uint8_t> bytes = [] {
    std::vector<std::uint8_t> out(static_cast<std::size_t>(kTreeSizes[1]));
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = static_cast<std::uint8_t>(i * 131 + 7);
    return out;
  }();
  return bytes.data();
}

template <typename Hash>
void tree_xof(benchmark::State& state, Hash hash) {
  const std::span<const std::uint8_t> data(tree_message(), size_of(state));
  std::array<std::uint8_t, kXofOutput> out;
  run(state, data.size(), [&] {
    hash(data, std::span<std::uint8_t>(out));
    benchmark::DoNotOptimize(out);
  });
}

void kt128_tree_sponge(benchmark::State& state) {
  tree_xof(state, [](auto in, auto out) { sponge::kt128(in, {}, out); });
}
void kt128_tree_shake128(benchmark::State& state) {
  tree_xof(state, [](auto in, auto out) { sponge::shake128(in, out); });
}
// kt128_parallel on `threads` threads (0: one per CPU); wall-clock time.
void kt128_tree_threads(benchmark::State& state, unsigned threads) {
  tree_xof(state, [threads](auto in, auto out) { sponge::kt128_parallel(in, {}, out, threads); });
}

// KT128's leaves of a message of the benchmark's size (every chunk but the first), on
// `kernel`; the chaining values are folded into one word so none is optimized away.
void kt128_leaves_kernel(benchmark::State& state, const sponge::detail::KeccakBatchKernel* kernel) {
  const std::size_t leaves = size_of(state) / kKtChunk - 1;
  const std::uint8_t* chunks = tree_message() + kKtChunk;
  sponge::detail::KeccakSponge leaf(168, 0x0B, sponge::detail::KeccakSponge::kReducedRounds);
  std::uint8_t folded = 0;
  run(state, leaves * kKtChunk, [&] {
    sponge::detail::hash_whole_leaves(
        *kernel, leaf, chunks, kKtChunk, leaves, 32,
        [&](std::span<const std::uint8_t> chaining_value) { folded ^= chaining_value[0]; });
    benchmark::DoNotOptimize(folded);
  });
}

// KT128's leaf blocks straight through a batch kernel's 12-round entries, the 48 whole
// blocks of N chunks of 8 KiB at a time: by the block entry (one call a group, the loop over
// blocks inside the kernel), by one absorb168 call a block (the loop in C++, the lanes loaded
// and stored every block), and the permutations alone (permute12 as often, no block read):
// the gain and the transposes' cost the block entries' header records. No padding and no
// chaining values, only what the three share.
enum class LeafBlocks { block_entry, per_block, permutations_only };

void kt128_leaf_blocks(benchmark::State& state, const sponge::detail::KeccakBatchKernel* kernel,
                       LeafBlocks how) {
  constexpr std::size_t kRate = 168;
  constexpr std::size_t kBlocksPerChunk = kKtChunk / kRate;
  constexpr int kRounds = sponge::detail::kReducedRounds;
  const auto n = static_cast<std::size_t>(kernel->states);
  const std::size_t groups = size_of(state) / (kKtChunk * n);
  const sponge::detail::BatchAbsorbFn absorb = kernel->absorb_for(kRate, kRounds);
  const sponge::detail::BatchAbsorbBlocksFn absorb_blocks =
      kernel->absorb_blocks_for(kRate, kRounds);
  const sponge::detail::BatchPermuteFn permute = kernel->permute_for(kRounds);
  alignas(64) std::uint64_t lanes[25 * sponge::detail::kMaxBatchStates] = {};
  run(state, groups * n * kKtChunk, [&] {
    for (std::size_t group = 0; group < groups; ++group) {
      const std::uint8_t* blocks[sponge::detail::kMaxBatchStates];
      for (std::size_t s = 0; s < n; ++s)
        blocks[s] = tree_message() + (group * n + s) * kKtChunk;
      switch (how) {
        case LeafBlocks::block_entry:
          absorb_blocks(lanes, blocks, kBlocksPerChunk);
          break;
        case LeafBlocks::per_block:
          for (std::size_t block = 0; block < kBlocksPerChunk; ++block) {
            absorb(lanes, blocks);
            for (std::size_t s = 0; s < n; ++s)
              blocks[s] += kRate;
          }
          break;
        case LeafBlocks::permutations_only:
          for (std::size_t block = 0; block < kBlocksPerChunk; ++block)
            permute(lanes);
          break;
      }
    }
    benchmark::DoNotOptimize(lanes);
  });
}

void register_tree_benchmarks() {
  auto sized = [](benchmark::internal::Benchmark* benchmark) {
    for (std::int64_t size : kTreeSizes)
      benchmark->Arg(size);
    benchmark->Unit(benchmark::kMillisecond);
  };
  // Ours first, so the report's ratio is the other's time / ours.
  sized(benchmark::RegisterBenchmark("kt128-tree/sponge", kt128_tree_sponge));
  sized(benchmark::RegisterBenchmark("kt128-tree/shake128", kt128_tree_shake128));
  // The threaded form at sizes around its crossover (it starts a second thread from 128
  // leaves, 1 MiB + 8 KiB) and at 16 MiB, beside the one-thread function at the same sizes;
  // wall-clock time, which is what threads save.
  for (const unsigned threads : {1u, 2u}) {
    const std::string name = "kt128-threads/sponge:" + std::to_string(threads);
    benchmark::internal::Benchmark* benchmark =
        benchmark::RegisterBenchmark(name.c_str(), kt128_tree_threads, threads);
    for (const std::int64_t size : {std::int64_t{1} << 20, (std::int64_t{1} << 20) + 8192 * 9,
                                    std::int64_t{2} << 20, std::int64_t{4} << 20, kTreeSizes[1]})
      benchmark->Arg(size);
    benchmark->Unit(benchmark::kMillisecond)->UseRealTime();
  }
  for (const sponge::detail::KeccakBatchKernel* kernel : sponge::detail::compiled_batch_kernels()) {
    if (!kernel->cpu_supports()) continue;
    const std::string name = "kt128-leaves/kernel:" + std::string(kernel->name);
    sized(benchmark::RegisterBenchmark(name.c_str(), kt128_leaves_kernel, kernel));
    if (kernel->absorb_blocks_for(168, sponge::detail::kReducedRounds) == nullptr) continue;
    constexpr std::pair<LeafBlocks, const char*> kWays[] = {
        {LeafBlocks::block_entry, "blocks"},
        {LeafBlocks::per_block, "per-block"},
        {LeafBlocks::permutations_only, "permutations-only"}};
    for (const auto& [how, way] : kWays) {
      const std::string blocks_name =
          "kt128-leaf-blocks/kernel:" + std::string(kernel->name) + "/" + way;
      sized(benchmark::RegisterBenchmark(blocks_name.c_str(), kt128_leaf_blocks, kernel, how));
    }
  }
}

void register_benchmarks(const std::vector<const KeccakKernel*>& kernels) {
  auto sized = [](benchmark::internal::Benchmark* benchmark, std::span<const std::int64_t> sizes) {
    for (std::int64_t size : sizes)
      benchmark->Arg(size);
  };
  sized(benchmark::RegisterBenchmark("oneshot/sponge", oneshot_sponge), kOneShotSizes);
  for (const KeccakKernel* kernel : kernels) {
    const std::string name = "oneshot/kernel:" + std::string(kernel->name);
    sized(benchmark::RegisterBenchmark(name.c_str(), oneshot_kernel, kernel), kOneShotSizes);
  }
  sized(benchmark::RegisterBenchmark("oneshot/openssl-ctx", oneshot_openssl_ctx), kOneShotSizes);
  sized(benchmark::RegisterBenchmark("oneshot/openssl-evpdigest", oneshot_openssl_evpdigest),
        kOneShotSizes);
  sized(benchmark::RegisterBenchmark("oneshot/cryptopp", oneshot_cryptopp), kOneShotSizes);

  sized(benchmark::RegisterBenchmark("stream64/sponge", stream_sponge), kStreamSizes);
  sized(benchmark::RegisterBenchmark("stream64/openssl-ctx", stream_openssl_ctx), kStreamSizes);
  sized(benchmark::RegisterBenchmark("stream64/cryptopp", stream_cryptopp), kStreamSizes);

  // Ours (sponge) first in each family, so the report's ratio is the peer's time / ours.
  sized(benchmark::RegisterBenchmark("turboshake128/sponge", turboshake128_sponge),
        kReducedRoundSizes);
  sized(benchmark::RegisterBenchmark("turboshake128/shake128", shake128_sponge),
        kReducedRoundSizes);
  sized(benchmark::RegisterBenchmark("kt128/sponge", kt128_sponge), kReducedRoundSizes);
  sized(benchmark::RegisterBenchmark("kt128/shake128", shake128_sponge), kReducedRoundSizes);
  sized(benchmark::RegisterBenchmark("kmac256/sponge", kmac256_sponge), kKmacSizes);
  sized(benchmark::RegisterBenchmark("kmac256/openssl-evp-mac", kmac256_openssl), kKmacSizes);

  benchmark::RegisterBenchmark("permute/sponge", permute_sponge);
  for (const KeccakKernel* kernel : kernels) {
    const std::string permute_name = "permute/kernel:" + std::string(kernel->name);
    benchmark::RegisterBenchmark(permute_name.c_str(), permute_kernel, kernel);
    const std::string absorb_name = "absorb136/kernel:" + std::string(kernel->name);
    benchmark::RegisterBenchmark(absorb_name.c_str(), absorb136_kernel, kernel);
  }
}

}  // namespace

void register_shake_x4_benchmarks();  // at the end of the file

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  if (openssl_sha3_256() == nullptr) {
    std::fprintf(stderr, "sponge_bench: EVP_MD_fetch(NULL, \"SHA3-256\", NULL) failed\n");
    return 1;
  }
  const std::vector<const KeccakKernel*> kernels = runnable_kernels();
  if (!self_check(kernels)) return 1;
  const std::vector<const AsconKernel*> ascon_kernels = runnable_ascon_kernels();
  if (!ascon_self_check(ascon_kernels)) return 1;

  benchmark::AddCustomContext("cpu_model", cpu_model());
  benchmark::AddCustomContext("sponge_active_kernel", std::string(sponge::active_kernel()));
  benchmark::AddCustomContext("sponge_kernels_benchmarked", join_kernel_names(kernels));
  benchmark::AddCustomContext("sponge_kernels_not_runnable",
                              join_kernel_names(unrunnable_kernels()));
  benchmark::AddCustomContext(
      "sponge_active_batch_kernel",
      std::string(sponge::active_kernel(sponge::KernelFamily::keccak_p1600_batch)));
  benchmark::AddCustomContext("sponge_active_ascon_kernel",
                              std::string(sponge::active_kernel(sponge::KernelFamily::ascon_p320)));
  benchmark::AddCustomContext("sponge_ascon_kernels_benchmarked",
                              join_ascon_kernel_names(ascon_kernels));
  benchmark::AddCustomContext(
      "like_for_like",
      "OpenSSL is timed on SHA3-256 (it has no Keccak-256). SHA3-256 and Keccak-256 differ "
      "only in the padding's domain byte (0x06 vs 0x01): same Keccak-f[1600] permutation, "
      "same rate (136 bytes), same 32-byte output, same number of permutations per message");
  benchmark::AddCustomContext(
      "columns",
      "sponge = public API on the dispatcher's kernel; kernel:<name> = Keccak-256 on that "
      "kernel's table entries; openssl-ctx = reused EVP_MD_CTX; openssl-evpdigest = "
      "EVP_Digest; cryptopp = reused CryptoPP::Keccak_256");
  benchmark::AddCustomContext(
      "ticks", SPONGE_BENCH_HAVE_TSC
                   ? "rdtsc ticks per iteration (ticks/B: per message byte); the TSC runs at a "
                     "constant reference rate, which differs from core cycles under turbo or "
                     "frequency scaling"
                   : "no time-stamp counter on this CPU: no ticks columns");

  register_benchmarks(kernels);
  register_ascon_benchmarks(ascon_kernels);
  register_batch_benchmarks();
  register_tree_benchmarks();
  register_shake_x4_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// ---------------------------------------------------------------------------------------
// Four SHAKE128 streams, the ML-KEM-768 matrix-expansion shape: four inputs seed || i || j
// (34 bytes), then three 168-byte blocks squeezed from each, one block per call (as rejection
// sampling reads them). Shake128x4 on the active batch kernel and on each batch kernel this
// CPU runs, against four Shake128 objects. "per_stream" is the time per stream.
// ---------------------------------------------------------------------------------------
namespace {

constexpr std::size_t kMlKemSeedBytes = 32;
constexpr std::size_t kMlKemBlocks = 3;
constexpr std::size_t kShake128Rate = 168;

struct MlKemStreams {
  std::array<std::array<std::uint8_t, kMlKemSeedBytes + 2>, 4> inputs;
  std::array<std::array<std::uint8_t, kMlKemBlocks * kShake128Rate>, 4> outputs;
};

MlKemStreams mlkem_streams() {
  MlKemStreams streams{};
  for (std::size_t k = 0; k < 4; ++k) {
    for (std::size_t i = 0; i < kMlKemSeedBytes; ++i)
      streams.inputs[k][i] = static_cast<std::uint8_t>(i * 37 + 11);
    streams.inputs[k][kMlKemSeedBytes] = static_cast<std::uint8_t>(k / 2);
    streams.inputs[k][kMlKemSeedBytes + 1] = static_cast<std::uint8_t>(k % 2);
  }
  return streams;
}

void per_stream(benchmark::State& state) {
  state.counters["per_stream"] = benchmark::Counter(
      4.0, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

template <typename MakeXof>
void mlkem_x4(benchmark::State& state, MakeXof make_xof) {
  MlKemStreams streams = mlkem_streams();
  const sponge::Shake128x4::Inputs inputs = {streams.inputs[0], streams.inputs[1],
                                             streams.inputs[2], streams.inputs[3]};
  run(state, sizeof streams.outputs, [&] {
    auto xof = make_xof();
    xof.update(inputs);
    for (std::size_t block = 0; block < kMlKemBlocks; ++block) {
      const std::size_t at = block * kShake128Rate;
      xof.squeeze({std::span(streams.outputs[0]).subspan(at, kShake128Rate),
                   std::span(streams.outputs[1]).subspan(at, kShake128Rate),
                   std::span(streams.outputs[2]).subspan(at, kShake128Rate),
                   std::span(streams.outputs[3]).subspan(at, kShake128Rate)});
    }
    benchmark::DoNotOptimize(streams.outputs.data());
  });
  per_stream(state);
}

void mlkem_x4_sponge(benchmark::State& state) {
  mlkem_x4(state, [] { return sponge::Shake128x4(); });
}

void mlkem_x4_kernel(benchmark::State& state, const sponge::detail::KeccakBatchKernel* kernel) {
  mlkem_x4(state, [kernel] { return sponge::Shake128x4(*kernel); });
}

void mlkem_four_shake128(benchmark::State& state) {
  MlKemStreams streams = mlkem_streams();
  run(state, sizeof streams.outputs, [&] {
    for (std::size_t k = 0; k < 4; ++k) {
      sponge::Shake128 xof;
      xof.update(streams.inputs[k]);
      for (std::size_t block = 0; block < kMlKemBlocks; ++block)
        xof.squeeze(std::span(streams.outputs[k]).subspan(block * kShake128Rate, kShake128Rate));
    }
    benchmark::DoNotOptimize(streams.outputs.data());
  });
  per_stream(state);
}

}  // namespace

void register_shake_x4_benchmarks() {
  // Ours on the active batch kernel first, so the report's ratio is the other's time / ours.
  benchmark::RegisterBenchmark("mlkem768-xof/shake128x4", mlkem_x4_sponge);
  benchmark::RegisterBenchmark("mlkem768-xof/4x-shake128", mlkem_four_shake128);
  for (const sponge::detail::KeccakBatchKernel* kernel : sponge::detail::compiled_batch_kernels()) {
    if (!kernel->cpu_supports()) continue;
    const std::string name = "mlkem768-xof/shake128x4-kernel:" + std::string(kernel->name);
    benchmark::RegisterBenchmark(name.c_str(), mlkem_x4_kernel, kernel);
  }
}
