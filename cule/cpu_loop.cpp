// One of the host's CPU loops (console_run_instructions, kernels/console.hpp):
// the loop for the cartridge scheme CULE_CPU_LOOP_MAPPER names. Each loop
// takes a minute or more to compile (the CPU's 256 opcodes with the bus
// inlined into each), so CMakeLists.txt compiles this file once per loop,
// and the loops compile in parallel.
#include "kernels/console.hpp"

#ifndef CULE_CPU_LOOP_MAPPER
#error "CULE_CPU_LOOP_MAPPER names the loop's scheme: int(Mapper::k2K), ..., or kAnyMapper"
#endif

namespace cule {

CULE_HOST_CPU_LOOP(, CULE_CPU_LOOP_MAPPER)

}  // namespace cule
