// Launchers for a batch of environments on a CUDA device: one thread per
// environment, each running kernels/env_step.hpp, the code the CPU backend
// runs. Every pointer is device memory; nothing waits for the device.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/env_step.hpp"

namespace cule::kernels {

//! cudaSuccess where the current device can run these kernels: the build
//! holds machine code or PTX for it (CMAKE_CUDA_ARCHITECTURES).
cudaError_t env_kernels_status();

//! Both run environments [first, first + count) of the batch, which play the
//! game of `setup` (a batch of several games launches once per game).
//!
//! Resets the environments where mask[i] != 0 (all when mask is null);
//! where seeds is not null, rebuilds each from `constructed` (state and
//! frame buffers) with seeds[i] first. A mode selection that fails sets its
//! bit of *errors (kErrorModeSelection, kErrorModeGaveUp).
void launch_env_reset(const EnvSetup& setup, const EnvBatch& batch, const uint8_t* mask,
                      const uint64_t* seeds, const AleConsole* constructed,
                      const uint8_t* constructed_pixels, int mode, int difficulty, uint32_t* errors,
                      int first, int count, cudaStream_t stream);

//! Where a step lists the environments whose reset it left due (see
//! env_step_play), for a second kernel to run: `envs` has room for every
//! environment of the batch.
struct DueResets {
  uint32_t* envs;
  uint32_t* count;
};

//! One step of every environment: a kernel that plays the steps, then one
//! that runs the resets they left due, in warps of their own. `due_resets`
//! is the batch's, like its other buffers: its steps run one at a time. An
//! action outside the action set, or a strength out of range, leaves its
//! environment as it was and sets kErrorBadAction or kErrorBadStrength in
//! *errors. `paddle_strengths` may be null (full strength).
void launch_env_step(const EnvSetup& setup, const EnvBatch& batch, const int32_t* actions,
                     const float* paddle_strengths, uint32_t* errors, DueResets due_resets,
                     int first, int count, cudaStream_t stream);

}  // namespace cule::kernels
