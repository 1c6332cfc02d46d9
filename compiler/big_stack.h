// Runs a function on a thread with a large stack.
//
// Lowering and rendering recurse along the graph (rangeify asks a node's sources, the renderer
// prints nested expressions), and a program may be a chain of 10^5 statements. A 1 GiB stack
// is only reserved address space until it is touched, so deep programs work without making
// every pass iterative.
#pragma once

#include <pthread.h>

#include <exception>
#include <optional>
#include <stdexcept>
#include <type_traits>

namespace uopc {

// `small` lets a caller who knows the work is shallow skip the thread.
template <class F>
auto with_big_stack(F&& f, bool small = false) -> std::invoke_result_t<F> {
  if (small) return f();
  using R = std::invoke_result_t<F>;
  struct Job {
    F* f;
    std::conditional_t<std::is_void_v<R>, bool, std::optional<R>> result{};
    std::exception_ptr error;
  } job{&f, {}, nullptr};
  auto body = [](void* p) -> void* {
    auto* j = static_cast<Job*>(p);
    try {
      if constexpr (std::is_void_v<R>)
        (*j->f)();
      else
        j->result.emplace((*j->f)());
    } catch (...) {
      j->error = std::current_exception();
    }
    return nullptr;
  };
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t{1} << 30);
  pthread_t thread;
  int rc = pthread_create(&thread, &attr, body, &job);
  pthread_attr_destroy(&attr);
  if (rc != 0) throw std::runtime_error("cannot start a compiler thread");
  pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
  if constexpr (!std::is_void_v<R>) return std::move(*job.result);
}

}  // namespace uopc
