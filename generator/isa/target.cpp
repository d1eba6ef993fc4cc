#include "isa/target.hpp"

#include <array>

namespace spongegen {

// Each ISA's folder defines <name>::isa_target() (isa/<name>/target.cpp).
#define SPONGEGEN_ISA(name)   \
  namespace name {            \
  const Target& isa_target(); \
  }
#include "isa/isas.def"
#undef SPONGEGEN_ISA

std::span<const Target* const> targets() {
  static const auto kTargets = std::to_array<const Target*>({
#define SPONGEGEN_ISA(name) &name::isa_target(),
#include "isa/isas.def"
#undef SPONGEGEN_ISA
  });
  return kTargets;
}

const Target& target(Isa isa) {
  return *targets()[static_cast<std::size_t>(isa)];
}

}  // namespace spongegen
