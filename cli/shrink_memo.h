// What shrinking already taught a campaign: for each signature a failure was named by before it
// was shrunk, how many such failures were shrunk and the signature the first one ended under.
//
// One bug fails many programs of a campaign, each named by the same localized signature, and
// shrinking each of them again costs a hundred checks to reach a reproducer the corpus already
// holds. Once kEnough failures of one signature were shrunk, a worker keeps the next one as
// found, under the signature the shrinks led to, and goes on fuzzing: one bug stays one file,
// and the campaign's time goes to finding the next bug.
//
// It lives in memory shared by the driver, its only writer, and the workers, which read it; an
// entry is filled before it is published, so a reader never sees half of one.
#pragma once

#include <atomic>
#include <optional>
#include <string>

namespace uopc::cli {

class ShrinkMemo {
 public:
  // Failures of one signature shrunk before the next is kept as found.
  static constexpr int kEnough = 3;

  // A failure named `before` was shrunk and named `after`.
  void record(const std::string& before, const std::string& after);

  // The signature failures named `before` were shrunk to, once kEnough of them were.
  std::optional<std::string> shrunk_enough(const std::string& before) const;

 private:
  static constexpr int kEntries = 256;
  static constexpr size_t kLength = 160;  // longer signatures are not remembered
  struct Entry {
    char before[kLength];
    char after[kLength];
    std::atomic<int> times;
  };
  int find(const std::string& before, int size) const;

  std::atomic<int> size_{0};
  Entry entries_[kEntries]{};
};

}  // namespace uopc::cli
