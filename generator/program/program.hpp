// The Program: one generated assembly file as typed data.
//
// A kernel builder fills a Program with instructions whose operands are registers, memory
// references, immediates and labels; it never prints text. Writers turn a Program into GNU
// assembler text, into machine code (through asmjit), or into audit figures. Nothing here
// knows Keccak.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace spongegen {

enum class Isa : std::uint8_t { amd64, arm64 };
std::string_view isa_name(Isa isa);

// ---------------------------------------------------------------------------------------
// Operands
// ---------------------------------------------------------------------------------------

enum class RegClass : std::uint8_t {
  gp64,    // amd64 rax..r15 (index = hardware encoding), arm64 x0..x30
  gp32,    // arm64 w0..w30
  sp,      // arm64 stack pointer (index ignored)
  fp64,    // arm64 d0..d31: the low 64 bits of a SIMD register
  vec16b,  // arm64 vN.16b
  vec2d,   // arm64 vN.2d
};

struct Reg {
  RegClass cls;
  std::uint8_t index;
  friend bool operator==(const Reg&, const Reg&) = default;
};

using LabelId = std::uint32_t;
inline constexpr LabelId kNoLabel = 0xffffffffu;

enum class Addressing : std::uint8_t {
  offset,      // [base + disp]
  pre_index,   // arm64 [base, #disp]!
  post_index,  // arm64 [base], #disp
  pc_relative  // [rip + label + disp] on amd64
};

// The base of a pc_relative operand: the address comes from the label, not a register.
inline constexpr Reg kNoBase{RegClass::gp64, 0xff};

struct Mem {
  Reg base;
  std::int32_t disp = 0;
  Addressing addressing = Addressing::offset;
  LabelId label = kNoLabel;  // only for pc_relative
  friend bool operator==(const Mem&, const Mem&) = default;
};

struct Imm {
  std::int64_t value;
  friend bool operator==(const Imm&, const Imm&) = default;
};

struct LabelRef {
  LabelId id;
  friend bool operator==(const LabelRef&, const LabelRef&) = default;
};

using Operand = std::variant<Reg, Mem, Imm, LabelRef>;

// ---------------------------------------------------------------------------------------
// Instructions
// ---------------------------------------------------------------------------------------

// Every mnemonic any builder may use. Operand order is the Intel manual's for amd64 and the
// Arm ARM's for arm64: destination first.
enum class Mnemonic : std::uint16_t {
  // amd64
  amd64_add,
  amd64_andn,
  amd64_cmp,
  amd64_endbr64,
  amd64_jmp,
  amd64_jne,
  amd64_lea,
  amd64_mov,
  amd64_pop,
  amd64_push,
  amd64_ret,
  amd64_rorx,
  amd64_sub,
  amd64_xor,
  // arm64
  arm64_add,
  arm64_adr,
  arm64_b,
  arm64_bcax,
  arm64_cbnz,
  arm64_eor,
  arm64_eor3,
  arm64_hint,
  arm64_ld1r,
  arm64_ldp,
  arm64_ldr,
  arm64_mov,
  arm64_rax1,
  arm64_ret,
  arm64_stp,
  arm64_str,
  arm64_sub,
  arm64_xar,
};

struct MnemonicInfo {
  std::string_view text;  // as the assembler spells it
  Isa isa;
  bool is_branch;
};
const MnemonicInfo& mnemonic_info(Mnemonic mnemonic);

struct Instruction {
  Mnemonic mnemonic;
  std::vector<Operand> operands;
  std::string comment;  // printed after the instruction; empty for none
};

// Call frame information, so debuggers, profilers and unwinders can walk through a kernel.
enum class CfiKind : std::uint8_t {
  adjust_cfa_offset,  // value: bytes the CFA moved by
  def_cfa_offset,     // value: the CFA's new offset from the stack pointer
  offset,             // reg saved at CFA + value
  restore,            // reg holds its caller's value again
};
struct Cfi {
  CfiKind kind;
  std::int64_t value = 0;
  Reg reg{RegClass::gp64, 0};
};

struct LabelDef {
  LabelId id;
};
struct Comment {
  std::string text;
};
struct Blank {};

// Brackets the code of one round, for the audit. `repeat` is how often the bracketed code
// runs per permutation: 1 for an unrolled round, 24 for the body of a round loop.
struct RoundMarker {
  bool begin;
  int round;  // 0-based; the first round of a loop body
  int repeat;
};

using Item = std::variant<Instruction, LabelDef, Comment, Blank, Cfi, RoundMarker>;

// ---------------------------------------------------------------------------------------
// Functions, data and the file
// ---------------------------------------------------------------------------------------

struct Function {
  std::string symbol;     // without any platform prefix
  std::string signature;  // the C prototype, for the comment above it
  std::string summary;    // one line: what the entry does
  std::vector<Item> items;
};

// 64-bit constants placed after the functions, in the text section (see the writers).
struct QuadTable {
  LabelId label;
  std::string comment;
  std::vector<std::uint64_t> values;
};

// Which ELF notes the file carries besides .note.GNU-stack (always present on ELF).
enum class PropertyNote : std::uint8_t { none, x86_ibt_shstk, aarch64_bti_pac };

struct Program {
  Isa isa;
  std::string file_name;                  // e.g. "keccakf1600_amd64_bmi2.S"
  std::string kernel_name;                // e.g. "amd64-bmi2"
  std::vector<std::string> header_lines;  // the decisions, as comment lines
  PropertyNote property_note = PropertyNote::none;
  std::string arch_directive;  // e.g. "armv8.2-a+sha3" for `.arch`; empty for none
  // The choices the builder made, as (name, value), for manifest.json.
  std::vector<std::pair<std::string, std::string>> options;
  std::vector<std::string> label_names;  // LabelId -> name
  std::vector<Function> functions;
  std::vector<QuadTable> tables;

  LabelId new_label(std::string name);
  std::size_t instruction_count() const;
};

// A generation error: names what was being generated and what was wrong.
class GenerationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Appends items to one function of a Program. ISA-specific emitters (amd64.hpp, arm64.hpp)
// derive from it and add one typed method per instruction.
class FunctionBuilder {
 public:
  FunctionBuilder(Program& program, Function& function) : program_(program), function_(function) {}

  void comment(std::string text);
  void blank();
  void bind(LabelId label);
  void cfi(Cfi entry);
  void begin_round(int round, int repeat);
  void end_round();
  // Attaches a trailing comment to the last instruction emitted.
  void annotate(std::string text);

  Program& program() { return program_; }

 protected:
  void emit(Mnemonic mnemonic, std::vector<Operand> operands);

 private:
  Program& program_;
  Function& function_;
};

}  // namespace spongegen
