#include "compiler/thread_pool.h"

#include <map>
#include <memory>

namespace uopc {

ThreadPool::ThreadPool(int threads) {
  for (int k = 1; k < threads; ++k) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::run(int parts, const std::function<void(int)>& part) {
  std::unique_lock<std::mutex> lock(mutex_);
  job_ = &part;
  parts_ = parts;
  next_ = 0;
  ++generation_;
  wake_.notify_all();
  drain(lock);
  done_.wait(lock, [&] { return next_ == parts_ && running_ == 0; });
  job_ = nullptr;
}

void ThreadPool::drain(std::unique_lock<std::mutex>& lock) {
  while (job_ && next_ < parts_) {
    int k = next_++;
    const std::function<void(int)>& part = *job_;
    ++running_;
    lock.unlock();
    part(k);
    lock.lock();
    if (--running_ == 0 && next_ == parts_) done_.notify_all();
  }
}

void ThreadPool::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  long long seen = 0;
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    drain(lock);
  }
}

ThreadPool& shared_pool(int threads) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<ThreadPool>> pools;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<ThreadPool>& pool = pools[threads];
  if (!pool) pool = std::make_unique<ThreadPool>(threads);
  return *pool;
}

int hardware_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

}  // namespace uopc
