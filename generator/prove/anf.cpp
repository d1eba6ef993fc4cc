#include "prove/anf.hpp"

#include <fmt/format.h>

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>  // madvise
#endif

#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>
#include <new>
#include <tuple>
#include <utility>

namespace spongegen::prove {
namespace {

constexpr std::uint64_t kOne = 0;

// Memory for blocks. A proof makes and frees millions of them, most a round's products
// and sums of about 130 monomials: past the sizes malloc keeps per thread, so each went
// through its shared bins, and its heap grew and shrank by pages that each cost a fault (a
// large share of a proof's time on this project's virtual machines). So blocks are carved
// from chunks of huge pages, once, and then recycled by class of room (a multiple of
// kRoomStep monomials): a freed block goes on its thread's stack for its class; a thread's
// stacks go to the process's as it ends, and a thread whose stack is empty takes the
// process's. Nothing is returned to the heap before the process ends: a proof's peak is
// what it keeps. (The stacks hold pointers, not links through the blocks: a link read on
// every allocation waited for a cold block, 6% of a proof's time.)
constexpr std::size_t kRoomStep = 8;
constexpr std::size_t kPooledClasses = 256;  // rooms up to 2048 monomials; larger: new[]
constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
constexpr std::size_t kChunkBytes = 2 * kHugePageBytes;

// Trivially destructible (see ThreadPool): release() frees its storage.
struct BlockStack {
  std::uint64_t** items = nullptr;
  std::size_t count = 0, capacity = 0;
  bool empty() const { return count == 0; }
  std::uint64_t* pop() { return items[--count]; }
  void push(std::uint64_t* block) {
    if (count == capacity) {
      capacity = std::max<std::size_t>(64, 2 * capacity);
      std::uint64_t** const larger = new std::uint64_t*[capacity];
      std::copy(items, items + count, larger);
      delete[] items;
      items = larger;
    }
    items[count++] = block;
  }
  void release() {
    delete[] items;
    *this = BlockStack{};
  }
};
using FreeStacks = std::array<BlockStack, kPooledClasses + 1>;

struct ProcessPool {
  std::mutex mutex;
  FreeStacks free{};
  std::vector<void*> chunks;
  std::vector<std::pair<char*, char*>> unused;  // the uncarved ends of ended threads' chunks
  ~ProcessPool() {
    for (BlockStack& stack : free)
      stack.release();
    for (void* chunk : chunks)
      ::operator delete (chunk, std::align_val_t{kHugePageBytes});
  }
};
constinit ProcessPool process_pool;

// Trivially destructible, so that a block freed after the drain below ran (by another
// thread_local object destroyed later) still finds it, closed.
struct ThreadPool {
  FreeStacks free{};
  char* carve = nullptr;
  char* carve_end = nullptr;
  bool drain_armed = false;
  bool closed = false;  // the drain ran: blocks go to the process's stacks
};
thread_local ThreadPool thread_pool;

// Hands the thread's free blocks and its chunk's uncarved end to the process as it ends.
struct ThreadPoolDrain {
  bool armed = false;
  ~ThreadPoolDrain() {
    ThreadPool& pool = thread_pool;
    const std::lock_guard<std::mutex> lock(process_pool.mutex);
    for (std::size_t c = 0; c <= kPooledClasses; ++c) {
      BlockStack& mine = pool.free[c];
      BlockStack& shared = process_pool.free[c];
      if (shared.empty()) std::swap(mine, shared);
      while (!mine.empty())
        shared.push(mine.pop());
      mine.release();
    }
    if (pool.carve != pool.carve_end) process_pool.unused.emplace_back(pool.carve, pool.carve_end);
    pool.carve = pool.carve_end = nullptr;
    pool.closed = true;
  }
};
thread_local ThreadPoolDrain thread_pool_drain;

void arm_drain(ThreadPool& pool) {
  if (!pool.drain_armed) {
    pool.drain_armed = true;
    thread_pool_drain.armed = true;  // constructs it, so that it runs as the thread ends
  }
}

// A block of `words` words from the thread's chunk, a new chunk when it has too few left.
std::uint64_t* carve(ThreadPool& pool, std::size_t words) {
  const std::size_t bytes = words * sizeof(std::uint64_t);
  if (static_cast<std::size_t>(pool.carve_end - pool.carve) < bytes) {
    // The uncarved end is lost (less than the largest block, 16 KiB).
    const std::lock_guard<std::mutex> lock(process_pool.mutex);
    if (!process_pool.unused.empty() &&
        static_cast<std::size_t>(process_pool.unused.back().second -
                                 process_pool.unused.back().first) >= bytes) {
      std::tie(pool.carve, pool.carve_end) = process_pool.unused.back();
      process_pool.unused.pop_back();
    } else {
      void* const chunk = ::operator new (kChunkBytes, std::align_val_t{kHugePageBytes});
#ifdef MADV_HUGEPAGE
      madvise(chunk, kChunkBytes, MADV_HUGEPAGE);  // advice: a refusal changes nothing
#endif
      process_pool.chunks.push_back(chunk);
      pool.carve = static_cast<char*>(chunk);
      pool.carve_end = pool.carve + kChunkBytes;
    }
    arm_drain(pool);
  }
  std::uint64_t* const block = reinterpret_cast<std::uint64_t*>(pool.carve);
  pool.carve += bytes;
  return block;
}

// The symmetric difference of two sorted lists of distinct monomials, written to `out`
// (room for both). Returns the count written. (The lists of a sum come in long runs from
// one side: a merge without branches, tried, took half as long again.)
std::size_t merge_sum(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                      std::uint64_t* out) {
  const std::uint64_t *x = a.data(), *const x_end = x + a.size();
  const std::uint64_t *y = b.data(), *const y_end = y + b.size();
  std::uint64_t* o = out;
  while (x != x_end && y != y_end) {
    if (*x < *y) {
      *o++ = *x++;
    } else if (*y < *x) {
      *o++ = *y++;
    } else {
      ++x, ++y;
    }
  }
  o = std::copy(x, x_end, o);
  o = std::copy(y, y_end, o);
  return static_cast<std::size_t>(o - out);
}

// Sorts and cancels pairs: a sum over GF(2) keeps the monomials that occur an odd number
// of times.
void normalize(std::vector<std::uint64_t>& monomials) {
  std::sort(monomials.begin(), monomials.end());
  std::size_t out = 0;
  for (std::size_t i = 0; i < monomials.size();) {
    std::size_t j = i;
    while (j < monomials.size() && monomials[j] == monomials[i])
      ++j;
    if ((j - i) % 2 == 1) monomials[out++] = monomials[i];
    i = j;
  }
  monomials.resize(out);
}

std::uint64_t multiply(std::uint64_t x, std::uint64_t y) {
  if ((x >> 32) == 0 && (y >> 32) == 0) {  // the common case: constants and single variables
    if (x == kOne || x == y) return y;
    if (y == kOne) return x;
    return x < y ? (x << 32) | y : (y << 32) | x;
  }
  // The distinct variables of both monomials, each sorted already (a < b within one).
  std::array<Variable, 4> vars{};
  int count = 0;
  const auto add = [&](Variable v) {
    if (v == 0) return;
    for (int i = 0; i < count; ++i) {
      if (vars[static_cast<std::size_t>(i)] == v) return;
    }
    if (count == 4) return;
    vars[static_cast<std::size_t>(count++)] = v;
  };
  add(static_cast<Variable>(x >> 32));
  add(static_cast<Variable>(x));
  add(static_cast<Variable>(y >> 32));
  add(static_cast<Variable>(y));
  if (count > 2) {
    throw DegreeError(fmt::format(
        "a product of degree {} (more than one round's quadratic step since the last round "
        "boundary)",
        count));
  }
  if (count == 0) return kOne;
  if (count == 1) return vars[0];
  const Variable low = std::min(vars[0], vars[1]), high = std::max(vars[0], vars[1]);
  return (std::uint64_t{low} << 32) | high;
}

// The product of two polynomials of degree at most one (every product of a round: chi's and
// Ascon's S-box's), written in order without a sort. With A and B their variables, the
// product is the constant if both have one, then the linear terms A (if B has a constant)
// + B (if A has one) + the variables of both (v v = v), then for each variable v in
// ascending order its products with larger variables w: v w comes from v in A and w in B,
// and from v in B and w in A; when both hold the two cancel.
std::size_t linear_product(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                           std::uint64_t* const out) {
  const bool a_one = a.front() == kOne, b_one = b.front() == kOne;
  const std::span<const std::uint64_t> va = a.subspan(a_one ? 1 : 0), vb = b.subspan(b_one ? 1 : 0);
  std::uint64_t* o = out;
  if (a_one && b_one) *o++ = kOne;
  thread_local std::vector<std::uint64_t> scaled, both;
  scaled.resize(va.size() + vb.size());
  both.resize(std::min(va.size(), vb.size()));
  const std::span<const std::uint64_t> none;
  const auto scaled_end = std::set_symmetric_difference(
      b_one ? va.begin() : none.begin(), b_one ? va.end() : none.end(),
      a_one ? vb.begin() : none.begin(), a_one ? vb.end() : none.end(), scaled.begin());
  const auto both_end =
      std::set_intersection(va.begin(), va.end(), vb.begin(), vb.end(), both.begin());
  o = std::set_symmetric_difference(scaled.begin(), scaled_end, both.begin(), both_end, o);
  std::size_t i = 0, j = 0;
  const auto pair = [&](std::uint64_t low, std::uint64_t high) { *o++ = (low << 32) | high; };
  while (i < va.size() || j < vb.size()) {
    const bool take_a = j == vb.size() || (i < va.size() && va[i] <= vb[j]);
    const bool take_b = i == va.size() || (j < vb.size() && vb[j] <= va[i]);
    const std::uint64_t v = take_a ? va[i] : vb[j];
    if (take_a) ++i;
    if (take_b) ++j;
    if (take_a && take_b) {  // v in both: B's larger variables + A's larger variables
      std::size_t x = i, y = j;
      while (x < va.size() || y < vb.size()) {
        if (y == vb.size() || (x < va.size() && va[x] < vb[y])) {
          pair(v, va[x++]);
        } else if (x == va.size() || vb[y] < va[x]) {
          pair(v, vb[y++]);
        } else {
          ++x, ++y;
        }
      }
    } else if (take_a) {
      for (std::size_t y = j; y < vb.size(); ++y)
        pair(v, vb[y]);
    } else {
      for (std::size_t x = i; x < va.size(); ++x)
        pair(v, va[x]);
    }
  }
  return static_cast<std::size_t>(o - out);
}

}  // namespace

std::uint64_t* Poly::new_block(std::size_t room) {
  const std::size_t room_class = (room + kRoomStep - 1) / kRoomStep;
  room = room_class * kRoomStep;
  std::uint64_t* block;
  if (room_class > kPooledClasses) {
    block = new std::uint64_t[room + 1];
  } else {
    ThreadPool& pool = thread_pool;
    BlockStack& stack = pool.free[room_class];
    if (stack.empty()) {
      const std::lock_guard<std::mutex> lock(process_pool.mutex);
      std::swap(stack, process_pool.free[room_class]);
    }
    if (!stack.empty()) {
      block = stack.pop();
    } else if (pool.closed) {
      block = new std::uint64_t[room + 1];  // joins the pool when freed, never deleted
    } else {
      block = carve(pool, room + 1);
    }
  }
  block[0] = (std::uint64_t{room} << 32) | 1;
  return block;
}

void Poly::free_block(std::uint64_t* block) {
  const std::size_t room_class = static_cast<std::size_t>(block[0] >> 32) / kRoomStep;
  if (room_class > kPooledClasses) {
    delete[] block;
    return;
  }
  ThreadPool& pool = thread_pool;
  if (pool.closed) {
    const std::lock_guard<std::mutex> lock(process_pool.mutex);
    process_pool.free[room_class].push(block);
    return;
  }
  arm_drain(pool);
  pool.free[room_class].push(block);
}

Poly Poly::of_monomials(const std::uint64_t* terms, std::size_t count) {
  Poly p;
  if (count <= kInline) {
    std::copy(terms, terms + count, p.store_.terms);
  } else {
    p.store_.shared = new_block(count);
    std::copy(terms, terms + count, p.store_.shared + 1);
  }
  p.size_ = static_cast<std::uint32_t>(count);
  return p;
}

Poly Poly::constant(bool one) {
  Poly p;
  if (one) {
    p.store_.terms[0] = kOne;
    p.size_ = 1;
  }
  return p;
}

Poly Poly::variable(Variable v) {
  Poly p;
  p.store_.terms[0] = v;
  p.size_ = 1;
  return p;
}

bool Poly::is_constant() const {
  return size_ == 0 || (size_ == 1 && data()[0] == kOne);
}

bool Poly::constant_value() const {
  return size_ != 0;
}

int Poly::degree() const {
  if (size_ == 0) return 0;
  const std::uint64_t last = data()[size_ - 1];
  if (last >> 32) return 2;
  return last == kOne ? 0 : 1;
}

// A buffer of this thread for a result whose size is known only once it is written: the
// result's block then takes exactly its monomials (a block with room for the most a sum or
// product could hold would double the memory a proof touches).
std::uint64_t* scratch(std::size_t room) {
  thread_local std::vector<std::uint64_t> buffer;
  if (buffer.size() < room) buffer.resize(std::max(room, 2 * buffer.size()));
  return buffer.data();
}

// The sum of two sorted monomial lists.
Poly sum_of(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b) {
  const std::size_t most = a.size() + b.size();
  if (most <= Poly::kInline) {
    std::uint64_t terms[2 * Poly::kInline];
    return Poly::of_monomials(terms, merge_sum(a, b, terms));
  }
  // Most sums cancel little (chi's output, a parity's next term): merged straight into a
  // block with room for all, which is kept unless much of the room went unused.
  Poly p;
  std::uint64_t* const block = Poly::new_block(most);
  const std::size_t count = merge_sum(a, b, block + 1);
  if (count <= Poly::kInline || count + 2 * kRoomStep < most) {
    p = Poly::of_monomials(block + 1, count);
    Poly::free_block(block);
    return p;
  }
  p.store_.shared = block;
  p.size_ = static_cast<std::uint32_t>(count);
  return p;
}

Poly Poly::sum(std::span<const Poly* const> terms) {
  std::size_t first = 0;
  while (first < terms.size() && terms[first]->is_zero())
    ++first;
  if (first == terms.size()) return Poly{};
  std::size_t last = terms.size() - 1;
  while (terms[last]->is_zero())
    --last;
  if (first == last) return *terms[first];
  // The partial sums alternate between two buffers; the last merge writes the result's block.
  thread_local std::vector<std::uint64_t> buffers[2];
  std::size_t most = 0;
  for (std::size_t t = first; t <= last; ++t)
    most += terms[t]->size_;
  buffers[0].resize(most);
  buffers[1].resize(most);
  std::span<const std::uint64_t> partial = terms[first]->monomials();
  int into = 0;
  for (std::size_t t = first + 1; t < last; ++t) {
    std::uint64_t* const out = buffers[into].data();
    partial = {out, merge_sum(partial, terms[t]->monomials(), out)};
    into ^= 1;
  }
  return sum_of(partial, terms[last]->monomials());
}

Poly& Poly::operator^=(const Poly& other) {
  if (other.size_ == 0) return *this;
  if (size_ == 0) return *this = other;
  return *this = sum_of(monomials(), other.monomials());
}

Poly operator^(const Poly& a, const Poly& b) {
  if (a.size_ == 0) return b;
  if (b.size_ == 0) return a;
  return sum_of(a.monomials(), b.monomials());
}

Poly product_of(const Poly& a, const Poly& b) {
  if (a.degree() <= 1 && b.degree() <= 1) {
    std::uint64_t* const terms = scratch((a.size_ + 1) * (b.size_ + 1));
    return Poly::of_monomials(terms, linear_product(a.monomials(), b.monomials(), terms));
  }
  thread_local std::vector<std::uint64_t> terms;
  terms.clear();
  for (std::uint64_t x : a.monomials())
    for (std::uint64_t y : b.monomials())
      terms.push_back(multiply(x, y));
  normalize(terms);
  return Poly::of_monomials(terms.data(), terms.size());
}

Poly operator&(const Poly& a, const Poly& b) {
  if (a.is_zero() || b.is_zero()) return Poly{};
  if (a.is_constant()) return b;
  if (b.is_constant()) return a;
  if (a.size_ == 1 && b.size_ == 1) {
    const std::uint64_t product = multiply(a.data()[0], b.data()[0]);
    return Poly::of_monomials(&product, 1);
  }
  return product_of(a, b);
}

Poly Poly::operator~() const {
  return *this ^ Poly::constant(true);
}

Poly Poly::without_constant_term() const {
  if (!has_constant_term()) return *this;
  return of_monomials(data() + 1, size_ - 1);
}

std::uint64_t Poly::hash() const {
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ size_;
  for (std::uint64_t m : monomials()) {
    h ^= m + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  }
  return h;
}

Word constant_word(std::uint64_t value) {
  Word word;
  for (int i = 0; i < 64; ++i)
    word[static_cast<std::size_t>(i)] = Poly::constant(((value >> i) & 1) != 0);
  return word;
}

Word variable_word(Variable first) {
  Word word;
  for (Variable i = 0; i < 64; ++i)
    word[i] = Poly::variable(first + i);
  return word;
}

bool is_constant(const Word& word) {
  return std::all_of(word.begin(), word.end(), [](const Poly& p) { return p.is_constant(); });
}

std::uint64_t constant_value(const Word& word) {
  std::uint64_t value = 0;
  for (int i = 0; i < 64; ++i) {
    if (word[static_cast<std::size_t>(i)].constant_value()) value |= std::uint64_t{1} << i;
  }
  return value;
}

Word operator^(const Word& a, const Word& b) {
  Word out;
  for (std::size_t i = 0; i < 64; ++i)
    out[i] = a[i] ^ b[i];
  return out;
}

Word sum(std::span<const Word* const> words) {
  Word out;
  std::vector<const Poly*> bits(words.size());
  for (std::size_t i = 0; i < 64; ++i) {
    for (std::size_t w = 0; w < words.size(); ++w)
      bits[w] = &(*words[w])[i];
    out[i] = Poly::sum(bits);
  }
  return out;
}

Word operator&(const Word& a, const Word& b) {
  Word out;
  for (std::size_t i = 0; i < 64; ++i)
    out[i] = a[i] & b[i];
  return out;
}

Word operator|(const Word& a, const Word& b) {
  Word out;
  for (std::size_t i = 0; i < 64; ++i)
    out[i] = a[i] ^ b[i] ^ (a[i] & b[i]);
  return out;
}

Word operator~(const Word& a) {
  Word out;
  for (std::size_t i = 0; i < 64; ++i)
    out[i] = ~a[i];
  return out;
}

Word rotate_left(const Word& word, int bits) {
  Word out;
  for (int i = 0; i < 64; ++i)
    out[static_cast<std::size_t>((i + bits) & 63)] = word[static_cast<std::size_t>(i)];
  return out;
}

Word shift_left(const Word& word, int bits) {
  Word out;
  for (int i = 0; i + bits < 64; ++i)
    out[static_cast<std::size_t>(i + bits)] = word[static_cast<std::size_t>(i)];
  return out;
}

Word shift_right(const Word& word, int bits) {
  Word out;
  for (int i = bits; i < 64; ++i)
    out[static_cast<std::size_t>(i - bits)] = word[static_cast<std::size_t>(i)];
  return out;
}

std::uint64_t hash(const Word& word) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const Poly& p : word)
    h = (h ^ p.hash()) * 0x100000001b3ull;
  return h;
}

std::uint64_t hash_of_variable_part(const Word& word) {
  // The sum of a mix of every monomial, the constant term's 0: a sum of words hashes to the
  // sum of their hashes. A few bits suffice: the hash only picks the candidates that are
  // then compared whole.
  const auto mix = [](std::uint64_t m) {
    if (m == kOne) return std::uint64_t{0};
    m = (m ^ (m >> 31)) * 0x7fb5d329728ea185ull;
    m = (m ^ (m >> 27)) * 0x81dadef4bc2dd44dull;
    return m ^ (m >> 33);
  };
  std::uint64_t h = 0;
  int turn = 0;
  for (std::size_t bit : {0, 21, 42, 63}) {
    std::uint64_t ph = 0;
    for (std::uint64_t m : word[bit].monomials())
      ph ^= mix(m);
    h ^= std::rotl(ph, 16 * turn++);
  }
  return h;
}

bool equal_variable_parts(const Word& a, const Word& b) {
  for (std::size_t i = 0; i < 64; ++i) {
    const auto x = a[i].monomials().subspan(a[i].has_constant_term() ? 1 : 0);
    const auto y = b[i].monomials().subspan(b[i].has_constant_term() ? 1 : 0);
    if (x.size() != y.size() ||
        (x.data() != y.data() && !std::equal(x.begin(), x.end(), y.begin()))) {
      return false;
    }
  }
  return true;
}

Word variable_part(const Word& word) {
  Word out;
  for (std::size_t i = 0; i < 64; ++i)
    out[i] = word[i].without_constant_term();
  return out;
}

std::uint64_t constant_part(const Word& word) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 64; ++i) {
    if (word[i].has_constant_term()) value |= std::uint64_t{1} << i;
  }
  return value;
}

int degree(const Word& word) {
  int d = 0;
  for (const Poly& p : word)
    d = std::max(d, p.degree());
  return d;
}

Word ternary_logic(std::uint8_t table, const Word& a, const Word& b, const Word& c) {
  // The Moebius transform of the truth table gives the function's ANF coefficients: bit
  // 4i + 2j + k of `anf` is the coefficient of a^i b^j c^k.
  unsigned anf = table;
  for (unsigned step = 1; step < 8; step <<= 1) {
    for (unsigned index = 0; index < 8; ++index) {
      if (index & step) anf ^= ((anf >> (index ^ step)) & 1u) << index;
    }
  }
  Word out;
  for (std::size_t i = 0; i < 64; ++i) {
    std::array<Poly, 8> products;
    std::array<const Poly*, 8> terms{};
    std::size_t count = 0;
    for (unsigned term = 0; term < 8; ++term) {
      if (((anf >> term) & 1u) == 0) continue;
      Poly product = Poly::constant(true);
      if (term & 4u) product = product & a[i];
      if (term & 2u) product = product & b[i];
      if (term & 1u) product = product & c[i];
      products[count] = std::move(product);
      terms[count] = &products[count];
      ++count;
    }
    out[i] = Poly::sum({terms.data(), count});
  }
  return out;
}

}  // namespace spongegen::prove
