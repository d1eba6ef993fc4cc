// Reads a .S file that spongegen wrote back into a Program, so that committed kernels (at a
// git ref, or in a folder) can be audited and compared with what the generator builds now.
//
// Only spongegen's own output format is understood: functions, labels, instructions, CFI,
// round markers and constant tables. Comments and the object-format macros are dropped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "program/program.hpp"

namespace spongegen::readers {

// Throws GenerationError naming the line it cannot read.
Program read_gas(std::string_view text, const std::string& kernel_name);

// The pieces of a function's header comment, shared with the other text formats' readers:
// the parameters of a prototype line (the inverse of c_prototype), and an entry shape (the
// inverse of entry_shape_line).
std::vector<Parameter> parse_parameters(std::string_view line);
EntryShape parse_entry_shape(std::string_view text);

}  // namespace spongegen::readers
