// Host helpers for the CUDA runtime: error checks and device allocations.
// Only for sources compiled when cule is built with CUDA.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "cule/error.hpp"

namespace cule {

// The architectures the library's kernels were compiled for (CMakeLists.txt).
#ifndef CULE_CUDA_ARCHITECTURES
#define CULE_CUDA_ARCHITECTURES "(not recorded)"
#endif

//! Throws cule::DeviceError naming `what` when a CUDA call failed; where
//! the build has no code for the current device, the message says how to
//! build for it.
inline void check_cuda(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // the runtime's last error, so that no later check reports it again
  int device = 0;
  cudaDeviceProp properties{};
  if ((status == cudaErrorNoKernelImageForDevice || status == cudaErrorInvalidDeviceFunction) &&
      cudaGetDevice(&device) == cudaSuccess &&
      cudaGetDeviceProperties(&properties, device) == cudaSuccess) {
    throw DeviceError(no_code_for_device_message(device, properties.name, properties.major,
                                                 properties.minor, CULE_CUDA_ARCHITECTURES) +
                      " [CUDA: " + what + ": " + cudaGetErrorString(status) + "]");
  }
  throw DeviceError(std::string("CUDA: ") + what + " failed: " + cudaGetErrorString(status));
}

//! A device allocation of `count` T, freed on every path out of its scope.
template <class T>
struct DeviceArray {
  T* data = nullptr;
  explicit DeviceArray(size_t count) {
    check_cuda(cudaMalloc(reinterpret_cast<void**>(&data), count * sizeof(T)), "cudaMalloc");
  }
  ~DeviceArray() { cudaFree(data); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& other) noexcept : data(other.data) { other.data = nullptr; }
  DeviceArray& operator=(DeviceArray&&) = delete;
};

}  // namespace cule
