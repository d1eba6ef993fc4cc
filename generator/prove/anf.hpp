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

#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace spongegen::prove {

using Variable = std::uint32_t;  // 1, 2, ...: 0 is no variable

class DegreeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Poly {
 public:
  Poly() = default;  // the constant 0
  static Poly constant(bool one);
  static Poly variable(Variable v);

  bool is_zero() const { return monomials_.empty(); }
  bool is_constant() const;     // 0 or 1
  bool constant_value() const;  // for a constant: whether it is 1
  int degree() const;
  std::size_t size() const { return monomials_.size(); }

  Poly& operator^=(const Poly& other);
  friend Poly operator^(const Poly& a, const Poly& b);
  friend Poly operator&(const Poly& a, const Poly& b);
  Poly operator~() const;  // 1 ^ this
  bool has_constant_term() const { return !monomials_.empty() && monomials_[0] == 0; }
  Poly without_constant_term() const;
  friend bool operator==(const Poly&, const Poly&) = default;

  // The value under an assignment of every variable that occurs (bit v of `assignment` read
  // by `value_of(v)`).
  template <class ValueOf>
  bool evaluate(const ValueOf& value_of) const {
    bool sum = false;
    for (std::uint64_t monomial : monomials_) {
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
  const std::vector<std::uint64_t>& monomials() const { return monomials_; }

 private:
  std::vector<std::uint64_t> monomials_;
};

// A 64-bit word, bit i of weight 2^i.
using Word = std::array<Poly, 64>;

Word constant_word(std::uint64_t value);
Word variable_word(Variable first);  // bit i is variable first + i
bool is_constant(const Word& word);
std::uint64_t constant_value(const Word& word);  // requires is_constant
Word operator^(const Word& a, const Word& b);
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
// hash(variable_part(word)) and variable_part(a) == variable_part(b), without the copies.
std::uint64_t hash_of_variable_part(const Word& word);
bool equal_variable_parts(const Word& a, const Word& b);
std::uint64_t constant_part(const Word& word);
int degree(const Word& word);

// The boolean function of three inputs whose truth table is `table` (bit 4a + 2b + c is
// f(a, b, c)), applied bit by bit: AVX-512's VPTERNLOGQ.
Word ternary_logic(std::uint8_t table, const Word& a, const Word& b, const Word& c);

}  // namespace spongegen::prove
