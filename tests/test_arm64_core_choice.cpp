// The arm64 Keccak kernel choice per core (runtime/src/dispatch/arm64_core_choice.cpp): a pure
// function of the MIDR_EL1 values, the SHA3 feature and the OS, tested on real MIDR values
// on every host. The end-to-end choice under qemu is asserted by scripts/test.
#include <doctest/doctest.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "dispatch/arm64_core_choice.hpp"

namespace {

using sponge::detail::Arm64Os;
using sponge::detail::choose_arm64_keccak_kernel;

constexpr std::string_view kScalar = sponge::detail::kArm64ScalarKernelName;
constexpr std::string_view kSha3 = sponge::detail::kArm64Sha3KernelName;

// MIDR_EL1 as Linux reports them (implementer, variant, architecture 0xf, part, revision).
constexpr std::uint64_t kNeoverseN1 = 0x413fd0c1;  // AWS Graviton2, Ampere Altra
constexpr std::uint64_t kNeoverseN2 = 0x410fd490;
constexpr std::uint64_t kNeoverseV1 = 0x411fd401;  // AWS Graviton3
constexpr std::uint64_t kNeoverseV2 = 0x410fd4f1;  // AWS Graviton4, NVIDIA Grace
constexpr std::uint64_t kCortexA72 = 0x410fd083;   // Raspberry Pi 4
constexpr std::uint64_t kCortexA76 = 0x414fd0b1;   // Raspberry Pi 5
constexpr std::uint64_t kCortexX2 = 0x410fd480;
constexpr std::uint64_t kCortexA510 = 0x410fd460;
constexpr std::uint64_t kCortexX3 = 0x411fd4e0;
constexpr std::uint64_t kAppleM1Icestorm = 0x611f0221;
constexpr std::uint64_t kAppleM1Firestorm = 0x611f0231;
constexpr std::uint64_t kAppleM2Avalanche = 0x611f0330;
constexpr std::uint64_t kQemuMax = 0x000f0510;    // implementer 0: no vendor
constexpr std::uint64_t kAmpereOne = 0xc00fac30;  // implementer 0xc0, not in the table

std::string_view on_linux(std::vector<std::uint64_t> midrs, bool has_sha3 = true) {
  return choose_arm64_keccak_kernel(midrs, has_sha3, Arm64Os::on_linux);
}

}  // namespace

TEST_CASE("arm64 core choice: Apple cores get the SHA3 kernel, every other core scalar") {
  CHECK(on_linux({kAppleM1Firestorm}) == kSha3);
  CHECK(on_linux({kAppleM2Avalanche}) == kSha3);
  CHECK(on_linux({kNeoverseN2}) == kScalar);
  CHECK(on_linux({kNeoverseV1}) == kScalar);
  CHECK(on_linux({kNeoverseV2}) == kScalar);
  CHECK(on_linux({kCortexX2}) == kScalar);
  CHECK(on_linux({kCortexX3}) == kScalar);
}

TEST_CASE("arm64 core choice: without the SHA3 extension it is always scalar") {
  for (const std::uint64_t midr : {kNeoverseN1, kCortexA72, kCortexA76, kAppleM1Firestorm}) {
    CHECK(on_linux({midr}, false) == kScalar);
  }
  CHECK(choose_arm64_keccak_kernel({}, false, Arm64Os::on_macos) == kScalar);
}

TEST_CASE("arm64 core choice: an unknown or unreported core gets the scalar kernel") {
  CHECK(on_linux({kQemuMax}) == kScalar);
  CHECK(on_linux({kAmpereOne}) == kScalar);
  CHECK(on_linux({}) == kScalar);  // no sysfs file and no HWCAP_CPUID
  CHECK(choose_arm64_keccak_kernel({}, true, Arm64Os::other) == kScalar);
}

TEST_CASE("arm64 core choice: macOS runs on Apple cores only") {
  CHECK(choose_arm64_keccak_kernel({}, true, Arm64Os::on_macos) == kSha3);
}

TEST_CASE("arm64 core choice: mixed cores take the kernel every core is rated for") {
  CHECK(on_linux({kAppleM1Icestorm, kAppleM1Icestorm, kAppleM1Firestorm}) == kSha3);
  CHECK(on_linux({kCortexA510, kCortexA510, kCortexX2}) == kScalar);
  CHECK(on_linux({kAppleM1Firestorm, kQemuMax}) == kScalar);
}

TEST_CASE("arm64 core choice: every table row names a kernel and a source") {
  for (const auto& row : sponge::detail::arm64_core_table()) {
    CHECK((row.kernel == kSha3 || row.kernel == kScalar));
    CHECK(!row.source.empty());
    CHECK(!row.core.empty());
  }
}
