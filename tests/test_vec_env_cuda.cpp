// cule::VecEnv on a CUDA device against the same batch on CPU threads: the
// same seeds, options and actions must give the same bits in every buffer,
// every step, and the same consoles (RAM, CPU registers). Skipped, with a
// message, where no GPU is present (benchmarks/gpu/check.sh runs them).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <vector>

#include "cule/error.hpp"
#include "cule/flat_machine.hpp"
#include "cule/vec_env.hpp"
#include "testdata.hpp"

#ifdef CULE_WITH_CUDA
#include <cuda_runtime.h>
#endif

namespace cule {
namespace {

Rom tetris() { return Rom::load(testing::testdata_path("roms/tetris.bin")); }

template <class T>
std::vector<T> host(VecEnv& env, const T* buffer, size_t count) {
  std::vector<T> out(count);
  env.copy_to_host(buffer, out.data(), count * sizeof(T));
  return out;
}

// Compares every output buffer of the two batches.
void expect_same_outputs(VecEnv& cpu, VecEnv& gpu, int step) {
  SCOPED_TRACE("step " + std::to_string(step));
  const size_t n = size_t(cpu.num_envs());
  const size_t obs = n * size_t(cpu.observation_bytes());
  ASSERT_EQ(std::vector<uint8_t>(cpu.observations(), cpu.observations() + obs),
            host(gpu, gpu.observations(), obs));
  ASSERT_EQ(std::vector<float>(cpu.rewards(), cpu.rewards() + n), host(gpu, gpu.rewards(), n));
  ASSERT_EQ(std::vector<uint8_t>(cpu.terminated(), cpu.terminated() + n),
            host(gpu, gpu.terminated(), n));
  ASSERT_EQ(std::vector<uint8_t>(cpu.truncated(), cpu.truncated() + n),
            host(gpu, gpu.truncated(), n));
  ASSERT_EQ(std::vector<int32_t>(cpu.lives(), cpu.lives() + n), host(gpu, gpu.lives(), n));
  ASSERT_EQ(std::vector<int32_t>(cpu.episode_frame_numbers(), cpu.episode_frame_numbers() + n),
            host(gpu, gpu.episode_frame_numbers(), n));
  ASSERT_EQ(std::vector<int64_t>(cpu.frame_numbers(), cpu.frame_numbers() + n),
            host(gpu, gpu.frame_numbers(), n));
  ASSERT_EQ(std::vector<float>(cpu.episode_returns(), cpu.episode_returns() + n),
            host(gpu, gpu.episode_returns(), n));
  for (int i = 0; i < cpu.num_envs(); ++i) {
    ASSERT_EQ(0, std::memcmp(cpu.ram(i), gpu.ram(i), 128)) << "env " << i;
  }
}

void run_side_by_side(EnvConfig config, int steps, const std::vector<Rom>& roms = {tetris()}) {
  config.device = Device::cpu();
  VecEnv cpu(roms, config);
  config.device = Device::cuda(0);
  VecEnv gpu(roms, config);
  expect_same_outputs(cpu, gpu, 0);
  std::mt19937 rng(11);
  std::vector<int32_t> actions(size_t(config.num_envs));
  for (int t = 1; t <= steps; ++t) {
    for (int32_t& a : actions) a = int32_t(rng() % cpu.action_set().size());
    cpu.step(actions.data());
    gpu.step(actions.data());
    if (t % 25 == 0 || t == steps) expect_same_outputs(cpu, gpu, t);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // A reset with new seeds on both.
  std::vector<uint64_t> seeds(size_t(config.num_envs));
  for (size_t i = 0; i < seeds.size(); ++i) seeds[i] = 1000 + i;
  cpu.reset(nullptr, seeds.data());
  gpu.reset(nullptr, seeds.data());
  expect_same_outputs(cpu, gpu, steps + 1);
}

bool have_gpu() { return cuda_device_count() > 0; }
constexpr const char* kNoGpu =
    "no CUDA device: the CPU-against-GPU VecEnv runs are skipped (benchmarks/gpu/check.sh runs "
    "them on a GPU machine)";

TEST(VecEnvCuda, AtariVectorEnvOptionsMatchTheCpuBackend) {
  if (!have_gpu()) GTEST_SKIP() << kNoGpu;
  EnvConfig config;
  config.num_envs = 96;  // more than one block, not a multiple of it
  config.repeat_action_probability = 0.25f;
  config.seed = 3;
  run_side_by_side(config, 400);
}

TEST(VecEnvCuda, V5RgbSameStepMatchesTheCpuBackend) {
  if (!have_gpu()) GTEST_SKIP() << kNoGpu;
  EnvConfig config = EnvConfig::v5(33);
  config.autoreset_mode = AutoresetMode::same_step;
  config.max_num_frames_per_episode = 600;  // several truncations and resets
  run_side_by_side(config, 300);
}

TEST(VecEnvCuda, RamObservationsMatchTheCpuBackend) {
  if (!have_gpu()) GTEST_SKIP() << kNoGpu;
  EnvConfig config;
  config.num_envs = 17;
  config.obs_type = ObsType::ram;
  config.noop_max = 0;
  run_side_by_side(config, 200);
}

// Several games in one batch: one launch per game, each over its own
// environments (the runs split at environments 23 and 46 of 70). Pong and
// Breakout from $CULE_GPU_ROM_DIR when it is set, else tetris three times
// (which still checks each launch's environments).
TEST(VecEnvCuda, SeveralGamesMatchTheCpuBackend) {
  if (!have_gpu()) GTEST_SKIP() << kNoGpu;
  std::vector<Rom> roms = {tetris(), tetris(), tetris()};
  if (const char* dir = std::getenv("CULE_GPU_ROM_DIR")) {
    roms[1] = Rom::load(std::string(dir) + "/pong.bin");
    roms[2] = Rom::load(std::string(dir) + "/breakout.bin");
  }
  EnvConfig config;
  config.num_envs = 70;
  config.full_action_space = true;
  config.repeat_action_probability = 0.25f;
  run_side_by_side(config, 200, roms);
}

// Every ROM in $CULE_GPU_ROM_DIR (benchmarks/gpu/check.sh --prepare copies
// ale-py's there), with sticky actions.
TEST(VecEnvCuda, EveryGameMatchesTheCpuBackend) {
  if (!have_gpu()) GTEST_SKIP() << kNoGpu;
  const char* dir = std::getenv("CULE_GPU_ROM_DIR");
  if (!dir) GTEST_SKIP() << "CULE_GPU_ROM_DIR is not set: no game ROMs to run";
  int games = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".bin") continue;
    const Rom rom = Rom::load(entry.path().string());
    if (!Console(rom).has_rules()) continue;
    SCOPED_TRACE(entry.path().filename().string());
    EnvConfig config;
    config.num_envs = 32;
    config.repeat_action_probability = 0.25f;
    run_side_by_side(config, 100, {rom});
    if (HasFatalFailure()) return;
    ++games;
  }
  EXPECT_GT(games, 0) << "no game ROM in " << dir;
  std::printf("%d games identical on CPU and GPU\n", games);
}

TEST(VecEnvCuda, DeviceActionsOutOfRangeAreReported) {
  if (!have_gpu()) GTEST_SKIP() << kNoGpu;
  EnvConfig config;
  config.num_envs = 4;
  config.device = Device::cuda(0);
  VecEnv env(tetris(), config);
  // A host step validates first.
  std::vector<int32_t> bad(4, 0);
  bad[2] = 99;
  EXPECT_THROW(env.step(bad.data()), Error);
  env.check_device_errors();  // nothing queued went wrong
#ifdef CULE_WITH_CUDA
  // Device actions are checked on the device and reported afterwards.
  int32_t* device_actions = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&device_actions), 4 * sizeof(int32_t)),
            cudaSuccess);
  ASSERT_EQ(cudaMemcpy(device_actions, bad.data(), 4 * sizeof(int32_t), cudaMemcpyHostToDevice),
            cudaSuccess);
  env.step_device(device_actions);
  EXPECT_THROW(env.check_device_errors(), Error);
  env.check_device_errors();  // reported once
  std::vector<int32_t> good(4, 1);
  ASSERT_EQ(cudaMemcpy(device_actions, good.data(), 4 * sizeof(int32_t), cudaMemcpyHostToDevice),
            cudaSuccess);
  env.step_device(device_actions);
  env.check_device_errors();
  cudaFree(device_actions);
#endif
}

// A step with its actions in device memory is kernel launches only, so a
// CUDA graph can capture it: replaying the graph after writing each step's
// actions must give what the CPU backend's steps give.
TEST(VecEnvCuda, StepDeviceReplaysFromACudaGraph) {
  if (!have_gpu()) GTEST_SKIP() << kNoGpu;
#ifdef CULE_WITH_CUDA
  EnvConfig config = EnvConfig::v5(40);
  config.max_num_frames_per_episode = 500;  // resets inside the replays
  config.device = Device::cpu();
  VecEnv cpu(tetris(), config);
  config.device = Device::cuda(0);
  VecEnv gpu(tetris(), config);
  const size_t n = size_t(config.num_envs);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  int32_t* device_actions = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&device_actions), n * sizeof(int32_t)),
            cudaSuccess);
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), cudaSuccess);
  gpu.step_device(device_actions, nullptr, stream);
  ASSERT_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
  cudaGraphExec_t step = nullptr;
  ASSERT_EQ(cudaGraphInstantiateWithFlags(&step, graph, 0), cudaSuccess);
  std::mt19937 rng(5);
  std::vector<int32_t> actions(n);
  for (int t = 1; t <= 200; ++t) {
    for (int32_t& a : actions) a = int32_t(rng() % cpu.action_set().size());
    cpu.step(actions.data());
    ASSERT_EQ(cudaMemcpyAsync(device_actions, actions.data(), n * sizeof(int32_t),
                              cudaMemcpyHostToDevice, stream),
              cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(step, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    if (t % 20 == 0) expect_same_outputs(cpu, gpu, t);
    if (HasFatalFailure()) break;
  }
  gpu.check_device_errors();
  cudaGraphExecDestroy(step);
  cudaGraphDestroy(graph);
  cudaFree(device_actions);
  cudaStreamDestroy(stream);
#endif
}

TEST(VecEnvCuda, WithoutADeviceIsAClearError) {
  if (have_gpu()) GTEST_SKIP() << "a CUDA device is present";
  EnvConfig config;
  config.device = Device::cuda(0);
  try {
    VecEnv env(tetris(), config);
    FAIL() << "expected cule::DeviceError";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("device"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cule
