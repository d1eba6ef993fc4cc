// `spongegen generate` writes its folder all or nothing: when any file cannot be written,
// the files already in the folder stay as they were and no temporary file is left behind.
// The failures are made with folders where files must go, which stop root too.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>

#include "spongegen_process.hpp"
#include "writers/output_folder.hpp"

using namespace spongegen_test;
namespace fs = std::filesystem;

namespace {

std::set<std::string> names_in(const fs::path& folder) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder))
    names.insert(entry.path().filename().string());
  return names;
}

}  // namespace

TEST_CASE("generate leaves the previous files intact when a file cannot be written") {
  const TemporaryFolder folder("generate");
  // The folder a previous run wrote: the committed one, which generated_up_to_date holds to
  // be what a run writes (a copy, where a second run here would double the test's time).
  const fs::path out = folder.path() / "generated";
  fs::copy(SPONGEGEN_GENERATED_DIR, out);
  REQUIRE(names_in(out).count("manifest.json") == 1);

  // A previous version of a kernel, which a successful run would replace.
  const fs::path kernel = out / "keccakf1600_amd64_bmi2.S";
  const std::string previous = read_binary_file(kernel) + "// an older version\n";
  write_binary_file(kernel, previous);
  const std::string previous_arm64 = read_binary_file(out / "keccakf1600_arm64_sha3.S");

  SUBCASE("manifest.json is a folder") {
    fs::remove(out / "manifest.json");
    fs::create_directories(out / "manifest.json" / "occupied");
  }
  SUBCASE("manifest.json's temporary file is a folder") {
    fs::remove(out / "manifest.json");
    fs::create_directories(spongegen::writers::temporary_path(out, "manifest.json") / "occupied");
  }
  const std::set<std::string> before = names_in(out);
  const ProcessResult result =
      run_spongegen({"generate", "--out", out.string(), "--no-verify", "--no-prove"});
  CAPTURE(result.output);
  CHECK(result.exited);
  CHECK(result.exit_status == 1);
  CHECK(result.output.find("manifest.json") != std::string::npos);
  CHECK(read_binary_file(kernel) == previous);
  CHECK(read_binary_file(out / "keccakf1600_arm64_sha3.S") == previous_arm64);
  CHECK(names_in(out) == before);  // no temporary file left behind
}

TEST_CASE(
    "spongegen audit --kernel audits that kernel alone, and refuses a name it does not know") {
  const ProcessResult one = run_spongegen({"audit", "--kernel", "ascon-arm64"});
  REQUIRE(one.exited);
  CHECK(one.exit_status == 0);
  CHECK(one.output.find("kernel ascon-arm64 (arm64)") != std::string::npos);
  CHECK(one.output.find("ascon-arm64: invariants") != std::string::npos);
  CHECK(one.output.find("kernel amd64-bmi2") == std::string::npos);
  CHECK(one.output.find("amd64-bmi2: invariants") == std::string::npos);
  const ProcessResult unknown = run_spongegen({"audit", "--kernel", "nope"});
  REQUIRE(unknown.exited);
  CHECK(unknown.exit_status == 2);
  CHECK(unknown.output.find("no kernel named 'nope' (kernels: amd64-bmi2") != std::string::npos);
  const ProcessResult entry_alone = run_spongegen({"audit", "--entry", "nope"});
  REQUIRE(entry_alone.exited);
  CHECK(entry_alone.exit_status == 2);
  CHECK(entry_alone.output.find("audit --entry goes with --mca") != std::string::npos);
}

TEST_CASE("spongegen audit --mca prints one entry's model, and names an entry it cannot find") {
  const ProcessResult entry = run_spongegen(
      {"audit", "--mca", "znver3", "--entry", "sponge_ascon_p320_amd64_bmi2_absorb_hash"});
  REQUIRE(entry.exited);
  CHECK(entry.exit_status == 0);
  CHECK(entry.output.find("kernel ascon-amd64-bmi2 (amd64)") != std::string::npos);
  CHECK(entry.output.find("sponge_ascon_p320_amd64_bmi2_absorb_hash (llvm-mca, modelled") !=
        std::string::npos);
  CHECK(entry.output.find("    znver3 ") != std::string::npos);
  const ProcessResult missing = run_spongegen({"audit", "--mca", "znver3", "--entry", "nope"});
  REQUIRE(missing.exited);
  CHECK(missing.exit_status == 2);
  CHECK(missing.output.find("audit --entry: no entry named 'nope'") != std::string::npos);
  // The message, and where the usage is, not the usage itself.
  CHECK(missing.output.find("spongegen --help lists the commands") != std::string::npos);
  CHECK(missing.output.find("commands:") == std::string::npos);
  // A core model llvm-mca does not know fails the command, naming it.
  const ProcessResult unknown =
      run_spongegen({"audit", "--mca", "nosuchcpu", "--entry", "sponge_ascon_p320_amd64_bmi2_p12"});
  REQUIRE(unknown.exited);
  CHECK(unknown.exit_status == 1);
  CHECK(unknown.output.find("llvm-mca has no core model 'nosuchcpu' for amd64") !=
        std::string::npos);
}
