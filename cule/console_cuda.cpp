// Host side of consoles on a CUDA device: device memory, copies, errors.
#include "cule/console_cuda.hpp"

#include "cule/error.hpp"
#include "cule/flat_machine.hpp"

#ifdef CULE_WITH_CUDA
#include <cuda_runtime.h>

#include "cule/cuda_memory.hpp"
#include "kernels/console_frames.cuh"
#endif

namespace cule {

#ifdef CULE_WITH_CUDA

CudaConsoleFrames run_console_frames_cuda(const Console& console, const Console::Snapshot& snapshot,
                                          const ConsoleInputs& inputs, int frames, int copies,
                                          int device) {
  const int devices = cuda_device_count();
  if (device < 0 || device >= devices) {
    throw DeviceError("device: CUDA device " + std::to_string(device) + " is not available (" +
                      std::to_string(devices) + " device(s) found)");
  }
  if (copies <= 0 || frames < 0) {
    throw Error("copies, frames: expected copies > 0 and frames >= 0, got " +
                std::to_string(copies) + " and " + std::to_string(frames));
  }
  check_cuda(cudaSetDevice(device), "cudaSetDevice");
  const size_t n = size_t(copies);
  const uint32_t frame_size = uint32_t(snapshot.frames.size() / 2);

  const PredecodedRom& rom = console.predecoded_rom();
  DeviceArray<PredecodedCode> d_rom(rom.memory.size());
  DeviceArray<ConsoleState> d_states(n);
  DeviceArray<ConsoleInputs> d_inputs(n);
  DeviceArray<uint8_t> d_pixels(n * snapshot.frames.size());
  check_cuda(cudaMemcpy(d_rom.data, rom.memory.data(), rom.bytes(), cudaMemcpyHostToDevice),
             "ROM copy");
  const std::vector<ConsoleState> states(n, snapshot.state.machine);
  const std::vector<ConsoleInputs> all_inputs(n, inputs);
  check_cuda(
      cudaMemcpy(d_states.data, states.data(), n * sizeof(ConsoleState), cudaMemcpyHostToDevice),
      "state copy");
  check_cuda(cudaMemcpy(d_inputs.data, all_inputs.data(), n * sizeof(ConsoleInputs),
                        cudaMemcpyHostToDevice),
             "input copy");
  for (size_t i = 0; i < n; ++i) {
    check_cuda(cudaMemcpy(d_pixels.data + i * snapshot.frames.size(), snapshot.frames.data(),
                          snapshot.frames.size(), cudaMemcpyHostToDevice),
               "frame buffer copy");
  }
  ConsoleConfig config = console.config();
  config.rom = rom.image_in(d_rom.data);
  kernels::launch_console_frames(d_states.data, config, d_pixels.data, frame_size, d_inputs.data,
                                 frames, copies, nullptr);
  check_cuda(cudaGetLastError(), "kernel launch");
  check_cuda(cudaDeviceSynchronize(), "kernel run");

  CudaConsoleFrames result{std::vector<ConsoleState>(n),
                           std::vector<uint8_t>(n * snapshot.frames.size())};
  check_cuda(cudaMemcpy(result.states.data(), d_states.data, n * sizeof(ConsoleState),
                        cudaMemcpyDeviceToHost),
             "state copy back");
  check_cuda(
      cudaMemcpy(result.pixels.data(), d_pixels.data, result.pixels.size(), cudaMemcpyDeviceToHost),
      "frame buffer copy back");
  return result;
}

#else

CudaConsoleFrames run_console_frames_cuda(const Console&, const Console::Snapshot&,
                                          const ConsoleInputs&, int, int, int) {
  throw DeviceError("device: cule was built without CUDA (configure with CULE_CUDA=ON and nvcc)");
}

#endif

}  // namespace cule
