#include "kernels/go_entries.hpp"

#include "isa/target.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "kernels/keccak_entries.hpp"

namespace spongegen::kernels {

Mem go_argument(int index) {
  return Mem{kNoBase, 8 * index, Addressing::go_argument, kNoLabel, 8};
}

void add_go_keccak_entries(
    Program& program, int frame_bytes,
    const std::function<void(const keccak::RoundVariant&)>& permute,
    const std::function<void(const keccak::RoundVariant&, const keccak::Rate&)>& absorb) {
  const keccak::RoundVariant& variant = keccak::model().variants.front();
  permute(variant);
  for (const keccak::Rate& rate : variant.absorb_rates)
    absorb(variant, rate);
  for (Function& function : program.functions)
    function.frame_bytes = frame_bytes;
}

namespace {

// `text` broken into lines of at most 88 characters at its spaces.
std::vector<std::string> wrapped(const std::string& text) {
  constexpr std::size_t kWidth = 88;
  std::vector<std::string> lines(1);
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    if (!lines.back().empty() && lines.back().size() + 1 + word.size() > kWidth)
      lines.emplace_back();
    lines.back() += (lines.back().empty() ? "" : " ") + word;
  }
  return lines;
}

// The header lines on the frame: `frame_bytes` and what it holds (`frame_contents`, lines of
// prose that follow "Frame: $N = "), the stack-bound check the toolchain writes for it, why
// the function is not NOSPLIT, and what ABI0 leaves out (saves, CFI, endbr64).
std::vector<std::string> go_frame_lines(Isa isa, int frame_bytes,
                                        const std::vector<std::string>& frame_contents) {
  if (frame_bytes < kGoSmallestCheckedFrame) {
    throw GenerationError(fmt::format(
        "a Go frame of {} bytes is under {}: the toolchain would make the function NOSPLIT",
        frame_bytes, kGoSmallestCheckedFrame));
  }
  const Target& isa_target = target(isa);
  std::vector<std::string> lines = frame_contents;
  lines.front() = fmt::format("Frame: ${} = {}", frame_bytes, lines.front());
  const std::vector<std::string> prologue = isa_target.go_prologue_lines(frame_bytes);
  lines.push_back(prologue.front());
  lines.push_back(fmt::format(
      "{} >= {}, so the toolchain keeps the stack-bound check that a leaf with a smaller",
      frame_bytes, kGoSmallestCheckedFrame));
  lines.emplace_back("frame loses (it is made NOSPLIT automatically below 128 bytes).");
  lines.insert(lines.end(), prologue.begin() + 1, prologue.end());
  lines.insert(
      lines.end(),
      {
          "Not NOSPLIT: inside this function the prologue's stack-bound check is the only point",
          "where the runtime can stop the goroutine (assembly is never preempted asynchronously).",
          "With NOSPLIT, or a frame under 128 bytes, a caller whose block loop offers no other",
          "point holds every P through a stop-the-world (fastkeccak's NOSPLIT kernel, 32 MiB one",
          "block a call, GOMAXPROCS=2: 219-307 ms, against 0.34 ms without NOSPLIT).",
      });
  const std::vector<std::string> saves = isa_target.go_abi0_saves_lines();
  lines.insert(lines.end(), saves.begin(), saves.end());
  return lines;
}

}  // namespace

std::vector<std::string> go_keccak_header_lines(Isa isa, const std::vector<Function>& functions,
                                                int states, std::string_view absorb_does,
                                                const std::vector<std::string>& frame_contents,
                                                const std::vector<std::string>& block_entry_work) {
  const Function& permute = functions.front();
  std::size_t absorb_instructions = 0;
  std::vector<std::string> rates;
  const Function* block_entry = nullptr;
  for (std::size_t i = 1; i < functions.size(); ++i) {
    if (functions[i].shape.takes_block_count()) {
      block_entry = &functions[i];
      continue;
    }
    absorb_instructions = std::max(absorb_instructions, functions[i].instruction_count());
    rates.push_back(std::to_string(functions[i].shape.rate_bytes));
  }
  if ((block_entry != nullptr) != !block_entry_work.empty()) {
    throw GenerationError(
        "a Go file's header states the work per call of its block entry "
        "exactly when it has one");
  }
  std::vector<std::string> lines = wrapped(fmt::format(
      "Entries: permute ({} instructions) and one absorb entry per rate ({} bytes; up to {} "
      "instructions), which {}{}. Go's labels are local to one TEXT, so each entry carries its "
      "own copy of the loop and the code after it, where the {} file {} into the permute "
      "entry's.",
      permute.instruction_count(), english_list(rates), absorb_instructions, absorb_does,
      block_entry == nullptr
          ? std::string()
          : fmt::format("; and {} ({} instructions), which does the same for block_count "
                        "consecutive blocks in one call",
                        block_entry->symbol, block_entry->instruction_count()),
      target(isa).c_abi_name(), target(isa).branch_verb()));
  for (std::string& line : go_frame_lines(isa, permute.frame_bytes, frame_contents))
    lines.push_back(std::move(line));
  if (block_entry != nullptr) {
    lines.insert(lines.end(), block_entry_work.begin(), block_entry_work.end());
    return lines;
  }
  for (std::string& line : wrapped(fmt::format(
           "Work per call: one permutation (24 rounds){}, with one block {}XORed in by the absorb "
           "entries; the loop over blocks is Go code, so no call runs longer than one "
           "permutation between preemption points.",
           states == 1 ? "" : fmt::format(" of the {} states", count_word(states)),
           states == 1 ? "" : "a state ")))
    lines.push_back(std::move(line));
  return lines;
}

}  // namespace spongegen::kernels
