// A batch of environments of one game: ALE's Atari environments with
// AtariVectorEnv's preprocessing, stepped together on CPU threads.
//
//   cule::VecEnv env(cule::Rom::load("pong.bin"), config);
//   env.reset();
//   env.step(actions);                     // num_envs indices into action_set()
//   env.observations(); env.rewards(); env.terminated(); env.truncated();
//
// Every buffer is allocated once and rewritten in place by each reset and
// step, so views of it stay valid for the environment's lifetime.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cule/console.hpp"
#include "cule/env_config.hpp"
#include "cule/rom.hpp"
#include "cule/thread_pool.hpp"
#include "kernels/preprocess.hpp"

namespace cule {

class VecEnv {
 public:
  //! Throws cule::Error for a bad option, a ROM without ALE game settings
  //! (no rewards or terminals to give), or a mode or difficulty the game
  //! does not have; cule::DeviceError for a device this build cannot use.
  VecEnv(const Rom& rom, const EnvConfig& config);
  ~VecEnv();
  VecEnv(const VecEnv&) = delete;
  VecEnv& operator=(const VecEnv&) = delete;

  const EnvConfig& config() const { return config_; }
  int num_envs() const { return config_.num_envs; }
  int num_threads() const { return pool_.size(); }
  const std::string& game() const { return game_; }
  //! The ALE actions (0-17) that step()'s action indices stand for.
  const std::vector<int>& action_set() const { return action_set_; }

  //! One environment's observation shape: (stack, height, width[, 3]) or
  //! (stack, 128).
  const std::vector<int64_t>& observation_shape() const { return obs_shape_; }
  int64_t observation_bytes() const { return obs_bytes_; }

  //! Starts new episodes in the environments where mask[i] != 0 (all of them
  //! when mask is null). `seeds`, when given, holds one seed per environment
  //! reset (in order): it rebuilds that environment from the ROM with the
  //! seed, as AtariVectorEnv's reset(seed=...) does. Every buffer reports the
  //! reset environments' new state; the others keep theirs.
  void reset(const uint8_t* mask = nullptr, const uint64_t* seeds = nullptr);

  //! One step of every environment: actions[i] indexes action_set().
  //! `paddle_strengths` (optional, one per environment) scales a paddle
  //! game's turn as ALE's act(action, strength). Throws cule::Error, before
  //! anything runs, for an action out of range.
  void step(const int32_t* actions, const float* paddle_strengths = nullptr);

  // The batch buffers, num_envs entries each (observations: num_envs x
  // observation_bytes()).
  const uint8_t* observations() const { return observations_.data(); }
  //! The observations that ended episodes in the last step, for
  //! AutoresetMode::same_step (rows of other environments are stale).
  const uint8_t* final_observations() const { return final_observations_.data(); }
  const float* rewards() const { return rewards_.data(); }
  const uint8_t* terminated() const { return terminated_.data(); }
  const uint8_t* truncated() const { return truncated_.data(); }
  const int32_t* lives() const { return lives_.data(); }
  //! Frames emulated in the current episode (ALE's getEpisodeFrameNumber).
  const int32_t* episode_frame_numbers() const { return episode_frames_.data(); }
  //! Frames emulated since the environment was built (ALE's getFrameNumber).
  const int64_t* frame_numbers() const { return frame_numbers_.data(); }
  //! Total reward and length (agent steps) of the episode under way.
  const float* episode_returns() const { return episode_returns_.data(); }
  const int32_t* episode_lengths() const { return episode_lengths_.data(); }
  //! For same_step: 1 where the last step ended an episode and reset.
  const uint8_t* autoreset() const { return autoreset_.data(); }
  //! The screen of one environment (palette indices, screen_height() x 160).
  const uint8_t* screen(int env) const;
  int screen_height() const;
  //! One environment's RIOT RAM (128 bytes).
  const uint8_t* ram(int env) const;

  //! One environment's bookkeeping around its console.
  struct Episode {
    uint64_t seed = 0;
    uint64_t frames_drawn = 0;   // sticky-action draws so far
    uint64_t resets = 0;         // no-op draws so far
    int previous_action = 0;     // the ALE action of the last frame (sticky actions)
    int32_t lives = 0;           // at the end of the last step
    int32_t elapsed_frames = 0;  // since the episode's first observation (truncation)
    int32_t length = 0;          // agent steps
    float episode_return = 0.0f;
    bool game_over = false;
    bool life_lost = false;
    bool needs_reset = false;  // next_step: the last step ended an episode
    // The step's last two frames as observed colours (grayscale or RGB):
    // frames[0] the last, frames[1] the one before; max-pooled into frames[0].
    std::vector<uint8_t> frames[2];
  };

  //! Everything that determines some environments' future: consoles,
  //! episode bookkeeping, frame stacks and last outputs.
  struct Snapshot {
    const VecEnv* owner;
    std::vector<int> envs;
    struct Env {
      Console::Snapshot console;
      Episode episode;
      std::vector<uint8_t> observation;
      float reward;
      uint8_t terminated, truncated;
    };
    std::vector<Env> state;
  };
  //! A copy of the environments where mask[i] != 0 (all when null).
  std::shared_ptr<const Snapshot> clone_state(const uint8_t* mask = nullptr) const;
  //! Puts back the environments a snapshot of this batch holds; the others
  //! are untouched. Throws cule::Error for a snapshot of another batch.
  void restore_state(const Snapshot& snapshot);

 private:
  struct Slot;
  void reset_env(int i);
  void step_env(int i, int action, float paddle_strength);
  // One emulated frame with an ALE action; sticky actions applied.
  void emulate_frame(Slot& s, int action, float paddle_strength);
  // Converts the console's screen into the episode's frames[which].
  void capture(Slot& s, int which);
  // Writes the newest frame of env i's stack from its captured frames.
  void observe(int i, bool shift);
  bool episode_over(const Episode& e) const;
  void write_outputs(int i);
  // Throws cule::Error unless 0 <= env < num_envs().
  void check_env(int env) const;

  EnvConfig config_;
  std::string game_;
  std::vector<int> action_set_;
  std::vector<int64_t> obs_shape_;
  int64_t obs_bytes_ = 0;
  int64_t frame_bytes_ = 0;  // one stacked frame
  int channels_ = 1;
  bool resize_ = false;
  std::vector<AreaTap> x_taps_, y_taps_;
  AreaResize area_{};
  bool fire_reset_ = false;  // use_fire_reset, and the action set has FIRE

  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<uint8_t> observations_, final_observations_;
  std::vector<float> rewards_, episode_returns_;
  std::vector<uint8_t> terminated_, truncated_, autoreset_;
  std::vector<int32_t> lives_, episode_frames_, episode_lengths_;
  std::vector<int64_t> frame_numbers_;
  mutable ThreadPool pool_;
};

}  // namespace cule
