// CULE_HD marks functions that run on both the host and a CUDA device.
#pragma once

#if defined(__CUDACC__)
#define CULE_HD __host__ __device__
#define CULE_FORCE_INLINE __forceinline__
#define CULE_NOINLINE __noinline__
#define CULE_DEVICE_NOINLINE inline __noinline__
#define CULE_HOST_INLINE inline __noinline__
#define CULE_HOST_NOINLINE inline
#else
#define CULE_HD
#define CULE_FORCE_INLINE inline __attribute__((always_inline))
#define CULE_NOINLINE __attribute__((noinline))
// Out of line in device code only, where each inlined copy costs registers
// and compile time (the console, the game rules and the reset are called
// from several places of one kernel); inlined on the host, where it is fast.
#define CULE_DEVICE_NOINLINE inline
// Forced inline on the host, out of line on the device: the CPU's accesses
// of the TIA, the RIOT's ports and the cartridge's switching (ConsoleBus),
// inlined into its 256 opcodes on the host where that is fastest; on the
// device, one call each keeps the code small enough to cache.
#define CULE_HOST_INLINE CULE_FORCE_INLINE
// Out of line on the host, where a function of its own gets registers of
// its own (the CPU's loop); inlined on the device.
#define CULE_HOST_NOINLINE CULE_NOINLINE
#endif

// The branch a condition nearly always takes, for the compiler's layout.
#define CULE_LIKELY(condition) __builtin_expect(!!(condition), 1)
