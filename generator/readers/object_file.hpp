// What the object-file readers share: the error a malformed file raises, the checked reads
// of its bytes, and what they read: the .text section, its symbols and its relocations.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace spongegen::readers {

// An object file whose headers point outside the file or contradict each other. The
// message starts with "malformed ELF object: " or "malformed COFF object: ".
class MalformedObject : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An object file's .text: its bytes, the symbols defined in it and the offsets relocations
// will patch (4 bytes each).
struct ObjectText {
  std::string bytes;
  // name -> (offset in .text, size); COFF symbols carry no size (0).
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> symbols;
  std::set<std::uint64_t> relocated_offsets;
};

// The bytes of an untrusted object file and the checked reads both formats need: every
// offset and size read from the file is checked against it before use, in arithmetic that
// cannot wrap around, and a failed check names the format ("malformed ELF object: ...").
class ObjectBytes {
 public:
  ObjectBytes(const std::string& bytes, std::string format) : bytes_(bytes), format_(format) {}

  [[noreturn]] void malformed(const std::string& what) const {
    throw MalformedObject("malformed " + format_ + " object: " + what);
  }

  // Whether `length` bytes at `offset` lie inside the file, tested without overflow.
  bool in_file(std::uint64_t offset, std::uint64_t length) const {
    return offset <= bytes_.size() && length <= bytes_.size() - offset;
  }

  void require_in_file(std::uint64_t offset, std::uint64_t length, const std::string& what) const {
    if (!in_file(offset, length)) {
      malformed(fmt::format("{} ({:#x} bytes at offset {:#x}) lies outside the {}-byte file", what,
                            length, offset, bytes_.size()));
    }
  }

  template <typename T>
  T read(std::uint64_t at) const {
    require_in_file(at, sizeof(T), "a field");
    T value;
    std::memcpy(&value, bytes_.data() + at, sizeof(T));
    return value;
  }

 protected:
  const std::string& bytes_;

 private:
  std::string format_;
};

}  // namespace spongegen::readers
