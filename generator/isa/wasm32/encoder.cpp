// The binary WebAssembly module (.wasm) of a wasm32 Program, by our own encoder: the
// sections wabt's wat2wasm writes for the module write_wat prints, in its order and with
// its minimal LEB128s, so the test (and the committed kernels' check) compare the two byte
// for byte. Each row lowers as isa/wasm32/lowering.cpp says, as in the text.
#include <fmt/format.h>

#include "isa/wasm32/lowering.hpp"
#include "isa/wasm32/wasm32.hpp"

namespace spongegen::wasm32 {
namespace {

using Bytes = std::vector<std::uint8_t>;

enum Section : std::uint8_t {
  kTypeSection = 1,
  kImportSection = 2,
  kFunctionSection = 3,
  kExportSection = 7,
  kCodeSection = 10,
  kDataSection = 11,
};
constexpr std::uint8_t kFunctionType = 0x60;
constexpr std::uint8_t kMemoryKind = 0x02;
constexpr std::uint8_t kFunctionKind = 0x00;
constexpr std::uint8_t kActiveSegment = 0x00;  // active, memory 0
constexpr std::uint8_t kSimdPrefix = 0xfd;

void unsigned_leb(Bytes& out, std::uint64_t value) {
  do {
    std::uint8_t byte = value & 0x7f;
    value >>= 7;
    if (value != 0) byte |= 0x80;
    out.push_back(byte);
  } while (value != 0);
}

void signed_leb(Bytes& out, std::int64_t value) {
  for (;;) {
    const std::uint8_t byte = value & 0x7f;
    value >>= 7;  // arithmetic: the sign stays
    const bool done = (value == 0 && (byte & 0x40) == 0) || (value == -1 && (byte & 0x40) != 0);
    out.push_back(done ? byte : byte | 0x80);
    if (done) return;
  }
}

void name(Bytes& out, std::string_view text) {
  unsigned_leb(out, text.size());
  out.insert(out.end(), text.begin(), text.end());
}

void opcode(Bytes& out, Opcode code) {
  if (code.simd) {
    out.push_back(kSimdPrefix);
    unsigned_leb(out, code.code);
  } else {
    out.push_back(static_cast<std::uint8_t>(code.code));
  }
}

void little_endian(Bytes& out, std::uint64_t value) {
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

// One section: its id, its size and its bytes; returns where the bytes start.
std::size_t section(Bytes& module, Section id, const Bytes& payload) {
  module.push_back(id);
  unsigned_leb(module, payload.size());
  const std::size_t start = module.size();
  module.insert(module.end(), payload.begin(), payload.end());
  return start;
}

void step_bytes(Bytes& out, const Program& program, const Locals& locals,
                const Instruction& instruction, const Step& step, int depth) {
  const auto local = [&](const Reg& reg) { unsigned_leb(out, locals.index(reg)); };
  const auto value = [&](int i) { return std::get<Imm>(instruction.operands.at(i)).value; };
  const auto memarg = [&] {
    opcode(out, step.opcode);
    unsigned_leb(out, step.align_log2);
    unsigned_leb(
        out, static_cast<std::uint32_t>(std::get<Mem>(instruction.operands.at(step.operand)).disp));
  };
  switch (step.kind) {
    case StepKind::get:
      opcode(out, kLocalGet);
      local(std::get<Reg>(instruction.operands.at(step.operand)));
      return;
    case StepKind::set:
      opcode(out, kLocalSet);
      local(std::get<Reg>(instruction.operands.at(step.operand)));
      return;
    case StepKind::base:
      opcode(out, kLocalGet);
      local(std::get<Mem>(instruction.operands.at(step.operand)).base);
      return;
    case StepKind::op:
      opcode(out, step.opcode);
      return;
    case StepKind::memory_op:
      memarg();
      return;
    case StepKind::lane_op:
      memarg();
      out.push_back(static_cast<std::uint8_t>(value(3)));
      return;
    case StepKind::i64_const:
      opcode(out, kI64Const);
      signed_leb(out, value(step.operand));
      return;
    case StepKind::i32_const:
      opcode(out, kI32Const);
      signed_leb(out, value(step.operand));
      return;
    case StepKind::splat_const:
      opcode(out, kV128Const);
      little_endian(out, static_cast<std::uint64_t>(value(step.operand)));
      little_endian(out, static_cast<std::uint64_t>(value(step.operand)));
      return;
    case StepKind::table_address:
      opcode(out, kI32Const);
      signed_leb(out, static_cast<std::int32_t>(table_address(
                          program, std::get<LabelRef>(instruction.operands.at(step.operand)).id)));
      return;
    case StepKind::label_op:
      opcode(out, step.opcode);
      out.push_back(kEmptyBlockType);
      return;
    case StepKind::branch_op:
      opcode(out, step.opcode);
      unsigned_leb(out, static_cast<std::uint32_t>(depth));
      return;
  }
  throw GenerationError("unknown lowering step");
}

}  // namespace

writers::EncodedProgram encode(const Program& program) {
  if (!program.win64_entries.empty()) throw GenerationError("wasm32 has no Windows entries");
  writers::EncodedProgram encoded;
  Bytes& module = encoded.code;
  module = {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00};  // "\0asm", version 1

  const FunctionTypes types = function_types(program);
  Bytes payload;
  unsigned_leb(payload, types.parameter_counts.size());
  for (std::size_t count : types.parameter_counts) {
    payload.push_back(kFunctionType);
    unsigned_leb(payload, count);
    payload.insert(payload.end(), count, static_cast<std::uint8_t>(ValueType::i32));
    unsigned_leb(payload, 0);  // no results
  }
  if (!types.parameter_counts.empty()) section(module, kTypeSection, payload);

  payload.clear();
  unsigned_leb(payload, 1);
  name(payload, "env");
  name(payload, "memory");
  payload.push_back(kMemoryKind);
  payload.push_back(0x00);  // limits: a minimum, no maximum
  unsigned_leb(payload, kImportedMemoryPages);
  section(module, kImportSection, payload);

  payload.clear();
  unsigned_leb(payload, program.functions.size());
  for (std::uint32_t type : types.of_function)
    unsigned_leb(payload, type);
  const bool functions = !program.functions.empty();  // wabt leaves empty sections out
  if (functions) section(module, kFunctionSection, payload);

  payload.clear();
  unsigned_leb(payload, program.functions.size());
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    name(payload, program.functions[f].symbol);
    payload.push_back(kFunctionKind);
    unsigned_leb(payload, f);
  }
  if (functions) section(module, kExportSection, payload);

  // The code: each body's offset within the section's bytes first, made absolute below.
  payload.clear();
  unsigned_leb(payload, program.functions.size());
  for (const Function& function : program.functions) {
    const Locals locals = check_function(program, function);
    const Structure structure = check_structure(program, function);
    Bytes body;
    // The locals in runs of one type, as wat2wasm groups them.
    std::vector<std::pair<std::uint32_t, ValueType>> runs;
    for (std::size_t i = locals.parameters; i < locals.types.size(); ++i) {
      if (runs.empty() || runs.back().second != locals.types[i])
        runs.emplace_back(0, locals.types[i]);
      ++runs.back().first;
    }
    unsigned_leb(body, runs.size());
    for (const auto& [count, type] : runs) {
      unsigned_leb(body, count);
      body.push_back(static_cast<std::uint8_t>(type));
    }
    writers::EncodedFunction out{function.symbol, 0, 0, {}};
    std::size_t index = 0;
    for (const Item& item : function.items) {
      const auto* instruction = std::get_if<Instruction>(&item);
      if (instruction == nullptr) continue;
      out.instruction_offsets.push_back(body.size());
      for (const Step& step : lowering(instruction->mnemonic)) {
        step_bytes(body, program, locals, *instruction, step, structure.branch_depths.at(index));
      }
      ++index;
    }
    opcode(body, kEnd);
    unsigned_leb(payload, body.size());
    out.offset = payload.size();
    out.size = body.size();
    payload.insert(payload.end(), body.begin(), body.end());
    encoded.functions.push_back(std::move(out));
  }
  const std::size_t code = functions ? section(module, kCodeSection, payload) : 0;
  for (writers::EncodedFunction& function : encoded.functions)
    function.offset += code;

  if (!program.tables.empty()) {
    const std::vector<std::uint32_t> addresses = table_addresses(program);
    payload.clear();
    unsigned_leb(payload, program.tables.size());
    std::vector<std::size_t> starts;
    for (std::size_t t = 0; t < program.tables.size(); ++t) {
      const QuadTable& table = program.tables[t];
      payload.push_back(kActiveSegment);
      opcode(payload, kI32Const);
      signed_leb(payload, static_cast<std::int32_t>(addresses[t]));
      opcode(payload, kEnd);
      unsigned_leb(payload, 8 * table.values.size());
      starts.push_back(payload.size());
      for (std::uint64_t value : table.values)
        little_endian(payload, value);
    }
    const std::size_t data = section(module, kDataSection, payload);
    for (std::size_t t = 0; t < program.tables.size(); ++t) {
      encoded.tables.push_back({program.label_names.at(program.tables[t].label), data + starts[t],
                                8 * program.tables[t].values.size()});
    }
  }
  return encoded;
}

}  // namespace spongegen::wasm32
