#include "compiler/opts.h"

#include <algorithm>
#include <charconv>
#include <memory_resource>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/arena.h"
#include "ir/error.h"
#include "ir/plant.h"
#include "ir/program.h"

namespace uopc {
namespace {

constexpr int64_t kMaxFactor = 64;
constexpr int64_t kMaxTile = 1 << 20;

std::string axis_list(const std::map<int, int64_t>& m) {
  std::string out;
  for (const auto& [axis, n] : m)
    out += (out.empty() ? "" : ",") + std::to_string(axis) + ":" + std::to_string(n);
  return out;
}

int64_t number(const std::string& text, int64_t lo, int64_t hi, const std::string& what,
               const std::string& option) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
    throw UserError(what + ": " + option + " takes whole numbers in [" + std::to_string(lo) + ", " +
                    std::to_string(hi) + "], not '" + text + "'");
  return v;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep)) out.push_back(part);
  if (!text.empty() && text.back() == sep) out.emplace_back();
  return out;
}

std::map<int, int64_t> parse_axes(const std::string& text, int64_t max, const std::string& what,
                                  const std::string& option) {
  std::map<int, int64_t> out;
  for (const std::string& item : split(text, ',')) {
    size_t colon = item.find(':');
    if (colon == std::string::npos)
      throw UserError(what + ": " + option + " takes AXIS:N pairs, not '" + item + "'");
    int axis = static_cast<int>(number(item.substr(0, colon), 0, 7, what, option + "'s axis"));
    if (!out.emplace(axis, number(item.substr(colon + 1), 1, max, what, option)).second)
      throw UserError(what + ": " + option + " names axis " + std::to_string(axis) + " twice");
  }
  return out;
}

// The largest factor in `candidates` that divides `size` and leaves it at least as large.
int64_t dividing(int64_t size, std::initializer_list<int64_t> candidates) {
  for (int64_t f : candidates)
    if (size >= f && size % f == 0) return f;
  return 1;
}

// The reduce that folds the most elements per output element, with that count.
std::pair<const UOp*, int64_t> main_reduce(const UOp& root) {
  std::pair<const UOp*, int64_t> best{nullptr, 0};
  for (const UOp* n : topo_order({shared_from(&root)})) {
    if (n->op != Op::Reduce || n->numel() == 0) continue;
    int64_t folded = n->src[0]->numel() / n->numel();
    if (folded > best.second) best = {n, folded};
  }
  return best;
}

}  // namespace

std::string format_opts(const Opts& o) {
  std::vector<std::string> parts;
  if (!o.upcast.empty()) parts.push_back("upcast=" + axis_list(o.upcast));
  if (o.unroll > 1)
    parts.push_back("unroll=" + std::to_string(o.unroll) + (o.unroll_in_order ? ":ordered" : ""));
  if (!o.tile.empty()) parts.push_back("tile=" + axis_list(o.tile));
  if (o.thread) parts.push_back("thread=" + std::to_string(*o.thread));
  if (o.block > 1) parts.push_back("block=" + std::to_string(o.block));
  if (o.table != kDefaultTable) parts.push_back("table=" + std::to_string(o.table));
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : " ") + p;
  return out.empty() ? "none" : out;
}

Opts parse_opts(const std::string& text, const std::string& what) {
  Opts o;
  std::istringstream in(text);
  std::string word;
  while (in >> word) {
    size_t eq = word.find('=');
    std::string key = word.substr(0, eq),
                value = eq == std::string::npos ? "" : word.substr(eq + 1);
    if (eq == std::string::npos || value.empty())
      throw UserError(what +
                      ": expected KEY=VALUE (upcast, unroll, tile, thread, block, table), not '" +
                      word + "'");
    if (key == "upcast")
      o.upcast = parse_axes(value, kMaxFactor, what, key);
    else if (key == "tile")
      o.tile = parse_axes(value, kMaxTile, what, key);
    else if (key == "unroll") {
      size_t colon = value.find(':');
      if (colon != std::string::npos && value.substr(colon) != ":ordered")
        throw UserError(what + ": unroll takes F or F:ordered, not '" + value + "'");
      o.unroll_in_order = colon != std::string::npos;
      o.unroll = number(value.substr(0, colon), 1, kMaxFactor, what, key);
    } else if (key == "thread")
      o.thread = static_cast<int>(number(value, 0, 7, what, key));
    else if (key == "block")
      o.block = number(value, 1, kMaxTile, what, key);
    else if (key == "table")
      o.table = number(value, 1, kMaxElements, what, key);
    else
      throw UserError(what + ": unknown option '" + key +
                      "' (upcast, unroll, tile, thread, block, table; or none, auto)");
  }
  return o;
}

OptsChoice parse_opts_choice(const std::string& text, const std::string& what) {
  if (text == "none") return {OptsChoice::Mode::None, {}};
  if (text == "auto") return {OptsChoice::Mode::Auto, {}};
  return {OptsChoice::Mode::Fixed, parse_opts(text, what)};
}

std::string format_opts_choice(const OptsChoice& c) {
  if (c.mode == OptsChoice::Mode::Auto) return "auto";
  return c.mode == OptsChoice::Mode::None ? "none" : format_opts(c.fixed);
}

Opts fit_opts(const Opts& o, const UOp& root) {
  const Shape& s = root.shape;
  auto size = [&](int axis) { return axis < static_cast<int>(s.size()) ? s[axis] : 0; };
  Opts out;
  out.unroll = o.unroll;
  out.table = o.table;
  out.unroll_in_order = o.unroll > 1 && o.unroll_in_order;
  for (const auto& [axis, f] : o.upcast)
    if (f > 1 && size(axis) % f == 0 && size(axis) >= f) out.upcast[axis] = f;
  for (const auto& [axis, t] : o.tile) {
    int64_t f = out.upcast.count(axis) ? out.upcast.at(axis) : 1;
    bool divides = size(axis) % t == 0 || planted(Plant::TileRemainderDropped);
    if (t > 1 && t < size(axis) && divides && t % f == 0) out.tile[axis] = t;
  }
  if (o.thread && size(*o.thread) > 1) out.thread = o.thread;
  if (o.block > 1 && root.op == Op::Reduce && root.pop() >= 1 && root.numel() > 0) {
    int64_t first = root.src[0]->shape[0];
    if (o.block < first && first % o.block == 0) out.block = o.block;
  }
  return out;
}

Opts auto_opts(const UOp& root) {
  Opts o;
  const Shape& s = root.shape;
  std::vector<int> axes;  // the output axes that make loops
  for (int k = 0; k < static_cast<int>(s.size()); ++k)
    if (s[k] > 1) axes.push_back(k);
  auto [reduce, folded] = main_reduce(root);
  int64_t last = reduce && reduce->pop() > 0
                     ? reduce->src[0]->shape[static_cast<size_t>(reduce->pop() - 1)]
                     : 0;
  if (reduce && folded >= 4 && reduce->numel() == root.numel() && !axes.empty()) {
    // A reduce per output element: a register tile, read contiguously along the last axis.
    int inner = axes.back();
    int64_t f = dividing(s[inner], {16, 8, 4, 2});
    if (f > 1) o.upcast[inner] = f;
    if (last > 16 && axes.size() >= 2) {
      int outer = axes[axes.size() - 2];
      int64_t g = dividing(s[outer], {f >= 16 ? int64_t{8} : 4, 4, 2});
      if (g > 1) o.upcast[outer] = g;
    }
    // A short innermost reduce axis (a stencil's taps) is unrolled whole: its index becomes
    // a constant in each copy, which folds the selects and offsets it drives.
    if (last > 1 && last <= 16) o.unroll = last;
    // A long reduce is blocked, so the rows of its operands one block reads stay in cache
    // while every output uses them.
    if (root.op == Op::Reduce && reduce == &root && root.src[0]->shape[0] >= 512)
      o.block = dividing(root.src[0]->shape[0], {128, 64});
  } else if (reduce && folded >= 16) {
    // A reduce shared by many output elements (a row sum): break its dependency chain.
    o.unroll = dividing(last, {8, 4, 2});
  }
  o.unroll_in_order = true;
  int64_t work = root.numel() * std::max<int64_t>(1, folded);
  if (!axes.empty() && work >= (int64_t{1} << 16)) o.thread = axes.front();
  return fit_opts(o, root);
}

namespace {

bool costly(Op op) {
  return op == Op::Exp2 || op == Op::Log2 || op == Op::Sin;
}

// Nodes reachable from `from` without entering `avoid`.
std::unordered_set<const UOp*> reachable(const UOp* from, const UOp* avoid) {
  std::unordered_set<const UOp*> seen;
  std::vector<const UOp*> stack{from};
  while (!stack.empty()) {
    const UOp* n = stack.back();
    stack.pop_back();
    if (n == avoid || !seen.insert(n).second) continue;
    for (const UOpRef& s : n->src) stack.push_back(s.get());
  }
  return seen;
}

}  // namespace

std::vector<const UOp*> auto_stages(const UOp& root) {
  std::vector<const UOp*> out;
  std::vector<const UOp*> nodes = topo_order({shared_from(&root)});
  for (const UOp* r : nodes) {
    if (r->op != Op::Reduce) continue;
    std::unordered_set<const UOp*> inside = reachable(r->src[0].get(), nullptr);
    std::unordered_set<const UOp*> outside = reachable(&root, r);
    for (const UOp* n : nodes)
      if (n != &root && costly(n->op) && inside.count(n) && outside.count(n) &&
          std::find(out.begin(), out.end(), n) == out.end())
        out.push_back(n);
  }
  return out;
}

namespace {

// What a node does to the index it is asked at, before asking its k-th source: 0 when it asks
// at the same index (elementwise ops), else a value of its own and of k (of the node alone for
// a stack, whose operands each get the index without its first axis).
uint64_t index_step(const UOp& n, size_t k) {
  if (is_alu(n.op) || n.op == Op::Cast) return 0;
  uint64_t step = n.hash * 0x9E3779B97F4A7C15ull + 1;
  return n.op == Op::Stack ? step : step + k;
}

bool worth_a_kernel(const UOp& n) {
  return !is_movement(n.op) && n.op != Op::Const && n.op != Op::Buffer && n.op != Op::Stage;
}

}  // namespace

std::vector<const UOp*> widely_read_stages(const UOp& root, size_t max_indices) {
  // Each node's indices, as the steps that led to it from the root (hashed), up to one more
  // than the bound: nodes are visited users first, so a node's set is whole when reached.
  std::vector<const UOp*> order = topo_order({shared_from(&root)});
  Arena arena;  // the sets live as long as this call
  std::pmr::unordered_map<const UOp*, std::pmr::unordered_set<uint64_t>> indices(&arena);
  indices[&root].insert(0);
  std::vector<const UOp*> out;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const UOp* n = *it;
    const std::pmr::unordered_set<uint64_t>& at = indices[n];
    if (n != &root && at.size() > max_indices && worth_a_kernel(*n)) {
      out.push_back(n);  // read by loads from here on: its sources are its own kernel's
      continue;
    }
    if (n->op == Op::Stage && n != &root) continue;  // a load; its own kernel computes it
    for (size_t k = 0; k < n->src.size(); ++k) {
      uint64_t step = index_step(*n, k);
      std::pmr::unordered_set<uint64_t>& into = indices[n->src[k].get()];
      for (uint64_t path : at) {
        if (into.size() > max_indices) break;
        into.insert(step == 0 ? path : (path ^ step) * 0xBF58476D1CE4E5B9ull + step);
      }
    }
  }
  return out;
}

Opts opts_for(const OptsChoice& choice, const UOp& root) {
  switch (choice.mode) {
    case OptsChoice::Mode::Auto:
      return auto_opts(root);
    case OptsChoice::Mode::Fixed:
      return fit_opts(choice.fixed, root);
    default:
      return {};
  }
}

}  // namespace uopc
