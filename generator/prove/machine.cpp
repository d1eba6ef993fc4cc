#include "prove/machine.hpp"

#include <fmt/format.h>

namespace spongegen::prove {

Machine::Machine(int registers) {
  if (registers < kNativeRegisters || registers > kMachineRegisters) {
    throw MachineError(fmt::format("{} registers in a file: the machine holds {} to {}", registers,
                                   kNativeRegisters, kMachineRegisters));
  }
  gp_.resize(static_cast<std::size_t>(registers));
  vector_.resize(static_cast<std::size_t>(registers));
  for (Value& reg : gp_)
    reg = Value::integer(0);
  stack_pointer_ = Value::integer(0);
}

int Machine::add_region(std::string name, std::size_t bytes, bool writable) {
  regions_.push_back(
      Region{std::move(name), std::vector<std::optional<Value>>((bytes + 7) / 8), writable});
  return static_cast<int>(regions_.size() - 1);
}

namespace {
std::size_t word_index(const std::vector<Region>& regions, const Pointer& at, const char* access) {
  if (at.region < 0 || static_cast<std::size_t>(at.region) >= regions.size()) {
    throw MachineError(fmt::format("{} through an address that is no buffer's", access));
  }
  const Region& region = regions[static_cast<std::size_t>(at.region)];
  if (at.offset % 8 != 0) {
    throw MachineError(fmt::format("{} at byte {} of {}: not a multiple of 8 bytes from its start",
                                   access, at.offset, region.name));
  }
  if (at.offset < 0 || static_cast<std::size_t>(at.offset / 8) >= region.words.size()) {
    throw MachineError(fmt::format("{} at byte {} of {}, outside its {} bytes", access, at.offset,
                                   region.name, region.words.size() * 8));
  }
  return static_cast<std::size_t>(at.offset / 8);
}
}  // namespace

Value Machine::load(const Pointer& at) const {
  const std::size_t index = word_index(regions_, at, "a load");
  if (access_log != nullptr) access_log->push_back({at, false});
  const Region& region = regions_[static_cast<std::size_t>(at.region)];
  if (!region.words[index] && stale_seed_) {
    // SplitMix64's step, inline: the machine has no other use for it.
    std::uint64_t z = (*stale_seed_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return Value::integer(z ^ (z >> 31));
  }
  if (!region.words[index]) {
    throw MachineError(
        fmt::format("a load of byte {} of {}, which nothing wrote before", at.offset, region.name));
  }
  return *region.words[index];
}

void Machine::store(const Pointer& at, Value value) {
  const std::size_t index = word_index(regions_, at, "a store");
  if (access_log != nullptr) access_log->push_back({at, true});
  Region& region = regions_[static_cast<std::size_t>(at.region)];
  if (!region.writable) {
    throw MachineError(fmt::format("a store into {} (byte {}), which the entry may only read",
                                   region.name, at.offset));
  }
  if (region.writable_below >= 0 && at.offset >= region.writable_below &&
      (at.offset < region.home_space_begin || at.offset >= region.home_space_end)) {
    throw MachineError(
        fmt::format("a store into the caller's frame or return address, at byte {} of {}",
                    at.offset, region.name));
  }
  region.words[index] = std::move(value);
}

Variable Machine::fresh(std::uint32_t count) {
  const Variable first = next_variable_;
  if (next_variable_ > 0x7fffffffu - count) throw MachineError("out of variables");
  next_variable_ += count;
  return first;
}

Pointer address_of(const Value& value, const char* what) {
  if (!value.pointer) throw MachineError(fmt::format("{} is not an address", what));
  return *value.pointer;
}

std::uint64_t integer_of(const Value& value, const char* what) {
  if (value.block_count) {
    throw MachineError(
        fmt::format("{} is the block count, used as data or in arithmetic other "
                    "than counting down",
                    what));
  }
  return count_of(value, what);
}

std::uint64_t count_of(const Value& value, const char* what) {
  if (value.pointer) throw MachineError(fmt::format("{} is an address, not an integer", what));
  if (!is_constant(value.bits)) throw MachineError(fmt::format("{} depends on the data", what));
  return constant_value(value.bits);
}

}  // namespace spongegen::prove
