// The lexical pieces of GNU assembler text as the writers print it, shared by the reader
// and each ISA's operand syntax (isa/<name>/printer.cpp).
#pragma once

#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "isa/target.hpp"

namespace spongegen::readers {

inline std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

inline bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// "MACRO(name)" -> "name", or nothing.
inline std::optional<std::string> macro_argument(std::string_view text, std::string_view macro) {
  if (!starts_with(text, macro) || text.size() <= macro.size() + 1 || text[macro.size()] != '(') {
    return std::nullopt;
  }
  const std::size_t close = text.find(')');
  if (close == std::string_view::npos) return std::nullopt;
  return std::string(text.substr(macro.size() + 1, close - macro.size() - 1));
}

inline std::optional<std::int64_t> parse_integer(std::string_view text) {
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
inline bool looks_numeric(std::string_view text) {
  text = trim(text);
  if (!text.empty() && text.front() == '-') text.remove_prefix(1);
  return !text.empty() && std::isdigit(static_cast<unsigned char>(text.front()));
}

// Splits operands at commas outside brackets and braces.
inline std::vector<std::string> split_operands(std::string_view text) {
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

// The register `name` names in `isa`'s syntax (parse_register), or an error saying which
// ISA does not know it.
template <class Parse>
Reg named_register(std::string_view isa, std::string_view name, Parse parse_register) {
  const std::optional<Reg> parsed = parse_register(name);
  if (!parsed) {
    throw GenerationError("unknown " + std::string(isa) + " register '" + std::string(name) + "'");
  }
  return *parsed;
}

// Each operand text as an operand: LOCAL(...) and SYMBOL(...) by the reader, every other
// by `read_one`.
template <class ReadOne>
std::vector<Operand> read_each_operand(const std::vector<std::string>& texts, OperandReader& reader,
                                       ReadOne read_one) {
  std::vector<Operand> operands;
  for (const std::string& text : texts) {
    if (std::optional<Operand> macro = reader.macro_operand(text)) {
      operands.push_back(*macro);
    } else {
      operands.push_back(read_one(text));
    }
  }
  return operands;
}

}  // namespace spongegen::readers
