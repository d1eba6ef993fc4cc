#include "dispatch/riscv_extensions.hpp"

#if defined(__linux__) && defined(__riscv) && __riscv_xlen == 64
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace sponge::detail {

bool riscv_extension_named(const char* list, std::string_view name) noexcept {
  if (list == nullptr || name.empty()) return false;
  std::string_view rest = list;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    if (rest.substr(0, comma) == name) return true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

bool riscv_extension_present(std::optional<std::uint64_t> hwprobe_ima_ext_0, std::uint64_t mask,
                             std::string_view name, const char* named_by_user) noexcept {
  if (hwprobe_ima_ext_0) return mask != 0 && (*hwprobe_ima_ext_0 & mask) == mask;
  return riscv_extension_named(named_by_user, name);
}

std::optional<unsigned> riscv_vector_bits_named(std::string_view name) noexcept {
  constexpr std::string_view kPrefix = "zvl";
  if (name.size() <= kPrefix.size() + 1 || name.substr(0, kPrefix.size()) != kPrefix ||
      name.back() != 'b') {
    return std::nullopt;
  }
  unsigned bits = 0;
  for (const char c : name.substr(kPrefix.size(), name.size() - kPrefix.size() - 1)) {
    if (c < '0' || c > '9' || bits > 65536) return std::nullopt;
    bits = bits * 10 + static_cast<unsigned>(c - '0');
  }
  return bits;
}

bool riscv_vector_length_present(std::optional<std::uint64_t> hwprobe_ima_ext_0, unsigned bits,
                                 const char* named_by_user, unsigned (*read_vlen)()) noexcept {
  return riscv_extension_present(hwprobe_ima_ext_0, kRiscvHwprobeImaV, "v", named_by_user) &&
         read_vlen() >= bits;
}

unsigned riscv_vlen_bits() noexcept {
#if defined(__riscv) && __riscv_xlen == 64
  // vlenb (CSR 0xc22): VLEN in bytes. By number, so the assembler needs no V.
  unsigned long vlenb = 0;
  asm volatile("csrr %0, 0xc22" : "=r"(vlenb));
  return static_cast<unsigned>(vlenb * 8);
#else
  return 0;
#endif
}

std::optional<std::uint64_t> riscv_hwprobe_ima_ext_0() noexcept {
#if defined(__linux__) && defined(__riscv) && __riscv_xlen == 64
#ifdef __NR_riscv_hwprobe
  static_assert(__NR_riscv_hwprobe == kRiscvHwprobeSyscall);
#endif
  // struct riscv_hwprobe; cpusetsize 0 and cpus null ask about every CPU of the process, and
  // the kernel sets the key to -1 when it does not know it.
  struct {
    std::int64_t key;
    std::uint64_t value;
  } pair{kRiscvHwprobeKeyImaExt0, 0};
  if (syscall(kRiscvHwprobeSyscall, &pair, 1, 0, nullptr, 0) != 0) return std::nullopt;
  if (pair.key != kRiscvHwprobeKeyImaExt0) return std::nullopt;
  return pair.value;
#else
  return std::nullopt;
#endif
}

}  // namespace sponge::detail
