// The graph rewrite engine: rules are data, applied bottom-up to a fixpoint.
//
// A rule is a plain function from a node to its replacement, or nullptr when it does not match;
// a RuleSet indexes rules by the op at the root of what they match, so only the rules of a
// node's op are tried on it. rewrite() visits every node once (sources first, iteratively, so
// deep graphs are fine), applies the matching rules until none fires, and memoizes the result
// per node, so shared subgraphs are rewritten once. New nodes that a rule builds are rewritten
// too. A step budget guards against rules that undo each other: when it runs out, rewriting
// stops, the graph is returned as it is (still equal in value, only less simplified) and the
// result says so.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/arena.h"
#include "ir/uop.h"

namespace uopc {

using RewriteFn = UOpRef (*)(const UOpRef& node);

struct Rule {
  const char* name;
  Op op;  // the root op the rule matches
  RewriteFn fn;
};

class RuleSet {
 public:
  RuleSet() = default;
  explicit RuleSet(std::vector<Rule> rules);
  RuleSet operator+(const RuleSet& other) const;
  // Drops the rules named `name` (tests use it to show what a rule is for).
  RuleSet without(const std::string& name) const;
  const std::vector<Rule>& for_op(Op op) const { return by_op_[static_cast<size_t>(op)]; }
  const std::vector<Rule>& all() const { return rules_; }

 private:
  std::vector<Rule> rules_;
  std::vector<std::vector<Rule>> by_op_ = std::vector<std::vector<Rule>>(kOpCount);
};

struct RewriteResult {
  UOpRef root;
  long steps = 0;  // rule applications
  bool budget_exhausted = false;
};

class Rewriter {
 public:
  explicit Rewriter(const RuleSet& rules, long budget = 1'000'000)
      : rules_(rules), budget_(budget) {}
  // Rewrites `root` and everything below it; results are memoized across calls, and a call
  // walks only the nodes earlier calls have not seen, so rewriting each level of a deep graph
  // in turn costs as much as rewriting it once. The budget holds for each call.
  UOpRef run(const UOpRef& root);
  long steps() const { return steps_; }
  // How many nodes' results it remembers.
  size_t size() const { return memo_.size(); }
  bool budget_exhausted() const { return steps_ >= limit_; }

 private:
  UOpRef visit(const UOpRef& node, int depth);
  UOpRef at_root(UOpRef node, int depth);

  const RuleSet& rules_;
  long budget_;
  long steps_ = 0;
  long limit_ = 0;  // steps_ at which this call stops
  Arena arena_;     // memo_'s entries
  std::pmr::unordered_map<const UOp*, UOpRef> memo_{&arena_};
  std::vector<UOpRef> keep_;  // keys of memo_ that nothing else keeps alive
};

RewriteResult rewrite(const UOpRef& root, const RuleSet& rules, long budget = 1'000'000);

// One rule's rewrite: `before` became `after` (before anything below `after` was rewritten).
struct RewriteStep {
  std::string rule;
  UOpRef before, after;
};

// While one is alive, every rule that fires on this thread is appended to `fired`, in the order
// they fire: which rule made an unsound step (fuzz/signature.h).
class RewriteLog {
 public:
  explicit RewriteLog(std::vector<RewriteStep>& fired);
  ~RewriteLog();
  RewriteLog(const RewriteLog&) = delete;
  RewriteLog& operator=(const RewriteLog&) = delete;

 private:
  std::vector<RewriteStep>* outer_;
};

// The steps taken while `run` ran.
std::vector<RewriteStep> steps_of(const std::function<void()>& run);

// Whether a RewriteLog is alive on this thread.
bool rewrites_logged();

}  // namespace uopc
