// fuzz_diff skips a check that passed on the same content before (fuzz/seen.h): a repeat
// compiles nothing, and a failing input fails every time it comes up.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

#include "fuzz/campaign.h"
#include "fuzz/seen.h"
#include "ir/plant.h"

// Counts this binary's heap allocations, so a test can see that a call makes none. Every form
// that a delete here may free is replaced: under ASan an unreplaced nothrow new (a stable
// sort's scratch buffer) would be ASan's, and freeing it here a mismatch.
namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(size_t size, const std::nothrow_t&) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size ? size : 1);
}
void* operator new(size_t size) {
  if (void* p = operator new(size, std::nothrow)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  return operator new(size, std::nothrow);
}
void* operator new[](size_t size) {
  return operator new(size);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p, size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}

namespace uopc {
namespace {

TEST(Seen, KnowsContentItWasGiven) {
  Seen seen;
  seen.insert("%a = buffer 4");
  EXPECT_TRUE(seen.contains("%a = buffer 4"));
  EXPECT_FALSE(seen.contains("%a = buffer 5"));
  EXPECT_FALSE(seen.contains(""));
}

TEST(Seen, StartsOverPastItsLimit) {
  Seen seen;
  for (size_t k = 0; k < Seen::kLimit; ++k) seen.insert(std::to_string(k));
  EXPECT_EQ(seen.size(), Seen::kLimit);
  seen.insert("one more");
  EXPECT_EQ(seen.size(), 1u);
  EXPECT_TRUE(seen.contains("one more"));
}

// libFuzzer runs an input again, and scans the heap for leaks, after any execution that
// allocates more than it frees: remembering a new program must not be such an allocation.
TEST(Seen, InsertAllocatesNothing) {
  Seen seen;
  std::vector<std::string> contents;
  for (int k = 0; k < 10000; ++k) contents.push_back("program " + std::to_string(k));
  long before = g_allocations.load();
  for (const std::string& content : contents) seen.insert(content);
  EXPECT_EQ(g_allocations.load(), before);
  EXPECT_EQ(seen.size(), contents.size());
  for (const std::string& content : contents) EXPECT_TRUE(seen.contains(content));
}

// The tcc backend, counting what it is asked to compile.
class CountingBackend : public Backend {
 public:
  std::unique_ptr<Module> compile(const std::string& source) override {
    ++compiles;
    return inner_->compile(source);
  }
  int compiles = 0;

 private:
  std::unique_ptr<Backend> inner_ = make_tcc_backend();
};

std::vector<uint8_t> random_bytes(std::mt19937_64& rng) {
  std::vector<uint8_t> bytes(static_cast<size_t>(64 + rng() % 448));
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  return bytes;
}

std::optional<Failure> check_bytes(const std::vector<uint8_t>& bytes, Backend& backend,
                                   Seen* seen) {
  BytesChoices choices(bytes.data(), bytes.size());
  return check_input(choices, backend, {}, seen);
}

TEST(CheckInput, ARepeatThatPassedIsNotCheckedAgain) {
  std::mt19937_64 rng(7);
  CountingBackend backend;
  Seen seen;
  int repeats = 0;
  for (int k = 0; k < 20; ++k) {
    std::vector<uint8_t> bytes = random_bytes(rng);
    ASSERT_FALSE(check_bytes(bytes, backend, &seen));
    int first = backend.compiles;
    ASSERT_FALSE(check_bytes(bytes, backend, &seen));
    EXPECT_EQ(backend.compiles, first) << "input " << k << " was compiled again";
    ASSERT_FALSE(check_bytes(bytes, backend, nullptr));
    repeats += backend.compiles > first;
  }
  EXPECT_GT(repeats, 10) << "without a cache, inputs should compile again";
}

TEST(CheckInput, AFailingInputFailsEveryTime) {
  set_plant(Plant::ReshapeColumnMajor);
  std::mt19937_64 rng(7);
  CountingBackend backend;
  Seen seen;
  int failing = 0;
  for (int k = 0; k < 200 && failing < 3; ++k) {
    std::vector<uint8_t> bytes = random_bytes(rng);
    std::optional<Failure> first = check_bytes(bytes, backend, &seen);
    if (!first) continue;
    ++failing;
    std::optional<Failure> again = check_bytes(bytes, backend, &seen);
    ASSERT_TRUE(again) << "a failing input passed when it came up again";
    EXPECT_EQ(again->oracle, first->oracle);
  }
  set_plant(Plant::None);
  EXPECT_EQ(failing, 3) << "reshape_column_major should fail some of 200 random inputs";
}

}  // namespace
}  // namespace uopc
