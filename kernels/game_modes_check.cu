// Compiles kernels/game_modes.hpp as device code: a kernel that runs every
// game's mode selection over a device-side context, so the CUDA build fails
// where that header stops being device-compatible. Nothing launches it.
#include <cstdint>

#include "kernels/game_modes.hpp"

namespace cule::kernels {
namespace {

// A stand-in console: RAM in device memory, presses and acts counted.
struct DeviceModeContext {
  const uint8_t* ram;
  uint32_t rng;
  int calls;

  __device__ uint8_t read_ram(uint16_t address) { return ram[address & 0x7F]; }
  __device__ uint8_t read_mapped(uint16_t address) { return ram[address & 0x7F]; }
  __device__ void press_select(int frames) { calls += frames; }
  __device__ void soft_reset() { ++calls; }
  __device__ void act(int action) { calls += action; }
  __device__ uint32_t env_rng_next() { return rng = rng * 1664525u + 1013904223u; }
};

}  // namespace

//! Thread i selects game i's default mode on `ram` and writes its status,
//! the number of calls and its starting actions' count and last action.
__global__ void check_game_set_mode(const uint8_t* ram, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kNumGames) return;
  const Game game = static_cast<Game>(i);
  DeviceModeContext ctx{ram, uint32_t(i), 0};
  const ModeStatus status = game_set_mode(game, game_default_mode(game), ctx);
  const int count = game_starting_action_count(game);
  out[4 * i] = int(status) + (game_overrides_set_mode(game) ? 16 : 0);
  out[4 * i + 1] = ctx.calls;
  out[4 * i + 2] = count;
  out[4 * i + 3] = game_starting_action(game, count - 1);
}

}  // namespace cule::kernels
