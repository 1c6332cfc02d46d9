#include "fuzz/reduce.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <unordered_map>

#include "ir/build.h"
#include "ir/error.h"
#include "ir/parse.h"
#include "ir/plant.h"
#include "ir/print.h"

namespace uopc {
namespace {

std::optional<Program> reparse(const std::string& text) {
  try {
    return parse_program(text, "candidate.uir");
  } catch (const UserError&) {
    return std::nullopt;
  }
}

// p with node `from` replaced by `to` everywhere, keeping only its outputs and asserts.
Program substitute(const Program& p, const UOp* from, const UOpRef& to) {
  std::unordered_map<const UOp*, UOpRef> memo;
  std::vector<UOpRef> roots = p.roots();
  for (const UOp* n : topo_order(roots)) {
    if (n == from) {
      memo.emplace(n, to);
      continue;
    }
    std::vector<UOpRef> src;
    bool same = true;
    for (const UOpRef& s : n->src) {
      src.push_back(memo.at(s.get()));
      same &= src.back() == s;
    }
    memo.emplace(n, same ? shared_from(n) : with_sources(*n, src));
  }
  Program q;
  q.file = p.file;
  for (const Statement& s : p.statements)
    if (s.is_assert() || !s.used)
      q.statements.push_back({s.name, memo.at(s.node.get()), s.line, false});
  return q;
}

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

class Reducer {
 public:
  Reducer(const Interesting& interesting) : interesting_(interesting) {}

  Reduced run(const Program& start) {
    std::string best = print_program(start);
    for (bool progress = true; progress;) {
      progress = false;
      std::optional<Program> p = reparse(best);
      if (!p) break;
      for (const std::string& candidate : candidates(*p)) {
        // Strictly smaller by (statements, characters), so reduction always ends.
        if (std::make_pair(count_statements(candidate), candidate.size()) >=
            std::make_pair(count_statements(best), best.size()))
          continue;
        ++tried_;
        if (!interesting_(candidate)) continue;
        best = candidate;
        progress = true;
        break;
      }
    }
    return {best, count_statements(best), tried_};
  }

 private:
  // Candidates from the most to the least drastic.
  std::vector<std::string> candidates(const Program& p) {
    std::vector<std::string> out;
    size_t roots = p.roots().size();
    for (size_t k = 0; roots > 1 && k < roots; ++k) out.push_back(print_program(keep_roots(p, k)));
    std::vector<const UOp*> order = topo_order(p.roots());
    std::reverse(order.begin(), order.end());
    for (const UOp* n : order) {
      if (n->op == Op::Const || n->op == Op::Assert) continue;
      for (const UOpRef& s : n->src)
        if (s->dtype == n->dtype && s->shape == n->shape && s->op != Op::Const)
          out.push_back(print_program(substitute(p, n, s)));
      if (n->op != Op::Buffer && n->numel() > 0) {
        int64_t slot = 500 + static_cast<int64_t>(out.size());
        out.push_back(
            print_program(substitute(p, n, reshape(buffer(n->numel(), n->dtype, slot), n->shape))));
      }
      out.push_back(
          print_program(substitute(p, n, expand(literal(Scalar::zero(n->dtype)), n->shape))));
    }
    // Literals shrink to zero (or false), one at a time.
    for (const UOp* n : order) {
      if (n->op != Op::Const || n->value == Scalar::zero(n->dtype)) continue;
      out.push_back(print_program(substitute(p, n, literal(Scalar::zero(n->dtype)))));
    }
    // An output may become any of its sources, whatever its shape.
    for (const Statement* s : p.outputs())
      for (const UOpRef& src : s->node->src)
        if (src->op != Op::Const) out.push_back(print_program(substitute(p, s->node.get(), src)));
    return out;
  }

  const Interesting& interesting_;
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

std::optional<Failure> first_failure(const Program& p, Backend& backend) {
  return check_program(p, backend, true);
}

Interesting fails_oracle(const std::string& oracle, Backend& backend) {
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
  return [oracle, &backend](const std::string& text) {
    std::optional<Program> p = reparse(text);
    if (!p) return false;
    std::optional<Failure> f;
    if (oracle == "roundtrip")
      f = check_roundtrip(*p);
    else if (oracle == "composites")
      f = check_composites(*p, backend, true);
    else
      f = check_engines(*p, backend);
    return f && f->oracle == oracle;
  };
}

Interesting fails_target(const std::string& command, const std::string& dir) {
  return [command, dir](const std::string& text) {
    std::optional<Program> p = reparse(text);
    return p && check_target(*p, command, dir).has_value();
  };
}

Reduced reduce_program(const Program& p, const Interesting& interesting) {
  return Reducer(interesting).run(p);
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

}  // namespace

Reduced reduce_lines(const std::string& text, const Interesting& interesting) {
  std::vector<std::string> lines;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  auto join = [](const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& l : v) out += l + "\n";
    return out;
  };
  int tried = 0;
  auto attempt = [&](std::vector<std::string> candidate) {
    ++tried;
    if (!interesting(join(candidate))) return false;
    lines = std::move(candidate);
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
  return {out, count_statements(out), tried};
}

std::string failure_signature(const Failure& f, const Program& p) {
  std::set<std::string> ops;
  if (!f.detail.empty() && f.detail[0] == '%') {
    std::string name = f.detail.substr(0, f.detail.find(':'));
    for (const Statement& s : p.statements)
      if (s.name == name) ops.insert(std::string(op_name(s.node->op)));
  }
  if (ops.empty())
    for (const Statement* s : p.outputs()) ops.insert(std::string(op_name(s->node->op)));
  std::string out = f.oracle;
  for (const std::string& op : ops) out += "-" + op;
  return out;
}

}  // namespace uopc
