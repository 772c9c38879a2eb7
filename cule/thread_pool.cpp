#include "cule/thread_pool.hpp"

#include <algorithm>

namespace cule {

ThreadPool::ThreadPool(int threads) {
  if (threads <= 0) threads = int(std::max(1u, std::thread::hardware_concurrency()));
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(0); });
}

ThreadPool::~ThreadPool() {
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
