// The wasm32 encoder is ours, so it is checked against an independent assembler: every row
// of the wasm32 table, with its operands at the edges of their encodings (local index 0, 127
// and 128; memarg offset 0, 127 and 128; constants at the LEB128 byte boundaries and the
// int64 ends; shifts 0 and 63; lanes 0 and 1; branch depths 0 to 2), written as .wat and
// assembled by wabt's wat2wasm, gives exactly the module our encoder writes, which
// wasm-validate accepts. The .wat reads back as the same Program, and what neither format
// can express is refused by name.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "isa/wasm32/lowering.hpp"
#include "isa/wasm32/wasm32.hpp"
#include "spongegen_process.hpp"
#include "writers/asmjit_encoder.hpp"

using namespace spongegen;
using namespace spongegen::wasm32;
using namespace spongegen_test;

namespace {

// A new function of `program` with i32 parameters named `parameters`, for an Emitter (each
// function is written before the next is added: the Emitter holds it by reference).
Function& add_function(Program& program, std::string symbol, std::vector<std::string> parameters) {
  Function function{std::move(symbol), "rows of the wasm32 table", {}, {}};
  function.shape.permutation = "none";
  for (std::string& name : parameters)
    function.shape.parameters.push_back({"uint32_t", std::move(name), 0});
  program.functions.push_back(std::move(function));
  return program.functions.back();
}

Program empty_program(std::string kernel_name) {
  Program program{};
  program.isa = Isa::wasm32;
  program.kernel_name = std::move(kernel_name);
  return program;
}

using M = Mnemonic;
using Binary = void (Emitter::*)(Reg, Reg, Reg);

const std::vector<std::int64_t> kConstants = {
    0, -1, 63, 64, -64, -65, 8191, 8192, INT32_MIN, INT32_MAX, INT64_MIN, INT64_MAX};

// Every row, each operand at the edges of its encoding, in four functions of three types.
Program every_row() {
  Program program = empty_program("wasm32-rows");
  const LabelId round_constants = program.new_label("round_constants");
  const LabelId second_table = program.new_label("second_table");
  program.tables.push_back({round_constants, "two quads", {1, 0x8000000000008082}});
  program.tables.push_back({second_table, "one quad", {0xffffffffffffffff}});
  const Reg state = parameter(0), count = parameter(2);
  {
    Emitter s(program, add_function(program, "scalars", {"state", "blocks", "block_count"}));
    s.comment("locals 127 and 128: one and two LEB128 bytes");
    for (std::int32_t offset : {0, 127, 128}) {
      s.i64_load(x(127), at(state, offset));
      s.i64_store(x(128), at(parameter(1), offset));
    }
    s.i64_load(x(3), at(w(5), INT32_MAX));
    s.annotate("the largest offset");
    for (const auto& r :
         std::vector<std::vector<Reg>>{{x(127), x(128), x(3)}, {x(3), x(3), x(128)}}) {
      for (Binary op : {&Emitter::i64_xor, &Emitter::i64_and, &Emitter::i64_or})
        (s.*op)(r[0], r[1], r[2]);
    }
    for (std::int64_t value : kConstants)
      s.i64_xor_const(x(128), x(127), value);
    for (int amount : {0, 1, 63}) {
      s.i64_rotl(x(127), x(128), amount);
      s.i64_rotr(x(128), x(127), amount);
    }
    s.begin_round(3, false);
    s.i64_copy(x(3), x(128));
    s.end_round();
    s.blank();
    for (std::int64_t value : {0L, 16L, -1L, 63L, 64L, -65L, long{INT32_MIN}, long{INT32_MAX}}) {
      s.i32_add_const(w(5), state, static_cast<std::int32_t>(value));
      s.i32_const(w(4), static_cast<std::int32_t>(value));
    }
    s.i32_table_address(w(5), round_constants);
    s.i32_table_address(w(4), second_table);
    s.i32_wrap_i64(w(4), x(127));
    // Branches at depth 0, 1 and 2 from inside the loop, and each construct's label bound
    // where a branch to it arrives.
    const LabelId outer = program.new_label("outer"), inner = program.new_label("inner"),
                  again = program.new_label("again");
    s.block(outer);
    s.block(inner);
    s.loop(again);
    s.bind(again);
    s.i32_add_const(count, count, -1);
    s.br_if(again, count);
    s.annotate("depth 0");
    s.br_if_eqz(inner, count);
    s.annotate("depth 1");
    s.br_if(outer, w(4));
    s.annotate("depth 2");
    s.br(outer);
    s.end();
    s.br(inner);
    s.annotate("depth 0 after the loop");
    s.end();
    s.bind(inner);
    s.end();
    s.bind(outer);
    s.return_();
  }
  {
    // Three scalar locals (state, $x1 and $x2), so v124 and v125 are locals 127 and 128.
    Emitter e(program, add_function(program, "vectors", {"state"}));
    const Reg a = v(124), b = v(125), c = v(0);
    e.i64_load(x(2), at(state, 8));
    for (std::int32_t offset : {0, 127, 128}) {
      e.v128_load(a, at(state, offset));
      e.v128_store(b, at(state, offset));
      e.v128_load64_zero(b, at(state, offset));
      for (int lane : {0, 1})
        e.v128_load64_lane(a, at(state, offset), b, lane);
    }
    for (const auto& r : std::vector<std::vector<Reg>>{{a, b, c}, {c, a, a}}) {
      for (Binary op :
           {&Emitter::v128_xor, &Emitter::v128_and, &Emitter::v128_or, &Emitter::v128_andnot})
        (e.*op)(r[0], r[1], r[2]);
    }
    e.begin_round(0, true);
    e.comment("");
    for (int amount : {0, 1, 63}) {
      e.i64x2_shl(a, b, amount);
      e.i64x2_shr_u(b, a, amount);
    }
    for (std::int64_t value : kConstants)
      e.v128_xor_splat_const(c, b, value);
  }
  {
    Emitter none(program, add_function(program, "no_parameters", {}));
    none.return_();
  }
  {
    // A type already declared: the first function's, by its index.
    Emitter again(program, add_function(program, "same_type", {"state", "blocks", "block_count"}));
    again.i64_copy(x(3), x(4));
  }
  return program;
}

ProcessResult assemble(const std::string& wat, const TemporaryFolder& folder, std::string& wasm,
                       const std::string& name = "rows") {
  const auto source = folder.path() / (name + ".wat");
  const auto module = folder.path() / (name + ".wasm");
  write_binary_file(source, wat);
  ProcessResult result =
      run_process({SPONGEGEN_TEST_WAT2WASM, source.string(), "-o", module.string()});
  if (result.exited && result.exit_status == 0) wasm = read_binary_file(module);
  return result;
}

// Where the first differing byte lies: the function and instruction our encoding puts there.
std::string locate(const Program& program, const writers::EncodedProgram& encoded, std::size_t at) {
  for (std::size_t f = 0; f < encoded.functions.size(); ++f) {
    const writers::EncodedFunction& function = encoded.functions[f];
    if (at < function.offset || at >= function.offset + function.size) continue;
    std::size_t index = 0, found = SIZE_MAX;
    for (std::size_t offset : function.instruction_offsets) {
      if (function.offset + offset <= at) found = index;
      ++index;
    }
    if (found == SIZE_MAX) return function.symbol + ", its locals";
    std::size_t seen = 0;
    for (const Item& item : program.functions[f].items) {
      const auto* instruction = std::get_if<Instruction>(&item);
      if (instruction != nullptr && seen++ == found) {
        return function.symbol + ", " + describe(program, program.functions[f], *instruction);
      }
    }
  }
  return "outside the functions' bodies";
}

// A Program as comparable text: its functions' items with labels by name, and its tables.
std::string listing(const Program& program) {
  std::string out;
  for (const Function& function : program.functions) {
    out += function.symbol + " | " + function.summary + " | " +
           c_prototype(function.symbol, function.shape) + " | " + entry_shape_line(function.shape) +
           "\n";
    for (const Item& item : function.items) {
      if (const auto* instruction = std::get_if<Instruction>(&item)) {
        out +=
            "  " + describe(program, function, *instruction) + " ;; " + instruction->comment + "\n";
      } else if (const auto* label = std::get_if<LabelDef>(&item)) {
        out += program.label_names.at(label->id) + ":\n";
      } else if (const auto* comment = std::get_if<Comment>(&item)) {
        out += "  // " + comment->text + "\n";
      } else if (const auto* marker = std::get_if<RoundMarker>(&item)) {
        out += fmt::format("  round {} {} {}\n", marker->begin, marker->round, marker->in_loop);
      } else if (std::holds_alternative<Blank>(item)) {
        out += "\n";
      } else {
        out += "  (another item)\n";
      }
    }
  }
  for (const QuadTable& table : program.tables) {
    out += program.label_names.at(table.label) + " (" + table.comment + "):";
    for (std::uint64_t value : table.values)
      out += fmt::format(" {}", value);
    out += "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("every wasm32 row, at the edges of its encoding, encodes as wat2wasm assembles it") {
  const Program program = every_row();
  std::set<Mnemonic> covered;
  for (const Function& function : program.functions) {
    for (const Item& item : function.items) {
      if (const auto* instruction = std::get_if<Instruction>(&item))
        covered.insert(instruction->mnemonic);
    }
  }
  // Every row of the table has forms here: a new row needs its forms added.
  for (const Row& row : rows()) {
    CAPTURE(row.text);
    CHECK(covered.count(row.mnemonic) == 1);
  }

  const std::string wat = write_wat(program);
  const writers::EncodedProgram encoded = wasm32::encode(program);
  REQUIRE(encoded.functions.size() == program.functions.size());
  const TemporaryFolder folder("wasm32-rows");
  std::string wasm;
  const ProcessResult assembled = assemble(wat, folder, wasm);
  CAPTURE(assembled.output);
  REQUIRE(assembled.exit_status == 0);
  const std::string ours(encoded.code.begin(), encoded.code.end());
  std::size_t differ = 0;
  while (differ < ours.size() && differ < wasm.size() && ours[differ] == wasm[differ])
    ++differ;
  CAPTURE(differ);
  CAPTURE(locate(program, encoded, differ));
  CHECK(ours.size() == wasm.size());
  CHECK(differ == ours.size());

  // A module with no function and no table: wabt leaves the empty sections out.
  std::string bare;
  const Program empty = empty_program("wasm32-empty");
  REQUIRE(assemble(write_wat(empty), folder, bare, "empty").exit_status == 0);
  const std::vector<std::uint8_t> empty_encoded = wasm32::encode(empty).code;
  CHECK(std::string(empty_encoded.begin(), empty_encoded.end()) == bare);

  const ProcessResult validated =
      run_process({SPONGEGEN_TEST_WASM_VALIDATE, (folder.path() / "rows.wasm").string()});
  CAPTURE(validated.output);
  CHECK(validated.exit_status == 0);

  // The encoding's map: each function's body and each instruction's first byte (the
  // scalars' first row is local.get $state, 0x20 0x00), and the tables' bytes.
  const writers::EncodedFunction& scalars = encoded.functions.front();
  CHECK(ours.substr(scalars.offset + scalars.instruction_offsets.front(), 2) ==
        std::string("\x20\x00", 2));
  CHECK(static_cast<std::uint8_t>(ours[scalars.offset + scalars.size - 1]) == 0x0b);
  REQUIRE(encoded.tables.size() == 2);
  CHECK(ours.substr(encoded.tables[0].offset, 8) == std::string("\x01\0\0\0\0\0\0\0", 8));
  // The second table's bytes: after the first's 16 and its own segment header (flags,
  // i32.const 16, end, size).
  CHECK(encoded.tables[1].offset == encoded.tables[0].offset + 16 + 5);
}

TEST_CASE("the .wat reads back as the Program it was written from") {
  const Program program = every_row();
  const std::string wat = write_wat(program);
  const Program read = read_wat(wat, program.kernel_name);
  CHECK(listing(read) == listing(program));
  CHECK(write_wat(read) == wat);
  const writers::EncodedProgram again = wasm32::encode(read);
  CHECK(again.code == wasm32::encode(program).code);
}

TEST_CASE("what WebAssembly cannot say is refused, naming the instruction") {
  struct Case {
    std::string name;
    std::vector<Item> rows;
    std::string message;
  };
  const auto label = [](Program& program, const std::string& name) {
    return LabelRef{program.new_label(name)};
  };
  Program program = empty_program("wasm32-refused");
  const LabelRef done = label(program, "done");
  const std::vector<Case> cases = {
      {"a branch out of structure",
       {Instruction{M::wasm32_block, {done}, {}}, Instruction{M::wasm32_end, {}, {}},
        LabelDef{done.id}, Instruction{M::wasm32_br, {done}, {}}},
       "instruction 'br $done': its label belongs to no block or loop around it"},
      {"a branch to a label no construct has",
       {Instruction{M::wasm32_br_if, {done, parameter(0)}, {}}},
       "instruction 'br_if $done, $state': its label belongs to no block or loop"},
      {"a negative offset",
       {Instruction{M::wasm32_i64_load, {x(1), at(parameter(0), -8)}, {}}},
       "instruction 'i64.load $x1, [$state + -8]': offset -8 is negative"},
      {"the pseudo stack pointer",
       {Instruction{M::wasm32_i64_xor, {x(1), x(1), kStackPointer}, {}}},
       "instruction 'i64.xor $x1, $x1, sp': operand 3 is the stack pointer"},
      {"the pseudo stack pointer as a base",
       {Instruction{M::wasm32_v128_store, {wasm32::v(0), at(kStackPointer, 16)}, {}}},
       "instruction 'v128.store $v0, [sp + 16]': the base is the stack pointer"},
      {"a shift of 64",
       {Instruction{M::wasm32_i64x2_shl, {wasm32::v(0), wasm32::v(0), Imm{64}}, {}}},
       "the shift 64 is outside 0..63"},
      {"lane 2",
       {Instruction{
           M::wasm32_v128_load64_lane, {wasm32::v(0), at(parameter(0)), wasm32::v(1), Imm{2}}, {}}},
       "the lane 2 is outside 0..1"},
      {"an i64 parameter",
       {Instruction{M::wasm32_i64_copy, {x(0), x(1)}, {}}},
       "operand 1 uses local 0 as an i64, which is a parameter, an i32"},
      {"an end with nothing open",
       {Instruction{M::wasm32_end, {}, {}}},
       "instruction 'end': no block or loop is open to end"},
      {"an unbound loop",
       {Instruction{M::wasm32_loop, {done}, {}}, Instruction{M::wasm32_end, {}, {}}},
       "label done is not bound right after 'loop $done'"},
      {"another ISA's row", {Instruction{M::riscv64_ret, {}, {}}}, "not a wasm32 instruction"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    // The items themselves, as no Emitter would write them.
    Program one = program;
    add_function(one, "refused", {"state"}).items = c.rows;
    for (const bool text : {false, true}) {
      std::string refusal;
      try {
        if (text) {
          write_wat(one);
        } else {
          wasm32::encode(one);
        }
      } catch (const GenerationError& error) {
        refusal = error.what();
      }
      CAPTURE(text);
      CAPTURE(refusal);
      CHECK(refusal.find(c.message) != std::string::npos);
      CHECK(refusal.find("kernel wasm32-refused, function refused") != std::string::npos);
    }
  }
}

TEST_CASE("the .wat reader refuses what write_wat does not write, naming the line") {
  const std::string wat = write_wat(every_row());
  const auto refusal = [](const std::string& text) {
    try {
      read_wat(text, "wasm32-rows");
    } catch (const GenerationError& error) {
      return std::string(error.what());
    }
    return std::string("(read)");
  };
  const auto replaced = [&](const std::string& from, const std::string& to) {
    const std::size_t at = wat.find(from);
    REQUIRE(at != std::string::npos);
    return wat.substr(0, at) + to + wat.substr(at + from.size());
  };
  const auto line_of = [&](const std::string& text) {
    return "line " +
           std::to_string(1 + std::count(wat.begin(), wat.begin() + wat.find(text), '\n'));
  };
  // An operation no row lowers to.
  CHECK(refusal(replaced("i64.rotl\n", "i64.shl\n")).find(line_of("i64.rotl\n") + " (") == 0);
  // An offset written explicitly as 0, which write_wat leaves out.
  CHECK(refusal(replaced("i64.load offset=127", "i64.load offset=0"))
            .find("offset 0 is outside 1..") != std::string::npos);
  // A row's lines cut by a comment.
  CHECK(
      refusal(replaced("i64.xor\n", ";; here\n")).find("begins a lowering that no row completes") !=
      std::string::npos);
  // A table at another address than its place.
  CHECK(refusal(replaced("(data (i32.const 16)", "(data (i32.const 24)"))
            .find("the table's address is 24, not 16") != std::string::npos);
  // The types in another order than their first use.
  CHECK(refusal(replaced("(type $t0 (func (param i32 i32 i32)))\n  (type $t1 (func (param i32)))",
                         "(type $t0 (func (param i32)))\n  (type $t1 (func (param i32 i32 i32)))"))
            .find("expected the type of 3 i32 parameters") != std::string::npos);
  // A type no function uses.
  CHECK(refusal(replaced("(type $t2 (func))\n",
                         "(type $t2 (func))\n  (type $t3 (func (param i32 i32)))\n"))
            .find("not declared once each, in first-use order") != std::string::npos);
  CHECK(refusal(wat) == "(read)");
}
