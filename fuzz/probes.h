// Small programs that show a cause the program at hand met in a larger form, where no
// statement of it can be taken away. The reducer tries them when what it reduced stays larger
// (fuzz/reduce.h); signatures localize with read_twice.
//
// op_probes: programs of two or three statements that show one i32 op on literal operands: the
// op's interval rule (LANGUAGE.md §5) and the C the renderer writes for it (its overflow and
// division decisions). A bug in either may show first deep in a program's index arithmetic (a
// mul of a reshape's stride, a floor division of a flipped index).
#pragma once

#include <string>
#include <vector>

#include "compiler/opts.h"
#include "ir/program.h"
#include "ir/uop.h"

namespace uopc {

// For add, sub, mul, idiv, mod, max, min and neg: the op on operands that take each corner of
// their intervals (a negative, a positive, a mixed one and the whole of i32), and on a literal
// divisor-like second operand; smallest first.
std::vector<std::string> op_probes();

// fused_probes: a value of an op computed from loaded elements and read by another op, as the
// fused program (the value an operand in its reader's expression), the staged one (`stage`
// gives the value a kernel of its own) and the value alone. An op whose fused programs fail
// where the other two do not is right computed and wrong written into another op's
// expression: its C lacks the parentheses its reader needs, say, which a program shows as a
// wrong cast, an overflowing add, a rule's rewrite or C that does not compile, whichever op
// read it.
struct FusedProbe {
  std::string fused, staged, alone;
};

// For every elementwise op (is_alu, cast included): the op on values of each dtype it takes,
// read by ops of each kind of C operator (unary, multiplicative, additive on either side, a
// comparison, a cast, a where's branch or condition, a logical one). Empty for other ops.
std::vector<FusedProbe> fused_probes(Op op);

// The fused programs of `probes` as one, each probe's value an output of its own: an engine
// that computes it right writes the op right into every reader, in one run of the engine.
Program fused_together(const std::vector<FusedProbe>& probes);

// The elementwise ops of p and of the kernels it and its composites (with_composites) compile
// to under `opts`, each once: a pad's mask and a stack's select are wheres and compares there,
// a pad's clamp a max, and a flip's composite stacks.
std::vector<Op> elementwise_ops(const Program& p, const OptsChoice& opts = {});

// n read at two indices by one expression (n != its flip along its first axis of two or more),
// which is what an upcast does to a value, without any option: an op whose copies interfere (a
// reduce whose copies share an accumulator) fails this way too, so its rule is wrong, not the
// upcast's. (A stack would not do: it reads its operands at one index it selects.) Null when
// no axis has two elements.
UOpRef read_twice(const UOpRef& n);

// A buffer compared with its flip, a value read at two indices by one expression, with the two
// programs it is made of that read each value at one: the flip alone and a compare of two
// buffers. An engine that fails the first and passes the others remembers a value by its node
// and not by its index, and gets every value a kernel reads twice wrong, whichever op reads it.
struct ReadTwiceProbe {
  std::string twice, flip_alone, compare_alone;
};
const ReadTwiceProbe& read_twice_probe();

}  // namespace uopc
