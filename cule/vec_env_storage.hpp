// Where a VecEnv's batch lives and who runs it: the interface between
// cule::VecEnv (options, validation, snapshots) and its backends. Both run
// the environments' logic of kernels/env_step.hpp; a backend only decides
// where the buffers are and which threads call it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cule/console.hpp"
#include "cule/thread_pool.hpp"
#include "cule/vec_env.hpp"
#include "kernels/env_step.hpp"

namespace cule {

class VecEnv::Storage {
 public:
  virtual ~Storage() = default;

  //! The buffers (host or device pointers), fixed for the storage's life.
  virtual EnvBatch batch() = 0;

  //! Resets the environments where mask[i] != 0 (all when null); those with
  //! a seed (seeds[i], one per environment, or null for none) are rebuilt
  //! from the ROM with it first, with `mode` and `difficulty` (-1: default).
  //! Returns the worst mode-selection status met (CUDA: ok; it reports
  //! through check_errors).
  virtual ModeStatus reset(const uint8_t* mask, const uint64_t* seeds, int mode, int difficulty,
                           void* stream) = 0;

  //! One step of every environment. `device_pointers`: the arrays are in the
  //! storage's memory (else host memory, already validated).
  virtual ModeStatus step(const int32_t* actions, const float* paddle_strengths,
                          bool device_pointers, void* stream) = 0;

  //! One environment's reset (rebuilt with *seed first when given) or step,
  //! on the calling thread; calls for different environments may run at
  //! once. CPU only (AsyncVecEnv's tasks).
  virtual ModeStatus reset_one(int i, const uint64_t* seed, int mode, int difficulty) = 0;
  virtual ModeStatus step_one(int i, int32_t action, float paddle_strength) = 0;

  //! Copies environment i out of / into the batch (host copies).
  virtual void read(int i, Snapshot::Env& out) const = 0;
  virtual void write(int i, const Snapshot::Env& in) = 0;

  //! Host copies of environment i's current screen and RAM.
  virtual const uint8_t* screen(int i) = 0;
  virtual const uint8_t* ram(int i) = 0;

  //! Waits for queued work; the errors the device met since the last call
  //! (kErrorBadAction and its kin, kernels/env_step.hpp), then clears them.
  virtual uint32_t check_errors() = 0;
  virtual void synchronize() = 0;
  //! Copies from the storage's memory to the host, after queued work.
  virtual void copy_to_host(const void* from, void* to, size_t bytes) = 0;
  //! Work queued on `consumer` after this waits for the resets and steps
  //! queued so far.
  virtual void order_before(void* consumer) = 0;
};

//! The CPU backend: host vectors, stepped on `pool`.
std::unique_ptr<VecEnv::Storage> make_cpu_storage(const std::vector<VecEnv::Game>& games,
                                                  int num_envs, ThreadPool& pool);

//! The CUDA backend on device `device`: every buffer, and each game's ROM and
//! consoles' starting state, in device memory. Throws cule::DeviceError when
//! the build has no CUDA or the device is missing.
std::unique_ptr<VecEnv::Storage> make_cuda_storage(const std::vector<VecEnv::Game>& games,
                                                   int num_envs, int device);

}  // namespace cule
