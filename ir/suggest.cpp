#include "ir/suggest.h"

#include <algorithm>

namespace uopc {

int edit_distance(std::string_view a, std::string_view b) {
  size_t n = a.size(), m = b.size();
  // Three rows: the transposition step looks two back.
  std::vector<int> before(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= m; ++j) {
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], before[j - 2] + 1);
    }
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& known) {
  int allowed = word.size() <= 4 ? 1 : 2;
  std::optional<std::string> best;
  int best_distance = allowed + 1;
  bool tie = false;
  for (const std::string& k : known) {
    if (k == word) continue;
    int d = edit_distance(word, k);
    if (d < best_distance) {
      best = k;
      best_distance = d;
      tie = false;
    } else if (d == best_distance) {
      tie = true;
    }
  }
  if (!best || tie) return std::nullopt;
  return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& known) {
  std::optional<std::string> c = closest(word, known);
  return c ? "; did you mean '" + *c + "'?" : "";
}

}  // namespace uopc
