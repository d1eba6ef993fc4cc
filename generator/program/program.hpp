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

// Brackets the code of one round, for the audit. A round inside a loop body runs as often
// as the loop turns, which depends on the entry that entered it (a 12-round entry turns a
// shared loop half as often as a 24-round one): the audit counts rounds against the
// entry's declared round count (EntryShape::rounds), not a count fixed in the marker.
struct RoundMarker {
  bool begin;
  int round;  // 0-based position in the round sequence; the first round of a loop body
  bool in_loop;
};

using Item = std::variant<Instruction, LabelDef, Comment, Blank, Cfi, RoundMarker>;

// ---------------------------------------------------------------------------------------
// Functions, data and the file
// ---------------------------------------------------------------------------------------

// One parameter of an entry's C signature: `const uint8_t block[168]` is {"const uint8_t",
// "block", 168}. Parameter i arrives in the ABI's i-th argument register.
struct Parameter {
  std::string c_type;
  std::string name;
  int extent = 0;  // array elements; 0 for a scalar
  friend bool operator==(const Parameter&, const Parameter&) = default;
};

enum class EntryKind : std::uint8_t {
  permute,  // run the permutation on the state
  absorb,   // XOR one rate block into the state, then permute
};
std::string_view entry_kind_name(EntryKind kind);

// What one call of an entry computes, declared by the builder: the manifest, `spongegen
// list`, the audit, the generated C header, the invariant checker (argument registers) and
// the JIT self-check (which reference to run) all read it from here. The permutation is a
// name, data to the writers: they print it, never interpret it.
struct EntryShape {
  EntryKind kind = EntryKind::permute;
  std::string permutation;  // e.g. "keccak-f1600", "keccak-p1600"
  int rounds = 0;           // rounds one call runs
  int rate_bytes = 0;       // absorb entries: bytes of the block; 0 for permute
  int lanes = 1;            // independent states one call permutes
  std::vector<Parameter> parameters;
  friend bool operator==(const EntryShape&, const EntryShape&) = default;
};

// "void name(uint64_t state[25], const uint8_t block[168])"
std::string c_prototype(const std::string& symbol, const EntryShape& shape);
// "absorb keccak-p1600 rounds=12 rate=168 lanes=1": one line the reader parses back.
std::string entry_shape_line(const EntryShape& shape);

struct Function {
  std::string symbol;   // without any platform prefix
  std::string summary;  // one line: what the entry does
  EntryShape shape;
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
  void begin_round(int round, bool in_loop);
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
