// spongegen prove rejects broken kernels: for each committed kernel, single-instruction
// mutations of its first round (a rotation amount, a constant, a dropped or duplicated
// instruction, swapped operands, another register of the same class) are each refused, and
// the test counts how many of them a random input also shows wrong (a counterexample).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "isa/riscv64/riscv64.hpp"
#include "isa/target.hpp"
#include "kernels/kernel.hpp"
#include "program/instruction_table.hpp"
#include "prove/anf.hpp"
#include "prove/prover.hpp"
#include "prove/round_reuse.hpp"
#include "spongegen_process.hpp"
#include "support/splitmix64.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen {
namespace {

Program committed_program(const kernels::KernelSpec& spec) {
  std::ifstream in(std::string(SPONGEGEN_GENERATED_DIR) + "/" + spec.file_name);
  std::stringstream text;
  text << in.rdbuf();
  return target(spec.isa).read_text(text.str(), spec.name);
}

// The instructions of the first round region of the first function: the code every
// round of a loop kernel runs.
std::vector<std::size_t> first_round(const Program& program) {
  std::vector<std::size_t> items;
  bool inside = false;
  const auto& list = program.functions.at(0).items;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (const auto* marker = std::get_if<RoundMarker>(&list[i])) {
      if (inside && !marker->begin) break;
      inside = marker->begin;
      continue;
    }
    if (inside && std::holds_alternative<Instruction>(list[i])) items.push_back(i);
  }
  return items;
}

struct Mutant {
  std::string what;
  Program program;
};

std::vector<Mutant> mutants_of(const Program& original) {
  std::vector<Mutant> mutants;
  const std::vector<std::size_t> round = first_round(original);
  REQUIRE(round.size() > 20);
  const auto instruction_at = [](Program& p, std::size_t item) -> Instruction& {
    return std::get<Instruction>(p.functions[0].items[item]);
  };
  const auto mutate = [&](const std::string& what, const std::function<bool(Program&)>& change) {
    Program p = original;
    if (change(p)) mutants.push_back({what, std::move(p)});
  };
  const auto text = [&](std::size_t item) {
    return writers::format_instruction(original,
                                       std::get<Instruction>(original.functions[0].items[item]));
  };
  // A rotation by one more bit: of a rotate instruction, of a rotated operand (arm64), or of
  // the left shift of a rotation made of two shifts (riscv64 without Zbb, its vectors,
  // WebAssembly's SIMD128).
  for (std::size_t item : round) {
    const Instruction& in = std::get<Instruction>(original.functions[0].items[item]);
    const bool rotate = (instruction_spec(in.mnemonic).cls == InstructionClass::rotate ||
                         instruction_spec(in.mnemonic).text == "slli" ||
                         instruction_spec(in.mnemonic).text == "vsll.vi" ||
                         instruction_spec(in.mnemonic).text == "i64x2.shl") &&
                        std::holds_alternative<Imm>(in.operands.back());
    const auto* rotated = std::get_if<ShiftedReg>(&in.operands.back());
    if (!rotate && (rotated == nullptr || rotated->shift != Shift::ror)) continue;
    mutate(fmt::format("rotation amount + 1 in `{}`", text(item)), [&](Program& p) {
      Operand& last = instruction_at(p, item).operands.back();
      if (auto* imm = std::get_if<Imm>(&last)) {
        imm->value = (imm->value + 1) % 64 == 0 ? 1 : (imm->value + 1) % 64;
      } else {
        auto& shifted = std::get<ShiftedReg>(last);
        shifted.amount = static_cast<std::uint8_t>(shifted.amount % 63 + 1);
      }
      return true;
    });
    break;
  }
  // One bit of a constant: the last word of each table, or a round's immediate constant.
  for (std::size_t t = 0; t < original.tables.size(); ++t) {
    mutate(fmt::format("bit 0 of the last word of table {}", t), [&](Program& p) {
      p.tables[t].values.back() ^= 1;
      return true;
    });
  }
  if (original.tables.empty()) {
    for (std::size_t item : round) {
      const Instruction& in = std::get<Instruction>(original.functions[0].items[item]);
      // `xor r, imm` (amd64), `xori r, r, imm` (riscv64) or `i64.xor_const` (wasm32): a
      // constant XORed into a lane;
      // `addi r, zero, imm` (riscv64's vector kernels): the constant a vxor.vx XORs in.
      const std::string_view name = instruction_spec(in.mnemonic).text;
      const bool xor_constant =
          (in.operands.size() == 2 && std::holds_alternative<Imm>(in.operands[1])) ||
          ((name == "xori" || name == "i64.xor_const" ||
            (name == "addi" && in.operands.at(1) == Operand{riscv64::zero})) &&
           std::holds_alternative<Imm>(in.operands.back()));
      if (!xor_constant) continue;
      mutate(fmt::format("bit 0 of the constant in `{}`", text(item)), [&](Program& p) {
        std::get<Imm>(instruction_at(p, item).operands.back()).value ^= 1;
        return true;
      });
      break;
    }
  }
  // A dropped and a duplicated instruction.
  const std::size_t middle = round[round.size() / 2];
  mutate(fmt::format("`{}` dropped", text(middle)), [&](Program& p) {
    p.functions[0].items.erase(p.functions[0].items.begin() + static_cast<std::ptrdiff_t>(middle));
    return true;
  });
  for (std::size_t item : round) {
    const Instruction& in = std::get<Instruction>(original.functions[0].items[item]);
    const std::string_view name = instruction_spec(in.mnemonic).text;
    if (name != "xor" && name != "eor" && name != "vpxor" && name != "vpxorq" &&
        name != "vxor.vv" && name != "i64.xor" && name != "v128.xor") {
      continue;
    }
    if (in.operands.size() == 3 && in.operands[0] != in.operands[1]) continue;  // not in place
    mutate(fmt::format("`{}` duplicated", text(item)), [&](Program& p) {
      auto& items = p.functions[0].items;
      items.insert(items.begin() + static_cast<std::ptrdiff_t>(item), items[item]);
      return true;
    });
    break;
  }
  // Swapped sources of a non-commutative instruction: andn, bic, vpandn, bcax.
  for (std::size_t item : round) {
    const Instruction& in = std::get<Instruction>(original.functions[0].items[item]);
    if (instruction_spec(in.mnemonic).cls != InstructionClass::andn) continue;
    const std::size_t a = in.operands.size() - 2, b = in.operands.size() - 1;
    if (in.operands[a] == in.operands[b]) continue;
    mutate(fmt::format("sources swapped in `{}`", text(item)), [&](Program& p) {
      auto& ops = instruction_at(p, item).operands;
      std::swap(ops[a], ops[b]);
      return std::holds_alternative<Reg>(ops[a]) && std::holds_alternative<Reg>(ops[b]);
    });
    break;
  }
  // Another register of the same class as a source.
  for (std::size_t k = round.size() / 3; k < round.size(); ++k) {
    const std::size_t item = round[k];
    const Instruction& in = std::get<Instruction>(original.functions[0].items[item]);
    if (in.operands.size() < 2 || !std::holds_alternative<Reg>(in.operands.back())) continue;
    const Reg source = std::get<Reg>(in.operands.back());
    // Not amd64's rsp, nor arm64's x30, xzr or sp (WebAssembly's locals have no such roles).
    if (source.cls == RegClass::sp) continue;
    if (original.isa != Isa::wasm32 && (source.index == 4 || source.index >= 30)) continue;
    mutate(fmt::format("another register as the last source of `{}`", text(item)), [&](Program& p) {
      Reg& reg = std::get<Reg>(instruction_at(p, item).operands.back());
      reg.index = static_cast<std::uint8_t>(reg.index == 0 ? 1 : reg.index - 1);
      if (original.isa == Isa::amd64 && reg.index == 4) reg.index = 3;  // never rsp
      return true;
    });
    break;
  }
  return mutants;
}

// Runs an arm64 entry of `program` on `input` under qemu-aarch64 (cross-compiled with a
// harness that prints the state words and the output bytes) and returns what it left, or
// nothing when this build has no qemu-aarch64.
std::optional<prove::ConcreteOutcome> run_under_qemu(const Program& program,
                                                     const std::string& symbol,
                                                     const verify::EntryInput& input) {
  if (std::string(SPONGEGEN_QEMU_AARCH64).empty()) return std::nullopt;
  const Function& entry = *std::find_if(program.functions.begin(), program.functions.end(),
                                        [&](const Function& f) { return f.symbol == symbol; });
  const EntryShape& shape = entry.shape;
  spongegen_test::TemporaryFolder folder("prove-qemu");
  std::string c = "#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n";
  c += c_prototype(symbol, shape) + ";\n";
  c += fmt::format("static uint64_t state[{}] = {{", input.state.size());
  for (std::uint64_t word : input.state)
    c += fmt::format("{:#x}ull, ", word);
  c += "};\n";
  for (std::size_t b = 0; b < input.buffers.size(); ++b) {
    c += fmt::format("static uint8_t in{}[{}] = {{", b, input.buffers[b].size() + 1);
    for (std::uint8_t byte : input.buffers[b])
      c += fmt::format("{}, ", byte);
    c += "0};\n";
  }
  const std::size_t output_bytes = input.buffers.empty() ? 0 : input.buffers[0].size();
  c += fmt::format("static uint8_t out[{}];\nint main(void) {{\n", output_bytes + 1);
  switch (shape.parameters.size()) {
    case 1:
      c += fmt::format("  {}(state);\n", symbol);
      break;
    case 2:
      if (shape.lanes == 1) {
        c += fmt::format("  {}(state, in0);\n", symbol);
      } else {
        c += "  const uint8_t* const blocks[] = {";
        for (std::size_t b = 0; b < input.buffers.size(); ++b)
          c += fmt::format("in{}, ", b);
        c += fmt::format("}};\n  {}(state, blocks);\n", symbol);
      }
      break;
    case 3:
      c += fmt::format("  {}(state, in0, {});\n", symbol, input.block_count);
      break;
    default:
      c += fmt::format("  {}(state, in0, {}, {});\n", symbol, input.in_place ? "in0" : "out",
                       input.block_count);
  }
  c += fmt::format(
      "  for (size_t i = 0; i < {}; ++i) printf(\"%016llx\\n\", (unsigned long long)state[i]);\n",
      input.state.size());
  c += fmt::format("  for (size_t i = 0; i < {}; ++i) printf(\"%02x\\n\", {}[i]);\n", output_bytes,
                   input.in_place ? "in0" : "out");
  c += "  return 0;\n}\n";
  if (shape.parameters.size() < 4) {  // no output buffer: print nothing for it
    c = c.substr(0, c.rfind("  for (size_t i = 0; i < ")) + "  return 0;\n}\n";
  }
  spongegen_test::write_binary_file(folder.path() / "harness.c", c);
  spongegen_test::write_binary_file(folder.path() / "kernel.S", writers::write_gas(program));
  const std::string binary = (folder.path() / "harness").string();
  const std::string compile = fmt::format(
      "'{}' -static -O1 -march=armv8.2-a+sha3 -o '{}' '{}' '{}' 2>&1", SPONGEGEN_AARCH64_CC, binary,
      (folder.path() / "harness.c").string(), (folder.path() / "kernel.S").string());
  REQUIRE(std::system(compile.c_str()) == 0);
  const std::string command = fmt::format("'{}' -cpu max '{}'", SPONGEGEN_QEMU_AARCH64, binary);
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  prove::ConcreteOutcome outcome;
  char line[64];
  std::size_t lines = 0;
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    const unsigned long long value = std::strtoull(line, nullptr, 16);
    if (lines++ < input.state.size()) {
      outcome.state.push_back(value);
    } else {
      outcome.output.push_back(static_cast<std::uint8_t>(value));
    }
  }
  REQUIRE(pclose(pipe) == 0);
  return outcome;
}

TEST_CASE("prove: every committed kernel's mutants are rejected") {
  // With a warm proof cache: the control's proof is in it, and no mutant is served from it.
  const spongegen_test::TemporaryFolder cache("prove-cache");
  for (const kernels::KernelSpec& spec : kernels::all_kernels()) {
    const Program program = committed_program(spec);
    prove::ProveOptions options;
    options.entry = program.functions.at(0).symbol;
    options.most_blocks = 1;
    options.system_v_only = true;
    options.cache.folder = cache.path();
    CAPTURE(spec.name);
    // The control: the committed kernel's first entry is proven, then found in the cache.
    const prove::KernelProof control = prove::prove_kernel(spec, program, options);
    REQUIRE(control.proven());
    CHECK(!control.from_cache);
    const prove::KernelProof cached = prove::prove_kernel(spec, program, options);
    REQUIRE(cached.proven());
    CHECK(cached.from_cache);
    int rejected = 0, with_counterexample = 0, confirmed = 0;
    const std::vector<Mutant> mutants = mutants_of(program);
    CHECK(mutants.size() >= 5);
    for (const Mutant& mutant : mutants) {
      CAPTURE(mutant.what);
      const prove::KernelProof proof = prove::prove_kernel(spec, mutant.program, options);
      CHECK(!proof.from_cache);
      REQUIRE(!proof.proven());
      ++rejected;
      const auto failed = std::find_if(proof.entries.begin(), proof.entries.end(),
                                       [](const prove::EntryProof& e) { return !e.proven; });
      // Each mutant computes a wrong state on some random input, and on an amd64 host the
      // mutated code, run through the JIT on that input, disagrees with the reference too.
      CHECK(!failed->counterexample.empty());
      if (failed->counterexample.empty()) continue;
      ++with_counterexample;
      prove::EntryProof checked = prove::confirm_on_host(spec, mutant.program, *failed);
      if (program.isa == Isa::arm64) {
        // Under qemu: the mutant leaves what the prover's machine computed, not the model's.
        const auto outcome =
            run_under_qemu(mutant.program, failed->symbol, *failed->counterexample_input);
        if (outcome) {
          CHECK(*outcome == *failed->counterexample_machine);
          checked.confirmed_on_host = *outcome != *failed->counterexample_model;
        }
      }
      if (checked.confirmed_on_host) {
        CHECK(*checked.confirmed_on_host);
        if (*checked.confirmed_on_host) ++confirmed;
      }
      MESSAGE(fmt::format("{}: {}: rejected ({}); {}{}", spec.name, mutant.what, failed->failure,
                          failed->counterexample,
                          checked.confirmed_on_host ? "; confirmed by running it" : ""));
    }
    MESSAGE(
        fmt::format("{}: {} of {} mutants rejected, {} with a counterexample, {} of them "
                    "confirmed by running the mutant (the JIT on amd64, qemu-aarch64 on arm64)",
                    spec.name, rejected, mutants.size(), with_counterexample, confirmed));
  }
}

}  // namespace
}  // namespace spongegen

namespace spongegen {
namespace {

// A kernel right for 0 to 3 blocks and wrong from some larger count on shows only through
// the induction: here the absorb loop walks a register up the stack, one word a block,
// which no run of up to three blocks can tell from a correct loop (the register is restored
// at the return). The proof must refuse the count of three and every larger one.
TEST_CASE("prove: a block loop that does not repeat is refused for every count from three") {
  const kernels::KernelSpec& spec =
      *std::find_if(kernels::all_kernels().begin(), kernels::all_kernels().end(),
                    [](const kernels::KernelSpec& k) { return k.name == "ascon-amd64-bmi2"; });
  Program program = committed_program(spec);
  const std::string symbol = "sponge_ascon_p320_amd64_bmi2_absorb_hash";
  Function& entry = *std::find_if(program.functions.begin(), program.functions.end(),
                                  [&](const Function& f) { return f.symbol == symbol; });
  auto& items = entry.items;
  // After the last push of the prologue and its CFI (which the proof checks before every
  // instruction): r15 (saved there) points at the stack; after the block loop's label, one
  // word further each block.
  const auto last_push = std::find_if(items.rbegin(), items.rend(), [](const Item& item) {
    const auto* in = std::get_if<Instruction>(&item);
    return in != nullptr && in->mnemonic == Mnemonic::amd64_push;
  });
  REQUIRE(last_push != items.rend());
  const auto first_round = std::find_if(items.begin(), items.end(), [](const Item& item) {
    return std::holds_alternative<RoundMarker>(item);
  });
  const auto loop_label =
      std::find_if(std::make_reverse_iterator(first_round), items.rend(),
                   [](const Item& item) { return std::holds_alternative<LabelDef>(item); });
  REQUIRE(loop_label != items.rend());
  const Reg r15{RegClass::gp64, 15}, rsp{RegClass::gp64, 4};
  const std::size_t label_at = static_cast<std::size_t>(items.rend() - loop_label) - 1;
  const std::size_t push_at = static_cast<std::size_t>(items.rend() - last_push) - 1;
  std::size_t after_push = push_at + 1;
  while (after_push < items.size() && std::holds_alternative<Cfi>(items[after_push]))
    ++after_push;
  REQUIRE(after_push <= label_at);
  items.insert(items.begin() + static_cast<std::ptrdiff_t>(label_at + 1),
               Instruction{Mnemonic::amd64_add, {r15, Imm{8}}, ""});
  items.insert(
      items.begin() + static_cast<std::ptrdiff_t>(after_push),
      Instruction{Mnemonic::amd64_lea, {r15, Mem{rsp, 0, Addressing::offset, kNoLabel, 8}}, ""});
  prove::ProveOptions options;
  options.entry = symbol;
  options.system_v_only = true;
  const prove::KernelProof proof = prove::prove_kernel(spec, program, options);
  REQUIRE(proof.entries.size() == 4);
  for (const prove::EntryProof& e : proof.entries) {
    CAPTURE(e.variant);
    CAPTURE(e.failure);
    const bool induction = e.variant.find("every larger count") != std::string::npos;
    CHECK(e.proven == !induction);
    if (induction) {
      CHECK(e.failure.find("the block loop does not repeat") != std::string::npos);
      CHECK(e.failure.find("register 15") != std::string::npos);
    }
  }
}

}  // namespace
}  // namespace spongegen

namespace spongegen {
namespace {

const kernels::KernelSpec& kernel_named(const std::string& name) {
  return *std::find_if(kernels::all_kernels().begin(), kernels::all_kernels().end(),
                       [&](const kernels::KernelSpec& k) { return k.name == name; });
}

// A Windows x64 entry is proven from its adapter and the proof of the System V entry it
// calls (the call is summarized, not run again); an adapter that breaks the Windows
// convention, or passes another argument, is still refused.
TEST_CASE("prove: the Windows x64 entries take their System V entries' proofs as given") {
  for (const char* name : {"amd64-bmi2", "ascon-amd64-bmi2"}) {
    CAPTURE(name);
    const kernels::KernelSpec& spec = kernel_named(name);
    const Program program = committed_program(spec);
    prove::ProveOptions options;
    options.entry = program.functions.back().symbol;
    options.most_blocks = 1;
    const prove::KernelProof proof = prove::prove_kernel(spec, program, options);
    REQUIRE(proof.proven());
    int windows = 0;
    for (const prove::EntryProof& e : proof.entries) {
      CHECK(e.call_summarized == e.win64);
      windows += e.win64 ? 1 : 0;
    }
    CHECK(windows >= 1);

    const auto refused = [&](const std::string& what, const std::function<void(Function&)>& change,
                             const std::string& reason) {
      CAPTURE(what);
      Program mutant = program;
      change(mutant.win64_entries.back());
      const prove::KernelProof broken = prove::prove_kernel(spec, mutant, options);
      for (const prove::EntryProof& e : broken.entries) {
        CAPTURE(e.variant);
        CHECK(e.proven == !e.win64);
        if (e.win64) CHECK(e.failure.find(reason) != std::string::npos);
      }
    };
    const auto find = [](Function& f, Mnemonic mnemonic, const Reg& reg) {
      return std::find_if(f.items.begin(), f.items.end(), [&](const Item& item) {
        const auto* in = std::get_if<Instruction>(&item);
        return in != nullptr && in->mnemonic == mnemonic && in->operands.at(0) == Operand{reg};
      });
    };
    const Reg rdi{RegClass::gp64, 7}, rsi{RegClass::gp64, 6}, rdx{RegClass::gp64, 2};
    refused(
        "rdi and rsi popped in the wrong order",
        [&](Function& f) {
          const auto pop_rsi = find(f, Mnemonic::amd64_pop, rsi);
          const auto pop_rdi = find(f, Mnemonic::amd64_pop, rdi);
          std::get<Instruction>(*pop_rsi).operands[0] = rdi;
          std::get<Instruction>(*pop_rdi).operands[0] = rsi;
        },
        "callee-saved register");
    refused(
        "the state pointer passed from rdx, not rcx",
        [&](Function& f) {
          std::get<Instruction>(*find(f, Mnemonic::amd64_mov, rdi)).operands[1] = rdx;
        },
        "");
  }
}

// A riscv64 vector block entry keeps each state's next block pointer in its frame and moves
// it on by the rate after the block: one moved by 160 instead of 168 still proves one block,
// and is refused from two blocks on, the induction's case included.
TEST_CASE("prove: a riscv64-v block entry that moves a pointer by other than the rate is refused") {
  const kernels::KernelSpec& spec = kernel_named("riscv64-v-x2");
  Program program = committed_program(spec);
  const std::string symbol = "sponge_keccakp1600_12_riscv64_v_x2_absorb168_blocks";
  Function& entry = *std::find_if(program.functions.begin(), program.functions.end(),
                                  [&](const Function& f) { return f.symbol == symbol; });
  const Operand second_pointer{riscv64::x(7)};  // blocks[1] while a block is XORed in
  const auto advance = std::find_if(entry.items.begin(), entry.items.end(), [&](const Item& item) {
    const auto* in = std::get_if<Instruction>(&item);
    return in != nullptr && in->mnemonic == Mnemonic::riscv64_addi &&
           in->operands.at(0) == second_pointer && in->operands.at(1) == second_pointer &&
           in->operands.at(2) == Operand{Imm{168}};
  });
  REQUIRE(advance != entry.items.end());
  std::get<Instruction>(*advance).operands[2] = Imm{160};
  prove::ProveOptions options;
  options.entry = symbol;
  const prove::KernelProof proof = prove::prove_kernel(spec, program, options);
  REQUIRE(proof.entries.size() == 4);
  for (const prove::EntryProof& e : proof.entries) {
    CAPTURE(e.variant);
    CAPTURE(e.failure);
    const bool at_most_one = e.variant == "block_count 0" || e.variant == "block_count 1";
    CHECK(e.proven == at_most_one);
  }
}

// The unwinder reads the CFI's rows in address order, whichever path reached an instruction:
// the proof requires, before every instruction it runs, that the rows describe the CFA as the
// caller's stack pointer and each register the caller needs back where it is. Refused: a push
// described as 16 bytes; the riscv64-v tail's jump code (after the store's ret, reached by a
// jump while the frame is still there) left with the epilogue's rows; s3's slot 8 bytes off;
// rbx's rule dropped.
TEST_CASE("prove: CFI that misplaces the CFA or a saved register is refused") {
  std::string expected_failure;
  const auto cfi_refused = [&](const prove::KernelProof& proof,
                               bool (*expected_proven)(const std::string& variant)) {
    REQUIRE(!proof.entries.empty());
    for (const prove::EntryProof& e : proof.entries) {
      CAPTURE(e.variant);
      CAPTURE(e.failure);
      CHECK(e.proven == expected_proven(e.variant));
      if (!e.proven) CHECK(e.failure.find(expected_failure) != std::string::npos);
    }
  };
  const auto find_cfi = [](std::vector<Item>& items, CfiKind kind, std::optional<Reg> reg) {
    const auto at = std::find_if(items.begin(), items.end(), [&](const Item& item) {
      const auto* cfi = std::get_if<Cfi>(&item);
      return cfi != nullptr && cfi->kind == kind && (!reg || cfi->reg == *reg);
    });
    REQUIRE(at != items.end());
    return at;
  };
  const auto never = [](const std::string&) { return false; };
  expected_failure = "the CFI puts the CFA at the stack pointer";
  {
    const kernels::KernelSpec& spec = kernel_named("amd64-bmi2");
    Program program = committed_program(spec);
    Function& permute = program.functions.front();
    std::get<Cfi>(*find_cfi(permute.items, CfiKind::adjust_cfa_offset, std::nullopt)).value = 16;
    prove::ProveOptions options;
    options.entry = permute.symbol;
    cfi_refused(prove::prove_kernel(spec, program, options), never);
  }
  {
    const kernels::KernelSpec& spec = kernel_named("riscv64-v-x2");
    Program program = committed_program(spec);
    std::vector<Item>& items = program.functions.front().items;
    const auto is_def_cfa = [](const Item& item) {
      const auto* cfi = std::get_if<Cfi>(&item);
      return cfi != nullptr && cfi->kind == CfiKind::def_cfa_offset;
    };
    const auto epilogue = std::find_if(items.begin(), items.end(), [&](const Item& item) {
      return is_def_cfa(item) && std::get<Cfi>(item).value == 0;
    });
    REQUIRE(epilogue != items.end());
    const auto restated = std::find_if(std::next(epilogue), items.end(), is_def_cfa);
    REQUIRE(restated != items.end());
    items.erase(restated);
    prove::ProveOptions options;
    options.entry = "sponge_keccakp1600_12_riscv64_v_x2_absorb168_blocks";
    cfi_refused(prove::prove_kernel(spec, program, options),
                [](const std::string& variant) { return variant == "block_count 0"; });
  }
  {
    const kernels::KernelSpec& spec = kernel_named("riscv64-zbb");
    Program program = committed_program(spec);
    Function& permute = program.functions.front();
    std::get<Cfi>(*find_cfi(permute.items, CfiKind::offset, riscv64::x(19))).value += 8;
    prove::ProveOptions options;
    options.entry = permute.symbol;
    expected_failure = "the CFI says s3 is saved at the CFA";
    cfi_refused(prove::prove_kernel(spec, program, options), never);
  }
  {
    const kernels::KernelSpec& spec = kernel_named("amd64-bmi2");
    Program program = committed_program(spec);
    Function& permute = program.functions.front();
    permute.items.erase(find_cfi(permute.items, CfiKind::offset, Reg{RegClass::gp64, 3}));
    prove::ProveOptions options;
    options.entry = permute.symbol;
    // The Windows x64 entry calls this code: the rules are checked where the registers' values
    // at the call are known, in the entry's own code.
    options.system_v_only = true;
    expected_failure = "rbx no longer holds its caller's value, and the CFI says nowhere";
    cfi_refused(prove::prove_kernel(spec, program, options), never);
  }
}

// A round proven once is taken for the same round elsewhere (the entries' shared rounds:
// unrolled copies known by their text, a round loop that every entry jumps into known by
// where it is), with the same figures as running it; a round whose code differs in one
// instruction is run and refused.
TEST_CASE("prove: a round proven once is taken for the same round, never for another") {
  for (const char* name : {"riscv64-zbb", "amd64-avx512-x4", "ascon-arm64"}) {
    CAPTURE(name);
    const kernels::KernelSpec& spec = kernel_named(name);
    const Program program = committed_program(spec);
    prove::ProveOptions options;
    options.most_blocks = 2;
    options.system_v_only = true;
    const prove::KernelProof reused = prove::prove_kernel(spec, program, options);
    options.reuse_rounds = false;
    const prove::KernelProof run = prove::prove_kernel(spec, program, options);
    REQUIRE(reused.proven());
    REQUIRE(run.proven());
    REQUIRE(reused.entries.size() == run.entries.size());
    int replayed = 0;
    for (std::size_t e = 0; e < run.entries.size(); ++e) {
      CAPTURE(run.entries[e].symbol);
      CAPTURE(run.entries[e].variant);
      CHECK(reused.entries[e].instructions == run.entries[e].instructions);
      CHECK(reused.entries[e].boundaries == run.entries[e].boundaries);
      CHECK(reused.entries[e].preserved_gp == run.entries[e].preserved_gp);
      CHECK(run.entries[e].rounds_replayed == 0);
      replayed += reused.entries[e].rounds_replayed;
    }
    // Most rounds after the first of each block come from another case's.
    CHECK(replayed > static_cast<int>(reused.entries.size()) * 4);
  }
  // ascon-arm64's entries each carry their rounds, the same text: the last entry's sixth
  // round with one rotation amount changed is no other entry's, so it is run, and refused
  // (where the entry runs rounds at all: with a block).
  const kernels::KernelSpec& spec = kernel_named("ascon-arm64");
  Program mutant = committed_program(spec);
  Function& absorb = mutant.functions.back();
  int markers = 0;
  bool changed = false;
  for (Item& item : absorb.items) {
    if (const auto* marker = std::get_if<RoundMarker>(&item)) markers += marker->begin ? 1 : 0;
    auto* in = std::get_if<Instruction>(&item);
    auto* rotated = in == nullptr ? nullptr : std::get_if<ShiftedReg>(&in->operands.back());
    if (markers != 6 || rotated == nullptr || rotated->shift != Shift::ror) continue;
    rotated->amount = static_cast<std::uint8_t>(rotated->amount % 63 + 1);
    changed = true;
    break;
  }
  REQUIRE(changed);
  prove::ProveOptions options;
  options.most_blocks = 1;
  const prove::KernelProof proof = prove::prove_kernel(spec, mutant, options);
  for (const prove::EntryProof& e : proof.entries) {
    CAPTURE(e.symbol);
    CAPTURE(e.variant);
    // With no block the entry runs no round.
    const bool runs_the_round =
        e.symbol == absorb.symbol && e.variant.find("block_count 0") == std::string::npos;
    CHECK(e.proven == !runs_the_round);
    if (runs_the_round) {
      CHECK(e.failure.find("round 6") != std::string::npos);
      CHECK(!e.counterexample.empty());
    }
  }
}

// A replayed round's instructions are not run, so what the run checks of each besides the
// values (the CFI) must be its record's, and the replay resumes at its own copy's next
// marker: ascon-arm64's entries each carry the same rounds' text, and the first entry's sixth
// round is changed in what lies between its instructions only.
TEST_CASE("prove: a replayed round stands under its own copy's CFI and ends at its own marker") {
  const kernels::KernelSpec& spec = kernel_named("ascon-arm64");
  // Puts `item` after the sixth round's instruction `n` (0: its first) in ascon-arm64's first
  // entry, whose text is otherwise that of the other entries' sixth rounds.
  const auto insert_in_round_six = [](Program& program, int n, Item item) {
    std::vector<Item>& items = program.functions.front().items;
    int markers = 0, instructions = 0;
    const auto at = std::find_if(items.begin(), items.end(), [&](const Item& it) {
      if (const auto* marker = std::get_if<RoundMarker>(&it)) markers += marker->begin ? 1 : 0;
      return markers == 6 && std::holds_alternative<Instruction>(it) && instructions++ == n;
    });
    REQUIRE(at != items.end());
    items.insert(std::next(at), std::move(item));
  };
  Program mutant = committed_program(spec);
  const std::string mutated = mutant.functions.front().symbol;
  // One worker: the first entry's cases run last, after the hash entry's (which runs the same
  // rounds once a block) recorded the sixth round.
  prove::ProveOptions options;
  options.most_blocks = 2;
  options.threads = 1;
  SUBCASE("a label between its instructions") {
    insert_in_round_six(mutant, 0, LabelDef{mutant.new_label("inside_round_six")});
    const prove::KernelProof proof = prove::prove_kernel(spec, mutant, options);
    int replayed = 0;
    for (const prove::EntryProof& e : proof.entries) {
      CAPTURE(e.symbol);
      CAPTURE(e.failure);
      CHECK(e.proven);
      if (e.symbol == mutated) replayed += e.rounds_replayed;
    }
    CHECK(replayed > 0);
  }
  SUBCASE("a CFA moved and moved back inside it") {
    insert_in_round_six(mutant, 3, Cfi{CfiKind::adjust_cfa_offset, -16});
    insert_in_round_six(mutant, 0, Cfi{CfiKind::adjust_cfa_offset, 16});
    const prove::KernelProof proof = prove::prove_kernel(spec, mutant, options);
    for (const prove::EntryProof& e : proof.entries) {
      CAPTURE(e.symbol);
      CAPTURE(e.failure);
      CHECK(e.proven == (e.symbol != mutated));
      if (!e.proven) {
        CHECK(e.failure.find("the CFI puts the CFA at the stack pointer + 16") !=
              std::string::npos);
      }
    }
  }
}

// What a round's record rests on: its writes depend on the places it read and on nothing
// else, shown by running it again where every other place holds fresh variables.
TEST_CASE("prove: a round that reads a place its reads leave out is not recorded") {
  prove::Machine before;
  before.gp(1) = prove::Value::data(prove::variable_word(before.fresh(64)));
  before.gp(2) = prove::Value::data(prove::variable_word(before.fresh(64)));
  // The code: gp3 = gp1 ^ gp2.
  const auto run = [](prove::Machine machine) {
    machine.gp(3) = prove::Value::data(machine.gp(1).bits ^ machine.gp(2).bits);
    return machine;
  };
  const prove::Machine after = run(before);
  const auto writes = [&](const std::vector<prove::Place>& reads) {
    const prove::Machine poisoned = prove::with_unread_places_fresh(before, reads);
    return prove::code_writes(before, after, prove::registers_of(poisoned), run(poisoned), {});
  };
  const prove::Place gp1{prove::Place::Kind::gp, 1, 0}, gp2{prove::Place::Kind::gp, 2, 0},
      gp3{prove::Place::Kind::gp, 3, 0};
  const std::optional<std::vector<prove::Place>> both = writes({gp1, gp2});
  REQUIRE(both);
  CHECK(*both == std::vector<prove::Place>{gp3});
  CHECK(!writes({gp1}));
  CHECK(!writes({gp2}));
}

}  // namespace
}  // namespace spongegen

namespace spongegen {
namespace {

// The prover compares kernel and model in the polynomials' normal form, which both compute
// with the same operations: a product wrong in the same way on both sides would hide a
// wrong kernel. So each product (and sum) is checked here against the values of its
// factors on every assignment of the variables, and for the normal form: monomials
// strictly increasing, each with its lower variable first.
TEST_CASE("prove: sums and products of polynomials are the functions' sums and products") {
  SplitMix64 random(47);
  constexpr int kVariables = 10;
  const auto random_poly = [&](bool quadratic) {
    prove::Poly p = prove::Poly::constant((random.next() & 1) != 0);
    for (prove::Variable v = 1; v <= kVariables; ++v) {
      if (random.next() % 3 == 0) p ^= prove::Poly::variable(v);
    }
    if (quadratic) {
      p ^= prove::Poly::variable(static_cast<prove::Variable>(1 + random.next() % kVariables)) &
           prove::Poly::variable(static_cast<prove::Variable>(1 + random.next() % kVariables));
    }
    return p;
  };
  const auto normal = [](const prove::Poly& p) {
    const auto m = p.monomials();
    for (std::size_t i = 0; i < m.size(); ++i) {
      if (i > 0 && m[i - 1] >= m[i]) return false;
      if ((m[i] >> 32) != 0 && (m[i] >> 32) >= (m[i] & 0xffffffffu)) return false;
    }
    return true;
  };
  for (int trial = 0; trial < 300; ++trial) {
    const prove::Poly a = random_poly(false), b = random_poly(false), q = random_poly(true);
    const prove::Poly product = a & b, sum = a ^ q, scaled = q & prove::Poly::constant(true);
    REQUIRE(normal(product));
    REQUIRE(normal(sum));
    REQUIRE(scaled == q);
    for (std::uint32_t assignment = 0; assignment < (1u << kVariables); ++assignment) {
      const auto value_of = [&](prove::Variable v) { return ((assignment >> (v - 1)) & 1u) != 0; };
      REQUIRE(product.evaluate(value_of) == (a.evaluate(value_of) && b.evaluate(value_of)));
      REQUIRE(sum.evaluate(value_of) == (a.evaluate(value_of) != q.evaluate(value_of)));
    }
  }
}

}  // namespace
}  // namespace spongegen
