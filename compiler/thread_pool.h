// A fixed set of threads that runs the parts of one job at a time: how a kernel's thread loop
// is split across cores. Kernels are plain functions of their arguments, so parts need no
// locking; each part gets its own status block.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace uopc {

class ThreadPool {
 public:
  // `threads` in all, counting the caller of run(), which works too.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }
  // Calls part(0) ... part(parts - 1), spread over the threads; returns when all are done.
  void run(int parts, const std::function<void(int)>& part);

 private:
  void work();
  // Takes and runs parts of the current job until none is left.
  void drain(std::unique_lock<std::mutex>& lock);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* job_ = nullptr;
  int parts_ = 0, next_ = 0, running_ = 0;
  long long generation_ = 0;
  bool stop_ = false;
};

// One pool per thread count for the whole process, made on first use.
ThreadPool& shared_pool(int threads);

// The cores this process may use.
int hardware_threads();

}  // namespace uopc
