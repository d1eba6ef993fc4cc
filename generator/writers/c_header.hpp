// generated/sponge_kernels.h: the C prototypes of every entry the runtime links (the kernels
// of the ISAs whose Target::links_into_runtime), and per kernel an X-macro list of its entries
// (with their shapes) and its CPU features, so the runtime declares and tables the kernels
// from the generator's declarations instead of by hand.
#pragma once

#include <string>
#include <vector>

#include "writers/manifest.hpp"

namespace spongegen::writers {

inline constexpr const char* kCHeaderName = "sponge_kernels.h";

std::string write_c_header(const std::vector<WrittenKernel>& kernels);

// "amd64-bmi2" -> "SPONGE_KERNEL_AMD64_BMI2", the prefix of the kernel's macros.
std::string kernel_macro_prefix(const std::string& kernel_name);

}  // namespace spongegen::writers
