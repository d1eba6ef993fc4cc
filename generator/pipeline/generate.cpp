#include "pipeline/generate.hpp"

#include <string_view>

#include "audit/audit.hpp"
#include "audit/cpu_features.hpp"
#include "audit/invariants.hpp"
#include "verify/jit_verify.hpp"
#include "writers/asmjit_encoder.hpp"
#include "writers/c_header.hpp"
#include "writers/gas_writer.hpp"
#include "writers/go_writer.hpp"

namespace spongegen::pipeline {
namespace {

// The header pass: each kernel's composer, given its audit and the others'.
void write_headers(std::vector<GeneratedKernel>& kernels,
                   std::vector<kernels::HeaderComposer>& composers) {
  const auto audit_of = [&kernels](std::string_view name) -> const audit::KernelAudit& {
    for (const GeneratedKernel& kernel : kernels) {
      if (kernel.spec->name == name) return kernel.audit;
    }
    throw GenerationError("a header quotes kernel " + std::string(name) + ", which is not built");
  };
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    kernels[i].written.program.header_lines =
        composers[i](kernels::HeaderInputs{kernels[i].audit, audit_of});
  }
}

}  // namespace

void require_invariants(const std::string& kernel, const Program& program) {
  const auto problems = audit::check_invariants(program);
  if (problems.empty()) return;
  std::string message =
      "kernel " + kernel + " breaks " + std::to_string(problems.size()) + " invariant(s):";
  for (const auto& problem : problems)
    message += "\n  " + problem;
  throw GenerationError(message);
}

std::vector<GeneratedKernel> generate_kernels(bool verify, const VerifyReport& report) {
  std::vector<GeneratedKernel> generated;
  std::vector<kernels::HeaderComposer> composers;
  for (const kernels::KernelSpec& spec : kernels::all_kernels()) {
    kernels::BuiltKernel kernel = spec.build();
    writers::EncodedProgram encoded = writers::encode(kernel.program);
    require_invariants(spec.name, kernel.program);
    audit::check_cpu_features(kernel.program, spec.cpu_features);
    if (verify) {
      const verify::VerifyResult result = verify::verify_against_portable(spec, kernel, encoded);
      if (report) report(spec.name, result.summary);
    }
    audit::KernelAudit audit =
        audit::audit_program(kernel.program, encoded, audit::kDefaultIssueWidth);
    composers.push_back(std::move(kernel.header));
    generated.push_back(GeneratedKernel{
        &spec, std::move(audit),
        writers::WrittenKernel{
            spec.file_name, spec.cpu_features, std::move(kernel.program), std::move(encoded), {}}});
  }
  write_headers(generated, composers);
  for (GeneratedKernel& kernel : generated)
    kernel.written.text = writers::write_gas(kernel.written.program);
  return generated;
}

std::vector<writers::GeneratedFile> output_files(const std::vector<GeneratedKernel>& kernels) {
  std::vector<writers::GeneratedFile> files;
  std::vector<writers::WrittenKernel> written;
  for (const GeneratedKernel& kernel : kernels) {
    files.push_back({kernel.written.file_name, kernel.written.text});
    written.push_back(kernel.written);
  }
  files.push_back({writers::kCHeaderName, writers::write_c_header(written)});
  files.push_back({"manifest.json", writers::write_manifest(written)});
  return files;
}

std::vector<writers::GeneratedFile> go_output_files() {
  // The kernel runs only where the package's start-up check finds BMI1 and BMI2; the purego
  // tag selects the portable permutation everywhere.
  constexpr std::string_view kConstraint = "amd64 && !purego";
  const Program program = kernels::build_keccak_amd64_bmi2_go();
  return {{"keccakf1600_amd64_bmi2_amd64.s", writers::write_go_asm(program, kConstraint)},
          {"keccakf1600_amd64_bmi2_amd64.go",
           writers::write_go_declarations(program, "keccak", kConstraint)}};
}

}  // namespace spongegen::pipeline
