// The WebAssembly text format (.wat) of a wasm32 Program, and its reader.
//
// The module: the Program's header lines as ;; comments; the function types in first-use
// order, named $t<i>; the memory, imported as "env" "memory"; each function with its
// summary, prototype and entry shape as ;; comments, exported under its symbol, its
// parameters and locals named as isa/wasm32/wasm32.hpp says, one lowered operation a line;
// the tables as one active data segment each, at their addresses from kTableBase. The
// reader reads exactly this form back, so the committed .wat is the Program it proves;
// any other line is refused with its number.
#include <fmt/format.h>

#include <charconv>
#include <map>
#include <optional>

#include "isa/wasm32/lowering.hpp"
#include "isa/wasm32/wasm32.hpp"
#include "readers/gas_reader.hpp"
#include "readers/gas_syntax.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::wasm32 {
namespace {

constexpr std::string_view kImportLine = R"((import "env" "memory" (memory {})))";

std::string round_marker_text(const RoundMarker& marker) {
  if (!marker.begin) return ";; ---- end of round ----";
  if (!marker.in_loop) return fmt::format(";; ---- round {} ----", marker.round);
  return fmt::format(";; ---- round {} of the loop ----", marker.round);
}

std::string comment_line(std::string_view text) {
  return text.empty() ? ";;" : ";; " + std::string(text);
}

std::string offset_text(const Mem& mem) {
  return mem.disp == 0 ? "" : fmt::format(" offset={}", mem.disp);
}

// One line of a row's lowering.
std::string step_text(const Program& program, const Locals& locals, const Instruction& instruction,
                      const Step& step) {
  const auto name = [&](int i) {
    return locals.names.at(locals.index(std::get<Reg>(instruction.operands.at(i))));
  };
  const auto value = [&](int i) { return std::get<Imm>(instruction.operands.at(i)).value; };
  const auto label = [&](int i) {
    return program.label_names.at(std::get<LabelRef>(instruction.operands.at(i)).id);
  };
  switch (step.kind) {
    case StepKind::get:
      return "local.get " + name(step.operand);
    case StepKind::set:
      return "local.set " + name(step.operand);
    case StepKind::base:
      return "local.get " + locals.names.at(locals.index(
                                std::get<Mem>(instruction.operands.at(step.operand)).base));
    case StepKind::op:
      return std::string(step.text);
    case StepKind::memory_op:
      return std::string(step.text) +
             offset_text(std::get<Mem>(instruction.operands.at(step.operand)));
    case StepKind::lane_op:
      return fmt::format("{}{} {}", step.text,
                         offset_text(std::get<Mem>(instruction.operands.at(step.operand))),
                         value(3));
    case StepKind::i64_const:
      return fmt::format("i64.const {}", value(step.operand));
    case StepKind::i32_const:
      return fmt::format("i32.const {}", value(step.operand));
    case StepKind::splat_const:
      return fmt::format("v128.const i64x2 {} {}", value(step.operand), value(step.operand));
    case StepKind::table_address:
      return fmt::format(
          "i32.const {} (;{};)",
          table_address(program, std::get<LabelRef>(instruction.operands.at(step.operand)).id),
          label(step.operand));
    case StepKind::label_op:
    case StepKind::branch_op:
      return fmt::format("{} ${}", step.text, label(step.operand));
  }
  throw GenerationError("unknown lowering step");
}

std::string quad_text(std::uint64_t value) {
  std::string text = "\"";
  for (int i = 0; i < 8; ++i)
    text += fmt::format("\\{:02x}", (value >> (8 * i)) & 0xff);
  return text + "\"";
}

}  // namespace

std::string write_wat(const Program& program) {
  if (!program.win64_entries.empty()) throw GenerationError("wasm32 has no Windows entries");
  std::string out;
  for (const std::string& line : writers::generated_file_notice())
    out += comment_line(line) + "\n";
  for (const std::string& line : program.header_lines)
    out += comment_line(line) + "\n";
  out += "(module\n";
  const FunctionTypes types = function_types(program);
  for (std::size_t t = 0; t < types.parameter_counts.size(); ++t) {
    std::string params;
    for (std::size_t i = 0; i < types.parameter_counts[t]; ++i)
      params += " i32";
    out +=
        fmt::format("  (type $t{} (func{}))\n", t, params.empty() ? "" : " (param" + params + ")");
  }
  out += "  " + fmt::format(fmt::runtime(kImportLine), kImportedMemoryPages) + "\n";
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    const Function& function = program.functions[f];
    const Locals locals = check_function(program, function);
    check_structure(program, function);
    out += "\n";
    for (const std::string& line :
         {function.summary, c_prototype(function.symbol, function.shape),
          std::string(writers::kEntryShapePrefix) + entry_shape_line(function.shape)}) {
      out += "  " + comment_line(line) + "\n";
    }
    out += fmt::format("  (func ${} (export \"{}\") (type $t{})", function.symbol, function.symbol,
                       types.of_function[f]);
    for (int i = 0; i < locals.parameters; ++i)
      out += fmt::format(" (param {} i32)", locals.names[i]);
    out += "\n";
    for (std::size_t i = locals.parameters; i < locals.types.size(); ++i) {
      out += fmt::format("    (local {} {})\n", locals.names[i], value_type_name(locals.types[i]));
    }
    int depth = 0;
    for (const Item& item : function.items) {
      const std::string indent(4 + 2 * static_cast<std::size_t>(depth), ' ');
      if (const auto* instruction = std::get_if<Instruction>(&item)) {
        if (instruction->mnemonic == Mnemonic::wasm32_end) --depth;
        const std::vector<Step>& steps = lowering(instruction->mnemonic);
        for (std::size_t s = 0; s < steps.size(); ++s) {
          out += std::string(4 + 2 * static_cast<std::size_t>(depth), ' ') +
                 step_text(program, locals, *instruction, steps[s]);
          if (s + 1 == steps.size() && !instruction->comment.empty()) {
            out += "  " + comment_line(instruction->comment);
          }
          out += "\n";
        }
        if (instruction->mnemonic == Mnemonic::wasm32_block ||
            instruction->mnemonic == Mnemonic::wasm32_loop) {
          ++depth;
        }
      } else if (const auto* comment = std::get_if<Comment>(&item)) {
        out += indent + comment_line(comment->text) + "\n";
      } else if (std::holds_alternative<Blank>(item)) {
        out += "\n";
      } else if (const auto* marker = std::get_if<RoundMarker>(&item)) {
        out += indent + round_marker_text(*marker) + "\n";
      }
      // A LabelDef prints nothing: the block or loop names its label.
    }
    out += "  )\n";
  }
  const std::vector<std::uint32_t> addresses = table_addresses(program);
  for (std::size_t t = 0; t < program.tables.size(); ++t) {
    const QuadTable& table = program.tables[t];
    out += "\n  " + comment_line(table.comment) + "\n";
    out += fmt::format("  (data (i32.const {}) (;{};)\n", addresses[t],
                       program.label_names.at(table.label));
    for (std::uint64_t value : table.values)
      out += fmt::format("    {}  ;; {:#018x}\n", quad_text(value), value);
    out += "  )\n";
  }
  out += ")\n";
  return out;
}

namespace {

using readers::starts_with;
using readers::trim;

// A decimal integer as write_wat prints it (the whole int64 range: -9223372036854775808 too).
std::optional<std::int64_t> decimal(std::string_view text) {
  const bool negative = starts_with(text, "-");
  if (negative) text.remove_prefix(1);
  if (text.empty() || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  std::uint64_t magnitude = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), magnitude);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
  if (magnitude > limit || (negative && magnitude == 0)) return std::nullopt;
  return static_cast<std::int64_t>(negative ? 0 - magnitude : magnitude);
}

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const std::size_t space = text.find(' ');
    if (space != 0) out.push_back(text.substr(0, space));
    if (space == std::string_view::npos) break;
    text.remove_prefix(space + 1);
  }
  return out;
}

// One line of code inside a function: its words and its trailing comment.
struct OpLine {
  std::size_t number;
  std::vector<std::string_view> words;
  std::optional<std::string> comment;
};

class Reader {
 public:
  explicit Reader(const std::string& kernel_name) { program_.kernel_name = kernel_name; }

  Program read(std::string_view text) {
    while (!text.empty()) {
      const std::size_t end = text.find('\n');
      lines_.push_back(text.substr(0, end));
      text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    }
    try {
      read_module();
    } catch (const GenerationError& error) {
      if (at_ == 0 || at_ > lines_.size()) throw;
      throw GenerationError(fmt::format("line {} ({}): {}", at_, lines_[at_ - 1], error.what()));
    }
    at_ = 0;
    for (const auto& [label, address] : addresses_read_) {
      const std::uint32_t expected = table_address(program_, label);
      if (address != expected) {
        throw GenerationError(fmt::format("table {} is at {}, not at {} as an i32.const says",
                                          program_.label_names.at(label), expected, address));
      }
    }
    // The types as the encoder numbers them, so wat2wasm's module is the encoder's.
    const FunctionTypes types = function_types(program_);
    if (types.parameter_counts != parameter_counts_ || types.of_function != declared_types_) {
      throw GenerationError("the function types are not declared once each, in first-use order");
    }
    for (const Function& function : program_.functions) {
      check_function(program_, function);
      check_structure(program_, function);
    }
    return std::move(program_);
  }

 private:
  // The next line, trimmed; at_ is its number.
  std::optional<std::string_view> next() {
    if (at_ >= lines_.size()) return std::nullopt;
    return trim(lines_[at_++]);
  }
  std::string_view expect_line() {
    const auto line = next();
    if (!line) throw GenerationError("the module ends early");
    return *line;
  }

  LabelId label(std::string_view name) {
    auto [it, inserted] = labels_.try_emplace(std::string(name), 0);
    if (inserted) it->second = program_.new_label(std::string(name));
    return it->second;
  }

  static std::string_view identifier(std::string_view word) {
    if (!starts_with(word, "$") || word.size() < 2) {
      throw GenerationError("'" + std::string(word) + "' is no $identifier");
    }
    return word.substr(1);
  }

  void read_module() {
    for (;;) {
      const std::string_view line = expect_line();
      if (line == "(module") break;
      if (!starts_with(line, ";;")) throw GenerationError("expected (module");
    }
    std::vector<std::string> comments;
    for (;;) {
      const std::string_view line = expect_line();
      if (line.empty()) continue;
      if (starts_with(line, ";;")) {
        comments.push_back(comment_text(line));
      } else if (starts_with(line, "(type ")) {
        read_type(line);
      } else if (line == fmt::format(fmt::runtime(kImportLine), kImportedMemoryPages)) {
        if (imported_) throw GenerationError("a second memory");
        imported_ = true;
      } else if (starts_with(line, "(func ")) {
        read_function(line, comments);
        comments.clear();
      } else if (starts_with(line, "(data ")) {
        read_data(line, comments);
        comments.clear();
      } else if (line == ")") {
        break;
      } else {
        throw GenerationError("not a line of a wasm32 module as spongegen writes it");
      }
    }
    if (!imported_) throw GenerationError("the module imports no memory");
    while (const auto line = next()) {
      if (!line->empty()) throw GenerationError("text after the module");
    }
  }

  static std::string comment_text(std::string_view line) {
    if (line == ";;") return "";
    if (!starts_with(line, ";; ")) throw GenerationError("a comment is written ';; text'");
    return std::string(line.substr(3));
  }

  void read_type(std::string_view line) {
    const std::string name = fmt::format("(type $t{} (func", parameter_counts_.size());
    if (!starts_with(line, name)) {
      throw GenerationError(fmt::format("expected type $t{}", parameter_counts_.size()));
    }
    std::string_view rest = line.substr(name.size());
    std::size_t count = 0;
    if (starts_with(rest, " (param")) {
      rest.remove_prefix(7);
      while (starts_with(rest, " i32")) {
        rest.remove_prefix(4);
        ++count;
      }
      if (count == 0 || !starts_with(rest, ")")) throw GenerationError("unreadable parameters");
      rest.remove_prefix(1);
    }
    if (rest != "))") throw GenerationError("a wasm32 function type has i32 parameters only");
    parameter_counts_.push_back(count);
  }

  void read_function(std::string_view line, const std::vector<std::string>& comments) {
    if (comments.size() < 3 || !starts_with(comments.back(), writers::kEntryShapePrefix)) {
      throw GenerationError("a function comes after its summary, prototype and entry lines");
    }
    Function function;
    function.summary = comments[comments.size() - 3];
    function.shape = readers::parse_entry_shape(
        std::string_view(comments.back()).substr(writers::kEntryShapePrefix.size()));
    function.shape.parameters = readers::parse_parameters(comments[comments.size() - 2]);
    const std::vector<std::string_view> head = words(line);
    // (func $sym (export "sym") (type $tN) (param $name i32)...
    if (head.size() < 5 || head[0] != "(func") throw GenerationError("unreadable function line");
    function.symbol = std::string(identifier(head[1]));
    if (head[2] != "(export" || head[3] != "\"" + function.symbol + "\")") {
      throw GenerationError("a function is exported under its own name");
    }
    const std::size_t parameters = function.shape.parameters.size();
    const auto type = head[4] == "(type" && head.size() > 5 && head[5].size() > 3 &&
                              starts_with(head[5], "$t") && head[5].back() == ')'
                          ? decimal(head[5].substr(2, head[5].size() - 3))
                          : std::nullopt;
    if (!type || *type < 0 || static_cast<std::size_t>(*type) >= parameter_counts_.size() ||
        parameter_counts_[*type] != parameters) {
      throw GenerationError(fmt::format("expected the type of {} i32 parameters", parameters));
    }
    if (head.size() != 6 + 3 * parameters) throw GenerationError("unreadable parameters");
    declared_types_.push_back(static_cast<std::uint32_t>(*type));
    std::map<std::string, Reg, std::less<>> locals;
    for (std::size_t i = 0; i < parameters; ++i) {
      const std::string name = "$" + function.shape.parameters[i].name;
      if (head[6 + 3 * i] != "(param" || head[7 + 3 * i] != name || head[8 + 3 * i] != "i32)") {
        throw GenerationError(fmt::format("expected (param {} i32)", name));
      }
      locals.emplace(name, parameter(static_cast<int>(i)));
    }
    // The locals, then the code up to the function's closing line.
    std::size_t index = parameters;
    std::optional<std::size_t> first_vector;
    std::vector<OpLine> pending;
    std::vector<std::pair<LabelId, bool>> open;  // label, whether a loop
    for (;;) {
      const std::string_view text = expect_line();
      if (starts_with(text, "(local ")) {
        if (!function.items.empty() || !pending.empty()) {
          throw GenerationError("a local after the code");
        }
        const std::vector<std::string_view> parts = words(text);
        const bool vector = parts.size() == 3 && parts[2] == "v128)";
        if (!first_vector && vector) first_vector = index;
        std::optional<Reg> local;
        if (vector) {
          local = v(static_cast<int>(index - *first_vector));
        } else if (!first_vector && parts.size() == 3 && parts[2] == "i64)") {
          local = x(static_cast<int>(index));
        } else if (!first_vector && parts.size() == 3 && parts[2] == "i32)") {
          local = w(static_cast<int>(index));
        } else {
          throw GenerationError("a local is i32, i64 or v128, the v128 ones last");
        }
        const std::string expected = register_name(*local);
        if (parts[1] != expected) {
          throw GenerationError(fmt::format("expected local {} ({})", index, expected));
        }
        locals.emplace(expected, *local);
        ++index;
        continue;
      }
      const bool code = !text.empty() && !starts_with(text, ";;") && text != ")";
      if (!code && !pending.empty()) {
        throw GenerationError(
            fmt::format("line {} begins a lowering that no row completes", pending.front().number));
      }
      if (text == ")") break;
      if (text.empty()) {
        function.items.emplace_back(Blank{});
      } else if (!code) {
        function.items.push_back(comment_item(text));
      } else {
        OpLine op{at_, {}, std::nullopt};
        std::string_view body = text;
        if (const std::size_t comment = text.find(";;"); comment != std::string_view::npos) {
          op.comment = comment_text(trim(text.substr(comment)));
          body = trim(text.substr(0, comment));
        }
        op.words = words(body);
        pending.push_back(std::move(op));
        read_row(function, locals, pending, open);
      }
    }
    if (!open.empty()) throw GenerationError("a block or loop is left open");
    program_.functions.push_back(std::move(function));
  }

  static Item comment_item(std::string_view line) {
    if (line == ";; ---- end of round ----") return RoundMarker{false, 0, false};
    if (starts_with(line, ";; ---- round ") && line.size() > 19 &&
        line.substr(line.size() - 5) == " ----") {
      std::string_view middle = line.substr(14, line.size() - 19);
      const bool in_loop =
          middle.size() > 12 && middle.substr(middle.size() - 12) == " of the loop";
      if (in_loop) middle.remove_suffix(12);
      if (const auto round = decimal(middle)) {
        return RoundMarker{true, static_cast<int>(*round), in_loop};
      }
    }
    return Comment{comment_text(line)};
  }

  // Whether `words` is the line `step` lowers to, by its shape alone.
  static bool shape_matches(const Step& step, const std::vector<std::string_view>& w) {
    const auto offset_then = [&](std::size_t rest) {
      return w.size() == 1 + rest || (w.size() == 2 + rest && starts_with(w[1], "offset="));
    };
    switch (step.kind) {
      case StepKind::get:
      case StepKind::base:
        return w.size() == 2 && w[0] == "local.get";
      case StepKind::set:
        return w.size() == 2 && w[0] == "local.set";
      case StepKind::op:
        return w.size() == 1 && w[0] == step.text;
      case StepKind::memory_op:
        return !w.empty() && w[0] == step.text && offset_then(0);
      case StepKind::lane_op:
        return !w.empty() && w[0] == step.text && offset_then(1);
      case StepKind::i64_const:
        return w.size() == 2 && w[0] == "i64.const";
      case StepKind::i32_const:
        return w.size() == 2 && w[0] == "i32.const";
      case StepKind::splat_const:
        return w.size() == 4 && w[0] == "v128.const" && w[1] == "i64x2";
      case StepKind::table_address:
        return w.size() == 3 && w[0] == "i32.const" && starts_with(w[2], "(;");
      case StepKind::label_op:
      case StepKind::branch_op:
        return w.size() == 2 && w[0] == step.text;
    }
    return false;
  }

  // The row whose lowering the pending lines are, once they are all of it.
  void read_row(Function& function, const std::map<std::string, Reg, std::less<>>& locals,
                std::vector<OpLine>& pending, std::vector<std::pair<LabelId, bool>>& open) {
    bool prefix = false;
    for (const Row& candidate : rows()) {
      const std::vector<Step>& steps = lowering(candidate.mnemonic);
      bool matches = pending.size() <= steps.size();
      for (std::size_t i = 0; matches && i < pending.size(); ++i)
        matches = shape_matches(steps[i], pending[i].words);
      if (!matches) continue;
      prefix = true;
      if (pending.size() < steps.size()) continue;
      function.items.push_back(build(candidate, steps, locals, pending));
      pending.clear();
      const Instruction& instruction = std::get<Instruction>(function.items.back());
      if (candidate.mnemonic == Mnemonic::wasm32_block ||
          candidate.mnemonic == Mnemonic::wasm32_loop) {
        const LabelId id = std::get<LabelRef>(instruction.operands[0]).id;
        const bool loop = candidate.mnemonic == Mnemonic::wasm32_loop;
        open.emplace_back(id, loop);
        if (loop) function.items.emplace_back(LabelDef{id});
      } else if (candidate.mnemonic == Mnemonic::wasm32_end) {
        if (open.empty()) throw GenerationError("end with no block or loop open");
        if (!open.back().second) function.items.emplace_back(LabelDef{open.back().first});
        open.pop_back();
      }
      return;
    }
    if (!prefix) throw GenerationError("no wasm32 row lowers to this line here");
  }

  Instruction build(const Row& candidate, const std::vector<Step>& steps,
                    const std::map<std::string, Reg, std::less<>>& locals,
                    const std::vector<OpLine>& lines) {
    std::vector<std::optional<Operand>> operands(candidate.operand_count);
    const auto local = [&](std::string_view name) {
      const auto it = locals.find(name);
      if (it == locals.end()) throw GenerationError("unknown local " + std::string(name));
      return it->second;
    };
    const auto number = [&](std::string_view text) {
      const auto value = decimal(text);
      if (!value) throw GenerationError("unreadable number '" + std::string(text) + "'");
      return *value;
    };
    const auto memarg = [&](const Step& step, const std::vector<std::string_view>& w) {
      Mem* mem = operands.at(step.operand) ? std::get_if<Mem>(&*operands[step.operand]) : nullptr;
      if (mem == nullptr) throw GenerationError("a memory operation without its base");
      if (w.size() >= 2 && starts_with(w[1], "offset=")) {
        const std::int64_t offset = number(w[1].substr(7));
        if (offset <= 0 || offset > INT32_MAX) {
          throw GenerationError(fmt::format("offset {} is outside 1..{}", offset, INT32_MAX));
        }
        mem->disp = static_cast<std::int32_t>(offset);
      }
    };
    std::optional<std::string> comment;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const Step& step = steps[i];
      const std::vector<std::string_view>& w = lines[i].words;
      if (lines[i].comment) {
        if (i + 1 != steps.size()) {
          throw GenerationError(
              fmt::format("line {}: a comment inside a row's lowering", lines[i].number));
        }
        comment = lines[i].comment;
      }
      switch (step.kind) {
        case StepKind::get:
        case StepKind::set:
          operands.at(step.operand) = local(w[1]);
          break;
        case StepKind::base:
          operands.at(step.operand) = Mem{local(w[1]), 0};
          break;
        case StepKind::op:
          break;
        case StepKind::memory_op:
          memarg(step, w);
          break;
        case StepKind::lane_op:
          memarg(step, w);
          operands.at(3) = Imm{number(w.back())};
          break;
        case StepKind::i64_const:
        case StepKind::i32_const:
          operands.at(step.operand) = Imm{number(w[1])};
          break;
        case StepKind::splat_const:
          if (w[2] != w[3]) throw GenerationError("v128.const's two lanes differ");
          operands.at(step.operand) = Imm{number(w[2])};
          break;
        case StepKind::table_address: {
          if (w[2].size() < 5 || w[2].substr(w[2].size() - 2) != ";)") {
            throw GenerationError("unreadable table name");
          }
          const LabelId id = label(w[2].substr(2, w[2].size() - 4));
          const std::int64_t address = number(w[1]);
          if (address < 0 || address > UINT32_MAX) throw GenerationError("not an address");
          addresses_read_.emplace_back(id, static_cast<std::uint32_t>(address));
          operands.at(step.operand) = LabelRef{id};
          break;
        }
        case StepKind::label_op:
        case StepKind::branch_op:
          operands.at(step.operand) = LabelRef{label(identifier(w[1]))};
          break;
      }
    }
    Instruction instruction{candidate.mnemonic, {}, comment.value_or("")};
    for (const std::optional<Operand>& operand : operands) {
      if (!operand) throw GenerationError("a row's lowering without one of its operands");
      instruction.operands.push_back(*operand);
    }
    return instruction;
  }

  void read_data(std::string_view line, const std::vector<std::string>& comments) {
    // (data (i32.const ADDRESS) (;NAME;)
    const std::vector<std::string_view> w = words(line);
    if (w.size() != 4 || w[1] != "(i32.const" || !starts_with(w[3], "(;") || w[3].size() < 5 ||
        w[3].substr(w[3].size() - 2) != ";)" || w[2].empty() || w[2].back() != ')') {
      throw GenerationError("unreadable data segment");
    }
    QuadTable table{label(w[3].substr(2, w[3].size() - 4)),
                    comments.empty() ? std::string() : comments.back(),
                    {}};
    const std::int64_t address = [&] {
      const auto value = decimal(w[2].substr(0, w[2].size() - 1));
      if (!value) throw GenerationError("unreadable data address");
      return *value;
    }();
    program_.tables.push_back(std::move(table));
    const std::vector<std::uint32_t> addresses = table_addresses(program_);
    for (;;) {
      const std::string_view text = expect_line();
      if (text == ")") break;
      // "\01\00\00\00\00\00\00\00"  ;; 0x0000000000000001
      const std::size_t comment = text.find("  ;; ");
      const std::string_view quad = text.substr(0, comment);
      std::uint64_t value = 0;
      if (quad.size() != 26 || quad.front() != '"' || quad.back() != '"') {
        throw GenerationError("a data line is one 8-byte quad");
      }
      for (int i = 0; i < 8; ++i) {
        const std::string_view byte = quad.substr(1 + 3 * static_cast<std::size_t>(i), 3);
        unsigned digit = 0;
        const auto [end, error] = std::from_chars(byte.data() + 1, byte.data() + 3, digit, 16);
        if (byte[0] != '\\' || error != std::errc() || end != byte.data() + 3) {
          throw GenerationError("unreadable byte " + std::string(byte));
        }
        value |= std::uint64_t{digit} << (8 * i);
      }
      if (comment == std::string_view::npos ||
          text.substr(comment) != fmt::format("  ;; {:#018x}", value)) {
        throw GenerationError("the quad's comment is not its value");
      }
      program_.tables.back().values.push_back(value);
    }
    if (address != addresses.back()) {
      throw GenerationError(
          fmt::format("the table's address is {}, not {}", address, addresses.back()));
    }
  }

  Program program_{};
  std::vector<std::string_view> lines_;
  std::size_t at_ = 0;
  std::map<std::string, LabelId, std::less<>> labels_;
  std::vector<std::size_t> parameter_counts_;
  std::vector<std::uint32_t> declared_types_;  // each function's
  std::vector<std::pair<LabelId, std::uint32_t>> addresses_read_;
  bool imported_ = false;
};

}  // namespace

Program read_wat(std::string_view text, const std::string& kernel_name) {
  return Reader(kernel_name).read(text);
}

}  // namespace spongegen::wasm32
