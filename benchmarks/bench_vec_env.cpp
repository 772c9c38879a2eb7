// Frames per second of cule::VecEnv at several batch sizes, on the CPU
// threads and (where present) a CUDA device, in one run: Atari preprocessing
// as AtariVectorEnv's defaults with v5's sticky actions (frame skip 4, sticky
// actions 0.25, 84 x 84 grayscale, a stack of 4), random actions.
//
//   bench_vec_env ROM [--cpu-envs N] [--seconds S] [--envs 1024,4096,...] [--full-resets]
//                     [--reset-every W]
//
// Each row times as many steps as fill about S seconds (default 3), after
// three warm-up steps, then a reset of one environment: on the GPU, where
// one thread runs it, a step in which an episode ends takes at least that
// long. --full-resets runs ALE's whole reset every time, not a copy of its
// result (EnvConfig::run_full_resets), to compare. --cpu-envs 0 skips the
// CPU row.
//
// --reset-every W times steps at a steady rate of episode ends: episodes
// are truncated after W steps, and W steps before the timing reset the
// environments i with i % W == t at step t, so that in every timed step a
// W-th of the batch ends its episode and resets within the step (plus the
// games' own ends). Without it the timed steps follow the batch's reset, and
// few episodes end in them.
//
// Frames are emulated frames (steps x frame skip), the unit the field's
// figures use; frames/hour is frames/second x 3600.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cule/cule.hpp"
#include "cule/vec_env.hpp"

#ifdef CULE_WITH_CUDA
#include <cuda_runtime.h>
#endif

namespace {

struct Result {
  double frames_per_second;
  double step_seconds;   // one step of the whole batch
  double reset_seconds;  // a reset of one environment of the batch
  double bytes_per_env;  // device memory (CUDA only)
};

std::vector<int> parse_list(const char* text) {
  std::vector<int> values;
  for (const char* p = text; *p;) {
    values.push_back(std::atoi(p));
    while (*p && *p != ',') ++p;
    if (*p == ',') ++p;
  }
  return values;
}

size_t free_device_bytes() {
#ifdef CULE_WITH_CUDA
  size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  return free_bytes;
#else
  return 0;
#endif
}

Result measure(const cule::Rom& rom, cule::Device device, int num_envs, double seconds_wanted,
               bool full_resets, int reset_every) {
  cule::EnvConfig config;
  config.num_envs = num_envs;
  config.run_full_resets = full_resets;
  if (reset_every > 0) config.max_num_frames_per_episode = reset_every * config.frameskip;
  config.device = device;
  config.repeat_action_probability = 0.25f;
  const bool cuda = device.kind == cule::Device::Kind::cuda;
  const size_t free_before = cuda ? free_device_bytes() : 0;
  cule::VecEnv env(rom, config);
  env.synchronize();
  const size_t free_after = cuda ? free_device_bytes() : 0;
  std::mt19937 rng(1);
  std::vector<int32_t> actions(static_cast<size_t>(num_envs));
  auto run = [&](int steps) {
    const auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < steps; ++t) {
      for (int32_t& a : actions) a = int32_t(rng() % env.action_set().size());
      env.step(actions.data());
    }
    env.synchronize();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  std::vector<uint8_t> mask(static_cast<size_t>(num_envs), 0);
  for (int t = 0; t < reset_every; ++t) {
    for (int i = 0; i < num_envs; ++i) mask[size_t(i)] = i % reset_every == t;
    env.reset(mask.data());
    run(1);
  }
  // Warm-up steps (first launches, caches) tell how many steps fill the time.
  const double warm = run(3) / 3;
  const int steps = std::max(3, std::min(2000, int(seconds_wanted / std::max(warm, 1e-6))));
  const double seconds = run(steps);
  // An episode's end resets within the step: a copy of the reset's result
  // or ALE's whole reset (some 70 frames), and the no-ops.
  std::fill(mask.begin(), mask.end(), 0);
  mask[0] = 1;
  const auto reset_start = std::chrono::steady_clock::now();
  env.reset(mask.data());
  env.synchronize();
  const double reset_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - reset_start).count();
  env.check_device_errors();
  const double frames = double(num_envs) * steps * config.frameskip;
  return {frames / seconds, seconds / steps, reset_seconds,
          cuda ? double(free_before - free_after) / num_envs : 0.0};
}

void row(const char* backend, int envs, const Result& r) {
  std::printf("| %s | %d | %.4g | %.4g | %.4g | %.4g |", backend, envs, r.frames_per_second,
              r.frames_per_second * 3600.0, r.step_seconds * 1e3, r.reset_seconds * 1e3);
  if (r.bytes_per_env > 0) {
    std::printf(" %.1f KiB |\n", r.bytes_per_env / 1024.0);
  } else {
    std::printf(" - |\n");
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s ROM [--cpu-envs N] [--seconds S] [--envs 1024,4096,...] "
                 "[--full-resets] [--reset-every W]\n",
                 argv[0]);
    return 2;
  }
  int cpu_envs = 64;
  double seconds = 3.0;
  std::vector<int> gpu_envs = {1024, 4096, 16384, 65536};
  bool full_resets = false;
  int reset_every = 0;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--full-resets")) {
      full_resets = true;
      continue;
    }
    if (i + 1 == argc) break;
    if (!std::strcmp(argv[i], "--cpu-envs")) cpu_envs = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--seconds")) seconds = std::atof(argv[i + 1]);
    if (!std::strcmp(argv[i], "--envs")) gpu_envs = parse_list(argv[i + 1]);
    if (!std::strcmp(argv[i], "--reset-every")) reset_every = std::atoi(argv[i + 1]);
    ++i;
  }
  try {
    const cule::Rom rom = cule::Rom::load(argv[1]);
    std::printf("%s: frame skip 4, sticky 0.25, 84x84 grayscale, stack 4, random actions%s",
                rom.name().c_str(), full_resets ? ", full resets" : "");
    if (reset_every > 0)
      std::printf(", a W-th of the batch resetting in each step, W = %d", reset_every);
    std::printf("\n\n");
    std::printf(
        "| backend | envs | frames/s | frames/hour | step ms | one env's reset ms | device "
        "memory per env |\n");
    std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    if (cpu_envs > 0) {
      row("cpu (all cores)", cpu_envs,
          measure(rom, cule::Device::cpu(), cpu_envs, seconds, full_resets, reset_every));
    }
    if (cule::cuda_device_count() == 0) {
      std::printf("\n(no CUDA device: GPU rows skipped)\n");
      return 0;
    }
    {
      // The device's one-time set-up (context, stack reservation) is not
      // any batch's memory.
      cule::EnvConfig warm_up;
      warm_up.device = cule::Device::cuda(0);
      cule::VecEnv env(rom, warm_up);
    }
    for (int n : gpu_envs)
      row("cuda:0", n, measure(rom, cule::Device::cuda(0), n, seconds, full_resets, reset_every));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_vec_env: %s\n", e.what());
    return 1;
  }
  return 0;
}
