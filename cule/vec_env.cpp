#include "cule/vec_env.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "cule/error.hpp"
#include "cule/game_rules.hpp"
#include "kernels/palette.hpp"
#include "kernels/random.hpp"

namespace cule {

// One environment: its console, its episode and resize scratch.
struct VecEnv::Slot {
  std::unique_ptr<Console> console;
  Episode episode;
  std::vector<float> row, sum;
};

namespace {

constexpr int kFire = 1;

// A console as ALE's Gymnasium environment builds one: loadROM with the
// seed, then the mode and difficulty, which the next reset applies.
Console make_console(const Rom& rom, const EnvConfig& config, uint64_t seed) {
  Console console(rom, uint32_t(seed));
  if (config.mode >= 0) console.set_mode(config.mode);
  if (config.difficulty >= 0) console.set_difficulty(config.difficulty);
  return console;
}

}  // namespace

VecEnv::VecEnv(const Rom& rom, const EnvConfig& config)
    : config_(config), pool_(config.num_threads) {
  config_.validate();
  if (config_.device.kind != Device::Kind::cpu) {
    throw DeviceError("device: the CUDA backend of VecEnv is not built yet; use device cpu");
  }
  // The first console checks the mode and difficulty (and throws); the
  // others are built in parallel.
  slots_.resize(size_t(config_.num_envs));
  for (int i = 0; i < config_.num_envs; ++i) slots_[size_t(i)] = std::make_unique<Slot>();
  auto build = [&](int i) {
    Slot& s = *slots_[size_t(i)];
    s.episode.seed = config_.seed + uint64_t(i);
    s.console = std::make_unique<Console>(make_console(rom, config_, s.episode.seed));
  };
  build(0);
  const Console& first = *slots_[0]->console;
  if (!first.has_rules()) {
    throw Error("rom: '" + rom.name() + "' (md5 " + rom.md5() +
                ") has no ALE game settings, so it has no rewards or episode ends; expected one "
                "of the games cule.list_games() names");
  }
  game_ = rom.name();
  if (config_.full_action_space) {
    for (int a = 0; a < kNumActions; ++a) action_set_.push_back(a);
  } else {
    action_set_ = minimal_action_set(first.game());
  }
  fire_reset_ =
      config_.use_fire_reset && std::count(action_set_.begin(), action_set_.end(), kFire) > 0;
  pool_.parallel_for(config_.num_envs - 1, [&](int k) { build(k + 1); });

  const int height = slots_[0]->console->height();
  if (config_.obs_type == ObsType::ram) {
    obs_shape_ = {config_.stack_num, 128};
    frame_bytes_ = 128;
  } else {
    if (config_.img_height > height) {
      throw Error("img_height: " + std::to_string(config_.img_height) + " is taller than '" +
                  game_ + "''s " + std::to_string(height) +
                  "-line screen; frames are shrunk, never enlarged");
    }
    channels_ = config_.obs_type == ObsType::rgb ? 3 : 1;
    obs_shape_ = {config_.stack_num, config_.img_height, config_.img_width};
    if (channels_ == 3) obs_shape_.push_back(3);
    frame_bytes_ = int64_t(config_.img_height) * config_.img_width * channels_;
    resize_ = config_.img_height != height || config_.img_width != kScreenWidth;
    if (resize_) {
      x_taps_.resize(size_t(area_taps_bound(kScreenWidth, config_.img_width)));
      y_taps_.resize(size_t(area_taps_bound(height, config_.img_height)));
      area_.x_count = uint16_t(area_taps(kScreenWidth, config_.img_width, x_taps_.data()));
      area_.y_count = uint16_t(area_taps(height, config_.img_height, y_taps_.data()));
      area_.x_taps = x_taps_.data();
      area_.y_taps = y_taps_.data();
      area_.src_width = kScreenWidth;
      area_.src_height = uint16_t(height);
      area_.dst_width = uint16_t(config_.img_width);
      area_.dst_height = uint16_t(config_.img_height);
    }
  }
  obs_bytes_ = frame_bytes_ * config_.stack_num;

  const size_t n = size_t(config_.num_envs);
  observations_.assign(n * size_t(obs_bytes_), 0);
  if (config_.autoreset_mode == AutoresetMode::same_step) {
    final_observations_.assign(n * size_t(obs_bytes_), 0);
  }
  rewards_.assign(n, 0.0f);
  episode_returns_.assign(n, 0.0f);
  terminated_.assign(n, 0);
  truncated_.assign(n, 0);
  autoreset_.assign(n, 0);
  lives_.assign(n, 0);
  episode_frames_.assign(n, 0);
  episode_lengths_.assign(n, 0);
  frame_numbers_.assign(n, 0);
  for (auto& slot : slots_) {
    for (auto& frame : slot->episode.frames) {
      frame.assign(size_t(height) * kScreenWidth * channels_, 0);
    }
    slot->row.assign(size_t(config_.img_width) * 3, 0.0f);
    slot->sum.assign(size_t(config_.img_width) * 3, 0.0f);
  }
  reset();
}

VecEnv::~VecEnv() = default;

int VecEnv::screen_height() const { return slots_[0]->console->height(); }

void VecEnv::check_env(int env) const {
  if (env < 0 || env >= num_envs()) {
    throw Error("env: " + std::to_string(env) + " is out of range; expected 0-" +
                std::to_string(num_envs() - 1));
  }
}

const uint8_t* VecEnv::screen(int env) const {
  check_env(env);
  return slots_[size_t(env)]->console->screen();
}

const uint8_t* VecEnv::ram(int env) const {
  check_env(env);
  return slots_[size_t(env)]->console->ram();
}

void VecEnv::emulate_frame(Slot& s, int action, float paddle_strength) {
  // ALE's sticky actions: each frame keeps the previous frame's action with
  // probability repeat_action_probability.
  Episode& e = s.episode;
  if (config_.repeat_action_probability > 0.0f) {
    const uint32_t bits = random_u32(e.seed, random_key(0, RandomStream::sticky), e.frames_drawn++);
    if (random_unit(bits) < config_.repeat_action_probability) action = e.previous_action;
  }
  e.previous_action = action;
  s.console->act(action, paddle_strength);
}

void VecEnv::capture(Slot& s, int which) {
  if (config_.obs_type == ObsType::ram) return;
  const Console& c = *s.console;
  const Palette& palette = palette_for(c.properties().format == TvFormat::PAL);
  const uint8_t* screen = c.screen();
  uint8_t* out = s.episode.frames[which].data();
  const size_t pixels = s.episode.frames[which].size() / size_t(channels_);
  if (channels_ == 1) {
    for (size_t p = 0; p < pixels; ++p) out[p] = palette.gray[screen[p]];
  } else {
    for (size_t p = 0; p < pixels; ++p) {
      for (int ch = 0; ch < 3; ++ch) out[3 * p + size_t(ch)] = palette.rgb[screen[p]][ch];
    }
  }
}

void VecEnv::observe(int i, bool shift) {
  Slot& s = *slots_[size_t(i)];
  uint8_t* stack = observations_.data() + size_t(i) * size_t(obs_bytes_);
  if (shift) stack_shift(stack, config_.stack_num, int(frame_bytes_));
  uint8_t* out = stack + size_t(config_.stack_num - 1) * size_t(frame_bytes_);
  if (config_.obs_type == ObsType::ram) {
    std::memcpy(out, s.console->ram(), 128);
    return;
  }
  // As AtariVectorEnv: the last frame becomes its maximum with the one
  // before, in place, and is shrunk into the stack.
  std::vector<uint8_t>* frames = s.episode.frames;
  uint8_t* last = frames[0].data();
  if (config_.maxpool) {
    const uint8_t* before = frames[1].data();
    for (size_t p = 0; p < frames[0].size(); ++p) last[p] = std::max(last[p], before[p]);
  }
  if (!resize_) {
    std::memcpy(out, last, size_t(frame_bytes_));
  } else if (channels_ == 1) {
    area_resize<1>(area_, last, out, s.row.data(), s.sum.data());
  } else {
    area_resize<3>(area_, last, out, s.row.data(), s.sum.data());
  }
}

void VecEnv::reset_env(int i) {
  Slot& s = *slots_[size_t(i)];
  Console& c = *s.console;
  Episode& e = s.episode;
  auto reset_game = [&] {
    c.reset();
    e.previous_action = 0;  // ALE's soft reset leaves NOOP as the previous action
  };
  reset_game();
  // As AtariVectorEnv: FIRE for one frame where the game has it, then
  // 0 to noop_max - 1 no-op frames (one fewer after FIRE), resetting the
  // game whenever one ends it.
  if (fire_reset_) emulate_frame(s, kFire, 1.0f);
  int noops = 0;
  if (config_.noop_max > 0) {
    const uint32_t bits = random_u32(e.seed, random_key(0, RandomStream::noop), e.resets);
    noops = int(random_below(bits, uint32_t(config_.noop_max))) - int(fire_reset_);
  }
  ++e.resets;
  for (; noops > 0; --noops) {
    emulate_frame(s, 0, 1.0f);
    if (c.terminal()) reset_game();
  }
  // The stack starts as zeros before the first frame.
  uint8_t* stack = observations_.data() + size_t(i) * size_t(obs_bytes_);
  std::memset(stack, 0, size_t(obs_bytes_));
  capture(s, 0);
  std::fill(e.frames[1].begin(), e.frames[1].end(), 0);
  observe(i, false);

  e.elapsed_frames = 0;
  e.game_over = false;
  e.life_lost = false;
  e.lives = c.lives();
  e.episode_return = 0.0f;
  e.length = 0;
  e.needs_reset = false;
  rewards_[size_t(i)] = 0.0f;
  terminated_[size_t(i)] = 0;
  truncated_[size_t(i)] = 0;
  write_outputs(i);
}

void VecEnv::write_outputs(int i) {
  const Slot& s = *slots_[size_t(i)];
  lives_[size_t(i)] = s.episode.lives;
  episode_frames_[size_t(i)] = int32_t(s.console->episode_frame_number());
  frame_numbers_[size_t(i)] = int64_t(s.console->frame_number());
  episode_returns_[size_t(i)] = s.episode.episode_return;
  episode_lengths_[size_t(i)] = s.episode.length;
}

bool VecEnv::episode_over(const Episode& e) const {
  const int32_t limit = config_.max_num_frames_per_episode;
  return e.game_over || (limit > 0 && e.elapsed_frames >= limit) ||
         (config_.episodic_life && e.life_lost);
}

void VecEnv::step_env(int i, int action, float paddle_strength) {
  Slot& s = *slots_[size_t(i)];
  Episode& e = s.episode;
  autoreset_[size_t(i)] = 0;
  if (e.needs_reset) {
    // next_step: this step starts the next episode; its action is unused.
    reset_env(i);
    return;
  }
  Console& c = *s.console;
  int32_t reward = 0;
  for (int left = config_.frameskip; left > 0; --left) {
    emulate_frame(s, action, paddle_strength);
    reward += c.reward();
    e.game_over = c.terminal();
    ++e.elapsed_frames;
    e.life_lost = c.lives() < e.lives && c.lives() > 0;
    // A frame that ends the episode is not captured (AtariVectorEnv's
    // order): the observation keeps the frames captured before it.
    if (episode_over(e)) break;
    if (left <= 2) capture(s, left - 1);
  }
  observe(i, true);
  e.lives = c.lives();
  e.episode_return += float(reward);
  ++e.length;
  if (config_.reward_clipping) reward = std::min(1, std::max(-1, reward));
  const bool terminated =
      e.game_over || ((config_.life_loss_info || config_.episodic_life) && e.life_lost);
  const int32_t limit = config_.max_num_frames_per_episode;
  rewards_[size_t(i)] = float(reward);
  terminated_[size_t(i)] = terminated;
  truncated_[size_t(i)] = !terminated && limit > 0 && e.elapsed_frames >= limit;
  write_outputs(i);

  if (!episode_over(e)) return;
  switch (config_.autoreset_mode) {
    case AutoresetMode::next_step: e.needs_reset = true; break;
    case AutoresetMode::same_step: {
      const size_t at = size_t(i) * size_t(obs_bytes_);
      std::memcpy(final_observations_.data() + at, observations_.data() + at, size_t(obs_bytes_));
      const float final_reward = rewards_[size_t(i)];
      const uint8_t final_terminated = terminated_[size_t(i)];
      const uint8_t final_truncated = truncated_[size_t(i)];
      reset_env(i);
      rewards_[size_t(i)] = final_reward;
      terminated_[size_t(i)] = final_terminated;
      truncated_[size_t(i)] = final_truncated;
      autoreset_[size_t(i)] = 1;
      break;
    }
    case AutoresetMode::disabled: break;  // reset(mask) starts the next one
  }
}

void VecEnv::reset(const uint8_t* mask, const uint64_t* seeds) {
  std::vector<int> envs;
  for (int i = 0; i < num_envs(); ++i) {
    if (!mask || mask[i]) envs.push_back(i);
  }
  // Rebuilding a console for a new seed needs the ROM: every console holds it.
  pool_.parallel_for(int(envs.size()), [&](int k) {
    const int i = envs[size_t(k)];
    Slot& s = *slots_[size_t(i)];
    if (seeds) {
      s.episode.seed = seeds[k];
      s.episode.frames_drawn = s.episode.resets = 0;
      s.console =
          std::make_unique<Console>(make_console(s.console->rom(), config_, s.episode.seed));
    }
    autoreset_[size_t(i)] = 0;
    reset_env(i);
  });
}

void VecEnv::step(const int32_t* actions, const float* paddle_strengths) {
  const int n_actions = int(action_set_.size());
  for (int i = 0; i < num_envs(); ++i) {
    if (actions[i] < 0 || actions[i] >= n_actions) {
      throw Error("actions[" + std::to_string(i) + "]: " + std::to_string(actions[i]) +
                  " is out of range; expected 0-" + std::to_string(n_actions - 1) + " ('" + game_ +
                  "' has " + std::to_string(n_actions) + " actions)");
    }
    if (paddle_strengths && !std::isfinite(paddle_strengths[i])) {
      throw Error("paddle_strengths[" + std::to_string(i) + "]: not a finite number");
    }
  }
  pool_.parallel_for(num_envs(), [&](int i) {
    step_env(i, action_set_[size_t(actions[i])], paddle_strengths ? paddle_strengths[i] : 1.0f);
  });
}

std::shared_ptr<const VecEnv::Snapshot> VecEnv::clone_state(const uint8_t* mask) const {
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->owner = this;
  for (int i = 0; i < num_envs(); ++i) {
    if (mask && !mask[i]) continue;
    const Slot& s = *slots_[size_t(i)];
    const uint8_t* obs = observations_.data() + size_t(i) * size_t(obs_bytes_);
    snapshot->envs.push_back(i);
    snapshot->state.push_back(Snapshot::Env{
        s.console->clone_state(), s.episode, std::vector<uint8_t>(obs, obs + obs_bytes_),
        rewards_[size_t(i)], terminated_[size_t(i)], truncated_[size_t(i)]});
  }
  return snapshot;
}

void VecEnv::restore_state(const Snapshot& snapshot) {
  if (snapshot.owner != this) {
    throw Error("snapshot: taken from another VecEnv; expected one of this batch's clone_state()");
  }
  for (size_t k = 0; k < snapshot.envs.size(); ++k) {
    const int i = snapshot.envs[k];
    const Snapshot::Env& e = snapshot.state[k];
    Slot& s = *slots_[size_t(i)];
    s.console->restore_state(e.console);
    s.episode = e.episode;
    std::copy(e.observation.begin(), e.observation.end(),
              observations_.begin() + int64_t(i) * obs_bytes_);
    rewards_[size_t(i)] = e.reward;
    terminated_[size_t(i)] = e.terminated;
    truncated_[size_t(i)] = e.truncated;
    autoreset_[size_t(i)] = 0;
    write_outputs(i);
  }
}

}  // namespace cule
