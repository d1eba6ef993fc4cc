#include "prove/anf.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace spongegen::prove {
namespace {

constexpr std::uint64_t kOne = 0;

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
void linear_product(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                    std::vector<std::uint64_t>& out) {
  const bool a_one = a.front() == kOne, b_one = b.front() == kOne;
  const std::span<const std::uint64_t> va = a.subspan(a_one ? 1 : 0), vb = b.subspan(b_one ? 1 : 0);
  if (a_one && b_one) out.push_back(kOne);
  thread_local std::vector<std::uint64_t> scaled, both;
  scaled.clear();
  both.clear();
  const std::span<const std::uint64_t> none;
  std::set_symmetric_difference(b_one ? va.begin() : none.begin(), b_one ? va.end() : none.end(),
                                a_one ? vb.begin() : none.begin(), a_one ? vb.end() : none.end(),
                                std::back_inserter(scaled));
  std::set_intersection(va.begin(), va.end(), vb.begin(), vb.end(), std::back_inserter(both));
  std::set_symmetric_difference(scaled.begin(), scaled.end(), both.begin(), both.end(),
                                std::back_inserter(out));
  std::size_t i = 0, j = 0;
  const auto pair = [&](std::uint64_t low, std::uint64_t high) {
    out.push_back((low << 32) | high);
  };
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
}

}  // namespace

Poly Poly::of_monomials(const std::uint64_t* terms, std::size_t count) {
  Poly p;
  if (count <= kInline) {
    std::copy(terms, terms + count, p.store_.terms);
  } else {
    p.store_.shared = new std::uint64_t[count + 1];
    p.store_.shared[0] = 1;
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

// The sum of two sorted monomial lists, merged straight into the result's own block (a
// block may hold fewer monomials than it has room for).
Poly sum_of(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b) {
  const std::size_t most = a.size() + b.size();
  if (most <= Poly::kInline) {
    std::uint64_t sum[2 * Poly::kInline];  // room the compiler can see, more than needed
    const std::uint64_t* end =
        std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), sum);
    return Poly::of_monomials(sum, static_cast<std::size_t>(end - sum));
  }
  Poly p;
  std::uint64_t* block = new std::uint64_t[most + 1];
  block[0] = 1;
  const std::size_t count = static_cast<std::size_t>(
      std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), block + 1) -
      (block + 1));
  if (count <= Poly::kInline) {
    p = Poly::of_monomials(block + 1, count);
    delete[] block;
    return p;
  }
  p.store_.shared = block;
  p.size_ = static_cast<std::uint32_t>(count);
  return p;
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

Poly operator&(const Poly& a, const Poly& b) {
  if (a.is_zero() || b.is_zero()) return Poly{};
  if (a.is_constant()) return b;
  if (b.is_constant()) return a;
  if (a.size_ == 1 && b.size_ == 1) {
    const std::uint64_t product = multiply(a.data()[0], b.data()[0]);
    return Poly::of_monomials(&product, 1);
  }
  thread_local std::vector<std::uint64_t> terms;
  terms.clear();
  if (a.degree() <= 1 && b.degree() <= 1) {
    linear_product(a.monomials(), b.monomials(), terms);
  } else {
    for (std::uint64_t x : a.monomials())
      for (std::uint64_t y : b.monomials())
        terms.push_back(multiply(x, y));
    normalize(terms);
  }
  return Poly::of_monomials(terms.data(), terms.size());
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
  // A few bits suffice: the hash only picks the candidates that are then compared whole.
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t bit : {0, 21, 42, 63}) {
    const Poly& p = word[bit];
    const auto& m = p.monomials();
    const std::size_t skip = p.has_constant_term() ? 1 : 0;
    std::uint64_t ph = 0x9e3779b97f4a7c15ull ^ (m.size() - skip);
    for (std::size_t i = skip; i < m.size(); ++i)
      ph ^= m[i] + 0x9e3779b97f4a7c15ull + (ph << 6) + (ph >> 2);
    h = (h ^ ph) * 0x100000001b3ull;
  }
  return h;
}

bool equal_variable_parts(const Word& a, const Word& b) {
  for (std::size_t i = 0; i < 64; ++i) {
    const auto& x = a[i].monomials();
    const auto& y = b[i].monomials();
    const std::size_t sx = a[i].has_constant_term() ? 1 : 0, sy = b[i].has_constant_term() ? 1 : 0;
    if (x.size() - sx != y.size() - sy ||
        !std::equal(x.begin() + static_cast<std::ptrdiff_t>(sx), x.end(),
                    y.begin() + static_cast<std::ptrdiff_t>(sy))) {
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
    Poly sum;
    for (unsigned term = 0; term < 8; ++term) {
      if (((anf >> term) & 1u) == 0) continue;
      Poly product = Poly::constant(true);
      if (term & 4u) product = product & a[i];
      if (term & 2u) product = product & b[i];
      if (term & 1u) product = product & c[i];
      sum ^= product;
    }
    out[i] = std::move(sum);
  }
  return out;
}

}  // namespace spongegen::prove
