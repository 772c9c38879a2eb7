#include "kernels/console_frames.cuh"

namespace cule::kernels {

__global__ void run_console_frames(ConsoleState* states, ConsoleConfig config, uint8_t* pixels,
                                   uint32_t frame_size, const ConsoleInputs* inputs, int frames,
                                   int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const FrameBuffers buffers{pixels + size_t(i) * 2 * frame_size, frame_size};
  const ConsoleInputs input = inputs[i];
  for (int f = 0; f < frames; ++f) console_run_frame(states[i], config, buffers, input);
}

void launch_console_frames(ConsoleState* states, const ConsoleConfig& config, uint8_t* pixels,
                           uint32_t frame_size, const ConsoleInputs* inputs, int frames, int count,
                           cudaStream_t stream) {
  constexpr int kThreadsPerBlock = 64;
  const int blocks = (count + kThreadsPerBlock - 1) / kThreadsPerBlock;
  run_console_frames<<<blocks, kThreadsPerBlock, 0, stream>>>(states, config, pixels, frame_size,
                                                              inputs, frames, count);
}

}  // namespace cule::kernels
