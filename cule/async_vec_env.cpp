#include "cule/async_vec_env.hpp"

#include <algorithm>
#include <string>

#include "cule/error.hpp"
#include "cule/thread_pool.hpp"

namespace cule {
namespace {

// The VecEnv under the batches, stepped one environment at a time by the
// batches' own workers: its pool would only build it, so it has none (the
// calling thread alone).
EnvConfig environments_config(const EnvConfig& config) {
  config.validate();
  if (config.device.kind != Device::Kind::cpu) {
    throw Error("batch_size: asynchronous batches (batch_size " +
                std::to_string(config.batch_size) + " of " + std::to_string(config.num_envs) +
                " environments) run on CPU threads; a CUDA device steps every environment at "
                "once (leave batch_size 0)");
  }
  if (config.autoreset_mode == AutoresetMode::disabled) {
    throw Error(
        "autoreset_mode: Disabled leaves ended episodes to reset(mask), which asynchronous "
        "batches do not have; expected NextStep or SameStep");
  }
  EnvConfig envs = config;
  envs.batch_size = 0;
  envs.num_threads = 1;
  envs.thread_affinity_offset = -1;
  return envs;
}

}  // namespace

AsyncVecEnv::AsyncVecEnv(const Rom& rom, const EnvConfig& config)
    : AsyncVecEnv(std::vector<Rom>{rom}, config) {}

AsyncVecEnv::AsyncVecEnv(const std::vector<Rom>& roms, const EnvConfig& config)
    : envs_(roms, environments_config(config)),
      batch_size_(config.batch_size > 0 ? config.batch_size : config.num_envs),
      batch_(size_t(batch_size_), size_t(envs_.observation_bytes()),
             config.autoreset_mode == AutoresetMode::same_step) {
  actions_.assign(size_t(num_envs()), 0);
  strengths_.assign(size_t(num_envs()), 1.0f);
  received_.assign(size_t(batch_size_), 0);
  env_ids_.assign(size_t(batch_size_), 0);

  // As AtariVectorEnv's default: no more workers than a batch has rows.
  const int threads =
      config.num_threads > 0 ? config.num_threads : std::min(batch_size_, hardware_threads());
  try {
    for (int t = 0; t < threads; ++t) {
      workers_.emplace_back([this] { work(); });
      if (config.thread_affinity_offset >= 0) {
        pin_to_core(workers_.back(), config.thread_affinity_offset + t);
      }
    }
  } catch (...) {
    stop();
    throw;
  }
  // The environments start as VecEnv built them: every one is a batch row
  // to come.
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int i = 0; i < num_envs(); ++i) done_.push_back(i);
  }
  recv();
}

AsyncVecEnv::~AsyncVecEnv() { stop(); }

void AsyncVecEnv::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  task_ready_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void AsyncVecEnv::work() {
  for (;;) {
    Task task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      task_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      task = queue_.front();
      queue_.pop_front();
    }
    std::exception_ptr error;
    try {
      const size_t i = size_t(task.env);
      if (task.reset) {
        envs_.reset_env(task.env, task.seeded ? &task.seed : nullptr);
      } else {
        envs_.step_env(task.env, actions_[i], strengths_[i]);
      }
    } catch (...) {
      error = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (error && !error_) error_ = error;
      --in_flight_;
      done_.push_back(task.env);
    }
    task_done_.notify_all();
  }
}

void AsyncVecEnv::start(const std::vector<Task>& tasks) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.insert(queue_.end(), tasks.begin(), tasks.end());
    in_flight_ += int(tasks.size());
  }
  task_ready_.notify_all();
}

void AsyncVecEnv::reset(const uint64_t* seeds) {
  {
    // The tasks under way finish; their results (and errors) are dropped.
    std::unique_lock<std::mutex> lock(mutex_);
    task_done_.wait(lock, [&] { return in_flight_ == 0; });
    done_.clear();
    error_ = nullptr;
    sendable_ = false;
  }
  std::vector<Task> tasks(static_cast<size_t>(num_envs()));
  for (int i = 0; i < num_envs(); ++i) {
    tasks[size_t(i)] = Task{i, true, seeds != nullptr, seeds ? seeds[i] : 0};
  }
  start(tasks);
  recv();
}

void AsyncVecEnv::send(const int32_t* actions, const float* paddle_strengths) {
  if (!sendable_) {
    throw Error("send: the last batch received was already sent; call recv() first");
  }
  envs_.check_actions(actions, paddle_strengths, batch_size_);
  std::vector<Task> tasks(static_cast<size_t>(batch_size_));
  for (int k = 0; k < batch_size_; ++k) {
    const int env = received_[size_t(k)];
    actions_[size_t(env)] = actions[k];
    strengths_[size_t(env)] = paddle_strengths ? paddle_strengths[k] : 1.0f;
    tasks[size_t(k)] = Task{env, false, false, 0};
  }
  sendable_ = false;
  start(tasks);
}

void AsyncVecEnv::recv() {
  // The environments of a batch received and not sent would wait for ever,
  // and fewer than batch_size of the others might be left to finish.
  if (sendable_) throw Error("recv: the last batch received was not sent; call send() first");
  std::exception_ptr error;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    task_done_.wait(lock, [&] { return int(done_.size()) >= batch_size_; });
    for (int k = 0; k < batch_size_; ++k) {
      received_[size_t(k)] = done_.front();
      done_.pop_front();
    }
    error = error_;
    error_ = nullptr;
  }
  // The batch's environments are the caller's until send(): no worker
  // writes their rows meanwhile. env_ids() is a copy, so that a caller
  // writing into it cannot send steps to the wrong environments.
  for (int k = 0; k < batch_size_; ++k) gather(k, received_[size_t(k)]);
  std::copy(received_.begin(), received_.end(), env_ids_.begin());
  sendable_ = true;
  if (error) std::rethrow_exception(error);
}

void AsyncVecEnv::gather(int k, int env) {
  const size_t row = size_t(k), i = size_t(env);
  const size_t obs_bytes = size_t(envs_.observation_bytes());
  std::copy_n(envs_.observations() + i * obs_bytes, obs_bytes,
              batch_.observations.begin() + int64_t(row * obs_bytes));
  if (!batch_.final_observations.empty() && envs_.autoreset()[i]) {
    std::copy_n(envs_.final_observations() + i * obs_bytes, obs_bytes,
                batch_.final_observations.begin() + int64_t(row * obs_bytes));
  }
  batch_.rewards[row] = envs_.rewards()[i];
  batch_.terminated[row] = envs_.terminated()[i];
  batch_.truncated[row] = envs_.truncated()[i];
  batch_.autoreset[row] = envs_.autoreset()[i];
  batch_.lives[row] = envs_.lives()[i];
  batch_.episode_frames[row] = envs_.episode_frame_numbers()[i];
  batch_.frame_numbers[row] = envs_.frame_numbers()[i];
  batch_.episode_returns[row] = envs_.episode_returns()[i];
  batch_.episode_lengths[row] = envs_.episode_lengths()[i];
}

}  // namespace cule
