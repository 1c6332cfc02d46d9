#include "compiler/rewrite.h"

#include <algorithm>

#include <unordered_set>

#include "ir/build.h"
#include "ir/program.h"

namespace uopc {

RuleSet::RuleSet(std::vector<Rule> rules) : rules_(std::move(rules)) {
  for (const Rule& r : rules_) by_op_[static_cast<size_t>(r.op)].push_back(r);
}

RuleSet RuleSet::operator+(const RuleSet& other) const {
  std::vector<Rule> all = rules_;
  all.insert(all.end(), other.rules_.begin(), other.rules_.end());
  return RuleSet(std::move(all));
}

RuleSet RuleSet::without(const std::string& name) const {
  std::vector<Rule> kept;
  for (const Rule& r : rules_)
    if (name != r.name) kept.push_back(r);
  return RuleSet(std::move(kept));
}

namespace {
// New nodes built by rules are small; deeper recursion than this means rules feed each other.
constexpr int kMaxDepth = 200;
}  // namespace

UOpRef Rewriter::run(const UOpRef& root) {
  limit_ = steps_ + budget_;
  // Sources first, so visit() finds every original source in the memo and recursion stays
  // shallow whatever the depth of the graph; memoized nodes are not entered again.
  Arena arena;
  std::pmr::unordered_set<const UOp*> seen(&arena);
  std::pmr::vector<std::pair<const UOp*, size_t>> stack(&arena);  // node, next source to look at
  if (!memo_.count(root.get())) stack.emplace_back(root.get(), 0);
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < node->src.size()) {
      const UOp* s = node->src[next++].get();
      if (!memo_.count(s) && seen.insert(s).second) stack.emplace_back(s, 0);
      continue;
    }
    const UOp* done = node;
    stack.pop_back();
    if (!memo_.count(done)) visit(done == root.get() ? root : shared_from(done), 0);
  }
  return memo_.at(root.get());
}

UOpRef Rewriter::visit(const UOpRef& node, int depth) {
  if (auto it = memo_.find(node.get()); it != memo_.end()) return it->second;
  // Most nodes keep their sources; the new list is only built from the first one that changed.
  std::vector<UOpRef> src;
  for (size_t k = 0; k < node->src.size(); ++k) {
    UOpRef s = visit(node->src[k], depth + 1);
    if (src.empty() && s == node->src[k]) continue;
    if (src.empty()) {
      src.reserve(node->src.size());
      src.assign(node->src.begin(), node->src.begin() + static_cast<std::ptrdiff_t>(k));
    }
    src.push_back(std::move(s));
  }
  UOpRef rebuilt = src.empty() ? node : with_sources(*node, std::move(src));
  UOpRef result = at_root(rebuilt, depth);
  memo_[node.get()] = result;
  keep_.push_back(node);
  if (rebuilt != node) {
    memo_[rebuilt.get()] = result;
    keep_.push_back(rebuilt);
  }
  return result;
}

namespace {
thread_local std::vector<RewriteStep>* fired_log = nullptr;  // the innermost RewriteLog's
}  // namespace

RewriteLog::RewriteLog(std::vector<RewriteStep>& fired) : outer_(fired_log) {
  fired_log = &fired;
}

RewriteLog::~RewriteLog() {
  fired_log = outer_;
}

bool rewrites_logged() {
  return fired_log != nullptr;
}

std::vector<RewriteStep> steps_of(const std::function<void()>& run) {
  std::vector<RewriteStep> fired;
  RewriteLog log(fired);
  run();
  return fired;
}

UOpRef Rewriter::at_root(UOpRef node, int depth) {
  for (bool fired = true; fired && steps_ < limit_ && depth < kMaxDepth;) {
    fired = false;
    for (const Rule& rule : rules_.for_op(node->op)) {
      UOpRef next = rule.fn(node);
      if (!next || next == node) continue;
      ++steps_;
      if (fired_log) fired_log->push_back({rule.name, node, next});
      node = visit(next, depth + 1);  // the replacement may hold nodes no rule has seen yet
      fired = true;
      break;
    }
  }
  return node;
}

RewriteResult rewrite(const UOpRef& root, const RuleSet& rules, long budget) {
  Rewriter r(rules, budget);
  UOpRef out = r.run(root);
  return {out, r.steps(), r.budget_exhausted()};
}

}  // namespace uopc
