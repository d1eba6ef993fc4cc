// What a function's CFI says before each of its items, read once for every reader (the
// prover's CFI proof, the audit's frame figures, the Windows unwind check's comparison).
#pragma once

#include <cstdint>
#include <vector>

#include "program/program.hpp"

namespace spongegen {

// The CFA, as bytes above the stack pointer, after `cfi` when it was `cfa` before.
std::int64_t cfa_after(const Cfi& cfi, std::int64_t cfa);

// A register's CFI rule: its caller's value is saved at the CFA + offset.
struct SavedRule {
  Reg reg;
  std::int64_t offset;
  friend bool operator==(const SavedRule&, const SavedRule&) = default;
};

// The rows an unwinder reads in address order, whichever path reached the instruction: code
// after a return or reached by a jump is described by the rows above it.
struct CfiRows {
  std::vector<std::int64_t> cfa;     // before each item: the CFA, bytes above the stack pointer
  std::vector<std::uint32_t> saved;  // before each item: the rules in force, into rule_sets
  std::vector<std::vector<SavedRule>> rule_sets;  // each in the order the rules were stated
};

// `cfa_at_entry`: the bytes the call left above the stack pointer (the return address's).
CfiRows cfi_rows(const std::vector<Item>& items, std::int64_t cfa_at_entry);

}  // namespace spongegen
