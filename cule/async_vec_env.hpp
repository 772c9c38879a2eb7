// Asynchronous batches, as EnvPool's and AtariVectorEnv's batch_size <
// num_envs: each environment's reset or step is a task of its own on the
// worker threads, and recv() returns the first batch_size environments to
// finish, whichever they are. send() then gives actions to those same
// environments, while the others are still running.
//
//   config.batch_size = 8;  // of config.num_envs = 32
//   cule::AsyncVecEnv env(cule::Rom::load("pong.bin"), config);
//   env.reset();                       // resets all 32; receives the first 8
//   for (;;) {
//     // env.env_ids()[k] is the environment of row k of every buffer
//     env.send(actions);               // 8 actions, for env_ids() in order
//     env.recv();
//   }
//
// Which environments a batch holds depends on the threads' timing; each
// environment's own results do not: they are what cule::VecEnv gives for the
// same actions. CPU only.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "cule/env_config.hpp"
#include "cule/host_outputs.hpp"
#include "cule/rom.hpp"
#include "cule/vec_env.hpp"

namespace cule {

class AsyncVecEnv {
 public:
  //! As VecEnv's constructors; config.batch_size (0: num_envs) rows per
  //! batch, config.num_threads worker threads besides the caller's (0: one
  //! per hardware thread, at most batch_size), pinned to cores from
  //! config.thread_affinity_offset on when it is not -1. Throws cule::Error
  //! for a CUDA device or autoreset mode Disabled (no reset(mask) to start
  //! the next episode).
  AsyncVecEnv(const Rom& rom, const EnvConfig& config);
  AsyncVecEnv(const std::vector<Rom>& roms, const EnvConfig& config);
  ~AsyncVecEnv();
  AsyncVecEnv(const AsyncVecEnv&) = delete;
  AsyncVecEnv& operator=(const AsyncVecEnv&) = delete;

  //! The environments, num_envs of them, with their own (num_envs-row)
  //! buffers, screens and RAM. Between recv() and send() those of the batch
  //! (env_ids()) may be read; the others are running.
  const VecEnv& envs() const { return envs_; }
  int num_envs() const { return envs_.num_envs(); }
  int batch_size() const { return batch_size_; }
  int num_threads() const { return int(workers_.size()); }

  //! Waits for every task under way, dropping its results (AtariVectorEnv
  //! returns them in later batches) and errors, then starts new episodes in
  //! all the environments (rebuilt from the ROM with seeds[i] when given,
  //! one per environment) and receives the first batch_size of them.
  void reset(const uint64_t* seeds = nullptr);
  //! Starts a step of each environment of the last batch received:
  //! actions[k] (and paddle_strengths[k]) for env_ids()[k]. Throws
  //! cule::Error, before anything runs, for a bad action or when the last
  //! batch was already sent.
  void send(const int32_t* actions, const float* paddle_strengths = nullptr);
  //! Waits for the next batch_size environments to finish their reset or
  //! step and gathers their results into the buffers; rethrows what a task
  //! threw. Throws cule::Error when the last batch received was not sent.
  void recv();

  // The batch, batch_size rows each: row k is environment env_ids()[k].
  const int32_t* env_ids() const { return env_ids_.data(); }
  const uint8_t* observations() const { return batch_.observations.data(); }
  //! For AutoresetMode::same_step: row k's final observation where
  //! autoreset()[k] (other rows are stale).
  const uint8_t* final_observations() const { return batch_.final_observations.data(); }
  const float* rewards() const { return batch_.rewards.data(); }
  const uint8_t* terminated() const { return batch_.terminated.data(); }
  const uint8_t* truncated() const { return batch_.truncated.data(); }
  const uint8_t* autoreset() const { return batch_.autoreset.data(); }
  const int32_t* lives() const { return batch_.lives.data(); }
  const int32_t* episode_frame_numbers() const { return batch_.episode_frames.data(); }
  const int64_t* frame_numbers() const { return batch_.frame_numbers.data(); }
  const float* episode_returns() const { return batch_.episode_returns.data(); }
  const int32_t* episode_lengths() const { return batch_.episode_lengths.data(); }

 private:
  struct Task {
    int env;
    bool reset;
    bool seeded;
    uint64_t seed;
  };
  void work();
  // Ends and joins the workers (a task under way finishes first).
  void stop();
  // Queues tasks and wakes the workers.
  void start(const std::vector<Task>& tasks);
  // Copies environment rows into the batch's row k.
  void gather(int k, int env);

  VecEnv envs_;
  const int batch_size_;
  std::vector<int32_t> actions_;  // per environment: its action under way
  std::vector<float> strengths_;

  std::mutex mutex_;
  std::condition_variable task_ready_, task_done_;
  std::deque<Task> queue_;
  std::deque<int> done_;   // environments finished, not yet received
  int in_flight_ = 0;      // tasks queued or running, not yet done
  bool sendable_ = false;  // the last batch received was not sent yet
  bool stopping_ = false;
  std::exception_ptr error_;  // the first a task threw since the last recv
  std::vector<std::thread> workers_;

  std::vector<int32_t> received_;  // the environments of the last batch received
  std::vector<int32_t> env_ids_;   // a copy of them for the caller
  HostOutputs batch_;              // the rows received
};

}  // namespace cule
