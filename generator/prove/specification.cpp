#include "prove/specification.hpp"

#include <fmt/format.h>

#include "model/ascon.hpp"
#include "model/keccak.hpp"

namespace spongegen::prove {
namespace {

// Keccak-p[1600] round `index` (its round constant's) on one state, lanes x + 5y.
void keccak_round(int index, Word* lanes) {
  const keccak::Model& model = keccak::model();
  std::array<Word, 5> parity;
  for (int x = 0; x < 5; ++x) {
    parity[x] = lanes[x] ^ lanes[x + 5] ^ lanes[x + 10] ^ lanes[x + 15] ^ lanes[x + 20];
  }
  std::array<Word, 25> theta;
  for (int x = 0; x < 5; ++x) {
    const Word d = parity[(x + 4) % 5] ^ rotate_left(parity[(x + 1) % 5], 1);
    for (int y = 0; y < 5; ++y)
      theta[x + 5 * y] = lanes[x + 5 * y] ^ d;
  }
  for (int y = 0; y < 5; ++y) {
    std::array<Word, 5> b;
    for (int x = 0; x < 5; ++x) {
      const keccak::ChiInput& from = model.chi_rows[y][x];
      b[x] = rotate_left(theta[from.lane], from.rotation);
    }
    for (int x = 0; x < 5; ++x)
      lanes[x + 5 * y] = b[x] ^ (~b[(x + 1) % 5] & b[(x + 2) % 5]);
  }
  lanes[0] = lanes[0] ^ constant_word(model.round_constants[index]);
}

// Ascon-p[320] round `index` (SP 800-232: constant addition, substitution, linear layer),
// the substitution in the specification's own bitsliced form, not a builder's.
void ascon_round(int index, Word* x) {
  const ascon::Model& model = ascon::model();
  x[2] = x[2] ^ constant_word(model.round_constants[index]);
  x[0] = x[0] ^ x[4];
  x[4] = x[4] ^ x[3];
  x[2] = x[2] ^ x[1];
  std::array<Word, 5> t;
  for (int i = 0; i < 5; ++i)
    t[i] = ~x[i] & x[(i + 1) % 5];
  for (int i = 0; i < 5; ++i)
    x[i] = x[i] ^ t[(i + 1) % 5];
  x[1] = x[1] ^ x[0];
  x[0] = x[0] ^ x[4];
  x[3] = x[3] ^ x[2];
  x[2] = ~x[2];
  for (int i = 0; i < 5; ++i) {
    const ascon::LinearRotations& r = model.linear[i];
    x[i] = x[i] ^ rotate_left(x[i], 64 - r.first) ^ rotate_left(x[i], 64 - r.second);
  }
}

bool is_keccak(const std::string& family) {
  return family.rfind("keccak", 0) == 0;
}

}  // namespace

Specification::Specification(const std::string& family, const EntryShape& shape,
                             std::vector<Word> input_state, EntryInputs inputs)
    : family_(family), shape_(shape), inputs_(std::move(inputs)), state_(std::move(input_state)) {
  const bool keccak = is_keccak(family);
  if (keccak ? shape.permutation.rfind("keccak", 0) != 0 : shape.permutation != "ascon-p320") {
    throw GenerationError(
        fmt::format("prove: an entry of {} in a {} kernel", shape.permutation, family));
  }
  states_ = shape.lanes;
  const std::size_t words_per_state = keccak ? keccak::kLanes : ascon::kWords;
  if (state_.size() != words_per_state * static_cast<std::size_t>(states_)) {
    throw GenerationError("prove: the state is not the entry's states");
  }
  const int first = keccak ? keccak::kRounds - shape.rounds : ascon::kMaxRounds - shape.rounds;
  const bool has_input = shape.kind != EntryKind::permute;
  // Keccak entries take one block (per state), the block entries of multi-state kernels
  // and Ascon's absorb entries block_count of them: inputs.blocks holds each block's states.
  const std::size_t blocks =
      !has_input ? 1 : inputs_.blocks.size() / static_cast<std::size_t>(keccak ? shape.lanes : 1);
  for (std::size_t block = 0; block < blocks; ++block) {
    if (has_input) steps_.push_back({false, static_cast<int>(block)});
    for (int r = 0; r < shape.rounds; ++r)
      steps_.push_back({true, first + r});
    total_rounds_ += shape.rounds;
  }
  if (keccak) {
    for (int s = 0; s < states_; ++s) {
      for (std::size_t x = 0; x < 5; ++x) {
        std::vector<std::size_t> column;
        for (std::size_t y = 0; y < 5; ++y)
          column.push_back(static_cast<std::size_t>(s) * 25 + x + 5 * y);
        sums_.push_back(column);
      }
    }
  }
}

std::string Specification::word_name(std::size_t word) const {
  if (is_keccak(family_)) {
    const std::size_t lane = word % 25;
    const std::string name = fmt::format("lane ({}, {})", lane % 5, lane / 5);
    return states_ > 1 ? fmt::format("{} of state {}", name, word / 25) : name;
  }
  return fmt::format("x{}", word);
}

std::size_t Specification::memory_word(std::size_t word) const {
  const std::size_t states = static_cast<std::size_t>(states_);
  const std::size_t per_state = state_.size() / states;
  return (word % per_state) * states + word / per_state;
}

void Specification::round(int index, std::vector<Word>& state) const {
  const std::size_t per_state = state.size() / static_cast<std::size_t>(states_);
  for (int s = 0; s < states_; ++s) {
    Word* words = state.data() + static_cast<std::size_t>(s) * per_state;
    if (is_keccak(family_)) {
      keccak_round(index, words);
    } else {
      ascon_round(index, words);
    }
  }
}

void Specification::input(int block, std::vector<Word>& state,
                          std::vector<Expectation>& outputs) const {
  const std::size_t b = static_cast<std::size_t>(block);
  if (is_keccak(family_)) {
    // One rate block per state, little-endian lanes.
    for (int s = 0; s < states_; ++s) {
      const std::vector<Word>& words =
          inputs_.blocks.at(b * static_cast<std::size_t>(states_) + static_cast<std::size_t>(s));
      for (std::size_t lane = 0; lane < words.size(); ++lane)
        state[static_cast<std::size_t>(s) * 25 + lane] =
            state[static_cast<std::size_t>(s) * 25 + lane] ^ words[lane];
    }
    return;
  }
  const std::vector<Word>& in = inputs_.blocks.at(b);
  const std::int64_t out_offset = static_cast<std::int64_t>(b * in.size() * 8);
  switch (shape_.kind) {
    case EntryKind::absorb:
      for (std::size_t w = 0; w < in.size(); ++w)
        state[w] = state[w] ^ in[w];
      return;
    case EntryKind::encrypt:
      for (std::size_t w = 0; w < in.size(); ++w) {
        state[w] = state[w] ^ in[w];
        outputs.push_back({inputs_.output_region, out_offset + static_cast<std::int64_t>(8 * w),
                           state[w], fmt::format("ciphertext word {} of block {}", w, block)});
      }
      return;
    case EntryKind::decrypt:
      for (std::size_t w = 0; w < in.size(); ++w) {
        outputs.push_back({inputs_.output_region, out_offset + static_cast<std::int64_t>(8 * w),
                           state[w] ^ in[w],
                           fmt::format("plaintext word {} of block {}", w, block)});
        state[w] = in[w];
      }
      return;
    case EntryKind::permute:
      break;
  }
  throw GenerationError("prove: a permute entry has no input");
}

void Specification::apply(const Step& step, std::vector<Word>& state,
                          std::vector<Expectation>& outputs) const {
  if (step.is_round) {
    round(step.index, state);
  } else {
    input(step.index, state, outputs);
  }
}

std::vector<Specification::Boundary> Specification::boundaries_after(int completed) {
  // Count the rounds already applied, then run to the end of round `completed`.
  int done = 0;
  for (std::size_t i = 0; i < position_; ++i)
    done += steps_[i].is_round ? 1 : 0;
  Boundary after_round{state_, position_, fmt::format("after round {}", completed), {}};
  while (done < completed) {
    if (after_round.position >= steps_.size()) {
      throw GenerationError("prove: more round boundaries than rounds");
    }
    const Step& step = steps_[after_round.position++];
    done += step.is_round ? 1 : 0;
    apply(step, after_round.state, after_round.outputs);
  }
  // A block input right at the boundary: the kernel may apply it before or after the marker.
  Boundary with_input = after_round;
  while (with_input.position < steps_.size() && !steps_[with_input.position].is_round)
    apply(steps_[with_input.position++], with_input.state, with_input.outputs);
  std::vector<Boundary> out;
  if (with_input.position != after_round.position) {
    with_input.description = fmt::format("after round {} and the next block's input", completed);
    out.push_back(std::move(with_input));
  }
  out.push_back(std::move(after_round));
  return out;
}

void Specification::rebase(std::vector<Word> state, const Boundary& boundary) {
  state_ = std::move(state);
  position_ = boundary.position;
  outputs_.insert(outputs_.end(), boundary.outputs.begin(), boundary.outputs.end());
}

std::optional<int> Specification::next_round_before_a_round() const {
  if (position_ + 1 >= steps_.size() || !steps_[position_].is_round ||
      !steps_[position_ + 1].is_round) {
    return std::nullopt;
  }
  return steps_[position_].index;
}

void Specification::pass_round(std::vector<Word> state) {
  if (!next_round_before_a_round()) throw GenerationError("prove: no round to pass");
  state_ = std::move(state);
  ++position_;
}

std::vector<Word> Specification::final_state() {
  std::vector<Word> state = state_;
  for (std::size_t p = position_; p < steps_.size(); ++p)
    apply(steps_[p], state, outputs_);
  position_ = steps_.size();
  state_ = state;
  return state;
}

}  // namespace spongegen::prove
