#include "fuzz/seen.h"

#include <xxhash.h>

namespace uopc {

Seen::Hash128 Seen::hash(const std::string& content) {
  XXH128_hash_t h = XXH3_128bits(content.data(), content.size());
  return {h.low64, h.high64};
}

bool Seen::contains(const std::string& content) const {
  return hashes_.count(hash(content)) > 0;
}

void Seen::insert(const std::string& content) {
  if (hashes_.size() >= kLimit) hashes_.clear();
  hashes_.insert(hash(content));
}

}  // namespace uopc
