// Checksum lines: what hash mode writes, check mode reads back, for every name GNU escapes;
// and the lines check mode must refuse.
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>

#include "algorithms.hpp"
#include "checksum_line.hpp"

namespace {

const spongesum::Algorithm& sha3_256() {
  return *spongesum::find_algorithm("sha3-256");
}
const std::string kHex = "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a";

}  // namespace

TEST_CASE("untagged and tagged lines, with GNU's escaping") {
  using spongesum::format_checksum_line;
  CHECK(format_checksum_line(sha3_256(), kHex, "a b", {}) == kHex + "  a b\n");
  CHECK(format_checksum_line(sha3_256(), kHex, "a", {.binary = true}) == kHex + " *a\n");
  CHECK(format_checksum_line(sha3_256(), kHex, "a\\b\nc\rd", {}) ==
        "\\" + kHex + "  a\\\\b\\nc\\rd\n");
  CHECK(format_checksum_line(sha3_256(), kHex, "x\ny", {.tagged = true}) ==
        "\\SHA3-256 (x\\ny) = " + kHex + "\n");
  CHECK(format_checksum_line(sha3_256(), kHex, "x\ny", {.zero_terminated = true}) ==
        kHex + "  x\ny" + std::string(1, '\0'));
  CHECK(spongesum::format_check_result("a\nb", "OK") == "\\a\\nb: OK\n");
}

TEST_CASE("every written line reads back as the same name and digest") {
  for (const char* name :
       {"plain", "a b", " leading space", "a\\b", "new\nline", "cr\r", "(paren) = x", "*star"}) {
    for (bool tagged : {false, true}) {
      for (bool binary : {false, true}) {
        std::string line = spongesum::format_checksum_line(sha3_256(), kHex, name,
                                                           {.tagged = tagged, .binary = binary});
        line.pop_back();  // the newline
        const auto parsed = spongesum::parse_checksum_line(line);
        CAPTURE(line);
        REQUIRE(parsed.has_value());
        CHECK(parsed->name == name);
        CHECK(parsed->hex == kHex);
        CHECK(parsed->algorithm == (tagged ? &sha3_256() : nullptr));
      }
    }
  }
}

TEST_CASE("the forms of other tools: BSD -r, upper-case hex, CRLF, leading blanks") {
  auto parsed = spongesum::parse_checksum_line(kHex + " file");
  REQUIRE(parsed);
  CHECK(parsed->name == "file");
  std::string upper = kHex;
  for (char& c : upper)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  parsed = spongesum::parse_checksum_line("  SHA3-256 (f) = " + upper + "\r");
  REQUIRE(parsed);
  CHECK(parsed->hex == kHex);
  CHECK(parsed->name == "f");
  CHECK(spongesum::is_ignored_check_line("# a comment"));
  CHECK(spongesum::is_ignored_check_line("\r"));
  CHECK_FALSE(spongesum::is_ignored_check_line(kHex + "  f"));
}

TEST_CASE("improperly formatted lines are refused") {
  for (const std::string& line : std::initializer_list<std::string>{
           std::string("not a checksum"),
           kHex,                             // no name
           kHex.substr(1) + "  f",           // odd number of digits
           "\\" + kHex + "  a\\qb",          // unknown escape
           "\\" + kHex + "  a\\",            // escape at the end
           "MD5 (f) = " + kHex,              // unknown tag
           "SHA3-256 (f) = ",                // no digest
           "SHA3-256 (f) = " + kHex + "zz",  // not hex
           "SHA3-256 f = " + kHex,           // no parentheses
           "g" + kHex + "  f",               // not hex
           "SHA3-256  (f) = " + kHex,        // two spaces before '('
           "SHA3-256\t(f) = " + kHex,        // a tab before '('
           "SHA3-256 (f) = " + kHex + " ",   // a blank after the digest
           "SHA3-256 (f) x = " + kHex,       // text between ')' and '='
           "SHA3-256 (f) " + kHex,           // no '='
           "SHA-3-256 (f) = " + kHex,        // nobody's tag
           kHex + "\v f",                    // not a blank after the digest
       }) {
    CAPTURE(line);
    CHECK_FALSE(spongesum::parse_checksum_line(line).has_value());
  }
}

TEST_CASE("the forms GNU's sha256sum -c reads: OpenSSL's, any blanks around '=', a tab") {
  const spongesum::Algorithm* shake128 = spongesum::find_algorithm("shake128");
  struct Form {
    std::string line;
    const spongesum::Algorithm* algorithm;
    std::string name;
  };
  for (const Form& form : std::initializer_list<Form>{
           {"SHA3-256(f)= " + kHex, &sha3_256(), "f"},  // openssl dgst -sha3-256
           {"SHAKE-128(f)= " + kHex, shake128, "f"},    // openssl dgst -shake128
           {"SHA3-256(f)=" + kHex, &sha3_256(), "f"},
           {"SHA3-256 (f)=" + kHex, &sha3_256(), "f"},
           {"SHA3-256 (f) =  " + kHex, &sha3_256(), "f"},
           {"SHA3-256 (f)\t=\t " + kHex, &sha3_256(), "f"},
           {"SHA3-256 (a) = b) = " + kHex, &sha3_256(), "a) = b"},  // to the last ')'
           {"SHA3-256 () = " + kHex, &sha3_256(), ""},              // GNU opens "" (and fails)
           {kHex + "\tf", nullptr, "f"},
           {kHex + "\t*f", nullptr, "f"},
           {kHex + "\t f", nullptr, "f"},
           {kHex + "\t\tf", nullptr, "\tf"},
           {kHex + "  ", nullptr, " "},  // one character after the blank: the BSD form's name
           {kHex + " *", nullptr, "*"},
       }) {
    CAPTURE(form.line);
    const auto parsed = spongesum::parse_checksum_line(form.line);
    REQUIRE(parsed.has_value());
    CHECK(parsed->algorithm == form.algorithm);
    CHECK(parsed->name == form.name);
    CHECK(parsed->hex == kHex);
  }
}

TEST_CASE("a NUL anywhere makes a line improperly formatted") {
  using namespace std::string_literals;
  for (const std::string& line : {kHex + "  a\0anything"s, "SHA3-256 (a\0b) = "s + kHex,
                                  "SHA3-256 (a) = "s + kHex + "\0"s, kHex + "\0  a"s}) {
    CAPTURE(line);
    CHECK_FALSE(spongesum::parse_checksum_line(line).has_value());
  }
}

TEST_CASE("GNU's rule over a run: the first untagged line's form holds for the others") {
  using spongesum::UntaggedForm;
  UntaggedForm form = UntaggedForm::kUnknown;
  REQUIRE(spongesum::parse_checksum_line(kHex + "  a", form));
  CHECK(form == UntaggedForm::kStandard);
  CHECK(spongesum::parse_checksum_line("SHA3-256 (b) = " + kHex, form));  // tagged: any time
  CHECK_FALSE(spongesum::parse_checksum_line(kHex + " b", form));         // BSD after standard
  CHECK(spongesum::parse_checksum_line(kHex + " *c", form)->name == "c");

  form = UntaggedForm::kUnknown;
  REQUIRE(spongesum::parse_checksum_line(kHex + " a", form));
  CHECK(form == UntaggedForm::kReversed);
  CHECK(spongesum::parse_checksum_line(kHex + "  b", form)->name == " b");  // the name is " b"
  CHECK(spongesum::parse_checksum_line(kHex + " *c", form)->name == "*c");
}
