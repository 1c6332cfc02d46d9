#include "fuzz/choices.h"

#include <FuzzedDataProvider.h>
#include <rapidcheck.h>

namespace uopc {

int64_t RapidCheckChoices::range(int64_t lo, int64_t hi) {
  return *rc::gen::inRange<int64_t>(lo, hi + 1);
}

struct BytesChoices::Provider {
  Provider(const uint8_t* data, size_t size) : fdp(data, size) {}
  FuzzedDataProvider fdp;
};

BytesChoices::BytesChoices(const uint8_t* data, size_t size)
    : p_(std::make_unique<Provider>(data, size)) {}
BytesChoices::~BytesChoices() = default;

int64_t BytesChoices::range(int64_t lo, int64_t hi) {
  return p_->fdp.ConsumeIntegralInRange<int64_t>(lo, hi);
}

}  // namespace uopc
