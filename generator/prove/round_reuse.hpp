// Proving a round once: a kernel's entries share their round bodies (the permute entry and
// every absorb entry run the same instructions on the same registers, as do the cases of
// one entry with 1 to 3 blocks), so most of a kernel's proof is the same round proven again
// on machines that differ only in the names of their variables and in places the round never
// reads. A round here is a segment: the code from just after one round boundary to the next
// (a round loop's code branches on to it), which the prover runs and then checks at the
// boundary, where the model's state becomes fresh variables (prover.cpp, Run::cut). When a
// round of some code and round constant is proven the second time, its record is kept (a
// round nothing repeats is not worth one): the places the code read and what they
// held, the model's state it started from and the round's constant, and the machine as the
// boundary left it. A later round of the same code, round constant, model state, read
// contents (variables renamed in order, regions matched by name and shape) and context (what
// the run's other checks of each instruction depend on: the CFI rows over it and the call
// that entered it) takes the recorded machine instead of being run and checked again.
//
// Why that is sound, for every round it replaces:
// - The code's writes depend on its reads alone. Checked the first time a path (the
//   instructions a recorded round ran, in order) is recorded: they run a second time on a
//   copy of the machine whose every other place holds fresh variables (data, where the
//   first run may have had an address) and must branch, access memory and write exactly as
//   the first run did, everywhere. The reads are the instruction table's
//   (audit/semantics.hpp) and the loads the first run made; a read the table does not name
//   shows in the second run as a fresh variable (or as an address that is no buffer's) and
//   refuses the record. The registers the path wrote are kept with it: a row's registers
//   come from its operands, never from values, so a later record of the path writes those
//   and must leave every other register as it was. The machine is deterministic, so the same
//   code on the same reads writes the same.
// - The boundary after it matches and replaces only places the code wrote. Each word the
//   boundary looks for is a function of the model's state at the round's start, and checked
//   when recorded to hold a product of two of that state's variables; a place the round did
//   not write has no such product (checked when recorded, and again at every replay on the
//   replaying machine), so it cannot equal one. The written places hold what they held when
//   recorded, renamed, and the model's words are the same functions of the same renamed
//   state, so the boundary matches and replaces them as it did then.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "audit/semantics.hpp"
#include "prove/machine.hpp"

namespace spongegen::prove {

// One place of the machine: a general-purpose register, a word of a vector register, the
// stack pointer (arm64's; amd64 and riscv64 keep it in a general-purpose register), the
// zero flag, riscv64's vector length, or a word of a region.
struct Place {
  enum class Kind : std::uint8_t {
    gp,
    vector_word,
    stack_pointer,
    zero_flag,
    vector_length,
    memory
  };
  Kind kind = Kind::gp;
  int index = 0;  // the register, or the region
  int word = 0;   // the vector word, or the region's word
  auto operator<=>(const Place&) const = default;
};

// The places a register the instruction table names (audit/semantics.hpp) stands for: every
// word of a vector register; none for a memory location, whose words the loads name.
std::vector<Place> places_of(const audit::Location& location);

// A copy of `machine` whose every place outside `reads` holds fresh variables (memory that
// nothing wrote stays unwritten; the zero flag becomes unknown, the vector length unset).
Machine with_unread_places_fresh(const Machine& machine, const std::vector<Place>& reads);

// A machine's registers, flag and stack pointer.
struct Registers {
  GpFile gp;
  VectorFile vector;
  Value stack_pointer;
  std::optional<bool> zero_flag;
  int vector_length = 0;
};
Registers registers_of(const Machine& machine);

// The places a round's code wrote, run from `before` to `after` (storing as `accesses`
// say) and from with_unread_places_fresh(before, reads) (whose registers were
// `poisoned_before`) to `poisoned_after` (storing at the same places, as the addresses are
// the same reads'): every place either run changed or stored, where both runs must have
// written the same; nothing when they did not.
std::optional<std::vector<Place>> code_writes(const Machine& before, const Machine& after,
                                              const Registers& poisoned_before,
                                              const Machine& poisoned_after,
                                              const std::vector<Machine::Access>& accesses);

// The records of one kernel's proof, shared by the threads that prove its cases. A record
// holds no polynomial (the polynomials of one proof stay on its thread), only monomials with
// the variables numbered in the record's own order.
// Whether every register, vector word, flag and stack pointer outside `writes` holds in
// `after` what it held in `before`.
bool registers_unchanged_outside(const Machine& before, const Machine& after,
                                 const std::set<Place>& writes);

class RoundReuse {
 public:
  // A path (the instructions one recorded round ran, in order) whose second run on fresh
  // unread places passed: the registers it wrote. The later records of the same path take
  // them instead of running it again (what it reads and loads is found on every run).
  std::optional<std::vector<Place>> path_writes(const std::vector<const void*>& path) const;
  void check_path(std::vector<const void*> path, std::vector<Place> registers);

  // A round's code, from an item after a round marker on to the next marker: known by its
  // text as the GNU assembler prints it when it is straight (no branch, call or return
  // before that marker, the item `end`), else by where it starts (a round loop: the path it
  // takes is the reads', the same on the same reads).
  struct Segment {
    std::string code;  // straight: its text; else where it starts
    bool straight = true;
    std::size_t end = 0;  // straight: the item of the next marker
  };
  // The segment starting at item `start` of `items` (a Program's, which outlives this), made
  // by `make` the first time it is asked for; nothing when the code there is not one.
  const Segment* segment(const void* items, std::size_t start,
                         const std::function<std::optional<Segment>()>& make);

  // Where a round starts: its code, what the run's checks of it depend on besides the code
  // and the machine (the prover's CFI context), the round constant's index, the model's state.
  struct RoundStart {
    const Segment& segment;
    std::string_view context;
    int round;
    std::span<const Word> model_state;
  };
  struct Replayed {
    std::size_t instructions = 0;
    std::vector<Machine::Access> accesses;  // the recorded run's, for the block loop's check
    std::vector<Word> model_state;          // after the round: fresh variables
    bool branched = false;                  // the code branched
    // The next marker of code that branches: item `end` of `end_items` (straight code's is
    // the replaying copy's own Segment::end).
    const void* end_items = nullptr;
    std::size_t end = 0;
  };
  // When a record of this round read what `machine` holds: the machine as the boundary after
  // the round leaves it (the state's fresh variables allocated as the boundary allocates
  // them), and the model's state there.
  std::optional<Replayed> replay(const RoundStart& start, Machine& machine) const;

  // What a recording needs besides the round's start: the machine before the round and as
  // the boundary after it left it, the places the code wrote (code_writes) and read, the
  // instructions it ran and the memory it accessed, the words the boundary looked for (the
  // model's state after the round and the sums a kernel may carry) and the model's state it
  // left (fresh variables).
  struct Recorded {
    const Machine& before;
    const Machine& after_boundary;
    const std::vector<Place>& writes;
    const std::vector<Place>& reads;
    std::size_t instructions;
    const std::vector<Machine::Access>& accesses;
    std::span<const Word> boundary_words;
    std::span<const Word> model_state_after;
    bool branched;
    const void* end_items;  // as Replayed's
    std::size_t end;
  };
  // Whether a round of this code and round constant started before (a record is kept from
  // the second on: a round no other repeats, as in a loop that one entry alone runs, is not
  // worth recording).
  bool seen_before(const RoundStart& start);

  // Keeps the record; false, keeping nothing, when one of the conditions above fails.
  bool record(const RoundStart& start, const Recorded& run);

 private:
  // A region as a record names it: matched to a run's region of the same name and shape.
  struct RegionShape {
    std::string name;
    std::size_t words;
    bool writable;
    std::int64_t writable_below, home_space_begin, home_space_end;
    friend bool operator==(const RegionShape&, const RegionShape&) = default;
  };
  // What one recorded round wrote (by the group's region numbers), in the record's variables.
  struct Written {
    std::vector<Place> writes;
    std::vector<std::uint64_t> values;
    std::size_t instructions = 0;
    std::vector<Machine::Access> accesses;
    bool branched = false;
    const void* end_items = nullptr;
    std::size_t end = 0;
  };
  // The records of one code and round constant that read the same places: their reads'
  // contents and model state, encoded, each with what it wrote.
  struct Group {
    std::vector<RegionShape> regions;  // the group's region numbers index this
    std::vector<Place> reads;          // memory places by the group's region numbers
    std::map<std::vector<std::uint64_t>, std::shared_ptr<const Written>> by_read_values;
    // The addresses and flags its records read (a loop's rounds differ in their round
    // constant's address): a round whose are none of these is no record's, found without
    // renaming its variables.
    std::set<std::vector<std::uint64_t>> signatures;
  };
  mutable std::mutex mutex_;
  std::map<std::pair<const void*, std::size_t>, std::optional<Segment>> segments_;
  std::map<std::vector<const void*>, std::vector<Place>> checked_paths_;
  std::set<std::string> seen_;
  std::unordered_map<std::string, std::vector<std::shared_ptr<Group>>> groups_;
};

}  // namespace spongegen::prove
