#include "readers/gas_reader.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "program/amd64.hpp"
#include "program/arm64.hpp"
#include "program/instruction_table.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::readers {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// "MACRO(name)" -> "name", or nothing.
std::optional<std::string> macro_argument(std::string_view text, std::string_view macro) {
  if (!starts_with(text, macro) || text.size() <= macro.size() + 1 || text[macro.size()] != '(') {
    return std::nullopt;
  }
  const std::size_t close = text.find(')');
  if (close == std::string_view::npos) return std::nullopt;
  return std::string(text.substr(macro.size() + 1, close - macro.size() - 1));
}

std::optional<std::int64_t> parse_integer(std::string_view text) {
  text = trim(text);
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  int base = 10;
  if (starts_with(text, "0x")) {
    base = 16;
    text.remove_prefix(2);
  }
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return negative ? -static_cast<std::int64_t>(value) : static_cast<std::int64_t>(value);
}

// A decimal or 0x-prefixed number, possibly negative: an immediate when it fits in 64 bits,
// an error (not a register name) when it does not.
bool looks_numeric(std::string_view text) {
  text = trim(text);
  if (!text.empty() && text.front() == '-') text.remove_prefix(1);
  return !text.empty() && std::isdigit(static_cast<unsigned char>(text.front()));
}

// Splits operands at commas outside brackets and braces.
std::vector<std::string> split_operands(std::string_view text) {
  std::vector<std::string> operands;
  int depth = 0;
  std::string current;
  for (char c : text) {
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      operands.emplace_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!trim(current).empty()) operands.emplace_back(trim(current));
  return operands;
}

class Reader {
 public:
  explicit Reader(const std::string& kernel_name) { program_.kernel_name = kernel_name; }

  Program read(std::string_view text) {
    program_.isa =
        text.find(".intel_syntax noprefix") != std::string_view::npos ? Isa::amd64 : Isa::arm64;
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

  LabelId label(const std::string& name) {
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

  // The parameters of a prototype line, the inverse of c_prototype:
  // "// void f(uint64_t state[25], const uint8_t block[168])".
  static std::vector<Parameter> parse_parameters(std::string_view line) {
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
  static EntryShape parse_entry_shape(std::string_view text) {
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
      auto operands = split_operands(code.substr(space + 1));
      for (std::size_t i = 0; i < operands.size(); ++i) {
        // arm64 post-index: "[x10], #8" reads as two operands.
        if (program_.isa == Isa::arm64 && i + 1 < operands.size() && operands[i].front() == '[' &&
            operands[i].back() == ']' && operands[i + 1].front() == '#') {
          Mem mem = std::get<Mem>(operand(operands[i]));
          const auto disp = parse_integer(operands[i + 1].substr(1));
          if (!disp) throw GenerationError("unreadable post-index");
          mem.disp = static_cast<std::int32_t>(*disp);
          mem.addressing = Addressing::post_index;
          instruction.operands.push_back(mem);
          ++i;
          continue;
        }
        // arm64 shifted register: "x2, ror #19" reads as two operands.
        if (program_.isa == Isa::arm64 && i + 1 < operands.size()) {
          if (auto shift = parse_shift(operands[i + 1])) {
            instruction.operands.push_back(
                ShiftedReg{reg(operands[i]), shift->first, shift->second});
            ++i;
            continue;
          }
        }
        instruction.operands.push_back(operand(operands[i]));
      }
    }
    function().items.push_back(std::move(instruction));
  }

  Reg reg(std::string_view name) {
    const auto parsed =
        program_.isa == Isa::amd64 ? amd64::parse_register(name) : arm64::parse_register(name);
    if (!parsed) {
      throw GenerationError("unknown " + std::string(isa_name(program_.isa)) + " register '" +
                            std::string(name) + "'");
    }
    return *parsed;
  }

  // "ror #19" -> (ror, 19), or nothing.
  static std::optional<std::pair<Shift, std::uint8_t>> parse_shift(std::string_view text) {
    for (Shift shift : {Shift::lsl, Shift::lsr, Shift::asr, Shift::ror}) {
      const std::string prefix = std::string(shift_name(shift)) + " #";
      if (!starts_with(text, prefix)) continue;
      const auto amount = parse_integer(text.substr(prefix.size()));
      if (!amount || *amount < 0 || *amount > 63) throw GenerationError("unreadable shift");
      return std::make_pair(shift, static_cast<std::uint8_t>(*amount));
    }
    return std::nullopt;
  }

  Operand operand(std::string text) {
    if (auto name = macro_argument(text, "LOCAL")) return LabelRef{label(*name)};
    if (auto symbol = macro_argument(text, "SYMBOL")) {  // a Windows entry's call
      for (std::uint32_t f = 0; f < program_.functions.size(); ++f) {
        if (program_.functions[f].symbol == *symbol) return SymbolRef{f};
      }
      throw GenerationError("a call of " + *symbol + ", which the file does not define");
    }
    if (program_.isa == Isa::amd64) return amd64_operand(text);
    return arm64_operand(text);
  }

  Operand amd64_operand(const std::string& text) {
    std::optional<int> bytes;
    for (int size : amd64::kMemoryOperandSizes) {
      if (starts_with(text, std::string(amd64::memory_size_keyword(size)) + " [")) bytes = size;
    }
    if (bytes) {
      std::string_view inside(text);
      inside = inside.substr(inside.find('[') + 1);
      inside = inside.substr(0, inside.size() - 1);
      Mem mem{kNoBase};
      mem.bytes = static_cast<std::uint8_t>(*bytes);
      // base [+ LOCAL(label)] [+|- disp]
      std::size_t pos = inside.find(' ');
      const std::string_view base = inside.substr(0, pos);
      std::string_view rest = pos == std::string_view::npos ? "" : inside.substr(pos);
      if (base == "rip") {
        mem.addressing = Addressing::pc_relative;
        rest = trim(rest.substr(rest.find('+') + 1));
        const std::size_t close = rest.find(')');
        mem.label = label(*macro_argument(rest.substr(0, close + 1), "LOCAL"));
        rest = rest.substr(close + 1);
      } else {
        mem.base = reg(base);
      }
      rest = trim(rest);
      if (!rest.empty()) {
        const bool negative = rest.front() == '-';
        const auto disp = parse_integer(rest.substr(1));
        if (!disp) throw GenerationError("unreadable displacement '" + std::string(rest) + "'");
        const std::int64_t value = negative ? -*disp : *disp;
        if (value < INT32_MIN || value > INT32_MAX) {
          throw GenerationError("displacement '" + std::string(rest) + "' does not fit in 32 bits");
        }
        mem.disp = static_cast<std::int32_t>(value);
      }
      return mem;
    }
    if (auto value = parse_integer(text)) return Imm{*value};
    if (looks_numeric(text))
      throw GenerationError("immediate '" + text + "' is not a 64-bit integer");
    return reg(text);
  }

  Operand arm64_operand(std::string text) {
    if (text.front() == '{') text = text.substr(1, text.size() - 2);
    if (text.front() == '#') {
      const auto value = parse_integer(std::string_view(text).substr(1));
      if (!value) throw GenerationError("immediate '" + text + "' is not a 64-bit integer");
      return Imm{*value};
    }
    if (text.front() == '[') {
      const bool pre_index = text.back() == '!';
      std::string_view inside(text);
      inside = inside.substr(1, inside.find(']') - 1);
      const auto parts = split_operands(inside);
      Mem mem{reg(parts.at(0))};
      if (parts.size() > 1) {
        const auto disp = parse_integer(std::string_view(parts[1]).substr(1));
        if (!disp) throw GenerationError("unreadable offset");
        mem.disp = static_cast<std::int32_t>(*disp);
      }
      if (pre_index) mem.addressing = Addressing::pre_index;
      return mem;
    }
    return reg(text);
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
