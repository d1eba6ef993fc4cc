// The RISC-V extension check (runtime/src/dispatch/riscv_extensions.cpp): a pure function of
// riscv_hwprobe's answer, the extension's bits and SPONGE_RISCV_EXTENSIONS, tested on every
// host. The end-to-end choice under qemu-riscv64 is asserted by scripts/test.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>

#include "dispatch/riscv_extensions.hpp"

namespace {

using sponge::detail::riscv_extension_named;
using sponge::detail::riscv_extension_present;
using sponge::detail::riscv_vector_bits_named;
using sponge::detail::riscv_vector_length_present;

// RISCV_HWPROBE_IMA_FD, _IMA_C, _IMA_V and _EXT_ZBA, _ZBB, _ZBS (asm/hwprobe.h).
constexpr std::uint64_t kImaFd = 1u << 0;
constexpr std::uint64_t kImaC = 1u << 1;
constexpr std::uint64_t kImaV = 1u << 2;
constexpr std::uint64_t kZba = 1u << 3;
constexpr std::uint64_t kZbb = 1u << 4;
constexpr std::uint64_t kZbs = 1u << 5;

}  // namespace

TEST_CASE("riscv_hwprobe's answer decides when the kernel gives one") {
  const std::optional<std::uint64_t> rva22 = kImaFd | kImaC | kZba | kZbb | kZbs;
  const std::optional<std::uint64_t> rv64gc = kImaFd | kImaC;
  CHECK(riscv_extension_present(rva22, kZbb, "zbb", nullptr));
  CHECK_FALSE(riscv_extension_present(rv64gc, kZbb, "zbb", nullptr));
  CHECK_FALSE(riscv_extension_present(rva22, kImaV, "v", nullptr));
  // The user's list does not overrule the kernel, in either direction.
  CHECK_FALSE(riscv_extension_present(rv64gc, kZbb, "zbb", "zbb"));
  CHECK(riscv_extension_present(rva22, kZbb, "zbb", ""));
  // A feature with no hwprobe bits is never present where the kernel answers.
  CHECK_FALSE(riscv_extension_present(rva22, 0, "zbb", "zbb"));
  // Every bit of a mask must be set.
  CHECK_FALSE(riscv_extension_present(rv64gc, kImaC | kImaV, "cv", nullptr));
  CHECK(riscv_extension_present(rva22, kZba | kZbb, "zba_zbb", nullptr));
}

TEST_CASE("without riscv_hwprobe only the extensions the user names count") {
  const std::optional<std::uint64_t> no_hwprobe;
  CHECK_FALSE(riscv_extension_present(no_hwprobe, kZbb, "zbb", nullptr));
  CHECK_FALSE(riscv_extension_present(no_hwprobe, kZbb, "zbb", ""));
  CHECK(riscv_extension_present(no_hwprobe, kZbb, "zbb", "zbb"));
  CHECK(riscv_extension_present(no_hwprobe, kZbb, "zbb", "v,zbb"));
  CHECK(riscv_extension_present(no_hwprobe, kImaV, "v", "v,zbb"));
  CHECK_FALSE(riscv_extension_present(no_hwprobe, kZbb, "zbb", "zba,zbs"));
}

TEST_CASE("SPONGE_RISCV_EXTENSIONS names whole extensions, exactly") {
  CHECK(riscv_extension_named("zbb", "zbb"));
  CHECK(riscv_extension_named("zba,zbb,zbs", "zbs"));
  CHECK(riscv_extension_named(",,zbb,", "zbb"));
  CHECK_FALSE(riscv_extension_named("zbb", "zb"));
  CHECK_FALSE(riscv_extension_named("zb", "zbb"));
  CHECK_FALSE(riscv_extension_named("zbbx", "zbb"));
  CHECK_FALSE(riscv_extension_named("ZBB", "zbb"));
  CHECK_FALSE(riscv_extension_named("zbb ", "zbb"));
  CHECK_FALSE(riscv_extension_named(nullptr, "zbb"));
  CHECK_FALSE(riscv_extension_named(",", ""));
}

namespace {
int vlen_reads = 0;
unsigned vlen_256() {
  ++vlen_reads;
  return 256;
}
}  // namespace

TEST_CASE("a zvl<N>b feature needs V and a VLEN of N bits, VLEN read only where V is") {
  CHECK(riscv_vector_bits_named("zvl256b") == 256u);
  CHECK(riscv_vector_bits_named("zvl128b") == 128u);
  CHECK_FALSE(riscv_vector_bits_named("zvlb"));
  CHECK_FALSE(riscv_vector_bits_named("zvl256"));
  CHECK_FALSE(riscv_vector_bits_named("zbb"));
  CHECK_FALSE(riscv_vector_bits_named("v"));
  const std::optional<std::uint64_t> rva23 = kImaFd | kImaC | kImaV | kZba | kZbb | kZbs;
  const std::optional<std::uint64_t> rva22 = kImaFd | kImaC | kZba | kZbb | kZbs;
  const std::optional<std::uint64_t> no_hwprobe;
  vlen_reads = 0;
  CHECK(riscv_vector_length_present(rva23, 256, nullptr, vlen_256));
  CHECK_FALSE(riscv_vector_length_present(rva23, 512, nullptr, vlen_256));
  CHECK(riscv_vector_length_present(no_hwprobe, 128, "zbb,v", vlen_256));
  CHECK(vlen_reads == 3);
  // Without V the CSR is never read (it would trap).
  CHECK_FALSE(riscv_vector_length_present(rva22, 128, "v", vlen_256));
  CHECK_FALSE(riscv_vector_length_present(no_hwprobe, 128, "zbb", vlen_256));
  CHECK_FALSE(riscv_vector_length_present(no_hwprobe, 128, nullptr, vlen_256));
  CHECK(vlen_reads == 3);
}
