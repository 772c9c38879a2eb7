// What a batch reports per row, in host memory: the CPU backend's outputs
// (one row per environment) and AsyncVecEnv's batches (one row per
// environment received).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cule {

struct HostOutputs {
  //! `rows` rows of zeros; final observations only for `final_observations`
  //! (AutoresetMode::same_step).
  HostOutputs(size_t rows, size_t obs_bytes, bool final_observations)
      : observations(rows * obs_bytes, 0),
        final_observations(final_observations ? rows * obs_bytes : 0, 0),
        rewards(rows, 0.0f),
        episode_returns(rows, 0.0f),
        terminated(rows, 0),
        truncated(rows, 0),
        autoreset(rows, 0),
        lives(rows, 0),
        episode_frames(rows, 0),
        episode_lengths(rows, 0),
        frame_numbers(rows, 0) {}

  std::vector<uint8_t> observations, final_observations;
  std::vector<float> rewards, episode_returns;
  std::vector<uint8_t> terminated, truncated, autoreset;
  std::vector<int32_t> lives, episode_frames, episode_lengths;
  std::vector<int64_t> frame_numbers;
};

}  // namespace cule
