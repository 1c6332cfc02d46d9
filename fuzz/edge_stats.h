// Which edge values meet which ops in a campaign: the table `uopc fuzz --stats` prints.
//
// The language's semantics differ from the obvious at a few values: -0 and +0 (equal, yet max and
// min must pick by their comparison), NaN (no comparison holds), the infinities, subnormals,
// +-2^31 (where a cast to i32 starts to saturate, or just does not), and for i32 INT32_MIN,
// INT32_MAX, -1 and 0 (wraparound, idiv and mod by 0 and -1). A mistake there is invisible unless
// such a value reaches the op. count_edges evaluates every operand of every ALU op, pad and reduce
// of a program with the interpreter and counts, per op, the elements of each class it receives (a
// pad's fill value counts once per filled element).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "ir/ops.h"
#include "ir/program.h"

namespace uopc {

enum class EdgeClass : unsigned char {
  NegZero,
  PosZero,
  NaN,
  PosInf,
  NegInf,
  Subnormal,
  TwoTo31,  // f32 +-2^31
  IntMin,
  IntMax,
  MinusOne,
  IntZero,
};
constexpr int kEdgeClasses = 11;

const char* edge_class_name(EdgeClass c);
// The class of one element, if it is an edge value.
bool edge_class_of(const Scalar& s, EdgeClass& out);

struct EdgeStats {
  std::array<std::array<int64_t, kEdgeClasses>, kOpCount> counts{};
  int64_t programs = 0;

  void add(const EdgeStats& other);
};

// Adds p's operand edge values to `stats` (and one to its program count).
void count_edges(const Program& p, EdgeStats& stats);

// Whether op can receive values of class c at all (idiv never sees -0).
bool edge_cell_possible(Op op, EdgeClass c);
// The rows the table has: every ALU op, pad and reduce.
bool edge_row(Op op);

// The table, one row per op, "-" for impossible cells, then how many possible cells were hit.
std::string format_edge_stats(const EdgeStats& stats);
// Possible cells with a zero count, as "max x -0".
std::vector<std::string> missed_edge_cells(const EdgeStats& stats);

}  // namespace uopc
