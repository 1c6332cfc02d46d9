// The most recent results of a pure, costly function, by a string key: a bounded map that
// forgets its least recently used entries first, once it holds more than `max_entries` of
// them or more than `max_bytes` by the sizes its callers give.
//
// Not thread-safe.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace uopc {

template <class T>
class Recent {
 public:
  Recent(size_t max_entries, size_t max_bytes) : max_entries_(max_entries), max_bytes_(max_bytes) {}
  Recent(const Recent&) = delete;
  Recent& operator=(const Recent&) = delete;

  // The value under `key`, now the most recent; nullptr when there is none.
  std::shared_ptr<T> find(const std::string& key) {
    auto at = by_key_.find(key);
    if (at == by_key_.end()) return nullptr;
    entries_.splice(entries_.begin(), entries_, at->second);
    return at->second->value;
  }

  // Adds `value` under a key it does not have yet, forgetting the oldest entries to make room.
  // The newest entry is kept even when it alone is over max_bytes.
  void add(std::string key, std::shared_ptr<T> value, size_t bytes) {
    entries_.push_front({std::move(key), std::move(value), bytes});
    by_key_.emplace(entries_.front().key, entries_.begin());
    bytes_ += bytes;
    while (entries_.size() > max_entries_ || (bytes_ > max_bytes_ && entries_.size() > 1)) {
      by_key_.erase(entries_.back().key);
      bytes_ -= entries_.back().bytes;
      entries_.pop_back();
    }
  }

  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::string key;
    std::shared_ptr<T> value;
    size_t bytes;
  };
  size_t max_entries_, max_bytes_;
  size_t bytes_ = 0;
  std::list<Entry> entries_;  // most recent first; nodes never move, so keys can be viewed
  std::unordered_map<std::string_view, typename std::list<Entry>::iterator> by_key_;
};

}  // namespace uopc
