#include "compiler/engine.h"

#include <array>
#include <cstring>
#include <stdexcept>

#include "compiler/big_stack.h"
#include "compiler/compile_memo.h"
#include "compiler/render_c.h"
#include "compiler/thread_pool.h"
#include "ir/error.h"
#include "ir/loop.h"
#include "ir/plant.h"

namespace uopc {
namespace {

size_t element_size(DType d) {
  return d == DType::Bool ? 1 : 4;
}

void* data_of(Tensor& t) {
  return std::visit([](auto& a) -> void* { return a.data(); }, t.data);
}

// A buffer's contents as a tensor of `shape`. A bool byte other than 0 or 1 (an element
// never written) reads as true, as C reads it.
Tensor to_tensor(const std::vector<unsigned char>& bytes, DType dtype, const Shape& shape) {
  Tensor t = empty_tensor(dtype, shape);
  if (t.size() == 0) return t;
  if (dtype == DType::Bool) {
    bool* out = std::get<Array<bool>>(t.data).data();
    for (int64_t i = 0; i < t.size(); ++i) out[i] = bytes[static_cast<size_t>(i)] != 0;
    return t;
  }
  std::memcpy(data_of(t), bytes.data(), static_cast<size_t>(t.size()) * element_size(dtype));
  return t;
}

std::vector<unsigned char> input_bytes(const BufferSpec& b, const InterpOptions& o) {
  int64_t slot = b.node->slot();
  Tensor t;
  auto it = o.inputs.find(slot);
  if (it == o.inputs.end()) {
    t = default_input(b.dtype, b.size, slot);
  } else {
    t = it->second.value;
    if (t.dtype() != b.dtype || t.size() != b.size)
      throw UserError(Location{it->second.source},
                      "input for slot " + std::to_string(slot) + " holds " + type_string(t) +
                          ", but the program reads it as buffer " +
                          std::string(dtype_name(b.dtype)) + "[" + std::to_string(b.size) + "]");
  }
  std::vector<unsigned char> bytes(
      std::max<size_t>(1, static_cast<size_t>(b.size) * element_size(b.dtype)));
  if (b.size > 0)
    std::memcpy(bytes.data(), data_of(t), static_cast<size_t>(b.size) * element_size(b.dtype));
  return bytes;
}

// Every byte of a value the kernels compute starts as this, not 0, so an element no kernel writes
// (a thread range or tile that stops short) cannot pass for a computed 0 or false. As i32 it is
// -1515870811 and as f32 -2.9e-16, a number (not a NaN, which would compare equal to any NaN);
// as bool it is neither 0 nor 1, so an unwritten bool is told apart after the run.
constexpr unsigned char kUnwritten = 0xA5;

}  // namespace

// Graphs of a few thousand nodes recurse a few thousand frames deep at most.
bool shallow(const Program& p) {
  size_t nodes = 0;
  for (const Statement& s : p.statements) nodes += 1 + s.node->src.size();
  return nodes < 2000;
}

namespace {

// The program passed the type rules, and every pass builds only nodes that keep to them. A rule
// that refuses one of its nodes is that invariant broken (a literal or a cast of the wrong
// dtype), named as the lowering's, not by the op whose rule happened to notice it first.
Schedule lowered(const Program& p, const OptsChoice& opts) {
  try {
    return make_schedule(p, opts);
  } catch (const TypeError& e) {
    throw std::logic_error(std::string("lowering: built a node the type rules refuse: ") +
                           e.what());
  }
}

CompiledProgram compile_anew(const Program& p, const RenderOptions& options,
                             const OptsChoice& opts) {
  return with_big_stack(
      [&] {
        CompiledProgram c{lowered(p, opts), "", options};
        std::string kernels;
        for (const KernelSpec& k : c.schedule.kernels)
          kernels += "\n" + rendered_kernel(k, options);
        c.source = render_prelude(kernels) + kernels;
        return c;
      },
      shallow(p));
}

}  // namespace

CompiledProgram compile_program(const Program& p, const RenderOptions& options,
                                const OptsChoice& opts) {
  if (std::optional<CompiledProgram> c = recall_compile(p, options, opts)) return *c;
  CompiledProgram c = compile_anew(p, options, opts);
  keep_compile(p, options, opts, c);
  return c;
}

InterpOptions matching(const CompiledProgram& c, InterpOptions options) {
  for (const auto& [reduce, u] : c.schedule.unrolled)
    if (u.factor > 1 && !u.in_order) options.unrolled[reduce] = u.factor;
  return options;
}

Iterations iteration_bound(const Program& p, const CompiledProgram& c) {
  Iterations bound;
  int64_t outputs = 0, reduces = 0;
  for (const KernelSpec& k : c.schedule.kernels) {
    outputs += k.root->numel();
    // Nested loops over axes of size >= 2 run at most twice their innermost count.
    bound.reduce_loops.push_back(3 * k.reduced_here);
  }
  for (const UOp* n : topo_order(p.roots()))
    if (n->op == Op::Reduce) reduces += n->src[0]->numel();
  bound.loops = 3 * (outputs + static_cast<int64_t>(c.schedule.kernels.size()) * reduces) + 64;
  return bound;
}

std::string excess_iterations(const Program& p, const CompiledProgram& c, const Iterations& ran) {
  Iterations bound = iteration_bound(p, c);
  for (size_t k = 0; k < ran.reduce_loops.size() && k < bound.reduce_loops.size(); ++k)
    if (ran.reduce_loops[k] > bound.reduce_loops[k])
      return c.schedule.kernels[k].name + "'s reduce loops ran " +
             std::to_string(ran.reduce_loops[k]) + " iterations; its reduces need at most " +
             std::to_string(bound.reduce_loops[k]);
  if (ran.loops <= bound.loops) return "";
  return "the kernels ran " + std::to_string(ran.loops) +
         " loop iterations; the work needs at most " + std::to_string(bound.loops);
}

std::string lowered_text(const CompiledProgram& c) {
  return with_big_stack([&] {
    std::string out;
    for (const KernelSpec& k : c.schedule.kernels) {
      out += "# " + k.name + ": " + std::string(dtype_name(k.root->dtype)) +
             shape_str(k.root->shape) + " into buffer " + std::to_string(k.args[0]) +
             (k.opts.none() ? "" : ", opts " + format_opts(k.opts)) + "\n";
      out += print_loop_program(k.sink);
    }
    return out;
  });
}

void check_stored_sizes(const Program& p, const CompiledProgram& c, int64_t limit) {
  const auto& stored = c.schedule.buffer_of;
  check_value_sizes(p, limit, [&](const UOp* n) { return stored.count(n) > 0; });
}

Executable::Executable(const Program& p, const CompiledProgram& c, Backend& backend,
                       const InterpOptions& options, int threads)
    : program_(p), compiled_(c), threads_(std::max(1, threads)) {
  check_stored_sizes(p, c, options.max_elements);
  refill(options);
  module_ = build_module(backend, c.source);
  for (const KernelSpec& k : c.schedule.kernels) kernels_.push_back(module_->get(k.name));
}

void Executable::refill(const InterpOptions& options) {
  buffers_.clear();
  for (const BufferSpec& b : compiled_.schedule.buffers) {
    if (b.input())
      buffers_.push_back(input_bytes(b, options));
    else
      buffers_.emplace_back(
          std::max<size_t>(1, static_cast<size_t>(b.size) * element_size(b.dtype)), kUnwritten);
  }
  iterations_ = {0, std::vector<int64_t>(compiled_.schedule.kernels.size())};
}

void Executable::run() {
  const std::vector<KernelSpec>& kernels = compiled_.schedule.kernels;
  // Once: a refill gives each buffer the same size.
  if (compiled_.options.check_bounds && !parameters_checked_) check_parameters();
  parameters_checked_ = true;
  for (size_t k = 0; k < kernels.size(); ++k) {
    std::vector<void*> args;
    for (int b : kernels[k].args) args.push_back(buffers_[static_cast<size_t>(b)].data());
    run_kernel(k, args.data());
  }
  // Unchecked, a kernel may copy any byte it reads from outside a buffer; only with the
  // bounds checked is a bool that is not 0 or 1 surely one never written.
  if (compiled_.options.check_bounds) check_written();
}

// The checked kernels test each offset against the size their code gives a parameter, so a
// buffer allocated smaller than that (a size the scheduler got wrong) would be read and written
// past its end unseen: each parameter's size is first held against the buffer it is handed.
void Executable::check_parameters() const {
  const std::vector<KernelSpec>& kernels = compiled_.schedule.kernels;
  for (const KernelSpec& k : kernels)
    for (const UOp* n : topo_order({k.sink})) {
      if (n->op != Op::Param) continue;
      size_t param = static_cast<size_t>(n->arg[0]);
      // The buffer's own size, not its bytes: an empty buffer still gets one byte.
      int64_t held = compiled_.schedule.buffers[static_cast<size_t>(k.args.at(param))].size;
      if (held < n->shape[0])
        throw BoundsError(k.name + "'s parameter " + std::to_string(param) + " is " +
                          std::to_string(n->shape[0]) + " elements long, and its buffer holds " +
                          std::to_string(held));
    }
}

// With bounds checked no kernel copies a byte from outside a buffer, so a bool element that is
// not 0 or 1 is one no kernel wrote (still kUnwritten) or one a kernel computed wrong (any
// other byte). (An unwritten i32 or f32 element shows as a wrong value instead.)
void Executable::check_written() const {
  const std::vector<BufferSpec>& specs = compiled_.schedule.buffers;
  for (size_t b = 0; b < specs.size(); ++b) {
    if (specs[b].input() || specs[b].dtype != DType::Bool) continue;
    const std::vector<unsigned char>& bytes = buffers_[b];
    for (int64_t i = 0; i < specs[b].size; ++i) {
      unsigned char byte = bytes[static_cast<size_t>(i)];
      if (byte <= 1) continue;
      throw BoundsError("element " + std::to_string(i) + " of buffer " + std::to_string(b) +
                        " (bool[" + std::to_string(specs[b].size) + "]) holds byte " +
                        std::to_string(byte) + ", not 0 or 1: " +
                        (byte == kUnwritten ? "no kernel wrote it" : "a kernel computed it so"));
    }
  }
}

namespace {

// A kernel's status block: {oob, param, offset, size} (check_bounds), iterations
// (count_iterations), {op, a, b} (check_ub), {op + 1, value, lo, hi} (check_intervals), the
// reduce loops' iterations among the iterations (count_iterations), whether the value outside
// its interval is a bool (check_intervals).
using Status = std::array<long long, 14>;

// What a check_ub kernel reported in status[5..7].
std::string ub_message(const Status& s) {
  static const char* ops[] = {"?", "add", "sub", "mul", "neg", "idiv", "mod"};
  std::string op = ops[s[5] >= 1 && s[5] <= 6 ? s[5] : 0];
  std::string a = std::to_string(s[6]), b = std::to_string(s[7]);
  if (s[5] == 4) return "neg of " + a + " overflows i32, but was written as plain C";
  if (s[5] >= 5)
    return op + " of " + a + " by " + b + " was written as C's truncating " +
           (s[5] == 5 ? "/" : "%") + ", which does not floor it";
  return op + " of " + a + " and " + b + " overflows i32, but was written as plain C";
}

// What a check_intervals kernel reported in status[8..11].
std::string interval_message(const Status& s) {
  return std::string(op_name(static_cast<Op>(s[8] - 1))) + " is " + std::to_string(s[9]) +
         ", outside its interval [" + std::to_string(s[10]) + ", " + std::to_string(s[11]) + "]";
}

}  // namespace

namespace {
// Kernels return normally or not at all (a fatal signal), so a plain count needs no guard.
thread_local int t_in_kernel = 0;
}  // namespace

bool in_compiled_kernel() {
  return t_in_kernel > 0;
}

// The thread loop's range in `parts` nearly equal parts, each with its own status block.
void Executable::run_kernel(size_t k, void** args) {
  const KernelSpec& spec = compiled_.schedule.kernels[k];
  int64_t size = spec.thread_size;
  int parts = static_cast<int>(std::min<int64_t>(threads_, std::max<int64_t>(size, 1)));
  std::vector<Status> status(static_cast<size_t>(parts));
  auto part = [&](int j) {
    int lo = static_cast<int>(size * j / parts), hi = static_cast<int>(size * (j + 1) / parts);
    if (planted(Plant::ThreadRangeGap) && j + 1 < parts && hi > lo) --hi;
    status[static_cast<size_t>(j)] = {};
    ++t_in_kernel;
    kernels_[k](args, status[static_cast<size_t>(j)].data(), lo, hi);
    --t_in_kernel;
  };
  if (parts == 1)
    part(0);
  else
    shared_pool(threads_).run(parts, part);
  for (const Status& s : status) {
    iterations_.loops += s[4];
    iterations_.reduce_loops[k] += s[12];
    if (s[0])
      throw BoundsError(
          spec.name + " accessed " +
          (s[1] < 0 ? "table " + std::to_string(-1 - s[1]) : "parameter " + std::to_string(s[1])) +
          " at offset " + std::to_string(s[2]) + ", outside [0, " + std::to_string(s[3]) + ")");
    if (s[8])
      throw IntervalError(static_cast<Op>(s[8] - 1), s[13] != 0,
                          spec.name + ": " + interval_message(s));
    if (s[5]) throw UndefinedBehaviorError(spec.name + ": " + ub_message(s));
  }
}

Tensor Executable::value(const UOp* n) const {
  int b = compiled_.schedule.buffer_of.at(n);
  return to_tensor(buffers_[static_cast<size_t>(b)], n->dtype, n->shape);
}

InterpResult Executable::results() const {
  InterpResult r;
  for (const Statement* st : program_.outputs()) r.outputs.emplace_back(st, value(st->node.get()));
  for (const Statement* st : program_.asserts()) {
    const UOp* left = st->node->src[planted(Plant::AssertReadsOneOperand) ? 1 : 0].get();
    std::string detail = describe_difference(value(left), value(st->node->src[1].get()));
    if (!detail.empty()) r.failures.push_back({st, detail});
  }
  return r;
}

InterpResult run_compiled(const Program& p, const CompiledProgram& c, Backend& backend,
                          const InterpOptions& options, int threads) {
  Executable e(p, c, backend, options, threads);
  e.run();
  return e.results();
}

}  // namespace uopc
