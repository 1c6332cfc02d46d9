// The text of one statement's right-hand side, in canonical form (included by ir/print.h).
#pragma once

#include <charconv>
#include <string>
#include <vector>

#include "ir/plant.h"
#include "ir/uop.h"

namespace uopc {

namespace detail {
inline void append_int(std::string& out, int64_t v) {
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
}

// As shape_str writes it: [3 4].
inline void append_int_list(std::string& out, const std::vector<int64_t>& v) {
  out += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ' ';
    append_int(out, v[i]);
  }
  out += ']';
}
}  // namespace detail

// print_op, appended to `out`: a program's text is built in one string, not a string per
// statement and per word (each an allocation under the fuzz preset).
template <class NameOf>
void append_op(std::string& out, const UOp& n, NameOf&& name_of) {
  if (n.op == Op::Const) {  // only printed as an operand; as a statement it is an expand to []
    out.append("expand ").append(format_literal(n.value)).append(" shape=[]");
    return;
  }
  out += op_name(n.op);
  if (n.op == Op::Buffer) {
    out += ' ';
    detail::append_int(out, n.shape[0]);
    out.append(" dtype=").append(dtype_name(n.dtype)).append(" slot=");
    detail::append_int(out, n.slot());
    return;
  }
  for (const UOpRef& s : n.src) {
    out += ' ';
    if (s->op == Op::Const)
      out += format_literal(s->value);
    else
      out += name_of(s.get());
  }
  switch (n.op) {
    case Op::Reshape:
    case Op::Expand:
    case Op::Shrink:
      out += " shape=";
      detail::append_int_list(out, n.shape);
      break;
    case Op::Permute:
      out += " order=";
      detail::append_int_list(out, n.arg);
      break;
    case Op::Flip:
      out += " axes=";
      detail::append_int_list(out, n.arg);
      break;
    case Op::Pad:
      out += " pads=";
      detail::append_int_list(out, n.arg);
      if (!(n.value == Scalar::zero(n.dtype)) &&
          !(planted(Plant::PrintBoolPadFill) && n.dtype == DType::Bool))
        out.append(" value=").append(format_literal(n.value));
      break;
    case Op::Reduce:
      out.append(" op=").append(op_name(n.reduce_op())).append(" pop=");
      detail::append_int(out, n.pop());
      break;
    case Op::Cast:
      out.append(" dtype=").append(dtype_name(n.dtype));
      break;
    default:
      break;
  }
}

template <class NameOf>
std::string print_op(const UOp& n, NameOf&& name_of) {
  std::string out;
  append_op(out, n, name_of);
  return out;
}

}  // namespace uopc
