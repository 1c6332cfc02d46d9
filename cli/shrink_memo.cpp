#include "cli/shrink_memo.h"

#include <cstring>

namespace uopc::cli {

int ShrinkMemo::find(const std::string& before, int size) const {
  for (int i = 0; i < size; ++i)
    if (before == entries_[i].before) return i;
  return -1;
}

void ShrinkMemo::record(const std::string& before, const std::string& after) {
  if (before.empty() || before.size() >= kLength || after.size() >= kLength) return;
  int size = size_.load(std::memory_order_relaxed);
  int at = find(before, size);
  if (at >= 0) {
    entries_[at].times.fetch_add(1, std::memory_order_release);
    return;
  }
  if (size == kEntries) return;
  Entry& e = entries_[size];
  std::memcpy(e.before, before.c_str(), before.size() + 1);
  std::memcpy(e.after, after.c_str(), after.size() + 1);
  e.times.store(1, std::memory_order_relaxed);
  size_.store(size + 1, std::memory_order_release);
}

std::optional<std::string> ShrinkMemo::shrunk_enough(const std::string& before) const {
  int at = find(before, size_.load(std::memory_order_acquire));
  if (at < 0 || entries_[at].times.load(std::memory_order_acquire) < kEnough) return std::nullopt;
  return std::string(entries_[at].after);
}

}  // namespace uopc::cli
