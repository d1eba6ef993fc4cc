#include "writers/output_folder.hpp"

#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>

namespace spongegen::writers {
namespace fs = std::filesystem;
namespace {

std::optional<std::string> read_existing(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

void write_file(const fs::path& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  if (!out.flush()) throw GenerationError("cannot write " + path.string());
}

// The temporary files written so far; removes them unless they were all renamed.
class TemporaryFiles {
 public:
  ~TemporaryFiles() {
    for (const fs::path& path : paths_) {
      std::error_code ignored;
      fs::remove(path, ignored);
    }
  }
  void add(fs::path path) { paths_.push_back(std::move(path)); }
  void release() { paths_.clear(); }

 private:
  std::vector<fs::path> paths_;
};

}  // namespace

fs::path temporary_path(const fs::path& folder, const std::string& name) {
  return folder / ("." + name + ".spongegen-tmp");
}

std::vector<FolderEntry> write_folder(const fs::path& folder,
                                      const std::vector<GeneratedFile>& files) {
  fs::create_directories(folder);
  std::vector<FolderEntry> entries;
  std::vector<const GeneratedFile*> to_replace;
  TemporaryFiles temporaries;
  for (const GeneratedFile& file : files) {
    const fs::path path = folder / file.name;
    const auto old = read_existing(path);
    if (old && *old == file.contents) {
      entries.push_back({path, FileChange::unchanged});
      continue;
    }
    // A rename cannot replace a folder: refuse now, while nothing has been replaced.
    if (fs::is_directory(path))
      throw GenerationError("cannot write " + path.string() + ": a folder is there");
    const fs::path temporary = temporary_path(folder, file.name);
    // Added before writing: a partly written temporary file is removed too (a folder in
    // its place is not, since remove() leaves a non-empty folder alone).
    temporaries.add(temporary);
    write_file(temporary, file.contents);
    entries.push_back({path, old ? FileChange::changed : FileChange::created});
    to_replace.push_back(&file);
  }
  for (const GeneratedFile* file : to_replace) {
    std::error_code error;
    fs::rename(temporary_path(folder, file->name), folder / file->name, error);
    if (error) {
      throw GenerationError("cannot rename " + temporary_path(folder, file->name).string() +
                            " to " + file->name + ": " + error.message());
    }
  }
  temporaries.release();
  return entries;
}

}  // namespace spongegen::writers
