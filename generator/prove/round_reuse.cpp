#include "prove/round_reuse.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <type_traits>

namespace spongegen::prove {

std::vector<Place> places_of(const audit::Location& location) {
  std::vector<Place> out;
  const auto* reg = std::get_if<audit::RegisterLocation>(&location);
  if (reg == nullptr) return out;
  switch (reg->file) {
    case audit::RegisterFile::gp:
      out.push_back({Place::Kind::gp, reg->index, 0});
      break;
    case audit::RegisterFile::vector:
      for (int w = 0; w < kVectorWords; ++w)
        out.push_back({Place::Kind::vector_word, reg->index, w});
      break;
    case audit::RegisterFile::stack_pointer:
      out.push_back({Place::Kind::stack_pointer, 0, 0});
      break;
    case audit::RegisterFile::flags:
      out.push_back({Place::Kind::zero_flag, 0, 0});
      break;
  }
  return out;
}
namespace {

const std::optional<Value>& memory_at(const Machine& machine, const Place& place) {
  return machine.regions()[static_cast<std::size_t>(place.index)]
      .words[static_cast<std::size_t>(place.word)];
}

bool same_value(const Value& a, const Value& b) {
  return a.pointer == b.pointer && a.block_count == b.block_count && a.bits == b.bits;
}

bool same_value(const std::optional<Value>& a, const std::optional<Value>& b) {
  if (!a || !b) return !a && !b;
  return same_value(*a, *b);
}

// Calls `visit` with the place's content: a Value, a Word (a vector word), an
// optional<Value> (memory) or an optional<bool> (the zero flag).
template <class Machine_, class Visit>
decltype(auto) visit_place(Machine_& machine, const Place& place, const Visit& visit) {
  switch (place.kind) {
    case Place::Kind::gp:
      return visit(machine.gp(place.index));
    case Place::Kind::vector_word:
      return visit(machine.vector(place.index)[static_cast<std::size_t>(place.word)]);
    case Place::Kind::stack_pointer:
      return visit(machine.stack_pointer());
    case Place::Kind::zero_flag:
      return visit(machine.zero_flag);
    case Place::Kind::vector_length:
      return visit(machine.vector_length);
    case Place::Kind::memory:
      break;
  }
  if constexpr (std::is_const_v<Machine_>) {
    return visit(memory_at(machine, place));
  } else {
    return visit(machine.region(place.index).words[static_cast<std::size_t>(place.word)]);
  }
}

bool same_at(const Machine& a, const Machine& b, const Place& place) {
  switch (place.kind) {
    case Place::Kind::gp:
      return same_value(a.gp(place.index), b.gp(place.index));
    case Place::Kind::vector_word:
      return a.vector(place.index)[static_cast<std::size_t>(place.word)] ==
             b.vector(place.index)[static_cast<std::size_t>(place.word)];
    case Place::Kind::stack_pointer:
      return same_value(a.stack_pointer(), b.stack_pointer());
    case Place::Kind::zero_flag:
      return a.zero_flag == b.zero_flag;
    case Place::Kind::vector_length:
      return a.vector_length == b.vector_length;
    case Place::Kind::memory:
      break;
  }
  return same_value(memory_at(a, place), memory_at(b, place));
}

// The bits a place holds as data, if any.
const Word* bits_at(const Machine& machine, const Place& place) {
  switch (place.kind) {
    case Place::Kind::gp:
      return &machine.gp(place.index).bits;
    case Place::Kind::vector_word:
      return &machine.vector(place.index)[static_cast<std::size_t>(place.word)];
    case Place::Kind::stack_pointer:
      return &machine.stack_pointer().bits;
    case Place::Kind::zero_flag:
    case Place::Kind::vector_length:
      return nullptr;
    case Place::Kind::memory:
      break;
  }
  const std::optional<Value>& word = memory_at(machine, place);
  return word ? &word->bits : nullptr;
}

// The Value a place holds: a general-purpose register, the stack pointer, a written word.
const Value* value_at(const Machine& machine, const Place& place) {
  if (place.kind == Place::Kind::gp) return &machine.gp(place.index);
  if (place.kind == Place::Kind::stack_pointer) return &machine.stack_pointer();
  if (place.kind != Place::Kind::memory) return nullptr;
  const std::optional<Value>& word = memory_at(machine, place);
  return word ? &*word : nullptr;
}

// The region a place's content points into, if it holds an address.
std::optional<int> pointed_region(const Machine& machine, const Place& place) {
  const Value* value = value_at(machine, place);
  if (value == nullptr || !value->pointer) return std::nullopt;
  return value->pointer->region;
}

std::uint32_t block_of(Variable v) {
  return (v - 1) / 64;
}

// The blocks of a few words' variables, sorted (a boundary's state: one block a word).
std::vector<std::uint32_t> blocks_of(std::span<const Word> words) {
  std::vector<std::uint32_t> blocks;
  for (const Word& word : words) {
    for (const Poly& bit : word) {
      for (std::uint64_t monomial : bit.monomials()) {
        for (const auto v :
             {static_cast<Variable>(monomial >> 32), static_cast<Variable>(monomial)}) {
          if (v != 0 && (blocks.empty() || blocks.back() != block_of(v))) {
            blocks.push_back(block_of(v));
          }
        }
      }
    }
  }
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  return blocks;
}

bool contains(const std::vector<std::uint32_t>& sorted, std::uint32_t block) {
  if (sorted.empty() || block < sorted.front() || block > sorted.back()) return false;
  if (sorted.back() - sorted.front() + 1 == sorted.size()) return true;  // one run
  return std::binary_search(sorted.begin(), sorted.end(), block);
}

// Whether some monomial of `bits` is a product of two variables of `blocks`.
bool has_product_of(const Word* bits, const std::vector<std::uint32_t>& blocks) {
  if (bits == nullptr) return false;
  for (const Poly& bit : *bits) {
    if (bit.size() == 0) continue;
    const std::uint64_t last = bit.monomials().back();  // quadratic terms sort last
    if ((last >> 32) == 0) continue;
    for (std::uint64_t monomial : bit.monomials()) {
      const auto a = static_cast<Variable>(monomial >> 32), b = static_cast<Variable>(monomial);
      if (a != 0 && contains(blocks, block_of(a)) && contains(blocks, block_of(b))) return true;
    }
  }
  return false;
}

// A record's names for variables: block by block (Machine::fresh hands variables out 64 at
// a time, a block being (v - 1) / 64), the blocks in increasing order, so the renaming keeps
// every polynomial's monomials in order. The ranks live in a table of this thread, cleared
// when the renaming ends (one at a time a thread).
class Renaming {
 public:
  Renaming() = default;
  Renaming(const Renaming&) = delete;
  Renaming& operator=(const Renaming&) = delete;
  ~Renaming() {
    for (std::uint32_t block : blocks_)
      table()[block] = kAbsent;
  }

  void add(const Word& bits) {
    std::uint32_t last = ~0u;
    for (const Poly& bit : bits) {
      for (std::uint64_t monomial : bit.monomials()) {
        for (const auto v :
             {static_cast<Variable>(monomial >> 32), static_cast<Variable>(monomial)}) {
          if (v == 0 || block_of(v) == last) continue;
          last = block_of(v);
          std::vector<std::int32_t>& ranks = table();
          if (ranks.size() <= last) ranks.resize(last + 1 + ranks.size() / 2, kAbsent);
          if (ranks[last] == kAbsent) {
            ranks[last] = kSeen;
            blocks_.push_back(last);
          }
        }
      }
    }
  }
  // After the last add: the ranks.
  void rank() {
    std::sort(blocks_.begin(), blocks_.end());
    for (std::size_t r = 0; r < blocks_.size(); ++r)
      table()[blocks_[r]] = static_cast<std::int32_t>(r);
  }
  // Blocks above every ranked one (those a boundary made after them), ranked after them;
  // false when one is not above.
  bool append(std::span<const Word> words) {
    for (std::uint32_t block : blocks_of(words)) {
      if (!blocks_.empty() && block <= blocks_.back()) return false;
      std::vector<std::int32_t>& ranks = table();
      if (ranks.size() <= block) ranks.resize(block + 1 + ranks.size() / 2, kAbsent);
      ranks[block] = static_cast<std::int32_t>(blocks_.size());
      blocks_.push_back(block);
    }
    return true;
  }

  // 0 when the variable is not named.
  std::uint32_t name(Variable v) const {
    const std::uint32_t block = block_of(v);
    const std::vector<std::int32_t>& ranks = table();
    if (block >= ranks.size() || ranks[block] < 0) return 0;
    return static_cast<std::uint32_t>(ranks[block]) * 64 + (v - 1) % 64 + 1;
  }
  Variable variable(std::uint64_t name) const {
    return blocks_[static_cast<std::size_t>((name - 1) / 64)] * 64 +
           static_cast<Variable>((name - 1) % 64) + 1;
  }
  std::size_t block_count() const { return blocks_.size(); }
  const std::vector<std::uint32_t>& blocks() const { return blocks_; }

 private:
  static constexpr std::int32_t kAbsent = -1, kSeen = -2;
  static std::vector<std::int32_t>& table() {
    thread_local std::vector<std::int32_t> ranks;
    return ranks;
  }
  std::vector<std::uint32_t> blocks_;
};

template <class Visit>
void for_each_place(const Machine& machine, const Visit& visit) {
  for (int r = 0; r < machine.registers(); ++r)
    visit(Place{Place::Kind::gp, r, 0});
  for (int r = 0; r < machine.registers(); ++r) {
    for (int w = 0; w < kVectorWords; ++w)
      visit(Place{Place::Kind::vector_word, r, w});
  }
  visit(Place{Place::Kind::stack_pointer, 0, 0});
  visit(Place{Place::Kind::zero_flag, 0, 0});
  visit(Place{Place::Kind::vector_length, 0, 0});
  for (std::size_t region = 0; region < machine.regions().size(); ++region) {
    for (std::size_t w = 0; w < machine.regions()[region].words.size(); ++w)
      visit(Place{Place::Kind::memory, static_cast<int>(region), static_cast<int>(w)});
  }
}

// Contents as a record keeps them: each variable as its position among `variables` (sorted,
// so the renaming keeps every polynomial's monomials in order), each region as the record's
// number for it. Every field has a fixed width or a length before it.
class Encoder {
 public:
  Encoder(const Renaming& names, const std::map<int, int>& region_numbers,
          std::vector<std::uint64_t>& out)
      : names_(names), region_numbers_(region_numbers), out_(out) {}

  // False when a variable or a region is not among those the record names.
  bool add(const Machine& machine, const Place& place) {
    return visit_place(machine, place, [this](const auto& content) { return add(content); });
  }
  bool add(const Word& bits) {
    for (const Poly& bit : bits) {
      out_.push_back(bit.size());
      for (std::uint64_t monomial : bit.monomials()) {
        std::uint64_t renamed = 0;
        for (const Variable v :
             {static_cast<Variable>(monomial >> 32), static_cast<Variable>(monomial)}) {
          renamed <<= 32;
          if (v == 0) continue;
          const std::uint32_t name = names_.name(v);
          if (name == 0) return false;
          renamed |= name;
        }
        out_.push_back(renamed);
      }
    }
    return true;
  }

 private:
  bool add(const Value& value) {
    out_.push_back(1 + (value.block_count ? 2 : 0) + (value.pointer ? 4 : 0));
    if (value.pointer) {
      const auto number = region_numbers_.find(value.pointer->region);
      if (number == region_numbers_.end()) return false;
      out_.push_back(static_cast<std::uint64_t>(number->second));
      out_.push_back(static_cast<std::uint64_t>(value.pointer->offset));
    }
    return add(value.bits);
  }
  bool add(const std::optional<Value>& value) {
    if (value) return add(*value);
    out_.push_back(0);
    return true;
  }
  bool add(const std::optional<bool>& flag) {
    out_.push_back(flag ? 1 + (*flag ? 1 : 0) : 0);
    return true;
  }
  bool add(int vector_length) {
    out_.push_back(static_cast<std::uint64_t>(vector_length));
    return true;
  }

  const Renaming& names_;
  const std::map<int, int>& region_numbers_;
  std::vector<std::uint64_t>& out_;
};

// The inverse: contents back in a run's variables and regions.
class Decoder {
 public:
  Decoder(const Renaming& names, const std::vector<int>& regions,
          const std::vector<std::uint64_t>& in)
      : names_(names), regions_(regions), in_(in) {}

  void into(Machine& machine, const Place& place) {
    visit_place(machine, place, [this](auto& content) { read(content); });
  }

 private:
  void read(Word& bits) {
    for (Poly& bit : bits) {
      const std::size_t size = static_cast<std::size_t>(in_[at_++]);
      terms_.resize(size);
      for (std::size_t t = 0; t < size; ++t) {
        const std::uint64_t monomial = in_[at_++];
        std::uint64_t renamed = 0;
        for (const std::uint64_t n : {monomial >> 32, monomial & 0xffffffffu}) {
          renamed = (renamed << 32) | (n == 0 ? 0 : names_.variable(n));
        }
        terms_[t] = renamed;
      }
      bit = Poly::of_monomials(terms_.data(), size);
    }
  }
  void read(Value& value) {
    const std::uint64_t tag = in_[at_++];
    value.block_count = (tag & 2) != 0;
    value.pointer.reset();
    if ((tag & 4) != 0) {
      const int region = regions_.at(static_cast<std::size_t>(in_[at_]));
      value.pointer = Pointer{region, static_cast<std::int64_t>(in_[at_ + 1])};
      at_ += 2;
    }
    read(value.bits);
  }
  void read(std::optional<Value>& value) {
    if (in_[at_] == 0) {
      ++at_;
      value.reset();
      return;
    }
    value.emplace();
    read(*value);
  }
  void read(int& vector_length) { vector_length = static_cast<int>(in_[at_++]); }
  void read(std::optional<bool>& flag) {
    const std::uint64_t tag = in_[at_++];
    flag = tag == 0 ? std::nullopt : std::optional<bool>(tag == 2);
  }

  const Renaming& names_;
  const std::vector<int>& regions_;
  const std::vector<std::uint64_t>& in_;
  std::size_t at_ = 0;
  std::vector<std::uint64_t> terms_;
};

// What the places hold besides polynomials: addresses (by the record's region numbers),
// block counts and the flag.
std::vector<std::uint64_t> signature(const Machine& machine, const std::vector<Place>& places,
                                     const std::map<int, int>& region_numbers) {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < places.size(); ++i) {
    const Place& place = places[i];
    if (place.kind == Place::Kind::zero_flag) {
      out.push_back(machine.zero_flag ? 1 + (*machine.zero_flag ? 1 : 0) : 0);
      continue;
    }
    const Value* value = value_at(machine, place);
    if (value == nullptr || (!value->pointer && !value->block_count)) continue;
    out.push_back(i);
    out.push_back(value->block_count ? 1 : 0);
    if (value->pointer) {
      const auto number = region_numbers.find(value->pointer->region);
      out.push_back(number == region_numbers.end() ? ~0ull
                                                   : static_cast<std::uint64_t>(number->second));
      out.push_back(static_cast<std::uint64_t>(value->pointer->offset));
    }
  }
  return out;
}

std::string group_key(const RoundReuse::RoundStart& start) {
  return fmt::format("{}{}\nround {}", start.segment.code, start.context, start.round);
}

}  // namespace

Registers registers_of(const Machine& machine) {
  Registers registers;
  registers.gp = machine.gp_registers();
  registers.vector = machine.vector_registers();
  registers.stack_pointer = machine.stack_pointer();
  registers.zero_flag = machine.zero_flag;
  registers.vector_length = machine.vector_length;
  return registers;
}

Machine with_unread_places_fresh(const Machine& machine, const std::vector<Place>& reads) {
  Machine copy = machine;
  const std::set<Place> read(reads.begin(), reads.end());
  for_each_place(machine, [&](const Place& place) {
    if (read.count(place) != 0) return;
    if (place.kind == Place::Kind::zero_flag) {
      copy.zero_flag.reset();
    } else if (place.kind == Place::Kind::vector_length) {
      copy.vector_length = 0;
    } else if (place.kind == Place::Kind::vector_word) {
      copy.vector(place.index)[static_cast<std::size_t>(place.word)] =
          variable_word(copy.fresh(64));
    } else if (place.kind == Place::Kind::gp) {
      copy.gp(place.index) = Value::data(variable_word(copy.fresh(64)));
    } else if (place.kind == Place::Kind::stack_pointer) {
      copy.stack_pointer() = Value::data(variable_word(copy.fresh(64)));
    } else if (memory_at(machine, place)) {
      copy.region(place.index).words[static_cast<std::size_t>(place.word)] =
          Value::data(variable_word(copy.fresh(64)));
    }
  });
  return copy;
}

std::optional<std::vector<Place>> code_writes(const Machine& before, const Machine& after,
                                              const Registers& poisoned_before,
                                              const Machine& poisoned_after,
                                              const std::vector<Machine::Access>& accesses) {
  std::set<Place> written;
  for (const Machine::Access& access : accesses) {
    if (access.store) {
      written.insert(
          {Place::Kind::memory, access.at.region, static_cast<int>(access.at.offset / 8)});
    }
  }
  for (int r = 0; r < before.registers(); ++r) {
    if (!same_value(before.gp(r), after.gp(r)) ||
        !same_value(poisoned_before.gp[static_cast<std::size_t>(r)], poisoned_after.gp(r))) {
      written.insert({Place::Kind::gp, r, 0});
    }
    for (int w = 0; w < kVectorWords; ++w) {
      const auto word = static_cast<std::size_t>(w);
      if (before.vector(r)[word] != after.vector(r)[word] ||
          poisoned_before.vector[static_cast<std::size_t>(r)][word] !=
              poisoned_after.vector(r)[word]) {
        written.insert({Place::Kind::vector_word, r, w});
      }
    }
  }
  if (!same_value(before.stack_pointer(), after.stack_pointer()) ||
      !same_value(poisoned_before.stack_pointer, poisoned_after.stack_pointer())) {
    written.insert({Place::Kind::stack_pointer, 0, 0});
  }
  if (before.zero_flag != after.zero_flag ||
      poisoned_before.zero_flag != poisoned_after.zero_flag) {
    written.insert({Place::Kind::zero_flag, 0, 0});
  }
  if (before.vector_length != after.vector_length ||
      poisoned_before.vector_length != poisoned_after.vector_length) {
    written.insert({Place::Kind::vector_length, 0, 0});
  }
  for (const Place& place : written) {
    if (!same_at(after, poisoned_after, place)) return std::nullopt;
  }
  return std::vector<Place>(written.begin(), written.end());
}

bool registers_unchanged_outside(const Machine& before, const Machine& after,
                                 const std::set<Place>& writes) {
  bool unchanged = true;
  for_each_place(before, [&](const Place& place) {
    if (place.kind == Place::Kind::memory || !unchanged || writes.count(place) != 0) return;
    unchanged = same_at(before, after, place);
  });
  return unchanged;
}

std::optional<std::vector<Place>> RoundReuse::path_writes(
    const std::vector<const void*>& path) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = checked_paths_.find(path);
  if (found == checked_paths_.end()) return std::nullopt;
  return found->second;
}

void RoundReuse::check_path(std::vector<const void*> path, std::vector<Place> registers) {
  const std::lock_guard<std::mutex> lock(mutex_);
  checked_paths_.emplace(std::move(path), std::move(registers));
}

const RoundReuse::Segment* RoundReuse::segment(
    const void* items, std::size_t start, const std::function<std::optional<Segment>()>& make) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto key = std::make_pair(items, start);
  auto found = segments_.find(key);
  if (found == segments_.end()) found = segments_.emplace(key, make()).first;
  return found->second ? &*found->second : nullptr;
}

bool RoundReuse::seen_before(const RoundStart& start) {
  const std::lock_guard<std::mutex> lock(mutex_);
  return !seen_.insert(group_key(start)).second;
}

bool RoundReuse::record(const RoundStart& start, const Recorded& run) {
  const std::vector<std::uint32_t> model_variables = blocks_of(start.model_state);
  // Where the code did not write, the boundary replaced nothing, and nothing holds a product
  // of the model's variables, which every word the boundary looks for holds.
  const std::set<Place> writes(run.writes.begin(), run.writes.end());
  bool elsewhere_unchanged = true;
  for_each_place(run.before, [&](const Place& place) {
    if (!elsewhere_unchanged || writes.count(place) != 0) return;
    elsewhere_unchanged = same_at(run.before, run.after_boundary, place) &&
                          !has_product_of(bits_at(run.before, place), model_variables);
  });
  if (!elsewhere_unchanged) return false;
  for (const Word& word : run.boundary_words) {
    if (!has_product_of(&word, model_variables)) return false;
  }
  // The regions the record names, numbered in the order it meets them; each must be the
  // only one of its name, which a replay matches.
  auto group = std::make_shared<Group>();
  std::map<int, int> numbers;
  const auto number = [&](std::optional<int> region) {
    if (!region || numbers.count(*region) != 0) return;
    const Region& r = run.before.regions()[static_cast<std::size_t>(*region)];
    numbers.emplace(*region, static_cast<int>(group->regions.size()));
    group->regions.push_back({r.name, r.words.size(), r.writable, r.writable_below,
                              r.home_space_begin, r.home_space_end});
  };
  Renaming names;
  for (const Word& word : start.model_state)
    names.add(word);
  for (const Place& place : run.reads) {
    if (place.kind == Place::Kind::memory) number(place.index);
    number(pointed_region(run.before, place));
    if (const Word* bits = bits_at(run.before, place)) names.add(*bits);
  }
  for (const Place& place : run.writes) {
    if (place.kind == Place::Kind::memory) number(place.index);
    number(pointed_region(run.after_boundary, place));
  }
  for (const Machine::Access& access : run.accesses)
    number(access.at.region);
  for (const RegionShape& shape : group->regions) {
    if (std::count_if(run.before.regions().begin(), run.before.regions().end(),
                      [&](const Region& r) { return r.name == shape.name; }) != 1) {
      return false;
    }
  }
  // The variables: those the round starts from, then those the boundary made, in order.
  names.rank();
  if (blocks_of(run.model_state_after).size() != run.model_state_after.size() ||
      !names.append(run.model_state_after)) {
    return false;
  }
  std::vector<std::uint64_t> read_values;
  Encoder reads(names, numbers, read_values);
  for (Place place : run.reads) {
    if (!reads.add(run.before, place)) return false;
    if (place.kind == Place::Kind::memory) place.index = numbers.at(place.index);
    group->reads.push_back(place);
  }
  for (const Word& word : start.model_state) {
    if (!reads.add(word)) return false;
  }
  std::vector<std::uint64_t> read_signature = signature(run.before, run.reads, numbers);
  Written written;
  written.instructions = run.instructions;
  written.branched = run.branched;
  written.end_items = run.end_items;
  written.end = run.end;
  Encoder writes_encoder(names, numbers, written.values);
  for (Place place : run.writes) {
    if (!writes_encoder.add(run.after_boundary, place)) return false;
    if (place.kind == Place::Kind::memory) place.index = numbers.at(place.index);
    written.writes.push_back(place);
  }
  for (const Machine::Access& access : run.accesses)
    written.accesses.push_back({{numbers.at(access.at.region), access.at.offset}, access.store});
  auto kept = std::make_shared<const Written>(std::move(written));
  const std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<Group>>& groups = groups_[group_key(start)];
  for (const auto& existing : groups) {
    if (existing->reads == group->reads && existing->regions == group->regions) {
      existing->signatures.insert(std::move(read_signature));
      existing->by_read_values.emplace(std::move(read_values), std::move(kept));
      return true;
    }
  }
  group->signatures.insert(std::move(read_signature));
  group->by_read_values.emplace(std::move(read_values), std::move(kept));
  groups.push_back(std::move(group));
  return true;
}

std::optional<RoundReuse::Replayed> RoundReuse::replay(const RoundStart& start,
                                                       Machine& machine) const {
  // A group's regions and reads never change once it is kept; only its records grow.
  std::vector<std::shared_ptr<Group>> groups;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto found = groups_.find(group_key(start));
    if (found == groups_.end()) return std::nullopt;
    groups = found->second;
  }
  const std::vector<std::uint32_t> model_variables = blocks_of(start.model_state);
  for (const auto& group : groups) {
    // The group's regions in this run: the only region of each name, of the same shape.
    std::vector<int> regions;
    std::map<int, int> numbers;
    for (const RegionShape& shape : group->regions) {
      int match = -1, count = 0;
      for (std::size_t r = 0; r < machine.regions().size(); ++r) {
        const Region& region = machine.regions()[r];
        if (region.name != shape.name) continue;
        ++count;
        const RegionShape here{
            region.name,           region.words.size(),     region.writable,
            region.writable_below, region.home_space_begin, region.home_space_end};
        if (here == shape) match = static_cast<int>(r);
      }
      if (count != 1 || match < 0) break;
      numbers.emplace(match, static_cast<int>(regions.size()));
      regions.push_back(match);
    }
    if (regions.size() != group->regions.size()) continue;
    const auto in_run = [&](Place place) {
      if (place.kind == Place::Kind::memory) {
        place.index = regions[static_cast<std::size_t>(place.index)];
      }
      return place;
    };
    std::vector<Place> reads_in_run;
    for (const Place& place : group->reads)
      reads_in_run.push_back(in_run(place));
    {
      const std::vector<std::uint64_t> read_signature = signature(machine, reads_in_run, numbers);
      const std::lock_guard<std::mutex> lock(mutex_);
      if (group->signatures.count(read_signature) == 0) continue;
    }
    Renaming names;
    for (const Word& word : start.model_state)
      names.add(word);
    for (const Place& place : reads_in_run) {
      if (const Word* bits = bits_at(machine, place)) names.add(*bits);
    }
    names.rank();
    std::vector<std::uint64_t> read_values;
    Encoder reads(names, numbers, read_values);
    bool representable = true;
    for (const Place& place : reads_in_run)
      representable = representable && reads.add(machine, place);
    for (const Word& word : start.model_state)
      representable = representable && reads.add(word);
    if (!representable) continue;
    std::shared_ptr<const Written> written;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      const auto found = group->by_read_values.find(read_values);
      if (found == group->by_read_values.end()) continue;
      written = found->second;
    }
    // The places the round does not write hold no product of the model's variables.
    std::set<Place> writes;
    for (const Place& place : written->writes)
      writes.insert(in_run(place));
    bool products_elsewhere = false;
    for_each_place(machine, [&](const Place& place) {
      products_elsewhere =
          products_elsewhere ||
          (writes.count(place) == 0 && has_product_of(bits_at(machine, place), model_variables));
    });
    if (products_elsewhere) return std::nullopt;
    // The boundary's fresh variables, as it makes them: a block a word, after every other.
    const Variable next = machine.variables_used();
    if ((next - 1) % 64 != 0 ||
        (names.block_count() != 0 && block_of(next) <= names.blocks().back())) {
      return std::nullopt;
    }
    Replayed replayed{written->instructions, {},          {}, written->branched,
                      written->end_items,    written->end};
    for (std::size_t w = 0; w < start.model_state.size(); ++w)
      replayed.model_state.push_back(variable_word(machine.fresh(64)));
    if (!names.append(replayed.model_state)) return std::nullopt;
    Decoder decoder(names, regions, written->values);
    for (const Place& place : written->writes)
      decoder.into(machine, in_run(place));
    for (const Machine::Access& access : written->accesses) {
      replayed.accesses.push_back(
          {{regions[static_cast<std::size_t>(access.at.region)], access.at.offset}, access.store});
    }
    return replayed;
  }
  return std::nullopt;
}

}  // namespace spongegen::prove
