// Host side of the CUDA flat-RAM machines: device memory, copies, errors.
#include <cuda_runtime.h>

#include <string>

#include "cule/cuda_memory.hpp"
#include "cule/error.hpp"
#include "cule/flat_machine.hpp"
#include "kernels/flat_machine.cuh"

namespace cule {

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no driver" error
    return 0;
  }
  return count;
}

std::vector<CpuRunResult> run_flat_machines_cuda(const FlatMachine& machine, uint16_t start_pc,
                                                 uint64_t max_instructions, int copies,
                                                 const CudaRunOptions& options) {
  const int device = options.device;
  const int devices = cuda_device_count();
  if (device < 0 || device >= devices) {
    throw DeviceError("device: CUDA device " + std::to_string(device) + " is not available (" +
                      std::to_string(devices) + " device(s) found)");
  }
  if (copies <= 0) {
    throw Error("copies: expected a positive count, got " + std::to_string(copies));
  }
  check_cuda(cudaSetDevice(device), "cudaSetDevice");

  const size_t n = static_cast<size_t>(copies);
  std::vector<uint8_t> memories(n * FlatMachine::kMemorySize);
  std::vector<Cpu> cpus(n, machine.cpu());
  for (size_t i = 0; i < n; ++i) {
    std::copy(machine.memory().begin(), machine.memory().end(),
              memories.begin() + i * FlatMachine::kMemorySize);
    cpus[i].PC = start_pc;
  }

  DeviceArray<uint8_t> d_memories(memories.size());
  DeviceArray<Cpu> d_cpus(n);
  DeviceArray<CpuRunResult> d_results(n);
  check_cuda(cudaMemcpy(d_memories.data, memories.data(), memories.size(), cudaMemcpyHostToDevice),
             "copy of memories to the device");
  check_cuda(cudaMemcpy(d_cpus.data, cpus.data(), n * sizeof(Cpu), cudaMemcpyHostToDevice),
             "copy of CPU states to the device");
  cudaEvent_t start, stop;
  check_cuda(cudaEventCreate(&start), "cudaEventCreate");
  check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
  check_cuda(cudaEventRecord(start), "cudaEventRecord");
  kernels::launch_flat_machines(d_memories.data, d_cpus.data, d_results.data, max_instructions,
                                copies, nullptr);
  check_cuda(cudaGetLastError(), "kernel launch");
  check_cuda(cudaEventRecord(stop), "cudaEventRecord");
  check_cuda(cudaEventSynchronize(stop), "kernel run");
  float milliseconds = 0;
  check_cuda(cudaEventElapsedTime(&milliseconds, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (options.kernel_milliseconds) *options.kernel_milliseconds = milliseconds;

  std::vector<CpuRunResult> results(n);
  check_cuda(
      cudaMemcpy(results.data(), d_results.data, n * sizeof(CpuRunResult), cudaMemcpyDeviceToHost),
      "copy of results to the host");
  if (options.final_memory) {
    options.final_memory->resize(memories.size());
    check_cuda(cudaMemcpy(options.final_memory->data(), d_memories.data, memories.size(),
                          cudaMemcpyDeviceToHost),
               "copy of memories to the host");
  }
  return results;
}

}  // namespace cule
