// spongegen reads files the user points it at: the committed folder (check --dir), a reference
// folder (audit --diff DIR) and an object (prove-encoding). One that is missing where it must
// be there, a folder in a file's place, another kind of file, or one that does not parse must
// give a message naming the file and the reason, and exit status 1: never "new", never
// "generation failed", never a message that names no file.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "spongegen_process.hpp"

using namespace spongegen_test;
namespace fs = std::filesystem;

namespace {

const fs::path kGenerated = SPONGEGEN_GENERATED_DIR;
constexpr const char* kBmi2File = "keccakf1600_amd64_bmi2.S";

// A copy of the committed folder to damage.
void copy_generated(const fs::path& to) {
  fs::copy(kGenerated, to, fs::copy_options::recursive);
}

void require_failure(const ProcessResult& result, const std::string& expected) {
  INFO(result.output);
  REQUIRE(result.exited);
  CHECK(result.exit_status == 1);
  CHECK(result.output.find(expected) != std::string::npos);
  CHECK(result.output.find("generation failed") == std::string::npos);
}

}  // namespace

TEST_CASE("check names a folder that is not there, before building anything") {
  TemporaryFolder folder("check-no-folder");
  const fs::path absent = folder.path() / "absent";
  require_failure(run_spongegen({"check", "--dir", absent.string()}),
                  "check --dir " + absent.string() + ": no such folder");
  const ProcessResult rust =
      run_spongegen({"check", "--dir", kGenerated.string(), "--rust-dir", absent.string()});
  require_failure(rust, "check --rust-dir " + absent.string() + ": no such folder");
  CHECK(rust.output.find("missing:") == std::string::npos);
}

TEST_CASE("check --dir names a folder in a file's place and a FIFO as not a file") {
  TemporaryFolder folder("check-not-a-file");
  const fs::path dir = folder.path() / "generated";
  copy_generated(dir);
  fs::remove(dir / kBmi2File);
  fs::create_directory(dir / kBmi2File);
  require_failure(run_spongegen({"check", "--no-verify", "--no-prove", "--dir", dir.string()}),
                  "not a file: " + (dir / kBmi2File).string() + " (a folder)");

  fs::remove(dir / kBmi2File);
  REQUIRE(mkfifo((dir / kBmi2File).c_str(), 0600) == 0);
  require_failure(run_spongegen({"check", "--no-verify", "--no-prove", "--dir", dir.string()}),
                  "not a file: " + (dir / kBmi2File).string() + " (not a regular file)");
}

TEST_CASE("check --dir names an unreadable file as unreadable") {
  if (geteuid() == 0) {
    MESSAGE("running as root, which reads any file: the unreadable case cannot be made here");
    return;
  }
  TemporaryFolder folder("check-unreadable");
  const fs::path dir = folder.path() / "generated";
  copy_generated(dir);
  REQUIRE(chmod((dir / kBmi2File).c_str(), 0) == 0);
  require_failure(run_spongegen({"check", "--no-verify", "--no-prove", "--dir", dir.string()}),
                  "unreadable: " + (dir / kBmi2File).string() + " (");
}

TEST_CASE("audit --diff DIR: a folder in place of a reference file is an error, not new") {
  TemporaryFolder folder("diff-not-a-file");
  const fs::path dir = folder.path() / "reference";
  copy_generated(dir);
  fs::remove(dir / kBmi2File);
  fs::create_directory(dir / kBmi2File);
  const ProcessResult result = run_spongegen({"audit", "--diff", dir.string()});
  require_failure(result, "reference " + (dir / kBmi2File).string() + ": a folder");
  CHECK(result.output.find("new entry") == std::string::npos);
  CHECK(result.output.find("not in the reference") == std::string::npos);
}

TEST_CASE("audit --diff DIR: a malformed reference names its file and line") {
  TemporaryFolder folder("diff-malformed");
  const fs::path dir = folder.path() / "reference";
  copy_generated(dir);
  std::string text = read_binary_file(dir / kBmi2File);
  const std::size_t at = text.find("\n\trorx ");
  REQUIRE(at != std::string::npos);
  text.insert(at + 1, "\ta\n");
  write_binary_file(dir / kBmi2File, text);
  require_failure(run_spongegen({"audit", "--diff", dir.string()}),
                  "reference " + (dir / kBmi2File).string() + " is malformed: line ");
}

TEST_CASE("audit --diff DIR: an immediate beyond 64 bits is said to be one") {
  TemporaryFolder folder("diff-immediate");
  const fs::path dir = folder.path() / "reference";
  copy_generated(dir);
  std::string text = read_binary_file(dir / kBmi2File);
  const std::string rorx = "rorx r9, r9, 20";
  const std::size_t at = text.find(rorx);
  REQUIRE(at != std::string::npos);
  text.replace(at, rorx.size(), "rorx r9, r9, 18446744073709551617");
  write_binary_file(dir / kBmi2File, text);
  const ProcessResult result = run_spongegen({"audit", "--diff", dir.string()});
  require_failure(result, "immediate '18446744073709551617' is not a 64-bit integer");
  CHECK(result.output.find("unknown amd64 register") == std::string::npos);
}

TEST_CASE("prove-encoding names a missing object and a folder") {
  TemporaryFolder folder("prove-input");
  const fs::path missing = folder.path() / "absent.o";
  require_failure(run_spongegen({"prove-encoding", "--kernel", "amd64-bmi2", missing.string()}),
                  "cannot read the object " + missing.string() + ": no such file");
  require_failure(
      run_spongegen({"prove-encoding", "--kernel", "amd64-bmi2", folder.path().string()}),
      "cannot read the object " + folder.path().string() + ": a folder");
}
