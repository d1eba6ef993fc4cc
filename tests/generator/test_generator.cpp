// Unit tests of the generator: the model, the writers and reader, the encoder's errors, the
// audit figures and the invariant checks, each with a case that must be caught.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "ascon/ascon_portable.hpp"  // the runtime's portable substitution layer
#include "audit/audit.hpp"
#include "audit/invariants.hpp"
#include "audit/mca.hpp"
#include "isa/amd64/amd64.hpp"
#include "isa/arm64/arm64.hpp"
#include "isa/target.hpp"
#include "kernels/keccak_entries.hpp"
#include "kernels/kernel.hpp"
#include "kernels/register_clearing.hpp"
#include "model/ascon.hpp"
#include "model/keccak.hpp"
#include "pipeline/generate.hpp"
#include "readers/gas_reader.hpp"
#include "spongegen_process.hpp"
#include "support/splitmix64.hpp"
#include "writers/asmjit_encoder.hpp"
#include "writers/gas_writer.hpp"
#include "writers/manifest.hpp"

using namespace spongegen;

namespace {

// Rounds one turn of a Keccak kernel's loop runs, as its builder declares it in the
// "rounds" option: "loop of 12 x 2 unrolled rounds" -> 2, "loop of 24" -> 1.
// The rounds one turn of the kernel's loop runs, from its "rounds" option: "loop of 12 x 2
// unrolled rounds" is 2.
int rounds_a_turn(const Program& program) {
  for (const auto& [name, value] : program.options) {
    if (name != "rounds") continue;
    int turns = 0, rounds = 0;
    if (std::sscanf(value.c_str(), "loop of %d x %d", &turns, &rounds) == 2) return rounds;
    return 1;
  }
  FAIL("the kernel declares no \"rounds\" option");
  return 0;
}

// Whether the kernel's text is GNU assembler source, which the runtime links (the .S files),
// rather than a module of its own (wasm32's .wat).
bool is_assembler_source(const kernels::KernelSpec& spec) {
  return target(spec.isa).links_into_runtime();
}

// Whether the kernel unrolls all 24 rounds (riscv64): no loop, and rounds whose length
// follows iota's constant.
bool unrolls_every_round(const Program& program) {
  return std::any_of(program.options.begin(), program.options.end(), [](const auto& option) {
    return option.first == "rounds" && option.second.starts_with("24, unrolled");
  });
}

kernels::BuiltKernel build(const std::string& name) {
  for (const auto& spec : kernels::all_kernels()) {
    if (spec.name == name) return spec.build();
  }
  FAIL("no kernel " << name);
  return {};
}

// Every kernel as the generate pipeline leaves it (its header filled in), once per run.
const std::vector<pipeline::GeneratedKernel>& generated_kernels() {
  static const std::vector<pipeline::GeneratedKernel> kernels =
      pipeline::generate_kernels(false, false);
  return kernels;
}

// One kernel's Program as `spongegen generate` writes it, header included.
const Program& generated(const std::string& name) {
  for (const auto& kernel : generated_kernels()) {
    if (kernel.spec->name == name) return kernel.written.program;
  }
  FAIL("no kernel " << name);
  throw std::logic_error("unreachable");
}

// Instructions, CFI and round markers of a Program as text, for comparisons.
std::vector<std::string> listing(const Program& program) {
  std::vector<std::string> lines;
  for (const Function& function : program.functions) {
    lines.push_back("function " + function.symbol);
    for (const Item& item : function.items) {
      if (const auto* instruction = std::get_if<Instruction>(&item)) {
        lines.push_back(writers::format_instruction(program, *instruction));
      } else if (const auto* marker = std::get_if<RoundMarker>(&item)) {
        lines.push_back(writers::round_marker_line(*marker));
      } else if (const auto* cfi = std::get_if<Cfi>(&item)) {
        lines.push_back("cfi " + std::to_string(static_cast<int>(cfi->kind)) + " " +
                        std::to_string(cfi->value) + " " + std::to_string(cfi->reg.index));
      } else if (const auto* label = std::get_if<LabelDef>(&item)) {
        lines.push_back("label " + program.label_names.at(label->id));
      }
    }
  }
  for (const QuadTable& table : program.tables) {
    for (std::uint64_t value : table.values)
      lines.push_back("quad " + std::to_string(value));
  }
  return lines;
}

// Removes the first instruction whose text is `text`; fails the test if there is none.
void remove_instruction(Program& program, const std::string& text) {
  for (Function& function : program.functions) {
    for (auto it = function.items.begin(); it != function.items.end(); ++it) {
      const auto* instruction = std::get_if<Instruction>(&*it);
      if (instruction && writers::format_instruction(program, *instruction) == text) {
        function.items.erase(it);
        return;
      }
    }
  }
  FAIL("no instruction '" << text << "'");
}

// Swaps the first instructions printed as `first` and `second` in `function` of `program`.
void swap_instructions(const Program& program, Function& function, const std::string& first,
                       const std::string& second) {
  auto find = [&](const std::string& text) {
    return std::find_if(function.items.begin(), function.items.end(), [&](const Item& item) {
      const auto* instruction = std::get_if<Instruction>(&item);
      return instruction && writers::format_instruction(program, *instruction) == text;
    });
  };
  const auto a = find(first), b = find(second);
  REQUIRE(a != function.items.end());
  REQUIRE(b != function.items.end());
  std::iter_swap(a, b);
}

Instruction* find_instruction(Program& program, const std::string& text) {
  for (Function& function : program.functions) {
    for (Item& item : function.items) {
      auto* instruction = std::get_if<Instruction>(&item);
      if (instruction && writers::format_instruction(program, *instruction) == text) {
        return instruction;
      }
    }
  }
  return nullptr;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

// The first line of `text` holding `needle`, or "" if there is none.
std::string line_with(const std::string& text, const std::string& needle) {
  for (const std::string& line : split_lines(text)) {
    if (line.find(needle) != std::string::npos) return line;
  }
  return "";
}

bool any_contains(const std::vector<std::string>& problems, const std::string& needle) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& p) { return p.find(needle) != std::string::npos; });
}

}  // namespace

TEST_CASE("the Keccak model: pi and rho cover every lane once, rates as FIPS 202") {
  const keccak::Model& model = keccak::model();
  std::set<int> sources;
  int rotation_sum = 0;
  for (const auto& row : model.chi_rows) {
    for (const keccak::ChiInput& input : row) {
      sources.insert(input.lane);
      CHECK(input.rotation == model.rho_offsets[input.lane]);
      rotation_sum += input.rotation;
    }
  }
  CHECK(sources.size() == 25);
  CHECK(model.chi_rows[0][0].lane == 0);
  CHECK(model.chi_rows[0][1].lane == 6);  // B[1, 0] = rotl(A[1, 1], 44)
  CHECK(model.chi_rows[0][1].rotation == 44);
  CHECK(rotation_sum == 0 + 1 + 62 + 28 + 27 + 36 + 44 + 6 + 55 + 20 + 3 + 10 + 43 + 25 + 39 + 41 +
                            45 + 15 + 21 + 8 + 18 + 2 + 61 + 56 + 14);
  CHECK(model.round_constants[0] == 0x1);
  CHECK(model.round_constants[23] == 0x8000000080008008ull);
  std::vector<int> rates;
  for (const auto& rate : model.rates)
    rates.push_back(rate.bytes);
  CHECK(rates == std::vector<int>{72, 104, 136, 144, 168});
}

TEST_CASE("generation is deterministic and every kernel reads back as it was written") {
  const auto second_run = pipeline::generate_kernels(false, false);
  for (std::size_t k = 0; k < second_run.size(); ++k) {
    const kernels::KernelSpec& spec = *second_run[k].spec;
    CAPTURE(spec.name);
    const pipeline::GeneratedKernel& first = generated_kernels().at(k);
    const std::string text = first.written.text;
    CHECK(text == second_run[k].written.text);
    CHECK(text.find("DO NOT EDIT") != std::string::npos);
    if (is_assembler_source(spec)) CHECK(text.find(".note.GNU-stack") != std::string::npos);
    const Program read = target(spec.isa).read_text(text, spec.name);
    CHECK(read.isa == spec.isa);
    CHECK(listing(read) == listing(first.written.program));
    REQUIRE(read.functions.size() == first.written.program.functions.size());
    for (std::size_t f = 0; f < read.functions.size(); ++f) {
      CHECK(read.functions[f].shape == first.written.program.functions[f].shape);
    }
    // And the read Program encodes to the same bytes.
    CHECK(writers::encode(read).code == writers::encode(first.written.program).code);
  }
}

TEST_CASE("the encoder rejects an invalid instruction, naming kernel, instruction and asmjit") {
  Program program;
  program.isa = Isa::amd64;
  program.kernel_name = "broken-kernel";
  program.functions.push_back(Function{"broken", {}, {}, {}});
  amd64::Emitter e(program, program.functions.back());
  e.mov(amd64::r8, amd64::qword(amd64::rdi));
  // A memory-to-memory xor does not exist; Emitter has no such overload, so build it raw.
  program.functions.back().items.push_back(
      Instruction{Mnemonic::amd64_xor, {amd64::qword(amd64::rdi), amd64::qword(amd64::rsi)}, {}});
  try {
    writers::encode(program);
    FAIL("an invalid instruction was encoded");
  } catch (const GenerationError& error) {
    const std::string message = error.what();
    CHECK(message.find("broken-kernel") != std::string::npos);
    CHECK(message.find("xor qword ptr [rdi], qword ptr [rsi]") != std::string::npos);
    CHECK(message.find("asmjit rejected it") != std::string::npos);
  }
}

TEST_CASE("an instruction of the wrong ISA is refused when it is emitted") {
  Program program;
  program.isa = Isa::amd64;
  program.kernel_name = "mixed";
  program.functions.push_back(Function{"f", {}, {}, {}});
  arm64::Emitter wrong(program, program.functions.back());
  CHECK_THROWS_AS(wrong.ret(), GenerationError);
}

TEST_CASE("audit figures agree with the kernel designs") {
  const auto amd64 = audit::audit_program(build("amd64-bmi2").program, 6);
  const auto& permute = amd64.entries.at(0);
  CHECK(permute.symbol == "sponge_keccakf1600_amd64_bmi2");
  // 185 of the seed design, minus 6 for r13-r15's lanes, plus iota's pointer load.
  CHECK(permute.per_round.total == 180);
  CHECK(permute.per_round.andn == 25);
  CHECK(permute.per_round.stores == 22);  // lanes 13, 17, 21 stay in registers
  // The file holds two rounds (2 x 182 with the loop control: add, lea, cmp, jne); the loop
  // runs them 12 times.
  CHECK(permute.per_permutation.total == permute.static_instructions + 11 * 2 * 182);
  CHECK(permute.frame_bytes == 256);  // 6 pushes + 200-byte scratch + constant pointer
  CHECK(permute.saved_registers ==
        std::vector<std::string>{"rbx", "rbp", "r12", "r13", "r14", "r15"});
  CHECK(permute.issue_bound_cycles == doctest::Approx(permute.per_permutation.total / 6.0));
  CHECK(permute.latency_bound_cycles == 24u * static_cast<unsigned>(permute.round_chain_cycles));
  const auto& absorb136 = amd64.entries.at(3);
  CHECK(absorb136.symbol == "sponge_keccakf1600_amd64_bmi2_absorb136");
  // 17 block lanes read in theta and in chi; its first round reads iota's constant
  // RIP-relative, one load fewer than the loop's pointer.
  CHECK(absorb136.per_permutation.loads == permute.per_permutation.loads + 17 * 2 - 1);
  CHECK(absorb136.per_permutation.branch == permute.per_permutation.branch + 1);  // the jmp
  CHECK(permute.per_permutation.branch == 13);  // twelve loop branches and the ret

  const auto arm64 = audit::audit_program(build("arm64-sha3").program, 6);
  const auto& sha3 = arm64.entries.at(0);
  CHECK(sha3.per_round.total == 69);
  CHECK(sha3.per_round.ternary == 10);
  CHECK(sha3.per_round.andn == 25);
  CHECK(sha3.per_round.rotate == 29);  // 24 xar + 5 rax1
  CHECK(sha3.per_permutation.total == sha3.static_instructions + 23 * 69);
  CHECK(sha3.frame_bytes == 64);
  CHECK(sha3.saved_registers.size() == 8);
  // arm64-scalar: theta 50, chi 25 bic + 25 eor, the searched 14 ror and 10 mov, and iota
  // with the loop (ldp, ldr, str, eor, sub, cbnz).
  const auto scalar_kernel = audit::audit_program(build("arm64-scalar").program, 6);
  const auto& scalar = scalar_kernel.entries.at(0);
  CHECK(scalar.symbol == "sponge_keccakf1600_arm64_scalar");
  CHECK(scalar.per_round.total == 130);
  CHECK(scalar.per_round.andn == 25);
  CHECK(scalar.per_round.rotate == 14);
  CHECK(scalar.per_round.loads == 2);
  CHECK(scalar.per_round.stores == 1);
  CHECK(scalar.per_permutation.total == scalar.static_instructions + 23 * 130);
  CHECK(scalar.frame_bytes == 112);
  CHECK(scalar.saved_registers.size() == 11);  // x19-x28 and x30
  for (const std::string& reg : scalar.registers_used) {
    CHECK(reg != "x18");
    CHECK(reg != "x29");
  }
  const nlohmann::json json = nlohmann::json::parse(audit::format_json({amd64, arm64}));
  CHECK(json["kernels"][1]["entries"][0]["per_round"]["total"] == 69);
  CHECK(json["kernels"][0]["entries"][0]["permutation"] == "keccak-f1600");
  CHECK(json["kernels"][0]["entries"][0]["rounds"] == 24);
}

const audit::EntryAudit& audited_entry(const audit::KernelAudit& kernel, EntryKind kind, int rounds,
                                       int rate_bytes) {
  for (const audit::EntryAudit& entry : kernel.entries) {
    if (entry.shape.kind == kind && entry.shape.rounds == rounds &&
        entry.shape.rate_bytes == rate_bytes) {
      return entry;
    }
  }
  FAIL("no entry with " << rounds << " rounds and rate " << rate_bytes);
  return kernel.entries.front();
}

TEST_CASE("the riscv64 Keccak kernels: one spilled column sum a round, under their budgets") {
  const auto zbb = audit::audit_program(build("riscv64-zbb").program, 6);
  const auto& permute = audited_entry(zbb, EntryKind::permute, 24, 0);
  // Round 0: theta 57 (20 XORs of the sums, C1's sd and ld, 5 rori, 5 XORs, 25 to apply),
  // rho's 24 rori, chi's 25 andn and 25 xor, and iota's xori of 1.
  CHECK(permute.per_round.total == 132);
  CHECK(permute.per_round.loads == 1);
  CHECK(permute.per_round.stores == 1);
  CHECK(permute.per_round.rotate == 29);
  CHECK(permute.per_round.andn == 25);
  CHECK(permute.per_permutation.total == permute.static_instructions);  // unrolled
  // Fewer than the best published RV64 Keccak-f[1600] with Zbb, 3,405 instructions.
  CHECK(permute.per_permutation.total < 3405);
  CHECK(permute.frame_bytes == 128);
  // Without Zbb: rotations of three instructions, three of theta's borrowing a temporary
  // (sd, ld), and the issue's budget of 5,900 a permutation.
  const auto base = audit::audit_program(build("riscv64").program, 6);
  const auto& base_permute = audited_entry(base, EntryKind::permute, 24, 0);
  CHECK(base_permute.per_round.total == 221);
  CHECK(base_permute.per_round.loads == 4);
  CHECK(base_permute.per_round.stores == 4);
  CHECK(base_permute.per_permutation.total <= 5900);
}

TEST_CASE("the 12-round entries run the shared loop half as often") {
  for (const auto& spec : kernels::all_kernels()) {
    if (spec.family != "keccak-p1600") continue;  // Keccak kernels' entries and headers
    CAPTURE(spec.name);
    const auto audited = audit::audit_program(spec.build().program, 6);
    const auto& permute24 = audited_entry(audited, EntryKind::permute, 24, 0);
    const auto& permute12 = audited_entry(audited, EntryKind::permute, 12, 0);
    CHECK(permute12.shape.permutation == "keccak-p1600");
    // A kernel that unrolls all 24 rounds (riscv64: iota's constants are immediates, so
    // rounds differ in length) has no loop to share: its 12-round entries enter the unrolled
    // rounds at round 12, which the proof of every entry checks.
    if (unrolls_every_round(spec.build().program)) {
      CHECK(permute12.frame_bytes == permute24.frame_bytes);
      CHECK(permute12.per_permutation.total < permute24.per_permutation.total);
      continue;
    }
    CHECK(permute12.shape.lanes == permute24.shape.lanes);
    CHECK(permute12.per_round == permute24.per_round);
    CHECK(permute12.loop_overhead * 2 == permute24.loop_overhead);
    CHECK(permute12.latency_bound_cycles * 2 == permute24.latency_bound_cycles);
    CHECK(permute12.frame_bytes == permute24.frame_bytes);
    // Twelve rounds fewer; the 12-round entry's own code adds its branch into the loop
    // (amd64: jmp; arm64: add to the constant pointer, b).
    const int loop_rounds = rounds_a_turn(spec.build().program);
    const bool loops = loop_rounds < keccak::kRounds;
    // per_round is the first round's: with more than one round a turn, the turn's loop test
    // (4 instructions on amd64, 3 rows on wasm32) is in its last round; with one, per_round
    // holds it.
    const bool test_in_last_round = spec.isa == Isa::amd64 || spec.isa == Isa::wasm32;
    const std::uint64_t loop_test =
        test_in_last_round && loops && loop_rounds > 1 ? (spec.isa == Isa::amd64 ? 4 : 3) : 0;
    const std::uint64_t twelve_rounds =
        test_in_last_round && loops
            ? (12 / loop_rounds) * (loop_rounds * permute24.per_round.total + loop_test)
            : 12 * permute24.per_round.total;
    // wasm32: each entry has its loop, and starts it one constant pointer's add further on.
    const std::uint64_t own_code = spec.isa == Isa::amd64 || spec.isa == Isa::wasm32 ? 1 : 2;
    CHECK(permute24.per_permutation.total - twelve_rounds + own_code ==
          permute12.per_permutation.total);
    for (int rate : {136, 168}) {
      const auto& absorb12 = audited_entry(audited, EntryKind::absorb, 12, rate);
      const auto& absorb24 = audited_entry(audited, EntryKind::absorb, 24, rate);
      CHECK(absorb24.per_permutation.loads - absorb12.per_permutation.loads ==
            permute24.per_permutation.loads - permute12.per_permutation.loads);
    }
  }
}

TEST_CASE("a .S file from before entry shapes reads as 24-round entries") {
  for (const auto& spec : kernels::all_kernels()) {
    if (spec.family != "keccak-p1600") continue;  // Keccak kernels' entries and headers
    if (!is_assembler_source(spec)) continue;     // .wat files came after entry shapes
    CAPTURE(spec.name);
    const Program now = spec.build().program;
    const int loop_turns = keccak::kRounds / rounds_a_turn(now);
    std::string old_text;
    for (std::string line : split_lines(writers::write_gas(now))) {
      if (line.find("// entry: ") == 0) continue;
      if (const auto at = line.find(" of the loop ----"); at != std::string::npos) {
        line = line.substr(0, at) + fmt::format(" of the loop, runs {} times ----", loop_turns);
      }
      old_text += line + "\n";
    }
    const Program old = readers::read_gas(old_text, spec.name);
    for (const Function& function : old.functions)
      CHECK(function.shape.rounds == 24);
  }
}

namespace {

// The header's figures of the code come from the audit; `header` is the file's header
// text, so the same check can read a committed file.
// `block_entries`: the multi-state entries that loop over blocks (their own rounds), which
// the header counts apart from the absorb entries that jump into the shared loop.
struct BlockEntryFigures {
  std::size_t largest_instructions = 0;
  std::size_t most_saved = 0;
};

void check_header_figures(const std::string& header, const audit::EntryAudit& permute,
                          std::size_t largest_absorb, const BlockEntryFigures& block_entries,
                          int loop_rounds) {
  CHECK(line_with(header, "  per round ")
            .find(fmt::format("  per round          {}  (", permute.per_round.total)) == 0);
  CHECK(line_with(header, "  per permutation ")
            .find(fmt::format("  per permutation    {}  (", permute.per_permutation.total)) == 0);
  CHECK(line_with(header, "  loop  ") ==
        fmt::format("  loop               {} per {}, {} per permutation",
                    permute.loop_overhead * loop_rounds / keccak::kRounds,
                    loop_rounds == 1 ? "round" : kernels::count_word(loop_rounds) + " rounds",
                    permute.loop_overhead));
  CHECK(line_with(header, "  permute entry ")
            .find(fmt::format("  permute entry      {} instructions, {} bytes",
                              permute.static_instructions, permute.code_bytes)) == 0);
  CHECK(line_with(header, "  absorb entry ")
            .find(fmt::format("  absorb entry       up to {} ", largest_absorb)) == 0);
  std::string frame = fmt::format("  frame              {} bytes, {} registers saved",
                                  permute.frame_bytes, permute.saved_registers.size());
  if (block_entries.largest_instructions > 0) {
    CHECK(line_with(header, "  block entry ")
              .find(fmt::format("  block entry        up to {} ",
                                block_entries.largest_instructions)) == 0);
    frame += fmt::format(" (block entries: {} saved)", block_entries.most_saved);
  }
  CHECK(line_with(header, "  frame  ") == frame);
}

}  // namespace

TEST_CASE("every figure of the code in a kernel's header is the audit's") {
  for (const auto& spec : kernels::all_kernels()) {
    if (spec.family != "keccak-p1600") continue;  // Keccak kernels' entries and headers
    CAPTURE(spec.name);
    const Program& program = generated(spec.name);
    std::string header;
    for (const std::string& line : program.header_lines)
      header += line + "\n";
    CAPTURE(header);
    const auto audited = audit::audit_program(program, audit::kDefaultIssueWidth);
    std::size_t largest_absorb = 0;
    BlockEntryFigures block_entries;
    for (const audit::EntryAudit& entry : audited.entries) {
      if (entry.shape.kind != EntryKind::absorb) continue;
      if (entry.symbol.ends_with("_blocks")) {
        block_entries.largest_instructions =
            std::max(block_entries.largest_instructions, entry.static_instructions);
        block_entries.most_saved = std::max(block_entries.most_saved, entry.saved_registers.size());
      } else {
        largest_absorb = std::max(largest_absorb, entry.static_instructions);
      }
    }
    const auto& permute = audited.entries.at(0);
    const int loop_rounds = rounds_a_turn(program);
    check_header_figures(header, permute, largest_absorb, block_entries, loop_rounds);
    if (permute.shape.lanes > 1) {
      CHECK(header.find(fmt::format("({} states: {:.1f} a state;", permute.shape.lanes,
                                    double(permute.per_round.total) / permute.shape.lanes)) !=
            std::string::npos);
    } else if (spec.isa == Isa::amd64) {
      CHECK(header.find(fmt::format("costs {}\ninstructions per {} rounds",
                                    permute.loop_overhead * loop_rounds / keccak::kRounds,
                                    kernels::count_word(loop_rounds))) != std::string::npos);
      CHECK(header.find(fmt::format("chain\nbound is {} cycles a round",
                                    permute.round_chain_cycles)) != std::string::npos);
      CHECK(header.find(fmt::format("gathered by the last chi row  {}  permute",
                                    permute.per_round.total)) != std::string::npos);
    } else if (spec.isa == Isa::arm64 && !unrolls_every_round(program)) {
      CHECK(header.find(fmt::format("loop costs {} instructions a round",
                                    permute.loop_overhead / keccak::kRounds)) != std::string::npos);
      CHECK(header.find(fmt::format("keeps the rounds in {} bytes", permute.per_round.total * 4)) !=
            std::string::npos);
      CHECK(header.find(", no frame,") == std::string::npos);  // the seed's kernel has one
    }
  }
}

TEST_CASE("audit --diff shows a changed instruction under its round") {
  const Program before = build("amd64-bmi2").program;
  Program after = before;
  Instruction* rotate = find_instruction(after, "rorx r9, r9, 20");
  REQUIRE(rotate != nullptr);
  rotate->operands[2] = Imm{21};
  const std::string diff = audit::format_diff({{before, audit::audit_program(before, 6)}},
                                              {{after, audit::audit_program(after, 6)}});
  CHECK(diff.find("round 0 (loop): 2 line(s) changed") != std::string::npos);
  CHECK(diff.find("- rorx r9, r9, 20") != std::string::npos);
  CHECK(diff.find("+ rorx r9, r9, 21") != std::string::npos);
  CHECK(audit::format_diff({{before, audit::audit_program(before, 6)}},
                           {{before, audit::audit_program(before, 6)}})
            .empty());
}

// The .S files committed before the round markers existed (before the audit) read back
// with no rounds: their per-round figures, and the executed counts of their loops, cannot
// be known, and must not show as 0.
TEST_CASE("audit --diff against a .S without round markers says unknown, not 0") {
  for (const auto& spec : kernels::all_kernels()) {
    if (spec.family != "keccak-p1600") continue;  // Keccak kernels' entries and headers
    if (!is_assembler_source(spec)) continue;     // .wat files came after round markers
    CAPTURE(spec.name);
    const Program now = spec.build().program;
    std::string old_text;
    for (const std::string& line : split_lines(writers::write_gas(now))) {
      if (line.find("// ---- round") == std::string::npos &&
          line.find("// ---- end of round") == std::string::npos) {
        old_text += line + "\n";
      }
    }
    const Program old = readers::read_gas(old_text, spec.name);
    const auto now_audit = audit::audit_program(now, 6);
    const std::string diff =
        audit::format_diff({{old, audit::audit_program(old, 6)}}, {{now, now_audit}});
    CAPTURE(diff);
    const auto& permute = now_audit.entries.at(0);
    CHECK(line_with(diff, "per round instructions") == fmt::format("    {:<28} unknown -> {}",
                                                                   "per round instructions",
                                                                   permute.per_round.total));
    if (unrolls_every_round(now)) {
      // No loop: what one call executes is known without the markers, and unchanged.
      CHECK(line_with(diff, "per permutation instructions").empty());
    } else {
      CHECK(line_with(diff, "per permutation instructions") ==
            fmt::format("    {:<28} unknown -> {}", "per permutation instructions",
                        permute.per_permutation.total));
    }
    CHECK(line_with(diff, "round chain cycles").find("unknown -> ") != std::string::npos);
    CHECK(diff.find(" 0 -> ") == std::string::npos);
    CHECK(diff.find("no round markers") != std::string::npos);
  }
}

TEST_CASE("audit --diff with an empty reference is a usage error") {
  const auto result = spongegen_test::run_spongegen({"audit", "--diff", ""});
  CAPTURE(result.output);
  CHECK(result.exited);
  CHECK(result.exit_status == 2);
  CHECK(result.output.find("--diff needs") != std::string::npos);
}

TEST_CASE("the invariants hold for every kernel") {
  for (const auto& spec : kernels::all_kernels()) {
    CAPTURE(spec.name);
    CHECK(audit::check_invariants(spec.build().program).empty());
  }
}

// A one-entry Program whose entry computes in caller-saved registers and returns.
Program leaky_program(Isa isa) {
  Program program;
  program.isa = isa;
  program.kernel_name = "leaky-kernel";
  program.functions.push_back(Function{
      "leaky_permute",
      "",
      EntryShape{EntryKind::permute, "keccak-f1600", 24, 0, 1, {{"uint64_t", "state", 25}}},
      {}});
  if (isa == Isa::amd64) {
    amd64::Emitter e(program, program.functions.back());
    e.mov(amd64::r10, amd64::qword(amd64::rdi));
    e.not_(amd64::r10);
    e.vmovq(amd64::xmm(3), amd64::qword(amd64::rdi, 8));
    e.mov(amd64::qword(amd64::rdi), amd64::r10);
    e.ret();
  } else {
    arm64::Emitter e(program, program.functions.back());
    e.ldr(arm64::x(9), arm64::at(arm64::x(0)));
    e.mvn(arm64::x(9), arm64::x(9));
    e.ldr(arm64::d(17), arm64::at(arm64::x(0), 8));
    e.str(arm64::x(9), arm64::at(arm64::x(0)));
    e.ret();
  }
  return program;
}

TEST_CASE("an entry returning with data in caller-saved registers is refused; cleared, accepted") {
  for (const Isa isa : {Isa::amd64, Isa::arm64}) {
    CAPTURE(isa_name(isa));
    Program program = leaky_program(isa);
    const std::string gp = isa == Isa::amd64 ? "r10" : "x9";
    const std::string vector = isa == Isa::amd64 ? "xmm3" : "v17";
    try {
      pipeline::require_invariants(program.kernel_name, program);
      FAIL("an entry leaving data in registers was accepted");
    } catch (const GenerationError& error) {
      const std::string message = error.what();
      CAPTURE(message);
      CHECK(message.find("kernel leaky-kernel") != std::string::npos);
      CHECK(message.find("leaky_permute: returns (leaky_permute, 'ret') with caller-saved " + gp +
                         " holding what it computed") != std::string::npos);
      CHECK(message.find("caller-saved " + vector + " holding") != std::string::npos);
    }
    const kernels::ClearingSummary summary = kernels::emit_clear_caller_saved(program);
    CHECK(summary.returns == 1);
    CHECK(summary.cleared == std::vector<std::string>{gp, vector});
    CHECK_NOTHROW(pipeline::require_invariants(program.kernel_name, program));
    const std::vector<std::string> expected =
        isa == Isa::amd64
            ? std::vector<std::string>{"xor r10d, r10d", "vzeroall", "ret"}
            : std::vector<std::string>{"eor x9, x9, x9", "eor v17.16b, v17.16b, v17.16b", "ret"};
    std::vector<std::string> tail;
    for (const Item& item : program.functions.front().items) {
      if (const auto* instruction = std::get_if<Instruction>(&item))
        tail.push_back(writers::format_instruction(program, *instruction));
    }
    tail.erase(tail.begin(), tail.end() - 3);
    CHECK(tail == expected);
  }
}

TEST_CASE("every kernel's clearing is needed: without one of its instructions it is refused") {
  for (const auto& spec : kernels::all_kernels()) {
    CAPTURE(spec.name);
    // A WebAssembly function's locals die with the call: there is nothing to clear
    // (Target::is_caller_saved is false for every one), which a test below checks.
    if (spec.isa == Isa::wasm32) continue;
    Program program = spec.build().program;
    // The first clearing instruction of the first function: the one after the comment.
    auto& items = program.functions.front().items;
    auto comment = std::find_if(items.begin(), items.end(), [](const Item& item) {
      const auto* text = std::get_if<Comment>(&item);
      return text != nullptr && text->text.starts_with("No lane stays in a register");
    });
    REQUIRE(comment != items.end());
    auto first = std::next(comment);
    REQUIRE(std::holds_alternative<Instruction>(*first));
    const std::string removed = writers::format_instruction(program, std::get<Instruction>(*first));
    CAPTURE(removed);
    items.erase(first);
    const auto problems = audit::check_invariants(program);
    // The return is the first function's; the entry reported may be another that reaches it.
    CHECK(any_contains(problems, ": returns (" + program.functions.front().symbol + ", '"));
    CHECK(any_contains(problems, "holding what it computed: its last write is no zeroing idiom"));
  }
}

TEST_CASE("a wasm32 kernel's entries clear nothing: no local outlives the call") {
  for (const auto& spec : kernels::all_kernels()) {
    if (spec.isa != Isa::wasm32) continue;
    CAPTURE(spec.name);
    const Program built = spec.build().program;
    Program program = built;
    const kernels::ClearingSummary summary = kernels::emit_clear_caller_saved(program);
    CHECK(summary.cleared.empty());
    CHECK(summary.most == 0);
    CHECK(listing(program) == listing(built));
    CHECK(audit::check_invariants(program).empty());
  }
}

TEST_CASE("the invariant checks catch what they claim to catch") {
  SUBCASE("amd64: a callee-saved register written without a save") {
    Program program = build("amd64-bmi2").program;
    remove_instruction(program, "push rbx");
    const auto problems = audit::check_invariants(program);
    CHECK(any_contains(problems, "writes callee-saved rbx without saving it first"));
  }
  SUBCASE("amd64: a return with the stack pointer moved") {
    Program program = build("amd64-bmi2").program;
    remove_instruction(program, "add rsp, 208");
    CHECK(any_contains(audit::check_invariants(program), "returns with the stack pointer moved"));
  }
  SUBCASE("amd64: an address computed from loaded data") {
    Program program = build("amd64-bmi2").program;
    // The first chi input load of round 0 through r9, which holds a column parity by then.
    Instruction* load = find_instruction(program, "mov r10, qword ptr [rdi + 96]");
    REQUIRE(load != nullptr);
    std::get<Mem>(load->operands[1]).base = amd64::r9;
    CHECK(any_contains(audit::check_invariants(program), "its address depends on loaded data"));
  }
  SUBCASE("amd64: a stack access outside the frame (the caller's return address)") {
    Program program = build("amd64-bmi2").program;
    Instruction* store = find_instruction(program, "mov qword ptr [rsp + 192], rax");
    REQUIRE(store != nullptr);
    std::get<Mem>(store->operands[0]).disp = 256;  // 6 pushes + 208-byte frame: the return address
    CHECK(any_contains(audit::check_invariants(program), "outside the entry's frame"));
  }
  SUBCASE("amd64: a scratch lane left in the released frame") {
    Program program = build("amd64-bmi2").program;
    // Drop the wipe's first store (lane 0), the instruction after the wipe's zeroing.
    auto& items = program.functions.front().items;
    auto zeroing = std::find_if(items.begin(), items.end(), [&](const Item& item) {
      const auto* instruction = std::get_if<Instruction>(&item);
      return instruction && writers::format_instruction(program, *instruction) == "xor rax, rax";
    });
    REQUIRE(zeroing != items.end());
    auto first_store = std::find_if(std::next(zeroing), items.end(), [](const Item& item) {
      return std::holds_alternative<Instruction>(item);
    });
    REQUIRE(first_store != items.end());
    CHECK(writers::format_instruction(program, std::get<Instruction>(*first_store)) ==
          "mov qword ptr [rsp], rax");
    items.erase(first_store);
    const auto problems = audit::check_invariants(program);
    CHECK(any_contains(problems,
                       "returns leaving state-derived data in its released frame, at 1 slots "
                       "(bytes from the entry's stack pointer): -256"));
    // The 12-round entries share the epilogue, and the checker walks them too.
    CHECK(any_contains(problems, "sponge_keccakp1600_12_amd64_bmi2: "));
    CHECK(any_contains(problems, "sponge_keccakp1600_12_amd64_bmi2_absorb168: "));
  }
  SUBCASE("amd64: a return from ymm code without vzeroall") {
    Program program = build("amd64-avx2-x4").program;
    remove_instruction(program, "vzeroall");
    const auto problems = audit::check_invariants(program);
    CHECK(any_contains(problems,
                       "sponge_keccakf1600_amd64_avx2_x4: 'ret': returns with dirty "
                       "upper halves of ymm/zmm registers"));
    // Without the clearing, the wipe's zero register is the only public vector register:
    // nothing else changes (the register residue check reports the ymm registers too). Every
    // entry returns through the shared epilogue but the block entries, which hold their own.
    const auto through_shared_epilogue = std::count_if(
        program.functions.begin(), program.functions.end(),
        [](const Function& function) { return !function.symbol.ends_with("_blocks"); });
    CHECK(through_shared_epilogue == 9);
    CHECK(std::count_if(problems.begin(), problems.end(), [](const std::string& problem) {
            return problem.find("dirty upper halves") != std::string::npos;
          }) == through_shared_epilogue);
  }
  SUBCASE("amd64: Windows unwind codes that disagree with the CFI") {
    Program program = build("amd64-bmi2").program;
    // The CFI puts rbx one slot below where the push (and so the unwind code) puts it.
    for (Item& item : program.functions.front().items) {
      auto* cfi = std::get_if<Cfi>(&item);
      if (cfi != nullptr && cfi->kind == CfiKind::offset && cfi->reg == amd64::rbx) {
        cfi->value -= 8;
        break;
      }
    }
    CHECK(any_contains(audit::check_invariants(program),
                       "sponge_keccakf1600_amd64_bmi2: the Windows unwind codes and the CFI "
                       "describe different frames"));
  }
  SUBCASE("amd64: an epilogue the Windows unwinder does not recognise") {
    Program program = build("amd64-bmi2").program;
    swap_instructions(program, program.functions.front(), "pop rbx", "pop rbp");
    CHECK(any_contains(audit::check_invariants(program),
                       "sponge_keccakf1600_amd64_bmi2: a ret not preceded by the epilogue "
                       "Windows unwinds"));
  }
  SUBCASE("amd64: the Windows entries' epilogues are checked too") {
    Program program = build("amd64-avx2-x4").program;
    REQUIRE(!program.win64_entries.empty());
    swap_instructions(program, program.win64_entries.front(), "pop rsi", "pop rdi");
    const auto problems = audit::check_invariants(program);
    CHECK(any_contains(problems,
                       "Windows entry sponge_keccakf1600_amd64_avx2_x4: a ret not "
                       "preceded by the epilogue Windows unwinds"));
    CHECK(problems.size() == 1);
  }
  SUBCASE("amd64: an entry that jumps into rounds run on another frame") {
    Program program = build("amd64-bmi2").program;
    Function& absorb = program.functions.at(1);
    REQUIRE(absorb.symbol == "sponge_keccakf1600_amd64_bmi2_absorb72");
    for (Item& item : absorb.items) {
      auto* instruction = std::get_if<Instruction>(&item);
      if (instruction != nullptr &&
          writers::format_instruction(program, *instruction) == "sub rsp, 208") {
        std::get<Imm>(instruction->operands[1]).value = 216;
      }
    }
    CHECK(any_contains(audit::check_invariants(program),
                       "sponge_keccakf1600_amd64_bmi2_absorb72 jumps into "
                       "sponge_keccakf1600_amd64_bmi2, whose Windows unwind codes describe "
                       "another frame"));
  }
  SUBCASE("amd64: the multi-state scratch wipe is checked too") {
    Program program = build("amd64-avx2-x4").program;
    // Drop the wipe's fourth store (lane 3), counted from the wipe's zeroing.
    auto& items = program.functions.front().items;
    auto at = std::find_if(items.begin(), items.end(), [&](const Item& item) {
      const auto* instruction = std::get_if<Instruction>(&item);
      return instruction &&
             writers::format_instruction(program, *instruction) == "vpxor ymm15, ymm15, ymm15";
    });
    REQUIRE(at != items.end());
    at += 4;
    REQUIRE(std::holds_alternative<Instruction>(*at));
    CHECK(writers::format_instruction(program, std::get<Instruction>(*at)) ==
          "vmovdqu ymmword ptr [rsp + 96], ymm15");
    items.erase(at);
    CHECK(any_contains(audit::check_invariants(program),
                       "returns leaving state-derived data in its released frame, at 1 slots "
                       "(bytes from the entry's stack pointer): -704"));
  }
  SUBCASE("amd64: block pointers loaded from the pointer array are public") {
    Program program = build("amd64-avx2-x4").program;
    for (Function& function : program.functions) {
      if (function.shape.kind == EntryKind::absorb) {
        function.shape.parameters[1].c_type = "const uint8_t";  // bytes, not pointers
      }
    }
    CHECK(any_contains(audit::check_invariants(program),
                       "sponge_keccakf1600_amd64_avx2_x4_absorb72: 'vmovq xmm12, qword ptr [r8]': "
                       "its address depends on loaded data"));
  }
  SUBCASE("the argument registers come from the entry's signature") {
    Program program = build("amd64-bmi2").program;
    auto absorb = std::find_if(
        program.functions.begin(), program.functions.end(),
        [](const Function& f) { return f.symbol == "sponge_keccakp1600_12_amd64_bmi2_absorb168"; });
    REQUIRE(absorb != program.functions.end());
    absorb->shape.parameters.pop_back();  // no block argument: rsi holds no public pointer
    const auto problems = audit::check_invariants(program);
    CHECK(any_contains(problems,
                       "sponge_keccakp1600_12_amd64_bmi2_absorb168: 'xor r13, qword "
                       "ptr [r15 + 104]': its address depends on loaded data"));
    CHECK(!any_contains(problems, "sponge_keccakf1600_amd64_bmi2_absorb168: "));
  }
  SUBCASE("arm64: d8-d15 loaded without the save") {
    Program program = build("arm64-sha3").program;
    for (int i = 0; i < 6; ++i)
      remove_instruction(program, "stp d8, d9, [sp, #-64]!");
    const auto problems = audit::check_invariants(program);
    CHECK(any_contains(problems, "writes callee-saved v8 without saving it first"));
  }
  SUBCASE("arm64: a saved register restored from another register's slot") {
    Program program = build("arm64-scalar").program;
    // ldp x21, x22, [sp, #16] -> [sp, #32], the slot of x23 and x24: not a restore.
    Instruction* restore = find_instruction(program, "ldp x21, x22, [sp, #16]");
    REQUIRE(restore != nullptr);
    std::get<Mem>(restore->operands.at(2)).disp = 32;
    const auto problems = audit::check_invariants(program);
    CHECK(any_contains(problems, "'ret': returns without restoring x21"));
  }
  SUBCASE("arm64: a spill of a clobbered callee-saved register is no save") {
    Program program = build("arm64-scalar").program;
    // The loop setup stores the round constant pointers from x26 and x27; if the epilogue
    // reloaded x26 and x27 from there, they would not hold the caller's values.
    Instruction* restore = find_instruction(program, "ldp x25, x26, [sp, #48]");
    REQUIRE(restore != nullptr);
    std::get<Mem>(restore->operands.at(2)).disp = 96;
    const auto problems = audit::check_invariants(program);
    CHECK(any_contains(problems, "'ret': returns without restoring x25"));
    CHECK(any_contains(problems, "'ret': returns without restoring x26"));
  }
  SUBCASE("arm64: a loop condition computed from the state") {
    Program program = build("arm64-sha3").program;
    Instruction* branch = find_instruction(program, "cbnz x9, LOCAL(keccakf1600_arm64_sha3_loop)");
    REQUIRE(branch != nullptr);
    // Make the counter come from a loaded lane: mov x9, #24 -> ldr x9, [x0]
    Instruction* counter = find_instruction(program, "mov x9, #24");
    REQUIRE(counter != nullptr);
    *counter = Instruction{Mnemonic::arm64_ldr, {arm64::x(9), arm64::at(arm64::x(0))}, {}};
    CHECK(any_contains(audit::check_invariants(program), "its condition depends on loaded data"));
  }
}

TEST_CASE("the manifest names every file with its sha256 and entries") {
  std::vector<writers::WrittenKernel> written;
  for (const auto& kernel : generated_kernels())
    written.push_back(kernel.written);
  const nlohmann::json manifest = nlohmann::json::parse(writers::write_manifest(written));
  REQUIRE(manifest["files"].size() == written.size());
  for (std::size_t i = 0; i < written.size(); ++i) {
    const kernels::KernelSpec& spec = *generated_kernels()[i].spec;
    CHECK(manifest["files"][i]["sha256"] == writers::sha256_hex(written[i].text));
    const auto& entries = manifest["files"][i]["entries"];
    CHECK(manifest["files"][i]["cpu_features"].size() == spec.cpu_features.size());
    if (spec.family == "ascon-p320") {
      // p12, p8, p6, the hash and AD absorbs, encrypt and decrypt.
      REQUIRE(entries.size() == 7);
      CHECK(entries[0]["permutation"] == "ascon-p320");
      CHECK(entries[0]["rounds"] == 12);
      CHECK(entries[3]["kind"] == "absorb");
      CHECK(entries[3]["rate_bytes"] == 8);
      CHECK(entries[5]["kind"] == "encrypt");
      CHECK(entries[6]["kind"] == "decrypt");
      continue;
    }
    if (spec.isa == Isa::wasm32) {
      // Each rate's one-block absorb entry, then its block entry: 24 rounds at five rates,
      // 12 at two. The module beside the text, which the runtime does not link.
      // wasm-scalar and wasm-scalar-memory on one state, wasm-simd128 on two.
      const bool one_state = spec.name != "wasm-simd128";
      std::string stem = spec.name;
      std::replace(stem.begin(), stem.end(), '-', '_');
      REQUIRE(entries.size() == 16u);
      CHECK(entries[14]["symbol"] == "sponge_keccakp1600_12_" + stem + "_absorb168");
      CHECK(entries[15]["symbol"] == "sponge_keccakp1600_12_" + stem + "_absorb168_blocks");
      CHECK(entries[15]["rounds"] == 12);
      CHECK(entries[15]["lanes"] == (one_state ? 1 : 2));
      CHECK(manifest["files"][i]["binary"]["path"] == "keccakf1600_" + stem + ".wasm");
      CHECK(manifest["files"][i]["links_into_runtime"] == false);
      CHECK(spec.cpu_features.empty() == one_state);
      continue;
    }
    // 24 rounds: permute and five rates; 12 rounds: permute and rates 136, 168. The
    // generated batch kernels add block entries at the leaf rates 136 and 168 after each round
    // count's absorb entries.
    const std::string& name = spec.name;
    const bool block_entries = name == "amd64-avx512-x8" || name == "amd64-avx512-x4" ||
                               name == "amd64-avx2-x4" || name == "arm64-sha3-x2" ||
                               name.starts_with("riscv64-v-x");
    REQUIRE(entries.size() == (block_entries ? 13u : 9u));
    CHECK(entries[0]["permutation"] == "keccak-f1600");
    CHECK(entries[0]["rounds"] == 24);
    const std::size_t last_absorb = block_entries ? 10 : 8;  // 12 rounds, rate 168
    CHECK(entries[last_absorb]["kind"] == "absorb");
    CHECK(entries[last_absorb]["permutation"] == "keccak-p1600");
    CHECK(entries[last_absorb]["rounds"] == 12);
    CHECK(entries[last_absorb]["rate_bytes"] == 168);
    if (block_entries) {
      for (const std::size_t index : {6u, 7u, 11u, 12u}) {
        CAPTURE(index);
        CHECK(entries[index]["symbol"].get<std::string>().ends_with("_blocks"));
        CHECK(entries[index]["rate_bytes"] == (index == 6 || index == 11 ? 136 : 168));
        CHECK(entries[index]["rounds"] == (index < 8 ? 24 : 12));
      }
    }
    // Multi-state kernels say how many states an entry permutes.
    const int lanes = name == "amd64-avx512-x8"                              ? 8
                      : name == "amd64-avx2-x4" || name == "amd64-avx512-x4" ? 4
                      : name == "arm64-sha3-x2"                              ? 2
                      : name.starts_with("riscv64-v-x") ? std::stoi(name.substr(11))
                                                        : 1;
    CHECK(entries[last_absorb]["lanes"] == lanes);
    // Every feature the spec declares, and none for the kernels of a base ISA (ARMv8-A,
    // RV64I).
    CHECK(manifest["files"][i]["cpu_features"].size() == spec.cpu_features.size());
    CHECK(spec.cpu_features.empty() ==
          (spec.name == "arm64-scalar" || spec.name == "ascon-arm64" || spec.name == "riscv64"));
  }
  CHECK(writers::sha256_hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// A Target's binary file (Target::binary_file: wasm32's .wasm; here a stand-in) goes into
// generated/ right after its text, so `check` compares it, and the manifest names it; the
// manifest of a kernel without one, which the runtime links, is as it always was.
TEST_CASE("a kernel's binary file is written beside its text and named in the manifest") {
  std::vector<pipeline::GeneratedKernel> kernels{generated_kernels().front()};
  REQUIRE(!kernels[0].written.binary);
  const nlohmann::json plain =
      nlohmann::json::parse(pipeline::output_files(kernels).back().contents);
  CHECK(!plain["files"][0].contains("binary"));
  CHECK(!plain["files"][0].contains("links_into_runtime"));

  const std::string bytes("\0asm\x01\0\0\0", 8);
  kernels[0].written.binary = writers::GeneratedFile{"kernel.bin", bytes};
  const std::vector<writers::GeneratedFile> files = pipeline::output_files(kernels);
  REQUIRE(files.size() == 4);  // the text, the binary, the C header, the manifest
  CHECK(files[0].name == kernels[0].written.file_name);
  CHECK(files[1].name == "kernel.bin");
  CHECK(files[1].contents == bytes);
  const nlohmann::json manifest = nlohmann::json::parse(files[3].contents);
  CHECK(manifest["files"][0]["binary"]["path"] == "kernel.bin");
  CHECK(manifest["files"][0]["binary"]["sha256"] == writers::sha256_hex(bytes));
}

TEST_CASE("the Ascon model: every substitution formula is the runtime's S-box layer") {
  SplitMix64 random{42};
  for (const ascon::SubstitutionFormula& formula : ascon::model().formulas) {
    CAPTURE(formula.name);
    for (int trial = 0; trial < 100; ++trial) {
      std::array<std::uint64_t, ascon::kWords> words;
      for (auto& word : words)
        word = random.next();
      sponge::detail::AsconWords runtime{words[0], words[1], words[2], words[3], words[4]};
      sponge::detail::ascon_substitute(runtime);
      CHECK(ascon::evaluate(formula, words) ==
            std::array<std::uint64_t, ascon::kWords>{runtime.x0, runtime.x1, runtime.x2, runtime.x3,
                                                     runtime.x4});
    }
  }
  CHECK(ascon::formula("specification").operation_count() == 17);
  CHECK(ascon::formula("ePrint 2023/1721").operation_count() == 16);
  CHECK(ascon::formula("ePrint 2023/1721, ORN").operation_count() == 15);
  CHECK(ascon::formula("depth 3 (exhaustive search)").operation_count() == 19);
}

namespace {

// The longest chain of operations from an input word to an output word.
int formula_depth(const ascon::SubstitutionFormula& formula) {
  std::vector<int> depth(ascon::kWords, 0);
  for (const ascon::FormulaOp& op : formula.ops) {
    const int b = op.b >= 0 ? depth.at(static_cast<std::size_t>(op.b)) : 0;
    depth.push_back(1 + std::max(depth.at(static_cast<std::size_t>(op.a)), b));
  }
  int deepest = 0;
  for (int output : formula.outputs)
    deepest = std::max(deepest, depth.at(static_cast<std::size_t>(output)));
  return deepest;
}

}  // namespace

TEST_CASE("the Ascon model: the searched form is one operation shallower than the others") {
  CHECK(formula_depth(ascon::formula("specification, NOT deferred")) == 4);
  CHECK(formula_depth(ascon::formula("ePrint 2023/1721")) == 4);
  CHECK(formula_depth(ascon::formula("depth 3 (exhaustive search)")) == 3);
}

TEST_CASE("the Ascon amd64 kernel: audit figures and the formula choice in its header") {
  const Program& program = generated("ascon-amd64-bmi2");
  const auto audited = audit::audit_program(program, 4);
  const auto& p12 = audited.entries.at(0);
  CHECK(p12.symbol == "sponge_ascon_p320_amd64_bmi2_p12");
  // Round 0: the first constant, 20 of ePrint 2023/1721's substitution (its 16 operations
  // and 4 copies), 20 of the linear layer and the next constant folded into it, 1 copy.
  CHECK(p12.per_round.total == 42);
  CHECK(p12.per_round.andn == 0);
  CHECK(p12.per_round.rotate == 10);
  CHECK(p12.per_permutation.total == p12.static_instructions);  // unrolled, no loop
  CHECK(p12.frame_bytes == 48);
  CHECK(p12.saved_registers.size() == 6);
  std::string header;
  for (const std::string& line : program.header_lines)
    header += line + "\n";
  // The measured formula is built, not the fewest; the header names both.
  CHECK(header.find("Chosen: ePrint 2023/1721 (measured fastest; the fewest is specification, "
                    "NOT deferred, 16).") != std::string::npos);
  CHECK(header.find("  specification, NOT deferred      16") != std::string::npos);
  CHECK(header.find("  ePrint 2023/1721, ORN            not expressible (ORN)") !=
        std::string::npos);
  CHECK(header.find("  depth 3 (exhaustive search)      23") != std::string::npos);
  CHECK(audit::check_invariants(program).empty());
}

TEST_CASE("the Ascon arm64 kernel: no frame, the ORN formula, two EOR a word in the linear layer") {
  const Program& program = generated("ascon-arm64");
  const auto audited = audit::audit_program(program, 4);
  const auto& p12 = audited.entries.at(0);
  CHECK(p12.symbol == "sponge_ascon_p320_arm64_p12");
  // mov and eor of the constant, 15 of the substitution, 10 of the linear layer.
  CHECK(p12.per_round.total == 27);
  CHECK(p12.frame_bytes == 0);
  CHECK(p12.saved_registers.empty());
  for (const std::string& reg : p12.registers_used) {
    CHECK(reg != "x18");
    CHECK(reg != "x29");  // x30 shows: ret reads it
  }
  std::string header;
  for (const std::string& line : program.header_lines)
    header += line + "\n";
  CHECK(header.find("Chosen: ePrint 2023/1721, ORN (the fewest).") != std::string::npos);
  CHECK(audit::check_invariants(program).empty());
}

TEST_CASE("audit --mca: llvm-mca models an entry's rounds on a core the machine lacks") {
  const Program keccak = build("amd64-bmi2").program;
  const audit::McaEstimate zen3 = audit::run_llvm_mca(keccak, 0, "znver3");
  REQUIRE_MESSAGE(zen3.ok, zen3.problem);
  CHECK(zen3.rounds == 24);
  // The model cannot beat its own resource bound, nor issue 4,368 instructions in fewer
  // cycles than a 6-wide front end would.
  CHECK(zen3.cycles >= zen3.block_rthroughput);
  CHECK(zen3.cycles * 6 >= 4000);
  const Program scalar = build("arm64-scalar").program;
  const audit::McaEstimate n1 = audit::run_llvm_mca(scalar, 0, "neoverse-n1");
  REQUIRE_MESSAGE(n1.ok, n1.problem);
  CHECK(n1.rounds == 24);
  CHECK(n1.cycles > 0);
  // A core model llvm-mca does not know stops the audit with its name, not a row of figures.
  try {
    audit::run_llvm_mca(scalar, 0, "no-such-core");
    FAIL("no-such-core was modelled");
  } catch (const std::invalid_argument& error) {
    CHECK(std::string(error.what()).find("no core model 'no-such-core' for arm64") !=
          std::string::npos);
  }
}
