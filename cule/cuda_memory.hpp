// Host helpers for the CUDA runtime: error checks and device allocations.
// Only for sources compiled when cule is built with CUDA.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "cule/error.hpp"

namespace cule {

//! Throws cule::DeviceError naming `what` when a CUDA call failed.
inline void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw DeviceError(std::string("CUDA: ") + what + " failed: " + cudaGetErrorString(status));
  }
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
