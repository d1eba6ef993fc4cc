// The lazy-binding residue tests' driver (lazy_binding_driver.hpp).
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
#include "lazy_binding_driver.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "sponge/sponge.h"
#include "support/ascon_residue_model.hpp"

extern char** environ;

namespace sponge_test::lazy_binding {

std::uint8_t secret[kSecretCapacity];
std::uint8_t output[64];

Model sha3_256_model() {
  return residue::plain_sponge({136, 0x06, 32});
}

Bytes bytes_of(std::span<const std::uint8_t> bytes) {
  return Bytes(bytes.begin(), bytes.end());
}

std::vector<TrajectoryLane> ascon_hash256_lanes(const Bytes& secret) {
  using residue::ascon_hash_walk;
  return residue::ascon_secret_lanes(
      ascon_hash_walk(sponge::detail::kAsconHash256Initial, secret, 32),
      ascon_hash_walk(sponge::detail::kAsconHash256Initial, residue::flipped(secret), 32));
}

std::vector<TrajectoryLane> ascon_aead128_lanes(const Bytes& secret) {
  const Bytes nonce(std::begin(kAsconNonce), std::end(kAsconNonce));
  const Bytes associated_data(std::begin(kAsconAssociatedData), std::end(kAsconAssociatedData));
  return residue::ascon_secret_lanes(
      residue::ascon_aead_walk(secret, nonce, associated_data),
      residue::ascon_aead_walk(residue::flipped(secret), nonce, associated_data));
}

namespace {

using namespace sponge_test::residue;

constexpr std::size_t kScanBytes = 32 * 1024;
constexpr std::size_t kOffsets = 16;  // 16-byte steps: every alignment modulo 256

std::uint8_t dead_stack[kScanBytes];

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

// Must find lanes at every offset: proves the resolver's save area is scanned.
const Scenario kControl = {"control: a lane in a vector register at a lazily bound call", 30,
                           control_lane_in_a_vector_register_at_a_lazy_call, sha3_256_model};

// The scenarios: the control, then the program's own.
std::span<const Scenario> table;
std::size_t scenario_count() {
  return table.size() + 1;
}
const Scenario& scenario_at(std::size_t index) {
  return index == 0 ? kControl : table[index - 1];
}

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
  const Scenario& scenario = scenario_at(index);
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
  const Bytes secret_bytes(secret, secret + scenario.secret_bytes);
  const std::vector<TrajectoryLane> lanes = scenario.model != nullptr
                                                ? secret_lanes(scenario.model(), secret_bytes)
                                                : scenario.lanes(secret_bytes);
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
  for (std::size_t index = 0; index < scenario_count(); ++index) {
    const Scenario& scenario = scenario_at(index);
    const bool control = index == 0;
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
    const bool ok = control ? found == kOffsets : found == 0;
    std::printf(
        "%-80s lanes found at %2zu of %zu offsets%s\n", scenario.name, found, kOffsets,
        ok ? "" : (control ? "  FAIL: the control must find them at every offset" : "  FAIL"));
    passed = passed && ok;
  }
  return passed ? 0 : 1;
}

}  // namespace

int run_lazy_binding_test(std::span<const Scenario> scenarios, int argc, char** argv) {
  table = scenarios;
  if (argc == 1) return run_all();
  std::size_t index = 0, number = 0;
  if (argc >= 3 && parse_number(argv[1], index) && index < scenario_count()) {
    if (argc == 3 && parse_number(argv[2], number) && number < kOffsets) {
      return run_child(index, number, true);
    }
    if (argc == 4 && std::strcmp(argv[2], "random") == 0 && parse_number(argv[3], number)) {
      std::size_t found = 0;
      for (std::size_t run = 0; run < number; ++run)
        found += spawn_child({std::to_string(index), "once"}) == 1 ? 1 : 0;
      std::printf("%s: lanes found in %zu of %zu runs\n", scenario_at(index).name, found, number);
      return found == 0 ? 0 : 1;
    }
    if (argc == 3 && std::strcmp(argv[2], "once") == 0) return run_child(index, 0, false);
  }
  std::fprintf(stderr, "usage: %s [<scenario> <offset 0-15> | <scenario> random <runs>]\n",
               argv[0]);
  return 2;
}

}  // namespace sponge_test::lazy_binding
