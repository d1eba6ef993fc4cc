#include "readers/gas_reader.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "isa/target.hpp"
#include "program/instruction_table.hpp"
#include "readers/gas_syntax.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::readers {

// The parameters of a prototype line, the inverse of c_prototype:
// "// void f(uint64_t state[25], const uint8_t block[168])".
std::vector<Parameter> parse_parameters(std::string_view line) {
  const std::size_t open = line.find('('), close = line.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    throw GenerationError("unreadable prototype");
  }
  std::vector<Parameter> parameters;
  for (const std::string& text : split_operands(line.substr(open + 1, close - open - 1))) {
    const std::size_t space = text.rfind(' ');
    if (space == std::string::npos) throw GenerationError("unreadable parameter " + text);
    Parameter parameter{text.substr(0, space), text.substr(space + 1), 0};
    if (const std::size_t bracket = parameter.name.find('['); bracket != std::string::npos) {
      const auto extent =
          parse_integer(std::string_view(parameter.name)
                            .substr(bracket + 1, parameter.name.size() - bracket - 2));
      if (!extent) throw GenerationError("unreadable parameter " + text);
      parameter.extent = static_cast<int>(*extent);
      parameter.name.resize(bracket);
    }
    parameters.push_back(std::move(parameter));
  }
  return parameters;
}

// The inverse of entry_shape_line: "absorb keccak-p1600 rounds=12 rate=168 lanes=1".
EntryShape parse_entry_shape(std::string_view text) {
  EntryShape shape;
  std::vector<std::string_view> words;
  for (std::size_t space; !text.empty(); text.remove_prefix(space + 1)) {
    space = text.find(' ');
    words.push_back(text.substr(0, space));
    if (space == std::string_view::npos) break;
  }
  if (words.size() != 5) throw GenerationError("unreadable entry line");
  bool known = false;
  for (const EntryKind kind : kEntryKinds) {
    if (words[0] == entry_kind_name(kind)) {
      shape.kind = kind;
      known = true;
    }
  }
  if (!known) throw GenerationError("unknown entry kind");
  shape.permutation = std::string(words[1]);
  auto field = [&](std::string_view word, std::string_view name) {
    const auto value = starts_with(word, name) ? parse_integer(word.substr(name.size()))
                                               : std::optional<std::int64_t>();
    if (!value) throw GenerationError("unreadable entry field " + std::string(name));
    return static_cast<int>(*value);
  };
  shape.rounds = field(words[2], "rounds=");
  shape.rate_bytes = field(words[3], "rate=");
  shape.lanes = field(words[4], "lanes=");
  return shape;
}

namespace {

class Reader : public OperandReader {
 public:
  explicit Reader(const std::string& kernel_name) { program_.kernel_name = kernel_name; }

  Program read(std::string_view text) {
    program_.isa = isa_of(text);
    std::size_t line_number = 0;
    while (!text.empty()) {
      const std::size_t end = text.find('\n');
      const std::string_view line = text.substr(0, end);
      text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
      ++line_number;
      try {
        read_line(line);
      } catch (const GenerationError& error) {
        throw GenerationError("line " + std::to_string(line_number) + " (" + std::string(line) +
                              "): " + error.what());
      }
    }
    apply_legacy_rounds();
    return std::move(program_);
  }

 private:
  // A file written before entries recorded their shape ran the permute entry's rounds in
  // every entry: the sum of the first function's round regions, each counted as often as
  // its marker said it ran ("runs R times").
  void apply_legacy_rounds() {
    for (Function& function : program_.functions) {
      if (function.shape.rounds == 0) function.shape.rounds = legacy_rounds_;
    }
  }

  LabelId label(const std::string& name) override {
    auto [it, inserted] = labels_.try_emplace(name, 0);
    if (inserted) it->second = program_.new_label(name);
    return it->second;
  }

  Function& function() {
    if (!in_function_) throw GenerationError("instruction outside a function");
    return in_windows_block_ ? program_.win64_entries.back() : program_.functions.back();
  }

  void read_line(std::string_view raw) {
    const std::string_view line = trim(raw);
    // The Windows x64 entries (amd64 files): adapters in front of the functions read here,
    // assembled for Windows only.
    if (line == "#if defined(_WIN32)") {
      in_windows_block_ = true;
      return;
    }
    if (in_windows_block_) {
      read_windows_line(line);
      return;
    }
    if (line.empty() || line.front() == '#') return;  // preprocessor
    if (starts_with(line, "SEH_")) return;            // Windows unwind codes, empty elsewhere
    if (starts_with(line, "//")) {
      read_comment(raw, line);
      return;
    }
    if (auto symbol = macro_argument(line, "SYMBOL"); symbol && line.back() == ':') {
      program_.functions.push_back(Function{*symbol, {}, pending_shape_, {}});
      pending_shape_ = {};
      in_function_ = true;
      return;
    }
    if (auto name = macro_argument(line, "LOCAL"); name && line.back() == ':') {
      if (in_function_) {
        function().items.push_back(LabelDef{label(*name)});
      } else {
        program_.tables.push_back(QuadTable{label(*name), {}, {}});
      }
      return;
    }
    if (starts_with(line, "FUNCTION_SIZE(")) {
      in_function_ = false;
      return;
    }
    if (starts_with(line, "HIDDEN(") || starts_with(line, "FUNCTION_TYPE(")) return;
    if (line.front() == '.') {
      read_directive(line);
      return;
    }
    read_instruction(line);
  }

  // A line of the Windows entries' block: each entry's label starts it (its shape is its
  // System V function's), its instructions follow; comments, directives and SEH_* lines
  // carry nothing the Program holds.
  void read_windows_line(std::string_view line) {
    if (line == "#endif") {
      in_windows_block_ = false;
      in_function_ = false;
      return;
    }
    if (line.empty() || line.front() == '#' || line.front() == '.' || starts_with(line, "//") ||
        starts_with(line, "SEH_") || starts_with(line, "FUNCTION_TYPE(")) {
      return;
    }
    if (auto symbol = macro_argument(line, "WIN64_SYMBOL"); symbol && line.back() == ':') {
      const auto sysv =
          std::find_if(program_.functions.begin(), program_.functions.end(),
                       [&](const Function& function) { return function.symbol == *symbol; });
      if (sysv == program_.functions.end()) {
        throw GenerationError("Windows entry " + *symbol + " adapts no function of the file");
      }
      program_.win64_entries.push_back(Function{*symbol, {}, sysv->shape, {}});
      in_function_ = true;
      return;
    }
    read_instruction(line);
  }

  void read_comment(std::string_view raw, std::string_view line) {
    const std::string shape_prefix = "// " + std::string(writers::kEntryShapePrefix);
    if (!in_function_ && starts_with(line, shape_prefix)) {
      std::vector<Parameter> parameters = std::move(pending_shape_.parameters);
      pending_shape_ = parse_entry_shape(line.substr(shape_prefix.size()));
      pending_shape_.parameters = std::move(parameters);
      return;
    }
    if (!in_function_ && starts_with(line, "// void ")) {
      pending_shape_.parameters = parse_parameters(line);
      return;
    }
    if (!in_function_ || !starts_with(raw, "\t// ----")) return;
    if (line == "// ---- end of round ----") {
      function().items.push_back(RoundMarker{false, 0, false});
    } else if (const std::size_t of = line.find(" of the loop"); of != std::string_view::npos) {
      // "// ---- round K of the loop ----"; before entry shapes: "..., runs R times ----"
      const auto round = parse_integer(line.substr(14, of - 14));
      if (!round) throw GenerationError("unreadable round marker");
      function().items.push_back(RoundMarker{true, static_cast<int>(*round), true});
      if (const std::size_t runs = line.find(", runs "); runs != std::string_view::npos) {
        const auto repeat = parse_integer(line.substr(runs + 7, line.find(" times") - runs - 7));
        if (!repeat) throw GenerationError("unreadable round marker");
        if (program_.functions.size() == 1) legacy_rounds_ += static_cast<int>(*repeat);
      }
    } else if (starts_with(line, "// ---- round ")) {
      const auto round = parse_integer(line.substr(14, line.rfind(" ----") - 14));
      if (!round) throw GenerationError("unreadable round marker");
      function().items.push_back(RoundMarker{true, static_cast<int>(*round), false});
      if (program_.functions.size() == 1) ++legacy_rounds_;
    }
  }

  void read_directive(std::string_view line) {
    if (starts_with(line, ".quad ")) {
      if (program_.tables.empty()) throw GenerationError(".quad outside a table");
      const auto value = parse_integer(line.substr(6));
      if (!value) throw GenerationError("unreadable .quad");
      program_.tables.back().values.push_back(static_cast<std::uint64_t>(*value));
      return;
    }
    if (!starts_with(line, ".cfi_") || line == ".cfi_startproc" || line == ".cfi_endproc") return;
    if (line == ".cfi_negate_ra_state") {
      function().items.push_back(Cfi{CfiKind::negate_ra_state});
      return;
    }
    const std::size_t space = line.find(' ');
    const std::string_view kind = line.substr(0, space);
    const auto args = split_operands(line.substr(space + 1));
    if (kind == ".cfi_adjust_cfa_offset" || kind == ".cfi_def_cfa_offset") {
      const auto value = parse_integer(args.at(0));
      if (!value) throw GenerationError("unreadable CFI offset");
      function().items.push_back(Cfi{
          kind == ".cfi_adjust_cfa_offset" ? CfiKind::adjust_cfa_offset : CfiKind::def_cfa_offset,
          *value});
    } else if (kind == ".cfi_offset") {
      const auto value = parse_integer(args.at(1));
      if (!value) throw GenerationError("unreadable CFI offset");
      function().items.push_back(Cfi{CfiKind::offset, *value, reg(args.at(0))});
    } else if (kind == ".cfi_restore") {
      function().items.push_back(Cfi{CfiKind::restore, 0, reg(args.at(0))});
    } else {
      throw GenerationError("unknown CFI directive");
    }
  }

  void read_instruction(std::string_view line) {
    const std::size_t comment = line.find("//");
    const std::string_view code = trim(line.substr(0, comment));
    const std::size_t space = code.find(' ');
    const std::string_view text = code.substr(0, space);
    std::optional<Mnemonic> mnemonic;
    for (const InstructionSpec& spec : instruction_table(program_.isa)) {
      if (spec.text == text) mnemonic = spec.mnemonic;
    }
    if (!mnemonic) throw GenerationError("unknown mnemonic '" + std::string(text) + "'");
    Instruction instruction{*mnemonic, {}, {}};
    if (space != std::string_view::npos) {
      instruction.operands =
          target(program_.isa).read_operands(split_operands(code.substr(space + 1)), *this);
    }
    function().items.push_back(std::move(instruction));
  }

  Reg reg(std::string_view name) const {
    const Target& isa = target(program_.isa);
    return named_register(isa.name(), name,
                          [&](std::string_view text) { return isa.parse_register(text); });
  }

  std::optional<Operand> macro_operand(const std::string& text) override {
    if (auto name = macro_argument(text, "LOCAL")) return LabelRef{label(*name)};
    if (auto symbol = macro_argument(text, "SYMBOL")) {  // a Windows entry's call
      for (std::uint32_t f = 0; f < program_.functions.size(); ++f) {
        if (program_.functions[f].symbol == *symbol) return SymbolRef{f};
      }
      throw GenerationError("a call of " + *symbol + ", which the file does not define");
    }
    return std::nullopt;
  }

  // The ISA whose syntax line (`.intel_syntax noprefix`) the text carries, else the one
  // that has none.
  static Isa isa_of(std::string_view text) {
    const Target* plain = nullptr;
    for (const Target* candidate : targets()) {
      const std::vector<std::string_view> lines = candidate->gas_syntax_lines();
      const std::string_view line = lines.empty() ? std::string_view() : lines.front();
      if (line.empty()) {
        plain = candidate;
      } else if (text.find(line) != std::string_view::npos) {
        return candidate->isa();
      }
    }
    if (plain == nullptr) throw GenerationError("the text names no ISA's assembler syntax");
    return plain->isa();
  }

  Program program_;
  std::map<std::string, LabelId> labels_;
  bool in_function_ = false;
  bool in_windows_block_ = false;
  EntryShape pending_shape_;
  int legacy_rounds_ = 0;
};

}  // namespace

Program read_gas(std::string_view text, const std::string& kernel_name) {
  return Reader(kernel_name).read(text);
}

}  // namespace spongegen::readers
