// The RISC-V extension check (runtime/src/dispatch/riscv_extensions.cpp): a pure function of
// what riscv_hwprobe, SPONGE_RISCV_EXTENSIONS, AT_HWCAP and the ISA string of /proc/cpuinfo
// say, and of the extension's bits, tested on every host. The end-to-end choice under
// qemu-riscv64 is asserted by scripts/test.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>

#include "dispatch/riscv_extensions.hpp"

namespace {

using sponge::detail::riscv_cpuinfo_isa_value;
using sponge::detail::riscv_extension_named;
using sponge::detail::riscv_extension_present;
using sponge::detail::riscv_isa_string_has;
using sponge::detail::riscv_vector_bits_named;
using sponge::detail::riscv_vector_length_present;
using sponge::detail::RiscvExtensionSources;

// RISCV_HWPROBE_IMA_FD, _IMA_C, _IMA_V and _EXT_ZBA, _ZBB, _ZBS (asm/hwprobe.h).
constexpr std::uint64_t kImaFd = 1u << 0;
constexpr std::uint64_t kImaC = 1u << 1;
constexpr std::uint64_t kImaV = 1u << 2;
constexpr std::uint64_t kZba = 1u << 3;
constexpr std::uint64_t kZbb = 1u << 4;
constexpr std::uint64_t kZbs = 1u << 5;

// AT_HWCAP's bits for single-letter extensions: 'x' - 'a'.
constexpr std::uint64_t hwcap(char letter) {
  return std::uint64_t{1} << (letter - 'a');
}
constexpr std::uint64_t kHwcapRv64gc =
    hwcap('i') | hwcap('m') | hwcap('a') | hwcap('f') | hwcap('d') | hwcap('c');

RiscvExtensionSources from_hwprobe(std::uint64_t bits) {
  return {.hwprobe_ima_ext_0 = bits};
}
RiscvExtensionSources from_user(const char* list) {
  return {.named_by_user = list};
}

}  // namespace

TEST_CASE("riscv_hwprobe's answer decides when the kernel gives one") {
  const auto rva22 = from_hwprobe(kImaFd | kImaC | kZba | kZbb | kZbs);
  const auto rv64gc = from_hwprobe(kImaFd | kImaC);
  CHECK(riscv_extension_present(rva22, kZbb, "zbb"));
  CHECK_FALSE(riscv_extension_present(rv64gc, kZbb, "zbb"));
  CHECK_FALSE(riscv_extension_present(rva22, kImaV, "v"));
  // No other source overrules the kernel, in either direction.
  CHECK_FALSE(riscv_extension_present({.hwprobe_ima_ext_0 = kImaFd | kImaC,
                                       .named_by_user = "zbb,v",
                                       .at_hwcap = kHwcapRv64gc | hwcap('v'),
                                       .isa_string = "rv64imafdcv_zbb"},
                                      kZbb, "zbb"));
  CHECK_FALSE(riscv_extension_present(
      {.hwprobe_ima_ext_0 = kImaFd | kImaC, .at_hwcap = kHwcapRv64gc | hwcap('v')}, kImaV, "v"));
  CHECK(riscv_extension_present({.hwprobe_ima_ext_0 = kZbb, .named_by_user = ""}, kZbb, "zbb"));
  CHECK(
      riscv_extension_present({.hwprobe_ima_ext_0 = kImaV, .at_hwcap = kHwcapRv64gc}, kImaV, "v"));
  // A feature with no hwprobe bits is never present where the kernel answers.
  CHECK_FALSE(riscv_extension_present(
      {.hwprobe_ima_ext_0 = kZbb, .named_by_user = "zbb", .isa_string = "rv64gc_zbb"}, 0, "zbb"));
  // Every bit of a mask must be set.
  CHECK_FALSE(riscv_extension_present(rv64gc, kImaC | kImaV, "cv"));
  CHECK(riscv_extension_present(rva22, kZba | kZbb, "zba_zbb"));
}

TEST_CASE("without riscv_hwprobe SPONGE_RISCV_EXTENSIONS, where set, is the whole list") {
  CHECK_FALSE(riscv_extension_present(from_user(""), kZbb, "zbb"));
  CHECK(riscv_extension_present(from_user("zbb"), kZbb, "zbb"));
  CHECK(riscv_extension_present(from_user("v,zbb"), kZbb, "zbb"));
  CHECK(riscv_extension_present(from_user("v,zbb"), kImaV, "v"));
  CHECK_FALSE(riscv_extension_present(from_user("zba,zbs"), kZbb, "zbb"));
  // It replaces AT_HWCAP and the ISA string in both directions: what it names counts where
  // they say no, what it leaves out (empty: everything) is absent where they say yes.
  const RiscvExtensionSources rv64gc{.at_hwcap = kHwcapRv64gc, .isa_string = "rv64imafdc"};
  const RiscvExtensionSources rv64gcv_zbb{.at_hwcap = kHwcapRv64gc | hwcap('v'),
                                          .isa_string = "rv64imafdcv_zbb"};
  auto named = [](RiscvExtensionSources sources, const char* list) {
    sources.named_by_user = list;
    return sources;
  };
  CHECK(riscv_extension_present(named(rv64gc, "zbb,v"), kZbb, "zbb"));
  CHECK(riscv_extension_present(named(rv64gc, "zbb,v"), kImaV, "v"));
  CHECK_FALSE(riscv_extension_present(named(rv64gcv_zbb, ""), kZbb, "zbb"));
  CHECK_FALSE(riscv_extension_present(named(rv64gcv_zbb, ""), kImaV, "v"));
  CHECK_FALSE(riscv_extension_present(named(rv64gcv_zbb, "zbb"), kImaV, "v"));
  // Unset, the two fallbacks speak.
  CHECK(riscv_extension_present(rv64gcv_zbb, kZbb, "zbb"));
  CHECK(riscv_extension_present(rv64gcv_zbb, kImaV, "v"));
}

TEST_CASE("without riscv_hwprobe or the user's list AT_HWCAP decides V, never Zbb") {
  // qemu-riscv64 7.2 under rv64,zbb=true,v=true: AT_HWCAP 0x20112d (imafdc and v), and the
  // host's /proc/cpuinfo with no isa line.
  const RiscvExtensionSources qemu_v{.at_hwcap = 0x20112d};
  CHECK(riscv_extension_present(qemu_v, kImaV, "v"));
  CHECK_FALSE(riscv_extension_present(qemu_v, kZbb, "zbb"));
  const RiscvExtensionSources qemu_rv64{.at_hwcap = 0x112d};
  CHECK_FALSE(riscv_extension_present(qemu_rv64, kImaV, "v"));
  CHECK(riscv_extension_present(qemu_rv64, 0, "c"));
  // Where AT_HWCAP answers, it decides V even against the ISA string (Linux leaves V out of
  // it where it does not let user space use the vector registers).
  CHECK_FALSE(
      riscv_extension_present({.at_hwcap = kHwcapRv64gc, .isa_string = "rv64imafdcv"}, kImaV, "v"));
  // AT_HWCAP says nothing of Zbb: the ISA string does.
  CHECK(riscv_extension_present({.at_hwcap = kHwcapRv64gc, .isa_string = "rv64imafdc_zbb"}, kZbb,
                                "zbb"));
  CHECK_FALSE(riscv_extension_present(
      {.at_hwcap = kHwcapRv64gc | hwcap('v'), .isa_string = "rv64imafdcv"}, kZbb, "zbb"));
  // Without an AT_HWCAP the ISA string decides V too.
  CHECK(riscv_extension_present({.isa_string = "rv64gcv"}, kImaV, "v"));
  CHECK_FALSE(riscv_extension_present({.isa_string = "rv64gc_zbb"}, kImaV, "v"));
  // No source at all: nothing.
  CHECK_FALSE(riscv_extension_present({}, kZbb, "zbb"));
  CHECK_FALSE(riscv_extension_present({}, kImaV, "v"));
}

TEST_CASE("the ISA string is read strictly") {
  CHECK(riscv_isa_string_has("rv64imafdc_zbb", "zbb") == true);
  CHECK(riscv_isa_string_has("rv64imafdc_zbb", "v") == false);
  CHECK(riscv_isa_string_has("rv64imafdcv_zicsr_zbb", "v") == true);
  CHECK(riscv_isa_string_has("rv64imafdcv_zicsr_zbb", "zbb") == true);
  CHECK(riscv_isa_string_has("rv64imafdcv_zicsr_zbb", "zicsr") == true);
  CHECK(riscv_isa_string_has("rv64imafdcv_zicsr_zba_zbs", "zbb") == false);
  // g is imafd_zicsr_zifencei, and gives neither V nor Zbb.
  CHECK(riscv_isa_string_has("rv64gcv", "v") == true);
  CHECK(riscv_isa_string_has("rv64gcv", "zbb") == false);
  CHECK(riscv_isa_string_has("rv64gc", "v") == false);
  CHECK(riscv_isa_string_has("rv64gc", "d") == true);
  CHECK(riscv_isa_string_has("rv64gc", "zifencei") == true);
  CHECK(riscv_isa_string_has("rv64imafdc", "zicsr") == false);
  // Multi-letter names compare whole; a single letter is not found inside one.
  CHECK(riscv_isa_string_has("rv64imafdc_zbbx", "zbb") == false);
  CHECK(riscv_isa_string_has("rv64imafdc_zbb", "zb") == false);
  CHECK(riscv_isa_string_has("rv64imafdc_zve64x_zvl256b", "v") == false);
  CHECK(riscv_isa_string_has("rv64imafdc_zve64x_zvl256b", "zvl256b") == true);
  CHECK(riscv_isa_string_has("rv64i_v", "v") == true);
  // Not an RV64 ISA string, or not well formed: it says nothing, not "absent".
  CHECK_FALSE(riscv_isa_string_has("", "v"));
  CHECK_FALSE(riscv_isa_string_has("rv32imafdcv_zbb", "v"));
  CHECK_FALSE(riscv_isa_string_has("rv128imafdcv", "v"));
  CHECK_FALSE(riscv_isa_string_has("x86_64", "v"));
  CHECK_FALSE(riscv_isa_string_has(" rv64gcv", "v"));
  CHECK_FALSE(riscv_isa_string_has("RV64GCV", "v"));
  CHECK_FALSE(riscv_isa_string_has("rv64GCV_ZBB", "zbb"));
  CHECK_FALSE(riscv_isa_string_has("rv64imafdcV", "v"));
  CHECK_FALSE(riscv_isa_string_has("rv64imaFdcv_zbb", "zbb"));
  CHECK_FALSE(riscv_isa_string_has("rv64imafdc_Zbb", "zbb"));
  CHECK_FALSE(riscv_isa_string_has("rv64", "v"));
  CHECK_FALSE(riscv_isa_string_has("rv64_zbb", "zbb"));
  CHECK_FALSE(riscv_isa_string_has("rv64vimafdc", "v"));
  CHECK_FALSE(riscv_isa_string_has("rv64i2p1m2p0v1p0", "v"));
  CHECK_FALSE(riscv_isa_string_has("rv64imafdcv_", "v"));
  CHECK_FALSE(riscv_isa_string_has("rv64imafdcv__zbb", "zbb"));
  CHECK_FALSE(riscv_isa_string_has("rv64imafdcv_zbb ", "zbb"));
  CHECK_FALSE(riscv_isa_string_has("rv64imafdcv_1zbb", "zbb"));
  CHECK_FALSE(riscv_isa_string_has("rv64imafdcv_zbb-", "zbb"));
  // A malformed ISA string, as the only source, reports nothing present.
  CHECK_FALSE(riscv_extension_present({.isa_string = "rv32gcv_zbb"}, kZbb, "zbb"));
  CHECK_FALSE(riscv_extension_present({.isa_string = "RV64GCV_ZBB"}, kImaV, "v"));
}

TEST_CASE("the isa line of /proc/cpuinfo is the one keyed exactly isa") {
  CHECK(riscv_cpuinfo_isa_value("isa\t\t: rv64imafdcv_zicsr_zbb") == "rv64imafdcv_zicsr_zbb");
  CHECK(riscv_cpuinfo_isa_value("isa : rv64gc\r") == "rv64gc");
  CHECK(riscv_cpuinfo_isa_value("isa\t\t:") == "");
  CHECK_FALSE(riscv_cpuinfo_isa_value("hart isa\t: rv64imafdcv"));
  CHECK_FALSE(riscv_cpuinfo_isa_value("isa-ext\t: rv64imafdcv"));
  CHECK_FALSE(riscv_cpuinfo_isa_value("processor\t: 0"));
  CHECK_FALSE(riscv_cpuinfo_isa_value("isa rv64gc"));
  CHECK_FALSE(riscv_cpuinfo_isa_value(""));
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
  const auto rva23 = from_hwprobe(kImaFd | kImaC | kImaV | kZba | kZbb | kZbs);
  const auto rva22 = from_hwprobe(kImaFd | kImaC | kZba | kZbb | kZbs);
  vlen_reads = 0;
  CHECK(riscv_vector_length_present(rva23, 256, vlen_256));
  CHECK_FALSE(riscv_vector_length_present(rva23, 512, vlen_256));
  CHECK(riscv_vector_length_present(from_user("zbb,v"), 128, vlen_256));
  CHECK(riscv_vector_length_present({.at_hwcap = kHwcapRv64gc | hwcap('v')}, 256, vlen_256));
  CHECK(riscv_vector_length_present({.isa_string = "rv64gcv"}, 128, vlen_256));
  CHECK(vlen_reads == 5);
  // Without V the CSR is never read (it would trap).
  CHECK_FALSE(riscv_vector_length_present(
      {.hwprobe_ima_ext_0 = kImaFd | kImaC | kZbb, .named_by_user = "v"}, 128, vlen_256));
  CHECK_FALSE(riscv_vector_length_present(rva22, 128, vlen_256));
  CHECK_FALSE(riscv_vector_length_present(from_user("zbb"), 128, vlen_256));
  CHECK_FALSE(riscv_vector_length_present({}, 128, vlen_256));
  CHECK_FALSE(riscv_vector_length_present({.at_hwcap = kHwcapRv64gc, .isa_string = "rv64gcv"}, 128,
                                          vlen_256));
  CHECK_FALSE(riscv_vector_length_present({.isa_string = "rv64gc_zvl256b"}, 128, vlen_256));
  CHECK(vlen_reads == 5);
}
