#include "writers/asmjit_encoder.hpp"

#include <asmjit/asmjit.h>

#include <fmt/format.h>

#include <cstring>
#include <memory>

#include "isa/target.hpp"
#include "program/instruction_table.hpp"
#include "writers/asmjit_isa.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::writers {
namespace {

// Lays a Program out in one asmjit CodeHolder, the same way the text writer lays it out in
// the .S file: functions 32-byte aligned in order, then the tables 64-byte aligned.
class ProgramEncoder {
 public:
  ProgramEncoder(const Program& program, const AsmjitIsa& isa, asmjit::CodeHolder& code)
      : program_(program), isa_(isa) {
    assembler_ = isa.assembler(code);
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

  void emit(const Function& function, const Instruction& instruction) {
    check_operand_forms(function, instruction);
    const AsmjitInstruction context(
        instruction, labels_, *function_starts_,
        [&](const std::string& why) { refuse(function, instruction, why); });
    if (const std::vector<std::uint8_t> bytes = isa_.bytes_by_hand(context); !bytes.empty()) {
      check(assembler_->embed(bytes.data(), bytes.size()), function, &instruction);
      return;
    }
    const std::vector<asmjit::Operand> operands = isa_.operands(context);
    check(
        assembler_->emitOpArray(isa_.instruction_id(instruction), operands.data(), operands.size()),
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
  const AsmjitIsa& isa_;
  std::unique_ptr<asmjit::BaseAssembler> assembler_;
  std::vector<asmjit::Label> labels_;
  const std::vector<asmjit::Label>* function_starts_ = nullptr;  // SymbolRef targets
};

// Fills `code` with the program and the start/end label of each function; returns the
// instruction offsets of each function.
// Returns the offsets of each function's instructions; `table_offsets` gets each table's.
std::vector<std::vector<std::size_t>> lay_out(const Program& program, const AsmjitIsa& isa,
                                              asmjit::CodeHolder& code,
                                              std::vector<asmjit::Label>& starts,
                                              std::vector<asmjit::Label>& ends,
                                              std::vector<std::size_t>& table_offsets) {
  ProgramEncoder encoder(program, isa, code);
  encoder.run(starts, ends);
  table_offsets = std::move(encoder.table_offsets);
  return std::move(encoder.instruction_offsets);
}

}  // namespace

EncodedProgram encode(const Program& program) {
  return target(program.isa).encode(program);
}

EncodedProgram encode_with_asmjit(const Program& program, const AsmjitIsa& isa) {
  asmjit::CodeHolder code;
  code.init(asmjit::Environment(isa.arch()));
  std::vector<asmjit::Label> starts, ends;
  std::vector<std::size_t> table_offsets;
  auto offsets = lay_out(program, isa, code, starts, ends, table_offsets);
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
