#include "writers/manifest.hpp"

#include <openssl/evp.h>

#include <nlohmann/json.hpp>

#include "isa/target.hpp"
#include "writers/asmjit_encoder.hpp"

namespace spongegen::writers {

std::string sha256_hex(const std::string& bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    throw GenerationError("OpenSSL could not compute a SHA-256 for the manifest");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 15];
  }
  return hex;
}

std::string write_manifest(const std::vector<WrittenKernel>& kernels) {
  nlohmann::ordered_json manifest;
  manifest["generator"] = "spongegen";
  manifest["regenerate"] = "scripts/regen";
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const WrittenKernel& written : kernels) {
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const Function& function : written.program.functions) {
      const EntryShape& shape = function.shape;
      nlohmann::ordered_json e;
      e["symbol"] = function.symbol;
      e["kind"] = std::string(entry_kind_name(shape.kind));
      e["permutation"] = shape.permutation;
      e["rounds"] = shape.rounds;
      e["rate_bytes"] = shape.rate_bytes;
      e["lanes"] = shape.lanes;
      e["prototype"] = c_prototype(function.symbol, shape);
      entries.push_back(e);
    }
    nlohmann::ordered_json cpu_features = nlohmann::ordered_json::array();
    for (const CpuFeature& feature : written.cpu_features)
      cpu_features.push_back(std::string(feature.name));
    nlohmann::ordered_json file;
    file["path"] = written.file_name;
    file["kernel"] = written.program.kernel_name;
    file["isa"] = std::string(isa_name(written.program.isa));
    file["cpu_features"] = cpu_features;
    file["sha256"] = sha256_hex(written.text);
    if (written.binary) {
      file["binary"] = {{"path", written.binary->name},
                        {"sha256", sha256_hex(written.binary->contents)}};
    }
    // Written only where false, so a manifest without it (every ISA's before one answered
    // false) still reads as linked: cmake/SpongeGeneratedKernels.cmake reads it so.
    if (!target(written.program.isa).links_into_runtime()) file["links_into_runtime"] = false;
    file["instructions"] = written.program.instruction_count();
    file["code_bytes"] = written.encoded.code.size();
    nlohmann::ordered_json options = nlohmann::ordered_json::object();
    for (const auto& [name, value] : written.program.options)
      options[name] = value;
    file["options"] = options;
    file["entries"] = entries;
    files.push_back(file);
  }
  manifest["files"] = files;
  return manifest.dump(2) + "\n";
}

}  // namespace spongegen::writers
