#include "prove/proof_cache.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>
#include <thread>
#include <type_traits>
#include <variant>

#include "prove/prover_source_digest.hpp"  // generated at build time (generator/CMakeLists.txt)
#include "writers/manifest.hpp"

namespace spongegen::prove {
namespace {

constexpr const char* kCacheFormat = "spongegen proof cache 1";

// An unambiguous byte string of what the prover reads: every field is written with its
// length or a fixed width, so two different inputs never give the same string.
class Digest {
 public:
  // Labels go in by name: the builder and the reader of a committed file number them in
  // different orders, and the names are what the file says.
  explicit Digest(const std::vector<std::string>& label_names) : label_names_(label_names) {}
  void add_label(LabelId label) { add(label == kNoLabel ? std::string() : label_names_.at(label)); }
  template <class Integer>
  requires std::is_integral_v<Integer> || std::is_enum_v<Integer>
  void add(Integer value) {
    const auto wide = static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
    for (int b = 0; b < 8; ++b)
      bytes_.push_back(static_cast<char>(wide >> (8 * b)));
  }
  void add(const std::string& text) {
    add(text.size());
    bytes_ += text;
  }
  void add(const Reg& reg) {
    add(reg.cls);
    add(reg.index);
    add(reg.arrangement);
  }
  void add(const Operand& operand) {
    add(operand.index());
    std::visit(
        [this](const auto& o) {
          using T = std::decay_t<decltype(o)>;
          if constexpr (std::is_same_v<T, Reg>) {
            add(o);
          } else if constexpr (std::is_same_v<T, Mem>) {
            add(o.base);
            add(o.disp);
            add(o.addressing);
            add_label(o.label);
            add(o.bytes);
          } else if constexpr (std::is_same_v<T, Imm>) {
            add(o.value);
          } else if constexpr (std::is_same_v<T, LabelRef>) {
            add_label(o.id);
          } else if constexpr (std::is_same_v<T, ShiftedReg>) {
            add(o.reg);
            add(o.shift);
            add(o.amount);
          } else {
            static_assert(std::is_same_v<T, SymbolRef>);
            add(o.function);
          }
        },
        operand);
  }
  // The code the prover runs: instructions, labels and round markers, and the CFI, which it
  // checks before every instruction. Comments and blank lines are text for people, which the
  // prover never reads (prover.cpp skips every other item).
  void add(const Function& function) {
    add(function.symbol);
    const EntryShape& shape = function.shape;
    add(shape.kind);
    add(shape.permutation);
    add(shape.rounds);
    add(shape.rate_bytes);
    add(shape.lanes);
    add(shape.parameters.size());
    for (const Parameter& parameter : shape.parameters) {
      add(parameter.c_type);
      add(parameter.name);
      add(parameter.extent);
    }
    add(function.frame_bytes);
    for (const Item& item : function.items) {
      if (const auto* instruction = std::get_if<Instruction>(&item)) {
        add('I');
        add(instruction->mnemonic);
        add(instruction->operands.size());
        for (const Operand& operand : instruction->operands)
          add(operand);
      } else if (const auto* label = std::get_if<LabelDef>(&item)) {
        add('L');
        add_label(label->id);
      } else if (const auto* marker = std::get_if<RoundMarker>(&item)) {
        add('R');
        add(marker->begin);
        add(marker->round);
        add(marker->in_loop);
      } else if (const auto* cfi = std::get_if<Cfi>(&item)) {
        add('C');
        add(cfi->kind);
        add(cfi->value);
        add(cfi->reg);
      }
    }
    add('E');
  }
  std::string hex() const { return writers::sha256_hex(bytes_); }

 private:
  const std::vector<std::string>& label_names_;
  std::string bytes_;
};

bool proof_cache_read = true;

}  // namespace

std::string proof_digest(const std::string& family, const Program& program,
                         const ProveOptions& options) {
  Digest digest(program.label_names);
  // Names stand for labels only where they are unique (as an assembler requires); otherwise
  // the numbering goes in too.
  std::vector<std::string> names = program.label_names;
  std::sort(names.begin(), names.end());
  if (std::adjacent_find(names.begin(), names.end()) != names.end()) {
    for (const std::string& name : program.label_names)
      digest.add(name);
  }
  digest.add(std::string(kCacheFormat));
  digest.add(std::string(kProverSourceDigest));
  digest.add(family);
  digest.add(options.entry);
  digest.add(options.most_blocks);
  digest.add(options.system_v_only);
  digest.add(options.reuse_rounds);
  digest.add(program.isa);
  digest.add(program.go_abi0);
  for (const auto* list : {&program.functions, &program.win64_entries}) {
    digest.add(list->size());
    for (const Function& function : *list)
      digest.add(function);
  }
  digest.add(program.tables.size());
  for (const QuadTable& table : program.tables) {
    digest.add_label(table.label);
    digest.add(table.values.size());
    for (std::uint64_t value : table.values)
      digest.add(value);
  }
  return digest.hex();
}

// One line a case: symbol, Windows x64 (0 or 1), call summarized (0 or 1), instructions,
// boundaries, seconds, then the variant (which may hold spaces) to the end of the line.
std::optional<KernelProof> load_cached_proof(const std::filesystem::path& folder,
                                             const std::string& digest) {
  std::ifstream in(folder / (digest + ".proof"));
  if (!in) return std::nullopt;
  std::string line;
  if (!std::getline(in, line) || line != kCacheFormat) return std::nullopt;
  KernelProof proof;
  if (!std::getline(in, proof.kernel) || !std::getline(in, line) || line != digest) {
    return std::nullopt;
  }
  std::size_t cases = 0;
  if (!std::getline(in, line)) return std::nullopt;
  std::istringstream(line) >> cases;
  for (std::size_t c = 0; c < cases; ++c) {
    if (!std::getline(in, line)) return std::nullopt;
    std::istringstream fields(line);
    EntryProof entry;
    int win64 = 0, summarized = 0;
    if (!(fields >> entry.symbol >> win64 >> summarized >> entry.instructions >> entry.boundaries >>
          entry.seconds)) {
      return std::nullopt;
    }
    std::getline(fields >> std::ws, entry.variant);
    entry.win64 = win64 != 0;
    entry.call_summarized = summarized != 0;
    entry.proven = true;
    proof.entries.push_back(std::move(entry));
  }
  if (!std::getline(in, line) || line != "end") return std::nullopt;
  proof.from_cache = true;
  return proof;
}

void store_cached_proof(const std::filesystem::path& folder, const std::string& digest,
                        const KernelProof& proof) {
  if (!proof.proven()) return;
  std::string text =
      fmt::format("{}\n{}\n{}\n{}\n", kCacheFormat, proof.kernel, digest, proof.entries.size());
  for (const EntryProof& entry : proof.entries) {
    text += fmt::format("{} {} {} {} {} {:.6f} {}\n", entry.symbol, entry.win64 ? 1 : 0,
                        entry.call_summarized ? 1 : 0, entry.instructions, entry.boundaries,
                        entry.seconds, entry.variant);
  }
  text += "end\n";
  // Written beside, then renamed over: a reader (another spongegen proving at the same
  // time) sees the whole file or none.
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) return;
  const std::filesystem::path path = folder / (digest + ".proof");
  std::filesystem::path partial = path;
  partial += fmt::format(".{}.{}.partial", ::getpid(),
                         std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(partial, std::ios::binary);
    out << text;
    if (!out.flush()) {
      std::filesystem::remove(partial, error);
      return;
    }
  }
  std::filesystem::rename(partial, path, error);
  if (error) std::filesystem::remove(partial, error);
}

ProofCacheUse command_line_proof_cache() {
  ProofCacheUse use;
  const char* folder = std::getenv("SPONGEGEN_PROOF_CACHE");
  use.folder = folder != nullptr && *folder != '\0'
                   ? std::filesystem::path(folder)
                   : std::filesystem::path(SPONGEGEN_PROOF_CACHE_DIR);
  use.read = proof_cache_read;
  return use;
}

void prove_without_cached_proofs() {
  proof_cache_read = false;
}

}  // namespace spongegen::prove
