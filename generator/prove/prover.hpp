// spongegen prove: each entry of a kernel, run on the symbolic machine from a state, blocks
// and registers of free variables, against its specification; the proof holds for every
// input at once. At each round boundary every machine word is matched to the specification's
// state (a lane, up to a constant the kernel carries, such as a deferred NOT, or a sum it
// gathered early, such as Keccak's column parity) and replaced by fresh variables, so each
// round is compared exactly in polynomials of degree at most two. What is proven: the state
// and every output word at the return equal the specification's; no load reads memory the
// entry did not receive or write; no store leaves the state, the stack or the output; no
// branch depends on the data; the registers and stack the ABI makes callee-saved hold their
// caller's values again.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kernels/kernel.hpp"
#include "program/program.hpp"
#include "prove/machine.hpp"
#include "verify/jit_verify.hpp"

namespace spongegen::prove {

// What one concrete run left: the state array and the output buffer (encrypt, decrypt).
struct ConcreteOutcome {
  std::vector<std::uint64_t> state;
  std::vector<std::uint8_t> output;
  friend bool operator==(const ConcreteOutcome&, const ConcreteOutcome&) = default;
};

struct EntryProof {
  std::string symbol;
  bool win64 = false;   // the Windows x64 entry of the symbol
  std::string variant;  // "block_count 2, out == in"; empty for a single case
  bool proven = false;
  std::string failure;         // why not: the first round and word where kernel and model part
  std::string counterexample;  // a concrete input the entry gets wrong, when one was found
  std::optional<verify::EntryInput> counterexample_input;
  // On that input: what the entry left on the prover's machine, and what the model says.
  std::optional<ConcreteOutcome> counterexample_machine, counterexample_model;
  // Whether running the entry on this CPU (the JIT) disagreed with the reference on that
  // input too; nothing when this host cannot run it.
  std::optional<bool> confirmed_on_host;
  std::size_t instructions = 0;  // executed
  int boundaries = 0;            // round boundaries matched
  // Rounds taken from the record of the same code run before on the same values
  // (prove/round_reuse.hpp), not run again; their instructions count as executed.
  int rounds_replayed = 0;
  // Proven: how far below its return address the entry's stack went; whether a call was
  // taken from the proof of the System V entry it calls (a Windows x64 entry's), not run.
  std::int64_t stack_bytes = 0;
  bool call_summarized = false;
  // Proven: the registers (bit r) and vector register words (bit w of register r) that hold
  // their caller's value at the return, whatever it was.
  std::bitset<kMachineRegisters> preserved_gp;
  std::array<std::uint8_t, kMachineRegisters> preserved_vector_words{};
  double seconds = 0;
};

struct KernelProof {
  std::string kernel;
  std::vector<EntryProof> entries;
  double seconds = 0;
  bool from_cache = false;  // read from the proof cache (prove/proof_cache.hpp), not proven again
  bool proven() const;
};

// Where prove_kernel finds and keeps proofs (prove/proof_cache.hpp): nowhere by default.
struct ProofCacheUse {
  std::optional<std::filesystem::path> folder;
  bool read = true;  // false: prove again, and keep the new proof
};

struct ProveOptions {
  std::string entry;  // only this symbol, if set
  // Entries that take a block count are proven for each count up to this one.
  std::size_t most_blocks = 3;
  bool system_v_only = false;  // skip the Windows x64 entries
  unsigned threads = 0;        // entries proven at once; 0: one per CPU
  // Take a round's proof from an identical round proven before (prove/round_reuse.hpp).
  bool reuse_rounds = true;
  ProofCacheUse cache;
};

// `program` is the kernel's Program: as built, or as the reader parsed back a committed file.
KernelProof prove_kernel(const kernels::KernelSpec& spec, const Program& program,
                         const ProveOptions& options = {});

// Runs the entry of a failed proof on its counterexample through the JIT, when this host
// can (EntryProof::confirmed_on_host).
EntryProof confirm_on_host(const kernels::KernelSpec& spec, const Program& program,
                           EntryProof proof);

}  // namespace spongegen::prove
