// generated/manifest.json: each generated file's sha256, its entries and the options that
// shaped it, so a reviewer (or a script) can see what a regeneration changed at a glance.
#pragma once

#include <string>
#include <vector>

#include "kernels/kernel.hpp"
#include "writers/asmjit_encoder.hpp"

namespace spongegen::writers {

struct GeneratedFile {
  std::string name;
  std::string contents;
};

// One kernel through every writer.
struct WrittenKernel {
  const kernels::KernelSpec* spec;
  kernels::BuiltKernel kernel;
  EncodedProgram encoded;
  std::string text;  // the .S file
};

std::string sha256_hex(const std::string& bytes);

std::string write_manifest(const std::vector<WrittenKernel>& kernels);

}  // namespace spongegen::writers
