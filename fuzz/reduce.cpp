#include "fuzz/reduce.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>
#include <set>
#include <unordered_map>

#include "compiler/compile_memo.h"
#include "fuzz/probes.h"
#include "fuzz/seen.h"
#include "fuzz/signature.h"
#include "interp/interp.h"
#include "ir/build.h"
#include "ir/composite.h"
#include "ir/error.h"
#include "ir/parse.h"
#include "ir/plant.h"
#include "ir/print.h"

namespace uopc {
namespace {

// Options under which p's text reads back to p: the printer's own, or, when it writes a literal
// as an operand the parser does not broadcast back, every literal as a statement (the text
// check_roundtrip's reproducer has). A text that does not read back has lost what a candidate
// is to keep, and a text that does not parse cannot even be measured.
PrintOptions reading_back(const Program& p) {
  auto reads_back = [&](const PrintOptions& o) {
    try {
      return same_graph(p, parse_program(print_program(p, o), "printed.uir"));
    } catch (const std::exception&) {
      return false;
    }
  };
  PrintOptions statements{.literal_operands = false};
  return !reads_back({}) && reads_back(statements) ? statements : PrintOptions{};
}

std::optional<Program> reparse(const std::string& text) {
  try {
    return parse_program(text, "candidate.uir");
  } catch (const UserError&) {
    return std::nullopt;
  }
}

// `text` as a reader would write it: the printer's fresh names (%t8, %t12) numbered from %t0 in
// the order they are defined, and the fresh buffers' slots (500 and up) made the smallest
// free ones. A final step of the reducer, taken when the failure stays.
std::string plain_names(const std::string& text);

// The slots of the buffers the reducer puts in a node's place start here, apart from a
// program's own.
constexpr int64_t kFreshSlot = 500;

Program keep_roots(const Program& p, size_t drop) {
  Program q;
  q.file = p.file;
  size_t k = 0;
  for (const Statement& s : p.statements) {
    if (!s.is_assert() && s.used) continue;
    if (k++ != drop) q.statements.push_back({s.name, s.node, s.line, false});
  }
  return q;
}

// The name of the statement that defines `node` in p, unless a root of p has that name.
std::string name_as_output(const Program& p, const UOp* node, const std::string& otherwise) {
  const Statement* definer = nullptr;
  for (const Statement& s : p.statements) {
    if (s.node.get() == node && !definer) definer = &s;
    if (definer && s.name == definer->name && (!s.used || s.is_assert())) return otherwise;
  }
  return definer ? definer->name : otherwise;
}

// p with its k-th root, an assert, replaced by an output: one of the assert's operands, under
// that operand's own name. A test written as "assert x against its expected literals" then
// shrinks like any program whose output is wrong, and loses the expected values it no longer
// needs.
Program assert_as_output(const Program& p, size_t k, size_t side) {
  Program q;
  q.file = p.file;
  size_t i = 0;
  for (const Statement& s : p.statements) {
    if (!s.is_assert() && s.used) continue;
    if (i++ != k) {
      q.statements.push_back({s.name, s.node, s.line, false});
      continue;
    }
    const UOpRef& x = s.node->src[side];
    q.statements.push_back({name_as_output(p, x.get(), s.name), x, s.line, false});
  }
  return q;
}

// How big a program is: statements first, then the elements of all its values, then text.
struct Size {
  int statements = 0;
  int64_t elements = 0;
  size_t chars = 0;
  auto operator<=>(const Size&) const = default;
};

std::optional<Size> measure(const std::string& text) {
  std::optional<Program> p = reparse(text);
  if (!p) return std::nullopt;
  Size size{count_statements(text), 0, text.size()};
  for (const UOp* n : topo_order(p->roots())) size.elements += n->numel();
  return size;
}

// An integer of a shape, pads list or buffer size in the text.
struct Site {
  size_t at = 0, length = 0;
  int64_t value = 0;
  bool in_list = false;
};

std::vector<Site> shape_sites(const std::string& text) {
  std::vector<Site> sites;
  bool in_list = false;
  for (size_t k = 0; k < text.size(); ++k) {
    char c = text[k];
    if (c == '#') k = std::min(text.find('\n', k), text.size());
    if (c == '[') in_list = true;
    if (c == ']' || c == '\n') in_list = false;
    bool after_buffer = k >= 7 && text.compare(k - 7, 7, "buffer ") == 0;
    if (!std::isdigit(static_cast<unsigned char>(c)) || !(in_list || after_buffer)) continue;
    size_t end = k;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end - k <= 9) sites.push_back({k, end - k, std::stoll(text.substr(k, end - k)), in_list});
    k = end - 1;
  }
  return sites;
}

// `text` with each chosen site replaced by its new value (or removed, with a space, when that
// is empty).
std::string edit_sites(const std::string& text,
                       const std::vector<std::pair<Site, std::string>>& edits) {
  std::string out = text;
  for (size_t k = edits.size(); k-- > 0;) {
    const auto& [site, value] = edits[k];
    size_t at = site.at, length = site.length;
    if (value.empty() && at > 0 && out[at - 1] == ' ')
      --at, ++length;
    else if (value.empty() && at + length < out.size() && out[at + length] == ' ')
      ++length;
    out.replace(at, length, value);
  }
  return out;
}

// Every site of value v becomes w; with `scaled`, every multiple k*v becomes k*w too, so a
// buffer of 20 read as [5 2 2] can become one of 8 read as [2 2 2].
std::string resize(const std::string& text, const std::vector<Site>& sites, int64_t v, int64_t w,
                   bool scaled) {
  std::vector<std::pair<Site, std::string>> edits;
  for (const Site& s : sites)
    if (s.value == v || (scaled && s.value % v == 0 && s.value > v))
      edits.push_back({s, std::to_string(s.value / v * w)});
  return edit_sites(text, edits);
}

std::vector<int64_t> smaller_values(int64_t v) {
  std::vector<int64_t> out;
  for (int64_t w : {int64_t{1}, v / 2, v - 1})
    if (w >= 1 && w < v && std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  return out;
}

// Shapes and ranks shrunk in the text: a size made smaller everywhere it occurs, then at one
// place, then an axis dropped from one list. Most such edits break a type rule somewhere and
// are not candidates; the ones that parse keep the graph consistent.
std::vector<std::string> smaller_shapes(const std::string& text) {
  std::vector<Site> sites = shape_sites(text);
  std::vector<std::string> out;
  std::set<int64_t> values;
  for (const Site& s : sites) values.insert(s.value);
  for (int64_t v : values)
    for (int64_t w : smaller_values(v))
      for (bool scaled : {true, false}) out.push_back(resize(text, sites, v, w, scaled));
  for (const Site& s : sites)
    for (int64_t w : smaller_values(s.value))
      out.push_back(edit_sites(text, {{s, std::to_string(w)}}));
  for (const Site& s : sites)
    if (s.in_list) out.push_back(edit_sites(text, {{s, ""}}));
  return out;
}

// `src` read with `shape` through movement ops, when that is a plain matter: as many elements
// (a reshape), or axis by axis a longer one shrunk from 0 and a size-1 one expanded, a single
// element first reshaped to the rank. Null when it is not.
UOpRef fitted(const UOpRef& src, const Shape& shape) try {
  if (src->numel() == element_count(shape)) return src->shape == shape ? src : reshape(src, shape);
  UOpRef x = src;
  int rank = static_cast<int>(shape.size());
  if (x->numel() == 1 && x->rank() != rank) x = reshape(x, Shape(shape.size(), 1));
  if (x->rank() != rank) return nullptr;
  Shape shrunk = x->shape;
  for (size_t k = 0; k < shape.size(); ++k)
    if (shrunk[k] > shape[k] && shape[k] > 0) shrunk[k] = shape[k];
  if (shrunk != x->shape)
    x = shrink(x, std::vector<UOpRef>(shape.size(), literal(Scalar::of_i32(0))), shrunk);
  for (size_t k = 0; k < shape.size(); ++k)
    if (x->shape[k] != shape[k] && x->shape[k] != 1) return nullptr;
  return x->shape == shape ? x : expand(x, shape);
} catch (const UserError&) {
  return nullptr;
}

// An elementwise node whose operands are reshapes of values of one shape, computed in that
// shape and reshaped once: mul(reshape a, reshape b) becomes reshape(mul(a, b)), one statement
// fewer, and the values it reads can then shrink together. Null when that does not apply.
UOpRef reshape_hoisted(const UOpRef& n) try {
  // alu() builds every elementwise op but a cast, which has a dtype of its own.
  if (!is_alu(n->op) || n->op == Op::Cast || alu(n->op, n->src) != n) return nullptr;
  std::optional<Shape> from;
  for (const UOpRef& s : n->src) {
    if (s->op != Op::Reshape) continue;
    if (from && *from != s->src[0]->shape) return nullptr;
    from = s->src[0]->shape;
  }
  if (!from || *from == n->shape) return nullptr;
  std::vector<UOpRef> src;
  for (const UOpRef& s : n->src)
    src.push_back(s->op == Op::Reshape ? s->src[0] : reshape(s, *from));
  return reshape(alu(n->op, src), n->shape);
} catch (const UserError&) {
  return nullptr;
}

// Each stack of several operands with its first or its second half of them left out (and, up
// to 16 operands, each one alone), as text: a literal tensor becomes a smaller one wherever what
// reads it still types (an output, say). A half may lose what the failure needs (the one inf
// at its place among nine literals) where one operand less keeps it.
std::vector<std::string> shorter_stacks(const std::string& text) {
  std::vector<std::string> out;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string line = text.substr(start, end - start);
    size_t at = line.find(" = stack ");
    if (at != std::string::npos && line[0] == '%') {
      std::vector<std::string> operands;
      std::string head = line.substr(0, at + 9), word;
      for (size_t k = at + 9; k <= line.size(); ++k) {
        if (k == line.size() || line[k] == ' ') {
          if (!word.empty()) operands.push_back(word);
          word.clear();
        } else {
          word += line[k];
        }
      }
      auto without = [&](size_t from, size_t to) {  // operands [from, to) left out
        std::string shorter = head;
        for (size_t k = 0; k < operands.size(); ++k)
          if (k < from || k >= to)
            shorter += (shorter.size() == head.size() ? "" : " ") + operands[k];
        out.push_back(text.substr(0, start) + shorter + text.substr(end));
      };
      size_t n = operands.size(), half = n / 2;
      if (half > 0) without(0, half), without(half, n);
      for (size_t k = 0; n > 2 && n <= 16 && k < n; ++k) without(k, k + 1);
    }
    start = end + 1;
  }
  return out;
}

// How many statements more than the reproducer that fails only through the composites
// oracle a reproducer that fails directly may have and still be preferred.
constexpr int kCompositeCost = 2;

// What n may be bypassed by: a source, or a source's source (a shrink of a pad of x, where x is
// read at the same shape), that has n's type and is not a literal.
std::vector<UOpRef> bypasses(const UOp& n) {
  std::vector<UOpRef> out;
  auto add = [&](const UOpRef& s) {
    if (s->dtype == n.dtype && s->shape == n.shape && s->op != Op::Const &&
        std::find(out.begin(), out.end(), s) == out.end())
      out.push_back(s);
  };
  for (const UOpRef& s : n.src) add(s);
  for (const UOpRef& s : n.src)
    for (const UOpRef& t : s->src) add(t);
  return out;
}

class Reducer {
 public:
  // `expanded`: start is a program with a composite expanded (accept_composite).
  Reducer(const Interesting& interesting, const ReduceProgress& progress, Probes probes,
          const Screen& screen, bool expanded = false)
      : interesting_(interesting),
        progress_(progress),
        probes_(probes),
        screen_(screen),
        expanded_(expanded) {}

  Reduced run(const Program& start) {
    // Candidates are printed as start reads back (reading_back), so that they keep what it
    // holds.
    print_ = reading_back(start);
    best_ = printed(start);
    best_size_ = *measure(best_);
    for (;;) {
      while (accept_first([this](const Program& p) { return candidates(p, best_); })) {
      }
      if (accept_composite()) continue;
      // Nothing more drastic works: the final pass, and the drastic ones again if it helped.
      if (accept_first([this](const Program&) { return single_removals(best_); })) continue;
      // Nothing of the program shows the failure in fewer statements: the cause may (fuzz/
      // probes.h), a value read at two indices where the program read it at two places through
      // other ops, or an op's interval rule or C on literals, where the program met it in the
      // index arithmetic of its movement ops.
      if (probes_ == Probes::No) break;
      // Not inside a composite's expansion: the flip a read-twice program has would be expanded
      // in turn, and the two steps would take each other's place without end.
      if (!expanded_ && accept_first([this](const Program& p) { return values_read_twice(p); }))
        continue;
      if (!accept_first([this](const Program& p) { return fewer_probes(p); })) break;
    }
    std::string plain = plain_names(best_);
    if (plain != best_ && admitted(plain) && (++tried_, interesting_(plain))) best_ = plain;
    return {best_, count_statements(best_), tried_, true};
  }

 private:
  // Candidates from the most to the least drastic.
  std::vector<std::string> candidates(const Program& p, const std::string& text) {
    std::vector<std::string> out;
    size_t roots = p.roots().size();
    for (size_t k = 0; roots > 1 && k < roots; ++k) out.push_back(printed(keep_roots(p, k)));
    std::vector<const Statement*> root_statements;
    for (const Statement& s : p.statements)
      if (s.is_assert() || !s.used) root_statements.push_back(&s);
    for (size_t k = 0; k < root_statements.size(); ++k)
      if (root_statements[k]->is_assert())
        for (size_t side : {0, 1}) out.push_back(printed(assert_as_output(p, k, side)));
    std::vector<const UOp*> order = topo_order(p.roots());
    std::reverse(order.begin(), order.end());
    for (const UOp* n : order) {
      if (n->op == Op::Const || n->op == Op::Assert) continue;
      for (const UOpRef& s : bypasses(*n)) out.push_back(printed(replace_node(p, n, s)));
      if (n->op != Op::Buffer && n->numel() > 0) {
        int64_t slot = kFreshSlot + static_cast<int64_t>(out.size());
        out.push_back(
            printed(replace_node(p, n, reshape(buffer(n->numel(), n->dtype, slot), n->shape))));
      }
      UOpRef zero = literal(Scalar::zero(n->dtype));
      out.push_back(printed(replace_node(p, n, n->rank() == 0 ? zero : expand(zero, n->shape))));
      // A scalar i32 (an offset, an element read from a buffer) becomes a small literal too:
      // the value a failure needs may be one only scrambled data held, and the buffer that
      // made the data scrambled can then go.
      if (n->rank() == 0 && n->dtype == DType::I32 && n->op != Op::Const)
        for (int32_t v : {1, -1, 2})
          out.push_back(printed(replace_node(p, n, literal(Scalar::of_i32(v)))));
      // A source of another shape, fitted by a reshape, shrink or expand: the statements
      // between them go (a reshape chain, a permute whose order does not matter to the
      // failure, a pad whose border does not).
      // A reshape's source too, so a reduce over a size-1 axis of a reshape is one reshape.
      for (const UOpRef& s : n->src)
        for (const UOpRef& src : {s, s->op == Op::Reshape ? s->src[0] : UOpRef{}})
          if (src && src->dtype == n->dtype && src->shape != n->shape && src->op != Op::Const)
            if (UOpRef fit = fitted(src, n->shape)) out.push_back(printed(replace_node(p, n, fit)));
      if (UOpRef hoisted = reshape_hoisted(shared_from(n)))
        out.push_back(printed(replace_node(p, n, hoisted)));
      // A reshape of a reshape reads the first one's source directly.
      if (n->op == Op::Reshape && n->src[0]->op == Op::Reshape) {
        const UOpRef& x = n->src[0]->src[0];
        out.push_back(printed(replace_node(p, n, x->shape == n->shape ? x : reshape(x, n->shape))));
      }
      // A literal tensor becomes one of its values, expanded.
      if (n->op == Op::Stack && n->rank() == 1) {
        std::set<uint32_t> seen;
        for (const UOpRef& v : n->src)
          if (v->op == Op::Const && seen.insert(v->value.bits).second && seen.size() <= 4)
            out.push_back(printed(replace_node(p, n, expand(v, n->shape))));
      }
      bool literals = n->op == Op::Stack || (n->op == Op::Reshape && n->src[0]->op == Op::Stack);
      if (!literals && n->op != Op::Buffer)
        if (UOpRef value = as_literals(n, 256)) out.push_back(printed(replace_node(p, n, value)));
    }
    // Literals shrink to zero (or false), one at a time.
    for (const UOp* n : order) {
      if (n->op != Op::Const || n->value == Scalar::zero(n->dtype)) continue;
      out.push_back(printed(replace_node(p, n, literal(Scalar::zero(n->dtype)))));
    }
    // An output may become any of its sources, whatever its shape, or a buffer read in that
    // source's shape: then a reshape whose source is a stack or a pad shows as a buffer
    // reshaped.
    for (const Statement* s : p.outputs())
      for (const UOpRef& src : s->node->src) {
        if (src->op == Op::Const) continue;
        out.push_back(printed(replace_node(p, s->node.get(), src)));
        if (src->op != Op::Buffer && src->rank() > 1 && src->numel() > 0) {
          int64_t slot = kFreshSlot + static_cast<int64_t>(out.size());
          UOpRef fresh = reshape(buffer(src->numel(), src->dtype, slot), src->shape);
          out.push_back(printed(replace_node(p, s->node.get(), fresh)));
        }
      }
    for (std::string& smaller : smaller_shapes(text)) out.push_back(std::move(smaller));
    for (std::string& shorter : shorter_stacks(text)) out.push_back(std::move(shorter));
    return out;
  }

  // Each value of p alone, read at two indices (read_twice), where that takes fewer statements
  // than p: a reduce whose copies share an accumulator, read through a pad, a shrink and a
  // stack, is read by a flip.
  std::vector<std::string> values_read_twice(const Program& p) const {
    std::vector<std::string> out;
    for (const UOp* n : topo_order(p.roots())) {
      if (n->op == Op::Const || n->op == Op::Buffer || n->op == Op::Assert) continue;
      UOpRef twice = read_twice(shared_from(n));
      if (!twice) continue;
      Program alone;
      alone.statements.push_back({"%v", twice, 1, false});
      std::string text = printed(alone);
      if (count_statements(text) < best_size_.statements) out.push_back(std::move(text));
    }
    return out;
  }

  // The probes with fewer statements than the best so far: a program of its own as small as a
  // probe shows the failure as well as the probe does. So does the read-twice probe, where
  // the program read a value twice on data that hid it.
  // So are the fused probes of the elementwise ops p and its kernels compute (a where a
  // reduce's fold reads, in a stack's select).
  std::vector<std::string> fewer_probes(const Program& p) const {
    std::vector<std::string> out;
    for (std::string& probe : op_probes())
      if (count_statements(probe) < best_size_.statements) out.push_back(std::move(probe));
    if (count_statements(read_twice_probe().twice) < best_size_.statements)
      out.push_back(read_twice_probe().twice);
    for (Op op : elementwise_ops(p))
      for (FusedProbe& probe : fused_probes(op))
        if (count_statements(probe.fused) < best_size_.statements)
          out.push_back(std::move(probe.fused));
    return out;
  }

  // A pad or flip replaced by its composite form (ir/composite.h), and that reduced in turn:
  // a failure the composites oracle found in an op the form uses then shows in the
  // reproducer itself, under `uopc diff`, and names an op the reproducer contains. Taken
  // when it ends at most kCompositeCost statements larger, and only from fewer statements
  // than the last expansion started from: a probe brings flips back (a value read twice is
  // read through one), and an expansion and a probe would otherwise take turns forever.
  bool accept_composite() {
    int start = count_statements(best_);
    if (start >= composite_below_) return false;
    std::optional<Program> p = reparse(best_);
    if (!p) return false;
    for (const UOp* n : topo_order(p->roots())) {
      if (n->op != Op::Pad && n->op != Op::Flip) continue;
      UOpRef form;
      try {
        form = n->op == Op::Pad ? composite_pad(n->src[0], n->arg, n->value)
                                : composite_flip(n->src[0], n->arg);
      } catch (const std::exception&) {  // a form that cannot be built is no candidate
        continue;
      }
      Program expanded = replace_node(*p, n, form);
      std::string text = printed(expanded);
      if (!admitted(text)) continue;
      ++tried_;
      if (!interesting_(text)) continue;
      Reduced r = Reducer(interesting_, {}, probes_, screen_, true).run(expanded);
      tried_ += r.candidates_tried;
      if (r.statements > count_statements(best_) + kCompositeCost) continue;
      best_ = r.text;
      best_size_ = *measure(best_);
      composite_below_ = start;
      if (progress_) progress_({best_, best_size_.statements, tried_});
      return true;
    }
    return false;
  }

  // Takes the first candidate that is smaller (strictly, so reduction always ends) and still
  // interesting; whether there was one.
  template <typename Candidates>
  bool accept_first(const Candidates& make) {
    std::optional<Program> p = reparse(best_);
    if (!p) return false;
    for (const std::string& candidate : make(*p)) {
      if (!admitted(candidate)) continue;
      std::optional<Size> size = measure(candidate);
      if (!size || *size >= best_size_) continue;
      ++tried_;
      if (!interesting_(candidate)) continue;
      best_ = candidate;
      best_size_ = *size;
      if (progress_) progress_({best_, best_size_.statements, tried_});
      return true;
    }
    return false;
  }

  const Interesting& interesting_;
  bool admitted(const std::string& candidate) const { return !screen_ || screen_(candidate); }
  std::string printed(const Program& p) const { return print_program(p, print_); }
  PrintOptions print_;

  const ReduceProgress& progress_;
  Probes probes_;
  const Screen& screen_;
  bool expanded_;
  int composite_below_ = std::numeric_limits<int>::max();
  std::string best_;
  Size best_size_;
  int tried_ = 0;
};

}  // namespace

int count_statements(const std::string& text) {
  int n = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line[first] != '#') ++n;
    start = end + 1;
  }
  return n;
}

std::optional<Failure> first_failure(const Program& p, Backend& backend,
                                     const EngineConfig& config) {
  return check_program(p, backend, true, config);
}

std::optional<Failure> failure_in_family(const std::string& family, const Program& p,
                                         Backend& backend, const EngineConfig& config) {
  if (family == "roundtrip") return check_roundtrip(p);
  if (family == "bounds") return check_bounds(p);
  if (std::optional<Failure> f = check_engines(p, backend, config)) return f;
  return check_composites(p, backend, true, config.by_helper);
}

std::optional<Failure> failure_for_signature(const std::string& family,
                                             const std::string& signature, const Program& p,
                                             Backend& backend, const EngineConfig& config) {
  std::optional<Failure> f = failure_in_family(family, p, backend, config);
  if (!f && signature.rfind("bounds-", 0) == 0) f = check_bounds(p);
  return f;
}

// The ops of `p`.
std::set<Op> ops_of(const Program& p) {
  std::set<Op> ops;
  for (const UOp* n : topo_order(p.roots())) ops.insert(n->op);
  return ops;
}

Interesting fails_oracle(const std::string& oracle, Backend& backend, const std::string& signature,
                         const EngineConfig& config, const Program* original) {
  if (oracle == "rejection") {
    return [](const std::string& text) {
      if (!reparse(text)) return false;
      Plant active = active_plant();
      set_plant(Plant::None);
      bool refused = !reparse(text);
      set_plant(active);
      return refused;
    };
  }
  std::vector<Op> kept;
  if (original) {
    std::set<Op> has = ops_of(*original);
    for (Op op : signature_ops(signature))
      if (has.count(op)) kept.push_back(op);
  }
  return [oracle, signature, config, kept, &backend](const std::string& text) {
    std::optional<Program> p = reparse(text);
    if (!p) return false;
    if (!kept.empty()) {
      std::set<Op> has = ops_of(*p);
      for (Op op : kept)
        if (!has.count(op)) return false;
    }
    // A candidate the harness cannot judge (an interpreter that throws on what a wrong
    // interval let through) is not the failure being shrunk.
    try {
      std::optional<Failure> f =
          failure_for_signature(oracle_family(oracle), signature, *p, backend, config);
      return f && (signature.empty() || failure_signature(*f, *p, backend, config) == signature);
    } catch (const std::exception&) {
      return false;
    }
  };
}

Interesting fails_target(Target& target, const Failure& failure, const EngineConfig& config) {
  return [&target, kind = target_kind(failure), config](const std::string& text) {
    std::optional<Program> p = reparse(text);
    if (!p) return false;
    std::optional<Failure> f = check_target(*p, target, nullptr, config);
    return f && target_kind(*f) == kind;
  };
}

namespace {

// uopc's message for a text it refuses, without the place it points at ("" when it accepts).
std::string refusal(const std::string& text) {
  try {
    parse_program(text, "candidate.uir");
  } catch (const UserError& e) {
    std::string what = e.what();
    size_t at = what.find("error: ");
    if (at == std::string::npos) at = 0;
    return what.substr(at, what.find('\n', at) - at);
  }
  return "";
}

// How an engine failed to refuse a text: "ran it" for 0 and 1, else what it answered.
std::string not_refused_how(const Failure& f) {
  std::string answer = f.detail.substr(0, f.detail.find(" on a program"));
  return answer == "exited 0" || answer == "exited 1" ? "ran it" : answer;
}

}  // namespace

Interesting fails_target_rejection(Target& target, const Failure& failure) {
  return [&target, message = refusal(failure.program),
          how = not_refused_how(failure)](const std::string& text) {
    if (message.empty() || refusal(text) != message) return false;
    std::optional<Failure> f = check_target_rejects(text, "breaks a rule", target);
    return f && not_refused_how(*f) == how;
  };
}

UOpRef as_literals(const UOp* n, int64_t max_elements) {
  if (n->numel() < 1 || n->numel() > max_elements) return nullptr;
  Program alone;
  alone.statements.push_back({"%v", shared_from(n), 1, false});
  // A value the interpreter cannot give (a shrink past its source, once a wrong interval let
  // the program through) has no literals.
  InterpResult r;
  try {
    r = interpret(alone, {});
  } catch (const std::exception&) {
    return nullptr;
  }
  if (r.outputs.size() != 1 || r.outputs[0].second.size() != n->numel()) return nullptr;
  const Tensor& t = r.outputs[0].second;
  std::vector<UOpRef> parts;
  for (int64_t i = 0; i < t.size(); ++i) parts.push_back(literal(t.at(i)));
  if (n->rank() == 0) return parts[0];
  return reshape(stack(parts), n->shape);
}

namespace {

// `interesting`, asked once for each text. The reducer meets most candidates again: after each
// step it accepts, the candidates of the program's other statements print as they did before,
// and two edits (a bypass and a removal, a literal and its expansion) often print alike. While
// reducing the course's cases under a planted bug, three candidates in five had been judged
// before. A verdict is a function of the text (the engines are deterministic; an external
// engine that is not would only mislead the reducer more if asked twice).
Interesting judged_once(const Interesting& interesting) {
  auto verdicts = std::make_shared<std::unordered_map<ContentHash, bool, ContentHashOf>>();
  return [interesting, verdicts](const std::string& text) {
    ContentHash h = content_hash(text);
    auto it = verdicts->find(h);
    if (it != verdicts->end()) return it->second;
    bool verdict = interesting(text);
    verdicts->emplace(h, verdict);
    return verdict;
  };
}

}  // namespace

Reduced reduce_program(const Program& p, const Interesting& interesting,
                       const ReduceProgress& progress, Probes probes, const Screen& screen) {
  CompileMemo memo;  // a candidate is compiled again by its signature's probes
  Interesting once = judged_once(interesting);
  return Reducer(once, progress, probes, screen).run(p);
}

namespace {

// Smaller settings than c, from the most to the least drastic.
std::vector<EngineConfig> smaller_configs(const Program& p, const EngineConfig& c) {
  std::vector<EngineConfig> out;
  auto with = [&](auto edit) {
    EngineConfig t = c;
    edit(t);
    out.push_back(t);
  };
  if (c.threads > 1) with([](EngineConfig& t) { t.threads = 1; });
  if (c.opts.mode == OptsChoice::Mode::None) return out;
  with([](EngineConfig& t) { t.opts = {}; });
  if (c.opts.mode == OptsChoice::Mode::Auto) {
    // What auto chose for a kernel, whichever node is that kernel's root.
    std::set<std::string> seen;
    for (const UOp* n : topo_order(p.roots())) {
      Opts o = auto_opts(*n);
      if (!o.none() && seen.insert(format_opts(o)).second)
        with([&](EngineConfig& t) { t.opts = {OptsChoice::Mode::Fixed, o}; });
    }
    return out;
  }
  const Opts& o = c.opts.fixed;
  // One kind of option alone, so that which kinds are left does not depend on the order they
  // are dropped in when they interact.
  Opts only[6];
  only[0].upcast = o.upcast;
  only[1].unroll = o.unroll, only[1].unroll_in_order = o.unroll_in_order;
  only[2].tile = o.tile;
  only[3].thread = o.thread;
  only[4].block = o.block;
  only[5].table = o.table;
  int kinds = 0;
  for (const Opts& one : only) kinds += !one.none();
  for (const Opts& one : only)
    if (kinds > 1 && !one.none()) with([&](EngineConfig& t) { t.opts.fixed = one; });
  // Plain names, not structured bindings, which clang 14 cannot capture in a lambda.
  for (const auto& entry : o.upcast) {
    int axis = entry.first;
    int64_t f = entry.second;
    with([&](EngineConfig& t) { t.opts.fixed.upcast.erase(axis); });
    if (f > 2) with([&](EngineConfig& t) { t.opts.fixed.upcast[axis] = f / 2; });
  }
  for (const auto& entry : o.tile) {
    int axis = entry.first;
    int64_t size = entry.second;
    with([&](EngineConfig& t) { t.opts.fixed.tile.erase(axis); });
    if (size > 1) with([&](EngineConfig& t) { t.opts.fixed.tile[axis] = size / 2; });
  }
  if (o.unroll > 1) {
    with([](EngineConfig& t) { t.opts.fixed.unroll = 1, t.opts.fixed.unroll_in_order = false; });
    if (!o.unroll_in_order) with([](EngineConfig& t) { t.opts.fixed.unroll_in_order = true; });
    if (o.unroll > 2) with([&](EngineConfig& t) { t.opts.fixed.unroll = o.unroll / 2; });
  }
  if (o.thread) with([](EngineConfig& t) { t.opts.fixed.thread.reset(); });
  if (o.block > 1) {
    with([](EngineConfig& t) { t.opts.fixed.block = 1; });
    if (o.block > 2) with([&](EngineConfig& t) { t.opts.fixed.block = o.block / 2; });
  }
  if (o.table != kDefaultTable) with([](EngineConfig& t) { t.opts.fixed.table = kDefaultTable; });
  if (c.threads > 2) with([](EngineConfig& t) { t.threads = 2; });
  return out;
}

}  // namespace

EngineConfig reduce_config(const Program& p, const EngineConfig& config, const FailsUnder& fails) {
  EngineConfig c = config;
  for (bool progress = true; progress;) {
    progress = false;
    for (const EngineConfig& t : smaller_configs(p, c))
      if (fails(t)) {
        c = t;
        progress = true;
        break;
      }
  }
  return c;
}

Minimized minimize(const Program& p, const EngineConfig& config,
                   const InterestingUnder& interesting, const ReduceProgress& progress,
                   Probes probes, const Screen& screen) {
  // The settings first, on the whole program: its varied values show a failure under fewer
  // options than the few values a small program keeps (a dropped element that should be zero
  // reads as the zero the output started with).
  auto settings_for = [&](const std::string& text, const EngineConfig& from) {
    Program q = parse_program(text, "reduced.uir");
    return reduce_config(q, from, [&](const EngineConfig& t) {
      return (!screen || screen(text + "\n# under " + t.flags())) && interesting(t)(text);
    });
  };
  EngineConfig c = settings_for(print_program(p, reading_back(p)), config);
  Reduced r = reduce_program(p, interesting(c), progress, probes, screen);
  EngineConfig smaller = settings_for(r.text, c);
  if (smaller.flags() == c.flags()) return {r, c};
  Reduced again = reduce_program(parse_program(r.text, "reduced.uir"), interesting(smaller),
                                 progress, probes, screen);
  again.candidates_tried += r.candidates_tried;
  return {again, smaller};
}

namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

// Every whole-name use of `from` (like %v3, not %v31) replaced by `to`.
std::string rename(const std::string& line, const std::string& from, const std::string& to) {
  std::string out;
  for (size_t at = 0; at < line.size();) {
    size_t hit = line.find(from, at);
    if (hit == std::string::npos) {
      out += line.substr(at);
      break;
    }
    size_t end = hit + from.size();
    out += line.substr(at, hit - at);
    out += end < line.size() && is_name_char(line[end]) ? from : to;
    at = end;
  }
  return out;
}

// The name a statement defines and the first name among its operands ("" if none).
std::pair<std::string, std::string> defined_and_first_operand(const std::string& line) {
  size_t eq = line.find(" = ");
  if (line.empty() || line[0] != '%' || eq == std::string::npos) return {"", ""};
  size_t op = line.find('%', eq);
  if (op == std::string::npos) return {line.substr(0, eq), ""};
  size_t end = op + 1;
  while (end < line.size() && is_name_char(line[end])) ++end;
  return {line.substr(0, eq), line.substr(op, end - op)};
}

// The names a statement reads, in order, each once.
std::vector<std::string> operand_names(const std::string& line) {
  std::vector<std::string> out;
  size_t eq = line.find(" = ");
  for (size_t at = line.find('%', eq == std::string::npos ? 0 : eq); at != std::string::npos;
       at = line.find('%', at + 1)) {
    size_t end = at + 1;
    while (end < line.size() && is_name_char(line[end])) ++end;
    std::string name = line.substr(at, end - at);
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

bool is_fresh_name(const std::string& name) {
  return name.size() > 2 && name.compare(0, 2, "%t") == 0 &&
         std::all_of(name.begin() + 2, name.end(), [](char c) { return std::isdigit(c); });
}

// Each line's fresh buffer slot (kFreshSlot and up) replaced by the smallest slot no other
// buffer has.
void plain_slots(std::vector<std::string>& lines) {
  std::set<int64_t> taken;
  auto slot_at = [](const std::string& line) -> std::pair<size_t, int64_t> {
    size_t at = line.find(" slot=");
    if (at == std::string::npos) return {std::string::npos, -1};
    at += 6;
    return {at, std::strtoll(line.c_str() + at, nullptr, 10)};
  };
  for (const std::string& line : lines)
    if (auto [at, slot] = slot_at(line); at != std::string::npos) taken.insert(slot);
  int64_t next = 0;
  for (std::string& line : lines) {
    auto [at, slot] = slot_at(line);
    if (at == std::string::npos || slot < kFreshSlot) continue;
    while (taken.count(next)) ++next;
    taken.insert(next);
    size_t end = at;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
    line.replace(at, end - at, std::to_string(next));
  }
}

std::string plain_names(const std::string& text) {
  std::vector<std::string> lines = split_lines(text);
  std::vector<std::string> fresh;
  std::set<std::string> kept;
  for (const std::string& line : lines) {
    std::string name = defined_and_first_operand(line).first;
    if (name.empty()) continue;
    if (is_fresh_name(name))
      fresh.push_back(name);
    else
      kept.insert(name);
  }
  // Through names no program has, so that renaming %t5 to %t0 cannot meet the old %t0.
  for (size_t k = 0; k < fresh.size(); ++k)
    for (std::string& line : lines) line = rename(line, fresh[k], "%_plain" + std::to_string(k));
  int next = 0;
  for (size_t k = 0; k < fresh.size(); ++k) {
    while (kept.count("%t" + std::to_string(next))) ++next;
    std::string to = "%t" + std::to_string(next++);
    for (std::string& line : lines) line = rename(line, "%_plain" + std::to_string(k), to);
  }
  plain_slots(lines);
  return join_lines(lines);
}

}  // namespace

std::vector<std::string> single_removals(const std::string& text) {
  std::vector<std::string> lines = split_lines(text), out;
  for (size_t k = 0; k < lines.size(); ++k) {
    if (count_statements(lines[k]) == 0) continue;
    std::vector<std::string> fewer = lines;
    fewer.erase(fewer.begin() + static_cast<ptrdiff_t>(k));
    out.push_back(join_lines(fewer));
    auto [name, first] = defined_and_first_operand(lines[k]);
    if (name.empty()) continue;
    for (const std::string& operand : operand_names(lines[k])) {
      std::vector<std::string> bypassed = fewer;
      for (size_t j = k; j < bypassed.size(); ++j) bypassed[j] = rename(bypassed[j], name, operand);
      out.push_back(join_lines(bypassed));
    }
  }
  return out;
}

Reduced reduce_lines(const std::string& text, const Interesting& interesting,
                     const ReduceProgress& progress) {
  std::vector<std::string> lines = split_lines(text);
  auto join = join_lines;
  int tried = 0;
  Interesting once = judged_once(interesting);
  auto attempt = [&](std::vector<std::string> candidate) {
    ++tried;
    if (!once(join(candidate))) return false;
    lines = std::move(candidate);
    if (progress) progress({join(lines), count_statements(join(lines)), tried});
    return true;
  };
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t k = lines.size(); k-- > 0;) {
      if (k >= lines.size()) continue;
      std::vector<std::string> fewer = lines;
      fewer.erase(fewer.begin() + static_cast<ptrdiff_t>(k));
      if (attempt(fewer)) {
        progress = true;
        continue;
      }
      // Bypass the statement: its users read its first operand instead.
      auto [name, operand] = defined_and_first_operand(lines[k]);
      if (name.empty() || operand.empty()) continue;
      for (size_t j = k; j < fewer.size(); ++j) fewer[j] = rename(fewer[j], name, operand);
      progress |= attempt(fewer);
    }
  }
  std::string out = join(lines);
  return {out, count_statements(out), tried, true};
}

}  // namespace uopc
