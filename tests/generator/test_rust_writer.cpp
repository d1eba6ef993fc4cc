// The Rust writer: the object-format macros resolved as the C preprocessor would, the kernel
// files' global_asm! and declarations, and `spongegen check` over the crate's kernel folder.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "pipeline/generate.hpp"
#include "spongegen_process.hpp"
#include "writers/rust_writer.hpp"

using namespace spongegen;

namespace {

constexpr const char* kText =
    "// header\n"
    "#if defined(__APPLE__)\n"
    "#define SYMBOL(name) _##name\n"
    "#define LOCAL(name) L##name\n"
    "#define HIDDEN(name) .private_extern name\n"
    "#define SEH_ENDPROLOGUE\n"
    "#elif defined(_WIN32)\n"
    "#define SYMBOL(name) name##_sysv\n"
    "#define LOCAL(name) .L##name\n"
    "#define HIDDEN(name)\n"
    "#define SEH_ENDPROLOGUE .seh_endprologue\n"
    "#else\n"
    "#define SYMBOL(name) name\n"
    "#define LOCAL(name) .L##name\n"
    "#define HIDDEN(name) .hidden name\n"
    "#define SEH_ENDPROLOGUE\n"
    "#endif\n"
    "\t.globl SYMBOL(f)\n"
    "\tHIDDEN(SYMBOL(f))\n"
    "SYMBOL(f):\n"
    "\tSEH_ENDPROLOGUE\n"
    "\tjne LOCAL(loop)   // back\n"
    "\n"
    "#if defined(__ELF__)\n"
    "\t.section .note.GNU-stack, \"\", @progbits\n"
    "#endif\n";

const std::string& file_named(const std::vector<writers::GeneratedFile>& files,
                              const std::string& name) {
  for (const writers::GeneratedFile& file : files) {
    if (file.name == name) return file.contents;
  }
  throw std::runtime_error("the generator writes no Rust file " + name);
}

}  // namespace

TEST_CASE("the object-format macros resolve per format as the preprocessor would") {
  CHECK(writers::resolve_object_format(kText, writers::ObjectFormat::elf) ==
        "// header\n"
        "\t.globl f\n"
        "\t.hidden f\n"
        "f:\n"
        "\tjne .Lloop   // back\n"
        "\n"
        "\t.section .note.GNU-stack, \"\", @progbits\n");
  CHECK(writers::resolve_object_format(kText, writers::ObjectFormat::mach_o) ==
        "// header\n"
        "\t.globl _f\n"
        "\t.private_extern _f\n"
        "_f:\n"
        "\tjne Lloop   // back\n"
        "\n");
  CHECK(writers::resolve_object_format(kText, writers::ObjectFormat::coff) ==
        "// header\n"
        "\t.globl f_sysv\n"
        "f_sysv:\n"
        "\t.seh_endprologue\n"
        "\tjne .Lloop   // back\n"
        "\n");
  CHECK_THROWS_AS(writers::resolve_object_format("#include <x>\n", writers::ObjectFormat::elf),
                  GenerationError);
  CHECK_THROWS_AS(writers::resolve_object_format("#if defined(A)\n", writers::ObjectFormat::elf),
                  GenerationError);
}

TEST_CASE("the Rust kernel files: ELF text in global_asm!, C declarations, the module list") {
  const auto files =
      pipeline::rust_output_files(pipeline::generate_kernels(/*verify=*/false, /*prove=*/false));
  REQUIRE(files.size() == 9);
  const std::string& bmi2 = file_named(files, "keccakf1600_amd64_bmi2.rs");
  CHECK(bmi2.rfind(writers::kRustGeneratedMark, 0) == 0);
  CHECK(bmi2.find("\ncore::arch::global_asm!(\n    \"\\t.text\",\n") != std::string::npos);
  CHECK(bmi2.find("    \"\\t.hidden sponge_keccakf1600_amd64_bmi2\",\n") != std::string::npos);
  CHECK(bmi2.find("    \"\\t.type sponge_keccakf1600_amd64_bmi2, @function\",\n") !=
        std::string::npos);
  CHECK(bmi2.find("pub fn sponge_keccakf1600_amd64_bmi2_absorb136(state: *mut u64, block: "
                  "*const u8);") != std::string::npos);
  // Nothing for the preprocessor, no Windows entry, no syntax switch global_asm! warns at.
  for (const char* absent :
       {"SYMBOL(", "LOCAL(", "#if", "#define", "_sysv", "seh_", ".intel_syntax", "WIN64"})
    CHECK_MESSAGE(bmi2.find(absent, bmi2.find("core::arch::global_asm!(")) == std::string::npos,
                  absent);
  // global_asm! reads braces as placeholders: ld1r's register list is doubled.
  CHECK(file_named(files, "keccakf1600_arm64_sha3.rs").find("\"\\tld1r {{v31.2d}}, [x10], #8\",") !=
        std::string::npos);
  CHECK(file_named(files, "ascon_p320_amd64_bmi2.rs")
            .find("pub fn sponge_ascon_p320_amd64_bmi2_encrypt(state: *mut u64, input: *const "
                  "u8, out: *mut u8, block_count: usize);") != std::string::npos);
  const std::string& modules = file_named(files, "mod.rs");
  CHECK(modules.find("#[cfg(all(target_arch = \"aarch64\", unix, not(target_vendor = "
                     "\"apple\")))]\npub mod keccakf1600_arm64_sha3;\n") != std::string::npos);
  CHECK(modules.find("avx512_x4") == std::string::npos);  // its spec asks for no Rust file
}

// Six runs of spongegen over the whole tree: generated_up_to_date (the Rust folder
// included) and generated_check_detects_* take the same paths once each, so the builds
// other than Release leave this suite out (label whole-tree, docs/testing.md).
TEST_CASE("spongegen check covers the Rust folder: a changed, missing or stray generated file" *
          doctest::test_suite("whole-tree")) {
  namespace fs = std::filesystem;
  spongegen_test::TemporaryFolder folder("rust-check");
  const fs::path out = folder.path() / "generated", rust = folder.path() / "kernels";
  const auto run = [](const std::vector<std::string>& arguments) {
    return spongegen_test::run_spongegen(arguments);
  };
  REQUIRE(run({"generate", "--out", out.string(), "--rust-out", rust.string(), "--no-verify",
               "--no-prove"})
              .exit_status == 0);
  const std::vector<std::string> check = {"check",       "--dir",       out.string(), "--rust-dir",
                                          rust.string(), "--no-verify", "--no-prove"};
  CHECK(run(check).exit_status == 0);
  // A file not generated by spongegen is not the generator's.
  spongegen_test::write_binary_file(rust / "notes.txt", "hand-written\n");
  CHECK(run(check).exit_status == 0);

  const fs::path file = rust / "keccakf1600_amd64_bmi2.rs";
  const std::string original = spongegen_test::read_binary_file(file);
  std::string changed = original;
  changed[changed.find("rorx ") + 1] ^= 1;
  spongegen_test::write_binary_file(file, changed);
  auto result = run(check);
  CHECK(result.exit_status == 1);
  CHECK(result.output.find("differs: " + file.string()) != std::string::npos);

  fs::remove(file);
  result = run(check);
  CHECK(result.exit_status == 1);
  CHECK(result.output.find("missing: " + file.string()) != std::string::npos);

  spongegen_test::write_binary_file(file, original);
  spongegen_test::write_binary_file(rust / "stray.rs",
                                    std::string(writers::kRustGeneratedMark) + "\n");
  result = run(check);
  CHECK(result.exit_status == 1);
  CHECK(result.output.find("extra: " + (rust / "stray.rs").string()) != std::string::npos);
}

TEST_CASE("spongegen prove checks that each Rust file holds the proven .S text") {
  namespace fs = std::filesystem;
  spongegen_test::TemporaryFolder folder("rust-prove");
  const fs::path rust = folder.path() / "kernels";
  fs::create_directories(rust);
  const fs::path committed = fs::path(SPONGEGEN_GENERATED_DIR).parent_path() / "rust" / "src" /
                             "kernels" / "ascon_p320_arm64.rs";
  std::string text = spongegen_test::read_binary_file(committed);
  spongegen_test::write_binary_file(rust / "ascon_p320_arm64.rs", text);
  const std::vector<std::string> prove = {"prove",      "--dir",       SPONGEGEN_GENERATED_DIR,
                                          "--rust-dir", rust.string(), "--kernel",
                                          "ascon-arm64"};
  auto result = spongegen_test::run_spongegen(prove);
  CHECK(result.exit_status == 0);
  CHECK(result.output.find("its global_asm! is the proven ascon_p320_arm64.S") !=
        std::string::npos);

  // One instruction changed in the Rust file only: the .S file still proves, the Rust one
  // no longer holds it.
  text[text.find("\\teor ") + 2] = 'o';  // \teor becomes \toor
  spongegen_test::write_binary_file(rust / "ascon_p320_arm64.rs", text);
  result = spongegen_test::run_spongegen(prove);
  CHECK(result.exit_status == 1);
  CHECK(result.output.find("FAILED  " + (rust / "ascon_p320_arm64.rs").string()) !=
        std::string::npos);
}
