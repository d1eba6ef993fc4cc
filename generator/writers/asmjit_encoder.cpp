#include "writers/asmjit_encoder.hpp"

#include <asmjit/arm/a64assembler.h>
#include <asmjit/asmjit.h>

#include <memory>

#include "writers/gas_writer.hpp"

namespace spongegen::writers {
namespace {

asmjit::InstId amd64_instruction_id(Mnemonic mnemonic) {
  namespace Inst = asmjit::x86::Inst;
  switch (mnemonic) {
    case Mnemonic::amd64_add:
      return Inst::kIdAdd;
    case Mnemonic::amd64_andn:
      return Inst::kIdAndn;
    case Mnemonic::amd64_cmp:
      return Inst::kIdCmp;
    case Mnemonic::amd64_jne:
      return Inst::kIdJne;
    case Mnemonic::amd64_lea:
      return Inst::kIdLea;
    case Mnemonic::amd64_endbr64:
      return Inst::kIdEndbr64;
    case Mnemonic::amd64_jmp:
      return Inst::kIdJmp;
    case Mnemonic::amd64_mov:
      return Inst::kIdMov;
    case Mnemonic::amd64_pop:
      return Inst::kIdPop;
    case Mnemonic::amd64_push:
      return Inst::kIdPush;
    case Mnemonic::amd64_ret:
      return Inst::kIdRet;
    case Mnemonic::amd64_rorx:
      return Inst::kIdRorx;
    case Mnemonic::amd64_sub:
      return Inst::kIdSub;
    case Mnemonic::amd64_xor:
      return Inst::kIdXor;
    default:
      break;
  }
  throw GenerationError("no amd64 encoding for '" + std::string(mnemonic_info(mnemonic).text) +
                        "'");
}

// asmjit's AArch64 instruction ids differ between the general-purpose and the SIMD form of
// the same mnemonic (ldp x0, x1 vs ldp d0, d1), so the first operand picks.
asmjit::InstId arm64_instruction_id(const Instruction& instruction) {
  using Inst = asmjit::a64::Inst;
  const Reg* first =
      instruction.operands.empty() ? nullptr : std::get_if<Reg>(&instruction.operands[0]);
  const bool simd = first != nullptr && first->cls != RegClass::gp64 &&
                    first->cls != RegClass::gp32 && first->cls != RegClass::sp;
  switch (instruction.mnemonic) {
    case Mnemonic::arm64_add:
      return Inst::kIdAdd;
    case Mnemonic::arm64_adr:
      return Inst::kIdAdr;
    case Mnemonic::arm64_b:
      return Inst::kIdB;
    case Mnemonic::arm64_bcax:
      return Inst::kIdBcax_v;
    case Mnemonic::arm64_cbnz:
      return Inst::kIdCbnz;
    case Mnemonic::arm64_eor:
      return simd ? Inst::kIdEor_v : Inst::kIdEor;
    case Mnemonic::arm64_eor3:
      return Inst::kIdEor3_v;
    case Mnemonic::arm64_hint:
      return Inst::kIdHint;
    case Mnemonic::arm64_ld1r:
      return Inst::kIdLd1r_v;
    case Mnemonic::arm64_ldp:
      return simd ? Inst::kIdLdp_v : Inst::kIdLdp;
    case Mnemonic::arm64_ldr:
      return simd ? Inst::kIdLdr_v : Inst::kIdLdr;
    case Mnemonic::arm64_mov:
      return Inst::kIdMov;
    case Mnemonic::arm64_rax1:
      return Inst::kIdRax1_v;
    case Mnemonic::arm64_ret:
      return Inst::kIdRet;
    case Mnemonic::arm64_stp:
      return simd ? Inst::kIdStp_v : Inst::kIdStp;
    case Mnemonic::arm64_str:
      return simd ? Inst::kIdStr_v : Inst::kIdStr;
    case Mnemonic::arm64_sub:
      return Inst::kIdSub;
    case Mnemonic::arm64_xar:
      return Inst::kIdXar_v;
    default:
      break;
  }
  throw GenerationError("no arm64 encoding for '" +
                        std::string(mnemonic_info(instruction.mnemonic).text) + "'");
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

  void run(std::vector<asmjit::Label>& starts, std::vector<asmjit::Label>& ends) {
    for (const Function& function : program_.functions) {
      check(assembler_->align(asmjit::AlignMode::kCode, 32), function, nullptr);
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
    for (const QuadTable& table : program_.tables) {
      assembler_->align(asmjit::AlignMode::kData, 64);
      assembler_->bind(labels_.at(table.label));
      for (std::uint64_t value : table.values)
        assembler_->embedUInt64(value);
    }
  }

 private:
  asmjit::Operand amd64_operand(const Operand& op) const {
    namespace x86 = asmjit::x86;
    if (const Reg* reg = std::get_if<Reg>(&op)) return x86::gpq(reg->index);
    if (const Imm* imm = std::get_if<Imm>(&op)) return asmjit::Imm(imm->value);
    if (const LabelRef* label = std::get_if<LabelRef>(&op)) return labels_.at(label->id);
    if (const Mem* mem = std::get_if<Mem>(&op)) {
      if (mem->addressing == Addressing::pc_relative) {
        return x86::qword_ptr(labels_.at(mem->label), mem->disp);
      }
      return x86::qword_ptr(x86::gpq(mem->base.index), mem->disp);
    }
    throw GenerationError("operand kind not available on amd64");
  }

  static asmjit::Operand arm64_register(const Reg& reg) {
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
      case RegClass::vec16b:
        return a64::v(reg.index).b16();
      case RegClass::vec2d:
        return a64::v(reg.index).d2();
    }
    throw GenerationError("unknown arm64 register class");
  }

  asmjit::Operand arm64_operand(const Operand& op) const {
    namespace a64 = asmjit::a64;
    if (const Reg* reg = std::get_if<Reg>(&op)) return arm64_register(*reg);
    if (const Imm* imm = std::get_if<Imm>(&op)) return asmjit::Imm(imm->value);
    if (const LabelRef* label = std::get_if<LabelRef>(&op)) return labels_.at(label->id);
    if (const Mem* mem = std::get_if<Mem>(&op)) {
      const a64::Gp base = mem->base.cls == RegClass::sp ? a64::sp : a64::x(mem->base.index);
      switch (mem->addressing) {
        case Addressing::offset:
          return a64::ptr(base, mem->disp);
        case Addressing::pre_index:
          return a64::ptr_pre(base, mem->disp);
        case Addressing::post_index:
          return a64::ptr_post(base, mem->disp);
        case Addressing::pc_relative:
          break;
      }
    }
    throw GenerationError("operand kind not available on arm64");
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
    for (const Reg* reg : {&d, &n, &m}) {
      if (reg->cls != RegClass::vec2d || reg->index > 31) {
        throw GenerationError("kernel " + program_.kernel_name + ", function " + function.symbol +
                              ", instruction '" + format_instruction(program_, instruction) +
                              "': xar takes .2d registers");
      }
    }
    if (rotate < 0 || rotate > 63) {
      throw GenerationError("kernel " + program_.kernel_name + ", function " + function.symbol +
                            ", instruction '" + format_instruction(program_, instruction) +
                            "': xar rotates by 0..63");
    }
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
    if (instruction.mnemonic == Mnemonic::arm64_xar) {
      emit_xar(function, instruction);
      return;
    }
    std::vector<asmjit::Operand> operands;
    asmjit::InstId id;
    if (program_.isa == Isa::amd64) {
      id = amd64_instruction_id(instruction.mnemonic);
      for (const Operand& op : instruction.operands)
        operands.push_back(amd64_operand(op));
    } else {
      id = arm64_instruction_id(instruction);
      for (const Operand& op : instruction.operands)
        operands.push_back(arm64_operand(op));
      // `ret` with no operand returns through x30, as GNU as assumes.
      if (instruction.mnemonic == Mnemonic::arm64_ret && operands.empty()) {
        operands.push_back(asmjit::a64::x30);
      }
    }
    check(assembler_->emitOpArray(id, operands.data(), operands.size()), function, &instruction);
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
};

asmjit::Environment environment_for(Isa isa) {
  return asmjit::Environment(isa == Isa::amd64 ? asmjit::Arch::kX64 : asmjit::Arch::kAArch64);
}

// Fills `code` with the program and the start/end label of each function; returns the
// instruction offsets of each function.
std::vector<std::vector<std::size_t>> lay_out(const Program& program, asmjit::CodeHolder& code,
                                              std::vector<asmjit::Label>& starts,
                                              std::vector<asmjit::Label>& ends) {
  ProgramEncoder encoder(program, code);
  encoder.run(starts, ends);
  return std::move(encoder.instruction_offsets);
}

}  // namespace

EncodedProgram encode(const Program& program) {
  asmjit::CodeHolder code;
  code.init(environment_for(program.isa));
  std::vector<asmjit::Label> starts, ends;
  auto offsets = lay_out(program, code, starts, ends);
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
  for (std::size_t i = 0; i < program.functions.size(); ++i) {
    const std::size_t start = code.labelOffset(starts[i]);
    encoded.functions.push_back({program.functions[i].symbol, start,
                                 code.labelOffset(ends[i]) - start, std::move(offsets[i])});
  }
  return encoded;
}

bool host_runs(Isa isa) {
  return asmjit::Environment::host().arch() ==
         (isa == Isa::amd64 ? asmjit::Arch::kX64 : asmjit::Arch::kAArch64);
}

struct JitImage::Impl {
  asmjit::JitRuntime runtime;
  const std::uint8_t* base = nullptr;
  std::vector<std::pair<std::string, std::size_t>> entries;
};

JitImage::JitImage(const Program& program) : impl_(new Impl) {
  std::unique_ptr<Impl> guard(impl_);
  asmjit::CodeHolder code;
  code.init(impl_->runtime.environment());
  std::vector<asmjit::Label> starts, ends;
  lay_out(program, code, starts, ends);
  void* base = nullptr;
  if (asmjit::Error error = impl_->runtime.add(&base, &code); error != asmjit::kErrorOk) {
    throw GenerationError("kernel " + program.kernel_name +
                          ": JIT failed: " + asmjit::DebugUtils::errorAsString(error));
  }
  impl_->base = static_cast<const std::uint8_t*>(base);
  for (std::size_t i = 0; i < program.functions.size(); ++i) {
    impl_->entries.emplace_back(program.functions[i].symbol, code.labelOffset(starts[i]));
  }
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
