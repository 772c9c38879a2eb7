// cule::AsyncVecEnv: each environment's run in asynchronous batches is the
// run cule::VecEnv gives it for the same actions, whatever batches the
// threads' timing made; and the protocol's errors. Parity with ale-py's
// AtariVectorEnv in the same mode is tests/python/test_vector_parity.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include "cule/async_vec_env.hpp"
#include "cule/error.hpp"
#include "cule/thread_pool.hpp"
#include "cule/vec_env.hpp"
#include "testdata.hpp"

namespace cule {
namespace {

Rom tetris() { return Rom::load(testing::testdata_path("roms/tetris.bin")); }

EnvConfig busy_config(AutoresetMode autoreset = AutoresetMode::next_step) {
  EnvConfig c;
  c.num_envs = 6;
  c.num_threads = 3;
  c.repeat_action_probability = 0.25f;
  c.noop_max = 30;
  c.seed = 11;
  c.max_num_frames_per_episode = 600;  // truncations and resets within the run
  c.autoreset_mode = autoreset;
  return c;
}

// The action environment `env` takes on its step `t`, for both runs.
int32_t action_of(int env, size_t t, size_t n_actions) {
  return int32_t((uint64_t(env) * 7919u + t * t * 31u + t * 17u) % n_actions);
}

// What one environment reported after one of its resets or steps.
struct Record {
  std::vector<uint8_t> observation, final_observation;
  float reward;
  uint8_t terminated, truncated, autoreset;
  int32_t lives, episode_frame;
  int64_t frame_number;
  bool operator==(const Record& o) const {
    return observation == o.observation && final_observation == o.final_observation &&
           reward == o.reward && terminated == o.terminated && truncated == o.truncated &&
           autoreset == o.autoreset && lives == o.lives && episode_frame == o.episode_frame &&
           frame_number == o.frame_number;
  }
};

// Row k of a batch's buffers (VecEnv's or AsyncVecEnv's).
template <class Env>
Record record(const Env& env, size_t k, size_t obs_bytes, bool same_step) {
  Record r;
  r.observation.assign(env.observations() + k * obs_bytes,
                       env.observations() + (k + 1) * obs_bytes);
  r.autoreset = env.autoreset()[k];
  if (same_step && r.autoreset) {
    r.final_observation.assign(env.final_observations() + k * obs_bytes,
                               env.final_observations() + (k + 1) * obs_bytes);
  }
  r.reward = env.rewards()[k];
  r.terminated = env.terminated()[k];
  r.truncated = env.truncated()[k];
  r.lives = env.lives()[k];
  r.episode_frame = env.episode_frame_numbers()[k];
  r.frame_number = env.frame_numbers()[k];
  return r;
}

using Runs = std::vector<std::vector<Record>>;  // per environment, in order

// `rounds` batches of an AsyncVecEnv from a seeded reset.
Runs play_async(AsyncVecEnv& env, int rounds, const std::vector<uint64_t>& seeds, bool same_step) {
  const size_t bytes = size_t(env.envs().observation_bytes());
  const size_t n_actions = env.envs().action_set().size();
  Runs runs(size_t(env.num_envs()));
  env.reset(seeds.data());
  std::vector<int32_t> actions(size_t(env.batch_size()));
  for (int round = 0; round < rounds; ++round) {
    std::set<int> rows;
    for (size_t k = 0; k < actions.size(); ++k) {
      const int e = env.env_ids()[k];
      EXPECT_TRUE(e >= 0 && e < env.num_envs());
      EXPECT_TRUE(rows.insert(e).second) << "environment " << e << " twice in one batch";
      runs[size_t(e)].push_back(record(env, k, bytes, same_step));
      actions[k] = action_of(e, runs[size_t(e)].size() - 1, n_actions);
    }
    env.send(actions.data());
    env.recv();
  }
  return runs;
}

// The same environments stepped together for `steps` steps.
Runs play_together(VecEnv& env, int steps, const std::vector<uint64_t>& seeds, bool same_step) {
  const size_t bytes = size_t(env.observation_bytes()), n = size_t(env.num_envs());
  Runs runs(n);
  env.reset(nullptr, seeds.data());
  std::vector<int32_t> actions(n);
  for (int t = 0;; ++t) {
    for (size_t i = 0; i < n; ++i) runs[i].push_back(record(env, i, bytes, same_step));
    if (t == steps) return runs;
    for (size_t i = 0; i < n; ++i)
      actions[i] = action_of(int(i), size_t(t), env.action_set().size());
    env.step(actions.data());
  }
}

void expect_same_runs(AutoresetMode autoreset) {
  const bool same_step = autoreset == AutoresetMode::same_step;
  EnvConfig config = busy_config(autoreset);
  const std::vector<uint64_t> seeds{5, 6, 7, 8, 9, 10};
  VecEnv together(tetris(), config);
  config.batch_size = 2;
  AsyncVecEnv batched(tetris(), config);
  EXPECT_EQ(batched.num_threads(), 3);
  const Runs async_runs = play_async(batched, 600, seeds, same_step);
  size_t longest = 0;
  for (const auto& run : async_runs) longest = std::max(longest, run.size());
  const Runs runs = play_together(together, int(longest), seeds, same_step);
  int ends = 0;
  for (size_t e = 0; e < runs.size(); ++e) {
    // Each environment had its turns: 1,200 steps over 6 environments.
    EXPECT_GE(async_runs[e].size(), 100u) << "environment " << e;
    for (size_t t = 0; t < async_runs[e].size(); ++t) {
      ASSERT_TRUE(async_runs[e][t] == runs[e][t]) << "environment " << e << ", step " << t;
      ends += runs[e][t].truncated;
    }
  }
  EXPECT_GT(ends, 0) << "the run should cross the 600-frame limit";
}

TEST(AsyncVecEnv, EachEnvironmentRunsAsInVecEnv) { expect_same_runs(AutoresetMode::next_step); }

TEST(AsyncVecEnv, SameStepResetsKeepTheFinalObservations) {
  expect_same_runs(AutoresetMode::same_step);
}

TEST(AsyncVecEnv, ResetWaitsForTheStepsUnderWay) {
  EnvConfig config = busy_config();
  VecEnv together(tetris(), config);
  config.batch_size = 4;
  AsyncVecEnv batched(tetris(), config);
  std::vector<int32_t> actions(4, 1);
  batched.send(actions.data());
  const std::vector<uint64_t> seeds{1, 2, 3, 4, 5, 6};
  batched.reset(seeds.data());  // the steps sent finish first, then all reset
  together.reset(nullptr, seeds.data());
  const size_t bytes = size_t(together.observation_bytes());
  for (size_t k = 0; k < 4; ++k) {
    const size_t e = size_t(batched.env_ids()[k]);
    EXPECT_TRUE(record(batched, k, bytes, false) == record(together, e, bytes, false));
  }
}

TEST(AsyncVecEnv, ProtocolErrors) {
  EnvConfig config = busy_config();
  config.batch_size = 2;
  AsyncVecEnv env(tetris(), config);
  EXPECT_THROW(env.recv(), Error);  // the batch received was not sent
  std::vector<int32_t> actions{0, 1000};
  EXPECT_THROW(env.send(actions.data()), Error);  // checked before anything runs
  actions[1] = 1;
  const std::vector<float> strengths{1.0f, std::nanf("")};
  EXPECT_THROW(env.send(actions.data(), strengths.data()), Error);
  env.send(actions.data());
  EXPECT_THROW(env.send(actions.data()), Error);  // sent already
  env.recv();
  env.send(actions.data());
  env.recv();
}

TEST(AsyncVecEnv, OneEnvironmentsTasksCheckTheirArguments) {
  VecEnv env(tetris(), busy_config());
  EXPECT_THROW(env.step_env(6, 0, 1.0f), Error);
  EXPECT_THROW(env.step_env(-1, 0, 1.0f), Error);
  EXPECT_THROW(env.step_env(0, int32_t(env.action_set().size()), 1.0f), Error);
  EXPECT_THROW(env.reset_env(6, nullptr), Error);
  env.step_env(5, 1, 1.0f);
  env.reset_env(5, nullptr);
}

TEST(AsyncVecEnv, OptionsItCannotRunAreErrors) {
  EnvConfig config = busy_config();
  config.batch_size = 7;  // more than num_envs
  EXPECT_THROW(AsyncVecEnv(tetris(), config), Error);
  config.batch_size = -1;
  EXPECT_THROW(AsyncVecEnv(tetris(), config), Error);
  config.batch_size = 2;
  EXPECT_THROW(VecEnv(tetris(), config), Error);  // VecEnv steps all together
  config.autoreset_mode = AutoresetMode::disabled;
  EXPECT_THROW(AsyncVecEnv(tetris(), config), Error);
  config.autoreset_mode = AutoresetMode::next_step;
  config.device = Device::cuda(0);
  EXPECT_THROW(AsyncVecEnv(tetris(), config), Error);
  config.device = Device::cpu();
  config.thread_affinity_offset = -2;
  EXPECT_THROW(AsyncVecEnv(tetris(), config), Error);
}

TEST(AsyncVecEnv, DefaultThreadsAreAtMostABatch) {
  EnvConfig config = busy_config();
  config.num_threads = 0;
  config.batch_size = 1;
  EXPECT_EQ(AsyncVecEnv(tetris(), config).num_threads(), 1);
  config.batch_size = 5;
  EXPECT_EQ(AsyncVecEnv(tetris(), config).num_threads(), std::min(5, hardware_threads()));
}

TEST(AsyncVecEnv, PinnedThreadsGiveTheSameRuns) {
  const std::vector<uint64_t> seeds{5, 6, 7, 8, 9, 10};
  EnvConfig config = busy_config();
  config.batch_size = 3;
  AsyncVecEnv free_threads(tetris(), config);
  config.thread_affinity_offset = 1;
  AsyncVecEnv pinned(tetris(), config);
  const Runs a = play_async(free_threads, 100, seeds, false);
  const Runs b = play_async(pinned, 100, seeds, false);
  for (size_t e = 0; e < a.size(); ++e) {
    const size_t common = std::min(a[e].size(), b[e].size());
    EXPECT_GE(common, 20u);
    for (size_t t = 0; t < common; ++t) {
      ASSERT_TRUE(a[e][t] == b[e][t]) << "environment " << e << ", step " << t;
    }
  }
  // A pinned VecEnv too (its pool's workers).
  config.batch_size = 0;
  VecEnv together(tetris(), config);
  EXPECT_EQ(together.num_threads(), 3);
}

}  // namespace
}  // namespace cule
