#include "fuzz/probes.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "ir/build.h"

namespace uopc {
namespace {

// Operand intervals whose corners tell interval rules apart: mixed signs, negative, positive,
// and every i32, where a sum or product wraps.
constexpr std::array<std::pair<int64_t, int64_t>, 4> kIntervals = {
    {{-3, 5}, {-7, -2}, {2, 9}, {INT32_MIN, INT32_MAX}}};
// Second operands written as literals, which the renderer may divide by in C.
constexpr std::array<int64_t, 2> kLiterals = {2, -3};
constexpr std::array<const char*, 7> kBinary = {"add", "sub", "mul", "idiv", "mod", "max", "min"};

std::string values(std::initializer_list<int64_t> list) {
  std::string out;
  for (int64_t v : list) out += " " + std::to_string(v);
  return out;
}

}  // namespace

std::vector<std::string> op_probes() {
  std::vector<std::string> two, three;
  for (const auto& [lo, hi] : kIntervals) {
    std::string a = "%a = stack" + values({lo, hi}) + "\n";
    two.push_back(a + "%v = neg %a\n");
    for (const char* op : kBinary)
      for (int64_t k : kLiterals)
        two.push_back(a + "%v = " + op + " %a " + std::to_string(k) + "\n");
  }
  // Every pair of corners: a takes each end of its interval against each end of b's.
  for (const auto& [alo, ahi] : kIntervals)
    for (const auto& [blo, bhi] : kIntervals)
      for (const char* op : kBinary)
        three.push_back("%a = stack" + values({alo, alo, ahi, ahi}) + "\n%b = stack" +
                        values({blo, bhi, blo, bhi}) + "\n%v = " + op + " %a %b\n");
  two.insert(two.end(), three.begin(), three.end());
  return two;
}

UOpRef read_twice(const UOpRef& n) {
  for (int64_t axis = 0; axis < n->rank(); ++axis)
    if (n->shape[static_cast<size_t>(axis)] >= 2) return alu(Op::Cmpne, {n, flip(n, {axis})});
  return nullptr;
}

}  // namespace uopc
