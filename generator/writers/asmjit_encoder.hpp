// The asmjit writer: Program -> machine code.
//
// Every instruction a builder emits is encoded by asmjit with its validator on, so an
// invalid operand combination fails generation with a message naming the kernel, the
// function, the instruction and asmjit's error. The encoding is also what the JIT
// self-check runs and what the audit reports as code bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "program/program.hpp"

namespace spongegen::writers {

struct EncodedFunction {
  std::string symbol;
  std::size_t offset;  // from the start of the code
  std::size_t size;    // bytes up to the end of its last instruction
  // Where each of the function's instructions starts, from the function's start, in the
  // order they appear in Function::items.
  std::vector<std::size_t> instruction_offsets;
};

// One constant table of Program::tables, where the encoding places it.
struct EncodedTable {
  std::string label;
  std::size_t offset;  // from the start of the code
  std::size_t size;    // bytes
};

struct EncodedProgram {
  // Functions, tables and Windows entries, laid out as the .S file does; what lies between
  // them is alignment padding.
  std::vector<std::uint8_t> code;
  std::vector<EncodedFunction> functions;
  std::vector<EncodedTable> tables;            // Program::tables, after the functions
  std::vector<EncodedFunction> win64_entries;  // Program::win64_entries, after the tables
};

// Throws GenerationError for any instruction asmjit rejects.
EncodedProgram encode(const Program& program);

// Runs `use` with the encoded program loaded as executable memory (x86-64 hosts only for
// amd64 programs); `base` points at the first byte of EncodedProgram::code.
class JitImage {
 public:
  // `encoded` is encode(program): its bytes are copied, not encoded again.
  JitImage(const Program& program, const EncodedProgram& encoded);
  ~JitImage();
  JitImage(const JitImage&) = delete;
  JitImage& operator=(const JitImage&) = delete;

  const void* entry(const std::string& symbol) const;

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace spongegen::writers
