#include "cule/env_config.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "cule/error.hpp"
#include "cule/game_properties.hpp"
#include "kernels/tia.hpp"

namespace cule {
namespace {

std::string squeeze(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c != '_' && c != '-') out += char(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

void require(bool ok, const std::string& message) {
  if (!ok) throw Error(message);
}

}  // namespace

EnvConfig EnvConfig::v5(int num_envs) {
  EnvConfig c;
  c.num_envs = num_envs;
  c.frameskip = 4;
  c.repeat_action_probability = 0.25f;
  c.full_action_space = false;
  c.max_num_frames_per_episode = 108000;
  c.count_reset_frames = true;
  c.noop_max = 0;
  c.use_fire_reset = false;
  c.reward_clipping = false;
  c.obs_type = ObsType::rgb;
  c.img_height = 0;  // the screen's
  c.img_width = kScreenWidth;
  c.maxpool = false;
  c.stack_num = 1;
  return c;
}

void EnvConfig::validate() const {
  require(num_envs >= 1, "num_envs: " + std::to_string(num_envs) + " must be at least 1");
  require(num_threads >= 0,
          "num_threads: " + std::to_string(num_threads) + " must be 0 (one per core) or more");
  require(thread_affinity_offset >= -1,
          "thread_affinity_offset: " + std::to_string(thread_affinity_offset) +
              " must be -1 (threads not pinned) or a core number");
  require(device.kind == Device::Kind::cpu || thread_affinity_offset == -1,
          "thread_affinity_offset: pins CPU threads, and a CUDA device runs none; expected -1");
  require(batch_size >= 0 && batch_size <= num_envs,
          "batch_size: " + std::to_string(batch_size) + " must be in 0-" +
              std::to_string(num_envs) + " (0: num_envs)");
  require(frameskip >= 1, "frameskip: " + std::to_string(frameskip) + " must be at least 1");
  require(std::isfinite(repeat_action_probability) && repeat_action_probability >= 0.0f &&
              repeat_action_probability <= 1.0f,
          "repeat_action_probability: " + std::to_string(repeat_action_probability) +
              " must be in [0, 1]");
  require(mode >= -1, "mode: " + std::to_string(mode) + " must be -1 (the default) or a mode");
  require(difficulty >= -1, "difficulty: " + std::to_string(difficulty) +
                                " must be -1 (the default) or a difficulty");
  require(max_num_frames_per_episode >= 0,
          "max_num_frames_per_episode: " + std::to_string(max_num_frames_per_episode) +
              " must be 0 (no limit) or more");
  require(noop_max >= 0, "noop_max: " + std::to_string(noop_max) + " must be 0 or more");
  require(stack_num >= 1, "stack_num: " + std::to_string(stack_num) + " must be at least 1");
  require(!(episodic_life && life_loss_info),
          "episodic_life and life_loss_info: choose one (both signal a lost life)");
  if (obs_type != ObsType::ram) {
    require(img_height >= 0 && img_height <= kPalDefaultHeight,
            "img_height: " + std::to_string(img_height) + " must be 0 (the screen's) or in 1-" +
                std::to_string(kPalDefaultHeight) + " (frames are shrunk, never enlarged)");
    require(img_width >= 1 && img_width <= kScreenWidth,
            "img_width: " + std::to_string(img_width) + " must be in 1-" +
                std::to_string(kScreenWidth) + " (frames are shrunk, never enlarged)");
  }
  require(device.kind == Device::Kind::cpu || device.index >= 0,
          "device: cuda index " + std::to_string(device.index) + " must be 0 or more");
}

const char* to_string(ObsType type) {
  switch (type) {
    case ObsType::rgb: return "rgb";
    case ObsType::grayscale: return "grayscale";
    case ObsType::ram: return "ram";
  }
  return "?";
}

const char* to_string(AutoresetMode mode) {
  switch (mode) {
    case AutoresetMode::next_step: return "NextStep";
    case AutoresetMode::same_step: return "SameStep";
    case AutoresetMode::disabled: return "Disabled";
  }
  return "?";
}

ObsType obs_type_from_string(const std::string& name) {
  const std::string n = squeeze(name);
  if (n == "rgb") return ObsType::rgb;
  if (n == "grayscale") return ObsType::grayscale;
  if (n == "ram") return ObsType::ram;
  throw Error("obs_type: '" + name +
              "' is not an observation type; expected rgb, grayscale or ram");
}

AutoresetMode autoreset_mode_from_string(const std::string& name) {
  const std::string n = squeeze(name);
  if (n == "nextstep") return AutoresetMode::next_step;
  if (n == "samestep") return AutoresetMode::same_step;
  if (n == "disabled") return AutoresetMode::disabled;
  throw Error("autoreset_mode: '" + name +
              "' is not an autoreset mode; expected NextStep, SameStep or Disabled");
}

}  // namespace cule
