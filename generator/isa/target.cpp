#include "isa/target.hpp"

#include <array>

#include "readers/gas_reader.hpp"
#include "writers/gas_writer.hpp"

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

std::string Target::write_text(const Program& program) const {
  return writers::write_gas(program);
}

Program Target::read_text(std::string_view text, const std::string& kernel_name) const {
  return readers::read_gas(text, kernel_name);
}

std::optional<Target::BinaryFile> Target::binary_file(const writers::EncodedProgram&) const {
  return std::nullopt;
}

const Target& target(Isa isa) {
  return *targets()[static_cast<std::size_t>(isa)];
}

}  // namespace spongegen
