// One element of one dtype, as exact bits: the value of a literal, of a pad fill, of a reduce
// identity. Equality is bitwise, so -0.0 and 0.0 are different literals and every NaN payload
// is its own literal.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "ir/dtype.h"

namespace uopc {

struct Scalar {
  DType dtype = DType::I32;
  uint32_t bits = 0;

  static Scalar of_bool(bool v) { return {DType::Bool, v ? 1u : 0u}; }
  static Scalar of_i32(int32_t v) { return {DType::I32, static_cast<uint32_t>(v)}; }
  static Scalar of_f32(float v);
  static Scalar zero(DType d) { return {d, 0u}; }

  // Reading a literal as another dtype than its own is a bug of the caller (an identity or a
  // fill of the wrong dtype), not a conversion: it throws std::logic_error, naming both.
  bool as_bool() const { return expect(DType::Bool), bits != 0; }
  int32_t as_i32() const { return expect(DType::I32), static_cast<int32_t>(bits); }
  float as_f32() const;

  bool operator==(const Scalar& o) const { return dtype == o.dtype && bits == o.bits; }

 private:
  void expect(DType d) const {
    if (dtype != d) [[unlikely]]
      read_as(d);
  }
  // Inline, as the z3 module (fuzz/smt_solver.h) links none of the ir library.
  [[noreturn]] void read_as(DType d) const {
    static constexpr const char* kNames[] = {"bool", "i32", "f32"};
    char text[96];
    std::snprintf(text, sizeof text, "literal: %s bits 0x%08x read as %s",
                  kNames[static_cast<int>(dtype)], bits, kNames[static_cast<int>(d)]);
    throw std::logic_error(text);
  }
};

// LANGUAGE.md §6's element format: "1", "-0", "inf", "nan", "true", "-7"; shortest round trip.
std::string format_element(const Scalar& s);
std::string format_f32(float v);

// A literal that parses back to the same Scalar in its dtype's context: f32 values always carry
// a '.', an exponent, or are inf/nan, so "1.0" stays f32.
std::string format_literal(const Scalar& s);

// The reduce identities of LANGUAGE.md §3 (add: -0.0 or 0, mul: 1, max: lowest, min: highest).
enum class Op : unsigned char;
Scalar reduce_identity(Op op, DType dtype);

}  // namespace uopc
