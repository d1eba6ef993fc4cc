// The proof cache: a kernel's proof kept in the build folder, keyed by a digest of everything
// the proof depends on (the Program's code and data as the prover reads them, the kernel's
// permutation family, the prove options that choose the entry cases, and the prover's and
// the model's own source, hashed at build time). `generate`, `check` and `prove` skip a kernel
// whose digest has a cached proof; only proofs of every entry case are kept, never a failure,
// so a changed kernel (another digest) is always proven again.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "program/program.hpp"
#include "prove/prover.hpp"

namespace spongegen::prove {

// The hex SHA-256 the cache keys a proof by.
std::string proof_digest(const std::string& family, const Program& program,
                         const ProveOptions& options);

// The cached proof of `digest` in `folder`, if one is there and reads back whole.
std::optional<KernelProof> load_cached_proof(const std::filesystem::path& folder,
                                             const std::string& digest);
// Keeps a proof of every entry case (a proof with a refused case is not kept). A cache that
// cannot be written is no error: the next run proves again.
void store_cached_proof(const std::filesystem::path& folder, const std::string& digest,
                        const KernelProof& proof);

// The cache the command line's proofs use: the build folder's proof-cache (or the folder
// SPONGEGEN_PROOF_CACHE names); `--no-cache` makes them prove everything (and still keep
// the proofs for the next run).
ProofCacheUse command_line_proof_cache();
void prove_without_cached_proofs();

}  // namespace spongegen::prove
