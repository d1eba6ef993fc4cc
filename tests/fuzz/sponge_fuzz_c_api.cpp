// sponge_fuzz_c_api: calls of the C API (<sponge/sponge.h>) decoded from the fuzz input,
// with NULL pointers, outputs overlapping their input, misaligned buffers and buffers ending
// at a PROT_NONE page. Checks the status code, that a failing call writes nothing (the
// buffers are filled with a canary and compared byte for byte), that a successful call
// writes exactly its output and leaves every other byte alone, and that the output equals
// the C++ API's on the original input (the input may be overwritten by the output).
//
// Input (bytes past the end read as zero; make_corpus.py writes examples): 12-byte calls
// until the input ends:
//   function (% 30: keccak256, sha3_224, sha3_256, sha3_384, sha3_512, shake128, shake256,
//   then the RFC 9861 and SP 800-185 functions with fixed keys, customization strings and
//   parameters, the tuple functions on the input's two halves, two calls with a parameter
//   out of range, and three parallel forms; see kFunctions),
//   layout (% 5, below), placement (low nibble: input, high nibble: output; see
//   PlacedBuffer), input offset, output offset, canary, input length (u16, % 1200),
//   output length (u16, % 700, SHAKE only), message seed (u16)
//   layout 0: input and output in buffers of their own
//          1: input NULL       2: output NULL       3: both NULL
//          4: one buffer holds both, the input at `input offset % 128`, the output at
//             `output offset % 128`: they overlap whenever the lengths reach across
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "fuzz/fuzz_support.hpp"
#include "sponge/sponge.h"
#include "sponge/sponge.hpp"
#include "support/test_support.hpp"

namespace {

using sponge_fuzz::FuzzInput;
using sponge_fuzz::PlacedBuffer;
using sponge_fuzz::require_equal;
using sponge_test::Bytes;

constexpr std::size_t kMaxInput = 1200;
constexpr std::size_t kMaxXofOutput = 700;
constexpr std::size_t kMaxOffset = 128;

const sponge_fuzz::GuardedRegion& input_region() {
  static const sponge_fuzz::GuardedRegion region(kMaxInput);
  return region;
}
const sponge_fuzz::GuardedRegion& output_region() {
  static const sponge_fuzz::GuardedRegion region(kMaxXofOutput);
  return region;
}
const sponge_fuzz::GuardedRegion& shared_region() {
  static const sponge_fuzz::GuardedRegion region(kMaxOffset + kMaxInput);
  return region;
}

struct Function {
  const char* name;
  std::size_t digest_bytes;  // 0: SHAKE, any output length
  sponge_status (*fixed)(const uint8_t*, size_t, uint8_t*);
  sponge_status (*xof)(const uint8_t*, size_t, uint8_t*, size_t);
  Bytes (*cpp)(std::span<const std::uint8_t> in, std::size_t out_len);  // the C++ API
  // The call passes a parameter out of range (a TurboSHAKE domain byte, a ParallelHash
  // block size): SPONGE_ERROR_INVALID_PARAMETER unless the input is bad.
  bool invalid_parameter = false;
};

// The fixed extra arguments of the RFC 9861 and SP 800-185 calls. The key is longer than a
// block of either rate.
constexpr std::uint8_t kKey[] =
    "a KMAC key longer than one block of either rate: 0123456789 "
    "0123456789 0123456789 0123456789 0123456789 0123456789 "
    "0123456789 0123456789 0123456789";
constexpr std::uint8_t kCustomization[] = "fuzz";
constexpr std::uint8_t kFunctionName[] = "name";
constexpr std::size_t kKeyBytes = sizeof kKey - 1;
constexpr std::size_t kCustomizationBytes = sizeof kCustomization - 1;
constexpr std::size_t kFunctionNameBytes = sizeof kFunctionName - 1;
constexpr std::span<const std::uint8_t> kKeySpan{kKey, kKeyBytes};
constexpr std::span<const std::uint8_t> kCustomizationSpan{kCustomization, kCustomizationBytes};
constexpr std::span<const std::uint8_t> kFunctionNameSpan{kFunctionName, kFunctionNameBytes};

// `fill(out)` into a new buffer of `out_len` bytes.
template <typename Fill>
Bytes output_of(std::size_t out_len, Fill&& fill) {
  Bytes out(out_len);
  fill(std::span<std::uint8_t>(out));
  return out;
}

// The input's two halves as a tuple (NULL stays NULL, with the lengths the call gives).
template <auto TupleFn>
sponge_status tuple_of_halves(const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
  const uint8_t* parts[2] = {in, in == nullptr ? nullptr : in + in_len / 2};
  const size_t lengths[2] = {in_len / 2, in_len - in_len / 2};
  return TupleFn(parts, lengths, 2, kCustomization, kCustomizationBytes, out, out_len);
}
template <auto TupleFn>
Bytes cpp_tuple_of_halves(std::span<const std::uint8_t> in, std::size_t out_len) {
  const std::span<const std::uint8_t> parts[2] = {in.first(in.size() / 2),
                                                  in.subspan(in.size() / 2)};
  return output_of(out_len, [&](auto out) { TupleFn(parts, kCustomizationSpan, out); });
}

// ParallelHash's block sizes: shorter than a block of the rate, and longer.
// The thread count of the parallel forms: one where threads hang (a dynamically linked program
// under qemu-user; sponge_test::kThreadsRun).
constexpr unsigned fuzz_threads(unsigned threads) {
  return sponge_test::kThreadsRun ? threads : 1;
}

constexpr std::size_t kShortBlock = 7;
constexpr std::size_t kLongBlock = 200;

template <std::size_t N>
Bytes to_bytes(const std::array<std::uint8_t, N>& digest) {
  return Bytes(digest.begin(), digest.end());
}

const Function kFunctions[] = {
    {"sponge_keccak256", SPONGE_KECCAK256_BYTES, sponge_keccak256, nullptr,
     [](std::span<const std::uint8_t> in, std::size_t) { return to_bytes(sponge::keccak256(in)); }},
    {"sponge_sha3_224", SPONGE_SHA3_224_BYTES, sponge_sha3_224, nullptr,
     [](std::span<const std::uint8_t> in, std::size_t) { return to_bytes(sponge::sha3_224(in)); }},
    {"sponge_sha3_256", SPONGE_SHA3_256_BYTES, sponge_sha3_256, nullptr,
     [](std::span<const std::uint8_t> in, std::size_t) { return to_bytes(sponge::sha3_256(in)); }},
    {"sponge_sha3_384", SPONGE_SHA3_384_BYTES, sponge_sha3_384, nullptr,
     [](std::span<const std::uint8_t> in, std::size_t) { return to_bytes(sponge::sha3_384(in)); }},
    {"sponge_sha3_512", SPONGE_SHA3_512_BYTES, sponge_sha3_512, nullptr,
     [](std::span<const std::uint8_t> in, std::size_t) { return to_bytes(sponge::sha3_512(in)); }},
    {"sponge_shake128", 0, nullptr, sponge_shake128,
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       Bytes out(out_len);
       sponge::shake128(in, out);
       return out;
     }},
    {"sponge_shake256", 0, nullptr, sponge_shake256,
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       Bytes out(out_len);
       sponge::shake256(in, out);
       return out;
     }},
    {"sponge_turboshake128 (D = 0x0B)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_turboshake128(in, in_len, 0x0B, out, out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len, [&](auto out) { sponge::turboshake128(in, out, 0x0B); });
     }},
    {"sponge_turboshake256 (D = 0x7F)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_turboshake256(in, in_len, 0x7F, out, out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len, [&](auto out) { sponge::turboshake256(in, out, 0x7F); });
     }},
    {"sponge_kt128", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_kt128(in, in_len, kCustomization, kCustomizationBytes, out, out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len, [&](auto out) { sponge::kt128(in, kCustomizationSpan, out); });
     }},
    {"sponge_kt256 (no customization)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_kt256(in, in_len, nullptr, 0, out, out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len, [&](auto out) { sponge::kt256(in, {}, out); });
     }},
    {"sponge_cshake128", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_cshake128(in, in_len, kFunctionName, kFunctionNameBytes, kCustomization,
                               kCustomizationBytes, out, out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len, [&](auto out) {
         sponge::cshake128(in, kFunctionNameSpan, kCustomizationSpan, out);
       });
     }},
    {"sponge_cshake256 (no function name)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_cshake256(in, in_len, nullptr, 0, kCustomization, kCustomizationBytes, out,
                               out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len,
                        [&](auto out) { sponge::cshake256(in, {}, kCustomizationSpan, out); });
     }},
    {"sponge_kmac128", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_kmac128(kKey, kKeyBytes, in, in_len, kCustomization, kCustomizationBytes, out,
                             out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len,
                        [&](auto out) { sponge::kmac128(kKeySpan, in, kCustomizationSpan, out); });
     }},
    {"sponge_kmac256 (no customization)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_kmac256(kKey, kKeyBytes, in, in_len, nullptr, 0, out, out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len, [&](auto out) { sponge::kmac256(kKeySpan, in, {}, out); });
     }},
    {"sponge_kmacxof128 (empty key)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_kmacxof128(nullptr, 0, in, in_len, kCustomization, kCustomizationBytes, out,
                                out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len,
                        [&](auto out) { sponge::kmacxof128({}, in, kCustomizationSpan, out); });
     }},
    {"sponge_kmacxof256", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_kmacxof256(kKey, kKeyBytes, in, in_len, kCustomization, kCustomizationBytes,
                                out, out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(
           out_len, [&](auto out) { sponge::kmacxof256(kKeySpan, in, kCustomizationSpan, out); });
     }},
    {"sponge_tuplehash128 (the input's halves)", 0, nullptr, tuple_of_halves<sponge_tuplehash128>,
     cpp_tuple_of_halves<sponge::tuplehash128>},
    {"sponge_tuplehash256 (the input's halves)", 0, nullptr, tuple_of_halves<sponge_tuplehash256>,
     cpp_tuple_of_halves<sponge::tuplehash256>},
    {"sponge_tuplehashxof128 (the input's halves)", 0, nullptr,
     tuple_of_halves<sponge_tuplehashxof128>, cpp_tuple_of_halves<sponge::tuplehashxof128>},
    {"sponge_tuplehashxof256 (the input's halves)", 0, nullptr,
     tuple_of_halves<sponge_tuplehashxof256>, cpp_tuple_of_halves<sponge::tuplehashxof256>},
    {"sponge_parallelhash128 (B = 7)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_parallelhash128(in, in_len, kShortBlock, kCustomization, kCustomizationBytes,
                                     out, out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len, [&](auto out) {
         sponge::parallelhash128(in, kShortBlock, kCustomizationSpan, out);
       });
     }},
    {"sponge_parallelhash256 (B = 200)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_parallelhash256(in, in_len, kLongBlock, nullptr, 0, out, out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len,
                        [&](auto out) { sponge::parallelhash256(in, kLongBlock, {}, out); });
     }},
    {"sponge_parallelhashxof128 (B = 200)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_parallelhashxof128(in, in_len, kLongBlock, kCustomization, kCustomizationBytes,
                                        out, out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len, [&](auto out) {
         sponge::parallelhashxof128(in, kLongBlock, kCustomizationSpan, out);
       });
     }},
    {"sponge_parallelhashxof256 (B = 7)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_parallelhashxof256(in, in_len, kShortBlock, nullptr, 0, out, out_len);
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len,
                        [&](auto out) { sponge::parallelhashxof256(in, kShortBlock, {}, out); });
     }},
    {"sponge_turboshake128 (D = 0x80: out of range)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_turboshake128(in, in_len, 0x80, out, out_len);
     },
     [](std::span<const std::uint8_t>, std::size_t) { return Bytes(); }, true},
    {"sponge_parallelhash256 (B = 0: out of range)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_parallelhash256(in, in_len, 0, nullptr, 0, out, out_len);
     },
     [](std::span<const std::uint8_t>, std::size_t) { return Bytes(); }, true},
    // The parallel forms against the plain ones, through the C API's checks (inputs this short
    // stay on the caller's thread: a second thread starts at 2 MiB; test_leaf_hashing.cpp splits).
    {"sponge_parallelhash128_parallel (B = 7, 3 threads)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_parallelhash128_parallel(in, in_len, kShortBlock, kCustomization,
                                              kCustomizationBytes, out, out_len, fuzz_threads(3));
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len, [&](auto out) {
         sponge::parallelhash128(in, kShortBlock, kCustomizationSpan, out);
       });
     }},
    {"sponge_parallelhashxof256_parallel (B = 7, one thread per CPU)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_parallelhashxof256_parallel(in, in_len, kShortBlock, nullptr, 0, out, out_len,
                                                 fuzz_threads(0));
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len,
                        [&](auto out) { sponge::parallelhashxof256(in, kShortBlock, {}, out); });
     }},
    {"sponge_kt128_parallel (2 threads)", 0, nullptr,
     [](const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
       return sponge_kt128_parallel(in, in_len, kCustomization, kCustomizationBytes, out, out_len,
                                    fuzz_threads(2));
     },
     [](std::span<const std::uint8_t> in, std::size_t out_len) {
       return output_of(out_len, [&](auto out) { sponge::kt128(in, kCustomizationSpan, out); });
     }},
};

struct Call {
  const Function* function;
  unsigned layout;
  std::uint8_t placement, input_offset, output_offset, canary;
  std::size_t input_length, output_length;
  std::uint16_t seed;
};

// The memory one call sees: where its input and output point, and every byte it may touch,
// filled with the canary and then the message.
class Buffers {
 public:
  explicit Buffers(const Call& call)
      : input_(input_region(), call.placement & 15, call.input_length),
        output_(output_region(), call.placement >> 4, call.output_length),
        shared_(shared_region(), call.placement & 15,
                kMaxOffset + std::max(call.input_length, call.output_length)) {
    const Bytes message = sponge_test::Rng(call.seed).bytes(call.input_length);
    if (call.layout == 4) {
      std::fill(shared_.bytes().begin(), shared_.bytes().end(), call.canary);
      in_ = shared_.bytes().subspan(call.input_offset % kMaxOffset, call.input_length);
      out_ = shared_.bytes().subspan(call.output_offset % kMaxOffset, call.output_length);
      touched_ = {shared_.bytes()};
    } else {
      std::fill(output_.bytes().begin(), output_.bytes().end(), call.canary);
      const bool input_null = call.layout == 1 || call.layout == 3;
      const bool output_null = call.layout == 2 || call.layout == 3;
      in_ = input_null ? std::span<std::uint8_t>(static_cast<std::uint8_t*>(nullptr), 0)
                       : input_.bytes();
      out_ = output_null ? std::span<std::uint8_t>(static_cast<std::uint8_t*>(nullptr), 0)
                         : output_.bytes();
      touched_ = {input_.bytes(), output_.bytes()};
    }
    if (in_.data() != nullptr) std::copy(message.begin(), message.end(), in_.begin());
    message_ = message;
  }

  const std::uint8_t* in() const { return in_.data(); }
  std::uint8_t* out() const { return out_.data(); }
  const Bytes& message() const { return message_; }
  std::span<std::uint8_t> out_bytes() const { return out_; }

  // Every byte the call may see, in order: the snapshot a failing call must leave as is.
  Bytes snapshot() const {
    Bytes all;
    for (const std::span<std::uint8_t> part : touched_) {
      if (part.data() != nullptr) all.insert(all.end(), part.begin(), part.end());
    }
    return all;
  }
  // The snapshot with the output written over it: what a successful call must leave.
  Bytes snapshot_with_output(const Bytes& before, std::span<const std::uint8_t> output) const {
    Bytes after = before;
    std::size_t base = 0;
    for (const std::span<std::uint8_t> part : touched_) {
      if (part.data() == nullptr) continue;
      if (out_.data() >= part.data() && out_.data() + out_.size() <= part.data() + part.size()) {
        std::copy(output.begin(), output.end(), after.begin() + base + (out_.data() - part.data()));
      }
      base += part.size();
    }
    return after;
  }

 private:
  PlacedBuffer input_, output_, shared_;
  std::span<std::uint8_t> in_, out_;
  std::array<std::span<std::uint8_t>, 2> touched_{};
  Bytes message_;
};

void check_call(const Call& call) {
  const Function& function = *call.function;
  const std::size_t out_len =
      function.digest_bytes != 0 ? function.digest_bytes : call.output_length;
  Call sized = call;
  sized.output_length = out_len;
  const Buffers buffers(sized);
  const bool input_null = buffers.in() == nullptr;
  const bool output_null = buffers.out() == nullptr;
  // The C++ API on the message, before the call may overwrite it.
  const Bytes expected = function.cpp(buffers.message(), out_len);
  const Bytes before = buffers.snapshot();

  const sponge_status status =
      function.fixed != nullptr
          ? function.fixed(buffers.in(), call.input_length, buffers.out())
          : function.xof(buffers.in(), call.input_length, buffers.out(), out_len);

  const bool bad_input = input_null && call.input_length != 0;
  const bool bad_output = output_null && (function.digest_bytes != 0 || out_len != 0);
  const std::string what =
      std::string(function.name) + " (input " + std::to_string(call.input_length) +
      " bytes, output " + std::to_string(out_len) + ", layout " + std::to_string(call.layout) + ")";
  // Several arguments bad: sponge.h says the input's error wins, then the parameter's.
  const sponge_status expected_status = bad_input ? SPONGE_ERROR_NULL_INPUT
                                        : function.invalid_parameter
                                            ? SPONGE_ERROR_INVALID_PARAMETER
                                        : bad_output ? SPONGE_ERROR_NULL_OUTPUT
                                                     : SPONGE_OK;
  const bool status_right = status == expected_status;
  if (!status_right) {
    sponge_fuzz::fail(what + ": status " + std::to_string(status) + " (" +
                      sponge_status_message(status) + ")");
  }
  if (status != SPONGE_OK) {
    require_equal(what + ": the buffers after a failed call", before, buffers.snapshot());
    return;
  }
  if (!output_null) require_equal(what + ": output vs the C++ API", expected, buffers.out_bytes());
  require_equal(what + ": every byte around the output",
                buffers.snapshot_with_output(before, expected), buffers.snapshot());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sponge_fuzz::start_target("sponge_fuzz_c_api");
  if (std::string_view(sponge_active_kernel()) != sponge::active_kernel()) {
    sponge_fuzz::fail("sponge_active_kernel() differs from sponge::active_kernel()");
  }
  const sponge_status statuses[] = {SPONGE_OK, SPONGE_ERROR_NULL_INPUT, SPONGE_ERROR_NULL_OUTPUT,
                                    SPONGE_ERROR_INVALID_PARAMETER, static_cast<sponge_status>(1)};
  for (const sponge_status status : statuses) {
    const char* message = sponge_status_message(status);
    if (message == nullptr || *message == '\0') sponge_fuzz::fail("an empty status message");
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput input(data, size);
  while (!input.empty()) {
    Call call{};
    call.function = &kFunctions[input.byte() % std::size(kFunctions)];
    call.layout = input.byte() % 5;
    call.placement = input.byte();
    call.input_offset = input.byte();
    call.output_offset = input.byte();
    call.canary = input.byte();
    call.input_length = input.u16() % (kMaxInput + 1);
    call.output_length = input.u16() % (kMaxXofOutput + 1);
    call.seed = input.u16();
    check_call(call);
  }
  return 0;
}
