// spongegen: writes the sponge permutation kernels under generated/ and checks them.
//
//   spongegen generate [--out DIR] [--no-verify]   write every kernel and manifest.json
//   spongegen check [--dir DIR] [--no-verify]      regenerate in memory, compare byte for byte
//   spongegen list                                 the kernels and their entries
//   spongegen audit [--json] [--width N] [--diff REF] [--mca [CPU,...]] [--kernel NAME]
//                   [--entry SYMBOL]
//   spongegen prove-encoding --kernel NAME OBJECT  assembler bytes == asmjit bytes
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "audit/audit.hpp"
#include "audit/encoding_proof.hpp"
#include "audit/invariants.hpp"
#include "audit/mca.hpp"
#include "kernels/kernel.hpp"
#include "pipeline/generate.hpp"
#include "readers/gas_reader.hpp"
#include "writers/manifest.hpp"
#include "writers/output_folder.hpp"

#ifndef SPONGEGEN_DEFAULT_DIR
#define SPONGEGEN_DEFAULT_DIR "generated"
#endif

namespace fs = std::filesystem;
using namespace spongegen;

namespace {

constexpr const char* kUsage = R"(usage: spongegen <command> [options]

commands:
  generate [--out DIR] [--no-verify]
      Build every kernel, encode each instruction with asmjit, run the JIT self-check
      (kernels this host can execute), and write the .S files and manifest.json to DIR.
  check [--dir DIR] [--no-verify]
      Regenerate in memory and compare with DIR byte for byte. Exit 1 on any difference,
      printing the first differing lines of each file, or the missing or extra file.
  list
      The kernels, their files and their entries.
  audit [--json] [--width N] [--diff REF] [--mca [CPU,...]] [--kernel NAME] [--entry SYMBOL]
      For each kernel entry: instruction mix per round and per permutation, frame,
      saved registers, code bytes, the longest dependency chain of a round, and the
      latency and issue-width bounds (width N, default 6). --json prints JSON.
      --diff REF compares the kernels as built now with those committed at git ref REF
      (or in folder REF): the figures that changed and the changed instructions by round.
      --mca runs llvm-mca (LLVM 14) on each kernel's first entry, the rounds of one call
      repeated, for the core models given (comma-separated) or every default one of its
      ISA (znver2, znver3, icelake-server, sapphirerapids, alderlake; cortex-a72,
      neoverse-n1, neoverse-v1, neoverse-n2, cortex-x2, apple-m1): modelled cycles, not
      measured. --kernel NAME limits it to one kernel, --entry SYMBOL to one entry (any
      entry of any kernel) instead of each kernel's first.
  prove-encoding --kernel NAME OBJECT
      Check that OBJECT (the kernel's .S assembled by the system assembler, ELF64 or x86-64
      COFF) holds asmjit's layout of the Program in every byte of .text: each function and
      constant table byte for byte, no-ops in the alignment padding, nothing past the end
      (relocations masked). A mismatch names its function, table or padding.
  --help
      This text.

DIR defaults to )" SPONGEGEN_DEFAULT_DIR R"(.
--no-verify skips the JIT self-check (the asmjit encoding check always runs).
)";

// A usage error: exit 2 with a message.
struct UsageError {
  std::string message;
};

struct Options {
  std::string command;
  fs::path dir = SPONGEGEN_DEFAULT_DIR;
  bool verify = true;
  bool json = false;
  int width = audit::kDefaultIssueWidth;
  std::string diff_ref;
  std::string kernel;
  std::string object;
  bool mca = false;
  std::vector<std::string> mca_cpus;  // empty: the default core models of each kernel's ISA
  std::string entry;                  // audit --mca: one entry by symbol
};

int parse_width(const std::string& text) {
  try {
    std::size_t used = 0;
    const int width = std::stoi(text, &used);
    if (used == text.size() && width >= 1 && width <= 64) return width;
  } catch (const std::exception&) {
  }
  throw UsageError{"--width needs a whole number from 1 to 64, not '" + text + "'"};
}

Options parse_arguments(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) throw UsageError{"no command given"};
  Options options;
  options.command = args[0];
  if (options.command == "--help" || options.command == "-h" || options.command == "help") {
    options.command = "help";
    return options;
  }
  const std::string& command = options.command;
  if (command != "generate" && command != "check" && command != "list" && command != "audit" &&
      command != "prove-encoding") {
    throw UsageError{"unknown command '" + command + "'"};
  }
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 == args.size()) throw UsageError{arg + " needs a value"};
      return args[++i];
    };
    if ((command == "generate" && arg == "--out") || (command == "check" && arg == "--dir")) {
      options.dir = value();
    } else if (arg == "--no-verify" && (command == "generate" || command == "check")) {
      options.verify = false;
    } else if (command == "audit" && arg == "--json") {
      options.json = true;
    } else if (command == "audit" && arg == "--width") {
      options.width = parse_width(value());
    } else if (command == "audit" && arg == "--diff") {
      options.diff_ref = value();
      if (options.diff_ref.empty()) {
        throw UsageError{"--diff needs a git ref or a folder, not an empty string"};
      }
    } else if (command == "audit" && arg == "--mca") {
      options.mca = true;
      if (i + 1 < args.size() && args[i + 1].rfind("-", 0) != 0) {
        const std::string& list = args[++i];
        for (std::size_t start = 0; start <= list.size();) {
          const std::size_t end = std::min(list.find(',', start), list.size());
          if (end > start) options.mca_cpus.push_back(list.substr(start, end - start));
          start = end + 1;
        }
      }
    } else if (command == "audit" && arg == "--entry") {
      options.entry = value();
    } else if ((command == "prove-encoding" || command == "audit") && arg == "--kernel") {
      options.kernel = value();
    } else if (command == "prove-encoding" && arg.rfind("-", 0) != 0 && options.object.empty()) {
      options.object = arg;
    } else if (arg == "--help" || arg == "-h") {
      options.command = "help";
    } else {
      throw UsageError{"unknown option '" + arg + "' for '" + command + "'"};
    }
  }
  if (command == "prove-encoding" && (options.kernel.empty() || options.object.empty())) {
    throw UsageError{"prove-encoding needs --kernel NAME and an object file"};
  }
  return options;
}

// Every kernel through every pass and writer; the manifest last.
std::vector<writers::GeneratedFile> generate_files(bool verify, bool report) {
  const auto kernels = pipeline::generate_kernels(
      verify, [report](const std::string& kernel, const std::string& summary) {
        if (report) fmt::print("{}: {}\n", kernel, summary);
      });
  return pipeline::output_files(kernels);
}

// A file spongegen was pointed at, read whole, or why it could not be: missing, not a regular
// file (a folder in its place), or unreadable, with the system's reason.
struct FileRead {
  enum class Problem { none, missing, not_a_file, unreadable };
  Problem problem = Problem::none;
  std::string contents;
  std::string reason;  // for a problem: what the system said, in words
};

FileRead read_file(const fs::path& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found) {
    return {FileRead::Problem::missing, {}, "no such file"};
  }
  if (error) return {FileRead::Problem::unreadable, {}, error.message()};
  if (fs::is_directory(status)) return {FileRead::Problem::not_a_file, {}, "a folder"};
  if (!fs::is_regular_file(status))
    return {FileRead::Problem::not_a_file, {}, "not a regular file"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return {FileRead::Problem::unreadable, {}, std::strerror(errno)};
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return {FileRead::Problem::unreadable, {}, std::strerror(errno)};
  return {FileRead::Problem::none, contents.str(), {}};
}

// A file the user named that cannot be used, or does not parse: the message names it and
// the reason; exit 1.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string describe(const fs::path& path, const FileRead& read) {
  return path.string() + ": " + read.reason;
}

int command_generate(const Options& options) {
  const auto files = generate_files(options.verify, true);
  const auto entries = writers::write_folder(options.dir, files);
  for (std::size_t i = 0; i < files.size(); ++i) {
    const writers::FileChange change = entries[i].change;
    const char* status = change == writers::FileChange::created   ? "new"
                         : change == writers::FileChange::changed ? "changed"
                                                                  : "unchanged";
    fmt::print("{:<10} {} ({} bytes, sha256 {})\n", status, entries[i].path.string(),
               files[i].contents.size(), writers::sha256_hex(files[i].contents).substr(0, 16));
  }
  return 0;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

// Prints up to `limit` differing lines of expected vs actual.
void print_first_differences(const std::string& name, const std::string& expected,
                             const std::string& actual) {
  constexpr int kLimit = 5;
  const auto want = split_lines(expected), have = split_lines(actual);
  int shown = 0;
  for (std::size_t i = 0; i < std::max(want.size(), have.size()) && shown < kLimit; ++i) {
    const std::string* w = i < want.size() ? &want[i] : nullptr;
    const std::string* h = i < have.size() ? &have[i] : nullptr;
    if (w && h && *w == *h) continue;
    fmt::print("  {}:{}\n    generator: {}\n    on disk:   {}\n", name, i + 1,
               w ? *w : "<end of file>", h ? *h : "<end of file>");
    ++shown;
  }
  if (shown == 0) fmt::print("  {}: the lines agree but the bytes differ (line ends?)\n", name);
}

int command_check(const Options& options) {
  const auto files = generate_files(options.verify, false);
  int differences = 0;
  std::map<std::string, bool> expected_names;
  for (const auto& file : files) {
    expected_names[file.name] = true;
    const fs::path path = options.dir / file.name;
    const FileRead on_disk = read_file(path);
    switch (on_disk.problem) {
      case FileRead::Problem::missing:
        fmt::print("missing: {} (the generator writes it)\n", path.string());
        ++differences;
        break;
      case FileRead::Problem::not_a_file:
        fmt::print("not a file: {} ({})\n", path.string(), on_disk.reason);
        ++differences;
        break;
      case FileRead::Problem::unreadable:
        fmt::print("unreadable: {} ({})\n", path.string(), on_disk.reason);
        ++differences;
        break;
      case FileRead::Problem::none:
        if (on_disk.contents != file.contents) {
          fmt::print("differs: {}\n", path.string());
          print_first_differences(file.name, file.contents, on_disk.contents);
          ++differences;
        }
        break;
    }
  }
  if (fs::is_directory(options.dir)) {
    std::vector<std::string> extra;
    for (const auto& entry : fs::directory_iterator(options.dir)) {
      const std::string name = entry.path().filename().string();
      if (!expected_names.count(name)) extra.push_back(name);
    }
    std::sort(extra.begin(), extra.end());
    for (const auto& name : extra) {
      fmt::print("extra: {} (the generator does not write it)\n", (options.dir / name).string());
      ++differences;
    }
  }
  if (differences != 0) {
    fmt::print("spongegen check: {} difference(s) in {}; run scripts/regen\n", differences,
               options.dir.string());
    return 1;
  }
  fmt::print("spongegen check: {} files in {} match the generator byte for byte\n", files.size(),
             options.dir.string());
  return 0;
}

int command_list() {
  for (const kernels::KernelSpec& spec : kernels::all_kernels()) {
    const kernels::BuiltKernel kernel = spec.build();
    std::string features;
    for (const CpuFeature& feature : spec.cpu_features)
      features.append(features.empty() ? "" : " ").append(feature.name);
    fmt::print("{} ({}, needs {}, {}): {} instructions\n", spec.name, isa_name(spec.isa), features,
               spec.file_name, kernel.program.instruction_count());
    for (const Function& function : kernel.program.functions) {
      fmt::print("  {:<46} {}\n", function.symbol, entry_shape_line(function.shape));
    }
  }
  return 0;
}

const kernels::KernelSpec& find_kernel(const std::string& name) {
  for (const kernels::KernelSpec& spec : kernels::all_kernels()) {
    if (spec.name == name) return spec;
  }
  std::string known;
  for (const kernels::KernelSpec& spec : kernels::all_kernels())
    known += " " + spec.name;
  throw UsageError{"no kernel named '" + name + "' (kernels:" + known + ")"};
}

// The standard output of a shell command, or nothing if it fails.
std::optional<std::string> run_capture(const std::string& command) {
  FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");
  if (pipe == nullptr) throw GenerationError("cannot run: " + command);
  std::string text;
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    text.append(buffer, n);
  if (pclose(pipe) != 0) return std::nullopt;
  return text;
}

// The committed text of `file` at a git ref, or in a folder; nothing if it is not there. A
// reference file that is there but cannot be read is an InputError, not a new kernel.
std::optional<std::string> committed_text(const std::string& ref, const std::string& file) {
  if (fs::is_directory(ref)) {
    const fs::path path = fs::path(ref) / file;
    const FileRead read = read_file(path);
    if (read.problem == FileRead::Problem::missing) return std::nullopt;
    if (read.problem != FileRead::Problem::none) {
      throw InputError("reference " + describe(path, read));
    }
    return read.contents;
  }
  const fs::path repository = fs::path(SPONGEGEN_DEFAULT_DIR).parent_path();
  for (char c : ref) {
    if (!std::isalnum(static_cast<unsigned char>(c)) &&
        std::string_view("-_./~^@").find(c) == std::string_view::npos) {
      throw UsageError{"'" + ref + "' is neither a folder nor a plausible git ref"};
    }
  }
  const std::string git = "git -C '" + repository.string() + "' ";
  if (!run_capture(git + "rev-parse --verify --quiet '" + ref + "^{commit}'")) {
    throw UsageError{"'" + ref + "' is neither a folder nor a commit of " + repository.string()};
  }
  return run_capture(git + "show '" + ref + ":generated/" + file + "'");
}

// The reference copy of a kernel's .S file, parsed; a malformed one names its file and line.
Program read_reference(const std::string& text, const std::string& ref,
                       const kernels::KernelSpec& spec) {
  const std::string where = fs::is_directory(ref) ? (fs::path(ref) / spec.file_name).string()
                                                  : ref + ":generated/" + spec.file_name;
  try {
    return readers::read_gas(text, spec.name);
  } catch (const GenerationError& error) {
    throw InputError("reference " + where + " is malformed: " + error.what());
  }
}

int command_audit(const Options& options) {
  std::vector<std::pair<Program, audit::KernelAudit>> now, before;
  std::vector<audit::KernelAudit> audits;
  std::vector<std::string> invariant_lines;
  for (const kernels::KernelSpec& spec : kernels::all_kernels()) {
    Program program = spec.build().program;
    audits.push_back(audit::audit_program(program, options.width));
    const auto problems = audit::check_invariants(program);
    invariant_lines.push_back(fmt::format(
        "{}: invariants (secret-independent addresses and "
        "branches, stack inside the frame, saves paired, Windows unwind codes match the CFI): {}",
        spec.name, problems.empty() ? "all hold" : "BROKEN"));
    for (const auto& problem : problems)
      invariant_lines.push_back("  " + problem);
    if (!options.diff_ref.empty()) {
      if (const auto text = committed_text(options.diff_ref, spec.file_name)) {
        Program old = read_reference(*text, options.diff_ref, spec);
        audit::KernelAudit old_audit = audit::audit_program(old, options.width);
        before.emplace_back(std::move(old), std::move(old_audit));
      }
      now.emplace_back(std::move(program), audits.back());
    }
  }
  if (!options.diff_ref.empty()) {
    const std::string diff = audit::format_diff(before, now);
    fmt::print("{}", diff.empty() ? "no kernel changed against " + options.diff_ref + "\n" : diff);
    return 0;
  }
  if (options.mca) {
    bool found = false;
    for (const kernels::KernelSpec& spec : kernels::all_kernels()) {
      if (!options.kernel.empty() && spec.name != options.kernel) continue;
      const Program program = spec.build().program;
      std::size_t function = 0;
      if (!options.entry.empty()) {
        while (function < program.functions.size() &&
               program.functions[function].symbol != options.entry) {
          ++function;
        }
        if (function == program.functions.size()) continue;
      }
      found = true;
      const std::vector<std::string> cpus =
          options.mca_cpus.empty() ? audit::default_mca_cpus(program.isa) : options.mca_cpus;
      fmt::print("kernel {} ({})\n{}", spec.name, program.isa == Isa::amd64 ? "amd64" : "arm64",
                 audit::format_mca(program, function, cpus));
    }
    if (!found) {
      throw UsageError{options.entry.empty()
                           ? "audit --kernel: no kernel named '" + options.kernel + "'"
                           : "audit --entry: no entry named '" + options.entry + "'" +
                                 (options.kernel.empty() ? "" : " in kernel " + options.kernel)};
    }
    return 0;
  }
  if (options.json) {
    fmt::print("{}", audit::format_json(audits));
  } else {
    fmt::print("{}", audit::format_table(audits));
    for (const auto& line : invariant_lines)
      fmt::print("{}\n", line);
  }
  return 0;
}

int command_prove_encoding(const Options& options) {
  const kernels::KernelSpec& spec = find_kernel(options.kernel);
  const FileRead object = read_file(options.object);
  if (object.problem != FileRead::Problem::none) {
    throw InputError("cannot read the object " + describe(options.object, object));
  }
  const audit::ProofResult result = audit::prove_encoding(spec.build().program, object.contents);
  for (const auto& mismatch : result.mismatches)
    fmt::print("mismatch: {}\n", mismatch);
  fmt::print(
      "{}: {} functions, {} bytes compared ({} relocated bytes masked): {}\n", spec.name,
      result.functions_compared, result.bytes_compared, result.relocation_bytes_masked,
      result.mismatches.empty() && result.functions_compared > 0 ? "identical" : "DIFFERENT");
  return result.mismatches.empty() && result.functions_compared > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = parse_arguments(argc, argv);
    if (options.command == "help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (options.command == "generate") return command_generate(options);
    if (options.command == "check") return command_check(options);
    if (options.command == "audit") return command_audit(options);
    if (options.command == "prove-encoding") return command_prove_encoding(options);
    return command_list();
  } catch (const UsageError& error) {
    fmt::print(stderr, "spongegen: {}\n\n{}", error.message, kUsage);
    return 2;
  } catch (const InputError& error) {
    fmt::print(stderr, "spongegen: {}\n", error.what());
    return 1;
  } catch (const GenerationError& error) {
    fmt::print(stderr, "spongegen: generation failed: {}\n", error.what());
    return 1;
  } catch (const std::exception& error) {
    fmt::print(stderr, "spongegen: {}\n", error.what());
    return 1;
  }
}
