// What an entry must compute, as maps of GF(2) polynomials built from the models alone
// (generator/model): the rounds of Keccak-p[1600] and Ascon-p[320], and what each entry kind
// does with its blocks between them (EntryShape). The prover runs the entry's code on the
// same variables and compares.
//
// A specification is a sequence of steps, rounds and block inputs, over the state's 64-bit
// words (all states of a multi-state entry, lane after lane). The prover cuts it at round
// boundaries: there the state becomes fresh variables (rebase), so each round is checked
// against the one round before it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "program/program.hpp"
#include "prove/anf.hpp"

namespace spongegen::prove {

// A word the entry must have written when it returns: where, and what.
struct Expectation {
  int region;
  std::int64_t offset;
  Word value;
  std::string what;  // "lane (3, 1) of state 2", "ciphertext word 1 of block 0"
};

// The inputs an entry reads, as the prover laid them out: the words of each block, and for
// entries with an output the region it goes to.
struct EntryInputs {
  // Per block; multi-state absorb entries: each block's states in turn (block b of state s
  // at b * states + s).
  std::vector<std::vector<Word>> blocks;
  int output_region = -1;
};

class Specification {
 public:
  // For one entry of a kernel of `family` ("keccak-p1600" or "ascon-p320"); `block_count`
  // for entries that take one.
  Specification(const std::string& family, const EntryShape& shape, std::vector<Word> input_state,
                EntryInputs inputs);

  int rounds_in_total() const { return total_rounds_; }
  std::size_t state_words() const { return state_.size(); }
  std::string word_name(std::size_t word) const;
  // Where state word `word` (lane after lane of each state in turn) lives in the entry's
  // state array: multi-state entries interleave their states lane by lane (lane i of state s
  // is word N * i + s of N states).
  std::size_t memory_word(std::size_t word) const;
  // Sums of state words a kernel may carry across a round boundary instead of (or beside)
  // the words themselves: Keccak's column parities, which a round can gather for the next.
  const std::vector<std::vector<std::size_t>>& carried_sums() const { return sums_; }

  // The states the entry may hold at the boundary after `completed` rounds: the state right
  // after the round, and when a block starts there, the state after its input too (that one
  // first). Each is a position to rebase at.
  struct Boundary {
    std::vector<Word> state;
    std::size_t position;  // steps applied
    std::string description;
    std::vector<Expectation> outputs;  // the output words the steps to it wrote
  };
  std::vector<Boundary> boundaries_after(int completed);
  // Continues from `state` (fresh variables) at `boundary`'s position.
  void rebase(std::vector<Word> state, const Boundary& boundary);

  // The round the state goes through next, when the step after it is another round (so the
  // boundary after it has one state and no output): its round constant's index.
  std::optional<int> next_round_before_a_round() const;
  const std::vector<Word>& state() const { return state_; }
  // Past that round, whose proof was taken from an earlier one (prove/round_reuse.hpp):
  // continues from `state` (fresh variables) after it.
  void pass_round(std::vector<Word> state);

  // Runs the remaining steps: the state at the return, and every output word.
  std::vector<Word> final_state();
  const std::vector<Expectation>& outputs() const { return outputs_; }

 private:
  struct Step {
    bool is_round;
    int index;  // a round: the round constant's index; an input: the block
  };
  void apply(const Step& step, std::vector<Word>& state, std::vector<Expectation>& outputs) const;
  void round(int index, std::vector<Word>& state) const;
  void input(int block, std::vector<Word>& state, std::vector<Expectation>& outputs) const;

  std::string family_;
  EntryShape shape_;
  EntryInputs inputs_;
  std::vector<Step> steps_;
  std::size_t position_ = 0;
  std::vector<Word> state_;
  std::vector<std::vector<std::size_t>> sums_;
  std::vector<Expectation> outputs_;
  int total_rounds_ = 0;
  int states_ = 1;
};

}  // namespace spongegen::prove
