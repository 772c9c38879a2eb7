// A batch of Atari environments in C++, played by random actions: frames
// per second and the episodes finished.
//
//   random_agent ROM [num_envs] [steps] [cpu|cuda]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "cule/cule.hpp"
#include "cule/vec_env.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s ROM [num_envs] [steps] [cpu|cuda]\n", argv[0]);
    return 2;
  }
  cule::EnvConfig config;  // AtariVectorEnv's defaults: 84x84 grayscale, frame skip 4, stack 4
  config.num_envs = argc > 2 ? std::atoi(argv[2]) : 16;
  const int steps = argc > 3 ? std::atoi(argv[3]) : 500;
  if (argc > 4 && !std::strcmp(argv[4], "cuda")) config.device = cule::Device::cuda(0);
  config.repeat_action_probability = 0.25f;
  try {
    cule::VecEnv env(cule::Rom::load(argv[1]), config);
    std::mt19937 rng(0);
    std::vector<int32_t> actions(static_cast<size_t>(config.num_envs));
    std::vector<uint8_t> terminated(actions.size()), truncated(actions.size());
    int episodes = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < steps; ++t) {
      for (int32_t& a : actions) a = int32_t(rng() % env.action_set().size());
      env.step(actions.data());
      // Buffers are in the device's memory: copy the flags to count episodes.
      env.copy_to_host(env.terminated(), terminated.data(), terminated.size());
      env.copy_to_host(env.truncated(), truncated.data(), truncated.size());
      for (size_t i = 0; i < actions.size(); ++i) episodes += terminated[i] || truncated[i];
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double frames = double(config.num_envs) * steps * config.frameskip;
    std::printf("%s: %d envs x %d steps on %s: %.0f frames/s, %d episodes ended\n",
                env.game().c_str(), config.num_envs, steps,
                config.device.kind == cule::Device::Kind::cpu ? "cpu" : "cuda", frames / seconds,
                episodes);
  } catch (const cule::Error& e) {
    std::fprintf(stderr, "random_agent: %s\n", e.what());
    return 1;
  }
  return 0;
}
