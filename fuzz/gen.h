// The program generator: random well-typed .uir programs over all of the language, from a choice
// source (fuzz/choices.h).
//
// A program grows statement by statement from sources (buffers of every dtype, stacks of
// distinct literals, including extremes like NaN, -0, INT32_MIN and magnitudes that make
// float addition order visible) through movement chains of rank 0 to 5 (reshapes that split
// and merge axes, permutes, expands, shrinks with literal or computed offsets, pads with and
// without a value, flips), stacks, indexes, reduces of every op and pop (some broadcast back
// as in softmax, some through a flatten/unflatten round trip), elementwise ops with
// broadcasting, casts, wheres, stages and asserts of values against equal rewrites of
// themselves. Operands are drawn from everything built so far, so programs are DAGs, and
// every value stays within max_numel elements. A draw the steering refuses is drawn again
// (a few times, then the step is skipped), so a steered program is a default one with the
// refused statements left out.
#pragma once

#include <optional>
#include <string>

#include "fuzz/choices.h"
#include "fuzz/steering.h"
#include "ir/program.h"

namespace uopc {

struct GenOptions {
  int max_statements = 10;
  int64_t max_numel = 256;  // at most 4096 is sensible; larger is allowed
  Steering steering;        // every statement kept keeps to it
};

Program generate(Choices& choices, const GenOptions& options = {});

// A program of kExpressionsPerProgram integer expressions of the symbolic oracle's kind, each
// an output computed elementwise over stacks of values of its variables, both ends of their
// bounds among them: an engine whose simplifier drops a side condition (a remainder that
// wraps, a product of divisors that overflows) gives a wrong value there, which only the
// engine's values show when no symbolic oracle can read its rules. generate()'s programs hold
// such an expression in one source of 16. A default program when the steering leaves out i32
// or stack.
constexpr int kExpressionsPerProgram = 8;
Program expressions_program(Choices& choices, const GenOptions& gen);

// A program that breaks exactly one type rule: `valid` printed, plus one bad statement.
// `rule` says which rule it breaks, for messages.
struct Broken {
  std::string text;
  std::string rule;
};
Broken break_one_rule(Choices& choices, const Program& valid);
// A program of literals (no buffer: a buffer's i32 interval is all of i32) of i32 and bool
// values, then one element of each of its narrow values added up, with the sum as an offset one
// past its interval (interval_rule_breakers): the sum's interval is too narrow when the rule of
// any op under those values is, so one program tests them all, which programs over buffers
// rarely do. None when the steering leaves out i32, or the program holds no narrow value.
std::optional<Broken> break_an_interval_rule(Choices& choices, const GenOptions& gen);
// What b does, as a rejection failure says it: "breaks the shrink_bounds rule".
std::string breaks_rule(const Broken& b);
// The same when `valid` is already printed: `printed` is print_program(valid).
Broken break_one_rule(Choices& choices, const Program& valid, const std::string& printed);

// Every variant break_one_rule chooses from when it breaks a rule at `v`, a value of `valid`
// (`expand_axis`: the axis an expand grows).
std::vector<Broken> rule_breakers(const Program& valid, const Statement& v, size_t expand_axis);

// Of those, the two that test the interval LANGUAGE.md §5 gives v: an element of v as an
// offset outside its range by one at the high end ("interval high end"), or at the low end. A
// checker whose interval rule for an op in v's subgraph is too narrow accepts one. None when
// v is not i32, or its interval is a point or wider than 2^16.
//
// With `reach`, the offsets are out of range by one at the lowest and highest value v takes,
// each read from an element that holds it. Every sound checker refuses both, however tight its
// intervals (one that folds literals knows the very offset): accepting one leaves out a value v
// takes.
struct ValueReach {
  Interval values;              // inside v's interval
  Shape lowest_at, highest_at;  // an element's index holding each end
};
std::vector<Broken> interval_rule_breakers(const Program& valid, const Statement& v,
                                           const ValueReach* reach = nullptr);

}  // namespace uopc
