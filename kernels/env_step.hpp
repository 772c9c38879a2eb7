// One environment of a batch, stepped as ale-py's AtariVectorEnv steps its
// own: sticky actions, frame skip, the game's rules, episode ends and
// truncation, no-op and FIRE resets, and the preprocessing (grayscale or RGB,
// the maximum of the last two frames, area resize, frame stacking) written
// straight into the environment's slot of the batch's buffers.
//
//   env_rebuild(setup, batch, i, constructed, pixels, seed, mode, difficulty);
//   env_reset(setup, batch, i);                        // a new episode
//   env_step(setup, batch, i, action_index, 1.0f);     // one agent step
//
// The CPU backend calls these from its threads over host buffers, the CUDA
// backend from one thread per environment over device buffers: the same
// code, so both give the same bits.
#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/ale_console.hpp"
#include "kernels/hd.hpp"
#include "kernels/palette.hpp"
#include "kernels/preprocess.hpp"
#include "kernels/random.hpp"

namespace cule {

//! What an observation holds.
enum class ObsType : uint8_t {
  rgb,        //!< (stack, height, width, 3) RGB
  grayscale,  //!< (stack, height, width) luminance, as ALE's getScreenGrayscale
  ram,        //!< (stack, 128) RIOT RAM
};

//! When an environment whose episode ended starts its next one (Gymnasium's
//! gymnasium.vector.AutoresetMode).
enum class AutoresetMode : uint8_t {
  next_step,  //!< the step after the end resets it (and ignores its action)
  same_step,  //!< the ending step resets it; the last observation is kept apart
  disabled,   //!< only reset(mask) resets it
};

constexpr int kMaxActions = kNumActions;

//! A batch's options and geometry, read-only while it runs (pointers are
//! host or device memory, as the backend's).
struct EnvSetup {
  AleSetup ale;
  AleResetCopy reset_copy;  //!< the game's reset as a copy, where it has one
  const Palette* palette;   //!< the game's palette (PAL or NTSC)
  AreaResize area;          //!< valid when `resize`
  int32_t action_set[kMaxActions];
  int32_t num_actions;
  int32_t frameskip;
  float repeat_action_probability;
  int32_t max_num_frames_per_episode;  //!< 0: never truncate
  int32_t noop_max;
  int32_t stack_num;
  uint32_t screen_pixels;  //!< one FrameBuffers screen: 160 x rows
  int32_t screen_height;   //!< rows ALE returns
  int32_t capture_bytes;   //!< one captured frame: screen_height x 160 x channels
  int32_t frame_bytes;     //!< one frame of the stack
  int32_t obs_bytes;       //!< one environment's observation
  int32_t scratch_floats;  //!< resize scratch per environment (two rows)
  ObsType obs_type;
  uint8_t channels;  //!< 1 (grayscale) or 3 (RGB); 0 for RAM
  AutoresetMode autoreset_mode;
  uint8_t fire_reset;  //!< use_fire_reset, and the action set has FIRE
  uint8_t episodic_life;
  uint8_t life_loss_info;
  uint8_t reward_clipping;
  uint8_t count_reset_frames;  //!< truncation counts the reset's frames (ALE's own limit)
  uint8_t maxpool;
  uint8_t resize;
  uint8_t draw_all_frames;  //!< draw the frames no observation uses too, as ALE (same results);
                            //!< set whenever the frame skip is 2 or less
};

//! One environment's bookkeeping around its console.
struct EnvEpisode {
  uint64_t seed;
  uint64_t frames_drawn;    //!< sticky-action draws so far
  uint64_t resets;          //!< no-op draws so far
  int32_t previous_action;  //!< the ALE action of the last frame (sticky actions)
  int32_t lives;            //!< at the end of the last step
  int32_t elapsed_frames;   //!< since the episode's first observation, or its episode frame
                            //!< number (count_reset_frames): for truncation
  int32_t length;           //!< agent steps
  float episode_return;
  uint8_t game_over;
  uint8_t life_lost;
  uint8_t needs_reset;  //!< next_step: the last step ended an episode
};

//! An environment as a step found it, to run the step again.
struct EnvSave {
  AleConsole console;
  EnvEpisode episode;
};

//! The batch's buffers, environment after environment (host or device).
struct EnvBatch {
  AleConsole* consoles;
  EnvEpisode* episodes;
  EnvSave* saves;     //!< unless draw_all_frames (else null)
  uint8_t* pixels;    //!< 2 x screen_pixels each: the consoles' frame buffers
  uint8_t* captured;  //!< 2 x capture_bytes each: the step's last two frames
  float* scratch;     //!< scratch_floats each
  uint8_t* observations;
  uint8_t* final_observations;  //!< same_step only (else null)
  float* rewards;
  uint8_t* terminated;
  uint8_t* truncated;
  uint8_t* autoreset;
  int32_t* lives;
  int32_t* episode_frame_numbers;
  int64_t* frame_numbers;
  float* episode_returns;
  int32_t* episode_lengths;
};

//! Bits of the error word a device batch's kernels set, for the host's
//! VecEnv::check_device_errors (the steps themselves cannot wait to report).
constexpr uint32_t kErrorBadAction = 1;      //!< an action outside the action set
constexpr uint32_t kErrorModeSelection = 2;  //!< ModeStatus::not_reached
constexpr uint32_t kErrorModeGaveUp = 4;     //!< ModeStatus::gave_up
constexpr uint32_t kErrorBadStrength = 8;    //!< a paddle strength out of range

CULE_HD inline FrameBuffers env_frame_buffers(const EnvSetup& s, const EnvBatch& b, int i) {
  return FrameBuffers{b.pixels + size_t(i) * 2 * s.screen_pixels, s.screen_pixels};
}

CULE_HD inline uint8_t* env_observation(const EnvSetup& s, const EnvBatch& b, int i) {
  return b.observations + size_t(i) * size_t(s.obs_bytes);
}

//! One emulated frame of an ALE action, with ALE's sticky actions: each
//! frame keeps the previous frame's action with repeat_action_probability.
CULE_HD inline void env_emulate_frame(const EnvSetup& s, AleConsole& c, EnvEpisode& e,
                                      const FrameBuffers& frames, int action,
                                      float paddle_strength) {
  if (s.repeat_action_probability > 0.0f) {
    const uint32_t bits = random_u32(e.seed, random_key(0, RandomStream::sticky), e.frames_drawn++);
    if (random_unit(bits) < s.repeat_action_probability) action = e.previous_action;
  }
  e.previous_action = action;
  ale_act(c, s.ale, frames, action, paddle_strength);
}

//! Converts the console's screen into captured frame `which` (0: the last),
//! row by row: a row equal to the one above it (as runs of Atari scanlines
//! often are) is a copy of the row converted above it.
CULE_HD CULE_DEVICE_NOINLINE void env_capture(const EnvSetup& s, const EnvBatch& b, int i,
                                              int which) {
  if (s.obs_type == ObsType::ram) return;
  const FrameBuffers frames = env_frame_buffers(s, b, i);
  const uint8_t* screen = frames.current(b.consoles[i].machine.tia);
  uint8_t* out = b.captured + (size_t(i) * 2 + size_t(which)) * size_t(s.capture_bytes);
  const int rows = s.screen_height;
  const int row_bytes = kScreenWidth * s.channels;
  // Read once: the stores to `out` could otherwise alias the setup.
  const Palette* const palette = s.palette;
  for (int y = 0; y < rows; ++y, screen += kScreenWidth, out += row_bytes) {
    if (y > 0 && same_bytes(screen - kScreenWidth, screen, kScreenWidth)) {
      memcpy(out, out - row_bytes, size_t(row_bytes));
    } else if (s.channels == 1) {
      palette_gray_row(palette, screen, out, kScreenWidth);
    } else {
      palette_rgb_row(palette, screen, out, kScreenWidth);
    }
  }
}

//! Writes the newest frame of environment i's stack from its captured
//! frames (or its RAM), moving the older ones down first when `shift`.
CULE_HD CULE_DEVICE_NOINLINE void env_observe(const EnvSetup& s, const EnvBatch& b, int i,
                                              bool shift) {
  uint8_t* stack = env_observation(s, b, i);
  if (shift) stack_shift(stack, s.stack_num, s.frame_bytes);
  uint8_t* out = stack + size_t(s.stack_num - 1) * size_t(s.frame_bytes);
  if (s.obs_type == ObsType::ram) {
    const uint8_t* ram = b.consoles[i].machine.riot.ram;
    for (int k = 0; k < 128; ++k) out[k] = ram[k];
    return;
  }
  // As AtariVectorEnv: the last frame becomes its maximum with the one
  // before, in place, and is shrunk into the stack.
  uint8_t* last = b.captured + size_t(i) * 2 * size_t(s.capture_bytes);
  if (s.maxpool) {
    const uint8_t* before = last + s.capture_bytes;
    const int bytes = s.capture_bytes;  // a local, so the loop vectorizes
    for (int p = 0; p < bytes; ++p) last[p] = last[p] > before[p] ? last[p] : before[p];
  }
  if (!s.resize) {
    memcpy(out, last, size_t(s.frame_bytes));
    return;
  }
  float* row = b.scratch + size_t(i) * size_t(s.scratch_floats);
  float* sum = row + s.scratch_floats / 2;
  if (s.channels == 1) {
    area_resize<1>(s.area, last, out, row, sum);
  } else {
    area_resize<3>(s.area, last, out, row, sum);
  }
}

CULE_HD inline void env_write_outputs(const EnvBatch& b, int i) {
  const AleConsole& c = b.consoles[i];
  const EnvEpisode& e = b.episodes[i];
  b.lives[i] = e.lives;
  b.episode_frame_numbers[i] = int32_t(c.episode_frame_number);
  b.frame_numbers[i] = int64_t(c.frame_number);
  b.episode_returns[i] = e.episode_return;
  b.episode_lengths[i] = e.length;
}

CULE_HD inline bool env_episode_over(const EnvSetup& s, const EnvEpisode& e) {
  const int32_t limit = s.max_num_frames_per_episode;
  return e.game_over || (limit > 0 && e.elapsed_frames >= limit) ||
         (s.episodic_life && e.life_lost);
}

//! Environment i's console as ALE's Gymnasium environment builds one for
//! `seed`: loadROM (the console and frame buffers as ALE's Console
//! constructor leaves them, which no seed changes; the environment RNG
//! seeded; ALE's reset), then the mode and difficulty (-1: the game's
//! default), which the next reset applies. Draw counters start over.
CULE_HD inline ModeStatus env_rebuild(const EnvSetup& s, const EnvBatch& b, int i,
                                      const AleConsole& constructed,
                                      const uint8_t* constructed_pixels, uint64_t seed, int mode,
                                      int difficulty) {
  AleConsole& c = b.consoles[i];
  c = constructed;
  mt19937_seed(c.env_rng, uint32_t(seed));
  const FrameBuffers frames = env_frame_buffers(s, b, i);
  copy_bytes(frames.pixels, constructed_pixels, 2 * s.screen_pixels);
  const ModeStatus status = ale_reset(c, s.ale, frames);
  if (mode >= 0) c.mode = mode;
  if (difficulty >= 0) c.difficulty = difficulty;
  EnvEpisode& e = b.episodes[i];
  e = EnvEpisode{};
  e.seed = seed;
  return status;
}

//! How many of the first `acts` frames of an episode's start hold FIRE
//! (env_reset): the first frame's FIRE stays unless its sticky draw repeats
//! the reset's NOOP, and each later frame's NOOP repeats FIRE on a sticky
//! draw. Counts up to `limit` (the most a copy holds).
CULE_HD inline uint32_t env_start_fire_acts(const EnvSetup& s, const EnvEpisode& e, uint32_t acts,
                                            uint32_t limit) {
  if (!s.fire_reset || acts == 0) return 0;
  if (s.repeat_action_probability <= 0.0f) return 1;
  uint32_t fire_acts = 0;
  for (; fire_acts < acts && fire_acts < limit; ++fire_acts) {
    const uint32_t bits =
        random_u32(e.seed, random_key(0, RandomStream::sticky), e.frames_drawn + fire_acts);
    const bool repeat = random_unit(bits) < s.repeat_action_probability;
    if (repeat == (fire_acts == 0)) break;  // FIRE replaced by NOOP, or NOOP not by FIRE
  }
  return fire_acts;
}

//! Starts a new episode as AtariVectorEnv does: ALE's reset (a copy of its
//! result where the game has one, see AleResetCopy), FIRE for one frame
//! where the game has it, then 0 to noop_max - 1 no-op frames (one fewer
//! after FIRE), resetting the game whenever one ends it. The stack starts as
//! zeros before the first frame. Where the copy holds the console after
//! those frames too, it is taken instead of running them.
CULE_HD CULE_DEVICE_NOINLINE ModeStatus env_reset(const EnvSetup& s, const EnvBatch& b, int i) {
  AleConsole& c = b.consoles[i];
  EnvEpisode& e = b.episodes[i];
  const FrameBuffers frames = env_frame_buffers(s, b, i);
  int noops = 0;
  if (s.noop_max > 0) {
    const uint32_t bits = random_u32(e.seed, random_key(0, RandomStream::noop), e.resets);
    noops = int(random_below(bits, uint32_t(s.noop_max))) - int(s.fire_reset);
  }
  ++e.resets;
  const uint32_t acts = uint32_t(s.fire_reset) + uint32_t(noops > 0 ? noops : 0);
  const uint32_t fire_acts = env_start_fire_acts(s, e, acts, s.reset_copy.fire_acts);
  ModeStatus status = ModeStatus::ok;
  if (ale_reset_acts_as_copy(c, s.reset_copy, frames, acts, fire_acts)) {
    if (s.repeat_action_probability > 0.0f) e.frames_drawn += acts;
    e.previous_action = acts > 0 && fire_acts == acts ? int(Action::FIRE) : 0;
  } else {
    // ALE's soft reset leaves NOOP as the previous action.
    status = ale_reset_or_copy(c, s.ale, s.reset_copy, frames);
    e.previous_action = 0;
    if (s.fire_reset) env_emulate_frame(s, c, e, frames, int(Action::FIRE), 1.0f);
    for (; noops > 0; --noops) {
      env_emulate_frame(s, c, e, frames, 0, 1.0f);
      if (ale_terminal(c)) {
        const ModeStatus again = ale_reset_or_copy(c, s.ale, s.reset_copy, frames);
        if (again != ModeStatus::ok) status = again;
        e.previous_action = 0;
      }
    }
  }
  uint8_t* stack = env_observation(s, b, i);
  for (int k = 0; k < s.obs_bytes; ++k) stack[k] = 0;
  env_capture(s, b, i, 0);
  if (s.obs_type != ObsType::ram) {
    uint8_t* before = b.captured + (size_t(i) * 2 + 1) * size_t(s.capture_bytes);
    for (int p = 0; p < s.capture_bytes; ++p) before[p] = 0;
  }
  env_observe(s, b, i, false);

  // ALE's own limit is on the episode frame number, which counts the
  // reset's frames (ALE's starting actions, the no-ops, FIRE).
  e.elapsed_frames = s.count_reset_frames ? int32_t(c.episode_frame_number) : 0;
  e.game_over = 0;
  e.life_lost = 0;
  e.lives = ale_lives(c, s.ale);
  e.episode_return = 0.0f;
  e.length = 0;
  e.needs_reset = 0;
  b.rewards[i] = 0.0f;
  b.terminated[i] = 0;
  b.truncated[i] = 0;
  env_write_outputs(b, i);
  return status;
}

//! What env_step_frames did.
struct StepFrames {
  int32_t reward;
  bool exact;  //!< the captured frames and both frame buffers are ALE's
};

//! The frames of one agent step of environment i, with its rewards and
//! episode end, capturing the last two. Unless `draw_all`, the frames
//! before those two are run without drawing, which is exact unless a frame
//! ends partial (its grey-out reads the buffer) or a drawn frame ends short
//! of what an undrawn one before it reached: then this stops and says so.
CULE_HD inline StepFrames env_step_frames(const EnvSetup& s, const EnvBatch& b, int i,
                                          int ale_action, float paddle_strength, bool draw_all) {
  AleConsole& c = b.consoles[i];
  EnvEpisode& e = b.episodes[i];
  const Tia& tia = c.machine.tia;
  FrameBuffers drawn = env_frame_buffers(s, b, i);
  drawn.may_redo = !draw_all;
  FrameBuffers undrawn = drawn;
  undrawn.draw = 0;
  undrawn.draw_ahead_rows = draw_all ? 0 : kAllRows;
  // The rows the last two frames of this step drew over from the top (by
  // frame parity): where the step runs again, a drawn frame's pixels drawn
  // ahead are drawn over only in the rows of the frame two before it (see
  // FrameBuffers::draw_ahead_rows).
  uint16_t rows_drawn[2] = {0, 0};
  int32_t reward = 0;
  for (int left = s.frameskip; left > 0; --left) {
    const int frame = s.frameskip - left;
    if (!draw_all) drawn.draw_ahead_rows = rows_drawn[frame & 1];
    const bool new_frame = !tia.partial_frame;
    env_emulate_frame(s, c, e, draw_all || left <= 2 ? drawn : undrawn, ale_action,
                      paddle_strength);
    if (!draw_all && tia.partial_frame) return {reward, false};
    rows_drawn[frame & 1] = new_frame ? tia_rows_drawn(tia) : 0;
    reward += ale_reward(c);
    e.game_over = ale_terminal(c);
    ++e.elapsed_frames;
    const int32_t lives = ale_lives(c, s.ale);
    e.life_lost = lives < e.lives && lives > 0;
    // A frame that ends the episode is not captured (AtariVectorEnv's
    // order): the observation keeps the frames captured before it.
    if (env_episode_over(s, e)) break;
    if (left <= 2) {
      if (tia.undrawn_pixels[tia.current_buffer] != 0) return {reward, false};
      env_capture(s, b, i, left - 1);
    }
  }
  // The next step starts from buffers as ALE's (an episode may end before
  // the drawn frames).
  return {reward, draw_all || (tia.undrawn_pixels[0] == 0 && tia.undrawn_pixels[1] == 0)};
}

//! The reset a step of env_step_play leaves to env_step_reset.
enum class StepReset : uint8_t {
  none,
  next_step,  //!< the last step ended the episode: this one starts the next
  same_step,  //!< this step ended the episode: keep its outputs, then reset
};

//! An agent step of environment i but its reset: `action` indexes the
//! action set (the caller has checked its range). Returns the reset due,
//! which env_step_reset runs. Apart so that the GPU can run the resets in
//! warps of their own instead of in the warps of the other steps: a reset
//! that is not a copy runs tens of frames where a step runs its frame skip.
CULE_HD inline StepReset env_step_play(const EnvSetup& s, const EnvBatch& b, int i, int action,
                                       float paddle_strength) {
  EnvEpisode& e = b.episodes[i];
  b.autoreset[i] = 0;
  // next_step: this step starts the next episode; its action is unused.
  if (e.needs_reset) return StepReset::next_step;
  // Disabled: an episode that is over waits for reset(mask) and goes no
  // further: no frame, no reward, the same observation and flags. So ALE
  // does past a game's end; here a truncation or a lost life (episodic_life)
  // ends an episode as firmly.
  if (env_episode_over(s, e)) {
    b.rewards[i] = 0.0f;
    return StepReset::none;
  }
  AleConsole& c = b.consoles[i];
  const int ale_action = s.action_set[action];
  const bool draw_all = s.draw_all_frames;
  if (!draw_all) {
    b.saves[i].console = c;
    b.saves[i].episode = e;
  }
  StepFrames frames = env_step_frames(s, b, i, ale_action, paddle_strength, draw_all);
  if (!frames.exact) {
    c = b.saves[i].console;
    e = b.saves[i].episode;
    frames = env_step_frames(s, b, i, ale_action, paddle_strength, true);
  }
  int32_t reward = frames.reward;
  env_observe(s, b, i, true);
  e.lives = ale_lives(c, s.ale);
  e.episode_return += float(reward);
  ++e.length;
  if (s.reward_clipping) reward = reward < -1 ? -1 : (reward > 1 ? 1 : reward);
  const bool terminated = e.game_over || ((s.life_loss_info || s.episodic_life) && e.life_lost);
  const int32_t limit = s.max_num_frames_per_episode;
  b.rewards[i] = float(reward);
  b.terminated[i] = terminated;
  b.truncated[i] = !terminated && limit > 0 && e.elapsed_frames >= limit;
  env_write_outputs(b, i);

  if (!env_episode_over(s, e)) return StepReset::none;
  switch (s.autoreset_mode) {
    case AutoresetMode::next_step: e.needs_reset = 1; break;
    case AutoresetMode::same_step: return StepReset::same_step;
    case AutoresetMode::disabled: break;  // reset(mask) starts the next one
  }
  return StepReset::none;
}

//! The reset env_step_play left due (not none). Returns its status.
CULE_HD CULE_DEVICE_NOINLINE ModeStatus env_step_reset(const EnvSetup& s, const EnvBatch& b, int i,
                                                       StepReset due) {
  if (due == StepReset::next_step) return env_reset(s, b, i);
  // same_step: the step's outputs stay; its observation becomes the final one.
  const uint8_t* obs = env_observation(s, b, i);
  uint8_t* final_obs = b.final_observations + size_t(i) * size_t(s.obs_bytes);
  for (int k = 0; k < s.obs_bytes; ++k) final_obs[k] = obs[k];
  const float final_reward = b.rewards[i];
  const uint8_t final_terminated = b.terminated[i];
  const uint8_t final_truncated = b.truncated[i];
  const ModeStatus status = env_reset(s, b, i);
  b.rewards[i] = final_reward;
  b.terminated[i] = final_terminated;
  b.truncated[i] = final_truncated;
  b.autoreset[i] = 1;
  return status;
}

//! One agent step of environment i, its reset included: `action` indexes
//! the action set (the caller has checked its range). Returns the status of
//! a reset it ran.
CULE_HD inline ModeStatus env_step(const EnvSetup& s, const EnvBatch& b, int i, int action,
                                   float paddle_strength) {
  const StepReset due = env_step_play(s, b, i, action, paddle_strength);
  return due == StepReset::none ? ModeStatus::ok : env_step_reset(s, b, i, due);
}

}  // namespace cule
