#include "fuzz/seen.h"

#include <algorithm>

#include <xxhash.h>

namespace uopc {

Seen::Seen() : slots_(2 * kLimit, Hash128{0, 0}) {}

Seen::Hash128 Seen::hash(const std::string& content) {
  XXH128_hash_t h = XXH3_128bits(content.data(), content.size());
  // {0, 0} marks an empty slot; a content hashing to it shares a hash with another one.
  if (h.low64 == 0 && h.high64 == 0) h.high64 = 1;
  return {h.low64, h.high64};
}

size_t Seen::find(const Hash128& h) const {
  size_t mask = slots_.size() - 1;
  size_t k = static_cast<size_t>(h.low) & mask;
  while (!(slots_[k] == h) && !(slots_[k] == Hash128{0, 0})) k = (k + 1) & mask;
  return k;
}

bool Seen::contains(const std::string& content) const {
  Hash128 h = hash(content);
  return slots_[find(h)] == h;
}

void Seen::insert(const std::string& content) {
  Hash128 h = hash(content);
  size_t k = find(h);
  if (slots_[k] == h) return;
  if (size_ >= kLimit) {
    std::fill(slots_.begin(), slots_.end(), Hash128{0, 0});
    size_ = 0;
    k = find(h);
  }
  slots_[k] = h;
  ++size_;
}

}  // namespace uopc
