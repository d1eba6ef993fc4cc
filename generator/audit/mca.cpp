#include "audit/mca.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>

#include "audit/semantics.hpp"
#include "isa/target.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::audit {
namespace {

std::string find_llvm_mca() {
  const char* path = std::getenv("PATH");
  std::string directories = path != nullptr ? path : "/usr/bin";
  for (const char* name : {"llvm-mca-14", "llvm-mca"}) {
    std::size_t start = 0;
    while (start <= directories.size()) {
      const std::size_t end = std::min(directories.find(':', start), directories.size());
      const std::filesystem::path candidate =
          std::filesystem::path(directories.substr(start, end - start)) / name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
      start = end + 1;
    }
  }
  throw GenerationError(
      "audit --mca: no llvm-mca-14 or llvm-mca on PATH (Debian: apt-get install llvm-14)");
}

std::string run(const std::string& command) {
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) throw GenerationError("audit --mca: cannot run " + command);
  std::string output;
  std::array<char, 4096> buffer{};
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe))
    output.append(buffer.data(), n);
  ::pclose(pipe);
  return output;
}

std::optional<double> field(const std::string& output, const std::string& name) {
  const std::regex pattern(name + R"(:\s+([0-9.]+))");
  std::smatch match;
  if (!std::regex_search(output, match, pattern)) return std::nullopt;
  return std::stod(match[1].str());
}

}  // namespace

std::vector<std::string> default_mca_cpus(Isa isa) {
  return target(isa).default_mca_cpus();
}

std::string mca_snippet(const Program& program, std::size_t function, int& rounds) {
  std::string text;
  for (const std::string_view line : target(program.isa).gas_syntax_lines())
    text += std::string(line) + "\n";
  std::set<std::string> labels;
  const std::regex local(R"(LOCAL\(([A-Za-z0-9_]+)\))");
  rounds = 0;
  walk_entry(program, function, [&](const Step& step) {
    if (const auto* marker = std::get_if<RoundMarker>(step.item)) {
      if (marker->begin) ++rounds;
      return;
    }
    const auto* instruction = std::get_if<Instruction>(step.item);
    if (instruction == nullptr || step.round_index < 0) return;
    const std::string line = writers::format_instruction(program, *instruction);
    for (auto it = std::sregex_iterator(line.begin(), line.end(), local);
         it != std::sregex_iterator(); ++it) {
      labels.insert((*it)[1].str());
    }
    text += std::regex_replace(line, local, ".L$1") + "\n";
  });
  // Labels the rounds refer to (loop targets, constant tables): defined after the snippet,
  // so the assembler resolves them; llvm-mca does not follow branches.
  for (const std::string& label : labels)
    text += ".L" + label + ":\n";
  return text;
}

McaEstimate run_llvm_mca(const Program& program, std::size_t function, const std::string& cpu) {
  McaEstimate estimate;
  estimate.cpu = cpu;
  const std::string snippet = mca_snippet(program, function, estimate.rounds);
  char path[] = "/tmp/spongegen-mca-XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) throw GenerationError("audit --mca: cannot create a temporary file");
  ::close(fd);
  {
    std::ofstream out(path);
    out << snippet;
  }
  const std::string triple(target(program.isa).gnu_triple());
  const std::string_view isa_attributes = target(program.isa).mca_attributes();
  const std::string attributes =
      isa_attributes.empty() ? std::string() : fmt::format(" {}", isa_attributes);
  constexpr int kIterations = 20;
  const std::string output =
      run(fmt::format("{} -mtriple={} -mcpu={}{} -iterations={} {} 2>&1", find_llvm_mca(), triple,
                      cpu, attributes, kIterations, path));
  std::filesystem::remove(path);
  const auto cycles = field(output, "Total Cycles");
  const auto bound = field(output, "Block RThroughput");
  if (output.find("not a recognized processor") != std::string::npos) {
    // A misspelt core model is the caller's mistake, not a row of figures: say so and stop.
    throw std::invalid_argument(fmt::format(
        "audit --mca: llvm-mca has no core model '{}' for {} ({} -mtriple={} -mcpu=help "
        "lists them)",
        cpu, target(program.isa).name(), find_llvm_mca(), triple));
  }
  if (!cycles || !bound) {
    estimate.problem = output.substr(0, output.find('\n'));
    return estimate;
  }
  estimate.ok = true;
  estimate.cycles = *cycles / kIterations;
  estimate.block_rthroughput = *bound;
  return estimate;
}

std::string format_mca(const Program& program, std::size_t function,
                       const std::vector<std::string>& cpus) {
  std::string text = fmt::format(
      "  {} (llvm-mca, modelled, not measured: the rounds of one call, repeated)\n"
      "    {:<16} {:>14} {:>16} {:>18}\n",
      program.functions.at(function).symbol, "core model", "cycles/round", "cycles, rounds",
      "resource bound");
  for (const std::string& cpu : cpus) {
    const McaEstimate estimate = run_llvm_mca(program, function, cpu);
    if (!estimate.ok) {
      text += fmt::format("    {:<16} llvm-mca: {}\n", cpu, estimate.problem);
      continue;
    }
    const double rounds = estimate.rounds > 0 ? estimate.rounds : 1;
    text += fmt::format("    {:<16} {:>14.1f} {:>16.0f} {:>18.0f}\n", cpu, estimate.cycles / rounds,
                        estimate.cycles, estimate.block_rthroughput);
  }
  return text;
}

}  // namespace spongegen::audit
