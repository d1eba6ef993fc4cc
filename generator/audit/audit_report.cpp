// The audit's reports: the text table, the JSON, and the diff of two audits with the
// instructions that changed.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "audit/audit.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::audit {

namespace {

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& part : parts)
    out += (out.empty() ? "" : " ") + part;
  return out.empty() ? "-" : out;
}

std::string mix_cells(const InstructionMix& m) {
  return fmt::format("{:>6} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>4}", m.total, m.loads,
                     m.stores, m.alu, m.rotate, m.andn, m.ternary, m.vector_permute, m.branch);
}

nlohmann::ordered_json mix_json(const InstructionMix& m) {
  return {{"total", m.total},     {"loads", m.loads},
          {"stores", m.stores},   {"alu", m.alu},
          {"rotate", m.rotate},   {"andn", m.andn},
          {"ternary", m.ternary}, {"vector_permute", m.vector_permute},
          {"branch", m.branch},   {"other", m.other}};
}

}  // namespace

std::string format_table(const std::vector<KernelAudit>& audits) {
  std::string out;
  for (const KernelAudit& kernel : audits) {
    const LatencyModel model = latency_model(kernel.isa);
    out += fmt::format(
        "kernel {} ({}); issue width {}; latency model: load {}, scalar {}, SIMD {} cycles\n",
        kernel.kernel, isa_name(kernel.isa), kernel.issue_width, model.load, model.scalar_alu,
        model.simd);
    out += fmt::format("  {:<42} {:>6} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>4}\n",
                       "entry (per round / per permutation)", "instr", "load", "store", "alu",
                       "rot", "andn", "tern", "perm", "br");
    for (const EntryAudit& entry : kernel.entries) {
      out += fmt::format("  {:<42} {}\n", entry.symbol, mix_cells(entry.per_round));
      out += fmt::format("  {:<42} {}\n", "", mix_cells(entry.per_permutation));
      out += fmt::format(
          "  {:<42} {}\n"
          "  {:<42} frame {} B, saves {}, code {} B ({} instructions), loop overhead {},\n"
          "  {:<42} round chain {} cycles, bounds: latency {} cycles, issue {:.0f} cycles;\n"
          "  {:<42} registers {}\n",
          "", entry_shape_line(entry.shape), "", entry.frame_bytes, join(entry.saved_registers),
          entry.code_bytes, entry.static_instructions, entry.loop_overhead, "",
          entry.round_chain_cycles, entry.latency_bound_cycles, entry.issue_bound_cycles, "",
          join(entry.registers_used));
    }
    if (!kernel.win64_entries.empty()) {
      out += fmt::format("  {:<42} {:>6} {:>6} {:>6}  saves\n",
                         "Windows x64 entry (calls <entry>_sysv)", "instr", "bytes", "frame");
    }
    for (const Win64EntryAudit& entry : kernel.win64_entries) {
      out += fmt::format("  {:<42} {:>6} {:>6} {:>6}  {}\n", entry.symbol, entry.instructions,
                         entry.code_bytes, entry.frame_bytes, join(entry.saved_registers));
    }
    out += "\n";
  }
  return out;
}

std::string format_json(const std::vector<KernelAudit>& audits) {
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  for (const KernelAudit& kernel : audits) {
    const LatencyModel model = latency_model(kernel.isa);
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const EntryAudit& entry : kernel.entries) {
      entries.push_back({{"symbol", entry.symbol},
                         {"kind", std::string(entry_kind_name(entry.shape.kind))},
                         {"permutation", entry.shape.permutation},
                         {"rounds", entry.shape.rounds},
                         {"rate_bytes", entry.shape.rate_bytes},
                         {"lanes", entry.shape.lanes},
                         {"per_round", mix_json(entry.per_round)},
                         {"per_permutation", mix_json(entry.per_permutation)},
                         {"static_instructions", entry.static_instructions},
                         {"code_bytes", entry.code_bytes},
                         {"loop_overhead", entry.loop_overhead},
                         {"frame_bytes", entry.frame_bytes},
                         {"saved_registers", entry.saved_registers},
                         {"registers_used", entry.registers_used},
                         {"round_chain_cycles", entry.round_chain_cycles},
                         {"latency_bound_cycles", entry.latency_bound_cycles},
                         {"issue_bound_cycles", entry.issue_bound_cycles}});
    }
    nlohmann::ordered_json win64_entries = nlohmann::ordered_json::array();
    for (const Win64EntryAudit& entry : kernel.win64_entries) {
      win64_entries.push_back({{"symbol", entry.symbol},
                               {"instructions", entry.instructions},
                               {"code_bytes", entry.code_bytes},
                               {"frame_bytes", entry.frame_bytes},
                               {"saved_registers", entry.saved_registers}});
    }
    kernels.push_back(
        {{"kernel", kernel.kernel},
         {"isa", std::string(isa_name(kernel.isa))},
         {"issue_width", kernel.issue_width},
         {"latency_model",
          {{"load", model.load}, {"scalar_alu", model.scalar_alu}, {"simd", model.simd}}},
         {"entries", entries},
         {"win64_entries", win64_entries}});
  }
  return nlohmann::ordered_json{{"kernels", kernels}}.dump(2) + "\n";
}

namespace {

// The instructions of a function, as text, in sections: before the rounds, each round
// region, after the rounds.
std::vector<std::pair<std::string, std::vector<std::string>>> sections(const Program& program,
                                                                       const Function& function) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out{{"before the rounds", {}}};
  for (const Item& item : function.items) {
    if (const auto* marker = std::get_if<RoundMarker>(&item)) {
      out.push_back({marker->begin ? fmt::format("round {}{}", marker->round,
                                                 marker->in_loop ? " (loop)" : "")
                                   : "after the rounds",
                     {}});
    } else if (const auto* instruction = std::get_if<Instruction>(&item)) {
      out.back().second.push_back(writers::format_instruction(program, *instruction));
    }
  }
  return out;
}

// A line diff (longest common subsequence) of two short instruction lists.
std::vector<std::string> diff_lines(const std::vector<std::string>& a,
                                    const std::vector<std::string>& b) {
  std::vector<std::vector<int>> lcs(a.size() + 1, std::vector<int>(b.size() + 1, 0));
  for (std::size_t i = a.size(); i-- > 0;) {
    for (std::size_t j = b.size(); j-- > 0;) {
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  std::vector<std::string> out;
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      ++i;
      ++j;
    } else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out.push_back("- " + a[i++]);
    } else {
      out.push_back("+ " + b[j++]);
    }
  }
  return out;
}

// A figure of one side of a diff: nothing when that side's Program cannot tell it.
using Figure = std::optional<double>;

Figure known_if(bool known, double value) {
  return known ? Figure(value) : std::nullopt;
}

void compare_figure(std::string& out, const std::string& name, Figure before, Figure after) {
  if (before == after) return;
  auto text = [](Figure figure) {
    return figure ? fmt::format("{}", *figure) : std::string("unknown");
  };
  out += fmt::format("    {:<28} {} -> {}\n", name, text(before), text(after));
}

void compare_mix(std::string& out, const std::string& scope, const InstructionMix& a, bool a_known,
                 const InstructionMix& b, bool b_known) {
  auto compare = [&](const char* name, std::uint64_t InstructionMix::*field) {
    compare_figure(out, scope + " " + name, known_if(a_known, static_cast<double>(a.*field)),
                   known_if(b_known, static_cast<double>(b.*field)));
  };
  compare("instructions", &InstructionMix::total);
  compare("loads", &InstructionMix::loads);
  compare("stores", &InstructionMix::stores);
  compare("alu", &InstructionMix::alu);
  compare("rotate", &InstructionMix::rotate);
  compare("andn", &InstructionMix::andn);
  compare("ternary", &InstructionMix::ternary);
  compare("vector permute", &InstructionMix::vector_permute);
  compare("branch", &InstructionMix::branch);
}

}  // namespace

std::string format_diff(const std::vector<std::pair<Program, KernelAudit>>& before,
                        const std::vector<std::pair<Program, KernelAudit>>& after) {
  constexpr std::size_t kMaxLinesPerSection = 40;
  std::string out;
  for (const auto& [new_program, new_audit] : after) {
    const auto old = std::find_if(before.begin(), before.end(), [&](const auto& pair) {
      return pair.second.kernel == new_audit.kernel;
    });
    if (old == before.end()) {
      out += fmt::format("kernel {}: new (not in the reference)\n", new_audit.kernel);
      continue;
    }
    const auto& [old_program, old_audit] = *old;
    std::string kernel_out;
    const bool reference_unmarked =
        std::any_of(old_audit.entries.begin(), old_audit.entries.end(),
                    [](const EntryAudit& e) { return !e.round_figures_known; });
    if (reference_unmarked) {
      kernel_out +=
          "  the reference has no round markers (it predates them): its per-round figures,\n"
          "  round chain and latency bound are unknown, and so are the counts of any loop\n";
    }
    for (const EntryAudit& entry : new_audit.entries) {
      const auto old_entry =
          std::find_if(old_audit.entries.begin(), old_audit.entries.end(),
                       [&](const EntryAudit& e) { return e.symbol == entry.symbol; });
      if (old_entry == old_audit.entries.end()) {
        kernel_out += fmt::format("  {}: new entry\n", entry.symbol);
        continue;
      }
      const bool old_rounds = old_entry->round_figures_known,
                 new_rounds = entry.round_figures_known;
      const bool old_executed = old_entry->executed_figures_known,
                 new_executed = entry.executed_figures_known;
      std::string figures;
      compare_mix(figures, "per round", old_entry->per_round, old_rounds, entry.per_round,
                  new_rounds);
      compare_mix(figures, "per permutation", old_entry->per_permutation, old_executed,
                  entry.per_permutation, new_executed);
      compare_figure(figures, "code bytes", static_cast<double>(old_entry->code_bytes),
                     static_cast<double>(entry.code_bytes));
      compare_figure(figures, "frame bytes", old_entry->frame_bytes, entry.frame_bytes);
      compare_figure(figures, "loop overhead",
                     known_if(old_executed, static_cast<double>(old_entry->loop_overhead)),
                     known_if(new_executed, static_cast<double>(entry.loop_overhead)));
      compare_figure(figures, "round chain cycles",
                     known_if(old_rounds, old_entry->round_chain_cycles),
                     known_if(new_rounds, entry.round_chain_cycles));
      compare_figure(figures, "latency bound cycles",
                     known_if(old_rounds, static_cast<double>(old_entry->latency_bound_cycles)),
                     known_if(new_rounds, static_cast<double>(entry.latency_bound_cycles)));
      compare_figure(figures, "issue bound cycles",
                     known_if(old_executed, old_entry->issue_bound_cycles),
                     known_if(new_executed, entry.issue_bound_cycles));
      if (old_entry->saved_registers != entry.saved_registers) {
        figures += fmt::format("    {:<28} {} -> {}\n", "saved registers",
                               join(old_entry->saved_registers), join(entry.saved_registers));
      }
      if (!figures.empty()) kernel_out += fmt::format("  {}:\n{}", entry.symbol, figures);
    }
    for (const EntryAudit& old_entry : old_audit.entries) {
      const bool kept =
          std::any_of(new_audit.entries.begin(), new_audit.entries.end(),
                      [&](const EntryAudit& e) { return e.symbol == old_entry.symbol; });
      if (!kept) kernel_out += fmt::format("  {}: removed\n", old_entry.symbol);
    }
    for (const Function& function : new_program.functions) {
      const auto old_function =
          std::find_if(old_program.functions.begin(), old_program.functions.end(),
                       [&](const Function& f) { return f.symbol == function.symbol; });
      if (old_function == old_program.functions.end()) continue;
      const auto new_sections = sections(new_program, function);
      const auto old_sections = sections(old_program, *old_function);
      for (std::size_t s = 0; s < std::max(new_sections.size(), old_sections.size()); ++s) {
        static const std::vector<std::string> kNone;
        const auto& a = s < old_sections.size() ? old_sections[s].second : kNone;
        const auto& b = s < new_sections.size() ? new_sections[s].second : kNone;
        const auto lines = diff_lines(a, b);
        if (lines.empty()) continue;
        kernel_out += fmt::format(
            "  {} / {}: {} line(s) changed\n", function.symbol,
            s < new_sections.size() ? new_sections[s].first : old_sections[s].first, lines.size());
        for (std::size_t i = 0; i < std::min(lines.size(), kMaxLinesPerSection); ++i) {
          kernel_out += "      " + lines[i] + "\n";
        }
        if (lines.size() > kMaxLinesPerSection) {
          kernel_out += fmt::format("      ... {} more\n", lines.size() - kMaxLinesPerSection);
        }
      }
    }
    if (!kernel_out.empty()) out += fmt::format("kernel {}:\n{}", new_audit.kernel, kernel_out);
  }
  for (const auto& [old_program, old_audit] : before) {
    const bool kept = std::any_of(after.begin(), after.end(), [&](const auto& pair) {
      return pair.second.kernel == old_audit.kernel;
    });
    if (!kept) out += fmt::format("kernel {}: removed\n", old_audit.kernel);
  }
  return out;
}

}  // namespace spongegen::audit
