// Writing generate's files into their folder all or nothing: a run that fails part way
// must not leave a .S file of the new version next to a manifest.json of the old one.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "writers/manifest.hpp"

namespace spongegen::writers {

enum class FileChange { unchanged, changed, created };

struct FolderEntry {
  std::filesystem::path path;
  FileChange change;
};

// Where `name` is written before it is renamed into place: in the same folder, so the
// rename never crosses a file system.
std::filesystem::path temporary_path(const std::filesystem::path& folder, const std::string& name);

// Writes every changed or new file to its temporary path, then, only when all of them were
// written, renames each into place. A failure before the renames throws GenerationError,
// removes the temporary files and leaves the folder's files as they were. Unchanged files
// are not touched.
std::vector<FolderEntry> write_folder(const std::filesystem::path& folder,
                                      const std::vector<GeneratedFile>& files);

}  // namespace spongegen::writers
