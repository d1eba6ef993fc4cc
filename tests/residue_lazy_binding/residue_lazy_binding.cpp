// No lane reaches the stack through the dynamic linker's lazy binding, at any alignment.
//
// The first call through a PLT entry that is not yet bound runs the dynamic linker's
// resolver, which saves the argument and vector registers (x86-64: xsave of every vector
// register) on the stack, where nobody wipes them. A program linked with the static library
// shares its PLT with the library, so the library's own calls into libc (memcpy, memset)
// are bound on their first use, which may be in the middle of a hash with lanes in
// registers. Whether what the resolver saved survives until the scan depends on where its
// save area lands, and that depends on the stack's alignment, which address randomisation
// varies from run to run. So each scenario runs in a fresh process (no PLT entry bound by an
// earlier scenario or by this program), at every 16-byte offset of its first frame from 0 to
// 240 bytes (every alignment modulo 256, whatever the randomised base), and nothing is
// called through the PLT before the scenario: the secret is written by a plain loop, the
// stack painted with plain stores.
//
//   residue_lazy_binding                         every scenario at every offset (the test)
//   residue_lazy_binding <scenario> <offset>     one process: the scenario at that offset
//                                                (offset in 16-byte steps); exit 1 when a
//                                                secret lane is found
//   residue_lazy_binding <scenario> random <n>   n processes at the randomised alignment
//                                                alone (the report's run counts)
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sponge/sponge.h"
#include "sponge/sponge.hpp"
#include "support/residue_model.hpp"

extern char** environ;

namespace {

using namespace sponge_test::residue;

constexpr std::size_t kScanBytes = 32 * 1024;
constexpr std::size_t kOffsets = 16;  // 16-byte steps: every alignment modulo 256
constexpr std::size_t kSecretCapacity = 9000;

// Written before the scenario with plain stores, read by the model after it.
std::uint8_t secret[kSecretCapacity];
std::uint8_t output[64];
std::uint8_t dead_stack[kScanBytes];

// Constant-initialised (no code runs for it before main), and the models are built only
// after the scenario: building them copies bytes through memcpy's PLT entry.
struct Scenario {
  const char* name;
  std::size_t secret_bytes;
  void (*run)(std::size_t secret_bytes);
  Model (*model)();
  bool control = false;  // must find lanes: proves the resolver's save area is scanned
  // Search for the secret's own 64-bit words (a key), for algorithms the model does not run.
  bool secret_words = false;
};

constexpr std::uint8_t kCustomization[] = {'r', 'e', 's', 'i', 'd', 'u', 'e'};
constexpr std::uint8_t kPublicMessage[] = {'p', 'u', 'b', 'l', 'i', 'c'};

Bytes bytes_of(std::span<const std::uint8_t> bytes) {
  return Bytes(bytes.begin(), bytes.end());
}

std::span<const std::uint8_t> secret_span(std::size_t bytes) {
  return {secret, bytes};
}

// The secret's 64-bit words (little-endian, as Ascon loads them), sorted for find_lanes.
std::vector<TrajectoryLane> secret_words(const Bytes& secret) {
  std::vector<TrajectoryLane> words;
  for (std::size_t i = 0; i + 8 <= secret.size(); i += 8) {
    std::uint64_t word = 0;
    for (std::size_t b = 0; b < 8; ++b)
      word |= static_cast<std::uint64_t>(secret[i + b]) << (8 * b);
    words.push_back({word, 0, 0, static_cast<int>(i / 8)});
  }
  std::sort(words.begin(), words.end(),
            [](const TrajectoryLane& a, const TrajectoryLane& b) { return a.value < b.value; });
  return words;
}

Model sha3_256_model() {
  return plain_sponge({136, 0x06, 32});
}

// A lane of the 30-byte secret's SHA3-256 trajectory in xmm1 (arm64: d1), then a call
// through an unbound PLT entry (getppid: neither the library nor this program calls it
// before).
void control_lane_in_a_vector_register_at_a_lazy_call(std::size_t bytes) {
  const std::vector<TrajectoryLane> lanes =
      secret_lanes(sha3_256_model(), Bytes(secret, secret + bytes));
  const std::uint64_t lane = lanes[lanes.size() / 2].value;
#if defined(__x86_64__)
  __asm__ volatile("movq %0, %%xmm1" : : "r"(lane) : "xmm1");
#else
  __asm__ volatile("fmov d1, %0" : : "r"(lane) : "v1");
#endif
  const pid_t parent = getppid();
  __asm__ volatile("" : : "r"(parent));
}

// The program's own first call through an unbound PLT entry (getppid: nothing calls it before),
// made between two calls into the library, as a `printf` between `update()`s would be: the
// resolver saves whatever the library's last call left in the vector registers.
[[gnu::noinline]] void program_lazy_call() {
  const pid_t parent = getppid();
  __asm__ volatile("" : : "r"(parent));
}

Model kmac256_model() {
  return kmac(256, false, bytes_of(kPublicMessage), bytes_of(kCustomization), 64);
}

Model shake256_model() {
  return plain_sponge({136, 0x1F, 64});
}

const Scenario kScenarios[] = {
    {"control: a lane in a vector register at a lazily bound call", 30,
     control_lane_in_a_vector_register_at_a_lazy_call, sha3_256_model, true},
    {"Sha3_256 hasher of 30 B, digested and destroyed", 30,
     [](std::size_t bytes) {
       sponge::Sha3_256 hasher;
       hasher.update(secret_span(bytes));
       const auto digest = hasher.digest();
       for (std::size_t i = 0; i < digest.size(); ++i)
         output[i] = digest[i];
     },
     sha3_256_model},
    {"one-shot sha3_256 of 30 B", 30,
     [](std::size_t bytes) {
       const auto digest = sponge::sha3_256(secret_span(bytes));
       for (std::size_t i = 0; i < digest.size(); ++i)
         output[i] = digest[i];
     },
     sha3_256_model},
    {"sponge_keccak256 of 2 blocks + 50 B", 2 * 136 + 50,
     [](std::size_t bytes) { sponge_keccak256(secret, bytes, output); },
     [] {
       return plain_sponge({136, 0x01, 32});
     }},
    {"Shake128 hasher of 200 B, 64 B squeezed", 200,
     [](std::size_t bytes) {
       sponge::Shake128 xof;
       xof.update(secret_span(bytes));
       xof.squeeze(std::span<std::uint8_t>(output, 64));
     },
     [] {
       return plain_sponge({168, 0x1F, 64});
     }},
    {"Kmac256 class, 40-byte key", 40,
     [](std::size_t bytes) {
       sponge::Kmac256 mac(secret_span(bytes), kCustomization);
       mac.update(kPublicMessage);
       mac.digest(std::span<std::uint8_t>(output, 64));
     },
     [] { return kmac(256, false, bytes_of(kPublicMessage), bytes_of(kCustomization), 64); }},
    {"sponge_kt128 of 300 B", 300,
     [](std::size_t bytes) {
       sponge_kt128(secret, bytes, kCustomization, sizeof kCustomization, output, 32);
     },
     [] { return kangarootwelve(168, 32, bytes_of(kCustomization), 32); }},
    {"Kt256 class of 9,000 B (two leaves)", 9000,
     [](std::size_t bytes) {
       sponge::Kt256 xof(kCustomization);
       xof.update(secret_span(bytes));
       xof.squeeze(std::span<std::uint8_t>(output, 64));
     },
     [] { return kangarootwelve(136, 64, bytes_of(kCustomization), 64); }},
    {"sponge_kmacxof128, 32-byte key", 32,
     [](std::size_t bytes) {
       sponge_kmacxof128(secret, bytes, kPublicMessage, sizeof kPublicMessage, kCustomization,
                         sizeof kCustomization, output, 48);
     },
     [] { return kmac(128, true, bytes_of(kPublicMessage), bytes_of(kCustomization), 48); }},
    {"TupleHash256 class of two halves of 300 B", 300,
     [](std::size_t bytes) {
       sponge::TupleHash256 tuple(kCustomization);
       tuple.add(secret_span(bytes).first(bytes / 2)).add(secret_span(bytes).subspan(bytes / 2));
       tuple.digest(std::span<std::uint8_t>(output, 64));
     },
     [] { return tuplehash(256, false, bytes_of(kCustomization), 64); }},
    {"ParallelHash128 class of 1,000 B, B = 64", 1000,
     [](std::size_t bytes) {
       sponge::ParallelHash128 hash(64, kCustomization);
       hash.update(secret_span(bytes));
       hash.digest(std::span<std::uint8_t>(output, 32));
     },
     [] { return parallelhash(128, false, 64, bytes_of(kCustomization), 32); }},
    {"Kmac256 class, 40-byte key, program's lazy call after the constructor", 40,
     [](std::size_t bytes) {
       sponge::Kmac256 mac(secret_span(bytes), kCustomization);
       program_lazy_call();
       mac.update(kPublicMessage);
       mac.digest(std::span<std::uint8_t>(output, 64));
     },
     kmac256_model},
    {"Kmac256 class, 40-byte key, program's lazy call after update()", 40,
     [](std::size_t bytes) {
       sponge::Kmac256 mac(secret_span(bytes), kCustomization);
       mac.update(kPublicMessage);
       program_lazy_call();
       mac.digest(std::span<std::uint8_t>(output, 64));
     },
     kmac256_model},
    {"Sha3_256 hasher of 200 B, program's lazy call after update()", 200,
     [](std::size_t bytes) {
       sponge::Sha3_256 hasher;
       hasher.update(secret_span(bytes));
       program_lazy_call();
       const auto digest = hasher.digest();
       for (std::size_t i = 0; i < digest.size(); ++i)
         output[i] = digest[i];
     },
     [] {
       return plain_sponge({136, 0x06, 32});
     }},
    {"Shake256 hasher of 2 x 100 B, program's lazy call between", 200,
     [](std::size_t bytes) {
       sponge::Shake256 xof;
       xof.update(secret_span(bytes).first(bytes / 2));
       program_lazy_call();
       xof.update(secret_span(bytes).subspan(bytes / 2));
       xof.squeeze(std::span<std::uint8_t>(output, 64));
     },
     shake256_model},
    {"sponge_kmac256, 32-byte key, program's lazy call after it", 32,
     [](std::size_t bytes) {
       sponge_kmac256(secret, bytes, kPublicMessage, sizeof kPublicMessage, kCustomization,
                      sizeof kCustomization, output, 64);
       program_lazy_call();
     },
     kmac256_model},
    {"sponge_shake256 of 200 B, program's lazy call after it", 200,
     [](std::size_t bytes) {
       sponge_shake256(secret, bytes, output, 64);
       program_lazy_call();
     },
     shake256_model},
    {"AsconAead128Encryptor, key and nonce, program's lazy call after the constructor", 32,
     [](std::size_t) {
       sponge::AsconAead128Encryptor encryptor(std::span<const std::uint8_t, 16>(secret, 16),
                                               std::span<const std::uint8_t, 16>(secret + 16, 16));
       program_lazy_call();
       encryptor.update(kPublicMessage, std::span<std::uint8_t>(output, sizeof kPublicMessage));
       const auto tag = encryptor.finish();
       for (std::size_t i = 0; i < tag.size(); ++i)
         output[32 + i] = tag[i];
     },
     nullptr, false, true},
};
constexpr std::size_t kScenarioCount = std::size(kScenarios);

// Paints the stack below the caller with plain stores (memset would bind memset's PLT entry
// before the scenario), so what the scan finds was written by the scenario.
[[gnu::noinline]] void paint_stack() {
  volatile std::uint8_t area[kScanBytes + 4096];
  for (std::size_t i = 0; i < sizeof area; ++i)
    area[i] = 0xA5;
}

// Copies the kScanBytes below this function's stack pointer with plain loads.
[[gnu::noinline]] void copy_dead_stack() {
  std::uintptr_t sp;
#if defined(__x86_64__)
  __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
#else
  __asm__ volatile("mov %0, sp" : "=r"(sp));
#endif
  const volatile std::uint8_t* below = reinterpret_cast<const volatile std::uint8_t*>(sp);
  for (std::size_t i = 0; i < kScanBytes; ++i)
    dead_stack[i] =
        below[-static_cast<std::ptrdiff_t>(kScanBytes) + static_cast<std::ptrdiff_t>(i)];
}

[[gnu::noinline]] void run_scenario(const Scenario& scenario) {
  paint_stack();
  scenario.run(scenario.secret_bytes);
  copy_dead_stack();
}

// The scenario `offset_steps` * 16 bytes further down the stack.
[[gnu::noinline]] void run_at_offset(const Scenario& scenario, std::size_t offset_steps) {
  volatile std::uint8_t* padding =
      static_cast<volatile std::uint8_t*>(__builtin_alloca(16 * offset_steps + 16));
  padding[0] = 0;
  run_scenario(scenario);
  __asm__ volatile("" : : "r"(padding) : "memory");
}

// Parses a small decimal number without calling into libc (strtoul would be bound lazily
// before the scenario like any other libc function).
bool parse_number(const char* text, std::size_t& value) {
  value = 0;
  if (*text == '\0') return false;
  for (; *text != '\0'; ++text) {
    if (*text < '0' || *text > '9') return false;
    value = value * 10 + static_cast<std::size_t>(*text - '0');
  }
  return true;
}

// One process: the scenario, then the search. Exit 0: nothing found; 1: lanes found.
int run_child(std::size_t index, std::size_t offset_steps, bool at_offset) {
  const Scenario& scenario = kScenarios[index];
  std::uint64_t x = 0x5EC2E7 + index;
  for (std::size_t i = 0; i < scenario.secret_bytes; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    secret[i] = static_cast<std::uint8_t>(x >> 24);
  }
  if (at_offset) {
    run_at_offset(scenario, offset_steps);
  } else {
    run_scenario(scenario);
  }
  const std::vector<TrajectoryLane> lanes =
      scenario.secret_words
          ? secret_words(Bytes(secret, secret + scenario.secret_bytes))
          : secret_lanes(scenario.model(), Bytes(secret, secret + scenario.secret_bytes));
  const std::vector<Finding> findings = find_lanes(dead_stack, lanes);
  if (!findings.empty()) {
    std::printf("%s, offset %zu: %zu secret lanes on the stack\n%s", scenario.name,
                16 * offset_steps, findings.size(), describe(findings).c_str());
  }
  return findings.empty() ? 0 : 1;
}

// Runs this program as a child on `arguments`, without LD_BIND_NOW (binding stays lazy).
// Returns its exit status, or -1 when it did not exit normally.
int spawn_child(std::vector<std::string> arguments) {
  std::vector<char*> argv;
  static char self[] = "/proc/self/exe";
  argv.push_back(self);
  for (std::string& argument : arguments)
    argv.push_back(argument.data());
  argv.push_back(nullptr);
  std::vector<char*> environment;
  for (char** variable = environ; *variable != nullptr; ++variable) {
    if (std::strncmp(*variable, "LD_BIND_NOW=", 12) != 0) environment.push_back(*variable);
  }
  environment.push_back(nullptr);
  std::fflush(stdout);
  pid_t child;
  if (posix_spawn(&child, "/proc/self/exe", nullptr, nullptr, argv.data(), environment.data()) !=
      0) {
    std::perror("posix_spawn");
    return -1;
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_all() {
  std::printf(
      "kernel %s; each scenario in a fresh process at %zu stack offsets, 16 bytes "
      "apart\n",
      sponge_active_kernel(), kOffsets);
  bool passed = true;
  for (std::size_t index = 0; index < kScenarioCount; ++index) {
    const Scenario& scenario = kScenarios[index];
    std::size_t found = 0;
    for (std::size_t offset = 0; offset < kOffsets; ++offset) {
      const int status = spawn_child({std::to_string(index), std::to_string(offset)});
      if (status < 0 || status > 1) {
        std::printf("%s, offset %zu: the child failed (status %d)\n", scenario.name, 16 * offset,
                    status);
        passed = false;
      }
      if (status == 1) ++found;
    }
    const bool ok = scenario.control ? found == kOffsets : found == 0;
    std::printf(
        "%-80s lanes found at %2zu of %zu offsets%s\n", scenario.name, found, kOffsets,
        ok ? ""
           : (scenario.control ? "  FAIL: the control must find them at every offset" : "  FAIL"));
    passed = passed && ok;
  }
  return passed ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 1) return run_all();
  std::size_t index = 0, number = 0;
  if (argc >= 3 && parse_number(argv[1], index) && index < kScenarioCount) {
    if (argc == 3 && parse_number(argv[2], number) && number < kOffsets) {
      return run_child(index, number, true);
    }
    if (argc == 4 && std::strcmp(argv[2], "random") == 0 && parse_number(argv[3], number)) {
      std::size_t found = 0;
      for (std::size_t run = 0; run < number; ++run)
        found += spawn_child({std::to_string(index), "once"}) == 1 ? 1 : 0;
      std::printf("%s: lanes found in %zu of %zu runs\n", kScenarios[index].name, found, number);
      return found == 0 ? 0 : 1;
    }
    if (argc == 3 && std::strcmp(argv[2], "once") == 0) return run_child(index, 0, false);
  }
  std::fprintf(stderr,
               "usage: residue_lazy_binding [<scenario> <offset 0-15> | <scenario> "
               "random <runs>]\n");
  return 2;
}
