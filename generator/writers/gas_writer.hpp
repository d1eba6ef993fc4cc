// The GNU assembler text writer: Program -> the .S file committed under generated/.
//
// One source serves ELF and Mach-O: the file goes through the C preprocessor, and a short
// macro block at its top supplies the symbol prefix, local label prefix, .type/.size and
// visibility for each object format.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "program/program.hpp"

namespace spongegen::writers {

std::string write_gas(const Program& program);
// The lines every kernel file opens with, as comments in its own syntax: what made it and how
// to make it again.
std::vector<std::string> generated_file_notice();

// One instruction as it appears in the file, e.g. "rorx r8, r8, 20"; for error messages.
std::string format_instruction(const Program& program, const Instruction& instruction);
// One CFI directive as it appears in the file, e.g. ".cfi_offset rbx, -16".
std::string cfi_line(const Program& program, const Cfi& cfi);
// A local label as every ISA prints it: LOCAL(name), which the object format macros resolve.
std::string local_label(const Program& program, LabelId id);

// Starts the comment line above each function that records its EntryShape, which the reader
// turns back into one.
inline constexpr std::string_view kEntryShapePrefix = "entry: ";

// The comment line that stands for a RoundMarker, which the reader turns back into one.
std::string round_marker_line(const RoundMarker& marker);

}  // namespace spongegen::writers
