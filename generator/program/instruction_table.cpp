#include "program/instruction_table.hpp"

#include <asmjit/arm/a64instdb.h>
#include <asmjit/asmjit.h>

#include <vector>

namespace spongegen {
namespace {

template <typename... Specs>
constexpr std::array<OperandSpec, kMaxOperands> operand_specs(Specs... specs) {
  return {specs...};
}

#define SPONGEGEN_AMD64(name, text, cls, feature, id, behaviour, ...)                          \
                                                                                               \
  InstructionSpec{Mnemonic::amd64_##name,                                                      \
                  text,                                                                        \
                  Isa::amd64,                                                                  \
                  InstructionClass::cls,                                                       \
                  feature,                                                                     \
                  asmjit::x86::Inst::kId##id,                                                  \
                  asmjit::x86::Inst::kId##id,                                                  \
                  behaviour,                                                                   \
                  operand_specs(__VA_ARGS__).size() - count_empty(operand_specs(__VA_ARGS__)), \
                  operand_specs(__VA_ARGS__)},
#define SPONGEGEN_ARM64(name, text, cls, feature, id, simd_id, behaviour, ...)                 \
                                                                                               \
  InstructionSpec{Mnemonic::arm64_##name,                                                      \
                  text,                                                                        \
                  Isa::arm64,                                                                  \
                  InstructionClass::cls,                                                       \
                  feature,                                                                     \
                  asmjit::a64::Inst::kId##id,                                                  \
                  asmjit::a64::Inst::kId##simd_id,                                             \
                  behaviour,                                                                   \
                  operand_specs(__VA_ARGS__).size() - count_empty(operand_specs(__VA_ARGS__)), \
                  operand_specs(__VA_ARGS__)},

// Unused positions of a row are value-initialized: no forms.
constexpr std::size_t count_empty(const std::array<OperandSpec, kMaxOperands>& specs) {
  std::size_t empty = 0;
  for (const OperandSpec& spec : specs)
    empty += spec.forms == 0;
  return empty;
}

const std::vector<InstructionSpec>& amd64_table() {
  static const std::vector<InstructionSpec> kTable = {
#include "program/amd64_instructions.def"
  };
  return kTable;
}

const std::vector<InstructionSpec>& arm64_table() {
  static const std::vector<InstructionSpec> kTable = {
#include "program/arm64_instructions.def"
  };
  return kTable;
}

#undef SPONGEGEN_AMD64
#undef SPONGEGEN_ARM64

// The enum counts the amd64 rows first, then the arm64 rows (program.hpp).
constexpr std::size_t kAmd64Rows = static_cast<std::size_t>(Mnemonic::arm64_add);

}  // namespace

const InstructionSpec& instruction_spec(Mnemonic mnemonic) {
  const auto index = static_cast<std::size_t>(mnemonic);
  return index < kAmd64Rows ? amd64_table().at(index) : arm64_table().at(index - kAmd64Rows);
}

std::span<const InstructionSpec> instruction_table(Isa isa) {
  return isa == Isa::amd64 ? std::span(amd64_table()) : std::span(arm64_table());
}

std::uint32_t operand_form(const Operand& operand) {
  if (const Reg* reg = std::get_if<Reg>(&operand)) {
    switch (reg->cls) {
      case RegClass::gp32:
        return kGp32;
      case RegClass::gp64:
        return kGp64;
      case RegClass::sp:
        return kSp;
      case RegClass::xmm:
        return kXmm;
      case RegClass::ymm:
        return kYmm;
      case RegClass::zmm:
        return kZmm;
      case RegClass::fp64:
        return kFp64;
      case RegClass::fp128:
        return kFp128;
      case RegClass::vec:
        if (reg->arrangement == Arrangement::b16) return kVec16b;
        if (reg->arrangement == Arrangement::d2) return kVec2d;
        return 0;
    }
    return 0;
  }
  if (const Mem* mem = std::get_if<Mem>(&operand))
    return mem->bytes == 8 ? kMem | kMem64 : std::uint32_t{kMem};
  if (std::holds_alternative<Imm>(operand)) return kImm;
  if (std::holds_alternative<LabelRef>(operand) || std::holds_alternative<SymbolRef>(operand)) {
    return kLabel;
  }
  return kShifted;
}

std::string operand_forms_text(std::uint32_t forms) {
  static constexpr std::pair<std::uint32_t, std::string_view> kNames[] = {
      {kGp32, "a 32-bit general-purpose register"},
      {kGp64, "a 64-bit general-purpose register"},
      {kSp, "the stack pointer"},
      {kXmm, "an xmm register"},
      {kYmm, "a ymm register"},
      {kZmm, "a zmm register"},
      {kFp64, "a d register"},
      {kFp128, "a q register"},
      {kVec16b, "a .16b vector register"},
      {kVec2d, "a .2d vector register"},
      {kMem64, "a 64-bit memory operand"},
      {kMem, "a memory operand"},
      {kImm, "an immediate"},
      {kLabel, "a label"},
      {kShifted, "a shifted register"},
  };
  std::string text;
  for (const auto& [form, name] : kNames) {
    if ((forms & form) == 0) continue;
    if (form == kMem && (forms & kMem64) != 0) continue;  // named by the sized form
    text += (text.empty() ? "" : " or ") + std::string(name);
  }
  return text.empty() ? "nothing" : text;
}

std::string operand_form_name(const Operand& operand) {
  if (const Mem* mem = std::get_if<Mem>(&operand)) {
    return mem->bytes == 0 ? "a memory operand"
                           : "a " + std::to_string(8 * mem->bytes) + "-bit memory operand";
  }
  return operand_forms_text(operand_form(operand));
}

}  // namespace spongegen
