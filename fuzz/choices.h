// The choice source: every decision the generator makes comes from here, so one generator
// serves three drivers. RapidCheck draws the choices (counterexamples shrink); raw bytes
// through FuzzedDataProvider (libFuzzer's mutations become program mutations); a seeded PRNG
// (fast campaigns).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

namespace uopc {

class Choices {
 public:
  virtual ~Choices() = default;
  // A number in [lo, hi], both included; lo <= hi.
  virtual int64_t range(int64_t lo, int64_t hi) = 0;

  bool coin() { return range(0, 1) == 1; }
  // True with probability about 1/n.
  bool one_in(int64_t n) { return range(0, n - 1) == 0; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(range(0, static_cast<int64_t>(v.size()) - 1))];
  }
};

class RandomChoices : public Choices {
 public:
  explicit RandomChoices(uint64_t seed) : rng_(seed) {}
  int64_t range(int64_t lo, int64_t hi) override {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }

 private:
  std::mt19937_64 rng_;
};

// Draws from RapidCheck; only valid inside a property.
class RapidCheckChoices : public Choices {
 public:
  int64_t range(int64_t lo, int64_t hi) override;
};

// Consumes bytes; when they run out every choice is its lowest value, so any input, even an
// empty one, makes a (small) program.
class BytesChoices : public Choices {
 public:
  BytesChoices(const uint8_t* data, size_t size);
  ~BytesChoices() override;
  int64_t range(int64_t lo, int64_t hi) override;

 private:
  struct Provider;
  std::unique_ptr<Provider> p_;
};

}  // namespace uopc
