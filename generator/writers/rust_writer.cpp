#include "writers/rust_writer.hpp"

#include <fmt/format.h>

#include <cctype>
#include <map>
#include <set>
#include <sstream>

#include "isa/target.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::writers {
namespace {

struct Macro {
  bool function_like = false;
  std::vector<std::string> parameters;
  std::string body;
};

using Macros = std::map<std::string, Macro, std::less<>>;

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

std::string trim(std::string_view text) {
  std::size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])) != 0)
    ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])) != 0)
    --end;
  return std::string(text.substr(begin, end - begin));
}

// "#define NAME(a, b) body", "#define NAME(a)" (an empty body) or "#define NAME body".
std::pair<std::string, Macro> parse_define(std::string_view line) {
  const std::string_view rest = line.substr(std::string_view("#define ").size());
  std::size_t name_end = 0;
  while (name_end < rest.size() && is_identifier_char(rest[name_end]))
    ++name_end;
  Macro macro;
  if (name_end == rest.size() || rest[name_end] != '(') {
    macro.body = trim(rest.substr(name_end));
    return {std::string(rest.substr(0, name_end)), std::move(macro)};
  }
  const std::size_t open = name_end, close = rest.find(')');
  if (close == std::string_view::npos) {
    throw GenerationError("the Rust writer cannot read the macro " + std::string(line));
  }
  macro.function_like = true;
  std::string parameters(rest.substr(open + 1, close - open - 1));
  for (std::size_t start = 0; start <= parameters.size();) {
    const std::size_t comma = std::min(parameters.find(',', start), parameters.size());
    macro.parameters.push_back(trim(std::string_view(parameters).substr(start, comma - start)));
    start = comma + 1;
  }
  macro.body = trim(rest.substr(close + 1));
  return {std::string(rest.substr(0, open)), std::move(macro)};
}

std::string expand(std::string_view text, const Macros& macros);

// The body of `macro` with `arguments` in place of its parameters: an argument next to ## is
// pasted as written, any other is expanded first, as the C preprocessor does.
std::string substitute(const Macro& macro, const std::vector<std::string>& arguments,
                       const Macros& macros) {
  const std::string& body = macro.body;
  std::string out;
  for (std::size_t i = 0; i < body.size();) {
    if (body.compare(i, 2, "##") == 0) {
      while (!out.empty() && out.back() == ' ')
        out.pop_back();
      i += 2;
      while (i < body.size() && body[i] == ' ')
        ++i;
      continue;
    }
    if (!is_identifier_char(body[i])) {
      out += body[i++];
      continue;
    }
    std::size_t end = i;
    while (end < body.size() && is_identifier_char(body[end]))
      ++end;
    const std::string word = body.substr(i, end - i);
    std::size_t parameter = 0;
    while (parameter < macro.parameters.size() && macro.parameters[parameter] != word)
      ++parameter;
    if (parameter == macro.parameters.size()) {
      out += word;
    } else {
      const bool pasted =
          body.compare(end, 2, "##") == 0 || (i >= 2 && body.compare(i - 2, 2, "##") == 0);
      out += pasted ? arguments.at(parameter) : expand(arguments.at(parameter), macros);
    }
    i = end;
  }
  return out;
}

// `text` with every call of a function-like macro replaced by its expansion, rescanned.
std::string expand(std::string_view text, const Macros& macros) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (!is_identifier_char(text[i]) || (i > 0 && is_identifier_char(text[i - 1]))) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && is_identifier_char(text[end]))
      ++end;
    const auto macro = macros.find(text.substr(i, end - i));
    if (macro != macros.end() && !macro->second.function_like) {
      out += expand(macro->second.body, macros);
      i = end;
      continue;
    }
    if (macro == macros.end() || end == text.size() || text[end] != '(') {
      out += text.substr(i, end - i);
      i = end;
      continue;
    }
    std::vector<std::string> arguments(1);
    int depth = 0;
    std::size_t at = end + 1;
    for (; at < text.size(); ++at) {
      const char c = text[at];
      if (c == ')' && depth == 0) break;
      if (c == '(') ++depth;
      if (c == ')') --depth;
      if (c == ',' && depth == 0) {
        arguments.emplace_back();
      } else {
        arguments.back() += c;
      }
    }
    if (at == text.size()) throw GenerationError("unclosed macro call: " + std::string(text));
    for (std::string& argument : arguments)
      argument = trim(argument);
    if (arguments.size() != macro->second.parameters.size()) {
      throw GenerationError("macro " + macro->first +
                            " called with the wrong argument count: " + std::string(text));
    }
    out += expand(substitute(macro->second, arguments, macros), macros);
    i = at + 1;
  }
  return out;
}

// "defined(NAME)" or "!defined(NAME)", the only conditions the GNU text uses.
bool condition_holds(std::string_view condition, const std::set<std::string, std::less<>>& names) {
  const bool negated = !condition.empty() && condition.front() == '!';
  if (negated) condition.remove_prefix(1);
  if (condition.rfind("defined(", 0) != 0 || condition.back() != ')') {
    throw GenerationError("the Rust writer decides only defined(NAME) conditions, not " +
                          std::string(condition));
  }
  const std::string_view name = condition.substr(8, condition.size() - 9);
  return names.count(name) != negated;
}

bool blank(std::string_view line) {
  return trim(line).empty();
}

std::string rust_string(std::string_view line) {
  std::string out = "\"";
  for (const char c : line) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\t':
        out += "\\t";
        break;
      case '{':
        out += "{{";
        break;
      case '}':
        out += "}}";
        break;
      default:
        out += c;
    }
  }
  return out + "\"";
}

// A C parameter as the Rust declaration takes it.
std::string rust_parameter(const Parameter& parameter) {
  static const std::map<std::string, std::string, std::less<>> kTypes = {
      {"uint64_t", "*mut u64"},
      {"const uint8_t", "*const u8"},
      {"const uint8_t*", "*const u8"},
      {"uint8_t*", "*mut u8"},
      {"const uint8_t* const", "*const *const u8"},
      {"size_t", "usize"},
  };
  // An array parameter is a pointer to its first element in C, so uint64_t state[25] is a
  // *mut u64 and const uint8_t* const blocks[4] a *const *const u8.
  const auto type = kTypes.find(parameter.c_type);
  if (type == kTypes.end()) {
    throw GenerationError("the Rust writer has no type for C type " + parameter.c_type);
  }
  // `in` is a Rust keyword.
  const std::string name = parameter.name == "in" ? "input" : parameter.name;
  return name + ": " + type->second;
}

std::string isa_cfg(Isa isa) {
  // ELF targets of the ISA: every unix but Apple's (Mach-O) on these two architectures.
  return fmt::format("#[cfg(all(target_arch = \"{}\", unix, not(target_vendor = \"apple\")))]",
                     target(isa).rust_arch());
}

}  // namespace

std::string write_rust_asm(const std::string& gnu_text) {
  std::string out = "core::arch::global_asm!(\n";
  // The .S file's header goes above, as Rust comments; the assembler gets the rest.
  std::istringstream text(resolve_object_format(gnu_text, ObjectFormat::elf));
  bool in_header = true;
  for (std::string line; std::getline(text, line);) {
    if (in_header && (line.rfind("//", 0) == 0 || line.empty())) continue;
    in_header = false;
    // Intel syntax is global_asm!'s default on x86-64, and rustc warns at the directive.
    if (line == "\t.intel_syntax noprefix") continue;
    out += "    " + rust_string(line) + ",\n";
  }
  return out + ");\n";
}

std::string resolve_object_format(const std::string& gnu_text, ObjectFormat format) {
  const std::set<std::string, std::less<>> defined = {format == ObjectFormat::elf      ? "__ELF__"
                                                      : format == ObjectFormat::mach_o ? "__APPLE__"
                                                                                       : "_WIN32"};
  struct Conditional {
    bool enclosing_active;
    bool taken;   // some branch so far held
    bool active;  // this branch holds
  };
  std::vector<Conditional> conditionals;
  const auto active = [&] { return conditionals.empty() || conditionals.back().active; };
  Macros macros;
  std::string out;
  std::istringstream in(gnu_text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("#if ", 0) == 0) {
      const bool enclosing = active();
      const bool holds = enclosing && condition_holds(trim(line.substr(4)), defined);
      conditionals.push_back({enclosing, holds, holds});
    } else if (line.rfind("#elif ", 0) == 0) {
      Conditional& top = conditionals.back();
      top.active =
          top.enclosing_active && !top.taken && condition_holds(trim(line.substr(6)), defined);
      top.taken = top.taken || top.active;
    } else if (line == "#else") {
      Conditional& top = conditionals.back();
      top.active = top.enclosing_active && !top.taken;
      top.taken = true;
    } else if (line == "#endif") {
      conditionals.pop_back();
    } else if (!active()) {
      continue;
    } else if (line.rfind("#define ", 0) == 0) {
      macros.insert(parse_define(line));
    } else if (line.rfind('#', 0) == 0) {
      throw GenerationError("the Rust writer cannot resolve the directive " + line);
    } else {
      const std::string expanded = expand(line, macros);
      // A line only a macro filled (SEH_* outside Windows) goes with its macro.
      if (blank(expanded) && !blank(line)) continue;
      out += expanded + "\n";
    }
  }
  if (!conditionals.empty()) throw GenerationError("the GNU text leaves an #if open");
  return out;
}

std::string write_rust_kernel(const Program& program) {
  std::string out = std::string(kRustGeneratedMark) + "\n";
  out += "// Regenerate with scripts/regen (spongegen generate --rust-out rust/src/kernels).\n//\n";
  for (const std::string& line : program.header_lines)
    out += line.empty() ? "//\n" : "// " + line + "\n";
  out +=
      "//\n"
      "// Rust: the text of the kernel's .S file in generated/ as the C preprocessor hands it to\n"
      "// the assembler on ELF (spongegen resolves its object-format macros, global_asm! having\n"
      "// no preprocessor), without .intel_syntax, which is global_asm!'s default on x86-64:\n"
      "// the same instructions, labels and directives, so what the proof says of the .S\n"
      "// file's System V / AAPCS64 entries holds for these.\n"
      "\n";
  out += write_rust_asm(write_gas(program));
  out += "\nextern \"C\" {\n";
  for (std::size_t i = 0; i < program.functions.size(); ++i) {
    const Function& function = program.functions[i];
    std::string parameters;
    for (const Parameter& parameter : function.shape.parameters)
      parameters += (parameters.empty() ? "" : ", ") + rust_parameter(parameter);
    out += fmt::format("{}    /// {}\n    ///\n    /// C: `{}`\n    pub fn {}({});\n",
                       i == 0 ? "" : "\n", function.summary,
                       c_prototype(function.symbol, function.shape), function.symbol, parameters);
  }
  out += "}\n";
  return out;
}

std::string write_rust_module_list(const std::vector<RustModule>& modules) {
  std::string out = std::string(kRustGeneratedMark) + "\n";
  out +=
      "// Regenerate with scripts/regen (spongegen generate --rust-out rust/src/kernels).\n"
      "//\n"
      "// The generated kernels, each built only for ELF targets of its ISA (its directives are\n"
      "// resolved for ELF); elsewhere the crate runs its portable code.\n";
  for (const RustModule& module : modules)
    out += fmt::format("\n{}\npub mod {};\n", isa_cfg(module.isa), module.stem);
  return out;
}

}  // namespace spongegen::writers
