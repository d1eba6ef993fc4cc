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

}  // namespace

Poly Poly::constant(bool one) {
  Poly p;
  if (one) p.monomials_.push_back(kOne);
  return p;
}

Poly Poly::variable(Variable v) {
  Poly p;
  p.monomials_.push_back(v);
  return p;
}

bool Poly::is_constant() const {
  return monomials_.empty() || (monomials_.size() == 1 && monomials_[0] == kOne);
}

bool Poly::constant_value() const {
  return !monomials_.empty();
}

int Poly::degree() const {
  if (monomials_.empty()) return 0;
  const std::uint64_t last = monomials_.back();
  if (last >> 32) return 2;
  return last == kOne ? 0 : 1;
}

Poly& Poly::operator^=(const Poly& other) {
  if (other.monomials_.empty()) return *this;
  if (monomials_.empty()) {
    monomials_ = other.monomials_;
    return *this;
  }
  // Merged in a buffer each thread keeps, then copied back into this polynomial's own
  // storage, which is reused when it is large enough: no allocation in the common case.
  thread_local std::vector<std::uint64_t> sum;
  sum.clear();
  std::set_symmetric_difference(monomials_.begin(), monomials_.end(), other.monomials_.begin(),
                                other.monomials_.end(), std::back_inserter(sum));
  monomials_.assign(sum.begin(), sum.end());
  return *this;
}

Poly operator^(const Poly& a, const Poly& b) {
  if (a.monomials_.empty()) return b;
  if (b.monomials_.empty()) return a;
  Poly sum;
  sum.monomials_.reserve(a.monomials_.size() + b.monomials_.size());
  std::set_symmetric_difference(a.monomials_.begin(), a.monomials_.end(), b.monomials_.begin(),
                                b.monomials_.end(), std::back_inserter(sum.monomials_));
  return sum;
}

Poly operator&(const Poly& a, const Poly& b) {
  if (a.is_zero() || b.is_zero()) return Poly{};
  if (a.is_constant()) return b;
  if (b.is_constant()) return a;
  if (a.monomials_.size() == 1 && b.monomials_.size() == 1) {
    Poly product;
    product.monomials_.push_back(multiply(a.monomials_[0], b.monomials_[0]));
    return product;
  }
  thread_local std::vector<std::uint64_t> terms;
  terms.clear();
  for (std::uint64_t x : a.monomials_)
    for (std::uint64_t y : b.monomials_)
      terms.push_back(multiply(x, y));
  normalize(terms);
  Poly product;
  product.monomials_.assign(terms.begin(), terms.end());
  return product;
}

Poly Poly::operator~() const {
  return *this ^ Poly::constant(true);
}

Poly Poly::without_constant_term() const {
  Poly p = *this;
  if (p.has_constant_term()) p.monomials_.erase(p.monomials_.begin());
  return p;
}

std::uint64_t Poly::hash() const {
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ monomials_.size();
  for (std::uint64_t m : monomials_) {
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
