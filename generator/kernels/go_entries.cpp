#include "kernels/go_entries.hpp"

#include <fmt/format.h>

namespace spongegen::kernels {

Mem go_argument(int index) {
  return Mem{kNoBase, 8 * index, Addressing::go_argument, kNoLabel, 8};
}

std::vector<std::string> go_frame_lines(int frame_bytes,
                                        const std::vector<std::string>& frame_contents) {
  if (frame_bytes < kGoSmallestCheckedFrame) {
    throw GenerationError(fmt::format(
        "a Go frame of {} bytes is under {}: the toolchain would make the function NOSPLIT",
        frame_bytes, kGoSmallestCheckedFrame));
  }
  std::vector<std::string> lines = frame_contents;
  lines.front() = fmt::format("Frame: ${} = {}", frame_bytes, lines.front());
  lines.insert(
      lines.end(),
      {
          "The toolchain's prologue allocates it (and saves BP);",
          fmt::format("{} >= {}, so the toolchain keeps the stack-bound check that a leaf with a "
                      "smaller",
                      frame_bytes, kGoSmallestCheckedFrame),
          "frame loses (it is made NOSPLIT automatically below 128 bytes).",
          fmt::format("With the saved BP the frame is {} bytes, so the check (Go 1.19, seen with "
                      "go tool",
                      frame_bytes + 8),
          fmt::format("objdump) is MOVQ FS:-8, R14 (ABI0 code loads g itself); LEAQ -{}(SP), R12;",
                      frame_bytes + 8 - kGoSmallestCheckedFrame),
          "CMPQ 16(R14), R12; JBE to runtime.morestack: the prologue, not this code, writes R14.",
          "Not NOSPLIT: inside this function the prologue's stack-bound check is the only point",
          "where the runtime can stop the goroutine (assembly is never preempted asynchronously).",
          "With NOSPLIT, or a frame under 128 bytes, a caller whose block loop offers no other",
          "point holds every P through a stop-the-world (fastkeccak's NOSPLIT kernel, 32 MiB one",
          "block a call, GOMAXPROCS=2: 219-307 ms, against 0.34 ms without NOSPLIT).",
          "ABI0 saves no register: no pushes, no CFI, no endbr64 (Go binaries carry no IBT), no",
          "alignment directives (TEXT symbols are 32-byte aligned).",
      });
  return lines;
}

}  // namespace spongegen::kernels
