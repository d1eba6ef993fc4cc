#include "spongegen_process.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace spongegen_test {
namespace {

// Single quotes for the shell: an empty argument stays an argument.
std::string shell_quoted(const std::string& argument) {
  std::string quoted = "'";
  for (char c : argument) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& command_line) {
  // exec, so that a crash reaches pclose as the signal, not as the shell's exit status.
  std::string command = "exec";
  for (const std::string& argument : command_line)
    command += fmt::format(" {}", shell_quoted(argument));
  command += " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot run " + command);
  ProcessResult result;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.exited = WIFEXITED(status);
  result.exit_status = result.exited ? WEXITSTATUS(status) : -1;
  return result;
}

ProcessResult run_spongegen(const std::vector<std::string>& arguments) {
  std::vector<std::string> command_line = {SPONGEGEN_EXECUTABLE};
  command_line.insert(command_line.end(), arguments.begin(), arguments.end());
  return run_process(command_line);
}

TemporaryFolder::TemporaryFolder(const std::string& purpose) {
  std::random_device random;
  path_ = std::filesystem::temp_directory_path() /
          fmt::format("spongegen-test-{}-{}-{}", purpose, getpid(), random());
  std::filesystem::create_directories(path_);
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string read_binary_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

void write_binary_file(const std::filesystem::path& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace spongegen_test
