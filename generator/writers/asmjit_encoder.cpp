#include "writers/asmjit_encoder.hpp"

#include <asmjit/arm/a64assembler.h>
#include <asmjit/asmjit.h>

#include <fmt/format.h>

#include <cstring>
#include <memory>

#include "program/instruction_table.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::writers {
namespace {

// The instruction's asmjit id from its table row; on arm64 the SIMD form's id when the
// first operand is a SIMD register (asmjit's ids differ: ldp x0, x1 vs ldp d0, d1).
asmjit::InstId instruction_id(const Instruction& instruction) {
  const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
  const Reg* first =
      instruction.operands.empty() ? nullptr : std::get_if<Reg>(&instruction.operands[0]);
  const bool simd =
      first != nullptr && (first->cls == RegClass::fp64 || first->cls == RegClass::fp128 ||
                           first->cls == RegClass::vec);
  return simd ? spec.asmjit_simd_id : spec.asmjit_id;
}

// Lays a Program out in one asmjit CodeHolder, the same way the text writer lays it out in
// the .S file: functions 32-byte aligned in order, then the tables 64-byte aligned.
class ProgramEncoder {
 public:
  ProgramEncoder(const Program& program, asmjit::CodeHolder& code) : program_(program) {
    if (program.isa == Isa::amd64) {
      assembler_ = std::make_unique<asmjit::x86::Assembler>(&code);
    } else {
      assembler_ = std::make_unique<asmjit::a64::Assembler>(&code);
    }
    assembler_->addDiagnosticOptions(asmjit::DiagnosticOptions::kValidateAssembler);
    for (std::size_t i = 0; i < program.label_names.size(); ++i) {
      labels_.push_back(assembler_->newLabel());
    }
  }

  // Per function: the offset of each instruction from the function's start.
  std::vector<std::vector<std::size_t>> instruction_offsets;
  // Per table of Program::tables: its offset from the start of the code.
  std::vector<std::size_t> table_offsets;

  // `starts` and `ends` get one label per function, then one per Windows entry.
  void run(std::vector<asmjit::Label>& starts, std::vector<asmjit::Label>& ends) {
    function_starts_ = &starts;
    for (const Function& function : program_.functions)
      emit_function(function, 32, starts, ends);
    for (const QuadTable& table : program_.tables) {
      assembler_->align(asmjit::AlignMode::kData, 64);
      assembler_->bind(labels_.at(table.label));
      table_offsets.push_back(assembler_->offset());
      for (std::uint64_t value : table.values)
        assembler_->embedUInt64(value);
    }
    // The Windows entries follow the tables, as in the file (where only Windows assembles
    // them: the layout before them is the same for every object format).
    for (const Function& entry : program_.win64_entries)
      emit_function(entry, 16, starts, ends);
  }

 private:
  void emit_function(const Function& function, std::size_t alignment,
                     std::vector<asmjit::Label>& starts, std::vector<asmjit::Label>& ends) {
    check(assembler_->align(asmjit::AlignMode::kCode, static_cast<std::uint32_t>(alignment)),
          function, nullptr);
    starts.push_back(assembler_->newLabel());
    ends.push_back(assembler_->newLabel());
    assembler_->bind(starts.back());
    const std::size_t function_start = assembler_->offset();
    instruction_offsets.emplace_back();
    for (const Item& item : function.items) {
      if (const auto* instruction = std::get_if<Instruction>(&item)) {
        instruction_offsets.back().push_back(assembler_->offset() - function_start);
        emit(function, *instruction);
      } else if (const auto* label = std::get_if<LabelDef>(&item)) {
        check(assembler_->bind(labels_.at(label->id)), function, nullptr);
      }
    }
    assembler_->bind(ends.back());
  }

  [[noreturn]] void refuse(const Function& function, const Instruction& instruction,
                           const std::string& reason) const {
    throw GenerationError("kernel " + program_.kernel_name + ", function " + function.symbol +
                          ", instruction '" + format_instruction(program_, instruction) +
                          "': " + reason);
  }

  // The operands against the instruction's table row, before asmjit sees them, so a wrong
  // register class is named as such (asmjit would say only "invalid instruction").
  void check_operand_forms(const Function& function, const Instruction& instruction) const {
    const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
    if (instruction.operands.size() != spec.operand_count) {
      refuse(function, instruction,
             fmt::format("{} takes {} operands, not {}", spec.text, spec.operand_count,
                         instruction.operands.size()));
    }
    for (std::size_t i = 0; i < spec.operand_count; ++i) {
      const Operand& operand = instruction.operands[i];
      if ((operand_form(operand) & spec.operands[i].forms) == 0) {
        refuse(function, instruction,
               fmt::format("operand {} is {}; {} takes {} there", i + 1, operand_form_name(operand),
                           spec.text, operand_forms_text(spec.operands[i].forms)));
      }
    }
  }

  asmjit::x86::Gp amd64_base(const Function& function, const Instruction& instruction,
                             const Reg& base) const {
    if (base.cls != RegClass::gp64) {
      refuse(function, instruction, "a memory operand's base must be a 64-bit register");
    }
    return asmjit::x86::gpq(base.index);
  }

  asmjit::Operand amd64_operand(const Function& function, const Instruction& instruction,
                                const Operand& op) const {
    namespace x86 = asmjit::x86;
    if (const Reg* reg = std::get_if<Reg>(&op)) {
      switch (reg->cls) {
        case RegClass::gp64:
          return x86::gpq(reg->index);
        case RegClass::gp32:
          return x86::gpd(reg->index);
        case RegClass::xmm:
          return x86::xmm(reg->index);
        case RegClass::ymm:
          return x86::ymm(reg->index);
        case RegClass::zmm:
          return x86::zmm(reg->index);
        default:
          refuse(function, instruction, operand_form_name(op) + " is not an amd64 register");
      }
    }
    if (const Imm* imm = std::get_if<Imm>(&op)) return asmjit::Imm(imm->value);
    if (const LabelRef* label = std::get_if<LabelRef>(&op)) return labels_.at(label->id);
    if (const SymbolRef* symbol = std::get_if<SymbolRef>(&op)) {
      return function_starts_->at(symbol->function);
    }
    if (const Mem* mem = std::get_if<Mem>(&op)) {
      if (mem->addressing == Addressing::pc_relative) {
        return x86::ptr(labels_.at(mem->label), mem->disp, mem->bytes);
      }
      if (mem->addressing != Addressing::offset) {
        refuse(function, instruction, "amd64 has no pre- or post-indexed addressing");
      }
      return x86::ptr(amd64_base(function, instruction, mem->base), mem->disp, mem->bytes);
    }
    refuse(function, instruction, operand_form_name(op) + " does not exist on amd64");
  }

  asmjit::Operand arm64_register(const Function& function, const Instruction& instruction,
                                 const Reg& reg) const {
    namespace a64 = asmjit::a64;
    switch (reg.cls) {
      case RegClass::gp64:
        return a64::x(reg.index);
      case RegClass::gp32:
        return a64::w(reg.index);
      case RegClass::sp:
        return a64::sp;
      case RegClass::fp64:
        return a64::d(reg.index);
      case RegClass::fp128:
        return a64::v(reg.index);  // asmjit names the whole 128-bit register v, GNU as q
      case RegClass::vec:
        if (reg.arrangement == Arrangement::b16) return a64::v(reg.index).b16();
        if (reg.arrangement == Arrangement::d2) return a64::v(reg.index).d2();
        break;
      default:
        break;
    }
    refuse(function, instruction, operand_form_name(reg) + " is not an arm64 register");
  }

  // A shifted register is two asmjit operands: the register, then the shift.
  void arm64_operands(const Function& function, const Instruction& instruction, const Operand& op,
                      std::vector<asmjit::Operand>& out) const {
    namespace a64 = asmjit::a64;
    if (const Reg* reg = std::get_if<Reg>(&op)) {
      out.push_back(arm64_register(function, instruction, *reg));
      return;
    }
    if (const ShiftedReg* shifted = std::get_if<ShiftedReg>(&op)) {
      static constexpr asmjit::arm::ShiftOp kOps[] = {
          asmjit::arm::ShiftOp::kLSL, asmjit::arm::ShiftOp::kLSR, asmjit::arm::ShiftOp::kASR,
          asmjit::arm::ShiftOp::kROR};
      out.push_back(arm64_register(function, instruction, shifted->reg));
      out.push_back(
          asmjit::Imm(asmjit::arm::Shift(kOps[static_cast<int>(shifted->shift)], shifted->amount)));
      return;
    }
    if (const Imm* imm = std::get_if<Imm>(&op)) {
      out.push_back(asmjit::Imm(imm->value));
      return;
    }
    if (const LabelRef* label = std::get_if<LabelRef>(&op)) {
      out.push_back(labels_.at(label->id));
      return;
    }
    const Mem& mem = std::get<Mem>(op);
    if (mem.base.cls != RegClass::sp && mem.base.cls != RegClass::gp64) {
      refuse(function, instruction, "a memory operand's base must be x0-x30 or sp");
    }
    const a64::Gp base = mem.base.cls == RegClass::sp ? a64::sp : a64::x(mem.base.index);
    switch (mem.addressing) {
      case Addressing::offset:
        out.push_back(a64::ptr(base, mem.disp));
        return;
      case Addressing::pre_index:
        out.push_back(a64::ptr_pre(base, mem.disp));
        return;
      case Addressing::post_index:
        out.push_back(a64::ptr_post(base, mem.disp));
        return;
      case Addressing::pc_relative:
      case Addressing::go_argument:
        break;
    }
    refuse(function, instruction, "arm64 memory operands are register-based; use adr for labels");
  }

  // XAR by hand: Debian's asmjit snapshot (0.0~git20221210) encodes it with the wrong
  // opcode bits (0xce6..., where the Arm ARM has 0xce800000 | Rm << 16 | imm6 << 10 |
  // Rn << 5 | Rd). The encoding proof found this by comparing with GNU as; the word below is
  // checked by that same proof on every run of the tests.
  void emit_xar(const Function& function, const Instruction& instruction) {
    const Reg& d = std::get<Reg>(instruction.operands.at(0));
    const Reg& n = std::get<Reg>(instruction.operands.at(1));
    const Reg& m = std::get<Reg>(instruction.operands.at(2));
    const std::int64_t rotate = std::get<Imm>(instruction.operands.at(3)).value;
    if (rotate < 0 || rotate > 63) refuse(function, instruction, "xar rotates by 0..63");
    const std::uint32_t word = 0xce800000u | std::uint32_t{m.index} << 16 |
                               static_cast<std::uint32_t>(rotate) << 10 |
                               std::uint32_t{n.index} << 5 | std::uint32_t{d.index};
    const std::uint8_t bytes[4] = {static_cast<std::uint8_t>(word),
                                   static_cast<std::uint8_t>(word >> 8),
                                   static_cast<std::uint8_t>(word >> 16),
                                   static_cast<std::uint8_t>(word >> 24)};  // A64 is little-endian
    check(assembler_->embed(bytes, sizeof bytes), function, &instruction);
  }

  void emit(const Function& function, const Instruction& instruction) {
    check_operand_forms(function, instruction);
    if (instruction.mnemonic == Mnemonic::arm64_xar) {
      emit_xar(function, instruction);
      return;
    }
    std::vector<asmjit::Operand> operands;
    if (program_.isa == Isa::amd64) {
      for (const Operand& op : instruction.operands)
        operands.push_back(amd64_operand(function, instruction, op));
    } else {
      for (const Operand& op : instruction.operands)
        arm64_operands(function, instruction, op, operands);
      // `ret` with no operand returns through x30, as GNU as assumes.
      if (instruction.mnemonic == Mnemonic::arm64_ret && operands.empty()) {
        operands.push_back(asmjit::a64::x30);
      }
    }
    check(assembler_->emitOpArray(instruction_id(instruction), operands.data(), operands.size()),
          function, &instruction);
  }

  void check(asmjit::Error error, const Function& function, const Instruction* instruction) {
    if (error == asmjit::kErrorOk) return;
    std::string what = "kernel " + program_.kernel_name + ", function " + function.symbol;
    if (instruction != nullptr) {
      what += ", instruction '" + format_instruction(program_, *instruction) + "'";
    }
    throw GenerationError(what +
                          ": asmjit rejected it: " + asmjit::DebugUtils::errorAsString(error));
  }

  const Program& program_;
  std::unique_ptr<asmjit::BaseAssembler> assembler_;
  std::vector<asmjit::Label> labels_;
  const std::vector<asmjit::Label>* function_starts_ = nullptr;  // SymbolRef targets
};

asmjit::Environment environment_for(Isa isa) {
  return asmjit::Environment(isa == Isa::amd64 ? asmjit::Arch::kX64 : asmjit::Arch::kAArch64);
}

// Fills `code` with the program and the start/end label of each function; returns the
// instruction offsets of each function.
// Returns the offsets of each function's instructions; `table_offsets` gets each table's.
std::vector<std::vector<std::size_t>> lay_out(const Program& program, asmjit::CodeHolder& code,
                                              std::vector<asmjit::Label>& starts,
                                              std::vector<asmjit::Label>& ends,
                                              std::vector<std::size_t>& table_offsets) {
  ProgramEncoder encoder(program, code);
  encoder.run(starts, ends);
  table_offsets = std::move(encoder.table_offsets);
  return std::move(encoder.instruction_offsets);
}

}  // namespace

EncodedProgram encode(const Program& program) {
  asmjit::CodeHolder code;
  code.init(environment_for(program.isa));
  std::vector<asmjit::Label> starts, ends;
  std::vector<std::size_t> table_offsets;
  auto offsets = lay_out(program, code, starts, ends, table_offsets);
  if (asmjit::Error error = code.flatten(); error != asmjit::kErrorOk) {
    throw GenerationError(
        "kernel " + program.kernel_name +
        ": asmjit could not lay out the code: " + asmjit::DebugUtils::errorAsString(error));
  }
  if (asmjit::Error error = code.resolveUnresolvedLinks(); error != asmjit::kErrorOk) {
    throw GenerationError("kernel " + program.kernel_name +
                          ": unresolved label: " + asmjit::DebugUtils::errorAsString(error));
  }
  EncodedProgram encoded;
  const asmjit::CodeBuffer& buffer = code.textSection()->buffer();
  encoded.code.assign(buffer.data(), buffer.data() + buffer.size());
  for (std::size_t i = 0; i < program.tables.size(); ++i) {
    encoded.tables.push_back({program.label_names.at(program.tables[i].label), table_offsets[i],
                              8 * program.tables[i].values.size()});
  }
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const bool windows = i >= program.functions.size();
    const Function& function =
        windows ? program.win64_entries[i - program.functions.size()] : program.functions[i];
    const std::size_t start = code.labelOffset(starts[i]);
    (windows ? encoded.win64_entries : encoded.functions)
        .push_back(
            {function.symbol, start, code.labelOffset(ends[i]) - start, std::move(offsets[i])});
  }
  return encoded;
}

bool host_runs(Isa isa) {
  return asmjit::Environment::host().arch() ==
         (isa == Isa::amd64 ? asmjit::Arch::kX64 : asmjit::Arch::kAArch64);
}

struct JitImage::Impl {
  asmjit::JitAllocator allocator;
  void* executable = nullptr;
  const std::uint8_t* base = nullptr;
  std::vector<std::pair<std::string, std::size_t>> entries;
  ~Impl() {
    if (executable != nullptr) allocator.release(executable);
  }
};

JitImage::JitImage(const Program& program, const EncodedProgram& encoded) : impl_(new Impl) {
  std::unique_ptr<Impl> guard(impl_);
  // The code refers to its labels only relative to the instruction (as the assemblers'
  // objects show: no relocation against .text), so its bytes run at any address.
  void* writable = nullptr;
  if (asmjit::Error error =
          impl_->allocator.alloc(&impl_->executable, &writable, encoded.code.size());
      error != asmjit::kErrorOk) {
    throw GenerationError("kernel " + program.kernel_name +
                          ": JIT failed: " + asmjit::DebugUtils::errorAsString(error));
  }
  std::memcpy(writable, encoded.code.data(), encoded.code.size());
  asmjit::VirtMem::flushInstructionCache(impl_->executable, encoded.code.size());
  impl_->base = static_cast<const std::uint8_t*>(impl_->executable);
  for (const EncodedFunction& function : encoded.functions)
    impl_->entries.emplace_back(function.symbol, function.offset);
  guard.release();
}

JitImage::~JitImage() {
  delete impl_;
}

const void* JitImage::entry(const std::string& symbol) const {
  for (const auto& [name, offset] : impl_->entries) {
    if (name == symbol) return impl_->base + offset;
  }
  throw GenerationError("no entry named " + symbol + " in the JIT image");
}

}  // namespace spongegen::writers
