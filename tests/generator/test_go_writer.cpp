// The Go writer: the operand forms of GO.md's verified table, the registers Go reserves
// refused with the kernel, function and instruction named, and the amd64-bmi2 Go file's
// frame and ABI decisions.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "isa/amd64/amd64.hpp"
#include "isa/arm64/arm64.hpp"
#include "kernels/kernel.hpp"
#include "pipeline/generate.hpp"
#include "spongegen_process.hpp"
#include "writers/go_writer.hpp"

using namespace spongegen;
using namespace spongegen::amd64;

namespace {

struct OneFunction {
  Program program;
  OneFunction() {
    program.isa = Isa::amd64;
    program.kernel_name = "test-kernel";
    Function function;
    function.symbol = "f";
    function.frame_bytes = 128;
    function.shape.parameters = {{"uint64_t", "state", 25}, {"const uint8_t", "block", 136}};
    program.functions.push_back(function);
  }
  Emitter emitter() { return Emitter(program, program.functions.back()); }
  std::string last() {
    const Function& function = program.functions.back();
    return writers::format_go_instruction(program, function,
                                          std::get<Instruction>(function.items.back()));
  }
};

// A Go file by name (the files follow the registry's order, which these tests leave free).
const std::string& go_file(const std::vector<writers::GeneratedFile>& files,
                           const std::string& name) {
  for (const writers::GeneratedFile& file : files) {
    if (file.name == name) return file.contents;
  }
  throw std::runtime_error("the generator writes no Go file " + name);
}

}  // namespace

TEST_CASE("the Go writer prints GO.md's forms: sources first, CMP in Intel's order") {
  OneFunction t;
  Emitter e = t.emitter();
  const LabelId table = t.program.new_label("rc");
  const LabelId loop = t.program.new_label("loop");
  e.mov(rax, qword(rdi, 8));
  CHECK(t.last() == "MOVQ 8(DI), AX");
  e.mov(qword(rsp, 16), rax);
  CHECK(t.last() == "MOVQ AX, 16(SP)");
  e.xor_(rax, rbx);
  CHECK(t.last() == "XORQ BX, AX");
  e.xor_(rax, qword_rip(table, 8));
  CHECK(t.last() == "XORQ rc<>+8(SB), AX");
  e.rorx(r8, rax, 63);
  CHECK(t.last() == "RORXQ $63, AX, R8");
  e.andn(r11, r9, r10);
  CHECK(t.last() == "ANDNQ R10, R9, R11");
  e.not_(r13);
  CHECK(t.last() == "NOTQ R13");
  e.add(r10, 8);
  CHECK(t.last() == "ADDQ $8, R10");
  e.cmp(r10, 136);
  CHECK(t.last() == "CMPQ R10, $136");
  e.lea(rax, qword_rip(table));
  CHECK(t.last() == "LEAQ rc<>(SB), AX");
  e.jne(loop);
  CHECK(t.last() == "JNE loop");
  e.mov(rsi, Mem{kNoBase, 8, Addressing::go_argument, kNoLabel, 8});
  CHECK(t.last() == "MOVQ block+8(FP), SI");
  e.vpxor(ymm(7), ymm(5), ymm(6));
  CHECK(t.last() == "VPXOR Y6, Y5, Y7");
  e.vpternlogq(zmm(0), zmm(1), zmm(2), 0x96);
  CHECK(t.last() == "VPTERNLOGQ $150, Z2, Z1, Z0");
}

TEST_CASE("the Go writer refuses what Go reserves, naming kernel, function and instruction") {
  auto refused = [](auto emit, const char* register_named) {
    OneFunction t;
    Emitter e = t.emitter();
    emit(e);
    try {
      (void)t.last();
      FAIL("accepted");
    } catch (const GenerationError& error) {
      const std::string message = error.what();
      CHECK(message.find("kernel test-kernel, function f") != std::string::npos);
      CHECK(message.find(register_named) != std::string::npos);
    }
  };
  refused([](Emitter& e) { e.mov(r14, qword(rdi)); }, "`mov r14, qword ptr [rdi]`: writes R14");
  refused([](Emitter& e) { e.xor_(r14, rax); }, "writes R14");
  refused([](Emitter& e) { e.sub(rsp, 8); }, "writes SP");
  refused([](Emitter& e) { e.endbr64(); }, "`endbr64`");
  refused([](Emitter& e) { e.push(rbx); }, "`push rbx`");
  // X15 is undefined in ABI0 (Go's internal ABI zeroes it after the call): a kernel may
  // write it. Reading R14 is not writing it; writing BP needs a frame (the prologue saves BP).
  OneFunction reads;
  Emitter e = reads.emitter();
  e.vpxor(ymm(15), ymm(1), ymm(2));
  CHECK(reads.last() == "VPXOR Y2, Y1, Y15");
  e.vzeroall();
  CHECK(reads.last() == "VZEROALL");
  e.mov(rax, r14);
  CHECK(reads.last() == "MOVQ R14, AX");
  e.mov(rbp, rax);
  CHECK(reads.last() == "MOVQ AX, BP");
  reads.program.functions.back().frame_bytes = 0;
  CHECK_THROWS_AS((void)reads.last(), GenerationError);
}

TEST_CASE("the Go writer prints GO.md's arm64 forms and refuses the registers Go keeps") {
  OneFunction t;
  t.program.isa = Isa::arm64;
  arm64::Emitter e(t.program, t.program.functions.back());
  const LabelId table = t.program.new_label("rc");
  const LabelId loop = t.program.new_label("loop");
  e.ldr(arm64::x(0), Mem{kNoBase, 0, Addressing::go_argument, kNoLabel, 8});
  CHECK(t.last() == "MOVD state+0(FP), R0");
  e.ldp(arm64::d(0), arm64::d(1), arm64::at(arm64::x(0)));
  CHECK(t.last() == "FLDPD (R0), (F0, F1)");
  e.stp(arm64::q(4), arm64::q(5), arm64::at(arm64::x(0), 32));
  CHECK(t.last() == "FSTPQ (F4, F5), 32(R0)");
  e.ldr(arm64::d(24), arm64::at(arm64::x(0), 192));
  CHECK(t.last() == "FMOVD 192(R0), F24");
  e.eor(3, 2, 1);
  CHECK(t.last() == "VEOR V1.B16, V2.B16, V3.B16");
  e.eor(arm64::x(1), arm64::x(2), arm64::ror(arm64::x(3), 13));
  CHECK(t.last() == "EOR R3@>13, R2, R1");
  e.eor3(25, 2, 3, 4);
  CHECK(t.last() == "VEOR3 V4.B16, V3.B16, V2.B16, V25.B16");
  e.rax1(28, 27, 26);
  CHECK(t.last() == "VRAX1 V26.D2, V27.D2, V28.D2");
  e.xar(0, 6, 26, 20);
  CHECK(t.last() == "VXAR $20, V26.D2, V6.D2, V0.D2");
  e.bcax(5, 6, 7, 8);
  CHECK(t.last() == "VBCAX V8.B16, V7.B16, V6.B16, V5.B16");
  e.ld1r(arm64::v2d(31), arm64::post_index(arm64::x(10), 8));
  CHECK(t.last() == "VLD1R.P 8(R10), [V31.D2]");
  e.adr(arm64::x(10), table);
  CHECK(t.last() == "MOVD $rc<>(SB), R10");
  e.mov(arm64::x(9), 24);
  CHECK(t.last() == "MOVD $24, R9");
  e.sub(arm64::x(9), arm64::x(9), 1);
  CHECK(t.last() == "SUB $1, R9, R9");
  e.cbnz(arm64::x(9), loop);
  CHECK(t.last() == "CBNZ R9, loop");
  e.ret();
  CHECK(t.last() == "RET");
  for (int reserved : {18, 27, 28, 29, 30}) {
    e.mov(arm64::x(reserved), 1);
    try {
      (void)t.last();
      FAIL("writing R", reserved, " accepted");
    } catch (const GenerationError& error) {
      CHECK(std::string(error.what()).find(fmt::format("writes R{}", reserved)) !=
            std::string::npos);
    }
  }
  e.bti_c();
  CHECK_THROWS_AS((void)t.last(), GenerationError);
}

TEST_CASE("the amd64-bmi2 Go file: a checked frame, arguments from FP, no R14, no saves") {
  const auto files = pipeline::go_output_files(false);
  REQUIRE(files.size() == 10);
  const std::string& s = go_file(files, "keccakf1600_amd64_bmi2_amd64.s");
  const std::string& go = go_file(files, "keccakf1600_amd64_bmi2_amd64.go");
  CHECK(s.rfind(writers::kGoGeneratedMark, 0) == 0);
  CHECK(s.find("//go:build amd64 && !purego") != std::string::npos);
  CHECK(s.find("TEXT ·sponge_keccakf1600_amd64_bmi2(SB), 0, $224-8\n") != std::string::npos);
  CHECK(s.find("MOVQ state+0(FP), DI") != std::string::npos);
  // The fused absorb entry of Keccak-256's rate, with its own copy of the loop.
  const std::size_t absorb =
      s.find("TEXT ·sponge_keccakf1600_amd64_bmi2_absorb136(SB), 0, $224-16\n");
  REQUIRE(absorb != std::string::npos);
  CHECK(s.find("MOVQ block+8(FP), R15", absorb) != std::string::npos);
  CHECK(s.find("keccakf1600_amd64_bmi2_loop:", absorb) < s.find("TEXT", absorb + 1));
  CHECK(go.find(
            "func sponge_keccakf1600_amd64_bmi2_absorb136(state *[25]uint64, block *[136]byte)") !=
        std::string::npos);
  // The block entry: its pointer and count from FP into the frame, its own loop, and the
  // branch back to the next block.
  const std::size_t blocks =
      s.find("TEXT ·sponge_keccakf1600_amd64_bmi2_absorb136_blocks(SB), 0, $224-24\n");
  REQUIRE(blocks != std::string::npos);
  CHECK(s.find("MOVQ blocks+8(FP), AX", blocks) != std::string::npos);
  CHECK(s.find("MOVQ AX, 208(SP)", blocks) != std::string::npos);
  CHECK(s.find("MOVQ block_count+16(FP), AX", blocks) != std::string::npos);
  CHECK(s.find("MOVQ AX, 216(SP)", blocks) != std::string::npos);
  CHECK(s.find("ADDQ $136, 208(SP)", blocks) != std::string::npos);
  CHECK(s.find("JNE keccakf1600_amd64_bmi2_block", blocks) != std::string::npos);
  CHECK(go.find("func sponge_keccakf1600_amd64_bmi2_absorb136_blocks(state *[25]uint64, blocks "
                "*byte, block_count uint64)") != std::string::npos);
  CHECK(s.find("GLOBL keccakf1600_amd64_bmi2_round_constants<>(SB), NOPTR|RODATA, $192") !=
        std::string::npos);
  for (const char* absent : {", R14\n", "PUSHQ", "POPQ", "ENDBR64", ".cfi", "CALL"})
    CHECK_MESSAGE(s.find(absent) == std::string::npos, absent);
  CHECK(s.find("Frame: $224") != std::string::npos);
  CHECK(s.find("224 >= 128") != std::string::npos);
  CHECK(go.find("package keccak") != std::string::npos);
  CHECK(go.find("//go:noescape\nfunc sponge_keccakf1600_amd64_bmi2(state *[25]uint64)\n") !=
        std::string::npos);
}

TEST_CASE("the amd64-avx512-x8 Go file: a checked frame over unused stack, a loop a TEXT") {
  const auto files = pipeline::go_output_files(false);
  REQUIRE(files.size() == 10);
  const std::string& s = go_file(files, "keccakf1600_amd64_avx512_x8_amd64.s");
  const std::string& go = go_file(files, "keccakf1600_amd64_avx512_x8_amd64.go");
  CHECK(s.find("TEXT ·sponge_keccakf1600_amd64_avx512_x8(SB), 0, $128-8\n") != std::string::npos);
  const std::size_t absorb =
      s.find("TEXT ·sponge_keccakf1600_amd64_avx512_x8_absorb136(SB), 0, $128-16\n");
  REQUIRE(absorb != std::string::npos);
  CHECK(s.find("MOVQ blocks+8(FP), SI", absorb) != std::string::npos);
  CHECK(s.find("keccakf1600_amd64_avx512_x8_loop:", absorb) < s.find("TEXT", absorb + 1));
  CHECK(s.find("VZEROALL", absorb) < s.find("TEXT", absorb + 1));
  // The frame holds nothing: no instruction addresses the stack (the header quotes the
  // toolchain's check, which does).
  CHECK(s.find("(SP)", s.find("TEXT ")) == std::string::npos);
  for (const char* absent : {", R14\n", "PUSHQ", "POPQ", "ENDBR64", ".cfi", "CALL"})
    CHECK_MESSAGE(s.find(absent) == std::string::npos, absent);
  CHECK(s.find("128 >= 128") != std::string::npos);
  CHECK(go.find("func sponge_keccakf1600_amd64_avx512_x8_absorb136(state *[200]uint64, "
                "blocks *[8]*byte)") != std::string::npos);
}

TEST_CASE("the amd64-avx2-x4 Go file: the scratch copy in the toolchain's frame") {
  const auto files = pipeline::go_output_files(false);
  REQUIRE(files.size() == 10);
  const std::string& s = go_file(files, "keccakf1600_amd64_avx2_x4_amd64.s");
  CHECK(s.find("TEXT ·sponge_keccakf1600_amd64_avx2_x4(SB), 0, $800-8\n") != std::string::npos);
  CHECK(s.find("TEXT ·sponge_keccakf1600_amd64_avx2_x4_absorb136(SB), 0, $800-16\n") !=
        std::string::npos);
  // The rounds write the scratch copy from SP up, inside the frame, and never move SP.
  CHECK(s.find("VMOVDQU Y15, 768(SP)") != std::string::npos);
  for (const char* absent : {"SUBQ $800, SP", "ADDQ $800, SP", ", R14\n", "ENDBR64", "CALL"})
    CHECK_MESSAGE(s.find(absent) == std::string::npos, absent);
}

TEST_CASE("the arm64-sha3 Go files: no saves, no BTI, arguments from FP, a loop a TEXT") {
  const auto files = pipeline::go_output_files(false);
  REQUIRE(files.size() == 10);
  for (const char* name : {"keccakf1600_arm64_sha3_arm64.s", "keccakf1600_arm64_sha3_x2_arm64.s"}) {
    const std::string& s = go_file(files, name);
    CHECK(s.find("//go:build arm64 && !purego") != std::string::npos);
    CHECK(s.find("MOVD state+0(FP), R0") != std::string::npos);
    for (const char* absent : {"HINT", "FSTPD (F8, F9), -", "R30", "RSP)\n", "R28,"})
      CHECK_MESSAGE(s.find(absent, s.find("TEXT ")) == std::string::npos, absent);
  }
  CHECK(go_file(files, "keccakf1600_arm64_sha3_arm64.s")
            .find("TEXT ·sponge_keccakf1600_arm64_sha3(SB), 0, $128-8\n") != std::string::npos);
  CHECK(go_file(files, "keccakf1600_arm64_sha3_x2_arm64.go")
            .find("func sponge_keccakf1600_arm64_sha3_x2_absorb136(state *[50]uint64, blocks "
                  "*[2]*byte)") != std::string::npos);
}

// Six runs of spongegen over the whole tree: generated_up_to_date (the Go folder
// included) and generated_check_detects_* take the same paths once each, so the builds
// other than Release leave this suite out (label whole-tree, docs/testing.md).
TEST_CASE("spongegen check covers the Go folder: a changed, missing or stray generated file" *
          doctest::test_suite("whole-tree")) {
  namespace fs = std::filesystem;
  spongegen_test::TemporaryFolder folder("go-check");
  const fs::path out = folder.path() / "generated", go = folder.path() / "go";
  auto run = [&](const std::vector<std::string>& arguments) {
    return spongegen_test::run_spongegen(arguments);
  };
  REQUIRE(
      run({"generate", "--out", out.string(), "--go-out", go.string(), "--no-verify", "--no-prove"})
          .exit_status == 0);
  const std::vector<std::string> check = {"check",     "--dir",       out.string(), "--go-dir",
                                          go.string(), "--no-verify", "--no-prove"};
  CHECK(run(check).exit_status == 0);
  // A hand-written file of the package is not the generator's.
  spongegen_test::write_binary_file(go / "keccak.go", "package keccak\n");
  CHECK(run(check).exit_status == 0);

  const fs::path s = go / "keccakf1600_amd64_bmi2_amd64.s";
  const std::string original = spongegen_test::read_binary_file(s);
  std::string changed = original;
  changed[changed.find("RORXQ $") + 7] ^= 1;
  spongegen_test::write_binary_file(s, changed);
  auto result = run(check);
  CHECK(result.exit_status == 1);
  CHECK(result.output.find("differs: " + s.string()) != std::string::npos);

  fs::remove(s);
  result = run(check);
  CHECK(result.exit_status == 1);
  CHECK(result.output.find("missing: " + s.string()) != std::string::npos);

  spongegen_test::write_binary_file(s, original);
  spongegen_test::write_binary_file(go / "stray_amd64.s",
                                    std::string(writers::kGoGeneratedMark) + "\n");
  result = run(check);
  CHECK(result.exit_status == 1);
  CHECK(result.output.find("extra: " + (go / "stray_amd64.s").string()) != std::string::npos);
}
