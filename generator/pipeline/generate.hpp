// The generate pipeline: every kernel through the passes, in the one direction the data
// flows. Its spec's builder gives the Program and the header's decisions; the Program is
// encoded once, checked (invariants, CPU features, the JIT self-check), audited once; the
// header pass fills the header from the audits; the writers write the .S files, the C
// header and the manifest.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "kernels/kernel.hpp"
#include "program/audit_figures.hpp"
#include "writers/manifest.hpp"

namespace spongegen::pipeline {

struct GeneratedKernel {
  const kernels::KernelSpec* spec;
  audit::KernelAudit audit;        // at the default issue width, what the header quotes
  writers::WrittenKernel written;  // the Program with its header, its encoding, its .S text
};

// One line per kernel the JIT self-check ran (or skipped, and why), and one per proof.
using VerifyReport = std::function<void(const std::string& kernel, const std::string& summary)>;

// Every kernel of kernels::all_kernels(), in order; `verify` runs the JIT self-check,
// `prove` the proof of every entry (prove/prover.hpp). Throws GenerationError for a kernel
// that breaks an invariant, needs an undeclared CPU feature, or has an entry the proof
// refuses (with its counterexample).
std::vector<GeneratedKernel> generate_kernels(bool verify, bool prove,
                                              const VerifyReport& report = {});

// Throws a GenerationError naming the kernel and each broken invariant (audit/invariants.hpp)
// of its Program; generate_kernels runs it on every kernel.
void require_invariants(const std::string& kernel, const Program& program);

// The files of generated/: each kernel's .S, then the C header and the manifest.
std::vector<writers::GeneratedFile> output_files(const std::vector<GeneratedKernel>& kernels);

// The Go (ABI0) Programs of the kernels whose spec asks for Go files (KernelOutputs::go), in
// the registry's order, each under the kernel whose code it carries.
struct GoKernel {
  std::string kernel;     // the kernel spec's name
  std::string file_stem;  // of its .s and .go files in the package
  Program program;
};
std::vector<GoKernel> go_kernels();

// The Go package's generated files (go/keccak): each Go kernel's .s and its declarations;
// `prove` proves each Go Program first, as generate_kernels does the others.
std::vector<writers::GeneratedFile> go_output_files(bool prove, const VerifyReport& report = {});

// The Rust crate's generated files (rust/src/kernels): the .rs file of each kernel whose spec
// asks for one (KernelOutputs::rust), written from the Program of its .S file (header
// included, so generate_kernels' proof covers it), and the module list mod.rs.
std::vector<writers::GeneratedFile> rust_output_files(const std::vector<GeneratedKernel>& kernels);

}  // namespace spongegen::pipeline
