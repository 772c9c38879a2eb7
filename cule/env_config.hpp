// The options of a batch of environments: names and defaults as ale-py's
// AtariVectorEnv (ale_py.vector_env), with Gymnasium's ALE/<Game>-v5 preset.
// ObsType and AutoresetMode are in kernels/env_step.hpp, which runs them.
#pragma once

#include <cstdint>
#include <string>

#include "kernels/env_step.hpp"

namespace cule {

//! Where the environments run.
struct Device {
  enum class Kind : uint8_t { cpu, cuda };
  Kind kind = Kind::cpu;
  int index = 0;
  static Device cpu() { return {}; }
  static Device cuda(int index = 0) { return {Kind::cuda, index}; }
};

struct EnvConfig {
  int num_envs = 1;
  //! Worker threads of the CPU backend (0: one per hardware thread, for an
  //! AsyncVecEnv at most batch_size); a VecEnv counts the calling thread
  //! among them, an AsyncVecEnv does not.
  //! Results do not depend on it.
  int num_threads = 0;
  //! Worker t runs on core thread_affinity_offset + t (cule::pin_to_core);
  //! a VecEnv's worker 0 is the calling thread, which it leaves where it is.
  //! -1: not pinned.
  int thread_affinity_offset = -1;
  //! Environments per batch (0: num_envs). Fewer than num_envs makes the
  //! batches asynchronous: cule::AsyncVecEnv (CPU only).
  int batch_size = 0;
  Device device = Device::cpu();

  //! Emulated frames per step; the action is repeated on each.
  int frameskip = 4;
  //! Sticky actions: on each frame the previous frame's action is kept
  //! with this probability (ALE's repeat_action_probability).
  float repeat_action_probability = 0.0f;
  //! All 18 actions rather than the game's minimal set.
  bool full_action_space = false;
  //! The game mode and difficulty; -1: the game's default (ALE's).
  int mode = -1;
  int difficulty = -1;
  //! Truncation after this many emulated frames of steps in an episode
  //! (reset frames not counted, as AtariVectorEnv; 0: never).
  int max_num_frames_per_episode = 108000;
  //! Truncation counts the frames of ALE's reset too: at the episode frame
  //! number max_num_frames_per_episode, as ALE's own limit (AtariEnv).
  bool count_reset_frames = false;
  //! A reset plays 0 to noop_max - 1 no-op frames, drawn per reset.
  int noop_max = 30;
  //! A reset presses FIRE for one frame where the game's actions have it
  //! (in place of one of the no-ops).
  bool use_fire_reset = true;
  //! A lost life ends the episode (terminated), and the reset that follows
  //! starts a new game (as AtariVectorEnv and Gymnasium's wrappers do).
  bool episodic_life = false;
  //! A lost life is reported as terminated without ending the episode.
  bool life_loss_info = false;
  //! A step's reward is clamped to [-1, 1].
  bool reward_clipping = true;

  ObsType obs_type = ObsType::grayscale;
  //! The observed frame's size; frames are shrunk with area averaging.
  //! img_height 0: the screen's own height (210 rows, 250 for PAL games).
  int img_height = 84;
  int img_width = 84;
  //! Each observed frame is the pixel-wise maximum of the step's last two.
  bool maxpool = true;
  //! Frames per observation, oldest first.
  int stack_num = 4;

  AutoresetMode autoreset_mode = AutoresetMode::next_step;
  //! Environment i draws its random numbers from seed + i.
  uint64_t seed = 0;

  //! Draw every emulated frame, as ALE does, not only the two a step
  //! observes. Results are the same either way (a step whose skipped
  //! drawing could show is run again, drawn); this is for checking that.
  bool draw_all_frames = false;
  //! Run ALE's whole reset, and the episode's first acts (FIRE, no-ops),
  //! every time. By default a game whose reset was found to depend on
  //! nothing of the console's past but the keys of cule/reset_copy.hpp
  //! starts episodes from a copy of its result, and of the consoles after
  //! those acts, instead (same results, a fraction of the time); this is for
  //! checking that.
  bool run_full_resets = false;

  //! Gymnasium's ALE/<Game>-v5 (ale_py.env.AtariEnv as registered): frame
  //! skip 4, sticky actions 0.25, minimal actions, 108,000 frames (of
  //! the episode frame number, as ALE counts them), the
  //! screen's RGB frames (210 x 160, 250 x 160 for PAL games), no max-pool,
  //! stacking, no-ops, fire reset or clipping.
  static EnvConfig v5(int num_envs = 1);

  //! Throws cule::Error naming the first option that is out of range or
  //! that contradicts another.
  void validate() const;
};

const char* to_string(ObsType type);
const char* to_string(AutoresetMode mode);
//! Parses "rgb", "grayscale" or "ram"; throws cule::Error otherwise.
ObsType obs_type_from_string(const std::string& name);
//! Parses "NextStep", "SameStep" or "Disabled" (Gymnasium's values, any
//! case, with or without '_'); throws cule::Error otherwise.
AutoresetMode autoreset_mode_from_string(const std::string& name);

}  // namespace cule
