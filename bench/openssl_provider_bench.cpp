// The sponge OpenSSL provider against OpenSSL's default provider, through EVP, in one process:
// SHA3-256, SHAKE128 (32-byte output) and KMAC256 on each provider; KT128 and TurboSHAKE128
// on sponge against SHA3-256 and SHAKE128 on default; and what an EVP call adds to the
// library's C API at 16 bytes. Each message is a whole init-update-final, with the algorithm
// fetched once (as a program that keeps its EVP_MD does). The two sides of a ratio alternate
// round by round, and each side's figure is its median round, so a burst of load from
// elsewhere spreads over both.
//   sponge_openssl_bench [rounds, default 15]
#include <sponge/sponge.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "evp_support.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using sponge_evp::Bytes;

constexpr std::size_t kSizes[] = {16, 64, 256, 1024, 8192, 16384};

// One message's worth of work, repeated.
using Work = std::function<void()>;

// Nanoseconds per call of `work`: calls in batches until ~10 ms have passed.
double time_round(const Work& work) {
  std::size_t calls = 0;
  const auto start = Clock::now();
  auto now = start;
  do {
    for (int i = 0; i < 16; ++i)
      work();
    calls += 16;
    now = Clock::now();
  } while (now - start < std::chrono::milliseconds(10));
  return std::chrono::duration<double, std::nano>(now - start).count() / static_cast<double>(calls);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Median ns per call of `a` and of `b`, their rounds alternating.
std::pair<double, double> compare(const Work& a, const Work& b, int rounds) {
  std::vector<double> times_a, times_b;
  a();
  b();
  for (int round = 0; round < rounds; ++round) {
    times_a.push_back(time_round(a));
    times_b.push_back(time_round(b));
  }
  return {median(times_a), median(times_b)};
}

struct Digest {
  EVP_MD* md;
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  bool xof;
  Digest(const char* name, const char* properties, bool is_xof)
      : md(EVP_MD_fetch(sponge_evp::library_for(properties), name, properties)), xof(is_xof) {
    if (md == nullptr) {
      std::fprintf(stderr, "cannot fetch %s at %s\n", name, properties);
      std::exit(1);
    }
  }
  ~Digest() {
    EVP_MD_CTX_free(context);
    EVP_MD_free(md);
  }
  Work work(const Bytes& message) {
    return [this, &message] {
      unsigned char out[64];
      unsigned length = 0;
      EVP_DigestInit_ex2(context, md, nullptr);
      EVP_DigestUpdate(context, message.data(), message.size());
      if (xof)
        EVP_DigestFinalXOF(context, out, 32);
      else
        EVP_DigestFinal_ex(context, out, &length);
    };
  }
};

struct Mac {
  EVP_MAC* mac;
  EVP_MAC_CTX* context;
  Bytes key = Bytes(32, 0x4B);
  Mac(const char* name, const char* properties)
      : mac(EVP_MAC_fetch(sponge_evp::library_for(properties), name, properties)),
        context(EVP_MAC_CTX_new(mac)) {
    if (context == nullptr) {
      std::fprintf(stderr, "cannot fetch %s at %s\n", name, properties);
      std::exit(1);
    }
  }
  ~Mac() {
    EVP_MAC_CTX_free(context);
    EVP_MAC_free(mac);
  }
  Work work(const Bytes& message) {
    return [this, &message] {
      unsigned char out[64];
      std::size_t length = 0;
      EVP_MAC_init(context, key.data(), key.size(), nullptr);
      EVP_MAC_update(context, message.data(), message.size());
      EVP_MAC_final(context, out, &length, sizeof out);
    };
  }
};

void print_header(const char* title, const char* a, const char* b) {
  std::printf(
      "\n%s\n| bytes | %s ns | %s ns | %s MB/s | %s MB/s | ratio |\n| ---: | ---: | ---: | ---: | "
      "---: | ---: |\n",
      title, a, b, a, b);
}

void print_row(std::size_t size, std::pair<double, double> times) {
  const auto rate = [size](double ns) { return static_cast<double>(size) * 1e3 / ns; };
  std::printf("| %zu | %.0f | %.0f | %.0f | %.0f | %.2fx |\n", size, times.first, times.second,
              rate(times.first), rate(times.second), times.second / times.first);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 15;
  Bytes data(16384);
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<std::uint8_t>(i * 131 + 7);
  std::vector<Bytes> messages;
  for (std::size_t size : kSizes)
    messages.emplace_back(data.begin(), data.begin() + size);

  struct Pair {
    const char* title;
    const char* ours;
    const char* theirs;
    bool xof;
  };
  // Same algorithm, both providers. ratio = default ns / sponge ns (above 1: sponge faster).
  for (const Pair& pair : {Pair{"SHA3-256", "SHA3-256", "SHA3-256", false},
                           Pair{"SHAKE128 (32-byte output)", "SHAKE128", "SHAKE128", true}}) {
    print_header(pair.title, "sponge", "default");
    Digest ours(pair.ours, sponge_evp::kSponge, pair.xof),
        theirs(pair.theirs, sponge_evp::kDefault, pair.xof);
    for (const Bytes& message : messages)
      print_row(message.size(), compare(ours.work(message), theirs.work(message), rounds));
  }
  print_header("KMAC256 (32-byte key, 64-byte MAC, init with the key every message)", "sponge",
               "default");
  {
    Mac ours("KMAC256", sponge_evp::kSponge), theirs("KMAC256", sponge_evp::kDefault);
    for (const Bytes& message : messages)
      print_row(message.size(), compare(ours.work(message), theirs.work(message), rounds));
  }
  // The functions OpenSSL lacks, against the nearest it has.
  for (const Pair& pair :
       {Pair{"KT128 (sponge) against SHA3-256 (default)", "KT128", "SHA3-256", false},
        Pair{"TurboSHAKE128 (sponge) against SHAKE128 (default), 32-byte output", "TurboSHAKE128",
             "SHAKE128", true}}) {
    print_header(pair.title, "sponge", "default");
    Digest ours(pair.ours, sponge_evp::kSponge, true),
        theirs(pair.theirs, sponge_evp::kDefault, pair.xof);
    for (const Bytes& message : messages)
      print_row(message.size(), compare(ours.work(message), theirs.work(message), rounds));
  }
  // What EVP adds: SHA3-256 of 16 bytes through EVP (provider sponge) against the C API.
  {
    Digest evp("SHA3-256", sponge_evp::kSponge, false);
    const Bytes& message = messages[0];
    const Work c_api = [&message] {
      std::uint8_t out[32];
      sponge_sha3_256(message.data(), message.size(), out);
    };
    const auto [through_evp, direct] = compare(evp.work(message), c_api, rounds);
    std::printf(
        "\nSHA3-256 of 16 bytes: EVP (provider sponge) %.1f ns, sponge_sha3_256 %.1f ns: "
        "EVP adds %.1f ns per message\n",
        through_evp, direct, through_evp - direct);
  }
  return 0;
}
