#include "compiler/schedule.h"

#include <algorithm>

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
    LowerContext ctx;
    std::unordered_map<const UOp*, UOpRef> params;
    ctx.param_for = [&](const UOp& node) {
      auto it = params.find(&node);
      if (it != params.end()) return it->second;
      int number = static_cast<int>(k.args.size()) - (planted(Plant::ParamNumberedBelow) ? 1 : 0);
      k.args.push_back(buffer_for(&node));
      return params.emplace(&node, param(number, node.dtype, node.numel())).first->second;
    };
    ctx.materialize = [&](const UOp& node) {
      if (node.op != Op::Stage || !planted(Plant::StageNeverWritten)) kernel_for(&node);
      return ctx.param_for(node);
    };
    ctx.opts = k.opts = opts_for(opts_, *k.root);
    if (opts_.mode == OptsChoice::Mode::Auto) {
      std::vector<const UOp*> staged = auto_stages(*k.root);
      ctx.staged.insert(staged.begin(), staged.end());
    }
    std::vector<const UOp*> widely_read = widely_read_stages(*k.root, kWidelyRead);
    ctx.staged.insert(widely_read.begin(), widely_read.end());
    ctx.unrolled = &s_.unrolled;
    k.sink = lower_kernel(k.root, param(0, n->dtype, n->numel()), ctx);
    if (ctx.thread_loop) k.thread_size = range_size(*ctx.thread_loop);
    for (const auto& [reduce, demanded] : ctx.reduce_demand)
      if (demanded > 0) k.reduced_here += reduce->src[0]->numel();
    // Named when it is appended: kernels it materialized on the way come before it.
    k.name = "kernel" + std::to_string(s_.kernels.size());
    s_.kernels.push_back(std::move(k));
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
