// Launchers for a batch of environments on a CUDA device: one thread per
// environment, each running kernels/env_step.hpp, the code the CPU backend
// runs. Every pointer is device memory; nothing waits for the device.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/env_step.hpp"

namespace cule::kernels {

//! Both run environments [first, first + count) of the batch, which play the
//! game of `setup` (a batch of several games launches once per game).
//!
//! Resets the environments where mask[i] != 0 (all when mask is null);
//! where seeds is not null, rebuilds each from `constructed` (state and
//! frame buffers) with seeds[i] first. A mode selection that never ends sets
//! bit 1 of *errors.
void launch_env_reset(const EnvSetup& setup, const EnvBatch& batch, const uint8_t* mask,
                      const uint64_t* seeds, const AleConsole* constructed,
                      const uint8_t* constructed_pixels, int mode, int difficulty, uint32_t* errors,
                      int first, int count, cudaStream_t stream);

//! One step of every environment. An action outside the action set leaves
//! its environment as it was and sets bit 0 of *errors. `paddle_strengths`
//! may be null (full strength).
void launch_env_step(const EnvSetup& setup, const EnvBatch& batch, const int32_t* actions,
                     const float* paddle_strengths, uint32_t* errors, int first, int count,
                     cudaStream_t stream);

}  // namespace cule::kernels
