#include "compiler/compile_memo.h"

#include "compiler/recent.h"
#include "compiler/render_c.h"
#include "compiler/rewrite.h"
#include "compiler/symbolic.h"
#include "ir/plant.h"
#include "ir/program.h"

namespace uopc {

namespace {

struct Remembered {
  std::vector<UOpRef> values;  // kept alive: the key names them by address
  CompiledProgram compiled;
};

struct RememberedLowering {
  UOpRef root;  // kept alive, as above
  LoweredKernel lowered;
};

struct RememberedRender {
  UOpRef sink;  // kept alive, as above
  std::string before_name, after_name;
};

// What a kernel's lowering keeps alive: its value's nodes and its loop program's, with their
// lists (a stack of 10^5 literals is one node with 10^5 sources). Nodes two lowerings share
// are counted in each.
size_t bytes_kept(const LoweringKey& key, const LoweredKernel& lowered) {
  size_t bytes = 0;
  for (const UOp* n : topo_order({key.root, lowered.sink}))
    bytes += sizeof(UOp) + sizeof(UOpRef) * n->src.size() +
             sizeof(int64_t) * (n->arg.size() + n->shape.size());
  return bytes;
}

}  // namespace

// A course case's compile keeps a few kilobytes of C and a few hundred nodes, its module about
// 20 KB; the C's size stands in for both.
struct CompileMemo::State {
  Recent<Remembered> compiles{256, size_t{16} << 20};
  Recent<Module> modules{256, size_t{16} << 20};
  // libFuzzer mutates any of a corpus of thousands of inputs, so the kernels of the one it
  // picks were compiled many inputs ago: keeping 1024 kernels, a fuzz_diff compile took 2.2
  // lowerings and C texts from the memo; keeping 8192, 3.1 (and its memory grew by 50 MB).
  // The sizes bound what a few large kernels keep.
  Recent<RememberedLowering> lowerings{8192, size_t{256} << 20};
  Recent<RememberedRender> renders{8192, size_t{64} << 20};
  // A kernel no program had before still has index expressions that earlier kernels had: the
  // same shapes raveled, the same movement ops over the same loops.
  KeptSimplifications simplifications;
  size_t hits = 0;
  size_t kernel_hits = 0;
};

namespace {

thread_local CompileMemo::State* t_memo = nullptr;

CompileMemo::State* memo_for_compiles() {
  return rewrites_logged() ? nullptr : t_memo;  // a logged compile must take its steps
}

template <typename T>
void append_bytes(std::string& key, const T& value) {
  key.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// What every compile, lowering and rendering also depends on.
std::string context_key() {
  return " " + std::string(plant_name(active_plant())) + " " + rules_left_out();
}

std::string render_key(const RenderOptions& o) {
  std::string key;
  for (bool flag : {o.check_bounds, o.count_iterations, o.check_ub, o.check_intervals})
    key += flag ? '1' : '0';
  for (Op op : o.by_helper) key += " " + std::string(op_name(op));
  return key + context_key();
}

std::string compile_key(const std::vector<UOpRef>& values, const RenderOptions& o,
                        const OptsChoice& opts) {
  std::string key;
  for (const UOpRef& v : values) append_bytes(key, v.get());
  return key + format_opts_choice(opts) + render_key(o);
}

}  // namespace

CompileMemo::CompileMemo() {
  if (t_memo) return;
  own_ = std::make_unique<State>();
  t_memo = own_.get();
}

CompileMemo::~CompileMemo() {
  if (own_) t_memo = nullptr;
}

size_t CompileMemo::hits() const {
  return t_memo ? t_memo->hits : 0;
}

size_t CompileMemo::kernel_hits() const {
  return t_memo ? t_memo->kernel_hits : 0;
}

std::optional<CompiledProgram> recall_compile(const Program& p, const RenderOptions& options,
                                              const OptsChoice& opts) {
  CompileMemo::State* memo = memo_for_compiles();
  if (!memo) return std::nullopt;
  std::shared_ptr<Remembered> r =
      memo->compiles.find(compile_key(scheduled_values(p), options, opts));
  if (!r) return std::nullopt;
  ++memo->hits;
  return r->compiled;
}

void keep_compile(const Program& p, const RenderOptions& options, const OptsChoice& opts,
                  const CompiledProgram& c) {
  CompileMemo::State* memo = memo_for_compiles();
  if (!memo) return;
  std::vector<UOpRef> values = scheduled_values(p);
  std::string key = compile_key(values, options, opts);
  if (memo->compiles.find(key)) return;
  memo->compiles.add(std::move(key), std::make_shared<Remembered>(Remembered{values, c}),
                     c.source.size());
}

std::shared_ptr<Module> build_module(Backend& backend, const std::string& source) {
  if (!t_memo) return backend.compile(source);
  std::string key;
  append_bytes(key, &backend);
  key += source;
  if (std::shared_ptr<Module> m = t_memo->modules.find(key)) {
    ++t_memo->hits;
    return m;
  }
  std::shared_ptr<Module> m = backend.compile(source);
  t_memo->modules.add(std::move(key), m, source.size());
  return m;
}

std::optional<LoweringKey> lowering_key(const UOp& root, const OptsChoice& opts,
                                        const std::unordered_map<const UOp*, Unroll>& unrolled) {
  if (!memo_for_compiles()) return std::nullopt;
  LoweringKey key{"", shared_from(&root), {}};
  append_bytes(key.text, &root);
  for (const UOp* n : topo_order({key.root})) {
    if (n->op != Op::Reduce) continue;
    auto it = unrolled.find(n);
    if (it == unrolled.end()) {
      key.undecided.push_back(n);
      continue;
    }
    append_bytes(key.text, n);
    append_bytes(key.text, it->second.factor);
    key.text += it->second.in_order ? '1' : '0';
  }
  key.text += format_opts_choice(opts) + context_key();
  return key;
}

std::shared_ptr<const LoweredKernel> recall_lowering(const LoweringKey& key) {
  CompileMemo::State* memo = memo_for_compiles();
  if (!memo) return nullptr;
  std::shared_ptr<RememberedLowering> r = memo->lowerings.find(key.text);
  if (!r) return nullptr;
  ++memo->kernel_hits;
  return std::shared_ptr<const LoweredKernel>(r, &r->lowered);
}

void keep_lowering(const LoweringKey& key, LoweredKernel lowered) {
  CompileMemo::State* memo = memo_for_compiles();
  if (!memo || memo->lowerings.find(key.text)) return;
  size_t bytes = bytes_kept(key, lowered);
  memo->lowerings.add(
      key.text,
      std::make_shared<RememberedLowering>(RememberedLowering{key.root, std::move(lowered)}),
      bytes);
}

std::string rendered_kernel(const KernelSpec& k, const RenderOptions& options) {
  bool register_tile = k.opts.upcast.size() >= 2;
  CompileMemo::State* memo = memo_for_compiles();
  if (!memo) return render_kernel(k.name, k.sink, options, register_tile);
  // The name is only in the signature, and one kernel is another's in another program.
  std::string key;
  append_bytes(key, k.sink.get());
  key += (register_tile ? "1" : "0") + render_key(options);
  if (std::shared_ptr<RememberedRender> r = memo->renders.find(key)) {
    ++memo->kernel_hits;
    return r->before_name + k.name + r->after_name;
  }
  std::string c = render_kernel(k.name, k.sink, options, register_tile);
  size_t at = c.find("void " + k.name + "(");
  if (at == std::string::npos) return c;
  at += 5;
  memo->renders.add(std::move(key),
                    std::make_shared<RememberedRender>(
                        RememberedRender{k.sink, c.substr(0, at), c.substr(at + k.name.size())}),
                    c.size());
  return c;
}

}  // namespace uopc
