#include "compiler/compile_memo.h"

#include "compiler/recent.h"
#include "compiler/rewrite.h"
#include "compiler/symbolic.h"
#include "ir/plant.h"

namespace uopc {

namespace {

struct Remembered {
  std::vector<UOpRef> values;  // kept alive: the key names them by address
  CompiledProgram compiled;
};

}  // namespace

// A course case's compile keeps a few kilobytes of C and a few hundred nodes, its module about
// 20 KB; the C's size stands in for both.
struct CompileMemo::State {
  Recent<Remembered> compiles{256, size_t{16} << 20};
  Recent<Module> modules{256, size_t{16} << 20};
  size_t hits = 0;
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

std::string compile_key(const std::vector<UOpRef>& values, const RenderOptions& o,
                        const OptsChoice& opts) {
  std::string key;
  for (const UOpRef& v : values) append_bytes(key, v.get());
  key += format_opts_choice(opts);
  for (bool flag : {o.check_bounds, o.count_iterations, o.check_ub, o.check_intervals})
    key += flag ? '1' : '0';
  for (Op op : o.by_helper) key += " " + std::string(op_name(op));
  return key + " " + std::string(plant_name(active_plant())) + " " + rules_left_out();
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

}  // namespace uopc
