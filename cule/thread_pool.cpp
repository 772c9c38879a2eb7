#include "cule/thread_pool.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#endif

#include "cule/error.hpp"

namespace cule {

int hardware_threads() { return int(std::max(1u, std::thread::hardware_concurrency())); }

void pin_to_core(std::thread& thread, int core) {
#if defined(__linux__)
  // Core k is the k-th CPU the process may run on (a container's or a job's
  // share of the machine need not start at CPU 0).
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(getpid(), sizeof(allowed), &allowed) != 0) {
    throw Error(std::string("thread_affinity_offset: cannot read the process's cores: ") +
                std::strerror(errno));
  }
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  }
  if (cpus.empty()) return;
  const int cpu = cpus[size_t(core) % cpus.size()];
  cpu_set_t cores;
  CPU_ZERO(&cores);
  CPU_SET(cpu, &cores);
  const int failed = pthread_setaffinity_np(thread.native_handle(), sizeof(cores), &cores);
  if (failed) {
    throw Error("thread_affinity_offset: cannot pin a thread to core " + std::to_string(cpu) +
                ": " + std::strerror(failed));
  }
#else
  (void)thread;
  (void)core;
#endif
}

ThreadPool::ThreadPool(int threads, int affinity_offset) {
  if (threads <= 0) threads = hardware_threads();
  try {
    for (int i = 1; i < threads; ++i) {
      workers_.emplace_back([this] { work(0); });
      if (affinity_offset >= 0) pin_to_core(workers_.back(), affinity_offset + i);
    }
  } catch (...) {
    stop();
    throw;
  }
}

ThreadPool::~ThreadPool() { stop(); }

void ThreadPool::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::run_chunks() {
  for (;;) {
    int begin;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (next_ >= n_) return;
      begin = next_;
      next_ = std::min(n_, next_ + chunk_);
    }
    const int end = std::min(n_, begin + chunk_);
    try {
      for (int i = begin; i < end; ++i) (*body_)(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }
}

void ThreadPool::work(uint64_t generation_seen) {
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != generation_seen; });
      if (stopping_) return;
      generation_seen = generation_;
      ++busy_;
    }
    run_chunks();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --busy_;
    }
    done_.notify_all();
  }
}

void ThreadPool::parallel_for(int n, const std::function<void(int)>& body) {
  if (n <= 0) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    body_ = &body;
    n_ = n;
    next_ = 0;
    // About four chunks a thread: small enough to even out slow resets.
    chunk_ = std::max(1, n / (4 * size()));
    error_ = nullptr;
    if (!workers_.empty()) ++generation_;
  }
  start_.notify_all();
  run_chunks();
  std::exception_ptr error;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return busy_ == 0 && next_ >= n_; });
    error = error_;
    body_ = nullptr;
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace cule
