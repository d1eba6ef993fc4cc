#include "checksum_line.hpp"

#include <algorithm>
#include <cctype>

namespace spongesum {
namespace {

bool is_hex_digit(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

std::string to_lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

// Undoes escape_name(); nullopt for a backslash followed by anything else, as GNU rejects.
std::optional<std::string> unescape_name(std::string_view escaped) {
  std::string name;
  name.reserve(escaped.size());
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    if (escaped[i] != '\\') {
      name += escaped[i];
      continue;
    }
    if (++i == escaped.size()) return std::nullopt;
    switch (escaped[i]) {
      case '\\':
        name += '\\';
        break;
      case 'n':
        name += '\n';
        break;
      case 'r':
        name += '\r';
        break;
      default:
        return std::nullopt;
    }
  }
  return name;
}

bool is_valid_hex(std::string_view hex) {
  return !hex.empty() && hex.size() % 2 == 0 && std::ranges::all_of(hex, is_hex_digit);
}

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

// TAG (NAME) = HEX, or OpenSSL's TAG(NAME)= HEX: at most one space before '(', any blanks
// around '='. The name is not delimited by anything it cannot contain, so, as GNU does, it
// runs to the last ')'; it may be empty, as in GNU.
std::optional<ParsedLine> parse_tagged(std::string_view line) {
  const std::size_t open = line.find('(');
  if (open == std::string_view::npos) return std::nullopt;
  std::string_view tag = line.substr(0, open);
  if (!tag.empty() && tag.back() == ' ') tag.remove_suffix(1);
  const Algorithm* algorithm = find_check_line_algorithm(tag);
  if (!algorithm) return std::nullopt;
  const std::size_t close = line.rfind(')');
  if (close == std::string_view::npos || close < open) return std::nullopt;
  std::string_view rest = line.substr(close + 1);
  const auto skip_blanks = [&rest] {
    while (!rest.empty() && is_blank(rest.front()))
      rest.remove_prefix(1);
  };
  skip_blanks();
  if (rest.empty() || rest.front() != '=') return std::nullopt;
  rest.remove_prefix(1);
  skip_blanks();
  ParsedLine parsed{algorithm, to_lower(rest),
                    std::string(line.substr(open + 1, close - open - 1))};
  if (!is_valid_hex(parsed.hex)) return std::nullopt;
  return parsed;
}

// HEX, a blank (space or tab), then ' ' or '*' (text or binary), then NAME; or HEX, a blank,
// NAME (the BSD `-r` form, when the character after the blank is neither, or is the last).
std::optional<ParsedLine> parse_untagged(std::string_view line, UntaggedForm& form) {
  const std::size_t hex_end =
      std::min(line.size(), line.find_first_not_of("0123456789abcdefABCDEF"));
  if (hex_end == line.size() || !is_blank(line[hex_end])) return std::nullopt;
  std::string hex = to_lower(line.substr(0, hex_end));
  if (!is_valid_hex(hex)) return std::nullopt;
  std::size_t name_start = hex_end + 1;
  if (name_start == line.size()) return std::nullopt;
  const bool marked =
      line.size() - name_start > 1 && (line[name_start] == ' ' || line[name_start] == '*');
  if (!marked) {
    if (form == UntaggedForm::kStandard) return std::nullopt;
    form = UntaggedForm::kReversed;
  } else if (form != UntaggedForm::kReversed) {
    form = UntaggedForm::kStandard;
    ++name_start;
  }
  return ParsedLine{nullptr, std::move(hex), std::string(line.substr(name_start))};
}

}  // namespace

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex(bytes.size() * 2, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    hex[2 * i] = kDigits[bytes[i] >> 4];
    hex[2 * i + 1] = kDigits[bytes[i] & 0x0f];
  }
  return hex;
}

bool name_needs_escape(std::string_view name) {
  return name.find_first_of("\\\n\r") != std::string_view::npos;
}

std::string escape_name(std::string_view name) {
  std::string escaped;
  escaped.reserve(name.size() + 8);
  for (char c : name) {
    switch (c) {
      case '\\':
        escaped += "\\\\";
        break;
      case '\n':
        escaped += "\\n";
        break;
      case '\r':
        escaped += "\\r";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

std::string format_checksum_line(const Algorithm& algorithm, std::string_view hex,
                                 std::string_view name, const LineFormat& format) {
  const bool escape = !format.zero_terminated && name_needs_escape(name);
  const std::string shown = escape ? escape_name(name) : std::string(name);
  std::string line = escape ? "\\" : "";
  if (format.tagged) {
    line.append(algorithm.tag).append(" (").append(shown).append(") = ").append(hex);
  } else {
    line.append(hex).append(format.binary ? " *" : "  ").append(shown);
  }
  line += format.zero_terminated ? '\0' : '\n';
  return line;
}

std::string format_check_result(std::string_view name, std::string_view result) {
  // Appended piece by piece: GCC 12 at -O3 gives a false -Wrestrict for "\\" + std::string.
  std::string line;
  if (name_needs_escape(name)) {
    line.append("\\").append(escape_name(name));
  } else {
    line.append(name);
  }
  line.append(": ").append(result).append("\n");
  return line;
}

bool is_ignored_check_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line.empty() || line.front() == '#';
}

std::optional<ParsedLine> parse_checksum_line(std::string_view line, UntaggedForm& form) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find('\0') != std::string_view::npos) return std::nullopt;
  line.remove_prefix(std::min(line.size(), line.find_first_not_of(" \t")));
  const bool escaped = !line.empty() && line.front() == '\\';
  if (escaped) line.remove_prefix(1);
  std::optional<ParsedLine> parsed = parse_tagged(line);
  if (!parsed) parsed = parse_untagged(line, form);
  if (!parsed) return std::nullopt;
  if (escaped) {
    std::optional<std::string> name = unescape_name(parsed->name);
    if (!name) return std::nullopt;
    parsed->name = std::move(*name);
  }
  return parsed;
}

std::optional<ParsedLine> parse_checksum_line(std::string_view line) {
  UntaggedForm form = UntaggedForm::kUnknown;
  return parse_checksum_line(line, form);
}

}  // namespace spongesum
