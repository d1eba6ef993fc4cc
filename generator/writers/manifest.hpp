// generated/manifest.json: each generated file's sha256, its entries and the options that
// shaped it, so a reviewer (or a script) can see what a regeneration changed at a glance.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "program/cpu_features.hpp"
#include "program/program.hpp"
#include "writers/asmjit_encoder.hpp"

namespace spongegen::writers {

struct GeneratedFile {
  std::string name;
  std::string contents;
};

// One kernel through every writer, as plain data: what the manifest and the C header say of
// it besides its Program (whose kernel_name and isa they print).
struct WrittenKernel {
  std::string file_name;                 // in generated/
  std::vector<CpuFeature> cpu_features;  // all needed to run any entry
  Program program;                       // with its header
  EncodedProgram encoded;
  std::string text;  // the .S file (Target::write_text)
  // The binary shipped beside it (Target::binary_file), if its ISA has one: its name in
  // generated/ and its bytes.
  std::optional<GeneratedFile> binary;
};

std::string sha256_hex(const std::string& bytes);

std::string write_manifest(const std::vector<WrittenKernel>& kernels);

}  // namespace spongegen::writers
