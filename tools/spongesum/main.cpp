// spongesum: print or check SHA-3, Keccak-256 and SHAKE checksums, in the formats of GNU
// coreutils' sha256sum/cksum and BSD's `--tag` form. See README.md, section spongesum.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "algorithms.hpp"
#include "checksum_line.hpp"
#include "file_hasher.hpp"
#include "ordered_jobs.hpp"
#include "progress.hpp"

namespace spongesum {
namespace {

// GNU cksum exits with 1 on a usage error too (not 2): scripts written for it keep working.
constexpr int kExitFailure = 1;

struct Options {
  std::string algorithm_name{kDefaultAlgorithm};
  bool algorithm_given = false;
  std::optional<std::size_t> length_bits;
  bool tag = false;
  bool zero = false;
  bool binary = false;
  bool check = false;
  bool ignore_missing = false;
  bool quiet = false;
  bool status = false;
  bool strict = false;
  bool warn = false;
  bool progress = false;
  unsigned jobs = 0;
  std::vector<std::string> files;
};

constexpr const char* kDepartures = R"(
Departures from GNU coreutils (sha256sum, cksum):
  - An untagged check line without -a gets its algorithm from its digest length:
    56/64/96/128 hex digits are SHA3-224/256/384/512, 336 SHAKE128 and 272 SHAKE256
    (the Perl sha3sum's lengths). For Keccak-256 files give -a keccak-256.
  - SHAKE128/SHAKE256 print 1344/1088 bits unless -l is given, as the Perl sha3sum.
  - Long options cannot be abbreviated (--stat for --status): CLI11, the argument
    parser, matches whole names only.
  - A check line holding a NUL is improperly formatted (GNU reads it up to the NUL).
  - -b/-t only choose the '*' or ' ' marker: files are always read as bytes (as GNU on
    POSIX). No --base64, and none of sha3sum's -U/-0 modes.
  - --progress and -j/--jobs are additions. With -a kt128 or kt256, the -j threads that
    files leave idle hash inside a file: one large file uses every core.
Exit status: 0 on success; 1 when a file could not be read, a checksum did not match, or
the command line is wrong (as GNU cksum).)";

// A file name in a message: shell-quoted when it holds anything beyond the plain
// characters, control characters escaped, so a name never moves the terminal's cursor.
std::string quote_name(std::string_view name) {
  if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             "0123456789._/+-:,@%=_") == std::string_view::npos &&
      !name.empty()) {
    return std::string(name);
  }
  std::string quoted = "'";
  for (char c : name) {
    if (c == '\'') {
      quoted += "'\\''";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\%03o", static_cast<unsigned char>(c));
      quoted += escaped;
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

void report_error(std::string_view name, int error) {
  std::fprintf(stderr, "spongesum: %s: %s\n", quote_name(name).c_str(), std::strerror(error));
}

void write_stdout(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
}

// When -j asked for more threads than could be started: said once per run, on stderr.
auto fewer_threads_reporter(Progress& progress) {
  return [&progress](unsigned started, unsigned wanted, const char* reason) {
    static bool reported = false;
    if (reported) return;
    reported = true;
    progress.print_above([&] {
      std::fprintf(stderr, "spongesum: could start only %u of %u threads (%s); going on with %u\n",
                   started, wanted, reason, std::max(started, 1u));
    });
  };
}

// ------------------------------------------------------------------------------------------
// The threads each file's tree hash (KT128, KT256) may use: the -j threads the files leave
// idle, so one large file hashes on every core and many files keep one thread each.
unsigned tree_threads_for(unsigned jobs, std::size_t files) {
  if (files == 0) return 1;
  return std::max(1u, jobs / static_cast<unsigned>(std::min<std::size_t>(jobs, files)));
}

// Hash mode: one line per file, in argument order.
// ------------------------------------------------------------------------------------------
int hash_files(const Options& options, const Selection& selection, Progress& progress) {
  const LineFormat format{options.tag, options.binary, options.zero};
  struct Hashed {
    std::string line;  // empty when the file could not be read
    int error = 0;
  };
  int exit_status = 0;
  run_jobs_in_order<Hashed>(
      options.files.size(), options.jobs,
      [&] {
        return
            [&, hasher = FileHasher(progress, tree_threads_for(options.jobs, options.files.size())),
             digest =
                 std::vector<std::uint8_t>(selection.output_bits / 8)](std::size_t job) mutable {
              const std::string& name = options.files[job];
              const int error = hasher.hash(name, *selection.algorithm, digest);
              if (error != 0) return Hashed{{}, error};
              return Hashed{
                  format_checksum_line(*selection.algorithm, to_hex(digest), name, format), 0};
            };
      },
      [&, job = std::size_t{0}](Hashed& hashed) mutable {
        const std::string& name = options.files[job++];
        progress.print_above([&] {
          if (hashed.error != 0) {
            std::fflush(stdout);
            report_error(name, hashed.error);
            exit_status = 1;
          } else {
            write_stdout(hashed.line);
          }
        });
      },
      fewer_threads_reporter(progress));
  return exit_status;
}

// ------------------------------------------------------------------------------------------
// Check mode: read checksum lines, hash the files they name, report as GNU does.
// ------------------------------------------------------------------------------------------
struct CheckEntry {
  std::size_t line_number;
  std::optional<ParsedLine> parsed;  // nullopt: improperly formatted
  const Algorithm* algorithm = nullptr;
  std::size_t output_bits = 0;
};

// The algorithm and output size a parsed line asks for, or false if the line does not fit
// the options or its digest length does not fit its algorithm.
bool resolve_check_entry(const Options& options, const Selection& selection, CheckEntry& entry) {
  const ParsedLine& parsed = *entry.parsed;
  const std::size_t bits = parsed.hex.size() * 4;
  const Algorithm* algorithm = parsed.algorithm;
  if (algorithm && options.algorithm_given && algorithm != selection.algorithm) return false;
  if (!algorithm) {
    algorithm = options.algorithm_given ? selection.algorithm : find_algorithm_by_output_bits(bits);
  }
  if (!algorithm || bits > kMaxOutputBits) return false;
  if (!algorithm->is_xof() && bits != algorithm->fixed_bits) return false;
  if (algorithm->is_xof() && options.length_bits && bits != *options.length_bits) return false;
  entry.algorithm = algorithm;
  entry.output_bits = bits;
  return true;
}

std::optional<std::string> read_whole_file(const std::string& name, int& error) {
  FILE* file = name == "-" ? stdin : std::fopen(name.c_str(), "rb");
  if (!file) {
    error = errno;
    return std::nullopt;
  }
  std::string content;
  char block[65536];
  std::size_t got;
  while ((got = std::fread(block, 1, sizeof block, file)) > 0)
    content.append(block, got);
  error = std::ferror(file) ? errno : 0;
  if (file != stdin) std::fclose(file);
  if (error != 0) return std::nullopt;
  return content;
}

// Check lines read from standard input cannot name it (GNU: improperly formatted).
std::vector<CheckEntry> read_check_entries(const Options& options, const Selection& selection,
                                           std::string_view content, bool from_stdin,
                                           UntaggedForm& form) {
  std::vector<CheckEntry> entries;
  std::size_t line_number = 0;
  while (!content.empty()) {
    const std::size_t end = std::min(content.size(), content.find('\n'));
    const std::string_view line = content.substr(0, end);
    content.remove_prefix(std::min(content.size(), end + 1));
    ++line_number;
    if (is_ignored_check_line(line)) continue;
    CheckEntry entry{line_number, parse_checksum_line(line, form)};
    if (entry.parsed && ((from_stdin && entry.parsed->name == "-") ||
                         !resolve_check_entry(options, selection, entry))) {
      entry.parsed.reset();
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::string plural(std::size_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// Returns true when every listed file was read and matched (GNU's rules, --strict and
// --ignore-missing included).
bool check_one_file(const Options& options, const Selection& selection,
                    const std::string& check_file, UntaggedForm& form, Progress& progress) {
  const std::string shown_name = check_file == "-" ? "standard input" : quote_name(check_file);
  int error = 0;
  const std::optional<std::string> content = read_whole_file(check_file, error);
  if (!content) {
    std::fprintf(stderr, "spongesum: %s: %s\n", shown_name.c_str(), std::strerror(error));
    return false;
  }
  const std::vector<CheckEntry> entries =
      read_check_entries(options, selection, *content, check_file == "-", form);

  enum class Outcome { kMalformed, kMatched, kMismatched, kUnreadable, kMissingIgnored };
  struct Checked {
    Outcome outcome;
    int error = 0;
  };
  std::size_t malformed = 0, matched = 0, mismatched = 0, unreadable = 0;
  run_jobs_in_order<Checked>(
      entries.size(), options.jobs,
      [&] {
        return [&, hasher = FileHasher(progress, tree_threads_for(options.jobs, entries.size())),
                digest = std::vector<std::uint8_t>()](std::size_t job) mutable {
          const CheckEntry& entry = entries[job];
          if (!entry.parsed) return Checked{Outcome::kMalformed};
          digest.resize(entry.output_bits / 8);
          const int error = hasher.hash(entry.parsed->name, *entry.algorithm, digest);
          if (error == ENOENT && options.ignore_missing) return Checked{Outcome::kMissingIgnored};
          if (error != 0) return Checked{Outcome::kUnreadable, error};
          return Checked{to_hex(digest) == entry.parsed->hex ? Outcome::kMatched
                                                             : Outcome::kMismatched};
        };
      },
      [&, job = std::size_t{0}](Checked& checked) mutable {
        const CheckEntry& entry = entries[job++];
        progress.print_above([&] {
          switch (checked.outcome) {
            case Outcome::kMalformed:
              ++malformed;
              if (options.warn) {
                std::fflush(stdout);
                std::fprintf(stderr, "spongesum: %s: %zu: improperly formatted checksum line\n",
                             shown_name.c_str(), entry.line_number);
              }
              break;
            case Outcome::kMatched:
              ++matched;
              if (!options.quiet && !options.status) {
                write_stdout(format_check_result(entry.parsed->name, "OK"));
              }
              break;
            case Outcome::kMismatched:
              ++mismatched;
              if (!options.status) write_stdout(format_check_result(entry.parsed->name, "FAILED"));
              break;
            case Outcome::kUnreadable:
              ++unreadable;
              std::fflush(stdout);
              report_error(entry.parsed->name, checked.error);
              if (!options.status) {
                write_stdout(format_check_result(entry.parsed->name, "FAILED open or read"));
              }
              break;
            case Outcome::kMissingIgnored:
              break;
          }
        });
      },
      fewer_threads_reporter(progress));
  std::fflush(stdout);

  const std::size_t well_formed = entries.size() - malformed;
  if (well_formed == 0) {
    std::fprintf(stderr, "spongesum: %s: no properly formatted checksum lines found\n",
                 shown_name.c_str());
    return false;
  }
  if (!options.status) {
    if (malformed != 0) {
      std::fprintf(stderr, "spongesum: WARNING: %s improperly formatted\n",
                   plural(malformed, "line is", "lines are").c_str());
    }
    if (unreadable != 0) {
      std::fprintf(
          stderr, "spongesum: WARNING: %s\n",
          plural(unreadable, "listed file could not be read", "listed files could not be read")
              .c_str());
    }
    if (mismatched != 0) {
      std::fprintf(
          stderr, "spongesum: WARNING: %s\n",
          plural(mismatched, "computed checksum did NOT match", "computed checksums did NOT match")
              .c_str());
    }
  }
  const bool nothing_verified = options.ignore_missing && matched + mismatched + unreadable == 0;
  if (nothing_verified) {
    std::fprintf(stderr, "spongesum: %s: no file was verified\n", shown_name.c_str());
  }
  return mismatched == 0 && unreadable == 0 && !nothing_verified &&
         !(options.strict && malformed != 0);
}

int check_files(const Options& options, const Selection& selection, Progress& progress) {
  int exit_status = 0;
  // As in GNU, the untagged form of the first such line holds for all the check files.
  UntaggedForm form = UntaggedForm::kUnknown;
  for (const std::string& check_file : options.files) {
    if (!check_one_file(options, selection, check_file, form, progress)) exit_status = 1;
  }
  return exit_status;
}

// Options that only make sense in one mode are refused in the other, with GNU's words.
std::optional<std::string> conflicting_options(const Options& options) {
  if (options.check) {
    if (options.tag) return "the --tag option is meaningless when verifying checksums";
    if (options.zero) return "the --zero option is not supported when verifying checksums";
    return std::nullopt;
  }
  if (options.ignore_missing) {
    return "the --ignore-missing option is meaningful only when verifying checksums";
  }
  if (options.status) return "the --status option is meaningful only when verifying checksums";
  if (options.warn) return "the --warn option is meaningful only when verifying checksums";
  if (options.quiet) return "the --quiet option is meaningful only when verifying checksums";
  if (options.strict) return "the --strict option is meaningful only when verifying checksums";
  return std::nullopt;
}

// Every run ends here: output that did not reach stdout (a full disk, a closed descriptor)
// is an error, as in GNU, whatever was printed, --help and --version included.
int finish_output(int exit_status) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "spongesum: write error: %s\n", std::strerror(errno));
    return kExitFailure;
  }
  return exit_status;
}

int usage_error(const std::string& message) {
  std::fprintf(stderr, "spongesum: %s\nTry 'spongesum --help' for more information.\n",
               message.c_str());
  return kExitFailure;
}

int run(int argc, char** argv) {
  Options options;
  CLI::App app{
      "Print or check SHA-3, Keccak-256 and SHAKE checksums.\n"
      "With no FILE, or when FILE is -, read standard input.",
      "spongesum"};
  app.footer(kDepartures);
  app.set_version_flag("--version", "spongesum " SPONGESUM_VERSION);
  app.add_option("-a,--algorithm", options.algorithm_name,
                 "one of " + algorithm_names() + "; default " + std::string(kDefaultAlgorithm) +
                     "; 'sha3' with -l picks the width")
      ->option_text("NAME");
  app.add_option("-l,--length", options.length_bits,
                 "output bits: any multiple of 8 for the SHAKEs, the width for sha3")
      ->option_text("BITS");
  app.add_flag("-b,--binary", options.binary, "mark names with '*' (binary mode)");
  bool text_mode = false;  // the default; accepted for GNU's command lines
  app.add_flag("-t,--text", text_mode, "mark names with ' ' (text mode, default)");
  app.add_flag("--tag", options.tag, "print BSD-style checksums: ALGORITHM (FILE) = HEX");
  app.add_flag("-z,--zero", options.zero, "end each output line with NUL, no name escaping");
  app.add_flag("-c,--check", options.check, "read checksums from the FILEs and check them");
  app.add_flag("--ignore-missing", options.ignore_missing,
               "check mode: don't fail or report status for missing files");
  app.add_flag("-q,--quiet", options.quiet, "check mode: don't print OK for verified files");
  app.add_flag("--status", options.status, "check mode: print nothing; the exit status tells");
  app.add_flag("--strict", options.strict,
               "check mode: exit non-zero for improperly formatted lines");
  app.add_flag("-w,--warn", options.warn, "check mode: warn about improperly formatted lines");
  app.add_flag("--progress", options.progress,
               "show bytes done, throughput and time left on stderr (a terminal only; on "
               "by itself there for files of 256 MiB or more)");
  app.add_option("-j,--jobs", options.jobs, "files hashed at once (default: one per CPU)")
      ->option_text("N");
  app.add_option("FILE", options.files)->option_text("");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return finish_output(0);
  } catch (const CLI::CallForVersion&) {
    std::puts("spongesum " SPONGESUM_VERSION);
    return finish_output(0);
  } catch (const CLI::ParseError& error) {
    return usage_error(error.what());
  }
  options.algorithm_given = app.count("--algorithm") > 0;
  if (options.length_bits == std::size_t{0}) options.length_bits.reset();  // 0: the default
  if (const auto conflict = conflicting_options(options)) return usage_error(*conflict);
  const auto selected = select_algorithm(options.algorithm_name, options.length_bits);
  if (const auto* failure = std::get_if<SelectionError>(&selected)) {
    return usage_error(failure->message);
  }
  const Selection selection = std::get<Selection>(selected);
  if (options.files.empty()) options.files.push_back("-");
  if (options.jobs == 0) options.jobs = std::max(1u, std::thread::hardware_concurrency());

  Progress progress(::isatty(STDERR_FILENO) == 1, options.progress);
  return finish_output(options.check ? check_files(options, selection, progress)
                                     : hash_files(options, selection, progress));
}

}  // namespace
}  // namespace spongesum

int main(int argc, char** argv) {
  return spongesum::run(argc, argv);
}
