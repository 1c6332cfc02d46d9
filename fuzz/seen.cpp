#include "fuzz/seen.h"

#include <algorithm>

#include <xxhash.h>

namespace uopc {

ContentHash content_hash(const std::string& content) {
  XXH128_hash_t h = XXH3_128bits(content.data(), content.size());
  return {h.low64, h.high64};
}

Seen::Seen() : slots_(2 * kLimit, kEmpty) {}

Seen::Hash128 Seen::hash(const std::string& content) {
  // A content hashing to the empty mark shares a hash with another one instead.
  Hash128 out = content_hash(content);
  if (out == kEmpty) out.high = 1;
  return out;
}

size_t Seen::find(const Hash128& h) const {
  size_t mask = slots_.size() - 1;
  size_t k = static_cast<size_t>(h.low) & mask;
  while (!(slots_[k] == h) && !(slots_[k] == kEmpty)) k = (k + 1) & mask;
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
    std::fill(slots_.begin(), slots_.end(), kEmpty);
    size_ = 0;
    k = find(h);
  }
  slots_[k] = h;
  ++size_;
}

}  // namespace uopc
