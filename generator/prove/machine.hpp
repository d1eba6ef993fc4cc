// The symbolic machine the prover runs an entry on: registers and memory hold words of
// GF(2) polynomials (prove/anf.hpp), except addresses, which stay concrete. No branch or
// address of a kernel depends on the data (the invariant checker proves it, and the machine
// refuses a branch on a non-constant flag), so one run follows the only path every input
// takes, and what it computes holds for all inputs at once.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "program/program.hpp"
#include "prove/anf.hpp"

namespace spongegen::prove {

// What the machine cannot follow, or a kernel does that no input may see: a branch on data,
// an access outside every buffer, a read of memory nobody wrote. The prover adds the entry
// and the instruction.
class MachineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An address: a byte offset into one of the machine's regions (the state, a block, the
// stack, a constant table), or the return address the caller pushed.
struct Pointer {
  int region = -1;
  std::int64_t offset = 0;
  friend bool operator==(const Pointer&, const Pointer&) = default;
};

// One 64-bit quantity of a register or memory: data bits, or an address.
struct Value {
  Word bits{};
  std::optional<Pointer> pointer;
  // An integer derived from the entry's block count (its argument, decremented or moved):
  // it may only be counted down, moved and tested against zero, so that the count steers
  // nothing but the loop (what the proof of every count rests on, prover.cpp).
  bool block_count = false;

  static Value data(Word bits) { return Value{std::move(bits), std::nullopt}; }
  static Value address(Pointer at) { return Value{Word{}, at}; }
  static Value integer(std::uint64_t value) { return data(constant_word(value)); }
  bool is_address() const { return pointer.has_value(); }
};

struct Region {
  std::string name;
  std::vector<std::optional<Value>> words;  // 8-byte words; empty: never written
  bool writable = false;
  // Stores at this byte offset or above are refused (the caller's frame above a stack),
  // except in [home_space_begin, home_space_end); -1: no limit.
  std::int64_t writable_below = -1;
  std::int64_t home_space_begin = 0, home_space_end = 0;
};

inline constexpr int kVectorWords = 8;  // 512 bits: a zmm register (arm64 uses 2)
using VectorValue = std::array<Word, kVectorWords>;

// The registers of each file the machine holds, general-purpose and vector alike, as many
// as the kernel's Program names (register_count): at least kNativeRegisters, which number
// every native ISA's registers, more where a Program's registers are a function's locals
// (WebAssembly's: wasm-scalar's entries name 72), and kMachineRegisters at most. Sized per
// kernel because a proof copies and refreshes whole files (its snapshots, each round's
// unread places) and a vector register is eight symbolic words: files of 128 for every
// kernel made `spongegen prove` 12% slower than files of 64.
inline constexpr int kNativeRegisters = 32;
inline constexpr int kMachineRegisters = 128;

// A register file, on the heap: a vector file is megabytes, more than a thread's stack
// holds for the copies a proof keeps.
using GpFile = std::vector<Value>;
using VectorFile = std::vector<VectorValue>;

class Machine {
 public:
  // `registers` in each file, kNativeRegisters to kMachineRegisters.
  explicit Machine(int registers = kNativeRegisters);
  int registers() const { return static_cast<int>(gp_.size()); }

  int add_region(std::string name, std::size_t bytes, bool writable);
  Region& region(int index) { return regions_.at(static_cast<std::size_t>(index)); }
  const std::vector<Region>& regions() const { return regions_; }

  // 8-byte accesses at 8-byte offsets of a region (the kernels move lanes and words; an
  // access of another size or alignment is reported, not modelled).
  Value load(const Pointer& at) const;
  void store(const Pointer& at, Value value);

  Value& gp(int index) { return gp_.at(static_cast<std::size_t>(index)); }
  VectorValue& vector(int index) { return vector_.at(static_cast<std::size_t>(index)); }
  Value& stack_pointer() { return stack_pointer_; }  // arm64 sp; amd64 uses gp(4)
  const Value& gp(int index) const { return gp_.at(static_cast<std::size_t>(index)); }
  const VectorValue& vector(int index) const { return vector_.at(static_cast<std::size_t>(index)); }
  const Value& stack_pointer() const { return stack_pointer_; }
  const GpFile& gp_registers() const { return gp_; }
  const VectorFile& vector_registers() const { return vector_; }

  // amd64's zero flag as the last flag-writing instruction left it: nothing when it depends
  // on data.
  std::optional<bool> zero_flag;
  // riscv64's vl as the last vsetivli set it (0: none yet): the vector instructions act on
  // that many 64-bit elements of each register.
  int vector_length = 0;

  // On a concrete run, a load of memory nothing wrote returns what a real stack would hold
  // there: something unrelated to the input, here a random integer. (On the proof's run it
  // is an error: the result would depend on whatever was there.)
  void read_stale_memory_as_random(std::uint64_t seed) { stale_seed_ = seed; }

  // While set, every load and store is recorded here (the induction over the block count
  // checks which block of the inputs and outputs one block of the loop touches).
  struct Access {
    Pointer at;
    bool store;
  };
  std::vector<Access>* access_log = nullptr;

  // Fresh variables: `count` consecutive ones, the first returned.
  Variable fresh(std::uint32_t count);
  Variable variables_used() const { return next_variable_; }

 private:
  std::vector<Region> regions_;
  GpFile gp_;
  VectorFile vector_;
  Value stack_pointer_{};
  Variable next_variable_ = 1;
  mutable std::optional<std::uint64_t> stale_seed_;
};

// The region index of a pointer a register holds; throws unless it holds one.
Pointer address_of(const Value& value, const char* what);
// The integer a register holds; throws unless every bit is constant, or when it is the
// block count (which only count_of reads).
std::uint64_t integer_of(const Value& value, const char* what);
// The integer, the block count included: for the instructions that count it down and test it.
std::uint64_t count_of(const Value& value, const char* what);

// Where control goes after one instruction.
struct Control {
  enum Kind { next, jump, call, ret } kind = next;
  LabelId label = kNoLabel;    // jump
  std::uint32_t function = 0;  // call: an index into Program::functions
};

// The constant tables an instruction may load from: Target::execute (each ISA's
// isa/<name>/semantics.cpp) gives one instruction's effect on the machine.
struct LabelRegions {
  std::vector<int> region_of_label;  // by LabelId; -1 for a code label
  int go_arguments = -1;             // Go ABI0 entries: the caller's argument slots (name+d(FP))
};

}  // namespace spongegen::prove
