#include "dispatch/riscv_extensions.hpp"

#include <cstdlib>

#if defined(__linux__) && defined(__riscv) && __riscv_xlen == 64
#include <fcntl.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
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

namespace {

bool is_lower_letter(char c) noexcept {
  return c >= 'a' && c <= 'z';
}
bool is_digit(char c) noexcept {
  return c >= '0' && c <= '9';
}
bool is_blank(char c) noexcept {
  return c == ' ' || c == '\t';
}

std::string_view trim_blanks(std::string_view text) noexcept {
  while (!text.empty() && is_blank(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && (is_blank(text.back()) || text.back() == '\n' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

}  // namespace

std::optional<bool> riscv_isa_string_has(std::string_view isa, std::string_view name) noexcept {
  constexpr std::string_view kBase = "rv64";
  if (!isa.starts_with(kBase)) return std::nullopt;
  isa.remove_prefix(kBase.size());
  const std::size_t underscore = isa.find('_');
  const std::string_view letters = isa.substr(0, underscore);
  if (letters.empty() || (letters[0] != 'i' && letters[0] != 'e' && letters[0] != 'g')) {
    return std::nullopt;
  }
  for (const char c : letters) {
    if (!is_lower_letter(c)) return std::nullopt;
  }
  const bool single_letter = name.size() == 1;
  bool found = single_letter && letters.find(name[0]) != std::string_view::npos;
  // "g" is shorthand for the general-purpose set.
  if (letters.find('g') != std::string_view::npos &&
      ((single_letter && std::string_view("imafd").find(name[0]) != std::string_view::npos) ||
       name == "zicsr" || name == "zifencei")) {
    found = true;
  }
  if (underscore == std::string_view::npos) return found;
  std::string_view rest = isa.substr(underscore + 1);
  while (true) {
    const std::size_t next = rest.find('_');
    const std::string_view extension = rest.substr(0, next);
    if (extension.empty() || !is_lower_letter(extension[0])) return std::nullopt;
    for (const char c : extension) {
      if (!is_lower_letter(c) && !is_digit(c)) return std::nullopt;
    }
    if (extension == name) found = true;
    if (next == std::string_view::npos) return found;
    rest.remove_prefix(next + 1);
  }
}

std::optional<std::string_view> riscv_cpuinfo_isa_value(std::string_view line) noexcept {
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || trim_blanks(line.substr(0, colon)) != "isa") {
    return std::nullopt;
  }
  return trim_blanks(line.substr(colon + 1));
}

bool riscv_extension_present(const RiscvExtensionSources& sources, std::uint64_t hwprobe_mask,
                             std::string_view name) noexcept {
  if (sources.hwprobe_ima_ext_0) {
    return hwprobe_mask != 0 && (*sources.hwprobe_ima_ext_0 & hwprobe_mask) == hwprobe_mask;
  }
  if (sources.named_by_user != nullptr) {
    return riscv_extension_named(sources.named_by_user, name);
  }
  if (sources.at_hwcap != 0 && name.size() == 1 && is_lower_letter(name[0])) {
    return ((sources.at_hwcap >> (name[0] - 'a')) & 1) != 0;
  }
  return riscv_isa_string_has(sources.isa_string, name).value_or(false);
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

bool riscv_vector_length_present(const RiscvExtensionSources& sources, unsigned bits,
                                 unsigned (*read_vlen)()) noexcept {
  return riscv_extension_present(sources, kRiscvHwprobeImaV, "v") && read_vlen() >= bits;
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

#if defined(__linux__) && defined(__riscv) && __riscv_xlen == 64
namespace {

// The `isa` line of /proc/cpuinfo where every hart shows the same one, in a fixed buffer: read
// once, with no allocation. A line longer than the buffer, like harts that differ, leaves it
// empty (the line then says nothing).
class CpuinfoIsaLine {
 public:
  CpuinfoIsaLine() noexcept {
    const int fd = open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    char chunk[4096];
    char line[sizeof text_];
    std::size_t length = 0;  // of the line being read, beyond what `line` holds where it is long
    const auto end_line = [&] {
      take(std::string_view(line, length < sizeof line ? length : sizeof line),
           length <= sizeof line);
      length = 0;
    };
    ssize_t got = 0;
    // A signal handler installed without SA_RESTART may interrupt the read.
    while ((got = read(fd, chunk, sizeof chunk)) > 0 || (got < 0 && errno == EINTR)) {
      for (ssize_t i = 0; i < got; ++i) {
        if (chunk[i] == '\n') {
          end_line();
          continue;
        }
        if (length < sizeof line) line[length] = chunk[i];
        ++length;
      }
    }
    if (length != 0) end_line();
    if (got < 0) agree_ = false;
    close(fd);
    if (!agree_) size_ = 0;
  }

  std::string_view text() const noexcept { return {text_, size_}; }

 private:
  // One line of the file (its first bytes where `whole` is false).
  void take(std::string_view line, bool whole) noexcept {
    const std::optional<std::string_view> isa = riscv_cpuinfo_isa_value(line);
    if (!isa) return;
    if (!whole || isa->empty() || (seen_ && *isa != text())) {
      agree_ = false;
      return;
    }
    if (!seen_) {
      isa->copy(text_, isa->size());
      size_ = isa->size();
      seen_ = true;
    }
  }

  char text_[2048] = {};
  std::size_t size_ = 0;
  bool seen_ = false;
  bool agree_ = true;
};

}  // namespace
#endif

RiscvExtensionSources riscv_extension_sources() noexcept {
  RiscvExtensionSources sources;
  sources.named_by_user = std::getenv(kRiscvExtensionsVariable);
#if defined(__linux__) && defined(__riscv) && __riscv_xlen == 64
  static const CpuinfoIsaLine cpuinfo_isa;
  sources.hwprobe_ima_ext_0 = riscv_hwprobe_ima_ext_0();
  sources.at_hwcap = getauxval(AT_HWCAP);
  sources.isa_string = cpuinfo_isa.text();
#endif
  return sources;
}

}  // namespace sponge::detail
