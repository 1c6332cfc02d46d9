// Decision procedures for scalar expressions, by z3: the proofs of the rewrite rules, the
// interval transfer functions and the renderer's decisions, and the symbolic oracle.
//
// An expression is a graph of rank-0 nodes. Constants and ALU ops are encoded with LANGUAGE.md
// §4's semantics, written here a second time and independently of ir/eval_scalar.cpp:
// i32 as 32-bit vectors (add, sub, mul and neg wrap; idiv and mod floor, with x idiv 0 = 0,
// x mod 0 = x and INT32_MIN idiv -1 = INT32_MIN), bool as z3 booleans, f32 as IEEE binary32
// rounded to nearest even. Every other node (var, range, load, ...) is a leaf: a free variable
// of its dtype, an i32 one constrained to the node's bounds. That is the only assumption a
// query makes, so a rule is proved from its inputs' bounds alone, the same ones the rule saw.
//
// exp2, log2 and sin have no exact meaning here (the language lets libm decide); an expression that
// uses one is Unsupported. A query that z3 does not settle within the time limit is Unknown.
//
// i32 values are integers, not bit-vectors: division by a constant is then a pair of linear
// inequalities, which z3 decides in milliseconds where a 32-bit divider circuit takes it
// seconds or more. Wrap-around is an explicit integer k with v - k * 2^32 in i32; the bitwise
// ops and conversions to and from f32 go through int2bv and bv2int.
//
// The encoding is fuzz/smt_z3.cpp, behind fuzz/smt_solver.h: the uopc command loads it, and
// libz3 with it, when it makes its first Smt.
#pragma once

#include <memory>
#include <string>

#include "ir/interval.h"
#include "ir/uop.h"

namespace uopc {

struct Verdict {
  enum class Kind { Proved, Refuted, Unknown, Unsupported };
  Kind kind = Kind::Unknown;
  // Refuted: the leaves' values and both sides', e.g. "x0=-3 x1=7: -1 vs 2".
  std::string counterexample;

  bool proved() const { return kind == Kind::Proved; }
  bool refuted() const { return kind == Kind::Refuted; }
  bool decided() const { return proved() || refuted(); }
};

std::string verdict_str(const Verdict& v);

// Loads z3 and its encoding now rather than at the first Smt; throws std::runtime_error when
// they cannot be loaded.
void load_smt();

class SmtSolver;  // fuzz/smt_solver.h

class Smt {
 public:
  explicit Smt(unsigned timeout_ms = 20000);
  ~Smt();
  Smt(const Smt&) = delete;
  Smt& operator=(const Smt&) = delete;

  // a and b (rank 0, one dtype) have the same value for every value of their leaves; for f32,
  // the same bits, or both NaN.
  Verdict equal(const UOpRef& a, const UOpRef& b);
  // equal(a, b), and the value of each lies in its own bounds: the symbolic oracle's claim
  // about an expression and its simplification, as one query. Under a time limit of 100 ms or
  // more the bounds are first shown one op at a time (each op's value within its bounds when
  // its sources' are within theirs), and then only equal(a, b) is asked.
  Verdict equal_and_bounded(const UOpRef& a, const UOpRef& b);
  // Every value of the i32 (or bool, as 0 and 1) expression e lies in `claimed`.
  Verdict within(const UOpRef& e, const Interval& claimed);
  // The exact result of the i32 op (add, sub, mul, neg) on a (and b) fits in i32: computing it
  // in i32 never wraps, so C's signed arithmetic has no overflow.
  Verdict exact_fits_i32(Op op, const UOpRef& a, const UOpRef& b);
  // C's a / b or a % b (idiv or mod) is defined (b != 0, not INT32_MIN / -1) and equals the
  // language's floor division or modulo.
  Verdict c_division_agrees(Op op, const UOpRef& a, const UOpRef& b);

 private:
  std::unique_ptr<SmtSolver> solver_;
};

}  // namespace uopc
