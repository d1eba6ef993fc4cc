#include "prove/prover.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <system_error>
#include <thread>
#include <unordered_map>

#include "audit/semantics.hpp"
#include "isa/target.hpp"
#include "program/cfi_rows.hpp"
#include "program/instruction_table.hpp"
#include "prove/machine.hpp"
#include "prove/proof_cache.hpp"
#include "prove/round_reuse.hpp"
#include "prove/specification.hpp"
#include "support/splitmix64.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::prove {
namespace {

constexpr std::size_t kStackBytes = 16384;
constexpr std::int64_t kStackTop = kStackBytes - 64;  // the caller's frame above: Win64 home space
// A call summary (a Windows x64 entry calling its System V body) covers this many arguments.
constexpr std::size_t kMostSummarizedArguments = 4;
constexpr int kCounterexampleTrials = 64;
constexpr std::size_t kMostSteps = 4'000'000;
// The block count of the run that also proves every larger count (Run::check_block_loop).
constexpr std::size_t kInductionBlocks = 3;

// The CFI rows of every function that has them, by its items: every function of a GNU
// assembler file (each opens with .cfi_startproc, so one without a CFI item is described
// too: the CFA where the call left it). Go ABI0 code and Windows x64 entries have none: their
// unwinding is the toolchain's or the unwind codes'. The rows depend on the Program alone,
// so each kernel's proof reads them once for all its cases.
using CfiOfFunctions = std::map<const std::vector<Item>*, CfiRows>;

CfiOfFunctions cfi_of_functions(const Program& program) {
  CfiOfFunctions rows;
  if (program.go_abi0) return rows;
  for (const Function& f : program.functions)
    rows[&f.items] = cfi_rows(f.items, target(program.isa).call_pushes_bytes());
  return rows;
}

// The failure of one run: the proof's reason, in words.
struct ProofFailure {
  std::string reason;
  // The entry returned with a word other than the model's: on concrete inputs, a
  // counterexample. (Otherwise the run stopped where the machine cannot follow the code,
  // which does not depend on the input.)
  bool wrong_value = false;
};

struct Case {
  std::size_t function;
  bool win64;
  std::size_t block_count;
  bool in_place;
};

// What a proven System V entry case establishes, which a Windows x64 entry's call of that
// entry with the same arguments then takes as given (Run::summarize_call): called with the
// state and the inputs the case's proof starts from, it returns with the state and every
// output word the model's, rbx, rbp, r12-r15 and rsp as they were, no word at or above its
// return address written, its stack no deeper than `stack_bytes` below it, and the
// registers it preserves (whatever they held) holding their values again.
struct CallSummary {
  std::size_t function;
  std::size_t block_count;
  bool in_place;
  std::int64_t stack_bytes;
  std::bitset<kMachineRegisters>
      preserved_gp;  // and rsp, which the proof returns where the call left it
  std::array<std::uint8_t, kMachineRegisters> preserved_vector_words;
};

// The words an entry starts from: variables (the proof), or random integers (the search for
// a counterexample).
class Inputs {
 public:
  Inputs(Machine& machine, std::optional<std::uint64_t> seed)
      : machine_(machine),
        random_(seed.value_or(0)),
        concrete_(seed.has_value()),
        seed_(seed.value_or(0)) {}
  Word next() {
    if (concrete_) return constant_word(random_.next());
    return variable_word(machine_.fresh(64));
  }
  bool concrete() const { return concrete_; }
  std::uint64_t seed() const { return seed_; }

 private:
  Machine& machine_;
  SplitMix64 random_;
  bool concrete_;
  std::uint64_t seed_;
};

// The registers each of the machine's files needs for `program`: one past the highest index
// any register operand or memory base names, kNativeRegisters at least.
int register_count(const Program& program) {
  int count = kNativeRegisters;
  const auto note = [&](const Reg& reg) { count = std::max(count, reg.index + 1); };
  for (const Function& function : program.functions) {
    for (const Item& item : function.items) {
      const auto* instruction = std::get_if<Instruction>(&item);
      if (instruction == nullptr) continue;
      for (const Operand& operand : instruction->operands) {
        if (const auto* reg = std::get_if<Reg>(&operand)) note(*reg);
        const auto* mem = std::get_if<Mem>(&operand);
        if (mem != nullptr && mem->base != kNoBase) note(mem->base);
      }
    }
  }
  return count;
}

class Run {
 public:
  Run(const kernels::KernelSpec& spec, const Program& program, const CfiOfFunctions& cfi,
      const Case& c, std::optional<std::uint64_t> seed,
      const std::vector<CallSummary>* summaries = nullptr, RoundReuse* reuse = nullptr)
      : kernel_(spec),
        program_(program),
        cfi_of_functions_(cfi),
        target_(target(program.isa)),
        case_(c),
        machine_(register_count(program)),
        inputs_(machine_, seed),
        summaries_(summaries),
        reuse_(reuse) {}

  // Runs the entry to its return and compares; throws ProofFailure.
  void execute(EntryProof& proof);
  // A concrete run's input, as the entry's C arguments take it; what the machine left and
  // what the model expects (after a run that reached the return).
  verify::EntryInput concrete_input() const;
  ConcreteOutcome machine_outcome() const;
  ConcreteOutcome model_outcome() const { return model_outcome_; }
  // After a run that returned: how far below its return address the entry's stack went.
  std::int64_t stack_bytes() const;
  // After a symbolic run that returned: the registers and vector words that hold their
  // initial (free) values again, so whatever the caller left there.
  void preserved(EntryProof& proof) const;
  bool call_summarized() const { return !summary_state_.empty(); }

 private:
  const Function& entry() const {
    return case_.win64 ? program_.win64_entries.at(case_.function)
                       : program_.functions.at(case_.function);
  }
  // A Go (ABI0) entry: its arguments in the caller's frame (FP), its own frame allocated and
  // released by the Go toolchain's prologue and epilogue around this code.
  bool go_abi() const { return program_.go_abi0; }
  // Where a Go entry's code finds the stack pointer, and must leave it: below the frame the
  // toolchain's prologue allocated under the saved BP (amd64) or the saved LR and FP (arm64).
  Pointer go_stack_pointer() const {
    return {stack_region_, kStackTop - target_.go_prologue_saved_bytes() - entry().frame_bytes};
  }
  void lay_out();
  // At the boundary after `completed` rounds: the machine's words that are the model's state
  // become fresh variables. Throws if none of the boundary's states is in the machine,
  // except before the first round (completed 0), where the cut is optional.
  void cut(int completed);
  void check_return();
  // Before `at`, item `item` of a function with CFI: the rows put the CFA at `caller_sp`, and
  // (in the entry's own code, where the registers' values at the call are known) each
  // register the caller needs back, and the return address on a machine with a link
  // register, is where its rule says: in memory at the CFA + offset, or with no rule, in
  // the register itself.
  void check_cfi(const CfiRows& cfi, std::size_t item, const Pointer& caller_sp, bool entry_code,
                 const Instruction& at);
  // Whether `in` may change what check_cfi's register rules look at, given the rules in force:
  // a store on the stack, a register the caller needs back that no rule saves, a push, call,
  // return or writeback. Where none may, the rules' check is not repeated (it compares whole
  // words, which would take most of a proof's time).
  bool may_move_saved_values(const InstructionSpec& row, const Instruction& in,
                             const std::vector<SavedRule>& rules, const Pointer& caller_sp);
  // The straight-line code from the round marker before item `start` of `items` to the next,
  // if it is a round whose proof may be taken from another's (prove/round_reuse.hpp).
  const RoundReuse::Segment* segment_at(const std::vector<Item>& items, std::size_t start,
                                        int rounds_entered);
  Value& argument(int index);
  bool summarize_call(std::size_t function);

  const kernels::KernelSpec& kernel_;
  const Program& program_;
  const CfiOfFunctions& cfi_of_functions_;
  const Target& target_;
  Case case_;
  Machine machine_;
  Inputs inputs_;
  std::optional<Specification> spec_;
  LabelRegions labels_;
  int state_region_ = -1, stack_region_ = -1, return_region_ = -1, output_region_ = -1;
  std::vector<int> input_regions_;
  std::vector<Value> go_arguments_;
  ConcreteOutcome model_outcome_;
  std::vector<std::vector<Word>> input_words_;  // each input region's words at the call
  std::vector<Word> initial_state_;
  GpFile initial_gp_;
  VectorFile initial_vector_;
  int boundaries_ = 0;
  // The CFI's proof (check_cfi): the registers a caller needs back, and the rules last found
  // in place, whose check is repeated only after a write that may move a saved value.
  PreservedRegisters cfi_preserved_;
  bool saved_values_moved_ = true;
  std::pair<const CfiRows*, std::uint32_t> rules_checked_{nullptr, 0};
  // The induction over the block count (check_block_loop): the machine right after the
  // boundaries that start blocks 1 and 2, the variables the inputs and the boundaries use.
  struct Snapshot {
    GpFile gp;
    VectorFile vector;
    Value stack_pointer;
    std::optional<bool> zero_flag;
    std::vector<std::vector<std::optional<Value>>> regions;
    Variable first_cut_variable;
  };
  Snapshot snapshot() const;
  void check_block_loop(const Snapshot& before, const Snapshot& after) const;
  std::optional<Snapshot> block_one_;
  std::vector<Machine::Access> block_accesses_;  // from the start of block 1 to that of block 2
  Variable first_input_variable_ = 0, end_input_variable_ = 0, first_cut_variable_ = 0;
  std::size_t rate_words_ = 0;
  // A Windows x64 entry's call summarized (summarize_call): the arguments the entry was
  // passed, whether it branched before the call, and the words standing for the state and
  // the output the callee returned with (the model's).
  const std::vector<CallSummary>* summaries_;
  std::vector<Value> passed_arguments_;
  bool branched_ = false;
  std::vector<Word> summary_state_;
  std::vector<std::pair<std::size_t, Word>> summary_output_;  // (word of the output region, value)
  // Proving a round once (prove/round_reuse.hpp): the round being recorded (its code, its
  // round constant and model state, the machine as it began, what it loaded and stored,
  // and the log its accesses go on to: the block loop's), and at its end the words the
  // boundary looked for.
  RoundReuse* reuse_;
  struct Recording {
    const std::vector<Item>* items;
    std::size_t start;
    const RoundReuse::Segment* segment;
    std::string cfi_context;
    int round;
    std::vector<Word> model_state;
    Machine before;
    std::vector<Machine::Access> accesses;
    std::vector<Machine::Access>* outer_log;
    // What the code read before writing it, as the instruction table says (the stack pointer
    // and the vector length always), and wrote; each instruction it ran, with where control went.
    std::set<Place> read, written;
    std::vector<std::pair<const Instruction*, Control>> executed;
    bool branched = false;
  };
  std::optional<Recording> recording_;
  std::vector<Word> boundary_words_;
  // The recorded round's code, run again on a machine whose unread places are fresh: what
  // it read and wrote (the boundary then runs, and the record is kept).
  struct CodeRuns {
    std::vector<Place> reads, writes;
    std::size_t instructions = 0;
  };
  void note_recorded(const Instruction& instruction, const Control& control);
  void stop_recording();
  std::optional<CodeRuns> run_recorded_code_again();
  void keep_record(const CodeRuns& runs, const std::vector<Item>* end_items, std::size_t end);
  // Replays the rounds from item `index` of `items` on while they have records, and starts
  // recording the first that has none; returns the item after the last replayed round (of
  // `items` as it leaves it).
  // `caller_sp` and `entry_code` as check_cfi takes them: a recorded round holds no call or
  // return, so they hold for every round replayed.
  std::size_t replay_rounds(const std::vector<Item>*& items, std::size_t index, int& rounds_entered,
                            EntryProof& proof, std::size_t& steps, const Pointer& caller_sp,
                            bool entry_code);
  // What the CFI's checks of a round from item `start` of `items` depend on besides its code
  // (whose text holds the CFI directives within it): the row above it, where the call that
  // entered its function left the stack pointer, and whether the register rules are checked.
  // A replayed round's instructions are not checked, so its record must be one whose were
  // checked against the same.
  std::string cfi_context(const std::vector<Item>& items, std::size_t start,
                          const Pointer& caller_sp, bool entry_code) const;
  bool checks_saved_registers(bool entry_code) const {
    return entry_code && !case_.win64 && !go_abi();
  }

 public:
  bool block_loop_checked_ = false;
};

Value& Run::argument(int index) {
  if (go_abi()) {  // kept here, stored into the argument slots once all are known
    if (go_arguments_.size() <= static_cast<std::size_t>(index)) {
      go_arguments_.resize(static_cast<std::size_t>(index) + 1);
    }
    return go_arguments_[static_cast<std::size_t>(index)];
  }
  return machine_.gp(target_.argument_gp(index, case_.win64));
}

void Run::lay_out() {
  if (inputs_.concrete()) machine_.read_stale_memory_as_random(inputs_.seed());
  labels_.region_of_label.assign(program_.label_names.size(), -1);
  for (const QuadTable& table : program_.tables) {
    const int region =
        machine_.add_region(fmt::format("the table {}", program_.label_names.at(table.label)),
                            table.values.size() * 8, true);
    for (std::size_t i = 0; i < table.values.size(); ++i)
      machine_.store({region, static_cast<std::int64_t>(8 * i)}, Value::integer(table.values[i]));
    machine_.region(region).writable = false;
    labels_.region_of_label.at(table.label) = region;
  }
  const EntryShape& shape = entry().shape;
  const std::size_t state_words = static_cast<std::size_t>(shape.parameters.at(0).extent);
  state_region_ = machine_.add_region("the state", state_words * 8, true);
  // In the specification's order (state after state); stored once the specification says
  // where each word lives.
  for (std::size_t w = 0; w < state_words; ++w)
    initial_state_.push_back(inputs_.next());
  // Initial registers: whatever the caller left, as free words, so that a result that uses
  // one, or a callee-saved register not restored, shows.
  for (int r = 0; r < machine_.registers(); ++r) {
    machine_.gp(r) = Value::data(inputs_.next());
    for (Word& word : machine_.vector(r))
      word = inputs_.next();
  }
  initial_gp_ = machine_.gp_registers();
  initial_vector_ = machine_.vector_registers();

  stack_region_ = machine_.add_region("the stack", kStackBytes, true);
  return_region_ = machine_.add_region("the caller's code", 0, false);
  const Value return_address = Value::address({return_region_, 0});
  // The call leaves the return address in the link register, or pushes it; a Go entry
  // starts below what the toolchain's prologue saved (BP; or LR and FP) and the frame it
  // allocated. A leaf's epilogue does not reload LR: it must still hold the return address
  // at RET.
  const std::optional<Reg> link = target_.link_register();
  if (link) {
    machine_.gp(link->index) = return_address;
  } else {
    machine_.store({stack_region_, kStackTop}, return_address);
  }
  target_.stack_pointer_value(machine_) =
      Value::address(go_abi() ? go_stack_pointer() : Pointer{stack_region_, kStackTop});
  // From the stack pointer at the call up lies the caller's frame (and on amd64 the return
  // address): a Windows x64 entry may use the 32 bytes of home space above the return
  // address, no entry anything else.
  Region& stack = machine_.region(stack_region_);
  stack.writable_below = go_abi() ? go_stack_pointer().offset + entry().frame_bytes : kStackTop;
  if (case_.win64) {
    stack.home_space_begin = kStackTop + 8;
    stack.home_space_end = kStackTop + 40;
  }

  argument(0) = Value::address({state_region_, 0});
  EntryInputs inputs;
  const auto add_input = [&](std::size_t words, const std::string& name, bool writable) {
    const int region = machine_.add_region(name, words * 8, true);
    std::vector<Word> block;
    for (std::size_t w = 0; w < words; ++w) {
      block.push_back(inputs_.next());
      machine_.store({region, static_cast<std::int64_t>(8 * w)}, Value::data(block.back()));
    }
    machine_.region(region).writable = writable;
    input_regions_.push_back(region);
    input_words_.push_back(block);
    return std::pair{region, block};
  };
  const std::size_t rate_words = static_cast<std::size_t>(shape.rate_bytes) / 8;
  rate_words_ = rate_words;
  first_input_variable_ = machine_.variables_used();
  const std::size_t parameters = shape.parameters.size();
  if (parameters == 2 && shape.lanes == 1) {  // one block
    auto [region, block] = add_input(rate_words, "the block", false);
    inputs.blocks.push_back(block);
    argument(1) = Value::address({region, 0});
  } else if (shape.lanes > 1) {
    // A block per state through an array of pointers; with a block count (the third
    // parameter), block_count consecutive blocks per state. The specification takes them
    // block after block, each block's states in order.
    const bool counted = shape.takes_block_count();
    const std::size_t blocks = counted ? case_.block_count : 1;
    const int pointers =
        machine_.add_region("the block pointers", 8 * static_cast<std::size_t>(shape.lanes), true);
    std::vector<std::vector<Word>> per_state;
    for (int s = 0; s < shape.lanes; ++s) {
      auto [region, words] =
          add_input(rate_words * blocks,
                    fmt::format("the block{} of state {}", counted ? "s" : "", s), false);
      per_state.push_back(std::move(words));
      machine_.store({pointers, 8 * s}, Value::address({region, 0}));
    }
    for (std::size_t b = 0; b < blocks; ++b) {
      for (const std::vector<Word>& words : per_state) {
        inputs.blocks.emplace_back(
            words.begin() + static_cast<std::ptrdiff_t>(b * rate_words),
            words.begin() + static_cast<std::ptrdiff_t>((b + 1) * rate_words));
      }
    }
    machine_.region(pointers).writable = false;
    argument(1) = Value::address({pointers, 0});
    if (counted) {
      Value count = Value::integer(case_.block_count);
      count.block_count = true;
      argument(2) = count;
    }
  } else if (shape.takes_block_count()) {
    const bool crypt = parameters == 4;
    auto [region, all] =
        add_input(rate_words * case_.block_count, "the input", crypt && case_.in_place);
    for (std::size_t b = 0; b < case_.block_count; ++b) {
      inputs.blocks.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(b * rate_words),
                                 all.begin() + static_cast<std::ptrdiff_t>((b + 1) * rate_words));
    }
    argument(1) = Value::address({region, 0});
    if (crypt) {
      output_region_ = case_.in_place ? region
                                      : machine_.add_region(
                                            "the output", rate_words * case_.block_count * 8, true);
      inputs.output_region = output_region_;
      argument(2) = Value::address({output_region_, 0});
    }
    Value count = Value::integer(case_.block_count);
    count.block_count = true;
    argument(static_cast<int>(parameters) - 1) = count;
  }
  if (go_abi()) {
    labels_.go_arguments = machine_.add_region("the arguments", 8 * go_arguments_.size(), true);
    for (std::size_t a = 0; a < go_arguments_.size(); ++a)
      machine_.store({labels_.go_arguments, static_cast<std::int64_t>(8 * a)}, go_arguments_[a]);
    machine_.region(labels_.go_arguments).writable = false;
  }
  end_input_variable_ = machine_.variables_used();
  if (case_.win64) {
    for (std::size_t p = 0; p < parameters; ++p)
      passed_arguments_.push_back(argument(static_cast<int>(p)));
  }
  spec_.emplace(kernel_.family, shape, initial_state_, std::move(inputs));
  for (std::size_t w = 0; w < state_words; ++w) {
    machine_.store({state_region_, static_cast<std::int64_t>(8 * spec_->memory_word(w))},
                   Value::data(initial_state_[w]));
  }
}

// The words a round boundary matches: every register word that holds data, and the words of
// the state and the stack (outputs and inputs keep the variables they were written with).
template <class Visit>
void for_each_location(Machine& machine, std::initializer_list<int> regions, const Visit& visit) {
  for (int r = 0; r < machine.registers(); ++r) {
    Value& v = machine.gp(r);
    if (!v.is_address()) visit(v.bits);
    for (Word& word : machine.vector(r))
      visit(word);
  }
  for (int region : regions) {
    for (auto& slot : machine.region(region).words) {
      if (slot && !slot->is_address()) visit(slot->bits);
    }
  }
}

void Run::cut(int completed) {
  std::vector<Specification::Boundary> boundaries = spec_->boundaries_after(completed);
  // Before the first round the state is the entry's own variables, fresh already, unless a
  // block's input was added to it: then the round would start from two variables a bit
  // (and its products from four times the monomials), so that sum becomes fresh variables
  // when the machine holds it. When it does not, the round runs on as it is.
  const bool optional = completed == 0;
  if (optional && boundaries.size() < 2) return;
  if (optional) boundaries.pop_back();  // the state without the input: what the machine has
  std::string missing;
  for (const Specification::Boundary& boundary : boundaries) {
    // What each candidate is: a state word, or a sum of state words.
    // A sum's value is made only when a word's hash is its hash (most rounds carry none).
    struct Candidate {
      const Word* value;  // matched by its variable part; a sum's: null until made
      std::uint64_t constant;
      std::vector<std::size_t> words;
    };
    std::vector<Candidate> candidates;
    std::vector<std::uint64_t> hashes;
    for (std::size_t w = 0; w < boundary.state.size(); ++w) {
      candidates.push_back({&boundary.state[w], constant_part(boundary.state[w]), {w}});
      hashes.push_back(hash_of_variable_part(boundary.state[w]));
    }
    std::vector<Word> sums;
    sums.reserve(spec_->carried_sums().size());  // the candidates point into it
    for (const auto& summed : spec_->carried_sums()) {
      std::uint64_t constant = 0, hash = 0;
      for (std::size_t w : summed) {
        constant ^= candidates[w].constant;
        hash ^= hashes[w];
      }
      candidates.push_back({nullptr, constant, summed});
      hashes.push_back(hash);
    }
    std::unordered_multimap<std::uint64_t, std::size_t> by_hash;
    for (std::size_t c = 0; c < candidates.size(); ++c)
      by_hash.emplace(hashes[c], c);
    // Match first, replace after: a boundary that does not match leaves the machine as it was.
    std::vector<std::pair<Word*, std::size_t>> matches;
    std::vector<bool> found(boundary.state.size(), false);
    for_each_location(machine_, {state_region_, stack_region_}, [&](Word& word) {
      if (is_constant(word)) return;
      const auto [first, last] = by_hash.equal_range(hash_of_variable_part(word));
      for (auto it = first; it != last; ++it) {
        Candidate& candidate = candidates[it->second];
        if (candidate.value == nullptr) {
          std::vector<const Word*> parts;
          for (std::size_t w : candidate.words)
            parts.push_back(&boundary.state[w]);
          sums.push_back(sum(parts));
          candidate.value = &sums.back();
        }
        if (!equal_variable_parts(*candidate.value, word)) continue;
        matches.emplace_back(&word, it->second);
        if (candidate.words.size() == 1) found[candidate.words[0]] = true;
        return;
      }
    });
    const auto absent = std::find(found.begin(), found.end(), false);
    if (absent != found.end()) {
      if (missing.empty()) {
        missing = fmt::format("{} (the state {}) is in no register or memory word",
                              spec_->word_name(static_cast<std::size_t>(absent - found.begin())),
                              boundary.description);
      }
      continue;
    }
    if (recording_) {
      boundary_words_ = boundary.state;
      for (const auto& summed : spec_->carried_sums()) {
        std::vector<const Word*> parts;
        for (std::size_t w : summed)
          parts.push_back(&boundary.state[w]);
        boundary_words_.push_back(sum(parts));
      }
    }
    std::vector<Word> fresh;
    const Variable first_fresh = machine_.variables_used();
    // The cut before the first round makes variables for the block-0 state once, which the
    // block loop's induction keeps as they are, like the entry's own (check_block_loop).
    if (first_cut_variable_ == 0 && completed >= 1) first_cut_variable_ = first_fresh;
    for (std::size_t w = 0; w < boundary.state.size(); ++w)
      fresh.push_back(variable_word(machine_.fresh(64)));
    for (auto [word, c] : matches) {
      Word replacement = constant_word(constant_part(*word) ^ candidates[c].constant);
      for (std::size_t w : candidates[c].words)
        replacement = replacement ^ fresh[w];
      *word = std::move(replacement);
    }
    spec_->rebase(std::move(fresh), boundary);
    ++boundaries_;
    // The induction over the block count: on the run with three blocks, the machine as
    // block 1 starts and as block 2 starts.
    const int rounds = entry().shape.rounds;
    if (case_.block_count == kInductionBlocks && completed == rounds) {
      block_one_ = snapshot();
      block_one_->first_cut_variable = first_fresh;
      machine_.access_log = &block_accesses_;
    } else if (case_.block_count == kInductionBlocks && completed == 2 * rounds && block_one_) {
      machine_.access_log = nullptr;
      Snapshot block_two = snapshot();
      block_two.first_cut_variable = first_fresh;
      check_block_loop(*block_one_, block_two);
      block_loop_checked_ = true;
    }
    return;
  }
  if (optional) return;
  throw ProofFailure{fmt::format("at the boundary after round {}: {}", completed, missing)};
}

Run::Snapshot Run::snapshot() const {
  Snapshot shot;
  const Machine& m = machine_;
  shot.gp = m.gp_registers();
  shot.vector = m.vector_registers();
  shot.stack_pointer = m.stack_pointer();
  shot.zero_flag = m.zero_flag;
  for (const Region& region : machine_.regions())
    shot.regions.push_back(region.words);
  return shot;
}

// Why every block count is proven, given the counts 0 to 3: the block count only counts
// down and is tested against zero (the machine refuses anything else), so from the start of
// block 1 on, a run with n blocks executes the same instructions as the run with three,
// block after block, provided each block leaves the machine as it found it up to the
// renaming a block makes: the boundary's fresh variables for the previous ones, the next
// input block for this one, the input and output addresses one block on, the count one
// less. That is checked here, on every register, flag and word of the state and the stack,
// between the start of block 1 and the start of block 2; with it, block k + 1 starts as
// block k did, renamed, for every k, and the last block ends as the third does.
void Run::check_block_loop(const Snapshot& before, const Snapshot& after) const {
  const Variable cut_shift = after.first_cut_variable - before.first_cut_variable;
  const Variable input_shift = static_cast<Variable>(64 * rate_words_);
  const auto rename = [&](Variable v) -> Variable {
    // Every boundary makes as many fresh variables, so the variables of any boundary map
    // to those of the boundary a block later; the cut before the first round is made once,
    // before the loop, and its variables stand for the same words in every block.
    if (v >= first_cut_variable_) return v + cut_shift;
    if (v >= first_input_variable_ && v < end_input_variable_) return v + input_shift;
    return v;
  };
  const auto rename_word = [&](const Word& word) {
    Word out;
    for (std::size_t bit = 0; bit < 64; ++bit) {
      for (std::uint64_t monomial : word[bit].monomials()) {
        const Variable a = static_cast<Variable>(monomial >> 32),
                       b = static_cast<Variable>(monomial);
        Poly term = Poly::constant(true);
        if (a != 0) term = term & Poly::variable(rename(a));
        if (b != 0) term = term & Poly::variable(rename(b));
        out[bit] ^= term;
      }
    }
    return out;
  };
  const auto moves_by_a_block = [&](int region) {
    return std::find(input_regions_.begin(), input_regions_.end(), region) !=
               input_regions_.end() ||
           region == output_region_;
  };
  const auto same = [&](const Value& x, const Value& y) {
    if (x.block_count != y.block_count || x.is_address() != y.is_address()) return false;
    if (x.block_count) return count_of(x, "the block count") == count_of(y, "the block count") + 1;
    if (x.is_address()) {
      const std::int64_t shift =
          moves_by_a_block(x.pointer->region) ? 8 * static_cast<std::int64_t>(rate_words_) : 0;
      return x.pointer->region == y.pointer->region &&
             x.pointer->offset + shift == y.pointer->offset;
    }
    return rename_word(x.bits) == y.bits;
  };
  const auto fail = [](const std::string& where) {
    throw ProofFailure{
        "the block loop does not repeat: from the start of block 1 to the start of "
        "block 2, " +
        where + " changes otherwise than by one block"};
  };
  // The inputs and outputs: the block's code touches one block of them, the same one in
  // all of them, which at its start holds what the caller passed (input) or nothing yet
  // (output). A later block then touches the next block, which holds the same, renamed.
  const std::int64_t block_bytes = 8 * static_cast<std::int64_t>(rate_words_);
  std::optional<std::int64_t> window;
  for (const Machine::Access& access : block_accesses_) {
    if (!moves_by_a_block(access.at.region)) continue;
    const std::int64_t block = access.at.offset / block_bytes;
    if (window && *window != block) {
      fail(
          fmt::format("the blocks of the input and output it touches ({} and {})", *window, block));
    }
    window = block;
  }
  if (window) {
    for (int region : input_regions_) {
      const auto& words = before.regions.at(static_cast<std::size_t>(region));
      const auto& initial = input_words_.at(
          static_cast<std::size_t>(std::find(input_regions_.begin(), input_regions_.end(), region) -
                                   input_regions_.begin()));
      for (std::int64_t w = *window * static_cast<std::int64_t>(rate_words_);
           w < (*window + 1) * static_cast<std::int64_t>(rate_words_); ++w) {
        const auto& word = words.at(static_cast<std::size_t>(w));
        if (!word || word->is_address() || word->bits != initial.at(static_cast<std::size_t>(w))) {
          fail("the input block it reads, written before it");
        }
      }
    }
    if (output_region_ >= 0 && std::find(input_regions_.begin(), input_regions_.end(),
                                         output_region_) == input_regions_.end()) {
      const auto& words = before.regions.at(static_cast<std::size_t>(output_region_));
      for (std::int64_t w = *window * static_cast<std::int64_t>(rate_words_);
           w < (*window + 1) * static_cast<std::int64_t>(rate_words_); ++w) {
        if (words.at(static_cast<std::size_t>(w)))
          fail("the output block it writes, written before it");
      }
    }
  }
  for (int r = 0; r < static_cast<int>(before.gp.size()); ++r) {
    const std::size_t i = static_cast<std::size_t>(r);
    if (!same(before.gp[i], after.gp[i])) fail(fmt::format("general-purpose register {}", r));
    for (std::size_t w = 0; w < kVectorWords; ++w) {
      if (rename_word(before.vector[i][w]) != after.vector[i][w])
        fail(fmt::format("vector register {}", r));
    }
  }
  // A stack pointer outside the general-purpose registers (arm64's sp) is compared here.
  if (target_.stack_pointer().cls == RegClass::sp &&
      !same(before.stack_pointer, after.stack_pointer)) {
    fail("sp");
  }
  if (before.zero_flag != after.zero_flag) fail("the zero flag");
  for (int region : {state_region_, stack_region_}) {
    const auto& x = before.regions.at(static_cast<std::size_t>(region));
    const auto& y = after.regions.at(static_cast<std::size_t>(region));
    for (std::size_t w = 0; w < x.size(); ++w) {
      if (x[w].has_value() != y[w].has_value() || (x[w] && !same(*x[w], *y[w]))) {
        fail(fmt::format("word {} of {}", w,
                         machine_.regions()[static_cast<std::size_t>(region)].name));
      }
    }
  }
}

void Run::check_return() {
  if (call_summarized()) {
    // The callee returned with the model's state and output (its summary): those words must
    // be what the entry leaves.
    for (std::size_t w = 0; w < summary_state_.size(); ++w) {
      const Value actual =
          machine_.load({state_region_, static_cast<std::int64_t>(8 * spec_->memory_word(w))});
      if (actual.is_address() || actual.bits != summary_state_[w]) {
        throw ProofFailure{
            fmt::format("at the return: {} of the state is not what the System V "
                        "entry returned with",
                        spec_->word_name(w))};
      }
    }
    for (const auto& [w, value] : summary_output_) {
      const std::optional<Value>& actual = machine_.region(output_region_).words.at(w);
      if (!actual || actual->is_address() || actual->bits != value) {
        throw ProofFailure{fmt::format(
            "at the return: output word {} is not what the System V entry returned with", w)};
      }
    }
  }
  const std::vector<Word> expected = call_summarized() ? std::vector<Word>{} : spec_->final_state();
  if (inputs_.concrete()) {
    model_outcome_ = machine_outcome();
    for (std::size_t w = 0; w < expected.size(); ++w)
      model_outcome_.state[spec_->memory_word(w)] = constant_value(expected[w]);
    for (const Expectation& output : spec_->outputs()) {
      const std::uint64_t value = constant_value(output.value);
      for (int b = 0; b < 8; ++b) {
        model_outcome_.output.at(static_cast<std::size_t>(output.offset + b)) =
            static_cast<std::uint8_t>(value >> (8 * b));
      }
    }
  }
  for (std::size_t w = 0; w < expected.size(); ++w) {
    const Value actual =
        machine_.load({state_region_, static_cast<std::int64_t>(8 * spec_->memory_word(w))});
    if (actual.is_address() || actual.bits != expected[w]) {
      throw ProofFailure{
          fmt::format("at the return: {} of the state is not the model's", spec_->word_name(w)),
          true};
    }
  }
  for (const Expectation& output :
       call_summarized() ? std::vector<Expectation>{} : spec_->outputs()) {
    std::optional<Value> actual =
        machine_.region(output.region).words.at(static_cast<std::size_t>(output.offset / 8));
    if (!actual || actual->is_address() || actual->bits != output.value) {
      throw ProofFailure{fmt::format("at the return: the {} is not the model's", output.what),
                         true};
    }
  }
  if (output_region_ >= 0) {
    for (std::size_t w = 0; w < machine_.region(output_region_).words.size(); ++w) {
      if (!machine_.region(output_region_).words[w]) {
        throw ProofFailure{fmt::format("at the return: output word {} was never written", w)};
      }
    }
  }
  // The callee-saved registers, as the ABI of this entry names them.
  const PreservedRegisters preserved = target_.preserved_registers(go_abi(), case_.win64);
  const std::vector<int>& gp = preserved.gp;
  const std::vector<int>& vectors = preserved.vectors;
  const int vector_words = preserved.vector_words;
  for (int r : gp) {
    const Value& now = machine_.gp(r);
    const Value& before = initial_gp_[static_cast<std::size_t>(r)];
    if (now.is_address() || now.bits != before.bits) {
      throw ProofFailure{fmt::format(
          "at the return: callee-saved register {} is not its caller's value", target_.gp_name(r))};
    }
  }
  for (int v : vectors) {
    for (int w = 0; w < vector_words; ++w) {
      if (machine_.vector(v)[static_cast<std::size_t>(w)] !=
          initial_vector_[static_cast<std::size_t>(v)][static_cast<std::size_t>(w)]) {
        throw ProofFailure{fmt::format(
            "at the return: callee-saved vector register {} is not its caller's value", v)};
      }
    }
  }
}

void Run::check_cfi(const CfiRows& cfi, std::size_t item, const Pointer& caller_sp, bool entry_code,
                    const Instruction& at) {
  const auto failure = [&](const std::string& what) {
    return ProofFailure{
        fmt::format("at `{}`: {}", writers::format_instruction(program_, at), what)};
  };
  const Value& sp = target_.stack_pointer_value(machine_);
  const std::int64_t described = cfi.cfa[item];
  if (!sp.is_address() || sp.pointer->region != caller_sp.region) {
    throw failure("the stack pointer is not on the stack the call left it on");
  }
  if (sp.pointer->offset + described != caller_sp.offset) {
    throw failure(fmt::format(
        "the CFI puts the CFA at the stack pointer + {}, where the caller's stack pointer is the "
        "stack pointer + {}",
        described, caller_sp.offset - sp.pointer->offset));
  }
  if (!checks_saved_registers(entry_code)) return;
  const std::pair<const CfiRows*, std::uint32_t> rules_now{&cfi, cfi.saved[item]};
  if (!saved_values_moved_ && rules_checked_ == rules_now) return;
  saved_values_moved_ = false;
  rules_checked_ = rules_now;
  const auto same = [](const Value& a, const Value& b) {
    return a.is_address() == b.is_address() &&
           (a.is_address() ? *a.pointer == *b.pointer : a.bits == b.bits);
  };
  const std::vector<SavedRule>& rules = cfi.rule_sets[cfi.saved[item]];
  // The word a rule's slot holds; nothing where the slot is no word of the caller's stack.
  const auto slot = [&](const SavedRule& rule) -> std::optional<Value> {
    const std::int64_t offset = caller_sp.offset + rule.offset;
    const auto& words = machine_.regions().at(static_cast<std::size_t>(caller_sp.region)).words;
    if (offset < 0 || offset % 8 != 0 || static_cast<std::size_t>(offset / 8) >= words.size()) {
      return std::nullopt;
    }
    return words[static_cast<std::size_t>(offset / 8)];
  };
  const auto check = [&](const Reg& reg, const std::string& name, const Value& now,
                         const Value& caller) {
    const auto rule =
        std::find_if(rules.begin(), rules.end(), [&](const SavedRule& r) { return r.reg == reg; });
    if (rule != rules.end()) {
      if (const std::optional<Value> saved = slot(*rule); !saved || !same(*saved, caller)) {
        throw failure(fmt::format(
            "the CFI says {} is saved at the CFA {:+}, which does not hold its caller's value",
            name, rule->offset));
      }
    } else if (!same(now, caller)) {
      throw failure(fmt::format(
          "{} no longer holds its caller's value, and the CFI says nowhere where it is saved",
          name));
    }
  };
  const PreservedRegisters& preserved = cfi_preserved_;
  for (int r : preserved.gp) {
    check(Reg{RegClass::gp64, static_cast<std::uint8_t>(r)}, target_.gp_name(r), machine_.gp(r),
          initial_gp_[static_cast<std::size_t>(r)]);
  }
  if (const std::optional<Reg> link = target_.link_register()) {
    check(*link, target_.gp_name(link->index), machine_.gp(link->index),
          Value::address({return_region_, 0}));
  }
  for (int v : preserved.vectors) {
    // The saved part: the low 64 bits (arm64's d8-d15, the one vector word preserved).
    if (preserved.vector_words != 1) break;
    const Reg reg{RegClass::fp64, static_cast<std::uint8_t>(v)};
    Value now, caller;
    now.bits = machine_.vector(v)[0];
    caller.bits = initial_vector_[static_cast<std::size_t>(v)][0];
    check(reg, fmt::format("d{}", v), now, caller);
  }
}

bool Run::may_move_saved_values(const InstructionSpec& row, const Instruction& in,
                                const std::vector<SavedRule>& rules, const Pointer& caller_sp) {
  if (row.has(kPush) || row.has(kPop) || row.has(kCall) || row.has(kReturn) ||
      row.has(kClearsVectorRegisters)) {
    return true;
  }
  const auto unsaved = [&](const Reg& reg) {
    return std::none_of(rules.begin(), rules.end(),
                        [&](const SavedRule& r) { return r.reg == reg; });
  };
  const auto contains = [](const std::vector<int>& list, int value) {
    return std::find(list.begin(), list.end(), value) != list.end();
  };
  const std::optional<Reg> link = target_.link_register();
  for (std::size_t i = 0; i < std::min(in.operands.size(), row.operand_count); ++i) {
    const Access access = row.operands[i].access;
    const bool written = access == Access::write || access == Access::read_write;
    if (const auto* mem = std::get_if<Mem>(&in.operands[i])) {
      if (mem->addressing == Addressing::pre_index || mem->addressing == Addressing::post_index)
        return true;
      if (!written) continue;
      // A store moves a saved value if it may reach a rule's slot: bytes from the address up
      // to its size (amd64's operand says it; elsewhere up to 64 bytes, a pair of q registers
      // or a vector register of up to 512 bits).
      const Value& base = mem->base == target_.stack_pointer()
                              ? target_.stack_pointer_value(machine_)
                              : machine_.gp(mem->base.index);
      if (!base.is_address()) return true;
      if (base.pointer->region != caller_sp.region) continue;
      const std::int64_t begin = base.pointer->offset + mem->disp;
      const std::int64_t end = begin + (mem->bytes != 0 ? mem->bytes : 64);
      for (const SavedRule& rule : rules) {
        const std::int64_t slot = caller_sp.offset + rule.offset;
        if (slot + 8 > begin && slot < end) return true;
      }
      continue;
    }
    const auto* reg = std::get_if<Reg>(&in.operands[i]);
    if (reg == nullptr || !written) continue;
    if (reg->cls == RegClass::gp64 || reg->cls == RegClass::gp32) {
      const Reg wide{RegClass::gp64, reg->index};
      if ((contains(cfi_preserved_.gp, reg->index) || (link && link->index == reg->index)) &&
          unsaved(wide)) {
        return true;
      }
    } else if (contains(cfi_preserved_.vectors, reg->index) &&
               unsaved(Reg{RegClass::fp64, reg->index})) {
      return true;
    }
  }
  return false;
}

std::int64_t Run::stack_bytes() const {
  // Every word the entry read below its return address it wrote first (a load of a word
  // nothing wrote fails the proof): the lowest written word is the deepest it went.
  const auto& words = machine_.regions().at(static_cast<std::size_t>(stack_region_)).words;
  for (std::size_t w = 0; w < words.size(); ++w) {
    if (words[w]) return std::max<std::int64_t>(0, kStackTop - static_cast<std::int64_t>(8 * w));
  }
  return 0;
}

// A Windows x64 entry calls its System V entry: when that entry's proof for the same block
// count (and in place or apart) holds, and the call is made as that proof's run starts (the
// same arguments: the state, inputs and output, the count; the state and inputs as the
// entry received them; room on the stack for the callee's frame), the call is replaced by
// what the proof established, instead of running the System V code again: the state and
// every output word become fresh words that the return must leave in place (they stand for
// the model's result, which the proof showed the callee computes from exactly these
// inputs); rsp and the registers and vector words the proof found holding their initial
// values at its return keep theirs; every other register, the flags and the stack below the
// return address become unknown. Why this is sound:
// docs/generator-and-audit.md, "The proof".
void Run::preserved(EntryProof& proof) const {
  for (int r = 0; r < machine_.registers(); ++r) {
    const std::size_t i = static_cast<std::size_t>(r);
    const Value& now = machine_.gp(r);
    if (!now.is_address() && !now.block_count && now.bits == initial_gp_[i].bits) {
      proof.preserved_gp.set(i);
    }
    for (std::size_t w = 0; w < kVectorWords; ++w) {
      if (machine_.vector(r)[w] == initial_vector_[i][w]) {
        proof.preserved_vector_words[i] =
            static_cast<std::uint8_t>(proof.preserved_vector_words[i] | (1u << w));
      }
    }
  }
}

bool Run::summarize_call(std::size_t function) {
  if (summaries_ == nullptr || inputs_.concrete() || !case_.win64 || branched_ ||
      call_summarized()) {
    return false;
  }
  const auto summary =
      std::find_if(summaries_->begin(), summaries_->end(), [&](const CallSummary& proven) {
        return proven.function == function && proven.block_count == case_.block_count &&
               proven.in_place == case_.in_place;
      });
  if (summary == summaries_->end()) return false;
  if (program_.functions.at(function).shape != entry().shape) return false;
  // The arguments, where the callee's ABI takes them: the pointers the entry was passed, the
  // count.
  if (passed_arguments_.size() > kMostSummarizedArguments) return false;
  for (std::size_t p = 0; p < passed_arguments_.size(); ++p) {
    const Value& passed = passed_arguments_[p];
    const Value& now = machine_.gp(target_.argument_gp(static_cast<int>(p), false));
    if (!passed.is_address() && !passed.block_count) return false;
    if (now.pointer != passed.pointer || now.block_count != passed.block_count) return false;
    if (passed.block_count && count_of(now, "the block count") != count_of(passed, "")) {
      return false;
    }
  }
  const Value& sp = target_.stack_pointer_value(machine_);
  if (!sp.is_address() || sp.pointer->region != stack_region_) return false;
  const std::int64_t return_slot = sp.pointer->offset - target_.call_pushes_bytes();
  if (return_slot - summary->stack_bytes < 0 || return_slot % 8 != 0) return false;
  // The state and the inputs, word for word as the entry received them.
  const Region& state = machine_.region(state_region_);
  for (std::size_t w = 0; w < initial_state_.size(); ++w) {
    const std::optional<Value>& word = state.words.at(spec_->memory_word(w));
    if (!word || word->is_address() || word->block_count || word->bits != initial_state_[w]) {
      return false;
    }
  }
  for (std::size_t i = 0; i < input_regions_.size(); ++i) {
    const Region& input = machine_.region(input_regions_[i]);
    for (std::size_t w = 0; w < input_words_[i].size(); ++w) {
      const std::optional<Value>& word = input.words.at(w);
      if (!word || word->is_address() || word->block_count || word->bits != input_words_[i][w]) {
        return false;
      }
    }
  }
  // The return: the model's state and output, as fresh words.
  for (std::size_t w = 0; w < initial_state_.size(); ++w) {
    summary_state_.push_back(inputs_.next());
    machine_.store({state_region_, static_cast<std::int64_t>(8 * spec_->memory_word(w))},
                   Value::data(summary_state_.back()));
  }
  if (output_region_ >= 0) {
    Region& output = machine_.region(output_region_);
    for (std::size_t w = 0; w < output.words.size(); ++w) {
      summary_output_.emplace_back(w, inputs_.next());
      output.words[w] = Value::data(summary_output_.back().second);
    }
  }
  // The callee's own frame, below its return address: unknown (a later load of it fails).
  Region& stack = machine_.region(stack_region_);
  for (std::size_t w = 0; w < static_cast<std::size_t>(return_slot / 8); ++w)
    stack.words[w].reset();
  for (int r = 0; r < machine_.registers(); ++r) {
    if (r != target_.stack_pointer().index &&
        !summary->preserved_gp.test(static_cast<std::size_t>(r))) {
      machine_.gp(r) = Value::data(inputs_.next());
    }
    for (std::size_t w = 0; w < kVectorWords; ++w) {
      if (((summary->preserved_vector_words[static_cast<std::size_t>(r)] >> w) & 1u) == 0) {
        machine_.vector(r)[w] = inputs_.next();
      }
    }
  }
  machine_.zero_flag.reset();
  return true;
}

const RoundReuse::Segment* Run::segment_at(const std::vector<Item>& items, std::size_t start,
                                           int rounds_entered) {
  // A round that starts from the fresh variables a boundary made and ends at a boundary that
  // takes no input: not the entry's first (it starts from the entry's own variables, maybe
  // with a block's input added), not a block's last (the boundary after it takes the next
  // block's input, or is the return), not one whose block input the kernel adds after its
  // marker (the model's next step is that input).
  if (reuse_ == nullptr || inputs_.concrete() || rounds_entered < 2 ||
      !spec_->next_round_before_a_round()) {
    return nullptr;
  }
  return reuse_->segment(&items, start, [&]() -> std::optional<RoundReuse::Segment> {
    // Straight code up to the next marker is known by its text, wherever it is (the entries'
    // copies of one round); code that branches first by where it starts (a round loop that
    // every entry jumps into).
    RoundReuse::Segment segment;
    for (std::size_t i = start; i < items.size(); ++i) {
      if (const auto* marker = std::get_if<RoundMarker>(&items[i]); marker && marker->begin) {
        if (segment.code.empty()) return std::nullopt;
        segment.end = i;
        return segment;
      }
      if (const auto* cfi = std::get_if<Cfi>(&items[i])) {
        segment.code += writers::cfi_line(program_, *cfi);
        segment.code += '\n';
        continue;
      }
      const auto* instruction = std::get_if<Instruction>(&items[i]);
      if (instruction == nullptr) continue;
      const InstructionSpec& row = instruction_spec(instruction->mnemonic);
      if (row.has(kConditionalBranch) || row.has(kUnconditionalBranch) || row.has(kReturn) ||
          row.has(kCall)) {
        segment.straight = false;
        segment.code = fmt::format("the code from item {} of the items at {}\n", start,
                                   static_cast<const void*>(&items));
        return segment;
      }
      segment.code += writers::format_instruction(program_, *instruction);
      segment.code += '\n';
    }
    return std::nullopt;
  });
}

std::string Run::cfi_context(const std::vector<Item>& items, std::size_t start,
                             const Pointer& caller_sp, bool entry_code) const {
  const auto found = cfi_of_functions_.find(&items);
  if (found == cfi_of_functions_.end()) return "no CFI";
  const CfiRows& cfi = found->second;
  std::string context =
      fmt::format("CFA at the stack pointer + {}, the caller's stack pointer at {}, rules",
                  cfi.cfa[start], caller_sp.offset);
  for (const SavedRule& rule : cfi.rule_sets[cfi.saved[start]]) {
    context +=
        fmt::format(" {}:{} at {}", static_cast<int>(rule.reg.cls), rule.reg.index, rule.offset);
  }
  if (checks_saved_registers(entry_code)) context += ", checked";
  return context;
}

std::size_t Run::replay_rounds(const std::vector<Item>*& items, std::size_t index,
                               int& rounds_entered, EntryProof& proof, std::size_t& steps,
                               const Pointer& caller_sp, bool entry_code) {
  while (const RoundReuse::Segment* segment = segment_at(*items, index, rounds_entered)) {
    const int round = *spec_->next_round_before_a_round();
    std::string context = cfi_context(*items, index, caller_sp, entry_code);
    std::optional<RoundReuse::Replayed> replayed =
        reuse_->replay({*segment, context, round, spec_->state()}, machine_);
    if (!replayed) {
      if (!reuse_->seen_before({*segment, context, round, spec_->state()})) return index;
      recording_ = Recording{items,
                             index,
                             segment,
                             std::move(context),
                             round,
                             spec_->state(),
                             machine_,
                             {},
                             machine_.access_log,
                             {{Place::Kind::stack_pointer, 0, 0},
                              {Place::Kind::gp, target_.stack_pointer().index, 0},
                              {Place::Kind::vector_length, 0, 0}},
                             {},
                             {},
                             false};
      machine_.access_log = &recording_->accesses;
      return index;
    }
    if (replayed->branched) {
      if (call_summarized()) {
        throw ProofFailure{"a branch after a call the System V proof summarizes"};
      }
      branched_ = true;
    }
    if (machine_.access_log != nullptr) {
      machine_.access_log->insert(machine_.access_log->end(), replayed->accesses.begin(),
                                  replayed->accesses.end());
    }
    proof.instructions += replayed->instructions;
    steps += replayed->instructions;
    ++proof.rounds_replayed;
    // Its record's checks held at its end; the next instruction's check of the rules sees
    // the machine the replay left.
    saved_values_moved_ = true;
    spec_->pass_round(std::move(replayed->model_state));
    ++boundaries_;
    ++rounds_entered;
    // Past the next round's marker, whose boundary the record holds: straight code's is its
    // own copy's (copies of one text may differ in the labels between their instructions).
    if (segment->straight) {
      index = segment->end + 1;
    } else {
      items = static_cast<const std::vector<Item>*>(replayed->end_items);
      index = replayed->end + 1;
    }
  }
  return index;
}

void Run::note_recorded(const Instruction& instruction, const Control& control) {
  Recording& recording = *recording_;
  if (control.kind == Control::call || control.kind == Control::ret) {
    stop_recording();
    return;
  }
  const audit::Effects effects = audit::effects_of(program_.isa, instruction);
  for (const audit::Location& location : effects.reads) {
    for (const Place& place : places_of(location))
      if (recording.written.count(place) == 0) recording.read.insert(place);
  }
  for (const audit::Location& location : effects.writes) {
    for (const Place& place : places_of(location))
      recording.written.insert(place);
  }
  recording.executed.emplace_back(&instruction, control);
  recording.branched = recording.branched || control.kind == Control::jump ||
                       instruction_spec(instruction.mnemonic).has(kConditionalBranch);
}

void Run::stop_recording() {
  Recording& recording = *recording_;
  machine_.access_log = recording.outer_log;
  if (recording.outer_log != nullptr) {
    recording.outer_log->insert(recording.outer_log->end(), recording.accesses.begin(),
                                recording.accesses.end());
  }
  recording_.reset();
}

std::optional<Run::CodeRuns> Run::run_recorded_code_again() {
  Recording& recording = *recording_;
  machine_.access_log = recording.outer_log;
  if (recording.outer_log != nullptr) {
    recording.outer_log->insert(recording.outer_log->end(), recording.accesses.begin(),
                                recording.accesses.end());
  }
  // The reads: the registers the code names, and every word it loaded before it stored
  // there.
  CodeRuns runs{{recording.read.begin(), recording.read.end()}, {}, recording.executed.size()};
  std::set<Place> stored;
  for (const Machine::Access& access : recording.accesses) {
    const Place place{Place::Kind::memory, access.at.region,
                      static_cast<int>(access.at.offset / 8)};
    if (access.store) {
      stored.insert(place);
    } else if (stored.count(place) == 0) {
      runs.reads.push_back(place);
    }
  }
  std::sort(runs.reads.begin(), runs.reads.end());
  runs.reads.erase(std::unique(runs.reads.begin(), runs.reads.end()), runs.reads.end());
  // Where it stored.
  std::set<Place> stores;
  for (const Machine::Access& access : recording.accesses) {
    if (access.store) {
      stores.insert(
          {Place::Kind::memory, access.at.region, static_cast<int>(access.at.offset / 8)});
    }
  }
  std::vector<const void*> path;
  for (const auto& [instruction, control] : recording.executed)
    path.push_back(instruction);
  if (std::optional<std::vector<Place>> registers = reuse_->path_writes(path)) {
    // A path checked before: its instructions write the registers they wrote then (the
    // semantics take registers from operands, never from values), and no other.
    std::set<Place> writes(registers->begin(), registers->end());
    if (!registers_unchanged_outside(recording.before, machine_, writes)) return std::nullopt;
    writes.insert(stores.begin(), stores.end());
    runs.writes.assign(writes.begin(), writes.end());
    return runs;
  }
  // The first time this path is recorded: the same code again, on a machine where nothing
  // else holds what it held. It must go where the first run went, touch the same memory
  // (its addresses come from what it read) and write the same.
  Machine poisoned = with_unread_places_fresh(recording.before, runs.reads);
  const Registers poisoned_before = registers_of(poisoned);
  std::vector<Machine::Access> poisoned_accesses;
  poisoned.access_log = &poisoned_accesses;
  try {
    for (const auto& [instruction, control] : recording.executed) {
      const Control again = target_.execute(poisoned, *instruction, labels_);
      if (again.kind != control.kind || again.label != control.label) return std::nullopt;
    }
  } catch (const std::exception&) {  // it used an unread place as an address, or branched on it
    return std::nullopt;
  }
  if (!std::equal(poisoned_accesses.begin(), poisoned_accesses.end(), recording.accesses.begin(),
                  recording.accesses.end(), [](const Machine::Access& a, const Machine::Access& b) {
                    return a.at == b.at && a.store == b.store;
                  })) {
    return std::nullopt;
  }
  std::optional<std::vector<Place>> writes =
      code_writes(recording.before, machine_, poisoned_before, poisoned, recording.accesses);
  if (!writes) return std::nullopt;
  std::vector<Place> registers;
  std::copy_if(writes->begin(), writes->end(), std::back_inserter(registers),
               [](const Place& place) { return place.kind != Place::Kind::memory; });
  reuse_->check_path(std::move(path), std::move(registers));
  runs.writes = std::move(*writes);
  return runs;
}

void Run::keep_record(const CodeRuns& runs, const std::vector<Item>* end_items, std::size_t end) {
  const Recording& recording = *recording_;
  // Straight code ends at its own copy's marker (Segment::end), wherever it is replayed.
  const bool straight = recording.segment->straight;
  reuse_->record(
      {*recording.segment, recording.cfi_context, recording.round, recording.model_state},
      {recording.before, machine_, runs.writes, runs.reads, runs.instructions, recording.accesses,
       boundary_words_, spec_->state(), recording.branched, straight ? nullptr : end_items,
       straight ? 0 : end});
}

void Run::execute(EntryProof& proof) {
  lay_out();
  // Labels of code: in the entries and the functions they reach.
  std::map<LabelId, std::pair<const std::vector<Item>*, std::size_t>> code_labels;
  for (const auto* list : {&program_.functions, &program_.win64_entries}) {
    for (const Function& f : *list) {
      for (std::size_t i = 0; i < f.items.size(); ++i) {
        if (const auto* label = std::get_if<LabelDef>(&f.items[i]))
          code_labels[label->id] = {&f.items, i};
      }
    }
  }
  // The CFA the CFI must describe before every instruction: the stack pointer of the call
  // that entered the function running (the entry's caller's, then each call's).
  cfi_preserved_ = target_.preserved_registers(false, false);
  std::vector<Pointer> call_stack_pointers{
      Pointer{stack_region_, kStackTop + target_.call_pushes_bytes()}};
  struct Frame {
    const std::vector<Item>* items;
    std::size_t index;
  };
  std::vector<Frame> calls;
  const std::vector<Item>* items = &entry().items;
  std::size_t index = 0;
  int rounds_entered = 0;
  for (std::size_t steps = 0; steps < kMostSteps; ++steps) {
    if (index >= items->size()) throw ProofFailure{"the code runs past the end of a function"};
    const Item& item = (*items)[index++];
    if (const auto* marker = std::get_if<RoundMarker>(&item)) {
      if (marker->begin) {
        std::optional<CodeRuns> recorded;
        if (recording_) recorded = run_recorded_code_again();
        if (!inputs_.concrete()) cut(rounds_entered);
        if (recorded) keep_record(*recorded, items, index - 1);
        recording_.reset();
        ++rounds_entered;
        index = replay_rounds(items, index, rounds_entered, proof, steps,
                              call_stack_pointers.back(), calls.empty());
      }
      continue;
    }
    const auto* instruction = std::get_if<Instruction>(&item);
    if (instruction == nullptr) continue;
    ++proof.instructions;
    const InstructionSpec& row = instruction_spec(instruction->mnemonic);
    if (const auto cfi_at = cfi_of_functions_.find(items); cfi_at != cfi_of_functions_.end()) {
      const CfiRows& cfi = cfi_at->second;
      check_cfi(cfi, index - 1, call_stack_pointers.back(), calls.empty(), *instruction);
      if (may_move_saved_values(row, *instruction, cfi.rule_sets[cfi.saved[index - 1]],
                                call_stack_pointers.back()))
        saved_values_moved_ = true;
    }
    if (row.has(kConditionalBranch) || row.has(kUnconditionalBranch)) {
      // A summarized call covers a straight-line adapter: one path for every block count.
      if (call_summarized()) {
        throw ProofFailure{"a branch after a call the System V proof summarizes"};
      }
      branched_ = true;
    }
    Control control;
    try {
      control = target_.execute(machine_, *instruction, labels_);
    } catch (const std::exception& error) {  // MachineError, DegreeError
      throw ProofFailure{fmt::format("in round {} at `{}`: {}", rounds_entered - 1,
                                     writers::format_instruction(program_, *instruction),
                                     error.what())};
    }
    if (recording_) note_recorded(*instruction, control);
    switch (control.kind) {
      case Control::next:
        break;
      case Control::jump: {
        const auto at = code_labels.find(control.label);
        if (at == code_labels.end()) throw ProofFailure{"a branch to a label that is no code"};
        items = at->second.first;
        index = at->second.second;
        break;
      }
      case Control::call: {
        if (summarize_call(control.function)) break;
        const Value return_address =
            Value::address({return_region_, static_cast<std::int64_t>(calls.size() + 1)});
        if (const std::optional<Reg> link = target_.link_register()) {
          machine_.gp(link->index) = return_address;
        } else {
          Value& sp = target_.stack_pointer_value(machine_);
          address_of(sp, "the stack pointer");
          sp.pointer->offset -= target_.call_pushes_bytes();
          machine_.store(*sp.pointer, return_address);
        }
        calls.push_back({items, index});
        {
          const Value& sp = target_.stack_pointer_value(machine_);
          address_of(sp, "the stack pointer");
          call_stack_pointers.push_back(
              {sp.pointer->region, sp.pointer->offset + target_.call_pushes_bytes()});
        }
        items = &program_.functions.at(control.function).items;
        index = 0;
        break;
      }
      case Control::ret: {
        if (go_abi() && calls.empty()) {
          // The toolchain's epilogue releases the frame this code was given: the stack
          // pointer must be where the prologue left it (and on arm64, LR the return address).
          const Value& sp = target_.stack_pointer_value(machine_);
          if (!sp.is_address() || *sp.pointer != go_stack_pointer()) {
            throw ProofFailure{
                "at the return: the stack pointer is not where the prologue left it"};
          }
          if (const std::optional<Reg> link = target_.link_register()) {
            const Value& lr = machine_.gp(link->index);
            if (!lr.is_address() || *lr.pointer != Pointer{return_region_, 0}) {
              throw ProofFailure{fmt::format("at the return: {} is not the caller's return address",
                                             target_.gp_name(link->index))};
            }
          }
          proof.boundaries = boundaries_;
          check_return();
          return;
        }
        Value target;
        if (const std::optional<Reg> link = target_.link_register()) {
          target = machine_.gp(link->index);
        } else {
          Value& sp = target_.stack_pointer_value(machine_);
          target = machine_.load(address_of(sp, "rsp"));
          sp.pointer->offset += target_.call_pushes_bytes();
        }
        const Pointer expected{return_region_, static_cast<std::int64_t>(calls.size())};
        if (!target.is_address() || *target.pointer != expected) {
          throw ProofFailure{"a return to an address other than its caller's"};
        }
        if (calls.empty()) {
          const Value& sp = target_.stack_pointer_value(machine_);
          const std::int64_t expected_sp = kStackTop + target_.call_pushes_bytes();
          if (!sp.is_address() || *sp.pointer != Pointer{stack_region_, expected_sp}) {
            throw ProofFailure{"at the return: the stack pointer is not where the call left it"};
          }
          proof.boundaries = boundaries_;
          check_return();
          return;
        }
        items = calls.back().items;
        index = calls.back().index;
        calls.pop_back();
        call_stack_pointers.pop_back();
        break;
      }
    }
  }
  throw ProofFailure{"the entry does not return"};
}

ConcreteOutcome Run::machine_outcome() const {
  ConcreteOutcome outcome;
  const auto integer = [](const std::optional<Value>& word) {
    return word && !word->is_address() && is_constant(word->bits) ? constant_value(word->bits) : 0;
  };
  for (const auto& word : machine_.regions().at(static_cast<std::size_t>(state_region_)).words)
    outcome.state.push_back(integer(word));
  if (output_region_ >= 0) {
    for (const auto& word : machine_.regions().at(static_cast<std::size_t>(output_region_)).words) {
      for (int b = 0; b < 8; ++b)
        outcome.output.push_back(static_cast<std::uint8_t>(integer(word) >> (8 * b)));
    }
  }
  return outcome;
}

verify::EntryInput Run::concrete_input() const {
  verify::EntryInput input;
  input.state.assign(initial_state_.size(), 0);
  for (std::size_t w = 0; w < initial_state_.size(); ++w)
    input.state[spec_->memory_word(w)] = constant_value(initial_state_[w]);
  for (const std::vector<Word>& words : input_words_) {
    std::vector<std::uint8_t> bytes;
    for (const Word& word : words) {
      const std::uint64_t value = constant_value(word);
      for (int b = 0; b < 8; ++b)
        bytes.push_back(static_cast<std::uint8_t>(value >> (8 * b)));
    }
    input.buffers.push_back(std::move(bytes));
  }
  input.block_count = case_.block_count;
  input.in_place = case_.in_place;
  return input;
}

std::vector<Case> cases_of(const Program& program, const ProveOptions& options) {
  std::vector<Case> cases;
  for (bool win64 : {false, true}) {
    if (win64 && options.system_v_only) continue;
    const auto& list = win64 ? program.win64_entries : program.functions;
    for (std::size_t f = 0; f < list.size(); ++f) {
      if (!options.entry.empty() && list[f].symbol != options.entry) continue;
      if (!list[f].shape.takes_block_count()) {
        cases.push_back({f, win64, 1, false});
        continue;
      }
      const bool has_output = list[f].shape.parameters.size() == 4;  // in place, or apart
      for (std::size_t blocks = 0; blocks <= options.most_blocks; ++blocks) {
        cases.push_back({f, win64, blocks, false});
        if (has_output) cases.push_back({f, win64, blocks, true});
      }
    }
  }
  return cases;
}

}  // namespace

bool KernelProof::proven() const {
  return !entries.empty() &&
         std::all_of(entries.begin(), entries.end(), [](const EntryProof& e) { return e.proven; });
}

namespace {

EntryProof prove_case(const kernels::KernelSpec& spec, const Program& program,
                      const CfiOfFunctions& cfi, const Case& c,
                      const std::vector<CallSummary>& summaries, RoundReuse* reuse) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  EntryProof proof;
  const Function& entry =
      c.win64 ? program.win64_entries[c.function] : program.functions[c.function];
  proof.symbol = entry.symbol;
  proof.win64 = c.win64;
  if (entry.shape.takes_block_count()) {
    proof.variant = fmt::format(
        "block_count {}{}",
        c.block_count == kInductionBlocks ? "3 and every larger count"
                                          : std::to_string(c.block_count),
        entry.shape.parameters.size() == 4 ? (c.in_place ? ", out == in" : ", out apart") : "");
  }
  try {
    Run run(spec, program, cfi, c, std::nullopt, &summaries, reuse);
    run.execute(proof);
    proof.stack_bytes = run.stack_bytes();
    run.preserved(proof);
    proof.call_summarized = run.call_summarized();
    // A summarized call's block loop is its callee's, whose proof checked it; the adapter
    // itself takes one path for every count (it may not branch, and passes the count on
    // unchanged).
    if (c.block_count == kInductionBlocks && !run.block_loop_checked_ && !proof.call_summarized) {
      throw ProofFailure{
          "the run with three blocks did not reach the starts of blocks 1 and 2, "
          "where the block loop is checked"};
    }
    proof.proven = true;
  } catch (const ProofFailure& failure) {
    proof.failure = failure.reason;
    // A concrete input on which the entry and the model differ, if a random one shows it.
    for (int trial = 1; trial <= kCounterexampleTrials && proof.counterexample.empty(); ++trial) {
      EntryProof concrete;
      Run run(spec, program, cfi, c, static_cast<std::uint64_t>(trial));
      try {
        run.execute(concrete);
      } catch (const ProofFailure& differs) {
        if (!differs.wrong_value) break;
        proof.counterexample =
            fmt::format("the random input of seed {}: {}", trial, differs.reason);
        proof.counterexample_input = run.concrete_input();
        proof.counterexample_machine = run.machine_outcome();
        proof.counterexample_model = run.model_outcome();
      }
    }
  }
  proof.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return proof;
}

}  // namespace

KernelProof prove_kernel(const kernels::KernelSpec& spec, const Program& program,
                         const ProveOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto kernel_start = Clock::now();
  std::string digest;
  if (options.cache.folder) {
    digest = proof_digest(spec.family, program, options);
    if (options.cache.read) {
      if (std::optional<KernelProof> cached = load_cached_proof(*options.cache.folder, digest)) {
        cached->kernel = spec.name;
        cached->seconds = std::chrono::duration<double>(Clock::now() - kernel_start).count();
        return *cached;
      }
    }
  }
  const std::vector<Case> cases = cases_of(program, options);
  KernelProof result{spec.name, std::vector<EntryProof>(cases.size()), 0};
  // The System V cases first, then the Windows x64 ones, which take the proven System V
  // cases as the summaries of their calls. Within each, the cases are independent: workers
  // take the next one until none is left. A worker that cannot be started leaves its share
  // to the others (the calling thread is one of them).
  std::vector<CallSummary> summaries;
  RoundReuse reuse;
  const CfiOfFunctions cfi = cfi_of_functions(program);
  for (bool win64 : {false, true}) {
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      if (cases[i].win64 == win64) todo.push_back(i);
    }
    // The longest first (a case's time grows with its blocks), so that no long case starts
    // last and leaves the other workers idle.
    std::stable_sort(todo.begin(), todo.end(), [&](std::size_t x, std::size_t y) {
      return cases[x].block_count > cases[y].block_count;
    });
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    const auto work = [&] {
      for (std::size_t k; (k = next.fetch_add(1)) < todo.size();) {
        try {
          result.entries[todo[k]] = prove_case(spec, program, cfi, cases[todo[k]], summaries,
                                               options.reuse_rounds ? &reuse : nullptr);
        } catch (...) {
          const std::lock_guard<std::mutex> lock(error_mutex);
          if (!error) error = std::current_exception();
        }
      }
    };
    const unsigned wanted =
        options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> workers;
    for (unsigned t = 1; t < wanted && t < todo.size(); ++t) {
      try {
        workers.emplace_back(work);
      } catch (const std::system_error&) {
        break;
      }
    }
    work();
    for (std::thread& worker : workers)
      worker.join();
    if (error) std::rethrow_exception(error);
    for (std::size_t i : todo) {
      if (!win64 && result.entries[i].proven) {
        summaries.push_back({cases[i].function, cases[i].block_count, cases[i].in_place,
                             result.entries[i].stack_bytes, result.entries[i].preserved_gp,
                             result.entries[i].preserved_vector_words});
      }
    }
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - kernel_start).count();
  if (options.cache.folder) store_cached_proof(*options.cache.folder, digest, result);
  return result;
}

EntryProof confirm_on_host(const kernels::KernelSpec& spec, const Program& program,
                           EntryProof proof) {
  if (proof.counterexample_input && !proof.win64) {
    proof.confirmed_on_host =
        verify::entry_differs_on_host(spec, program, proof.symbol, *proof.counterexample_input);
  }
  return proof;
}

}  // namespace spongegen::prove
