// What the malformed-object tests share: reading and writing a field of an object file's bytes,
// and running prove-encoding on damaged copies of a pristine object.
#pragma once

#include <doctest/doctest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "spongegen_process.hpp"

namespace spongegen_test {

template <typename T>
T get(const std::string& bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}

template <typename T>
void put(std::string& bytes, std::size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof value);
}

struct Damage {
  const char* what;
  std::function<void(std::string&)> apply;
};

// The pristine object at `path` proves identical for amd64-bmi2; each damaged copy makes
// prove-encoding exit with status 1 and a message starting "spongegen: malformed <format>
// object: " (never a crash).
inline void check_damages(const char* path, const std::string& format,
                          const std::vector<Damage>& damages) {
  const std::string original = read_binary_file(path);
  const TemporaryFolder folder("malformed-" + format);
  const ProcessResult pristine = run_spongegen({"prove-encoding", "--kernel", "amd64-bmi2", path});
  REQUIRE(pristine.exited);
  REQUIRE(pristine.exit_status == 0);
  REQUIRE(pristine.output.find("identical") != std::string::npos);
  for (const Damage& damage : damages) {
    const std::string what = damage.what;
    CAPTURE(what);
    std::string object = original;
    damage.apply(object);
    REQUIRE(object != original);
    const auto damaged = folder.path() / "damaged.o";
    write_binary_file(damaged, object);
    const ProcessResult result =
        run_spongegen({"prove-encoding", "--kernel", "amd64-bmi2", damaged.string()});
    CAPTURE(result.output);
    CHECK(result.exited);
    CHECK(result.exit_status == 1);
    CHECK(result.output.find("spongegen: malformed " + format + " object: ") != std::string::npos);
  }
}

}  // namespace spongegen_test
