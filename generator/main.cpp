// spongegen: writes the sponge permutation kernels under generated/ and checks them.
//
//   spongegen generate [--out DIR] [--no-verify]   write every kernel and manifest.json
//   spongegen check [--dir DIR] [--no-verify]      regenerate in memory, compare byte for byte
//   spongegen list                                 the kernels and their entries
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/kernel.hpp"
#include "verify/jit_verify.hpp"
#include "writers/asmjit_encoder.hpp"
#include "writers/gas_writer.hpp"
#include "writers/manifest.hpp"

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
};

Options parse_arguments(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) throw UsageError{"no command given"};
  Options options;
  options.command = args[0];
  if (options.command == "--help" || options.command == "-h" || options.command == "help") {
    options.command = "help";
    return options;
  }
  if (options.command != "generate" && options.command != "check" && options.command != "list") {
    throw UsageError{"unknown command '" + options.command + "'"};
  }
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool takes_dir = (options.command == "generate" && arg == "--out") ||
                           (options.command == "check" && arg == "--dir");
    if (takes_dir) {
      if (i + 1 == args.size()) throw UsageError{arg + " needs a directory"};
      options.dir = args[++i];
    } else if (arg == "--no-verify" && options.command != "list") {
      options.verify = false;
    } else if (arg == "--help" || arg == "-h") {
      options.command = "help";
    } else {
      throw UsageError{"unknown option '" + arg + "' for '" + options.command + "'"};
    }
  }
  return options;
}

// Every kernel through every writer; the manifest last.
std::vector<writers::GeneratedFile> generate_files(bool verify, bool report) {
  std::vector<writers::WrittenKernel> written;
  for (const kernels::KernelSpec& spec : kernels::all_kernels()) {
    writers::WrittenKernel kernel{&spec, spec.build(), {}, {}};
    if (kernel.kernel.program.file_name != spec.file_name) {
      throw GenerationError("kernel " + spec.name + " names its file " +
                            kernel.kernel.program.file_name + ", the registry " + spec.file_name);
    }
    kernel.encoded = writers::encode(kernel.kernel.program);
    if (verify) {
      const verify::VerifyResult result = verify::verify_against_portable(spec, kernel.kernel);
      if (report) fmt::print("{}: {}\n", spec.name, result.summary);
    }
    kernel.text = writers::write_gas(kernel.kernel.program);
    written.push_back(std::move(kernel));
  }
  std::vector<writers::GeneratedFile> files;
  for (const auto& kernel : written)
    files.push_back({kernel.spec->file_name, kernel.text});
  files.push_back({"manifest.json", writers::write_manifest(written)});
  return files;
}

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

int command_generate(const Options& options) {
  const auto files = generate_files(options.verify, true);
  fs::create_directories(options.dir);
  for (const auto& file : files) {
    const fs::path path = options.dir / file.name;
    const auto old = read_file(path);
    const char* status = !old ? "new" : (*old == file.contents ? "unchanged" : "changed");
    if (!old || *old != file.contents) {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << file.contents;
      if (!out.flush()) throw GenerationError("cannot write " + path.string());
    }
    fmt::print("{:<10} {} ({} bytes, sha256 {})\n", status, path.string(), file.contents.size(),
               writers::sha256_hex(file.contents).substr(0, 16));
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
    const auto on_disk = read_file(options.dir / file.name);
    if (!on_disk) {
      fmt::print("missing: {} (the generator writes it)\n", (options.dir / file.name).string());
      ++differences;
    } else if (*on_disk != file.contents) {
      fmt::print("differs: {}\n", (options.dir / file.name).string());
      print_first_differences(file.name, file.contents, *on_disk);
      ++differences;
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
    fmt::print("{} ({}, {}): {} instructions\n", spec.name, isa_name(spec.isa), spec.file_name,
               kernel.program.instruction_count());
    for (const auto& entry : kernel.entries) {
      if (entry.absorb_rate_bytes == 0) {
        fmt::print("  {}  permute\n", entry.symbol);
      } else {
        fmt::print("  {}  absorb {} bytes, then permute\n", entry.symbol, entry.absorb_rate_bytes);
      }
    }
  }
  return 0;
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
    return command_list();
  } catch (const UsageError& error) {
    fmt::print(stderr, "spongegen: {}\n\n{}", error.message, kUsage);
    return 2;
  } catch (const GenerationError& error) {
    fmt::print(stderr, "spongegen: generation failed: {}\n", error.what());
    return 1;
  } catch (const std::exception& error) {
    fmt::print(stderr, "spongegen: {}\n", error.what());
    return 1;
  }
}
