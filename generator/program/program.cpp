#include "program/program.hpp"

#include <array>

namespace spongegen {

std::string_view isa_name(Isa isa) {
  return isa == Isa::amd64 ? "amd64" : "arm64";
}

const MnemonicInfo& mnemonic_info(Mnemonic mnemonic) {
  static const std::array kTable = {
      // amd64, in enum order
      MnemonicInfo{"add", Isa::amd64, false},
      MnemonicInfo{"andn", Isa::amd64, false},
      MnemonicInfo{"cmp", Isa::amd64, false},
      MnemonicInfo{"endbr64", Isa::amd64, false},
      MnemonicInfo{"jmp", Isa::amd64, true},
      MnemonicInfo{"jne", Isa::amd64, true},
      MnemonicInfo{"lea", Isa::amd64, false},
      MnemonicInfo{"mov", Isa::amd64, false},
      MnemonicInfo{"pop", Isa::amd64, false},
      MnemonicInfo{"push", Isa::amd64, false},
      MnemonicInfo{"ret", Isa::amd64, true},
      MnemonicInfo{"rorx", Isa::amd64, false},
      MnemonicInfo{"sub", Isa::amd64, false},
      MnemonicInfo{"xor", Isa::amd64, false},
      // arm64, in enum order
      MnemonicInfo{"add", Isa::arm64, false},
      MnemonicInfo{"adr", Isa::arm64, false},
      MnemonicInfo{"b", Isa::arm64, true},
      MnemonicInfo{"bcax", Isa::arm64, false},
      MnemonicInfo{"cbnz", Isa::arm64, true},
      MnemonicInfo{"eor", Isa::arm64, false},
      MnemonicInfo{"eor3", Isa::arm64, false},
      MnemonicInfo{"hint", Isa::arm64, false},
      MnemonicInfo{"ld1r", Isa::arm64, false},
      MnemonicInfo{"ldp", Isa::arm64, false},
      MnemonicInfo{"ldr", Isa::arm64, false},
      MnemonicInfo{"mov", Isa::arm64, false},
      MnemonicInfo{"rax1", Isa::arm64, false},
      MnemonicInfo{"ret", Isa::arm64, true},
      MnemonicInfo{"stp", Isa::arm64, false},
      MnemonicInfo{"str", Isa::arm64, false},
      MnemonicInfo{"sub", Isa::arm64, false},
      MnemonicInfo{"xar", Isa::arm64, false},
  };
  static_assert(kTable.size() == static_cast<std::size_t>(Mnemonic::arm64_xar) + 1,
                "one MnemonicInfo per Mnemonic, in enum order");
  return kTable[static_cast<std::size_t>(mnemonic)];
}

std::string_view entry_kind_name(EntryKind kind) {
  return kind == EntryKind::permute ? "permute" : "absorb";
}

std::string c_prototype(const std::string& symbol, const EntryShape& shape) {
  std::string text = "void " + symbol + "(";
  for (std::size_t i = 0; i < shape.parameters.size(); ++i) {
    const Parameter& parameter = shape.parameters[i];
    if (i > 0) text += ", ";
    text += parameter.c_type + " " + parameter.name;
    if (parameter.extent > 0) text += "[" + std::to_string(parameter.extent) + "]";
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

std::size_t Program::instruction_count() const {
  std::size_t count = 0;
  for (const Function& function : functions) {
    for (const Item& item : function.items)
      count += std::holds_alternative<Instruction>(item);
  }
  return count;
}

void FunctionBuilder::emit(Mnemonic mnemonic, std::vector<Operand> operands) {
  if (mnemonic_info(mnemonic).isa != program_.isa) {
    throw GenerationError("kernel " + program_.kernel_name + ": " +
                          std::string(isa_name(mnemonic_info(mnemonic).isa)) + " instruction '" +
                          std::string(mnemonic_info(mnemonic).text) + "' in an " +
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
