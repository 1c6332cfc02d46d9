#include "fuzz/smt.h"

#include <stdexcept>

#include "compiler/symbolic.h"
#include "fuzz/smt_solver.h"

namespace uopc {
namespace {

const char* leaf_name(const UOp* leaf) {
  thread_local std::string text;
  text = expr_str(shared_from(leaf));
  return text.c_str();
}

const char* element_text(const Scalar& s) {
  thread_local std::string text;
  text = format_element(s);
  return text.c_str();
}

Verdict verdict_of(const SmtAnswer& a) {
  if (a.error) throw std::runtime_error(std::string("z3 failed: ") + a.error);
  return {a.kind, a.counterexample};
}

}  // namespace

const SmtHost& smt_host() {
  static const SmtHost host{leaf_name, element_text, reduce_identity, is_alu};
  return host;
}

std::string verdict_str(const Verdict& v) {
  switch (v.kind) {
    case Verdict::Kind::Proved:
      return "proved";
    case Verdict::Kind::Refuted:
      return "refuted at " + v.counterexample;
    case Verdict::Kind::Unknown:
      return "unknown (z3 gave up)";
    case Verdict::Kind::Unsupported:
      return "unsupported (an op without exact semantics)";
  }
  return "?";
}

Smt::Smt(unsigned timeout_ms) : solver_(make_z3_solver(timeout_ms)) {}
Smt::~Smt() = default;

Verdict Smt::equal(const UOpRef& a, const UOpRef& b) {
  return verdict_of(solver_->equal(a, b));
}

Verdict Smt::equal_and_bounded(const UOpRef& a, const UOpRef& b) {
  return verdict_of(solver_->equal_and_bounded(a, b));
}

Verdict Smt::within(const UOpRef& e, const Interval& claimed) {
  return verdict_of(solver_->within(e, claimed));
}

Verdict Smt::exact_fits_i32(Op op, const UOpRef& a, const UOpRef& b) {
  return verdict_of(solver_->exact_fits_i32(op, a, b));
}

Verdict Smt::c_division_agrees(Op op, const UOpRef& a, const UOpRef& b) {
  return verdict_of(solver_->c_division_agrees(op, a, b));
}

}  // namespace uopc
