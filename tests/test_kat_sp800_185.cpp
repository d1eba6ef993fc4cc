// Known answers of NIST SP 800-185: the 40 example values in SPONGE_KAT_DIR/sp800-185 (see
// tests/kat/SOURCES.md), each through the one-shot function and the streaming class.
#include <doctest/doctest.h>

#include <functional>
#include <map>

#include "sponge/sponge.hpp"
#include "support/test_support.hpp"

using sponge_test::Bytes;
using sponge_test::KatBlock;
using sponge_test::to_hex;

namespace {

using Compute = std::function<Bytes(const KatBlock&, std::size_t out_len, bool streamed)>;

template <typename Xof, auto OneShot>
Bytes cshake(const KatBlock& block, std::size_t out_len, bool streamed) {
  const Bytes data = block.hex("Data"), name = block.hex("FunctionName"),
              customization = block.hex("Customization");
  Bytes out(out_len);
  if (!streamed) {
    OneShot(data, name, customization, out);
    return out;
  }
  Xof xof(name, customization);
  return sponge_test::squeezed_in_pieces(xof, data, data.size() / 3, out_len);
}

template <typename Mac, auto OneShot>
Bytes kmac(const KatBlock& block, std::size_t out_len, bool streamed) {
  const Bytes key = block.hex("Key"), data = block.hex("Data"),
              customization = block.hex("Customization");
  Bytes out(out_len);
  if (!streamed) {
    OneShot(key, data, customization, out);
    return out;
  }
  Mac mac(key, customization);
  if constexpr (requires { mac.digest(std::span(out)); }) {
    mac.update(std::span(data).first(data.size() / 3));
    mac.update(std::span(data).subspan(data.size() / 3));
    mac.digest(out);
    return out;
  } else {
    return sponge_test::squeezed_in_pieces(mac, data, data.size() / 3, out_len);
  }
}

template <typename Tuple, auto OneShot>
Bytes tuplehash(const KatBlock& block, std::size_t out_len, bool streamed) {
  std::vector<Bytes> elements;
  for (const std::string& element : block.values("Element"))
    elements.push_back(sponge_test::from_hex(element));
  REQUIRE(elements.size() == block.number("ElementCount"));
  const Bytes customization = block.hex("Customization");
  Bytes out(out_len);
  if (!streamed) {
    const std::vector<std::span<const std::uint8_t>> parts(elements.begin(), elements.end());
    OneShot(parts, customization, out);
    return out;
  }
  Tuple tuple(customization);
  for (const Bytes& element : elements)
    tuple.add(element);
  if constexpr (requires { tuple.digest(std::span(out)); }) {
    tuple.digest(out);
  } else {
    tuple.squeeze(std::span(out).first(out_len / 3));
    tuple.squeeze(std::span(out).subspan(out_len / 3));
  }
  return out;
}

template <typename Parallel, auto OneShot, auto ThreadedOneShot>
Bytes parallelhash(const KatBlock& block, std::size_t out_len, bool streamed) {
  const std::size_t block_size = block.number("BlockSize");
  const Bytes data = block.hex("Data"), customization = block.hex("Customization");
  Bytes out(out_len);
  if (!streamed) {
    OneShot(data, block_size, customization, out);
    // The threaded form's answer (these vectors are too short to start a thread; the
    // differential tests split long inputs).
    Bytes threaded(out_len);
    ThreadedOneShot(data, block_size, customization, threaded, 2);
    CHECK(threaded == out);
    return out;
  }
  Parallel hash(block_size, customization);
  // Split inside a block, so a leaf is streamed in pieces.
  const std::size_t split = std::min(data.size(), block_size + block_size / 2 + 1);
  if constexpr (requires { hash.digest(std::span(out)); }) {
    hash.update(std::span(data).first(split));
    hash.update(std::span(data).subspan(split));
    hash.digest(out);
    return out;
  } else {
    return sponge_test::squeezed_in_pieces(hash, data, split, out_len);
  }
}

const std::map<std::string, Compute>& functions() {
  using namespace sponge;
  static const std::map<std::string, Compute> all = {
      {"cSHAKE128", cshake<Cshake128, cshake128>},
      {"cSHAKE256", cshake<Cshake256, cshake256>},
      {"KMAC128", kmac<Kmac128, kmac128>},
      {"KMAC256", kmac<Kmac256, kmac256>},
      {"KMACXOF128", kmac<KmacXof128, kmacxof128>},
      {"KMACXOF256", kmac<KmacXof256, kmacxof256>},
      {"TupleHash128", tuplehash<TupleHash128, tuplehash128>},
      {"TupleHash256", tuplehash<TupleHash256, tuplehash256>},
      {"TupleHashXOF128", tuplehash<TupleHashXof128, tuplehashxof128>},
      {"TupleHashXOF256", tuplehash<TupleHashXof256, tuplehashxof256>},
      {"ParallelHash128", parallelhash<ParallelHash128, parallelhash128, parallelhash128_parallel>},
      {"ParallelHash256", parallelhash<ParallelHash256, parallelhash256, parallelhash256_parallel>},
      {"ParallelHashXOF128",
       parallelhash<ParallelHashXof128, parallelhashxof128, parallelhashxof128_parallel>},
      {"ParallelHashXOF256",
       parallelhash<ParallelHashXof256, parallelhashxof256, parallelhashxof256_parallel>},
  };
  return all;
}

std::size_t check_sp800_185_file(const char* file) {
  const sponge_test::KatBlockFile kat = sponge_test::read_kat_blocks(file);
  std::size_t checked = 0;
  for (const KatBlock& block : kat.blocks) {
    INFO(block.where << " " << block.value("Function"));
    const auto function = functions().find(block.value("Function"));
    REQUIRE(function != functions().end());
    const std::size_t out_bits = block.number("OutputBits");
    REQUIRE(out_bits % 8 == 0);
    const std::string expected = block.value("Output");
    CHECK(to_hex(function->second(block, out_bits / 8, false)) == expected);
    CHECK(to_hex(function->second(block, out_bits / 8, true)) == expected);
    ++checked;
  }
  MESSAGE(kat.path << ": checked " << checked << " samples");
  return checked;
}

}  // namespace

// NIST's sample counts: 4 cSHAKE, 6 of each other file (three per security strength).
TEST_CASE("KAT sp800-185 cSHAKE, KMAC, KMACXOF, TupleHash, ParallelHash and the XOF forms") {
  std::size_t total = 0;
  const auto count = [&](const char* file, std::size_t expected) {
    const std::size_t checked = check_sp800_185_file(file);
    CHECK(checked == expected);
    total += checked;
  };
  count("sp800-185/cshake.txt", 4);
  count("sp800-185/kmac.txt", 6);
  count("sp800-185/kmacxof.txt", 6);
  count("sp800-185/tuplehash.txt", 6);
  count("sp800-185/tuplehashxof.txt", 6);
  count("sp800-185/parallelhash.txt", 6);
  count("sp800-185/parallelhashxof.txt", 6);
  CHECK(total == 40);
}
