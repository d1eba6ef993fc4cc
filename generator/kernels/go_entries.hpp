// What every Go (ABI0) kernel shares: its arguments read from the caller's frame, and the
// frame decisions its file header records (the stack-bound check that keeps the function
// preemptible, and why it is not NOSPLIT).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/keccak.hpp"
#include "program/program.hpp"

namespace spongegen::kernels {

// The Go assembler makes a leaf with a frame under this many bytes NOSPLIT by itself, which
// drops the prologue's stack-bound check (cmd/internal/obj's StackSmall).
constexpr int kGoSmallestCheckedFrame = 128;

// The 8-byte argument at position `index` of the Go declaration: name+8*index(FP).
Mem go_argument(int index);

// A Go file's entries: Keccak-f[1600]'s permute entry and one absorb entry per rate (the Go
// package is Keccak-256), as the builder's `permute` and `absorb` emit them, each with the
// frame the toolchain allocates.
void add_go_keccak_entries(
    Program& program, int frame_bytes,
    const std::function<void(const keccak::RoundVariant&)>& permute,
    const std::function<void(const keccak::RoundVariant&, const keccak::Rate&)>& absorb);

// The header paragraphs every Go Keccak file shares, in this order: its entries
// (`functions`, laid out by add_go_keccak_entries: permute first, then one absorb entry per
// rate), ending with `absorb_does` (what an absorb entry does with the blocks); the frame
// (go_frame_lines, `frame_contents`); and the work a call does between preemption points.
// `states` is how many states a call permutes. A file with a block entry (an absorb entry
// with a block_count, after the others) states its work per call in `block_entry_work`.
std::vector<std::string> go_keccak_header_lines(
    Isa isa, const std::vector<Function>& functions, int states, std::string_view absorb_does,
    const std::vector<std::string>& frame_contents,
    const std::vector<std::string>& block_entry_work = {});

}  // namespace spongegen::kernels
