#include "program/program.hpp"

#include <fmt/format.h>

#include "isa/target.hpp"
#include "program/instruction_table.hpp"

namespace spongegen {

std::string_view isa_name(Isa isa) {
  return target(isa).name();
}

std::string_view mnemonic_text(Mnemonic mnemonic) {
  return instruction_spec(mnemonic).text;
}

Isa mnemonic_isa(Mnemonic mnemonic) {
  return instruction_spec(mnemonic).isa;
}

int register_bytes(const Reg& reg) {
  switch (reg.cls) {
    case RegClass::gp32:
      return 4;
    case RegClass::gp64:
    case RegClass::sp:
    case RegClass::fp64:
      return 8;
    case RegClass::xmm:
    case RegClass::vec:
    case RegClass::fp128:
      return 16;
    case RegClass::ymm:
      return 32;
    case RegClass::zmm:
    case RegClass::rvv:  // VLEN bits; the most the prover models (VLEN = 512)
      return 64;
  }
  throw GenerationError("unknown register class");
}

std::string_view shift_name(Shift shift) {
  static constexpr std::string_view kNames[] = {"lsl", "lsr", "asr", "ror"};
  return kNames[static_cast<std::size_t>(shift)];
}

std::string_view entry_kind_name(EntryKind kind) {
  switch (kind) {
    case EntryKind::permute:
      return "permute";
    case EntryKind::absorb:
      return "absorb";
    case EntryKind::encrypt:
      return "encrypt";
    case EntryKind::decrypt:
      return "decrypt";
  }
  throw GenerationError("unknown entry kind");
}

std::string c_prototype(const std::string& symbol, const EntryShape& shape) {
  std::string text = "void " + symbol + "(";
  for (std::size_t i = 0; i < shape.parameters.size(); ++i) {
    const Parameter& parameter = shape.parameters[i];
    if (i > 0) text += ", ";
    text += parameter.c_type + " " + parameter.name;
    if (parameter.extent > 0) text += fmt::format("[{}]", parameter.extent);
  }
  return text + ")";
}

std::string entry_shape_line(const EntryShape& shape) {
  return std::string(entry_kind_name(shape.kind)) + " " + shape.permutation +
         " rounds=" + std::to_string(shape.rounds) + " rate=" + std::to_string(shape.rate_bytes) +
         " lanes=" + std::to_string(shape.lanes);
}

LabelId Program::new_label(std::string name) {
  label_names.push_back(std::move(name));
  return static_cast<LabelId>(label_names.size() - 1);
}

std::size_t Function::instruction_count() const {
  std::size_t count = 0;
  for (const Item& item : items)
    count += std::holds_alternative<Instruction>(item);
  return count;
}

std::size_t Function::instructions_between(LabelId from, LabelId to) const {
  bool counting = false;
  std::size_t count = 0;
  for (const Item& item : items) {
    if (const auto* label = std::get_if<LabelDef>(&item)) {
      if (label->id == to && counting) return count;
      if (label->id == from) counting = true;
    }
    count += counting && std::holds_alternative<Instruction>(item);
  }
  throw GenerationError(
      fmt::format("{}: counting instructions from label {} to label {}, but "
                  "{} is not bound{}",
                  symbol, from, to, counting ? to : from, counting ? " after the first" : ""));
}

std::size_t Program::instruction_count() const {
  std::size_t count = 0;
  for (const Function& function : functions)
    count += function.instruction_count();
  return count;
}

void FunctionBuilder::emit(Mnemonic mnemonic, std::vector<Operand> operands) {
  if (mnemonic_isa(mnemonic) != program_.isa) {
    throw GenerationError("kernel " + program_.kernel_name + ": " +
                          std::string(isa_name(mnemonic_isa(mnemonic))) + " instruction '" +
                          std::string(mnemonic_text(mnemonic)) + "' in an " +
                          std::string(isa_name(program_.isa)) + " program");
  }
  function_.items.push_back(Instruction{mnemonic, std::move(operands), {}});
}

// Out of line: GCC 12 reports a false -Wmaybe-uninitialized when these push_backs of a
// std::variant are inlined into the builders.
void FunctionBuilder::comment(std::string text) {
  function_.items.emplace_back(std::in_place_type<Comment>, Comment{std::move(text)});
}
void FunctionBuilder::blank() {
  function_.items.emplace_back(std::in_place_type<Blank>);
}
void FunctionBuilder::bind(LabelId label) {
  function_.items.emplace_back(std::in_place_type<LabelDef>, LabelDef{label});
}
void FunctionBuilder::cfi(Cfi entry) {
  function_.items.emplace_back(std::in_place_type<Cfi>, entry);
}

void FunctionBuilder::begin_round(int round, bool in_loop) {
  function_.items.emplace_back(std::in_place_type<RoundMarker>, RoundMarker{true, round, in_loop});
}
void FunctionBuilder::end_round() {
  function_.items.emplace_back(std::in_place_type<RoundMarker>, RoundMarker{false, 0, false});
}

void FunctionBuilder::annotate(std::string text) {
  for (auto it = function_.items.rbegin(); it != function_.items.rend(); ++it) {
    if (auto* instruction = std::get_if<Instruction>(&*it)) {
      instruction->comment = std::move(text);
      return;
    }
  }
  throw GenerationError("annotate() before any instruction in " + function_.symbol);
}

}  // namespace spongegen
