#include "program/cfi_rows.hpp"

#include <algorithm>

namespace spongegen {

std::int64_t cfa_after(const Cfi& cfi, std::int64_t cfa) {
  if (cfi.kind == CfiKind::adjust_cfa_offset) return cfa + cfi.value;
  if (cfi.kind == CfiKind::def_cfa_offset) return cfi.value;
  return cfa;
}

CfiRows cfi_rows(const std::vector<Item>& items, std::int64_t cfa_at_entry) {
  CfiRows rows;
  rows.cfa.resize(items.size() + 1);
  rows.saved.resize(items.size() + 1);
  rows.rule_sets.emplace_back();
  std::int64_t cfa = cfa_at_entry;
  for (std::size_t i = 0; i <= items.size(); ++i) {
    rows.cfa[i] = cfa;
    rows.saved[i] = static_cast<std::uint32_t>(rows.rule_sets.size() - 1);
    if (i == items.size()) break;
    const auto* cfi = std::get_if<Cfi>(&items[i]);
    if (cfi == nullptr) continue;
    cfa = cfa_after(*cfi, cfa);
    if (cfi->kind == CfiKind::offset || cfi->kind == CfiKind::restore) {
      std::vector<SavedRule> rules = rows.rule_sets.back();
      std::erase_if(rules, [&](const SavedRule& rule) { return rule.reg == cfi->reg; });
      if (cfi->kind == CfiKind::offset) rules.push_back({cfi->reg, cfi->value});
      rows.rule_sets.push_back(std::move(rules));
    }
  }
  return rows;
}

}  // namespace spongegen
