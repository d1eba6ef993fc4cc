// Replays a fuzz target's committed corpus without libFuzzer, so every build runs each seed
// through the target's checks: GCC, the sanitizer build, and the aarch64 cross build under
// qemu (where libFuzzer does not run, and arm64-sha3 gets these checks only here).
//   <target>_replay CORPUS_FOLDER
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_FOLDER\n", argv[0]);
    return 2;
  }
  const std::filesystem::path folder = argv[1];
  std::vector<std::filesystem::path> inputs;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    if (entry.is_regular_file()) inputs.push_back(entry.path());
  }
  if (error || inputs.empty()) {
    std::fprintf(stderr, "%s: no corpus files in %s%s%s\n", argv[0], folder.string().c_str(),
                 error ? ": " : "", error ? error.message().c_str() : "");
    return 1;
  }
  std::sort(inputs.begin(), inputs.end());  // the same order on every run
  LLVMFuzzerInitialize(&argc, &argv);
  for (const auto& path : inputs) {
    std::ifstream file(path, std::ios::binary);
    const std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(file)),
                                         std::istreambuf_iterator<char>());
    if (!file.good() && !file.eof()) {
      std::fprintf(stderr, "%s: cannot read %s\n", argv[0], path.string().c_str());
      return 1;
    }
    LLVMFuzzerTestOneInput(data.data(), data.size());  // a failed check aborts
  }
  std::printf("%s: replayed %zu inputs from %s\n", argv[0], inputs.size(), folder.string().c_str());
  return 0;
}
