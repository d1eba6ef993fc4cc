// Boolean functions as polynomials over GF(2) in algebraic normal form: the exact values the
// prover computes with. A polynomial is a sum (XOR) of monomials, each a product (AND) of
// distinct variables; two polynomials are the same function exactly when their monomial sets
// are equal, so comparing two values compares them on every input at once.
//
// A monomial has at most two variables. One round of Keccak-p or Ascon-p is quadratic in the
// state it starts from (chi and Ascon's substitution are the only nonlinear steps), and the
// prover starts every round from fresh variables, so no value of a correct kernel needs more;
// a product of higher degree is reported (DegreeError), never approximated.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

namespace spongegen::prove {

using Variable = std::uint32_t;  // 1, 2, ...: 0 is no variable

class DegreeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A polynomial's monomials, sorted, held inline when there are at most two (a constant, a
// variable, a variable and a constant: most words of a run, which every round boundary
// makes fresh), else in a block shared by every copy and never changed once written: a copy
// (moving a register, loading or storing a word) allocates nothing. The count of owners is
// not atomic: the polynomials of one proof stay on the thread that proves it. Blocks come
// from a per-thread cache of freed blocks by capacity (anf.cpp): a round's products are
// about 130 monomials, past what malloc keeps per thread, and a proof makes and frees
// millions of them.
class Poly {
 public:
  Poly() = default;  // the constant 0
  Poly(const Poly& other) : size_(other.size_), store_(other.store_) {
    if (size_ > kInline) ++store_.shared[0];
  }
  Poly(Poly&& other) noexcept : size_(other.size_), store_(other.store_) { other.size_ = 0; }
  Poly& operator=(const Poly& other) {
    Poly copy(other);
    swap(copy);
    return *this;
  }
  Poly& operator=(Poly&& other) noexcept {
    Poly taken(std::move(other));
    swap(taken);
    return *this;
  }
  ~Poly() { release(); }

  static Poly constant(bool one);
  static Poly variable(Variable v);

  bool is_zero() const { return size_ == 0; }
  bool is_constant() const;     // 0 or 1
  bool constant_value() const;  // for a constant: whether it is 1
  int degree() const;
  std::size_t size() const { return size_; }

  Poly& operator^=(const Poly& other);
  friend Poly operator^(const Poly& a, const Poly& b);
  friend Poly operator&(const Poly& a, const Poly& b);
  Poly operator~() const;  // 1 ^ this
  bool has_constant_term() const { return size_ != 0 && data()[0] == 0; }
  Poly without_constant_term() const;
  friend bool operator==(const Poly& a, const Poly& b) {
    return a.size_ == b.size_ &&
           (a.data() == b.data() || std::equal(a.data(), a.data() + a.size_, b.data()));
  }

  // The value under an assignment of every variable that occurs (bit v of `assignment` read
  // by `value_of(v)`).
  template <class ValueOf>
  bool evaluate(const ValueOf& value_of) const {
    bool sum = false;
    for (std::uint64_t monomial : monomials()) {
      const Variable a = static_cast<Variable>(monomial >> 32), b = static_cast<Variable>(monomial);
      bool product = true;
      if (a != 0) product = product && value_of(a);
      if (b != 0) product = product && value_of(b);
      sum ^= product;
    }
    return sum;
  }
  std::uint64_t hash() const;

  // A monomial is (a << 32) | b with a < b, a = 0 for a single variable, 0 for the constant 1:
  // sorted, the constant comes first and the quadratic terms last.
  std::span<const std::uint64_t> monomials() const { return {data(), size_}; }
  // The polynomial of these monomials (sorted, each once).
  static Poly of_monomials(const std::uint64_t* terms, std::size_t count);
  // The sum of all `terms`, merged through two buffers of this thread: the result is the
  // only block it allocates.
  static Poly sum(std::span<const Poly* const> terms);

  static constexpr std::uint32_t kInline = 2;

 private:
  friend Poly sum_of(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b);
  friend Poly product_of(const Poly& a, const Poly& b);
  const std::uint64_t* data() const { return size_ <= kInline ? store_.terms : store_.shared + 1; }
  void swap(Poly& other) noexcept {
    std::swap(size_, other.size_);
    std::swap(store_, other.store_);
  }
  void release() {
    if (size_ > kInline && (--store_.shared[0] & kOwnersMask) == 0) free_block(store_.shared);
  }
  // A block: a word of the owners' count (low 32 bits) and the room it has for monomials
  // (high 32 bits), then the monomials. `new_block` returns one with one owner.
  static constexpr std::uint64_t kOwnersMask = 0xffffffffu;
  static std::uint64_t* new_block(std::size_t room);
  static void free_block(std::uint64_t* block);

  std::uint32_t size_ = 0;
  // size_ <= kInline: the monomials; else a block of the owners' count, then the monomials.
  union Store {
    std::uint64_t terms[kInline];
    std::uint64_t* shared;
  } store_{};
};

// A 64-bit word, bit i of weight 2^i.
using Word = std::array<Poly, 64>;

Word constant_word(std::uint64_t value);
Word variable_word(Variable first);  // bit i is variable first + i
bool is_constant(const Word& word);
std::uint64_t constant_value(const Word& word);  // requires is_constant
Word operator^(const Word& a, const Word& b);
// The sum of all `words`, bit by bit (Poly::sum).
Word sum(std::span<const Word* const> words);
Word operator&(const Word& a, const Word& b);
Word operator|(const Word& a, const Word& b);
Word operator~(const Word& a);
Word rotate_left(const Word& word, int bits);
Word shift_left(const Word& word, int bits);
Word shift_right(const Word& word, int bits);
std::uint64_t hash(const Word& word);
// The word without its constant terms, and the constant they make: word == variable part ^
// constant_word(constant part).
Word variable_part(const Word& word);
// A hash of the variable part of a few of the word's bits, and variable_part(a) ==
// variable_part(b), without the copies. The hash is linear: the hash of a ^ b is the hash of
// a ^ the hash of b, so that a sum's can be known without the sum.
std::uint64_t hash_of_variable_part(const Word& word);
bool equal_variable_parts(const Word& a, const Word& b);
std::uint64_t constant_part(const Word& word);
int degree(const Word& word);

// The boolean function of three inputs whose truth table is `table` (bit 4a + 2b + c is
// f(a, b, c)), applied bit by bit: AVX-512's VPTERNLOGQ.
Word ternary_logic(std::uint8_t table, const Word& a, const Word& b, const Word& c);

}  // namespace spongegen::prove
