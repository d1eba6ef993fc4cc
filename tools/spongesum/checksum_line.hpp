// The checksum line formats, both directions: writing them (hash mode) and reading them
// (check mode), so the two agree by construction.
//   untagged (GNU):   HEX  FILE        (HEX *FILE in binary mode; BSD `-r`: HEX FILE)
//   tagged (BSD):     TAG (FILE) = HEX
// A file name with a backslash, newline or carriage return is written escaped (\\, \n, \r)
// and the line starts with a backslash, as GNU coreutils does; with -z names are written
// as they are and lines end with NUL.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "algorithms.hpp"

namespace spongesum {

std::string to_hex(std::span<const std::uint8_t> bytes);

bool name_needs_escape(std::string_view name);
std::string escape_name(std::string_view name);

struct LineFormat {
  bool tagged = false;
  bool binary = false;           // untagged lines mark the name with '*'
  bool zero_terminated = false;  // -z: NUL ends the line, names are not escaped
};

// One line of hash mode's output, terminator included.
std::string format_checksum_line(const Algorithm& algorithm, std::string_view hex,
                                 std::string_view name, const LineFormat& format);

// "FILE: RESULT" in check mode, the name escaped as in checksum lines.
std::string format_check_result(std::string_view name, std::string_view result);

struct ParsedLine {
  const Algorithm* algorithm = nullptr;  // from the tag; nullptr on an untagged line
  std::string hex;                       // lower case
  std::string name;                      // unescaped
};

// Which untagged form the check lines read so far used, for GNU's rule over a whole run:
// after a line HEX, blank, ' ' or '*', NAME (standard), a line HEX, blank, NAME (BSD `-r`)
// is improperly formatted; after a BSD line, a ' ' or '*' after the blank is part of the name.
enum class UntaggedForm { kUnknown, kStandard, kReversed };

// One line of a check file, without its line terminator (a trailing CR is allowed), in the
// forms GNU's sha256sum -c reads: untagged, the blank after the hex a space or a tab; tagged,
// TAG, at most one space, (NAME), then '=' with any blanks around it, then HEX, which is also
// OpenSSL's `TAG(NAME)= HEX` (with OpenSSL's tags). Returns nullopt for a line that is
// improperly formatted: no valid hex, an unknown tag, a bad escape, no file name, a NUL
// anywhere. The hex length is checked against the algorithm elsewhere. `form` is updated.
std::optional<ParsedLine> parse_checksum_line(std::string_view line, UntaggedForm& form);
// The same for a line read on its own.
std::optional<ParsedLine> parse_checksum_line(std::string_view line);

// Comment ('#' in the first column) and empty lines are skipped silently, as in GNU.
bool is_ignored_check_line(std::string_view line);

}  // namespace spongesum
