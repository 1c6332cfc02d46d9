// Kernel options: how a kernel maps onto the machine. What it computes stays the same; only
// the loops change (the book's section 6.8, applied during rangeify).
//
//   upcast=A:F,...  output axis A becomes a register tile of F copies: index outer * F + c,
//                   c = 0..F-1, every copy written out in the same loop body
//   unroll=F        the innermost popped axis of each reduce is read F elements per iteration,
//                   combined as a balanced tree before the accumulator; the copies share one
//                   loop (a reassociation, so the interpreter is told the tree: interp.h)
//   unroll=F:ordered  the same, folded into the accumulator one by one, in order: exact
//   tile=A:T,...    output axis A is cache-blocked: a loop over blocks of T, outside every
//                   other output loop, and a loop inside the block
//   thread=A        output axis A is the outermost loop, and its range is split across threads
//   block=B         in a kernel whose value is a reduce, the first popped axis is blocked by
//                   B: a loop over its blocks outside every output loop, the partial fold
//                   kept in the output between blocks (the fold order stays exact), so the
//                   rows a block reads stay in cache while every output uses them
//   table=N         a stack of at least N literals (default kDefaultTable) is a constant table
//                   the kernel indexes; a shorter one is a chain of selects
//
// An option that does not fit a kernel (an axis it does not have, a factor that does not
// divide the axis) is left out for that kernel, so one option string applies to every kernel.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/uop.h"

namespace uopc {

// How a reduce's innermost popped axis is unrolled.
struct Unroll {
  int64_t factor = 1;
  bool in_order = false;  // folded one by one rather than as a tree
  bool operator==(const Unroll&) const = default;
};

// A chain of selects costs one compare per literal and a C compiler time that grows faster
// than the chain (gcc does not finish 4096 in minutes); a table costs one load.
inline constexpr int64_t kDefaultTable = 256;

struct Opts {
  std::map<int, int64_t> upcast;
  int64_t unroll = 1;
  bool unroll_in_order = false;
  std::map<int, int64_t> tile;
  std::optional<int> thread;
  int64_t block = 1;
  int64_t table = kDefaultTable;
  bool operator==(const Opts&) const = default;
  bool none() const { return *this == Opts{}; }
};

// "upcast=0:4,1:4 unroll=4 tile=0:64 thread=0", or "none" when nothing is set.
std::string format_opts(const Opts& o);

// Parses format_opts' form; throws UserError naming `what` (e.g. "--opts") on bad text.
Opts parse_opts(const std::string& text, const std::string& what);

// How a program's kernels get their options.
struct OptsChoice {
  enum class Mode { None, Auto, Fixed } mode = Mode::None;
  Opts fixed;
};

// "none", "auto" or an option string.
OptsChoice parse_opts_choice(const std::string& text, const std::string& what);
std::string format_opts_choice(const OptsChoice& c);

// The options of `o` that fit a kernel computing `root`.
Opts fit_opts(const Opts& o, const UOp& root);

// Options chosen from the kernel's shape, never reassociating a reduce (LANGUAGE.md §7: the
// default options agree with the interpreter bit for bit): a register tile over the two
// innermost output axes
// when a reduce runs per output element (a matmul), unrolled whole when its innermost axis is
// short (a stencil); an unrolled reduce when one reduce serves many outputs (a row sum);
// threads over the outermost axis when there is enough work.
Opts auto_opts(const UOp& root);

// Under --opts auto, values the kernel computing `root` should read from a kernel of their
// own: an exp2, log2 or sin that a reduce folds and that the kernel also needs outside that
// reduce (softmax's exponentials), which the plain lowering computes twice.
std::vector<const UOp*> auto_stages(const UOp& root);

// Values the kernel computing `root` would compute at more than `max_indices` different
// indices, under any options: a value read through several different movement paths, as each
// step of `%s = stack (flip %p) %p`, `%p2 = reshape %s` reads %p twice, %p's source four times,
// and so on, so that inlined the kernel grows exponentially in the program's length. Each is
// read from a kernel of its own instead, computed once. Index arithmetic and loads are not
// worth a kernel: movement ops, buffers, literals and stages are never among them.
std::vector<const UOp*> widely_read_stages(const UOp& root, size_t max_indices);

// The options a kernel computing `root` gets under `choice`.
Opts opts_for(const OptsChoice& choice, const UOp& root);

}  // namespace uopc
