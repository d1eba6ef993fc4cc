// Reads the .text of an ELF64 object (little-endian, as on x86-64 and AArch64 Linux).
#pragma once

#include <string>

#include "readers/object_file.hpp"

namespace spongegen::readers {

// Throws MalformedObject ("malformed ELF object: ...") for a file that is not a
// well-formed one.
ObjectText read_elf_text(const std::string& object);

}  // namespace spongegen::readers
