// Runs the spongegen executable of this build, for tests of its exit status and messages, or
// another program (an assembler).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace spongegen_test {

struct ProcessResult {
  bool exited = false;  // false: ended by a signal (a crash)
  int exit_status = -1;
  std::string output;  // stdout and stderr together
};

// Runs command_line[0] with the other arguments (no shell in between).
ProcessResult run_process(const std::vector<std::string>& command_line);
ProcessResult run_spongegen(const std::vector<std::string>& arguments);

// A new empty folder under the system's temporary folder, removed by the destructor.
class TemporaryFolder {
 public:
  explicit TemporaryFolder(const std::string& purpose);
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::string read_binary_file(const std::filesystem::path& path);
void write_binary_file(const std::filesystem::path& path, const std::string& contents);

}  // namespace spongegen_test
