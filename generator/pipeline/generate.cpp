#include "pipeline/generate.hpp"

#include <fmt/format.h>

#include <string_view>

#include "audit/audit.hpp"
#include "audit/cpu_features.hpp"
#include "audit/invariants.hpp"
#include "isa/target.hpp"
#include "kernels/register_clearing.hpp"
#include "prove/proof_cache.hpp"
#include "prove/prover.hpp"
#include "verify/jit_verify.hpp"
#include "writers/asmjit_encoder.hpp"
#include "writers/c_header.hpp"
#include "writers/go_writer.hpp"
#include "writers/rust_writer.hpp"

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
    std::vector<std::string> lines =
        composers[i](kernels::HeaderInputs{kernels[i].audit, audit_of});
    const bool windows = !kernels[i].written.program.win64_entries.empty();
    lines.push_back("");
    lines.push_back(fmt::format(
        "Proof: generation (spongegen generate and check) proves every entry of this file{}",
        windows ? ", the" : ""));
    lines.push_back(fmt::format("{}before it writes or accepts the file, and `spongegen prove`",
                                windows ? "Windows x64 entries included, " : ""));
    if (target(kernels[i].written.program.isa).shares_registers_with_caller()) {
      lines.insert(lines.end(), {
                                    "proves the file as committed: for every input state, block "
                                    "and block count, each entry",
                                    "leaves the state and output the model computes "
                                    "(generator/model), and the callee-saved",
                                    "registers and the stack as its caller had them, and its CFI "
                                    "puts the CFA at the",
                                    "caller's stack pointer before every instruction; --no-prove "
                                    "skips it. How: \"The proof\"",
                                    "in docs/generator-and-audit.md.",
                                });
    } else {
      lines.insert(lines.end(), {
                                    "proves the file as committed: for every input state, block "
                                    "and block count, each entry",
                                    "leaves the state and output the model computes "
                                    "(generator/model) and writes no other",
                                    "memory; --no-prove skips it. How: \"The proof\" in "
                                    "docs/generator-and-audit.md.",
                                });
    }
    kernels[i].written.program.header_lines = std::move(lines);
  }
}

// The kernel's .S file name without its extension, which names its Go and Rust files too.
std::string file_stem(const kernels::KernelSpec& spec) {
  const std::string& name = spec.file_name;
  return name.substr(0, name.rfind('.'));
}

const kernels::KernelSpec& kernel_spec(const std::string& name) {
  for (const kernels::KernelSpec& spec : kernels::all_kernels()) {
    if (spec.name == name) return spec;
  }
  throw GenerationError("no kernel named " + name);
}

// Throws a GenerationError naming the first entry of `program` the proof refuses, why, and
// the counterexample.
void require_proof(const kernels::KernelSpec& spec, const Program& program,
                   const VerifyReport& report) {
  prove::ProveOptions options;
  options.cache = prove::command_line_proof_cache();
  const prove::KernelProof proof = prove::prove_kernel(spec, program, options);
  for (const prove::EntryProof& entry : proof.entries) {
    if (entry.proven) continue;
    const prove::EntryProof checked = prove::confirm_on_host(spec, program, entry);
    std::string message = fmt::format(
        "kernel {}: the proof refuses entry {}{}{}: {}; {}", spec.name, entry.symbol,
        entry.win64 ? " (Windows x64)" : "",
        entry.variant.empty() ? std::string() : fmt::format(" [{}]", entry.variant), entry.failure,
        entry.counterexample.empty() ? std::string("no counterexample among 64 random inputs")
                                     : fmt::format("counterexample: {}", entry.counterexample));
    if (checked.confirmed_on_host) {
      message += *checked.confirmed_on_host ? " (the entry run on this CPU differs too)"
                                            : " (the entry run on this CPU agrees)";
    }
    throw GenerationError(message);
  }
  std::size_t instructions = 0;
  for (const prove::EntryProof& entry : proof.entries)
    instructions += entry.instructions;
  if (report) {
    report(spec.name,
           fmt::format("proof: {} entry cases proven ({} instructions executed symbolically){}",
                       proof.entries.size(), instructions,
                       proof.from_cache ? ", from the proof cache" : ""));
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

std::vector<GeneratedKernel> generate_kernels(bool verify, bool prove, const VerifyReport& report) {
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
    if (prove) require_proof(spec, kernel.program, report);
    audit::KernelAudit audit =
        audit::audit_program(kernel.program, encoded, audit::kDefaultIssueWidth);
    composers.push_back(std::move(kernel.header));
    generated.push_back(GeneratedKernel{&spec, std::move(audit),
                                        writers::WrittenKernel{.file_name = spec.file_name,
                                                               .cpu_features = spec.cpu_features,
                                                               .program = std::move(kernel.program),
                                                               .encoded = std::move(encoded),
                                                               .text = {},
                                                               .binary = {}}});
  }
  write_headers(generated, composers);
  for (GeneratedKernel& kernel : generated) {
    const Target& isa = target(kernel.written.program.isa);
    kernel.written.text = isa.write_text(kernel.written.program);
    if (auto binary = isa.binary_file(kernel.written.encoded)) {
      kernel.written.binary = writers::GeneratedFile{file_stem(*kernel.spec) + binary->extension,
                                                     std::move(binary->bytes)};
    }
  }
  return generated;
}

std::vector<writers::GeneratedFile> output_files(const std::vector<GeneratedKernel>& kernels) {
  std::vector<writers::GeneratedFile> files;
  std::vector<writers::WrittenKernel> written;
  for (const GeneratedKernel& kernel : kernels) {
    files.push_back({kernel.written.file_name, kernel.written.text});
    if (kernel.written.binary) files.push_back(*kernel.written.binary);
    written.push_back(kernel.written);
  }
  files.push_back({writers::kCHeaderName, writers::write_c_header(written)});
  files.push_back({"manifest.json", writers::write_manifest(written)});
  return files;
}

std::vector<GoKernel> go_kernels() {
  std::vector<GoKernel> go;
  for (const kernels::KernelSpec& spec : kernels::all_kernels()) {
    if (!spec.outputs.go) continue;
    go.push_back(
        {spec.name, file_stem(spec) + "_" + std::string(isa_name(spec.isa)), spec.outputs.go()});
  }
  // As for the other kernels (kernels/registry.cpp): each entry clears the registers it wrote.
  for (GoKernel& kernel : go) {
    Program& program = kernel.program;
    const std::vector<std::string> clearing =
        kernels::clearing_header_lines(program, kernels::emit_clear_caller_saved(program));
    program.header_lines.insert(program.header_lines.end(), clearing.begin(), clearing.end());
  }
  return go;
}

std::vector<writers::GeneratedFile> go_output_files(bool prove, const VerifyReport& report) {
  // Each kernel runs only where the package's start-up check finds its CPU features; the
  // purego tag selects the portable permutation everywhere.
  std::vector<writers::GeneratedFile> files;
  for (const GoKernel& go : go_kernels()) {
    if (prove) require_proof(kernel_spec(go.kernel), go.program, report);
    const std::string constraint = fmt::format("{} && !purego", target(go.program.isa).go_arch());
    files.push_back({go.file_stem + ".s", writers::write_go_asm(go.program, constraint)});
    files.push_back(
        {go.file_stem + ".go", writers::write_go_declarations(go.program, "keccak", constraint)});
  }
  return files;
}

std::vector<writers::GeneratedFile> rust_output_files(const std::vector<GeneratedKernel>& kernels) {
  std::vector<writers::GeneratedFile> files;
  std::vector<writers::RustModule> modules;
  for (const GeneratedKernel& kernel : kernels) {
    if (!kernel.spec->outputs.rust) continue;
    const std::string stem = file_stem(*kernel.spec);
    files.push_back({stem + ".rs", writers::write_rust_kernel(kernel.written.program)});
    modules.push_back({stem, kernel.spec->isa});
  }
  files.push_back({"mod.rs", writers::write_rust_module_list(modules)});
  return files;
}

}  // namespace spongegen::pipeline
