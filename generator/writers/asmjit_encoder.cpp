#include "writers/asmjit_encoder.hpp"

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

// Lays a Program out in one asmjit CodeHolder, the same way the text writer lays it out in
// the .S file: functions 32-byte aligned in order, then the tables 64-byte aligned.
class Amd64Encoder {
 public:
  Amd64Encoder(const Program& program, asmjit::CodeHolder& code)
      : program_(program), assembler_(&code) {
    assembler_.addDiagnosticOptions(asmjit::DiagnosticOptions::kValidateAssembler);
    for (std::size_t i = 0; i < program.label_names.size(); ++i) {
      labels_.push_back(assembler_.newLabel());
    }
  }

  void run(std::vector<asmjit::Label>& starts, std::vector<asmjit::Label>& ends) {
    for (const Function& function : program_.functions) {
      check(assembler_.align(asmjit::AlignMode::kCode, 32), function, nullptr);
      starts.push_back(assembler_.newLabel());
      ends.push_back(assembler_.newLabel());
      assembler_.bind(starts.back());
      for (const Item& item : function.items) {
        if (const auto* instruction = std::get_if<Instruction>(&item)) {
          emit(function, *instruction);
        } else if (const auto* label = std::get_if<LabelDef>(&item)) {
          check(assembler_.bind(labels_.at(label->id)), function, nullptr);
        }
      }
      assembler_.bind(ends.back());
    }
    for (const QuadTable& table : program_.tables) {
      assembler_.align(asmjit::AlignMode::kData, 64);
      assembler_.bind(labels_.at(table.label));
      for (std::uint64_t value : table.values)
        assembler_.embedUInt64(value);
    }
  }

 private:
  asmjit::Operand operand(const Operand& op) const {
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

  void emit(const Function& function, const Instruction& instruction) {
    std::vector<asmjit::Operand> operands;
    for (const Operand& op : instruction.operands)
      operands.push_back(operand(op));
    check(assembler_.emitOpArray(amd64_instruction_id(instruction.mnemonic), operands.data(),
                                 operands.size()),
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
  asmjit::x86::Assembler assembler_;
  std::vector<asmjit::Label> labels_;
};

asmjit::Environment environment_for(Isa isa) {
  return asmjit::Environment(isa == Isa::amd64 ? asmjit::Arch::kX64 : asmjit::Arch::kAArch64);
}

// Fills `code` with the program; returns the start/end label of each function.
void lay_out(const Program& program, asmjit::CodeHolder& code, std::vector<asmjit::Label>& starts,
             std::vector<asmjit::Label>& ends) {
  if (program.isa != Isa::amd64) {
    throw GenerationError("kernel " + program.kernel_name + ": no asmjit encoder for " +
                          std::string(isa_name(program.isa)) + " yet");
  }
  Amd64Encoder(program, code).run(starts, ends);
}

}  // namespace

EncodedProgram encode(const Program& program) {
  asmjit::CodeHolder code;
  code.init(environment_for(program.isa));
  std::vector<asmjit::Label> starts, ends;
  lay_out(program, code, starts, ends);
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
    encoded.functions.push_back(
        {program.functions[i].symbol, start, code.labelOffset(ends[i]) - start});
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
