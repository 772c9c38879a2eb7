// cule::VecEnv on a CUDA device against the same batch on CPU threads: the
// same seeds, options and actions must give the same bits in every buffer,
// every step, and the same consoles (RAM, CPU registers). Skipped, with a
// message, where no GPU is present (benchmarks/gpu/check.sh runs them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
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

template <class T>
bool same(const T* cpu_buffer, VecEnv& gpu, const T* gpu_buffer, size_t count) {
  return std::vector<T>(cpu_buffer, cpu_buffer + count) == host(gpu, gpu_buffer, count);
}

// The first output buffer in which the two batches differ ("" when none).
std::string first_difference(VecEnv& cpu, VecEnv& gpu) {
  const size_t n = size_t(cpu.num_envs());
  const size_t obs = n * size_t(cpu.observation_bytes());
  if (!same(cpu.observations(), gpu, gpu.observations(), obs)) return "observations";
  if (!same(cpu.rewards(), gpu, gpu.rewards(), n)) return "rewards";
  if (!same(cpu.terminated(), gpu, gpu.terminated(), n)) return "terminated";
  if (!same(cpu.truncated(), gpu, gpu.truncated(), n)) return "truncated";
  if (!same(cpu.lives(), gpu, gpu.lives(), n)) return "lives";
  if (!same(cpu.episode_frame_numbers(), gpu, gpu.episode_frame_numbers(), n)) {
    return "episode_frame_numbers";
  }
  if (!same(cpu.frame_numbers(), gpu, gpu.frame_numbers(), n)) return "frame_numbers";
  if (!same(cpu.episode_returns(), gpu, gpu.episode_returns(), n)) return "episode_returns";
  if (!same(cpu.episode_lengths(), gpu, gpu.episode_lengths(), n)) return "episode_lengths";
  if (!same(cpu.autoreset(), gpu, gpu.autoreset(), n)) return "autoreset";
  // same_step only; the rows of environments that have not ended an
  // episode yet are zeros on both.
  if (cpu.final_observations() &&
      !same(cpu.final_observations(), gpu, gpu.final_observations(), obs)) {
    return "final_observations";
  }
  for (int i = 0; i < cpu.num_envs(); ++i) {
    if (std::memcmp(cpu.ram(i), gpu.ram(i), 128) != 0) return "ram of env " + std::to_string(i);
  }
  return "";
}

EnvConfig on(EnvConfig config, Device device) {
  config.device = device;
  return config;
}

// A CPU batch and a GPU batch of the same games, options and seeds, stepped
// with the same random actions; the GPU's work is queued on `stream`.
class SideBySide {
 public:
  SideBySide(const EnvConfig& config, const std::vector<Rom>& roms, void* stream = nullptr)
      : cpu_(roms, on(config, Device::cpu())),
        gpu_(roms, on(config, Device::cuda(0))),
        stream_(stream),
        actions_(size_t(config.num_envs)) {}

  void step() {
    for (int32_t& a : actions_) a = int32_t(rng_() % cpu_.action_set().size());
    cpu_.step(actions_.data());
    gpu_.step(actions_.data(), nullptr, stream_);
  }

  void reset_with_new_seeds() {
    std::vector<uint64_t> seeds(actions_.size());
    for (size_t i = 0; i < seeds.size(); ++i) seeds[i] = 1000 + i;
    cpu_.reset(nullptr, seeds.data());
    gpu_.reset(nullptr, seeds.data(), stream_);
  }

  // "" when every buffer is the same, else which differs and `when`.
  std::string compare(const std::string& when) {
    const std::string difference = first_difference(cpu_, gpu_);
    return difference.empty() ? "" : difference + " " + when;
  }

 private:
  VecEnv cpu_, gpu_;
  void* stream_;
  std::mt19937 rng_{11};
  std::vector<int32_t> actions_;
};

bool compares_at(int step, int steps) { return step % 25 == 0 || step == steps; }

// Steps both backends, then resets both with new seeds; returns where they
// first differ ("" when they never do).
std::string run_side_by_side(const EnvConfig& config, int steps,
                             const std::vector<Rom>& roms = {tetris()}) {
  SideBySide pair(config, roms);
  std::string difference = pair.compare("after the first reset");
  for (int t = 1; t <= steps && difference.empty(); ++t) {
    pair.step();
    if (compares_at(t, steps)) difference = pair.compare("at step " + std::to_string(t));
  }
  if (!difference.empty()) return difference;
  pair.reset_with_new_seeds();
  return pair.compare("after the reset with new seeds");
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
  EXPECT_EQ("", run_side_by_side(config, 150));
}

TEST(VecEnvCuda, V5RgbSameStepMatchesTheCpuBackend) {
  if (!have_gpu()) GTEST_SKIP() << kNoGpu;
  EnvConfig config = EnvConfig::v5(33);
  config.autoreset_mode = AutoresetMode::same_step;
  config.max_num_frames_per_episode = 240;  // several truncations and resets
  EXPECT_EQ("", run_side_by_side(config, 150));
}

TEST(VecEnvCuda, RamObservationsMatchTheCpuBackend) {
  if (!have_gpu()) GTEST_SKIP() << kNoGpu;
  EnvConfig config;
  config.num_envs = 17;
  config.obs_type = ObsType::ram;
  config.noop_max = 0;
  EXPECT_EQ("", run_side_by_side(config, 100));
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
  EXPECT_EQ("", run_side_by_side(config, 50, roms));
}

// Every game ROM in $CULE_GPU_ROM_DIR (benchmarks/gpu/check.sh puts one or
// two games of each cartridge scheme and controller there, or all of
// ale-py's), with sticky actions. Each game's GPU batch has a stream of its
// own, so the games' steps overlap; the test names each game that differs.
TEST(VecEnvCuda, GameRomsMatchTheCpuBackend) {
  if (!have_gpu()) GTEST_SKIP() << kNoGpu;
#ifdef CULE_WITH_CUDA
  const char* dir = std::getenv("CULE_GPU_ROM_DIR");
  if (!dir) GTEST_SKIP() << "CULE_GPU_ROM_DIR is not set: no game ROMs to run";
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".bin") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  EnvConfig config;
  config.num_envs = 32;
  config.num_threads = 2;
  config.repeat_action_probability = 0.25f;
  config.noop_max = 0;  // the batches' resets run one after another
  constexpr int kSteps = 50;
  std::vector<std::string> names, differences;
  std::vector<cudaStream_t> streams;
  std::vector<std::unique_ptr<SideBySide>> pairs;
  for (const auto& path : paths) {
    const Rom rom = Rom::load(path.string());
    if (!Console(rom).has_rules()) continue;
    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    streams.push_back(stream);
    pairs.push_back(std::make_unique<SideBySide>(config, std::vector<Rom>{rom}, stream));
    names.push_back(path.filename().string());
    differences.push_back(pairs.back()->compare("after the first reset"));
  }
  ASSERT_FALSE(pairs.empty()) << "no game ROM in " << dir;
  for (int t = 1; t <= kSteps; ++t) {
    for (size_t g = 0; g < pairs.size(); ++g) {
      if (differences[g].empty()) pairs[g]->step();
    }
    if (!compares_at(t, kSteps)) continue;
    for (size_t g = 0; g < pairs.size(); ++g) {
      if (differences[g].empty())
        differences[g] = pairs[g]->compare("at step " + std::to_string(t));
    }
  }
  int identical = 0;
  for (size_t g = 0; g < pairs.size(); ++g) {
    if (differences[g].empty()) {
      pairs[g]->reset_with_new_seeds();
      differences[g] = pairs[g]->compare("after the reset with new seeds");
    }
    EXPECT_EQ("", differences[g]) << names[g];
    identical += differences[g].empty();
  }
  pairs.clear();
  for (cudaStream_t stream : streams) cudaStreamDestroy(stream);
  std::printf("%d of %zu games identical on CPU and GPU\n", identical, names.size());
#endif
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
  // So are strengths out of range: NaN, or of magnitude over 65536.
  const std::vector<float> strengths = {1.0f, NAN, -65536.01f, INFINITY};
  float* device_strengths = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&device_strengths), 4 * sizeof(float)),
            cudaSuccess);
  ASSERT_EQ(
      cudaMemcpy(device_strengths, strengths.data(), 4 * sizeof(float), cudaMemcpyHostToDevice),
      cudaSuccess);
  env.step_device(device_actions, device_strengths);
  try {
    env.check_device_errors();
    ADD_FAILURE() << "strengths out of range went unreported";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("paddle_strengths"), std::string::npos) << e.what();
  }
  env.check_device_errors();
  const std::vector<float> bounds = {65536.0f, -65536.0f, 0.5f, 1.0f};  // taken
  ASSERT_EQ(cudaMemcpy(device_strengths, bounds.data(), 4 * sizeof(float), cudaMemcpyHostToDevice),
            cudaSuccess);
  env.step_device(device_actions, device_strengths);
  env.check_device_errors();
  cudaFree(device_strengths);
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
  config.max_num_frames_per_episode = 200;  // resets inside the replays
  VecEnv cpu(tetris(), on(config, Device::cpu()));
  VecEnv gpu(tetris(), on(config, Device::cuda(0)));
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
  for (int t = 1; t <= 100; ++t) {
    for (int32_t& a : actions) a = int32_t(rng() % cpu.action_set().size());
    cpu.step(actions.data());
    ASSERT_EQ(cudaMemcpyAsync(device_actions, actions.data(), n * sizeof(int32_t),
                              cudaMemcpyHostToDevice, stream),
              cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(step, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    if (t % 20 != 0) continue;
    const std::string difference = first_difference(cpu, gpu);
    EXPECT_EQ("", difference) << "step " << t;
    if (!difference.empty()) break;  // on to the clean-up
  }
  gpu.check_device_errors();
  cudaGraphExecDestroy(step);
  cudaGraphDestroy(graph);
  cudaFree(device_actions);
  cudaStreamDestroy(stream);
#endif
}

// Calls on different streams share the batch's buffers (actions, due
// resets, consoles): each must run after the calls before it, with no
// synchronisation by the caller; so must a consumer ordered by
// order_before(). The GPU's steps are queued back to back, alternating
// between two streams; short episodes make resets due in most steps.
TEST(VecEnvCuda, CallsOnDifferentStreamsRunInOrder) {
  if (!have_gpu()) GTEST_SKIP() << kNoGpu;
#ifdef CULE_WITH_CUDA
  EnvConfig config = EnvConfig::v5(2048);
  config.max_num_frames_per_episode = 60;
  VecEnv cpu(tetris(), on(config, Device::cpu()));
  VecEnv gpu(tetris(), on(config, Device::cuda(0)));
  const size_t n = size_t(config.num_envs);
  const size_t obs_bytes = n * size_t(cpu.observation_bytes());
  cudaStream_t streams[3] = {};
  for (cudaStream_t& stream : streams) {
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  }
  uint8_t* consumed = nullptr;  // a consumer's copy of the observations
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&consumed), obs_bytes), cudaSuccess);
  // Makes a consumer on the third stream copy the observations, and
  // requires them to be the CPU backend's.
  auto consumer_sees_the_cpu_observations = [&](const std::string& when) {
    gpu.order_before(streams[2]);
    EXPECT_EQ(cudaMemcpyAsync(consumed, gpu.observations(), obs_bytes, cudaMemcpyDeviceToDevice,
                              streams[2]),
              cudaSuccess);
    EXPECT_EQ(cudaStreamSynchronize(streams[2]), cudaSuccess);
    std::vector<uint8_t> seen(obs_bytes);
    EXPECT_EQ(cudaMemcpy(seen.data(), consumed, obs_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_TRUE(std::equal(seen.begin(), seen.end(), cpu.observations()))
        << "the consumer ordered " << when << " saw other observations";
  };
  std::mt19937 rng(12);
  std::vector<std::vector<int32_t>> actions(20, std::vector<int32_t>(n));
  std::vector<uint64_t> seeds(n);
  for (int round = 0; round < 3; ++round) {
    for (auto& step : actions) {
      for (int32_t& a : step) a = int32_t(rng() % cpu.action_set().size());
    }
    for (size_t t = 0; t < actions.size(); ++t) {
      gpu.step(actions[t].data(), nullptr, streams[t % 2]);
    }
    for (const auto& step : actions) cpu.step(step.data());
    consumer_sees_the_cpu_observations("after round " + std::to_string(round) + "'s steps");
    std::string difference = first_difference(cpu, gpu);
    EXPECT_EQ("", difference) << "after round " << round << "'s steps";
    if (!difference.empty()) break;  // on to the clean-up
    // A reset on the stream the last step did not use.
    for (size_t i = 0; i < n; ++i) seeds[i] = uint64_t(round) * n + i;
    cpu.reset(nullptr, seeds.data());
    gpu.reset(nullptr, seeds.data(), streams[actions.size() % 2]);
    consumer_sees_the_cpu_observations("after round " + std::to_string(round) + "'s reset");
    difference = first_difference(cpu, gpu);
    EXPECT_EQ("", difference) << "after round " << round << "'s reset";
    if (!difference.empty()) break;
  }
  gpu.check_device_errors();
  cudaFree(consumed);
  for (cudaStream_t stream : streams) cudaStreamDestroy(stream);
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

// What device="cuda" throws on a GPU the build compiled no kernels for
// (cule/cuda_memory.hpp): the device, its architecture, and the build
// option that adds it.
TEST(VecEnvCuda, AGpuTheBuildHasNoCodeForIsAClearError) {
  const std::string message = no_code_for_device_message(1, "Some GPU", 8, 6, "90,100");
  for (const char* part : {"device: cuda:1 (Some GPU)", "compute capability 8.6",
                           "code for 90,100 only", "-DCMAKE_CUDA_ARCHITECTURES=86 "}) {
    EXPECT_NE(message.find(part), std::string::npos) << part << " not in: " << message;
  }
}

}  // namespace
}  // namespace cule
