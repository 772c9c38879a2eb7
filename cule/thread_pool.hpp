// A fixed set of worker threads that run one parallel loop at a time.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cule {

//! The hardware threads (at least 1).
int hardware_threads();
//! Lets `thread` run only on core `core`: the core-th (modulo their count)
//! of the CPUs the process may run on (Linux; elsewhere nothing is done).
//! Throws cule::Error when the system refuses.
void pin_to_core(std::thread& thread, int core);

class ThreadPool {
 public:
  //! `threads` workers in all, the calling thread counted (0: one per
  //! hardware thread). With affinity_offset >= 0, worker t (the caller
  //! being worker 0, left where its owner put it) is pinned to core
  //! affinity_offset + t.
  explicit ThreadPool(int threads = 0, int affinity_offset = -1);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return int(workers_.size()) + 1; }

  //! Calls body(i) for every i in [0, n), spread over the workers in chunks
  //! taken in turn; returns when all are done. The first exception a body
  //! throws is rethrown here, after the others have finished.
  void parallel_for(int n, const std::function<void(int)>& body);

 private:
  // Ends and joins the workers.
  void stop();
  void work(uint64_t generation_seen);
  void run_chunks();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  uint64_t generation_ = 0;
  bool stopping_ = false;
  int busy_ = 0;
  // The loop under way.
  const std::function<void(int)>* body_ = nullptr;
  int n_ = 0, chunk_ = 1, next_ = 0;
  std::exception_ptr error_;
};

}  // namespace cule
