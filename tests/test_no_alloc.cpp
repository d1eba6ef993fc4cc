// No heap allocation on any hashing path. This executable replaces every global operator
// new and delete with counting versions (ASan allows replacing them); counting is switched
// on only around the calls under test, and all buffers are allocated before.
#include <doctest/doctest.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "batch/batch_hash.hpp"
#include "sponge/sponge.h"
#include "sponge/sponge.hpp"
#include "support/test_support.hpp"
#include "tree/leaf_hashing.hpp"

namespace {

std::atomic<bool> g_counting{false};
std::atomic<std::size_t> g_allocations{0};
std::atomic<std::size_t> g_deallocations{0};

void* allocate(std::size_t size) noexcept {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  return std::malloc(size == 0 ? 1 : size);
}

void* allocate_aligned(std::size_t size, std::align_val_t alignment) noexcept {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  const std::size_t align = std::max(static_cast<std::size_t>(alignment), sizeof(void*));
#if defined(_WIN32)
  // Windows has no posix_memalign; its aligned blocks are freed with _aligned_free.
  return _aligned_malloc(size == 0 ? 1 : size, align);
#else
  void* pointer = nullptr;
  if (posix_memalign(&pointer, align, size == 0 ? 1 : size) != 0) return nullptr;
  return pointer;
#endif
}

void deallocate(void* pointer) noexcept {
  if (pointer == nullptr) return;
  if (g_counting.load(std::memory_order_relaxed)) g_deallocations.fetch_add(1);
  std::free(pointer);
}

void deallocate_aligned(void* pointer) noexcept {
#if defined(_WIN32)
  if (pointer == nullptr) return;
  if (g_counting.load(std::memory_order_relaxed)) g_deallocations.fetch_add(1);
  _aligned_free(pointer);
#else
  deallocate(pointer);
#endif
}

void* allocate_or_throw(std::size_t size) {
  void* pointer = allocate(size);
  if (pointer == nullptr) throw std::bad_alloc();
  return pointer;
}

void* allocate_aligned_or_throw(std::size_t size, std::align_val_t alignment) {
  void* pointer = allocate_aligned(size, alignment);
  if (pointer == nullptr) throw std::bad_alloc();
  return pointer;
}

}  // namespace

void* operator new(std::size_t size) {
  return allocate_or_throw(size);
}
void* operator new[](std::size_t size) {
  return allocate_or_throw(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return allocate(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return allocate(size);
}
void* operator new(std::size_t size, std::align_val_t alignment) {
  return allocate_aligned_or_throw(size, alignment);
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
  return allocate_aligned_or_throw(size, alignment);
}
void* operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return allocate_aligned(size, alignment);
}
void* operator new[](std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return allocate_aligned(size, alignment);
}
void operator delete(void* pointer) noexcept {
  deallocate(pointer);
}
void operator delete[](void* pointer) noexcept {
  deallocate(pointer);
}
void operator delete(void* pointer, std::size_t) noexcept {
  deallocate(pointer);
}
void operator delete[](void* pointer, std::size_t) noexcept {
  deallocate(pointer);
}
void operator delete(void* pointer, const std::nothrow_t&) noexcept {
  deallocate(pointer);
}
void operator delete[](void* pointer, const std::nothrow_t&) noexcept {
  deallocate(pointer);
}
void operator delete(void* pointer, std::align_val_t) noexcept {
  deallocate_aligned(pointer);
}
void operator delete[](void* pointer, std::align_val_t) noexcept {
  deallocate_aligned(pointer);
}
void operator delete(void* pointer, std::size_t, std::align_val_t) noexcept {
  deallocate_aligned(pointer);
}
void operator delete[](void* pointer, std::size_t, std::align_val_t) noexcept {
  deallocate_aligned(pointer);
}
void operator delete(void* pointer, std::align_val_t, const std::nothrow_t&) noexcept {
  deallocate_aligned(pointer);
}
void operator delete[](void* pointer, std::align_val_t, const std::nothrow_t&) noexcept {
  deallocate_aligned(pointer);
}

namespace {

// Counts the allocations and deallocations made while it is alive. No doctest macro may run
// inside its scope (doctest may allocate); read the counts after stop().
class AllocationCounter {
 public:
  AllocationCounter() noexcept {
    g_allocations = 0;
    g_deallocations = 0;
    g_counting = true;
  }
  ~AllocationCounter() { g_counting = false; }
  void stop() noexcept { g_counting = false; }
  std::size_t allocations() const noexcept { return g_allocations; }
  std::size_t deallocations() const noexcept { return g_deallocations; }
};

// Keeps the compiler from eliding an allocation whose result is otherwise unused.
template <typename T>
void escape(T* pointer) {
  asm volatile("" : : "g"(pointer) : "memory");
}

struct alignas(64) OverAligned {
  unsigned char bytes[64];
};

constexpr std::size_t kSizes[] = {0,   1,   71,  72,  73,  103, 104, 105,  135,   136,
                                  137, 143, 144, 145, 167, 168, 169, 1000, 100000};

}  // namespace

TEST_CASE("the counting operator new really counts (so this test can fail)") {
  AllocationCounter counter;
  auto* vector = new std::vector<std::uint8_t>(100);
  escape(vector);
  delete vector;
  auto* array = new int[10];
  escape(array);
  delete[] array;
  auto* aligned = new OverAligned;
  escape(aligned);
  delete aligned;
  auto* nothrow = new (std::nothrow) int(5);
  escape(nothrow);
  delete nothrow;
  counter.stop();
  // vector object + its buffer, the array, the over-aligned object, the nothrow int
  CHECK(counter.allocations() == 5);
  CHECK(counter.deallocations() == 5);
}

TEST_CASE("one-shot functions, streaming classes, keccak_f1600 and the C API never allocate") {
  // Every buffer is made before counting starts; sizes 0, 1, rate-1, rate, rate+1 of every
  // rate (72, 104, 136, 144, 168), 1000 and 100000.
  sponge_test::Rng rng(2024);
  const sponge_test::Bytes input = rng.bytes(100000);
  const std::string_view text(reinterpret_cast<const char*>(input.data()), input.size());
  sponge_test::Bytes xof_out(1000);
  std::array<std::uint8_t, 64> c_out{};
  std::array<std::uint64_t, 25> state{};
  sponge::Keccak256 keccak256;
  sponge::Sha3_224 sha3_224;
  sponge::Sha3_256 sha3_256;
  sponge::Sha3_384 sha3_384;
  sponge::Sha3_512 sha3_512;
  sponge::Shake128 shake128;
  sponge::Shake256 shake256;
  std::uint8_t checksum = 0;
  int c_status = 0;

  AllocationCounter counter;
  for (const std::size_t size : kSizes) {
    const std::span<const std::uint8_t> msg = std::span(input).first(size);
    const std::span<const std::byte> msg_bytes = std::as_bytes(msg);
    const std::string_view msg_text = text.substr(0, size);

    checksum ^= sponge::keccak256(msg)[0] ^ sponge::sha3_224(msg)[0] ^ sponge::sha3_256(msg)[0] ^
                sponge::sha3_384(msg)[0] ^ sponge::sha3_512(msg)[0];
    checksum ^= sponge::keccak256(msg_text)[1] ^ sponge::sha3_256(msg_bytes)[1] ^
                sponge::sha3_512(msg_text)[1];
    sponge::shake128(msg, xof_out);
    sponge::shake256(msg_text, xof_out);
    checksum ^= xof_out[size % xof_out.size()];

    auto stream = [&](auto& hash) {
      hash.reset();
      hash.update(msg.first(size / 3));
      hash.update(msg_bytes.subspan(size / 3));
      if constexpr (sponge_test::is_xof<std::remove_reference_t<decltype(hash)>>) {
        hash.squeeze(std::span(xof_out).first(100));
        hash.squeeze(std::span(xof_out).subspan(100));
        checksum ^= xof_out[999];
      } else {
        checksum ^= hash.digest()[0];
        hash.update(msg_text);
        checksum ^= hash.digest()[0];
        hash.squeeze(std::span(xof_out).first(300));
        checksum ^= xof_out[299];
      }
      hash.reset();
    };
    stream(keccak256);
    stream(sha3_224);
    stream(sha3_256);
    stream(sha3_384);
    stream(sha3_512);
    stream(shake128);
    stream(shake256);

    sponge::keccak_f1600(state.data());
    checksum ^= static_cast<std::uint8_t>(state[0]);

    c_status |= sponge_keccak256(msg.data(), msg.size(), c_out.data());
    c_status |= sponge_sha3_224(msg.data(), msg.size(), c_out.data());
    c_status |= sponge_sha3_256(msg.data(), msg.size(), c_out.data());
    c_status |= sponge_sha3_384(msg.data(), msg.size(), c_out.data());
    c_status |= sponge_sha3_512(msg.data(), msg.size(), c_out.data());
    c_status |= sponge_shake128(msg.data(), msg.size(), xof_out.data(), xof_out.size());
    c_status |= sponge_shake256(msg.data(), msg.size(), xof_out.data(), xof_out.size());
    c_status |=
        (sponge_sha3_256(nullptr, size + 1, c_out.data()) == SPONGE_ERROR_NULL_INPUT) ? 0 : 1;
    checksum ^= c_out[0];
  }
  checksum ^= static_cast<std::uint8_t>(sponge::active_kernel().size());
  checksum ^= static_cast<std::uint8_t>(sponge_active_kernel()[0]);
  counter.stop();

  CHECK(counter.allocations() == 0);
  CHECK(counter.deallocations() == 0);
  CHECK(c_status == 0);
  MESSAGE("checksum of the outputs (keeps them alive): " << int{checksum});
}

TEST_CASE("the batch functions never allocate: C++, C API, every batch kernel") {
  // 0..33 messages of the sizes above (100000 included), through the public functions on the
  // active batch kernel and the scheduler on every batch kernel this CPU runs.
  sponge_test::Rng rng(2026);
  const sponge_test::Bytes input = rng.bytes(100000);
  std::vector<std::span<const std::uint8_t>> messages;
  std::vector<const std::uint8_t*> pointers;
  std::vector<std::size_t> lengths;
  for (std::size_t i = 0; i < 33; ++i) {
    const std::size_t size = kSizes[i % std::size(kSizes)];
    messages.push_back(std::span(input).first(size));
    pointers.push_back(input.data());
    lengths.push_back(size);
  }
  std::vector<std::array<std::uint8_t, 28>> d28(33);
  std::vector<std::array<std::uint8_t, 32>> d32(33);
  std::vector<std::array<std::uint8_t, 48>> d48(33);
  std::vector<std::array<std::uint8_t, 64>> d64(33);
  std::vector<std::uint8_t> direct(33 * 64);
  const std::vector<const sponge::detail::KeccakBatchKernel*> kernels =
      sponge_test::runnable_batch_kernels();
  std::uint8_t checksum = 0;
  int c_status = 0;

  AllocationCounter counter;
  for (std::size_t count = 0; count <= 33; ++count) {
    const auto some = std::span(messages).first(count);
    sponge::keccak256_batch(some, std::span(d32).first(count));
    sponge::sha3_224_batch(some, std::span(d28).first(count));
    sponge::sha3_256_batch(some, std::span(d32).first(count));
    sponge::sha3_384_batch(some, std::span(d48).first(count));
    sponge::sha3_512_batch(some, std::span(d64).first(count));
    c_status |= sponge_keccak256_batch(pointers.data(), lengths.data(), count,
                                       reinterpret_cast<std::uint8_t(*)[32]>(d32.data()));
    c_status |= sponge_sha3_224_batch(pointers.data(), lengths.data(), count,
                                      reinterpret_cast<std::uint8_t(*)[28]>(d28.data()));
    c_status |= sponge_sha3_256_batch(pointers.data(), lengths.data(), count,
                                      reinterpret_cast<std::uint8_t(*)[32]>(d32.data()));
    c_status |= sponge_sha3_384_batch(pointers.data(), lengths.data(), count,
                                      reinterpret_cast<std::uint8_t(*)[48]>(d48.data()));
    c_status |= sponge_sha3_512_batch(pointers.data(), lengths.data(), count,
                                      reinterpret_cast<std::uint8_t(*)[64]>(d64.data()));
    for (const auto* kernel : kernels) {
      sponge::detail::hash_batch(*kernel, {136, 0x01, 32, 24}, sponge::detail::BatchMessages(some),
                                 direct.data());
      sponge::detail::hash_batch(
          *kernel, {72, 0x06, 64, 24},
          sponge::detail::BatchMessages(pointers.data(), lengths.data(), count), direct.data());
    }
    if (count != 0) checksum ^= d28[0][0] ^ d32[count - 1][1] ^ d48[0][2] ^ d64[0][3] ^ direct[5];
  }
  checksum ^= static_cast<std::uint8_t>(sponge_active_batch_kernel()[0]);
  counter.stop();

  CHECK(counter.allocations() == 0);
  CHECK(counter.deallocations() == 0);
  CHECK(c_status == 0);
  CHECK(kernels.size() >= 2);
  MESSAGE("checksum of the outputs (keeps them alive): " << int{checksum});
}

TEST_CASE("the four-stream SHAKE classes never allocate: C++, C API, every batch kernel") {
  // Equal and unequal inputs of the sizes above (100000 included), squeezes of 0, 1, 168 and
  // 1000 bytes, on every batch kernel this CPU runs and through the C API.
  sponge_test::Rng rng(2027);
  const sponge_test::Bytes input = rng.bytes(100000 + 3);
  std::array<sponge_test::Bytes, 4> out;
  for (sponge_test::Bytes& stream : out)
    stream.assign(1000, 0);
  const std::vector<const sponge::detail::KeccakBatchKernel*> kernels =
      sponge_test::runnable_batch_kernels();
  std::uint8_t checksum = 0;
  int c_status = 0;

  AllocationCounter counter;
  for (const std::size_t size : kSizes) {
    const sponge::Shake128x4::Inputs equal = {
        std::span(input).first(size), std::span(input).subspan(1, size),
        std::span(input).subspan(2, size), std::span(input).subspan(3, size)};
    const sponge::Shake128x4::Inputs unequal = {
        std::span(input).first(size), std::span(input).first(size / 2),
        std::span(input).first(size / 3), std::span(input).first(size % 170)};
    for (const std::size_t length : {0, 1, 168, 1000}) {
      const sponge::Shake128x4::Outputs outputs = {
          std::span(out[0]).first(length), std::span(out[1]).first(length),
          std::span(out[2]).first(length), std::span(out[3]).first(length)};
      for (const auto* kernel : kernels) {
        sponge::Shake128x4 x4(*kernel);
        x4.update(equal).update(unequal);
        x4.squeeze(outputs);
        x4.squeeze(outputs);
        sponge::Shake256x4 y4(*kernel);
        y4.update(unequal);
        y4.squeeze(outputs);
        checksum ^= out[3][0];
      }
      sponge::Shake256x4 active;
      active.update(equal);
      active.squeeze(outputs);
      const std::uint8_t* pointers[4] = {input.data(), input.data() + 1, input.data() + 2,
                                         input.data() + 3};
      std::uint8_t* out_pointers[4] = {out[0].data(), out[1].data(), out[2].data(), out[3].data()};
      sponge_shake128_x4 state;
      c_status |= sponge_shake128_x4_init(&state);
      c_status |= sponge_shake128_x4_absorb(&state, pointers, size);
      c_status |= sponge_shake128_x4_squeeze(&state, out_pointers, length);
      c_status |= sponge_shake128_x4_clear(&state);
      checksum ^= out[2][0];
    }
  }
  counter.stop();

  CHECK(counter.allocations() == 0);
  CHECK(counter.deallocations() == 0);
  CHECK(c_status == 0);
  CHECK(kernels.size() >= 2);
  MESSAGE("checksum of the outputs (keeps them alive): " << int{checksum});
}

TEST_CASE("RFC 9861 and SP 800-185 functions never allocate: one-shot, classes, C API") {
  // The sizes above, and around KangarooTwelve's 8 KiB chunks (one node; the marker and a
  // one-byte leaf; whole and partial leaves).
  sponge_test::Rng rng(2025);
  const sponge_test::Bytes input = rng.bytes(100000);
  const sponge_test::Bytes key = rng.bytes(200);
  const sponge_test::Bytes customization = rng.bytes(30);
  std::vector<std::size_t> sizes(std::begin(kSizes), std::end(kSizes));
  // 6 * 8192 + 5: five whole leaves in one update, a lockstep group on a multi-state kernel.
  for (const std::size_t size : {8191, 8192, 8193, 16384, 16385, 3 * 8192 + 7, 6 * 8192 + 5})
    sizes.push_back(static_cast<std::size_t>(size));
  sponge_test::Bytes out(1000);
  const std::span<std::uint8_t> whole(out);
  sponge::TurboShake128 turboshake128(0x0B);
  sponge::TurboShake256 turboshake256;
  sponge::Kt128 kt128(customization);
  sponge::Kt256 kt256;
  sponge::Cshake128 cshake128(customization, customization);
  sponge::Kmac256 kmac256(key, customization);
  sponge::KmacXof128 kmacxof128(key, {});
  sponge::TupleHash128 tuplehash128(customization);
  sponge::TupleHashXof256 tuplehashxof256;
  sponge::ParallelHash256 parallelhash256(1000, customization);
  sponge::ParallelHashXof128 parallelhashxof128(7);
  std::uint8_t checksum = 0;
  int c_status = 0;

  AllocationCounter counter;
  for (const std::size_t size : sizes) {
    const std::span<const std::uint8_t> msg = std::span(input).first(size);
    const std::span<const std::uint8_t> parts[3] = {msg.first(size / 2), msg.subspan(size / 2),
                                                    customization};
    sponge::turboshake128(msg, whole.first(300), 0x1F);
    sponge::turboshake256(msg, whole.first(300), 0x7F);
    sponge::kt128(msg, customization, whole);
    sponge::kt256(msg, {}, whole);
    sponge::cshake256(msg, customization, {}, whole);
    sponge::kmac128(key, msg, customization, whole.first(32));
    sponge::kmacxof256(key, msg, {}, whole);
    sponge::tuplehash256(parts, customization, whole.first(64));
    sponge::tuplehashxof128(parts, {}, whole);
    sponge::parallelhash128(msg, 100, customization, whole.first(32));
    sponge::parallelhashxof256(msg, 8192, {}, whole);
    checksum ^= out[size % out.size()];

    const auto stream = [&](auto& xof) {
      xof.reset();
      xof.update(msg.first(size / 3));
      xof.update(msg.subspan(size / 3));
      xof.squeeze(whole.first(100));
      xof.squeeze(whole.subspan(100));
      checksum ^= out[999];
    };
    stream(turboshake128);
    stream(turboshake256);
    stream(kt128);
    stream(kt256);
    stream(cshake128);
    stream(kmacxof128);
    stream(parallelhashxof128);
    kmac256.reset();
    kmac256.update(msg);
    kmac256.digest(whole.first(64));
    parallelhash256.reset();
    parallelhash256.update(msg);
    parallelhash256.digest(whole.first(64));
    tuplehash128.reset();
    tuplehash128.add(msg).add(customization);
    tuplehash128.digest(whole.first(32));
    tuplehashxof256.reset();
    tuplehashxof256.add(msg);
    tuplehashxof256.squeeze(whole);
    checksum ^= out[0] ^ out[63];

    const std::uint8_t* c_parts[2] = {msg.data(), key.data()};
    const std::size_t c_part_lens[2] = {size, key.size()};
    c_status |= sponge_turboshake128(msg.data(), size, 0x06, out.data(), out.size());
    c_status |= sponge_turboshake256(msg.data(), size, 0x01, out.data(), out.size());
    c_status |= sponge_kt128(msg.data(), size, nullptr, 0, out.data(), out.size());
    c_status |= sponge_kt256(msg.data(), size, key.data(), key.size(), out.data(), out.size());
    c_status |= sponge_cshake128(msg.data(), size, key.data(), 3, nullptr, 0, out.data(), 64);
    c_status |= sponge_cshake256(msg.data(), size, nullptr, 0, key.data(), 5, out.data(), 64);
    c_status |= sponge_kmac128(key.data(), 32, msg.data(), size, nullptr, 0, out.data(), 32);
    c_status |= sponge_kmac256(key.data(), 64, msg.data(), size, nullptr, 0, out.data(), 64);
    c_status |= sponge_kmacxof128(key.data(), 16, msg.data(), size, nullptr, 0, out.data(), 99);
    c_status |= sponge_kmacxof256(key.data(), 16, msg.data(), size, nullptr, 0, out.data(), 99);
    c_status |= sponge_tuplehash128(c_parts, c_part_lens, 2, nullptr, 0, out.data(), 32);
    c_status |= sponge_tuplehash256(c_parts, c_part_lens, 2, nullptr, 0, out.data(), 64);
    c_status |= sponge_tuplehashxof128(c_parts, c_part_lens, 2, nullptr, 0, out.data(), 99);
    c_status |= sponge_tuplehashxof256(c_parts, c_part_lens, 2, nullptr, 0, out.data(), 99);
    c_status |= sponge_parallelhash128(msg.data(), size, 64, nullptr, 0, out.data(), 32);
    c_status |= sponge_parallelhash256(msg.data(), size, 64, nullptr, 0, out.data(), 64);
    c_status |= sponge_parallelhashxof128(msg.data(), size, 9, nullptr, 0, out.data(), 99);
    c_status |= sponge_parallelhashxof256(msg.data(), size, 9, nullptr, 0, out.data(), 99);
    c_status |= (sponge_turboshake128(msg.data(), size, 0x80, out.data(), 1) ==
                 SPONGE_ERROR_INVALID_PARAMETER)
                    ? 0
                    : 1;
    checksum ^= out[1];
  }
  counter.stop();

  CHECK(counter.allocations() == 0);
  CHECK(counter.deallocations() == 0);
  CHECK(c_status == 0);
  MESSAGE("checksum of the outputs (keeps them alive): " << int{checksum});
}

TEST_CASE("the tree modes' whole leaves never allocate, on every batch kernel") {
  // 0..9 leaves of KT128, KT256, ParallelHash128 and 256, called with each batch kernel this
  // CPU runs: the lockstep groups and the single-state rest.
  sponge_test::Rng rng(2027);
  const sponge_test::Bytes input = rng.bytes(9 * 8192);
  const std::vector<const sponge::detail::KeccakBatchKernel*> kernels =
      sponge_test::runnable_batch_kernels();
  struct Leaf {
    std::size_t rate_bytes, leaf_bytes, output_bytes;
    std::uint8_t domain_byte;
    int rounds;
  };
  constexpr Leaf kLeaves[] = {{168, 8192, 32, 0x0B, 12},
                              {136, 8192, 64, 0x0B, 12},
                              {168, 100, 32, 0x1F, 24},
                              {136, 7, 64, 0x1F, 24}};
  std::uint8_t checksum = 0;

  AllocationCounter counter;
  for (const auto* kernel : kernels) {
    for (const Leaf& leaf_function : kLeaves) {
      for (std::size_t count = 0; count <= 9; ++count) {
        sponge::detail::KeccakSponge leaf(leaf_function.rate_bytes, leaf_function.domain_byte,
                                          leaf_function.rounds);
        sponge::detail::hash_whole_leaves(
            *kernel, leaf, input.data(), leaf_function.leaf_bytes, count,
            leaf_function.output_bytes,
            [&](std::span<const std::uint8_t> output) { checksum ^= output[0]; });
      }
    }
  }
  counter.stop();

  CHECK(counter.allocations() == 0);
  CHECK(counter.deallocations() == 0);
  CHECK(kernels.size() >= 2);
  MESSAGE("checksum of the outputs (keeps them alive): " << int{checksum});
}

TEST_CASE("Ascon functions never allocate: one-shot, classes, AEAD streaming, C API") {
  sponge_test::Rng rng(2025);
  const sponge_test::Bytes input = rng.bytes(100000);
  const sponge_test::Bytes customization = rng.bytes(256);
  sponge_test::Bytes out(100000), opened(100000), xof_out(100);
  std::array<std::uint8_t, 16> key{}, nonce{}, tag{};
  key.fill(0x11);
  nonce.fill(0x22);
  sponge::AsconHash256 hash;
  sponge::AsconXof128 xof;
  sponge::AsconCxof128 cxof(customization);  // constructed before counting: it may throw
  std::uint8_t checksum = 0;
  int failures = 0;

  AllocationCounter counter;
  for (const std::size_t size : {0, 1, 7, 8, 9, 15, 16, 17, 1000, 100000}) {
    const std::span<const std::uint8_t> msg = std::span(input).first(size);
    const std::span<std::uint8_t> ct = std::span(out).first(size),
                                  pt = std::span(opened).first(size);
    checksum ^= sponge::ascon_hash256(msg)[0];
    sponge::ascon_xof128(msg, xof_out);
    sponge::ascon_cxof128(msg, customization, xof_out);
    hash.reset();
    hash.update(msg.first(size / 2)).update(msg.subspan(size / 2));
    checksum ^= hash.digest()[0];
    xof.reset();
    xof.update(msg);
    xof.squeeze(xof_out);
    cxof.reset();
    cxof.update(msg);
    cxof.squeeze(xof_out);
    sponge::ascon_aead128_encrypt(key, nonce, msg, msg, ct, tag);
    failures += !sponge::ascon_aead128_decrypt(key, nonce, msg, ct, tag, pt);
    sponge::AsconAead128Encryptor encryptor(key, nonce);
    encryptor.update_associated_data(msg);
    encryptor.update(msg.first(size / 3), ct.first(size / 3));
    encryptor.update(msg.subspan(size / 3), ct.subspan(size / 3));
    tag = encryptor.finish();
    sponge::AsconAead128Decryptor decryptor(key, nonce, pt);
    decryptor.update_associated_data(msg);
    decryptor.update(ct);
    failures += !decryptor.finish(tag);
    tag[0] ^= 1;  // a forgery: rejected and zeroed, without allocating either
    failures += sponge::ascon_aead128_decrypt(key, nonce, msg, ct, tag, pt) ? 1 : 0;
    failures += sponge_ascon_aead128_encrypt(key.data(), nonce.data(), msg.data(), size, msg.data(),
                                             size, ct.data(), tag.data()) != SPONGE_OK;
    failures += sponge_ascon_aead128_decrypt(key.data(), nonce.data(), msg.data(), size, ct.data(),
                                             size, tag.data(), pt.data()) != SPONGE_OK;
    failures += sponge_ascon_hash256(msg.data(), size, xof_out.data()) != SPONGE_OK;
    failures += sponge_ascon_cxof128(customization.data(), 256, msg.data(), size, xof_out.data(),
                                     xof_out.size()) != SPONGE_OK;
    checksum ^= static_cast<std::uint8_t>(xof_out[0] ^ (ct.empty() ? 0 : ct[0]));
  }
  counter.stop();
  CHECK(failures == 0);
  CHECK(counter.allocations() == 0);
  CHECK(counter.deallocations() == 0);
  MESSAGE("checksum " << int{checksum});
}
