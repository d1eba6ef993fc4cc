#include "test_support.hpp"

#include "batch/batch_kernel.hpp"

#include <cctype>
#include <charconv>
#include <cstring>
#include <fstream>
#include <stdexcept>

#ifndef SPONGE_KAT_DIR
#error "SPONGE_KAT_DIR must be defined by the build (CMake cache variable SPONGE_KAT_DIR)"
#endif

namespace sponge_test {

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (const std::uint8_t byte : bytes) {
    out += kDigits[byte >> 4];
    out += kDigits[byte & 0x0f];
  }
  return out;
}

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Bytes from_hex(std::string_view hex) {
  if (hex.size() % 2 != 0) {
    throw std::invalid_argument("odd number of hex digits: " + std::string(hex));
  }
  Bytes out(hex.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int high = hex_digit(hex[2 * i]);
    const int low = hex_digit(hex[2 * i + 1]);
    if (high < 0 || low < 0) throw std::invalid_argument("bad hex digit in: " + std::string(hex));
    out[i] = static_cast<std::uint8_t>(high << 4 | low);
  }
  return out;
}

std::uint64_t Rng::next() noexcept {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Bytes Rng::bytes(std::size_t length) {
  Bytes out(length);
  for (std::size_t i = 0; i < length; i += 8) {
    const std::uint64_t word = next();
    for (std::size_t j = 0; j < 8 && i + j < length; ++j) {
      out[i + j] = static_cast<std::uint8_t>(word >> (8 * j));
    }
  }
  return out;
}

std::string kat_dir() {
  return SPONGE_KAT_DIR;
}

namespace {

std::string kat_path(std::string_view relative_path) {
  return kat_dir() + "/" + std::string(relative_path);
}

std::ifstream open_kat(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw std::runtime_error("cannot open known-answer file " + path +
                             " (set the CMake cache variable SPONGE_KAT_DIR to the tests/kat "
                             "folder)");
  }
  return file;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// Splits "key = value" (also inside brackets); false when the line has no '='.
bool split_key_value(std::string_view line, std::string_view& key, std::string_view& value) {
  const std::size_t equals = line.find('=');
  if (equals == std::string_view::npos) return false;
  key = trim(line.substr(0, equals));
  value = trim(line.substr(equals + 1));
  return true;
}

std::size_t parse_number(std::string_view text, const std::string& where) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw std::runtime_error(where + ": not a number: " + std::string(text));
  }
  return value;
}

}  // namespace

KatFile read_kat(std::string_view relative_path) {
  KatFile kat;
  kat.path = kat_path(relative_path);
  std::ifstream file = open_kat(kat.path);

  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t section_output_bits = kNone;  // from "[Outputlen = n]"
  std::size_t entry_output_bits = kNone;    // from a per-entry "Outputlen = n"
  std::size_t len_bits = kNone;
  bool have_msg = false;
  Bytes msg;

  std::string raw;
  std::size_t line_number = 0;
  while (std::getline(file, raw)) {
    ++line_number;
    const std::string where = kat.path + ":" + std::to_string(line_number);
    std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') continue;
    std::string_view key;
    std::string_view value;
    if (line.front() == '[') {
      if (line.back() != ']') throw std::runtime_error(where + ": unterminated section header");
      if (split_key_value(line.substr(1, line.size() - 2), key, value) && key == "Outputlen") {
        section_output_bits = parse_number(value, where);
      }
      continue;  // [L = n], [Input Length = n], ...: informative only
    }
    if (!split_key_value(line, key, value)) continue;  // free text in the file headers
    if (key == "Len") {
      len_bits = parse_number(value, where);
    } else if (key == "COUNT") {
      // entry numbering only
    } else if (key == "Outputlen") {
      entry_output_bits = parse_number(value, where);
    } else if (key == "Msg") {
      msg = from_hex(value);
      have_msg = true;
    } else if (key == "MD" || key == "Output" || key == "Squeezed") {
      if (!have_msg) throw std::runtime_error(where + ": output without a Msg");
      KatEntry entry;
      entry.line = line_number;
      entry.out = from_hex(value);
      const std::size_t output_bits =
          entry_output_bits != kNone ? entry_output_bits : section_output_bits;
      if (output_bits != kNone && output_bits != 8 * entry.out.size()) {
        throw std::runtime_error(where + ": Outputlen " + std::to_string(output_bits) +
                                 " does not match the output's " +
                                 std::to_string(entry.out.size()) + " bytes");
      }
      entry.msg_bits = len_bits != kNone ? len_bits : 8 * msg.size();
      if (entry.msg_bits % 8 != 0) {
        ++kat.bit_entries_skipped;
      } else {
        if (entry.msg_bits == 0) {
          msg.clear();  // CAVP and Keccak files write the empty message as "00"
        } else if (8 * msg.size() != entry.msg_bits) {
          throw std::runtime_error(where + ": Len " + std::to_string(entry.msg_bits) +
                                   " does not match the message's " + std::to_string(msg.size()) +
                                   " bytes");
        }
        entry.msg = std::move(msg);
        kat.entries.push_back(std::move(entry));
      }
      len_bits = kNone;
      entry_output_bits = kNone;
      have_msg = false;
      msg.clear();
    } else {
      throw std::runtime_error(where + ": unknown key " + std::string(key));
    }
  }
  return kat;
}

namespace {

std::array<std::uint64_t, 25> parse_state_bytes(std::string_view line, const std::string& where) {
  std::string hex;
  for (const char c : line) {
    if (!std::isspace(static_cast<unsigned char>(c))) hex += c;
  }
  const Bytes bytes = from_hex(hex);
  if (bytes.size() != 200) {
    throw std::runtime_error(where + ": a state has 200 bytes, this line " +
                             std::to_string(bytes.size()));
  }
  std::array<std::uint64_t, 25> lanes{};
  for (std::size_t i = 0; i < 200; ++i) {
    lanes[i / 8] |= std::uint64_t{bytes[i]} << (8 * (i % 8));
  }
  return lanes;
}

}  // namespace

std::vector<PermutationExample> read_permutation_examples(std::string_view relative_path) {
  const std::string path = kat_path(relative_path);
  std::ifstream file = open_kat(path);
  std::vector<PermutationExample> examples;
  bool have_input = false;
  PermutationExample example{};
  std::string raw;
  std::size_t line_number = 0;
  while (std::getline(file, raw)) {
    ++line_number;
    const std::string_view line = trim(raw);
    const bool is_input = line == "Input of permutation:";
    const bool is_output = line == "State after permutation:";
    if (!is_input && !is_output) continue;
    std::string next;
    if (!std::getline(file, next)) throw std::runtime_error(path + ": state missing at the end");
    ++line_number;
    const std::string where = path + ":" + std::to_string(line_number);
    if (is_input) {
      example.input = parse_state_bytes(next, where);
      have_input = true;
    } else {
      if (!have_input) throw std::runtime_error(where + ": output state without an input state");
      example.output = parse_state_bytes(next, where);
      examples.push_back(example);
      have_input = false;
    }
  }
  return examples;
}

const std::string& KatBlock::value(std::string_view key) const {
  for (const auto& [name, text] : fields) {
    if (name == key) return text;
  }
  throw std::runtime_error(where + ": no field " + std::string(key));
}

std::vector<std::string> KatBlock::values(std::string_view key) const {
  std::vector<std::string> found;
  for (const auto& [name, text] : fields) {
    if (name == key) found.push_back(text);
  }
  return found;
}

std::size_t KatBlock::number(std::string_view key) const {
  return parse_number(value(key), where);
}

Bytes KatBlock::hex(std::string_view key) const {
  return from_hex(value(key));
}

KatBlockFile read_kat_blocks(std::string_view relative_path) {
  KatBlockFile kat;
  kat.path = kat_path(relative_path);
  std::ifstream file = open_kat(kat.path);
  std::string line;
  std::size_t line_number = 0;
  bool in_block = false;
  while (std::getline(file, line)) {
    ++line_number;
    const std::string_view text = trim(line);
    if (text.empty()) {
      in_block = false;
      continue;
    }
    if (text.front() == '#') continue;
    std::string_view key, value;
    if (!split_key_value(text, key, value)) {
      throw std::runtime_error(kat.path + ":" + std::to_string(line_number) +
                               ": not a Key = value line");
    }
    if (!in_block) {
      kat.blocks.push_back({kat.path + ":" + std::to_string(line_number), {}});
      in_block = true;
    }
    kat.blocks.back().fields.emplace_back(std::string(key), std::string(value));
  }
  return kat;
}

Bytes rfc9861_bytes(std::string_view notation) {
  if (notation == "empty") return {};
  const std::string where = "byte string \"" + std::string(notation) + "\"";
  if (notation.starts_with("ptn ")) {
    Bytes bytes(parse_number(notation.substr(4), where));
    for (std::size_t i = 0; i < bytes.size(); ++i)
      bytes[i] = static_cast<std::uint8_t>(i % 251);
    return bytes;
  }
  if (notation.starts_with("repeat ") && notation.size() > 10) {
    const Bytes value = from_hex(notation.substr(7, 2));
    return Bytes(parse_number(notation.substr(10), where), value[0]);
  }
  throw std::runtime_error(where + ": neither empty, ptn N nor repeat XX N");
}

std::vector<const sponge::detail::KeccakBatchKernel*> runnable_batch_kernels(
    std::vector<std::string>* not_runnable) {
  std::vector<const sponge::detail::KeccakBatchKernel*> kernels;
  for (const sponge::detail::KeccakBatchKernel* kernel : sponge::detail::compiled_batch_kernels()) {
    if (kernel->cpu_supports()) {
      kernels.push_back(kernel);
    } else if (not_runnable != nullptr) {
      not_runnable->emplace_back(kernel->name);
    }
  }
  return kernels;
}

}  // namespace sponge_test
