// riscv64's assembler syntax: operands as the GNU assembler text prints and the reader reads
// them (registers by their ABI names, immediates in decimal, memory as disp(base)). There is
// no Go or Rust output for riscv64.
#include <fmt/format.h>

#include "isa/riscv64/riscv64.hpp"
#include "isa/riscv64/target_parts.hpp"
#include "readers/gas_syntax.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::riscv64 {
namespace {

Reg reg(std::string_view name) {
  return readers::named_register("riscv64", name, parse_register);
}

Operand read_operand(const std::string& text) {
  using readers::looks_numeric;
  using readers::parse_integer;
  const std::size_t open = text.find('(');
  if (open != std::string::npos && text.back() == ')') {
    const std::string_view disp = std::string_view(text).substr(0, open);
    const auto value = disp.empty() ? std::optional<std::int64_t>(0) : parse_integer(disp);
    if (!value || *value < INT32_MIN || *value > INT32_MAX) {
      throw GenerationError("unreadable displacement in '" + text + "'");
    }
    return Mem{reg(std::string_view(text).substr(open + 1, text.size() - open - 2)),
               static_cast<std::int32_t>(*value)};
  }
  if (auto value = parse_integer(text)) return Imm{*value};
  if (looks_numeric(text))
    throw GenerationError("immediate '" + text + "' is not a 64-bit integer");
  return reg(text);
}

}  // namespace

std::string gas_operand(const Program& program, const Operand& operand) {
  if (const Reg* r = std::get_if<Reg>(&operand)) return register_name(*r);
  if (const Imm* imm = std::get_if<Imm>(&operand)) return fmt::format("{}", imm->value);
  if (const LabelRef* label = std::get_if<LabelRef>(&operand)) {
    return writers::local_label(program, label->id);
  }
  if (const Mem* mem = std::get_if<Mem>(&operand)) {
    if (mem->addressing != Addressing::offset) {
      throw GenerationError("riscv64 memory operands are disp(register)");
    }
    return fmt::format("{}({})", mem->disp, register_name(mem->base));
  }
  throw GenerationError("operand kind not available on riscv64");
}

std::vector<Operand> read_operands(const std::vector<std::string>& texts, OperandReader& reader) {
  return readers::read_each_operand(texts, reader,
                                    [&](const std::string& text) { return read_operand(text); });
}

}  // namespace spongegen::riscv64
