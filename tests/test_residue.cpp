// What was hashed does not linger in memory the library wrote. After a hash completes (a
// digest, the end of squeezing, reset(), a hasher's destruction, a one-shot call, a C API
// call), no lane of any state the message's permutations went through may be left on the
// dead stack below the caller: not in a kernel's frame, not in the portable code's compiler
// spills, not in the sponge's own locals. Registered once per kernel (SPONGE_KERNEL), so
// every kernel's frames are covered.
//
// How: a model of the sponge on the portable rounds lists every state at every round
// boundary of every permutation (the permutation's input included, which for the first
// block is the message itself). Lanes that do not depend on the secret (the same for a
// second secret of the same length: zero capacity lanes, padding) and lanes the caller
// receives whole as output are dropped. The scenario runs once to bind symbols, the stack
// below the caller is painted, the scenario runs again one call deeper, and the painted
// region is copied out and searched at every byte offset.
#include <sponge/sponge.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>

#if !defined(_WIN32)
#include <dlfcn.h>
#endif

#include "ascon/ascon_kernel.hpp"
#include "ascon/ascon_modes.hpp"
#include "ascon/ascon_portable.hpp"
#include "batch/batch_hash.hpp"
#include "doctest/doctest.h"
#include "keccak/keccak_kernel.hpp"
#include "support/ascon_residue_model.hpp"
#include "support/residue_model.hpp"
#include "support/test_support.hpp"
#include "support/wipe.hpp"
#include "tree/leaf_hashing.hpp"

namespace {

using sponge_test::Bytes;
using namespace sponge_test::residue;

// How far below the caller the scan looks, and how much is painted first (more than the
// scan, so the painting function's own frame lies outside the scanned region).
constexpr std::size_t kScanBytes = 32 * 1024;
constexpr std::size_t kPaintBytes = kScanBytes + 4096;
// The scenario runs this far below the caller, so the scanning function's frame (which
// also starts at the caller's stack pointer) overwrites only this padding, never what the
// scenario left.
constexpr std::size_t kScenarioDepth = 2048;

// The stack pointer of the calling function.
#if defined(__x86_64__)
#define SPONGE_TEST_READ_SP(sp) __asm__ volatile("mov %%rsp, %0" : "=r"(sp))
#elif defined(__aarch64__)
#define SPONGE_TEST_READ_SP(sp) __asm__ volatile("mov %0, sp" : "=r"(sp))
#elif defined(__riscv) && __riscv_xlen == 64
#define SPONGE_TEST_READ_SP(sp) __asm__ volatile("mv %0, sp" : "=r"(sp))
#else
#error "the residue test reads the stack pointer of x86-64, AArch64 or RV64 only"
#endif

// Overwrites the stack below the caller with a pattern, so what is found later was written
// by the scenario and not by an earlier test. Not instrumented, so the array is the whole
// frame: under ASan an instrumented frame puts its header and redzones above the array,
// and at -O1 that left about 200 bytes unpainted, where the binding run's resolver had
// saved registers holding lanes of the test's own model. (Stores below the stack pointer
// would not do: at -O0 a leaf function keeps its own locals there, in the red zone.)
[[gnu::noinline, gnu::no_sanitize_address, gnu::no_sanitize_undefined]] void paint_stack() {
  unsigned char area[kPaintBytes];
  volatile unsigned char* painted = area;
  for (std::size_t i = 0; i < kPaintBytes; ++i)
    painted[i] = 0xA5;
}

// Runs `scenario` `Depth` bytes below the caller.
template <std::size_t Depth>
[[gnu::noinline]] void run_deeper_by(const std::function<void()>& scenario) {
  unsigned char padding[Depth];
  std::memset(padding, 0, sizeof padding);
  __asm__ volatile("" : : "r"(padding) : "memory");
  scenario();
  __asm__ volatile("" : : "r"(padding) : "memory");
}

// Runs `scenario` kScenarioDepth bytes below the caller.
void run_deeper(const std::function<void()>& scenario) {
  run_deeper_by<kScenarioDepth>(scenario);
}

// Copies the kScanBytes below this function's own stack pointer into `copy` with plain
// loads and no calls, so nothing overwrites the region while it is read. Not instrumented:
// the region is dead stack, which a sanitizer may still consider a redzone.
[[gnu::noinline, gnu::no_sanitize_address, gnu::no_sanitize_undefined]] void copy_dead_stack(
    std::uint8_t* copy) {
  std::uintptr_t sp;
  SPONGE_TEST_READ_SP(sp);
  const volatile std::uint8_t* below = reinterpret_cast<const volatile std::uint8_t*>(sp);
  for (std::size_t i = 0; i < kScanBytes; ++i)
    copy[i] = below[-static_cast<std::ptrdiff_t>(kScanBytes) + static_cast<std::ptrdiff_t>(i)];
}

#if !defined(_WIN32)
// Zeroes every caller-saved register, vector registers whole, so that what a signal frame or
// the resolver saves of them afterwards was written after this call: the test's own model
// (sorting its table of lanes) leaves copies of its records in registers that neither the
// library nor libc touch later.
[[gnu::noinline]] void clear_test_registers() {
  sponge::detail::clear_caller_saved_registers();
}

// The first call through a PLT entry not yet bound: the dynamic linker's resolver saves the
// registers that may carry arguments (on x86-64 all vector registers, with xsave; on arm64
// x0-x8 and q0-q7) on the stack below the caller, where nobody wipes them. Right after a hash,
// they hold whatever the library's last code left. Lazy binding is the default, and the
// library's own calls into libc after a hash are such calls the first time; the module below
// is loaded afresh for each scan, so its one call is always unbound.
class LazyBindingModule {
 public:
  LazyBindingModule() = default;
  LazyBindingModule(const LazyBindingModule&) = delete;
  LazyBindingModule& operator=(const LazyBindingModule&) = delete;
  ~LazyBindingModule() { unload(); }

  // Loads the module again (unloading it first), so that its PLT entry is unbound.
  void reload() {
    unload();
    handle_ = dlopen(SPONGE_TEST_LAZY_BINDING_MODULE, RTLD_LAZY | RTLD_LOCAL);
    REQUIRE_MESSAGE(handle_ != nullptr, dlerror());
    void* symbol = dlsym(handle_, "lazy_binding_call");
    REQUIRE_MESSAGE(symbol != nullptr, dlerror());
    call_ = reinterpret_cast<void (*)()>(symbol);
  }
  void call() const { call_(); }

 private:
  void unload() {
    if (handle_ != nullptr) dlclose(handle_);
    handle_ = nullptr;
  }
  void* handle_ = nullptr;
  void (*call_)() = nullptr;
};

bool lazy_binding_in_effect() {
  const char* bind_now = std::getenv("LD_BIND_NOW");
  return bind_now == nullptr || *bind_now == '\0';
}

// How many times residue_of_lanes runs its scenario (the signal scan counts its signals).
int scenario_runs() {
  return lazy_binding_in_effect() ? 3 : 2;
}

#endif  // !defined(_WIN32)

// Appends the lanes of `lanes` found in `memory` to `findings`. Out of line, as is every
// function that reads the test's table of lanes (find_lanes, the models), because of the
// registers a function must preserve (x86-64 rbx, rbp, r12-r15; arm64 x19-x29, d8-d15):
// one of them that a live frame's own code last loaded a lane into keeps it through every
// later call, and each function that saves it in its prologue (the library's, the dynamic
// linker's resolver) writes the test's lane below, where the scan finds it as the library's.
// Inlined here, the scan of `extra` left the last lane it compared in residue_of_lanes' r13
// through the lazily bound pass, which found it 3-5 times; an out-of-line function's epilogue
// restores its caller's values, so no frame that stays live across a scenario holds a lane.
[[gnu::noinline]] void add_lanes_found(std::vector<Finding>& findings,
                                       std::span<const std::uint8_t> memory,
                                       const std::vector<TrajectoryLane>& lanes,
                                       const char* where) {
  for (Finding finding : find_lanes(memory, lanes)) {
    finding.where = where;
    findings.push_back(finding);
  }
}

// Runs `scenario` on `secret` below a painted stack and returns the secret lanes left in
// the dead stack, and in `extra` (memory the test owns that the scenario wrote, e.g. a
// hasher that outlives it). Where binding is lazy, the scenario runs once more, followed by
// the first call through an unbound PLT entry, and the stack is scanned again: what the
// library left in registers is then on the stack too.
std::vector<Finding> residue_of_lanes(const std::vector<TrajectoryLane>& lanes,
                                      const std::function<void()>& scenario,
                                      std::span<const std::uint8_t> extra = {}) {
  std::vector<std::uint8_t> dead_stack(kScanBytes);
  // A first run binds the library's symbols: the dynamic linker's lazy-binding trampoline
  // saves the vector registers on the stack, and they still hold lanes the model above
  // computed, which the library never wrote.
  scenario();
  paint_stack();
  run_deeper(scenario);
  copy_dead_stack(dead_stack.data());
  std::vector<Finding> findings;
  add_lanes_found(findings, dead_stack, lanes, "on the dead stack");
  add_lanes_found(findings, extra, lanes, "on the dead stack");
#if !defined(_WIN32)
  if (lazy_binding_in_effect()) {
    LazyBindingModule module;
    module.reload();
    module.call();
    paint_stack();
    run_deeper([&] {
      module.reload();
      clear_test_registers();
      scenario();
      module.call();
    });
    copy_dead_stack(dead_stack.data());
    add_lanes_found(findings, dead_stack, lanes, "on the stack after a lazily bound call");
  }
#endif
  return findings;
}

std::vector<Finding> residue_after(const Model& model, const Bytes& secret,
                                   const std::function<void()>& scenario,
                                   std::span<const std::uint8_t> extra = {}) {
  const std::vector<TrajectoryLane> lanes = secret_lanes(model, secret);
  REQUIRE(lanes.size() > 25 * 12);
  return residue_of_lanes(lanes, scenario, extra);
}

void check_no_residue(const char* scenario_name, const std::vector<Finding>& findings) {
  // One line per scenario and kernel, so a run shows the counts (and the closing note of
  // the hardening issue quotes them).
  std::printf("residue: %-42s kernel %-11s %zu secret lanes found\n", scenario_name,
              std::string(sponge::active_kernel()).c_str(), findings.size());
  INFO(std::string(scenario_name) << " left secret lanes on the dead stack:\n"
                                  << describe(findings));
  CHECK(findings.empty());
}

Bytes make_secret(std::size_t rate_bytes) {
  // Two full blocks (the absorb entries) and a partial one (the permute entry).
  sponge_test::Rng rng(0x5EC2E7 + rate_bytes);
  return rng.bytes(2 * rate_bytes + 50);
}

}  // namespace

TEST_CASE("residue: nothing of a hashed secret is left on the stack") {
  SUBCASE("Sha3_256 update, digest, destruction") {
    const SpongeParameters parameters{136, 0x06, 32};
    const Bytes secret = make_secret(parameters.rate_bytes);
    std::array<std::uint8_t, 32> digest{};
    const auto findings = residue_after(plain_sponge(parameters), secret, [&] {
      sponge::Sha3_256 hash;
      hash.update(std::span(secret).first(100));
      hash.update(std::span(secret).subspan(100));
      digest = hash.digest();
    });
    CHECK(sponge_test::to_bytes(digest) == sponge_test::to_bytes(sponge::sha3_256(secret)));
    check_no_residue("Sha3_256 update, digest, destruction", findings);
  }
  SUBCASE("Shake128 squeezed across blocks, destruction") {
    const SpongeParameters parameters{168, 0x1F, 400};
    const Bytes secret = make_secret(parameters.rate_bytes);
    Bytes output(parameters.output_bytes);
    const auto findings = residue_after(plain_sponge(parameters), secret, [&] {
      sponge::Shake128 xof;
      xof.update(secret);
      xof.squeeze(std::span(output).first(150));
      xof.squeeze(std::span(output).subspan(150));
    });
    check_no_residue("Shake128 squeeze in pieces, destruction", findings);
  }
  SUBCASE("Keccak256 digest then reset(): the hasher lives on") {
    const SpongeParameters parameters{136, 0x01, 32};
    const Bytes secret = make_secret(parameters.rate_bytes);
    alignas(sponge::Keccak256) std::uint8_t storage[sizeof(sponge::Keccak256)];
    auto* hash = new (storage) sponge::Keccak256();
    const auto findings = residue_after(
        plain_sponge(parameters), secret,
        [&] {
          hash->update(secret);
          (void)hash->digest();
          hash->reset();
        },
        std::span<const std::uint8_t>(storage));
    CHECK(sponge_test::to_bytes(hash->update(std::string_view("abc")).digest()) ==
          sponge_test::to_bytes(sponge::keccak256(std::string_view("abc"))));
    std::destroy_at(hash);
    check_no_residue("Keccak256 digest, reset (hasher kept)", findings);
  }
  SUBCASE("one-shot sha3_512") {
    const SpongeParameters parameters{72, 0x06, 64};
    const Bytes secret = make_secret(parameters.rate_bytes);
    const auto findings =
        residue_after(plain_sponge(parameters), secret, [&] { (void)sponge::sha3_512(secret); });
    check_no_residue("one-shot sha3_512", findings);
  }
  SUBCASE("one-shot shake256, three blocks of output") {
    const SpongeParameters parameters{136, 0x1F, 300};
    const Bytes secret = make_secret(parameters.rate_bytes);
    Bytes output(parameters.output_bytes);
    const auto findings =
        residue_after(plain_sponge(parameters), secret, [&] { sponge::shake256(secret, output); });
    check_no_residue("one-shot shake256", findings);
  }
  SUBCASE("C API sponge_sha3_384") {
    const SpongeParameters parameters{104, 0x06, 48};
    const Bytes secret = make_secret(parameters.rate_bytes);
    std::uint8_t digest[SPONGE_SHA3_384_BYTES];
    const auto findings = residue_after(plain_sponge(parameters), secret, [&] {
      REQUIRE(sponge_sha3_384(secret.data(), secret.size(), digest) == SPONGE_OK);
    });
    check_no_residue("C API sponge_sha3_384", findings);
  }
  SUBCASE("Keccak-p[1600, 12] entries: two absorb168 blocks, a padded block, permute") {
    // The 12-round entries called as a sponge would (the runtime's TurboSHAKE shape), so
    // their frames are scanned on every kernel.
    const SpongeParameters parameters{168, 0x1F, 32};
    const Bytes secret = make_secret(parameters.rate_bytes);
    std::array<std::uint64_t, 4> output{};
    const auto findings = residue_after(plain_sponge(parameters, 12), secret, [&] {
      const sponge::detail::KeccakKernel& kernel = sponge::detail::active_keccak_kernel();
      std::uint64_t state[25] = {};
      std::size_t offset = 0;
      for (; secret.size() - offset >= parameters.rate_bytes; offset += parameters.rate_bytes)
        kernel.absorb_for(parameters.rate_bytes, 12)(state, secret.data() + offset);
      const auto xor_byte = [&](std::size_t position, std::uint8_t byte) {
        state[position / 8] ^= std::uint64_t{byte} << (8 * (position % 8));
      };
      for (std::size_t i = offset; i < secret.size(); ++i)
        xor_byte(i - offset, secret[i]);
      xor_byte(secret.size() - offset, parameters.domain_byte);
      xor_byte(parameters.rate_bytes - 1, 0x80);
      kernel.permute_for(12)(state);
      std::copy_n(state, output.size(), output.begin());
      // The test's own copy of the state is not the kernels' concern: clear it, and the
      // registers the test's code read it through, as a caller of the entries does.
      sponge::detail::wipe_words(state);
    });
    // The same sponge is TurboSHAKE128 with domain byte 0x1F.
    std::array<std::uint8_t, 32> expected{};
    sponge::turboshake128(secret, expected, parameters.domain_byte);
    CHECK(std::memcmp(output.data(), expected.data(), expected.size()) == 0);
    check_no_residue("Keccak-p[1600,12] absorb168 and permute", findings);
  }
  SUBCASE("Sha3_224: a digest lane that is only half output stays secret") {
    const SpongeParameters parameters{144, 0x06, 28};
    const Bytes secret = make_secret(parameters.rate_bytes);
    const auto findings =
        residue_after(plain_sponge(parameters), secret, [&] { (void)sponge::sha3_224(secret); });
    check_no_residue("one-shot sha3_224", findings);
  }
}

namespace {

// A batch of messages cut from the secret at `lengths` (which sum to its size), each hashed
// with one plain sponge: the lanes of every message's states are secret.
Model batch_of_sponges(const SpongeParameters& parameters, std::vector<std::size_t> lengths) {
  return [parameters, lengths](const Bytes& secret) {
    std::vector<SpongeRun> runs;
    std::size_t offset = 0;
    for (const std::size_t length : lengths) {
      runs.push_back({parameters.rate_bytes, parameters.domain_byte, 24,
                      Bytes(secret.begin() + static_cast<std::ptrdiff_t>(offset),
                            secret.begin() + static_cast<std::ptrdiff_t>(offset + length)),
                      parameters.output_bytes});
      offset += length;
    }
    return runs;
  };
}

}  // namespace

// The batch functions: through the public C++ and C functions (the active batch kernel), and
// the scheduler on every batch kernel this CPU runs, so the interleaved states, the padded
// final blocks and the single-state finish are all scanned.
TEST_CASE("residue: batch hashing leaves nothing of the messages on the stack") {
  for (const SpongeParameters& parameters :
       {SpongeParameters{136, 0x01, 32}, SpongeParameters{144, 0x06, 28},
        SpongeParameters{72, 0x06, 64}}) {
    const std::size_t rate = parameters.rate_bytes;
    // Seven messages: more than four slots, lockstep runs, partial and empty final blocks,
    // and one long message left alone at the end (the single-state finish).
    const std::vector<std::size_t> lengths = {2 * rate + 50, 10,       rate,        3 * rate + 7,
                                              rate - 1,      rate + 1, 6 * rate + 3};
    std::size_t total = 0;
    for (const std::size_t length : lengths)
      total += length;
    const Bytes secret = sponge_test::Rng(0xBA7C + rate).bytes(total);
    std::vector<std::span<const std::uint8_t>> messages;
    std::vector<const std::uint8_t*> pointers;
    std::size_t offset = 0;
    for (const std::size_t length : lengths) {
      messages.push_back(std::span(secret).subspan(offset, length));
      pointers.push_back(secret.data() + offset);
      offset += length;
    }
    const Model model = batch_of_sponges(parameters, lengths);
    const sponge::detail::BatchHashFunction function{rate, parameters.domain_byte,
                                                     parameters.output_bytes, 24};
    Bytes digests(lengths.size() * parameters.output_bytes);
    const std::string rate_name = " rate " + std::to_string(rate);

    for (const sponge::detail::KeccakBatchKernel* kernel :
         sponge::detail::compiled_batch_kernels()) {
      if (!kernel->cpu_supports()) continue;
      const auto findings = residue_after(model, secret, [&] {
        sponge::detail::hash_batch(*kernel, function, sponge::detail::BatchMessages(messages),
                                   digests.data());
      });
      CHECK(sponge_test::to_bytes(
                std::array<std::uint8_t, 1>{digests[parameters.output_bytes * 6]}) ==
            Bytes{sponge_trajectory(model(secret)[6]).output[0]});
      check_no_residue(("batch on " + std::string(kernel->name) + rate_name).c_str(), findings);
    }
    if (rate == 136) {
      std::vector<std::array<std::uint8_t, 32>> out(lengths.size());
      check_no_residue(
          ("keccak256_batch (" +
           std::string(sponge::active_kernel(sponge::KernelFamily::keccak_p1600_batch)) + ")")
              .c_str(),
          residue_after(model, secret, [&] { sponge::keccak256_batch(messages, out); }));
      CHECK(out[3] == sponge::keccak256(messages[3]));
    }
    if (rate == 72) {
      check_no_residue(
          "C API sponge_sha3_512_batch", residue_after(model, secret, [&] {
            REQUIRE(sponge_sha3_512_batch(pointers.data(), lengths.data(), lengths.size(),
                                          reinterpret_cast<std::uint8_t(*)[64]>(digests.data())) ==
                    SPONGE_OK);
          }));
    }
  }
}

// The four-stream SHAKE classes: an equal-length update (lockstep through the batch kernel),
// an unequal one (streams permuted alone on the single-state kernel), squeezes across block
// boundaries, destruction; on every batch kernel this CPU runs, and through the C API (clear).
// The object lives in storage the test owns, which is scanned too once it is destroyed.
TEST_CASE("residue: Shake128x4 and Shake256x4 leave nothing on the stack or in the object") {
  for (const std::size_t rate : {std::size_t{168}, std::size_t{136}}) {
    const std::size_t equal_length = 2 * rate + 50;
    std::vector<std::size_t> lengths;
    for (std::size_t s = 0; s < 4; ++s)
      lengths.push_back(equal_length + 10 + 60 * s);
    std::size_t total = 0;
    for (const std::size_t length : lengths)
      total += length;
    const Bytes secret = sponge_test::Rng(0x54A4E + rate).bytes(total);
    const SpongeParameters parameters{rate, 0x1F, 400};
    const Model model = batch_of_sponges(parameters, lengths);
    std::array<std::span<const std::uint8_t>, 4> first, second;
    std::size_t offset = 0;
    for (std::size_t s = 0; s < 4; ++s) {
      first[s] = std::span(secret).subspan(offset, equal_length);
      second[s] = std::span(secret).subspan(offset + equal_length, lengths[s] - equal_length);
      offset += lengths[s];
    }
    std::array<Bytes, 4> out;
    for (Bytes& stream : out)
      stream.assign(parameters.output_bytes, 0);
    const auto run = [&](auto& x4) {
      x4.update(first);
      x4.update(second);
      x4.squeeze({std::span(out[0]).first(150), std::span(out[1]).first(150),
                  std::span(out[2]).first(150), std::span(out[3]).first(150)});
      x4.squeeze({std::span(out[0]).subspan(150), std::span(out[1]).subspan(150),
                  std::span(out[2]).subspan(150), std::span(out[3]).subspan(150)});
    };
    const std::string rate_name = " rate " + std::to_string(rate);
    for (const sponge::detail::KeccakBatchKernel* kernel :
         sponge::detail::compiled_batch_kernels()) {
      if (!kernel->cpu_supports()) continue;
      alignas(sponge::Shake128x4) std::uint8_t storage[sizeof(sponge::Shake128x4)] = {};
      const auto findings = residue_after(
          model, secret,
          [&] {
            if (rate == 168) {
              auto* x4 = new (storage) sponge::Shake128x4(*kernel);
              run(*x4);
              std::destroy_at(x4);
            } else {
              auto* x4 = new (storage) sponge::Shake256x4(*kernel);
              run(*x4);
              std::destroy_at(x4);
            }
            __asm__ volatile("" : : "r"(storage) : "memory");
          },
          std::span<const std::uint8_t>(storage));
      Bytes expected(parameters.output_bytes);
      if (rate == 168) {
        sponge::shake128(std::span(secret).first(lengths[0]), expected);
      } else {
        sponge::shake256(std::span(secret).first(lengths[0]), expected);
      }
      CHECK(out[0] == expected);
      // Every byte of the destroyed object is zero: states, positions, kernel pointer.
      const volatile std::uint8_t* left = storage;
      std::size_t nonzero = 0;
      for (std::size_t i = 0; i < sizeof storage; ++i)
        nonzero += left[i] != 0;
      CHECK(nonzero == 0);
      check_no_residue(("ShakeX4 on " + std::string(kernel->name) + rate_name).c_str(), findings);
    }
    if (rate == 168) {
      // The C API takes one length for all four inputs: four messages of equal_length + 10
      // bytes, absorbed in two calls.
      const std::size_t c_length = equal_length + 10;
      const Bytes c_secret = sponge_test::Rng(0xC54A4).bytes(4 * c_length);
      sponge_shake128_x4 state;
      const auto findings = residue_after(
          batch_of_sponges(parameters, {c_length, c_length, c_length, c_length}), c_secret,
          [&] {
            const std::uint8_t* inputs[4];
            std::uint8_t* outputs[4];
            for (std::size_t s = 0; s < 4; ++s) {
              inputs[s] = c_secret.data() + s * c_length;
              outputs[s] = out[s].data();
            }
            REQUIRE(sponge_shake128_x4_init(&state) == SPONGE_OK);
            REQUIRE(sponge_shake128_x4_absorb(&state, inputs, equal_length) == SPONGE_OK);
            for (std::size_t s = 0; s < 4; ++s)
              inputs[s] += equal_length;
            REQUIRE(sponge_shake128_x4_absorb(&state, inputs, 10) == SPONGE_OK);
            REQUIRE(sponge_shake128_x4_squeeze(&state, outputs, 400) == SPONGE_OK);
            REQUIRE(sponge_shake128_x4_clear(&state) == SPONGE_OK);
          },
          std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(&state),
                                        sizeof state));
      Bytes expected(parameters.output_bytes);
      sponge::shake128(std::span(c_secret).subspan(3 * c_length), expected);
      CHECK(out[3] == expected);
      check_no_residue("C API sponge_shake128_x4, clear", findings);
    }
  }
}

namespace {}  // namespace

// Every function of RFC 9861 and SP 800-185, through its class (destroyed inside the
// scenario), its one-shot function or its C function. KMAC's secret is the key.
TEST_CASE("residue: RFC 9861 and SP 800-185 functions leave nothing of a secret on the stack") {
  const Bytes customization = text_bytes("residue test");
  const Bytes public_message = text_bytes("a public message, longer than nothing");
  const auto secret_of = [](std::size_t bytes) {
    return sponge_test::Rng(0x5EC2E7 + bytes).bytes(bytes);
  };
  Bytes output(300);
  const std::span<std::uint8_t> out(output);
  // The scenario must produce what the model's last sponge outputs: a model that framed the
  // input differently from the library would find no lanes and prove nothing.
  const auto check = [&](const char* name, const Model& model, const Bytes& secret,
                         const std::function<void()>& scenario) {
    const auto findings = residue_after(model, secret, scenario);
    const SpongeRun last = model(secret).back();
    CHECK(sponge_test::to_hex(std::span(output).first(last.output_bytes)) ==
          sponge_test::to_hex(sponge_trajectory(last).output));
    check_no_residue(name, findings);
  };

  const Bytes turbo_secret = secret_of(2 * 168 + 50);
  check("TurboShake128 D=0B, squeeze in pieces", plain_sponge({168, 0x0B, 300}, 12), turbo_secret,
        [&] {
          sponge::TurboShake128 xof(0x0B);
          xof.update(turbo_secret);
          xof.squeeze(out.first(100));
          xof.squeeze(out.subspan(100));
        });
  check("one-shot turboshake256", plain_sponge({136, 0x1F, 300}, 12), turbo_secret,
        [&] { sponge::turboshake256(turbo_secret, out); });

  // Past one chunk: a leaf whose chaining value stays inside, and a partly filled one.
  const Bytes tree_secret = secret_of(8192 + 8192 + 400);
  check("one-shot kt128, two leaves", kangarootwelve(168, 32, customization, 300), tree_secret,
        [&] { sponge::kt128(tree_secret, customization, out); });
  check("Kt256 streamed, two leaves", kangarootwelve(136, 64, customization, 300), tree_secret,
        [&] {
          sponge::Kt256 xof(customization);
          xof.update(std::span(tree_secret).first(9000));
          xof.update(std::span(tree_secret).subspan(9000));
          xof.squeeze(out.first(10));
          xof.squeeze(out.subspan(10));
        });

  // Five whole leaves in one update: on a multi-state batch kernel a lockstep group (the
  // interleaved states, the padded final blocks, the chaining values' buffer), the rest on the
  // single-state path.
  const Bytes leaves_secret = secret_of(6 * 8192 + 400);
  check("one-shot kt128, six leaves (batch path)", kangarootwelve(168, 32, customization, 300),
        leaves_secret, [&] { sponge::kt128(leaves_secret, customization, out); });

  // The threaded form: 257 leaves (a second thread starts at 256), 2 threads, each hashing a run;
  // the caller's stack here, the worker's below ("threads' stacks").
  const Bytes threaded_secret = secret_of(258 * 8192 + 400);
  check("kt128_parallel, 257 leaves on 2 threads", kangarootwelve(168, 32, customization, 300),
        threaded_secret, [&] {
          sponge::kt128_parallel(threaded_secret, customization, out,
                                 sponge_test::kThreadsRun ? 2 : 1);
        });

  const Bytes sp_secret = secret_of(2 * 168 + 50);
  check(
      "one-shot cshake128",
      [&](const Bytes& secret) {
        return std::vector<SpongeRun>{cshake_run(168, "name", customization, secret, 300)};
      },
      sp_secret, [&] { sponge::cshake128(sp_secret, text_bytes("name"), customization, out); });
  check(
      "Cshake256 class",
      [&](const Bytes& secret) {
        return std::vector<SpongeRun>{cshake_run(136, "name", customization, secret, 300)};
      },
      sp_secret,
      [&] {
        sponge::Cshake256 xof(text_bytes("name"), customization);
        xof.update(sp_secret);
        xof.squeeze(out);
      });

  const Bytes key = secret_of(2 * 168 + 50);  // a key longer than a block: two key blocks
  check("Kmac128 class, key secret", kmac(128, false, public_message, customization, 64), key, [&] {
    sponge::Kmac128 mac(key, customization);
    mac.update(public_message);
    mac.digest(out.first(64));
  });
  check("C API sponge_kmac256, key secret", kmac(256, false, public_message, customization, 64),
        key, [&] {
          REQUIRE(sponge_kmac256(key.data(), key.size(), public_message.data(),
                                 public_message.size(), customization.data(), customization.size(),
                                 output.data(), 64) == SPONGE_OK);
        });
  check("KmacXof128 class, key secret", kmac(128, true, public_message, customization, 300), key,
        [&] {
          sponge::KmacXof128 mac(key, customization);
          mac.update(public_message);
          mac.squeeze(out.first(7));
          mac.squeeze(out.subspan(7));
        });
  check("one-shot kmacxof256, key secret", kmac(256, true, public_message, {}, 300), key,
        [&] { sponge::kmacxof256(key, public_message, {}, out); });

  const auto halves = [&](const Bytes& secret) {
    return std::array<std::span<const std::uint8_t>, 2>{
        std::span(secret).first(secret.size() / 2), std::span(secret).subspan(secret.size() / 2)};
  };
  check("one-shot tuplehash128", tuplehash(128, false, customization, 300), sp_secret,
        [&] { sponge::tuplehash128(halves(sp_secret), customization, out); });
  check("TupleHash256 class", tuplehash(256, false, {}, 64), sp_secret, [&] {
    sponge::TupleHash256 tuple;
    for (const auto element : halves(sp_secret))
      tuple.add(element);
    tuple.digest(out.first(64));
  });
  check("TupleHashXof128 class", tuplehash(128, true, customization, 300), sp_secret, [&] {
    sponge::TupleHashXof128 tuple(customization);
    for (const auto element : halves(sp_secret))
      tuple.add(element);
    tuple.squeeze(out);
  });
  check("C API sponge_tuplehashxof256", tuplehash(256, true, customization, 300), sp_secret, [&] {
    const auto elements = halves(sp_secret);
    const std::uint8_t* parts[2] = {elements[0].data(), elements[1].data()};
    const std::size_t lengths[2] = {elements[0].size(), elements[1].size()};
    REQUIRE(sponge_tuplehashxof256(parts, lengths, 2, customization.data(), customization.size(),
                                   output.data(), output.size()) == SPONGE_OK);
  });

  // B = 200: leaves longer than a block of either rate, and a short last one.
  check("one-shot parallelhash128", parallelhash(128, false, 200, customization, 300), sp_secret,
        [&] { sponge::parallelhash128(sp_secret, 200, customization, out); });
  check("ParallelHash256 class", parallelhash(256, false, 200, {}, 64), sp_secret, [&] {
    sponge::ParallelHash256 hash(200);
    hash.update(std::span(sp_secret).first(250));
    hash.update(std::span(sp_secret).subspan(250));
    hash.digest(out.first(64));
  });
  const Bytes parallel_secret = secret_of(9 * 200 + 50);  // nine whole leaves: the batch path
  check("one-shot parallelhash256, ten leaves", parallelhash(256, false, 200, customization, 64),
        parallel_secret,
        [&] { sponge::parallelhash256(parallel_secret, 200, customization, out.first(64)); });
  check("ParallelHashXof128 class", parallelhash(128, true, 200, customization, 300), sp_secret,
        [&] {
          sponge::ParallelHashXof128 hash(200, customization);
          hash.update(sp_secret);
          hash.squeeze(out);
        });
  check("C API sponge_parallelhashxof256", parallelhash(256, true, 200, customization, 300),
        sp_secret, [&] {
          REQUIRE(sponge_parallelhashxof256(sp_secret.data(), sp_secret.size(), 200,
                                            customization.data(), customization.size(),
                                            output.data(), output.size()) == SPONGE_OK);
        });
}

// The tree modes' whole leaves on every batch kernel this CPU runs, called directly (the
// public functions above use the active one): five KT128 leaves, so a multi-state kernel
// hashes a lockstep group and the single-state path the rest. The chaining values are secret
// (in KT they never leave the library); the test's copy of them is on the heap.
TEST_CASE("residue: KT128 leaves on every batch kernel leave nothing on the stack") {
  constexpr std::size_t kLeaves = 5, kChunk = 8192;
  const Bytes secret = sponge_test::Rng(0x1EAF5).bytes(kLeaves * kChunk);
  const Model model = [](const Bytes& leaves) {
    std::vector<SpongeRun> runs;
    for (std::size_t i = 0; i < kLeaves; ++i) {
      runs.push_back({168, 0x0B, 12,
                      Bytes(leaves.begin() + static_cast<std::ptrdiff_t>(i * kChunk),
                            leaves.begin() + static_cast<std::ptrdiff_t>((i + 1) * kChunk)),
                      32, false});
    }
    return runs;
  };
  Bytes chaining_values(kLeaves * 32);
  for (const sponge::detail::KeccakBatchKernel* kernel : sponge::detail::compiled_batch_kernels()) {
    if (!kernel->cpu_supports()) continue;
    const auto findings = residue_after(model, secret, [&] {
      sponge::detail::KeccakSponge leaf(168, 0x0B, 12);
      std::size_t written = 0;
      sponge::detail::hash_whole_leaves(
          *kernel, leaf, secret.data(), kChunk, kLeaves, 32,
          [&](std::span<const std::uint8_t> chaining_value) {
            std::copy(chaining_value.begin(), chaining_value.end(),
                      chaining_values.begin() + static_cast<std::ptrdiff_t>(written));
            written += chaining_value.size();
          });
    });
    CHECK(sponge_test::to_hex(std::span(chaining_values).last(32)) ==
          sponge_test::to_hex(sponge_trajectory(model(secret).back()).output));
    check_no_residue(("KT128 leaves on " + std::string(kernel->name)).c_str(), findings);
  }
}

TEST_CASE("residue: the test finds lanes a kernel leaves behind (control)") {
  // A copy of a mid-permutation state written to the dead stack by a function of the test
  // must be found: the scan sees the region the library's frames use.
  const SpongeParameters parameters{136, 0x06, 32};
  const Bytes secret = make_secret(parameters.rate_bytes);
  const auto findings = residue_after(plain_sponge(parameters), secret, [&] {
    std::uint64_t leaked[25] = {};
    for (std::size_t i = 0; i < 8 * 17; ++i)
      leaked[i / 8] ^= std::uint64_t{secret[i]} << (8 * (i % 8));
    sponge::detail::keccak_p1600_rounds_portable(leaked, 0, 7);
    __asm__ volatile("" : : "r"(leaked) : "memory");
  });
  CHECK(findings.size() >= 25);
}

#if !defined(_WIN32)
// Windows has no POSIX signals: its exception frames are another route, not scanned here.
// A signal delivered on this stack: the kernel (the operating system's) saves every register,
// vector registers included, in the signal frame below the interrupted code's stack pointer,
// where nobody wipes it. Right after a hash, that frame holds whatever the library's last
// code left in registers.
volatile std::sig_atomic_t g_signals_delivered = 0;
extern "C" void count_signal(int) {
  g_signals_delivered = g_signals_delivered + 1;
}

// Runs `scenario` with a SIGUSR1 handler on the same stack and returns the secret lanes found
// and how many signals were delivered.
std::pair<std::vector<Finding>, int> residue_with_signal(const std::vector<TrajectoryLane>& lanes,
                                                         const std::function<void()>& scenario) {
  struct sigaction action {};
  struct sigaction previous {};
  action.sa_handler = count_signal;
  sigemptyset(&action.sa_mask);
  REQUIRE(sigaction(SIGUSR1, &action, &previous) == 0);
  const int before = g_signals_delivered;
  const std::vector<Finding> findings = residue_of_lanes(lanes, [&] {
    clear_test_registers();
    scenario();
    std::raise(SIGUSR1);
  });
  const int delivered = g_signals_delivered - before;
  REQUIRE(sigaction(SIGUSR1, &previous, nullptr) == 0);
  return {findings, delivered};
}

TEST_CASE("residue: a signal right after a hash finds no secret lane in the registers") {
  const SpongeParameters parameters{136, 0x06, 32};
  const Bytes secret = make_secret(parameters.rate_bytes);
  const std::vector<TrajectoryLane> lanes = secret_lanes(plain_sponge(parameters), secret);
  SUBCASE("control: a lane put in a caller-saved vector register is found in the frame") {
    const std::uint64_t lane = lanes[lanes.size() / 2].value;
    const auto [findings, delivered] = residue_with_signal(lanes, [&] {
#if defined(__x86_64__)
      __asm__ volatile("movq %0, %%xmm15" : : "r"(lane) : "xmm15");
#elif defined(__riscv)
      __asm__ volatile("fmv.d.x ft11, %0" : : "r"(lane) : "ft11");
#else
      __asm__ volatile("fmov d16, %0" : : "r"(lane) : "v16");
#endif
    });
    CHECK(delivered == scenario_runs());
    CHECK(!findings.empty());
  }
  SUBCASE("SHA3-256 on the kernel's entries, the signal right after the last permutation") {
    // Two absorb136 blocks and the padded block's permute, on a state outside the stack
    // (it is not the kernel's to wipe), so the signal frame holds the registers as the
    // kernel's last entry left them, nearly untouched: what the scan finds is theirs.
    static std::uint64_t state[25];
    std::array<std::uint64_t, 4> output{};
    const auto [findings, delivered] = residue_with_signal(lanes, [&] {
      const sponge::detail::KeccakKernel& kernel = sponge::detail::active_keccak_kernel();
      std::fill(std::begin(state), std::end(state), 0);
      std::size_t offset = 0;
      for (; secret.size() - offset >= parameters.rate_bytes; offset += parameters.rate_bytes)
        kernel.absorb_for(parameters.rate_bytes)(state, secret.data() + offset);
      const auto xor_byte = [&](std::size_t position, std::uint8_t byte) {
        state[position / 8] ^= std::uint64_t{byte} << (8 * (position % 8));
      };
      for (std::size_t i = offset; i < secret.size(); ++i)
        xor_byte(i - offset, secret[i]);
      xor_byte(secret.size() - offset, parameters.domain_byte);
      xor_byte(parameters.rate_bytes - 1, 0x80);
      kernel.permute(state);
    });
    std::copy_n(state, output.size(), output.begin());
    sponge::detail::zero_words(state);
    CHECK(delivered == scenario_runs());
    const auto digest = sponge::sha3_256(secret);
    CHECK(std::memcmp(output.data(), digest.data(), digest.size()) == 0);
    check_no_residue("SHA3-256 on the kernel's entries, then a signal", findings);
  }
  SUBCASE("one-shot sha3_256") {
    std::array<std::uint8_t, 32> digest{};
    const auto [findings, delivered] =
        residue_with_signal(lanes, [&] { digest = sponge::sha3_256(secret); });
    CHECK(delivered == scenario_runs());
    CHECK(sponge_test::to_bytes(digest) == sponge_test::to_bytes(sponge::sha3_256(secret)));
    check_no_residue("one-shot sha3_256, then a signal", findings);
  }
}

TEST_CASE("residue: a lazily bound call saves registers on the stack; a 30-byte secret") {
  if (!lazy_binding_in_effect()) {
    MESSAGE("LD_BIND_NOW is set: no call is bound lazily, the scan is not run");
    return;
  }
  const SpongeParameters parameters{136, 0x06, 32};
  sponge_test::Rng rng(0x1A2B);
  const Bytes secret = rng.bytes(30);
  const std::vector<TrajectoryLane> lanes = secret_lanes(plain_sponge(parameters), secret);
  SUBCASE("control: a lane in an argument register reaches the stack through the resolver") {
    const std::uint64_t lane = lanes[lanes.size() / 2].value;
    LazyBindingModule module;
    const std::vector<Finding> findings = residue_of_lanes(lanes, [&] {
      module.reload();
      clear_test_registers();
#if defined(__x86_64__)
      __asm__ volatile("movq %0, %%xmm1" : : "r"(lane) : "xmm1");
#elif defined(__riscv)
      __asm__ volatile("fmv.d.x fa1, %0" : : "r"(lane) : "fa1");
#else
      __asm__ volatile("fmov d1, %0" : : "r"(lane) : "v1");
#endif
      module.call();
    });
    CHECK(!findings.empty());
  }
  SUBCASE("one-shot sha3_256 of a 30-byte secret") {
    std::array<std::uint8_t, 32> digest{};
    const std::vector<Finding> findings =
        residue_of_lanes(lanes, [&] { digest = sponge::sha3_256(secret); });
    CHECK(sponge_test::to_bytes(digest) == sponge_test::to_bytes(sponge::sha3_256(secret)));
    check_no_residue("one-shot sha3_256 of 30 B", findings);
  }
  SUBCASE("a Sha3_256 hasher of a 30-byte secret, digested and destroyed") {
    std::array<std::uint8_t, 32> digest{};
    const std::vector<Finding> findings = residue_of_lanes(lanes, [&] {
      sponge::Sha3_256 hasher;
      hasher.update(secret);
      digest = hasher.digest();
    });
    CHECK(sponge_test::to_bytes(digest) == sponge_test::to_bytes(sponge::sha3_256(secret)));
    check_no_residue("Sha3_256 hasher of 30 B", findings);
  }
}
#endif  // !defined(_WIN32)

#if !defined(_WIN32)
namespace {

// The dead stack of a thread started now: glibc gives a new thread the cached stack of one
// joined before it (of the same size), so what that thread left below its frames is read here.
std::vector<std::uint8_t> dead_stack_of_a_new_thread() {
  std::vector<std::uint8_t> dead(kScanBytes);
  std::thread([&] { copy_dead_stack(dead.data()); }).join();
  return dead;
}

}  // namespace

TEST_CASE("residue: the worker threads of kt128_parallel leave nothing on their stacks") {
  if (!sponge_test::kThreadsRun) {
    MESSAGE("not run: this program cannot start threads here (qemu-user)");
    return;
  }
  constexpr std::size_t kChunk = 8192;
  const Bytes customization = text_bytes("residue test");
  const Bytes secret = sponge_test::Rng(0x7EAD5).bytes(258 * kChunk + 400);
  const auto model = kangarootwelve(168, 32, customization, 32);
  const std::vector<TrajectoryLane> lanes = secret_lanes(model, secret);
  SUBCASE("control: lanes a finished thread left on its stack are found") {
    // The lanes are left 8 KiB down, where a worker's kernel frames would be, below what the
    // thread's exit and the next thread's start write near the top of the stack.
    std::thread([&] {
      run_deeper_by<8192>([&] {
        std::uint64_t leaked[25];
        for (std::size_t i = 0; i < 25; ++i)
          leaked[i] = lanes[lanes.size() / 2 + i].value;
        __asm__ volatile("" : : "r"(leaked) : "memory");
      });
    }).join();
    CHECK(find_lanes(dead_stack_of_a_new_thread(), lanes).size() >= 20);
  }
  SUBCASE("kt128_parallel on 2 threads") {
    // The stack the worker will get, painted first (the control's lanes are on it).
    std::thread(paint_stack).join();
    std::array<std::uint8_t, 32> out{};
    sponge::kt128_parallel(secret, customization, out, 2);
    CHECK(sponge_test::to_hex(out) ==
          sponge_test::to_hex(sponge_trajectory(model(secret).back()).output));
    const std::vector<std::uint8_t> dead = dead_stack_of_a_new_thread();
    // The worker ran on the painted stack: its frames overwrote the paint.
    CHECK(std::count_if(dead.begin(), dead.end(), [](std::uint8_t b) { return b != 0xA5; }) > 1024);
    std::vector<Finding> findings = find_lanes(dead, lanes);
    for (Finding& finding : findings)
      finding.where = "on a worker thread's stack";
    check_no_residue("kt128_parallel's worker stack", findings);
  }
}
#endif  // !defined(_WIN32)

// ---------------------------------------------------------------------------------------
// Ascon: the same scan, with a model of the SP 800-232 modes on the portable rounds. A lane
// is one of the five state words at a round boundary, or a key word.
// ---------------------------------------------------------------------------------------
namespace {

void check_no_ascon_residue(const char* scenario_name, const std::vector<Finding>& findings) {
  // A registration that forces an Ascon kernel names it, so a scan never passes on another.
  const char* expected = std::getenv("SPONGE_EXPECTED_ASCON_KERNEL");
  if (expected != nullptr)
    CHECK(sponge::active_kernel(sponge::KernelFamily::ascon_p320) == std::string_view(expected));
  std::printf("residue: %-42s ascon kernel %-11s %zu secret lanes found\n", scenario_name,
              std::string(sponge::active_kernel(sponge::KernelFamily::ascon_p320)).c_str(),
              findings.size());
  INFO(std::string(scenario_name) << " left secret Ascon words on the dead stack:\n"
                                  << describe(findings));
  CHECK(findings.empty());
}

}  // namespace

TEST_CASE("residue: Ascon hashing and AEAD leave no secret state or key word on the stack") {
  sponge_test::Rng rng(0xA5C0DE);
  const Bytes message = rng.bytes(8 * 9 + 5);  // full blocks (the multi-block entry) and a tail
  const Bytes nonce = rng.bytes(16), associated_data = rng.bytes(16 + 7);
  const Bytes aead_secret = rng.bytes(16 + 16 * 4 + 9);  // key || plaintext
  const std::span<const std::uint8_t> key = std::span(aead_secret).first(16);
  const std::span<const std::uint8_t> plaintext = std::span(aead_secret).subspan(16);

  SUBCASE("AsconHash256 update, digest, destruction") {
    const auto lanes = ascon_secret_lanes(
        ascon_hash_walk(sponge::detail::kAsconHash256Initial, message, 32),
        ascon_hash_walk(sponge::detail::kAsconHash256Initial, flipped(message), 32));
    std::array<std::uint8_t, 32> digest{};
    const auto findings = residue_of_lanes(lanes, [&] {
      sponge::AsconHash256 hash;
      hash.update(std::span(message).first(13));
      hash.update(std::span(message).subspan(13));
      digest = hash.digest();
    });
    CHECK(digest == sponge::ascon_hash256(message));
    check_no_ascon_residue("AsconHash256 update, digest, destruction", findings);
  }
  SUBCASE("one-shot ascon_hash256") {
    const auto lanes = ascon_secret_lanes(
        ascon_hash_walk(sponge::detail::kAsconHash256Initial, message, 32),
        ascon_hash_walk(sponge::detail::kAsconHash256Initial, flipped(message), 32));
    std::array<std::uint8_t, 32> digest{};
    const auto findings = residue_of_lanes(lanes, [&] { digest = sponge::ascon_hash256(message); });
    sponge::AsconHash256 hash;
    hash.update(message);
    CHECK(digest == hash.digest());
    check_no_ascon_residue("one-shot ascon_hash256", findings);
  }
  SUBCASE("one-shot ascon_xof128, squeezed across blocks") {
    const auto lanes = ascon_secret_lanes(
        ascon_hash_walk(sponge::detail::kAsconXof128Initial, message, 100),
        ascon_hash_walk(sponge::detail::kAsconXof128Initial, flipped(message), 100));
    Bytes out(100);
    const auto findings = residue_of_lanes(lanes, [&] { sponge::ascon_xof128(message, out); });
    check_no_ascon_residue("one-shot ascon_xof128", findings);
  }
  const auto aead_lanes =
      ascon_secret_lanes(ascon_aead_walk(aead_secret, nonce, associated_data),
                         ascon_aead_walk(flipped(aead_secret), nonce, associated_data));
  Bytes ciphertext(plaintext.size());
  std::array<std::uint8_t, 16> tag{};
  sponge::ascon_aead128_encrypt(sponge::AsconAead128Key(key.data(), 16),
                                sponge::AsconAead128Nonce(nonce.data(), 16), associated_data,
                                plaintext, ciphertext, tag);
  SUBCASE("one-shot ascon_aead128_encrypt") {
    Bytes out(plaintext.size());
    std::array<std::uint8_t, 16> out_tag{};
    const auto findings = residue_of_lanes(aead_lanes, [&] {
      sponge::ascon_aead128_encrypt(sponge::AsconAead128Key(key.data(), 16),
                                    sponge::AsconAead128Nonce(nonce.data(), 16), associated_data,
                                    plaintext, out, out_tag);
    });
    CHECK(out_tag == tag);
    check_no_ascon_residue("one-shot ascon_aead128_encrypt", findings);
  }
  SUBCASE("AsconAead128Decryptor in pieces, destruction") {
    Bytes opened(plaintext.size());
    bool authentic = false;
    const auto findings = residue_of_lanes(aead_lanes, [&] {
      sponge::AsconAead128Decryptor decryptor(sponge::AsconAead128Key(key.data(), 16),
                                              sponge::AsconAead128Nonce(nonce.data(), 16), opened);
      decryptor.update_associated_data(std::span(associated_data).first(5));
      decryptor.update_associated_data(std::span(associated_data).subspan(5));
      decryptor.update(std::span(ciphertext).first(21));
      decryptor.update(std::span(ciphertext).subspan(21));
      authentic = decryptor.finish(tag);
    });
    CHECK(authentic);
    CHECK(std::equal(opened.begin(), opened.end(), plaintext.begin(), plaintext.end()));
    check_no_ascon_residue("AsconAead128Decryptor in pieces", findings);
  }
  SUBCASE("C API sponge_ascon_aead128_decrypt of a forgery") {
    Bytes opened(plaintext.size());
    auto forged_tag = tag;
    forged_tag[3] ^= 0x10;
    int status = 0;
    const auto findings = residue_of_lanes(aead_lanes, [&] {
      status = sponge_ascon_aead128_decrypt(key.data(), nonce.data(), associated_data.data(),
                                            associated_data.size(), ciphertext.data(),
                                            ciphertext.size(), forged_tag.data(), opened.data());
    });
    CHECK(status == SPONGE_ERROR_AUTHENTICATION);
    check_no_ascon_residue("C API sponge_ascon_aead128_decrypt, forged", findings);
  }
}

TEST_CASE("residue: Ascon of a 30-byte secret leaves no secret word") {
  sponge_test::Rng rng(0xA5C0DF);
  const Bytes message = rng.bytes(30);
  const Bytes nonce = rng.bytes(16), aead_secret = rng.bytes(16 + 30);  // key || plaintext
  const std::span<const std::uint8_t> key = std::span(aead_secret).first(16);
  const std::span<const std::uint8_t> plaintext = std::span(aead_secret).subspan(16);
  SUBCASE("one-shot ascon_hash256 of a 30-byte secret") {
    const auto lanes = ascon_secret_lanes(
        ascon_hash_walk(sponge::detail::kAsconHash256Initial, message, 32),
        ascon_hash_walk(sponge::detail::kAsconHash256Initial, flipped(message), 32));
    std::array<std::uint8_t, 32> digest{};
    const auto findings = residue_of_lanes(lanes, [&] { digest = sponge::ascon_hash256(message); });
    sponge::AsconHash256 hash;
    hash.update(message);
    CHECK(digest == hash.digest());
    check_no_ascon_residue("ascon_hash256 of 30 B", findings);
  }
  SUBCASE("one-shot ascon_aead128_encrypt of a 30-byte secret") {
    const auto lanes = ascon_secret_lanes(ascon_aead_walk(aead_secret, nonce, {}),
                                          ascon_aead_walk(flipped(aead_secret), nonce, {}));
    Bytes out(plaintext.size());
    std::array<std::uint8_t, 16> tag{};
    const auto findings = residue_of_lanes(lanes, [&] {
      sponge::ascon_aead128_encrypt(sponge::AsconAead128Key(key.data(), 16),
                                    sponge::AsconAead128Nonce(nonce.data(), 16), {}, plaintext, out,
                                    tag);
    });
    Bytes opened(plaintext.size());
    CHECK(sponge::ascon_aead128_decrypt(sponge::AsconAead128Key(key.data(), 16),
                                        sponge::AsconAead128Nonce(nonce.data(), 16), {}, out, tag,
                                        opened));
    CHECK(std::equal(opened.begin(), opened.end(), plaintext.begin(), plaintext.end()));
    check_no_ascon_residue("ascon_aead128_encrypt of 30 B", findings);
  }
}
TEST_CASE("residue: the Ascon scan finds state words left behind (control)") {
  // A state of the hash walk, written to the dead stack by a function of the test, must be
  // found: the Ascon model's words are the ones the library computes.
  const Bytes message = sponge_test::Rng(0xC0DE).bytes(8 * 3 + 1);
  const auto lanes = ascon_secret_lanes(
      ascon_hash_walk(sponge::detail::kAsconHash256Initial, message, 32),
      ascon_hash_walk(sponge::detail::kAsconHash256Initial, flipped(message), 32));
  const auto findings = residue_of_lanes(lanes, [&] {
    std::uint64_t leaked[5];
    std::copy(std::begin(sponge::detail::kAsconHash256Initial),
              std::end(sponge::detail::kAsconHash256Initial), leaked);
    leaked[0] ^= le_word(message, 0, 8);
    sponge::detail::ascon_p320_rounds_portable(leaked, 0, 5);
    __asm__ volatile("" : : "r"(leaked) : "memory");
  });
  CHECK(findings.size() >= 5);
}
