#include "kernels/env_step.cuh"

namespace cule::kernels {
namespace {

// Consoles are big and branchy: small blocks keep more of them resident.
constexpr int kThreadsPerBlock = 64;
// A step waits on memory and branches more than it computes, and only more
// resident warps hide that: the compiler keeps the step within the registers
// that let this many blocks share an SM (128 a thread), spilling to the L1
// cache beyond. benchmarks/gpu/check.sh --sweep builds other values.
#ifndef CULE_STEP_MIN_BLOCKS_PER_SM
#define CULE_STEP_MIN_BLOCKS_PER_SM 8
#endif
constexpr int kMinBlocksPerSm = CULE_STEP_MIN_BLOCKS_PER_SM;

int blocks_for(int n) { return (n + kThreadsPerBlock - 1) / kThreadsPerBlock; }

__device__ void report(uint32_t* errors, ModeStatus status) {
  if (status != ModeStatus::ok) {
    atomicOr(errors, status == ModeStatus::gave_up ? kErrorModeGaveUp : kErrorModeSelection);
  }
}

// A step's due reset, as the step kernel lists it for the reset kernel.
__device__ uint32_t due_entry(int i, StepReset due) {
  return uint32_t(i) << 1 | (due == StepReset::same_step ? 1u : 0u);
}

__global__ void __launch_bounds__(kThreadsPerBlock, kMinBlocksPerSm)
    env_step_kernel(EnvSetup setup, EnvBatch batch, const int32_t* actions,
                    const float* paddle_strengths, uint32_t* errors, DueResets due_resets,
                    int first, int count) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = first + k;
  if (k >= count) return;
  const int32_t action = actions[i];
  const float strength = paddle_strengths ? paddle_strengths[i] : 1.0f;
  const bool action_in_range = action >= 0 && action < setup.num_actions;
  if (!action_in_range || !paddle_strength_valid(strength)) {
    atomicOr(errors, action_in_range ? kErrorBadStrength : kErrorBadAction);
    return;
  }
  const StepReset due = env_step_play(setup, batch, i, action, strength);
  if (due != StepReset::none) due_resets.envs[atomicAdd(due_resets.count, 1u)] = due_entry(i, due);
}

// The resets of reset(mask, seeds): environments [first, first + count)
// where `mask` allows (all where it is null), each rebuilt first where
// `seeds` is not null.
struct MaskedResets {
  const uint8_t* mask;
  const uint64_t* seeds;
  const AleConsole* constructed;
  const uint8_t* constructed_pixels;
  int mode;
  int difficulty;
  int first;
  int count;
};

// Every reset, one thread each: those a step listed where due_resets.count
// is not null, else `masked`. One kernel for both, as a kernel gets its own
// copy of each function it calls: ptxas compiles the reset, the console's
// frame and its CPU loops once per kernel, the build's longest step. A
// step's resets run after it, so that a warp runs 32 of them rather than
// one among 31 steps. The order of the step's list varies from run to run;
// the environments do not share state, so results do not.
__global__ void env_reset_kernel(EnvSetup setup, EnvBatch batch, MaskedResets masked,
                                 DueResets due_resets, uint32_t* errors) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (due_resets.count) {
    if (k >= *due_resets.count) return;
    const uint32_t entry = due_resets.envs[k];
    const StepReset due = entry & 1 ? StepReset::same_step : StepReset::next_step;
    report(errors, env_step_reset(setup, batch, int(entry >> 1), due));
    return;
  }
  const int i = masked.first + int(k);
  if (k >= uint32_t(masked.count) || (masked.mask && !masked.mask[i])) return;
  if (masked.seeds) {
    report(errors, env_rebuild(setup, batch, i, *masked.constructed, masked.constructed_pixels,
                               masked.seeds[i], masked.mode, masked.difficulty));
  }
  batch.autoreset[i] = 0;
  report(errors, env_reset(setup, batch, i));
}

}  // namespace

cudaError_t env_kernels_status() {
  cudaFuncAttributes attributes;
  return cudaFuncGetAttributes(&attributes, env_step_kernel);
}

void launch_env_reset(const EnvSetup& setup, const EnvBatch& batch, const uint8_t* mask,
                      const uint64_t* seeds, const AleConsole* constructed,
                      const uint8_t* constructed_pixels, int mode, int difficulty, uint32_t* errors,
                      int first, int count, cudaStream_t stream) {
  const MaskedResets masked{mask, seeds,      constructed, constructed_pixels,
                            mode, difficulty, first,       count};
  env_reset_kernel<<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(setup, batch, masked,
                                                                       DueResets{}, errors);
}

void launch_env_step(const EnvSetup& setup, const EnvBatch& batch, const int32_t* actions,
                     const float* paddle_strengths, uint32_t* errors, DueResets due_resets,
                     int first, int count, cudaStream_t stream) {
  cudaMemsetAsync(due_resets.count, 0, sizeof(uint32_t), stream);
  env_step_kernel<<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(
      setup, batch, actions, paddle_strengths, errors, due_resets, first, count);
  env_reset_kernel<<<blocks_for(count), kThreadsPerBlock, 0, stream>>>(setup, batch, MaskedResets{},
                                                                       due_resets, errors);
}

}  // namespace cule::kernels
