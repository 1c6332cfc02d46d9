// The scalar meaning of every ALU op (LANGUAGE.md §4), written once as plain total functions.
// The interpreter applies them elementwise; constant folding and bounds use them too. They hold
// no index arithmetic: they say what one element of an op is, never where it comes from.
//
// Each function is defined for every input: no signed overflow, no division by zero, no
// out-of-range float-to-int conversion.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace uopc::sem {

inline constexpr int32_t kI32Min = std::numeric_limits<int32_t>::min();
inline constexpr int32_t kI32Max = std::numeric_limits<int32_t>::max();

inline int32_t wrap(uint32_t v) {
  return static_cast<int32_t>(v);
}
inline uint32_t u(int32_t v) {
  return static_cast<uint32_t>(v);
}

// Arithmetic. i32 wraps modulo 2^32 through unsigned arithmetic.
inline int32_t add(int32_t a, int32_t b) {
  return wrap(u(a) + u(b));
}
inline float add(float a, float b) {
  return a + b;
}
inline int32_t sub(int32_t a, int32_t b) {
  return wrap(u(a) - u(b));
}
inline float sub(float a, float b) {
  return a - b;
}
inline int32_t mul(int32_t a, int32_t b) {
  return wrap(u(a) * u(b));
}
inline float mul(float a, float b) {
  return a * b;
}
inline float div(float a, float b) {
  return a / b;
}
inline int32_t neg(int32_t a) {
  return wrap(0u - u(a));
}
inline float neg(float a) {
  return -a;
}

// Floor division: rounds toward -inf. x idiv 0 = 0; INT32_MIN idiv -1 wraps to INT32_MIN.
inline int32_t idiv(int32_t a, int32_t b) {
  if (b == 0) return 0;
  if (b == -1) return neg(a);
  int32_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}

// Floor modulo: the sign of the divisor, a == idiv(a, b) * b + mod(a, b). x mod 0 = x.
inline int32_t mod(int32_t a, int32_t b) {
  if (b == 0) return a;
  if (b == -1) return 0;
  int32_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// max a b = a > b ? a : b and min a b = a < b ? a : b, literally, so NaN and -0 follow
// from the comparison. For bool these are or / and.
template <class T>
T max(T a, T b) {
  return a > b ? a : b;
}
template <class T>
T min(T a, T b) {
  return a < b ? a : b;
}

template <class T>
bool cmplt(T a, T b) {
  return a < b;
}
template <class T>
bool cmpeq(T a, T b) {
  return a == b;
}
template <class T>
bool cmpne(T a, T b) {
  return a != b;
}

inline bool logic_and(bool a, bool b) {
  return a && b;
}
inline int32_t logic_and(int32_t a, int32_t b) {
  return a & b;
}
inline bool logic_or(bool a, bool b) {
  return a || b;
}
inline int32_t logic_or(int32_t a, int32_t b) {
  return a | b;
}
inline bool logic_xor(bool a, bool b) {
  return a != b;
}
inline int32_t logic_xor(int32_t a, int32_t b) {
  return a ^ b;
}
inline bool logic_not(bool a) {
  return !a;
}

inline float recip(float a) {
  return 1.0f / a;
}
inline float sqrt(float a) {
  return std::sqrt(a);
}
inline float exp2(float a) {
  return std::exp2(a);
}
inline float log2(float a) {
  return std::log2(a);
}
inline float sin(float a) {
  return std::sin(a);
}

// Casts. f32 -> i32 truncates toward zero and saturates; NaN gives 0.
inline int32_t f32_to_i32(float a) {
  if (std::isnan(a)) return 0;
  if (a >= 2147483648.0f) return kI32Max;
  if (a <= -2147483648.0f) return kI32Min;
  return static_cast<int32_t>(a);
}
inline float i32_to_f32(int32_t a) {
  return static_cast<float>(a);
}
inline bool f32_to_bool(float a) {
  return a != 0.0f;
}  // NaN != 0 holds, so NaN is true

}  // namespace uopc::sem
