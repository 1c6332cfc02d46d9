#include "ir/ops.h"

#include <array>

namespace uopc {
namespace {

struct OpInfo {
  std::string_view text;
  OpKind kind;
  DTypeSet dtypes;
  int arity;
};

constexpr std::array<OpInfo, kOpCount> kInfo = {{
#define UOP(name, text, kind, dtypes, arity) {text, OpKind::kind, DTypeSet::dtypes, arity},
#include "ir/ops.def"
#undef UOP
}};

const OpInfo& info(Op op) {
  return kInfo[static_cast<size_t>(op)];
}

}  // namespace

std::string_view op_name(Op op) {
  return info(op).text;
}
OpKind op_kind(Op op) {
  return info(op).kind;
}
DTypeSet op_dtypes(Op op) {
  return info(op).dtypes;
}
int op_arity(Op op) {
  return info(op).arity;
}

std::optional<Op> parse_op(std::string_view text) {
  for (size_t i = 0; i < kInfo.size(); ++i)
    if (kInfo[i].text == text) return static_cast<Op>(i);
  return std::nullopt;
}

bool is_alu(Op op) {
  OpKind k = op_kind(op);
  return k == OpKind::Unary || k == OpKind::Binary || k == OpKind::Ternary;
}

bool is_movement(Op op) {
  return op_kind(op) == OpKind::Movement;
}

bool is_comparison(Op op) {
  return op == Op::Cmplt || op == Op::Cmpeq || op == Op::Cmpne;
}

bool is_commutative(Op op, DType operand_dtype) {
  switch (op) {
    case Op::Add:
    case Op::Mul:
    case Op::Cmpeq:
    case Op::Cmpne:
    case Op::And:
    case Op::Or:
    case Op::Xor:
      return true;
    case Op::Max:
    case Op::Min:
      return operand_dtype != DType::F32;
    default:
      return false;
  }
}

bool is_reduce_op(Op op) {
  return op == Op::Add || op == Op::Mul || op == Op::Max || op == Op::Min;
}

}  // namespace uopc
