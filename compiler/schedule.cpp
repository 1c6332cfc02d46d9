#include "compiler/schedule.h"

#include <algorithm>

#include "compiler/compile_memo.h"
#include "compiler/rangeify.h"
#include "ir/loop.h"
#include "ir/plant.h"

namespace uopc {
namespace {

// More indices than any kernel of an ordinary program computes one value at (a 3x3 window
// reads its input at 9), fewer than make a kernel large.
constexpr size_t kWidelyRead = 16;

class Scheduler {
 public:
  explicit Scheduler(const OptsChoice& opts) : opts_(opts) {}

  Schedule run(const std::vector<UOpRef>& values) {
    // Stages first, sources before users, so a kernel only reads buffers already written.
    for (const UOp* n : topo_order(values))
      if (n->op == Op::Stage && !planted(Plant::StageNeverWritten)) kernel_for(n);
    for (const UOpRef& v : values) kernel_for(v.get());
    return std::move(s_);
  }

 private:
  int buffer_for(const UOp* n) {
    auto [it, fresh] = s_.buffer_of.try_emplace(n, static_cast<int>(s_.buffers.size()));
    if (fresh) s_.buffers.push_back({n->dtype, buffer_size(*n), n});
    return it->second;
  }

  static int64_t buffer_size(const UOp& n) {
    if (planted(Plant::BufferOneShort)) return std::max<int64_t>(0, n.numel() - 1);
    return n.numel();
  }

  // An input needs no kernel: readers use its buffer.
  void kernel_for(const UOp* n) {
    if (s_.buffer_of.count(n)) return;
    if (n->op == Op::Buffer) {
      buffer_for(n);
      return;
    }
    KernelSpec k;
    k.root = shared_from(n);
    k.args.push_back(buffer_for(n));
    k.opts = opts_for(opts_, *k.root);
    std::optional<LoweringKey> key = lowering_key(*n, opts_, s_.unrolled);
    std::shared_ptr<const LoweredKernel> recalled = key ? recall_lowering(*key) : nullptr;
    if (recalled) {
      take(k, *recalled);
    } else {
      bool materialized = false;
      LoweredKernel lowered = lower(k, &materialized);
      if (key && !materialized) keep_lowering(*key, with_decided(std::move(lowered), *key));
    }
    // Named when it is appended: kernels it materialized on the way come before it.
    k.name = "kernel" + std::to_string(s_.kernels.size());
    s_.kernels.push_back(std::move(k));
  }

  // Lowers k.root, scheduling the kernels it materializes first.
  LoweredKernel lower(KernelSpec& k, bool* materialized) {
    LoweredKernel out;
    LowerContext ctx;
    std::unordered_map<const UOp*, UOpRef> params;
    ctx.param_for = [&](const UOp& node) {
      auto it = params.find(&node);
      if (it != params.end()) return it->second;
      int number = static_cast<int>(k.args.size()) - (planted(Plant::ParamNumberedBelow) ? 1 : 0);
      k.args.push_back(buffer_for(&node));
      out.params.push_back(shared_from(&node));
      return params.emplace(&node, param(number, node.dtype, node.numel())).first->second;
    };
    ctx.materialize = [&](const UOp& node) {
      *materialized = true;
      if (node.op != Op::Stage || !planted(Plant::StageNeverWritten)) kernel_for(&node);
      return ctx.param_for(node);
    };
    ctx.opts = k.opts;
    if (opts_.mode == OptsChoice::Mode::Auto) {
      std::vector<const UOp*> staged = auto_stages(*k.root);
      ctx.staged.insert(staged.begin(), staged.end());
    }
    std::vector<const UOp*> widely_read = widely_read_stages(*k.root, kWidelyRead);
    ctx.staged.insert(widely_read.begin(), widely_read.end());
    ctx.unrolled = &s_.unrolled;
    k.sink = lower_kernel(k.root, param(0, k.root->dtype, k.root->numel()), ctx);
    if (ctx.thread_loop) k.thread_size = range_size(*ctx.thread_loop);
    for (const auto& [reduce, demanded] : ctx.reduce_demand)
      if (demanded > 0) k.reduced_here += reduce->src[0]->numel();
    out.sink = k.sink;
    out.thread_size = k.thread_size;
    out.reduced_here = k.reduced_here;
    return out;
  }

  // The unrolls a lowering decided, which a program that takes it must decide alike.
  LoweredKernel with_decided(LoweredKernel lowered, const LoweringKey& key) const {
    for (const UOp* reduce : key.undecided)
      if (auto it = s_.unrolled.find(reduce); it != s_.unrolled.end())
        lowered.decided.emplace_back(shared_from(reduce), it->second);
    return lowered;
  }

  // A lowering remembered from another program, with the effects it had on that one's schedule.
  void take(KernelSpec& k, const LoweredKernel& lowered) {
    for (const UOpRef& node : lowered.params) k.args.push_back(buffer_for(node.get()));
    for (const auto& [reduce, unroll] : lowered.decided) s_.unrolled.emplace(reduce.get(), unroll);
    k.sink = lowered.sink;
    k.thread_size = lowered.thread_size;
    k.reduced_here = lowered.reduced_here;
  }

  const OptsChoice& opts_;
  Schedule s_;
};

}  // namespace

std::vector<UOpRef> scheduled_values(const Program& p) {
  std::vector<UOpRef> values;
  for (const Statement* s : p.outputs()) values.push_back(s->node);
  for (const Statement* s : p.asserts())
    values.insert(values.end(), s->node->src.begin(), s->node->src.end());
  return values;
}

Schedule make_schedule(const Program& p, const OptsChoice& opts) {
  return Scheduler(opts).run(scheduled_values(p));
}

}  // namespace uopc
