// CULE_HD marks functions that run on both the host and a CUDA device.
#pragma once

#if defined(__CUDACC__)
#define CULE_HD __host__ __device__
#define CULE_FORCE_INLINE __forceinline__
#define CULE_NOINLINE __noinline__
#else
#define CULE_HD
#define CULE_FORCE_INLINE inline __attribute__((always_inline))
#define CULE_NOINLINE __attribute__((noinline))
#endif
