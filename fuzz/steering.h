// What a campaign asks of the generator beyond size: the ops, dtypes and ranks its programs
// may use and the value classes they may meet, so that an engine is fuzzed on exactly what it
// claims to support (docs/FUZZING.md, "Steering the generator").
//
// Ops, dtypes and ranks are a property of the nodes; value classes are a property of the
// values every node takes on the default inputs (LANGUAGE.md §6), computed by the interpreter:
// - nan: some f32 value is NaN;
// - inf: some f32 value is +inf or -inf;
// - signed_zero: some f32 value is -0;
// - int_extremes: some i32 value, or a partial result of an i32 add or mul reduce, has
//   magnitude above 2^15. Operands within 2^15 make every i32 add, sub, mul and neg exact and
//   every f32-to-i32 cast unsaturated, so a program without them never wraps or saturates;
// - zero_divisor: some idiv or mod divides by 0.
// The generator keeps a statement only when every node it adds keeps to the steering, so all
// three drivers honour it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "ir/program.h"

namespace uopc {

struct Steering {
  std::set<Op> ops;        // empty: every op
  std::set<Op> excluded;   // never, even when `ops` names them
  std::set<DType> dtypes;  // empty: every dtype
  int max_rank = kMaxRank;
  bool nan = true, inf = true, signed_zero = true, int_extremes = true, zero_divisor = true;

  bool allows(Op op) const;
  bool allows(DType d) const;
  bool allows(const Scalar& literal) const;  // its value class
  bool limits_values() const {
    return !(nan && inf && signed_zero && int_extremes && zero_divisor);
  }
  bool is_default() const;
  // The flags that ask for this steering ("--ops add,mul --no-nan"); "" for the default.
  std::string flags() const;
};

// The steering flags among `words`: "--ops A,B", "--exclude-ops A,B", "--dtypes D,E",
// "--max-rank N" (each also as "--flag=value"), "--no-nan", "--no-inf", "--no-signed-zero",
// "--no-int-extremes", "--no-zero-divisor". Other words are returned in `rest` (libFuzzer's own
// flags); unknown op or dtype names, and a steering no program can satisfy, are a UserError.
Steering parse_steering(const std::vector<std::string>& words,
                        std::vector<std::string>* rest = nullptr);

// Why the value of `node` (its whole subgraph) breaks the steering, naming the first node that
// does ("exp2 is not among --ops", "a value is NaN (--no-nan)"); "" when it keeps to it.
std::string steering_violation(const UOpRef& node, const Steering& steering);

// The same for every statement of a program.
std::string steering_violation(const Program& p, const Steering& steering);

}  // namespace uopc
