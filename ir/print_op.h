// The text of one statement's right-hand side, in canonical form (included by ir/print.h).
#pragma once

#include <string>

#include "ir/plant.h"
#include "ir/uop.h"

namespace uopc {

namespace detail {
inline std::string int_list(const std::vector<int64_t>& v) {
  return shape_str(v);
}
}  // namespace detail

template <class NameOf>
std::string print_op(const UOp& n, NameOf&& name_of) {
  auto operand = [&](const UOpRef& s) {
    return s->op == Op::Const ? format_literal(s->value) : std::string(name_of(s.get()));
  };
  std::string out(op_name(n.op));
  switch (n.op) {
    case Op::Buffer:
      return out + " " + std::to_string(n.shape[0]) + " dtype=" + std::string(dtype_name(n.dtype)) +
             " slot=" + std::to_string(n.slot());
    case Op::Const:  // only printed as an operand; as a statement it is an expand to []
      return "expand " + format_literal(n.value) + " shape=[]";
    default:
      break;
  }
  for (const UOpRef& s : n.src) out += " " + operand(s);
  switch (n.op) {
    case Op::Reshape:
    case Op::Expand:
    case Op::Shrink:
      out += " shape=" + shape_str(n.shape);
      break;
    case Op::Permute:
      out += " order=" + detail::int_list(n.arg);
      break;
    case Op::Flip:
      out += " axes=" + detail::int_list(n.arg);
      break;
    case Op::Pad:
      out += " pads=" + detail::int_list(n.arg);
      if (!(n.value == Scalar::zero(n.dtype)) &&
          !(planted(Plant::PrintBoolPadFill) && n.dtype == DType::Bool))
        out += " value=" + format_literal(n.value);
      break;
    case Op::Reduce:
      out += " op=" + std::string(op_name(n.reduce_op())) + " pop=" + std::to_string(n.pop());
      break;
    case Op::Cast:
      out += " dtype=" + std::string(dtype_name(n.dtype));
      break;
    default:
      break;
  }
  return out;
}

}  // namespace uopc
