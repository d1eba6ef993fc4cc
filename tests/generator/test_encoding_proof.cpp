// prove-encoding compares every byte of .text with the Program's layout: a changed byte in a
// function, in a constant table or in the alignment padding makes it exit 1 and name the
// region. Each case flips the low bit of one byte of the committed amd64 kernel as the
// system assembler builds it (SPONGEGEN_TEST_OBJECT).
#include <doctest/doctest.h>

#include <string>

#include "kernels/kernel.hpp"
#include "readers/elf_object.hpp"
#include "spongegen_process.hpp"
#include "writers/asmjit_encoder.hpp"

using namespace spongegen;
using namespace spongegen_test;

namespace {

const kernels::KernelSpec& amd64_bmi2() {
  const kernels::KernelSpec& spec = kernels::all_kernels().front();
  REQUIRE(spec.name == "amd64-bmi2");
  return spec;
}

// prove-encoding's output for the test object with the low bit of .text byte `at` flipped.
ProcessResult prove_with_flipped_bit(std::size_t at) {
  const std::string original = read_binary_file(SPONGEGEN_TEST_OBJECT);
  const std::string text = readers::read_elf_text(original).bytes;
  const std::size_t text_offset = original.find(text);
  REQUIRE(text_offset != std::string::npos);
  REQUIRE(at < text.size());
  std::string object = original;
  object[text_offset + at] = static_cast<char>(object[text_offset + at] ^ 1);
  const TemporaryFolder folder("encoding-proof-regions");
  const auto mutated = folder.path() / "mutated.o";
  write_binary_file(mutated, object);
  return run_spongegen({"prove-encoding", "--kernel", "amd64-bmi2", mutated.string()});
}

void check_caught(const ProcessResult& result, const std::string& mismatch) {
  CAPTURE(result.output);
  REQUIRE(result.exited);
  CHECK(result.exit_status == 1);
  CHECK(result.output.find("mismatch: " + mismatch) != std::string::npos);
  CHECK(result.output.find("DIFFERENT") != std::string::npos);
}

}  // namespace

TEST_CASE("prove-encoding names the function whose byte changed") {
  const writers::EncodedProgram encoded = writers::encode(amd64_bmi2().build().program);
  const writers::EncodedFunction& function = encoded.functions.at(1);
  check_caught(prove_with_flipped_bit(function.offset),
               "function " + function.symbol + ": instruction 0 ");
}

TEST_CASE("prove-encoding compares the constant tables: a round constant's changed bit") {
  const writers::EncodedProgram encoded = writers::encode(amd64_bmi2().build().program);
  REQUIRE(!encoded.tables.empty());
  const writers::EncodedTable& table = encoded.tables.front();
  REQUIRE(table.label == "keccakf1600_amd64_bmi2_round_constants");
  // Round constant 1 is 0x8082: its low byte, 0x82, becomes 0x83.
  check_caught(prove_with_flipped_bit(table.offset + 8), "table " + table.label + ": ");
}

TEST_CASE("prove-encoding checks the alignment padding between functions") {
  const writers::EncodedProgram encoded = writers::encode(amd64_bmi2().build().program);
  std::size_t next = 1;
  while (next < encoded.functions.size() &&
         encoded.functions[next - 1].offset + encoded.functions[next - 1].size ==
             encoded.functions[next].offset) {
    ++next;
  }
  REQUIRE(next < encoded.functions.size());
  const writers::EncodedFunction& before = encoded.functions[next - 1];
  check_caught(prove_with_flipped_bit(before.offset + before.size),
               "alignment padding before function " + encoded.functions[next].symbol + ": ");
}
