#include "ir/loop.h"

#include <unordered_map>

#include "ir/build.h"
#include "ir/program.h"

namespace uopc {

namespace {

std::string kind_name(RangeKind k) {
  return k == RangeKind::Loop ? "loop" : k == RangeKind::Reduce ? "reduce" : "thread";
}

}  // namespace

UOpRef range(int64_t size, int64_t id, RangeKind kind) {
  return loop_node(Op::Range, DType::I32, {}, {}, {size, id, static_cast<int64_t>(kind)});
}
int64_t range_size(const UOp& r) {
  return r.arg.at(0);
}
int64_t range_id(const UOp& r) {
  return r.arg.at(1);
}
RangeKind range_kind(const UOp& r) {
  return static_cast<RangeKind>(r.arg.at(2));
}

UOpRef var(int64_t id, Interval bounds) {
  return loop_node(Op::Var, DType::I32, {}, {}, {id, bounds.lo, bounds.hi});
}

UOpRef param(int64_t number, DType dtype, int64_t size) {
  return loop_node(Op::Param, dtype, {size}, {}, {number});
}

UOpRef alloc(int64_t id, DType dtype) {
  return loop_node(Op::Alloc, dtype, {1}, {}, {id});
}

UOpRef table(const std::vector<Scalar>& values) {
  std::vector<int64_t> bits;
  for (const Scalar& v : values) bits.push_back(v.bits);
  return loop_node(Op::Table, values.at(0).dtype, {static_cast<int64_t>(values.size())}, {}, bits);
}

UOpRef address(const UOpRef& buffer, const UOpRef& offset) {
  return loop_node(Op::Index, buffer->dtype, {}, {buffer, offset});
}

UOpRef load(const UOpRef& address) {
  return loop_node(Op::Load, address->dtype, {}, {address});
}

UOpRef store(const UOpRef& address, const UOpRef& value) {
  return loop_node(Op::Store, value->dtype, {}, {address, value});
}

UOpRef after(const UOpRef& buffer, const std::vector<UOpRef>& deps) {
  if (deps.empty()) return buffer;
  std::vector<UOpRef> src{buffer};
  src.insert(src.end(), deps.begin(), deps.end());
  return loop_node(Op::After, buffer->dtype, buffer->shape, src);
}

UOpRef end(const UOpRef& body, const std::vector<UOpRef>& ranges) {
  if (ranges.empty()) return body;
  std::vector<UOpRef> src{body};
  src.insert(src.end(), ranges.begin(), ranges.end());
  return loop_node(Op::End, body->dtype, {}, src);
}

UOpRef sink(const std::vector<UOpRef>& effects) {
  return loop_node(Op::Sink, DType::Bool, {}, effects);
}

namespace {

std::string attrs(const UOp& n) {
  std::string d = " : dtype=" + std::string(dtype_name(n.dtype));
  switch (n.op) {
    case Op::Range:
      return std::to_string(range_size(n)) + " : idx=" + std::to_string(range_id(n)) +
             " kind=" + kind_name(range_kind(n));
    case Op::Param:
      return std::to_string(n.shape[0]) + d + " slot=" + std::to_string(n.arg[0]);
    case Op::Alloc:
      return "1" + d + " slot=" + std::to_string(n.arg[0]);
    case Op::Table: {
      std::string values;
      for (int64_t bits : n.arg)
        values += (values.empty() ? "" : " ") +
                  format_element(Scalar{n.dtype, static_cast<uint32_t>(bits)});
      return std::to_string(n.shape[0]) + d + " values=[" + values + "]";
    }
    default:
      return "";
  }
}

}  // namespace

std::string print_loop_program(const UOpRef& root) {
  std::unordered_map<const UOp*, std::string> names;
  std::string out;
  int count = 0;
  for (const UOp* n : topo_order({root})) {
    if (n->op == Op::Const) {
      names.emplace(n, format_literal(n->value));
      continue;
    }
    std::string name = "%" + std::to_string(count++);
    names.emplace(n, name);
    std::string line = name + " = " + std::string(n->op == Op::Param ? "buffer" : op_name(n->op));
    std::string a = attrs(*n);
    if (!a.empty()) line += " " + a;
    for (size_t i = 0; i < n->src.size(); ++i) line += (i ? ", " : " ") + names.at(n->src[i].get());
    if (n->op == Op::Reduce || n->op == Op::Cast)
      line += " : dtype=" + std::string(dtype_name(n->dtype));
    out += line + "\n";
  }
  return out;
}

}  // namespace uopc
