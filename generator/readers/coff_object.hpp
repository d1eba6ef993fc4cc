// Reads the .text of an x86-64 COFF object (as GNU as for mingw-w64 and clang for the MSVC
// target write it).
#pragma once

#include <string>

#include "readers/object_file.hpp"

namespace spongegen::readers {

// Whether `object` starts like an x86-64 COFF object (its machine field).
bool is_coff_amd64(const std::string& object);

// Throws MalformedObject ("malformed COFF object: ...") for a file that is not a
// well-formed one.
ObjectText read_coff_text(const std::string& object);

}  // namespace spongegen::readers
