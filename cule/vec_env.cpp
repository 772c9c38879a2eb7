#include "cule/vec_env.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "cule/error.hpp"
#include "cule/game_rules.hpp"
#include "cule/host_outputs.hpp"
#include "cule/vec_env_storage.hpp"
#include "kernels/palette.hpp"

namespace cule {
namespace {

EnvConfig validated(const EnvConfig& config) {
  config.validate();
  if (config.batch_size != 0 && config.batch_size != config.num_envs) {
    throw Error("batch_size: " + std::to_string(config.batch_size) + " of " +
                std::to_string(config.num_envs) +
                " environments makes asynchronous batches, which are cule::AsyncVecEnv's; "
                "VecEnv steps every environment together (expected 0 or num_envs)");
  }
  return config;
}

// Element i * size of v onwards.
template <class V>
auto slice(V& v, size_t i, size_t size) -> decltype(v.begin()) {
  return v.begin() + int64_t(i * size);
}

// The CPU backend: the batch in host vectors, environments spread over a
// thread pool.
class CpuStorage final : public VecEnv::Storage {
 public:
  CpuStorage(const std::vector<VecEnv::Game>& games, int num_envs, ThreadPool& pool)
      : games_(games),
        setup_(games.front().setup),
        n_(size_t(num_envs)),
        pool_(pool),
        outputs_(n_, size_t(setup_.obs_bytes), setup_.autoreset_mode == AutoresetMode::same_step) {
    const EnvSetup& setup = setup_;
    for (size_t g = 0; g < games_.size(); ++g) {
      game_of_.insert(game_of_.end(), size_t(games_[g].count), uint16_t(g));
    }
    consoles_.resize(n_);
    episodes_.resize(n_);
    if (!setup.draw_all_frames) saves_.resize(n_);
    pixels_.assign(n_ * 2 * setup.screen_pixels, 0);
    captured_.assign(n_ * 2 * size_t(setup.capture_bytes), 0);
    scratch_.assign(n_ * size_t(setup.scratch_floats), 0.0f);
  }

  EnvBatch batch() override {
    return EnvBatch{
        consoles_.data(),
        episodes_.data(),
        saves_.empty() ? nullptr : saves_.data(),
        pixels_.data(),
        captured_.data(),
        scratch_.data(),
        outputs_.observations.data(),
        outputs_.final_observations.empty() ? nullptr : outputs_.final_observations.data(),
        outputs_.rewards.data(),
        outputs_.terminated.data(),
        outputs_.truncated.data(),
        outputs_.autoreset.data(),
        outputs_.lives.data(),
        outputs_.episode_frames.data(),
        outputs_.frame_numbers.data(),
        outputs_.episode_returns.data(),
        outputs_.episode_lengths.data()};
  }

  ModeStatus reset(const uint8_t* mask, const uint64_t* seeds, int mode, int difficulty,
                   void*) override {
    std::vector<ModeStatus> status(n_, ModeStatus::ok);
    pool_.parallel_for(int(n_), [&](int i) {
      if (mask && !mask[i]) return;
      status[size_t(i)] = reset_one(i, seeds ? &seeds[i] : nullptr, mode, difficulty);
    });
    return worst(status);
  }

  ModeStatus step(const int32_t* actions, const float* paddle_strengths, bool, void*) override {
    std::vector<ModeStatus> status(n_, ModeStatus::ok);
    pool_.parallel_for(int(n_), [&](int i) {
      status[size_t(i)] = step_one(i, actions[i], paddle_strengths ? paddle_strengths[i] : 1.0f);
    });
    return worst(status);
  }

  ModeStatus reset_one(int i, const uint64_t* seed, int mode, int difficulty) override {
    const EnvBatch b = batch();
    const VecEnv::Game& game = games_[game_of_[size_t(i)]];
    ModeStatus status = ModeStatus::ok;
    if (seed) {
      const Console::Snapshot& constructed = game.prototype->constructed();
      status = env_rebuild(game.setup, b, i, constructed.state, constructed.frames.data(), *seed,
                           mode, difficulty);
    }
    b.autoreset[i] = 0;
    const ModeStatus reset_status = env_reset(game.setup, b, i);
    return reset_status != ModeStatus::ok ? reset_status : status;
  }

  ModeStatus step_one(int i, int32_t action, float paddle_strength) override {
    return env_step(games_[game_of_[size_t(i)]].setup, batch(), i, action, paddle_strength);
  }

  void read(int i, VecEnv::Snapshot::Env& out) const override {
    const size_t k = size_t(i);
    out.console = consoles_[k];
    out.episode = episodes_[k];
    out.pixels.assign(slice(pixels_, k, 2 * setup_.screen_pixels),
                      slice(pixels_, k + 1, 2 * setup_.screen_pixels));
    out.captured.assign(slice(captured_, k, 2 * size_t(setup_.capture_bytes)),
                        slice(captured_, k + 1, 2 * size_t(setup_.capture_bytes)));
    out.observation.assign(slice(outputs_.observations, k, size_t(setup_.obs_bytes)),
                           slice(outputs_.observations, k + 1, size_t(setup_.obs_bytes)));
    out.reward = outputs_.rewards[k];
    out.terminated = outputs_.terminated[k];
    out.truncated = outputs_.truncated[k];
  }

  void write(int i, const VecEnv::Snapshot::Env& in) override {
    const size_t k = size_t(i);
    consoles_[k] = in.console;
    episodes_[k] = in.episode;
    std::copy(in.pixels.begin(), in.pixels.end(), slice(pixels_, k, 2 * setup_.screen_pixels));
    std::copy(in.captured.begin(), in.captured.end(),
              slice(captured_, k, 2 * size_t(setup_.capture_bytes)));
    std::copy(in.observation.begin(), in.observation.end(),
              slice(outputs_.observations, k, size_t(setup_.obs_bytes)));
    outputs_.rewards[k] = in.reward;
    outputs_.terminated[k] = in.terminated;
    outputs_.truncated[k] = in.truncated;
    outputs_.autoreset[k] = 0;
    env_write_outputs(batch(), i);
  }

  const uint8_t* screen(int i) override {
    return env_frame_buffers(setup_, batch(), i).current(consoles_[size_t(i)].machine.tia);
  }
  const uint8_t* ram(int i) override { return consoles_[size_t(i)].machine.riot.ram; }
  uint32_t check_errors() override { return 0; }
  void synchronize() override {}
  void order_before(void*) override {}
  void copy_to_host(const void* from, void* to, size_t bytes) override {
    std::memcpy(to, from, bytes);
  }

 private:
  static ModeStatus worst(const std::vector<ModeStatus>& status) {
    for (ModeStatus s : status) {
      if (s != ModeStatus::ok) return s;
    }
    return ModeStatus::ok;
  }

  std::vector<VecEnv::Game> games_;
  EnvSetup setup_;                 // the geometry, common to every game
  std::vector<uint16_t> game_of_;  // per environment, its index in games_
  size_t n_;
  ThreadPool& pool_;
  std::vector<AleConsole> consoles_;
  std::vector<EnvEpisode> episodes_;
  std::vector<EnvSave> saves_;
  std::vector<uint8_t> pixels_, captured_;
  std::vector<float> scratch_;
  HostOutputs outputs_;  // per environment
};

}  // namespace

std::unique_ptr<VecEnv::Storage> make_cpu_storage(const std::vector<VecEnv::Game>& games,
                                                  int num_envs, ThreadPool& pool) {
  return std::make_unique<CpuStorage>(games, num_envs, pool);
}

VecEnv::VecEnv(const Rom& rom, const EnvConfig& config) : VecEnv(std::vector<Rom>{rom}, config) {}

VecEnv::VecEnv(const std::vector<Rom>& roms, const EnvConfig& config)
    : config_(validated(config)),
      pool_(config_.device.kind == Device::Kind::cpu ? config_.num_threads : 1,
            config_.thread_affinity_offset) {
  if (roms.empty()) throw Error("roms: expected at least one ROM");
  if (int(roms.size()) > config_.num_envs) {
    throw Error("roms: " + std::to_string(roms.size()) + " games for " +
                std::to_string(config_.num_envs) +
                " environments; expected at most one game per environment");
  }
  prototypes_.reserve(roms.size());  // the storage keeps pointers to them
  for (const Rom& rom : roms) {
    Console& prototype = prototypes_.emplace_back(rom, uint32_t(config_.seed));
    if (!prototype.has_rules()) {
      throw Error("rom: '" + rom.name() + "' (md5 " + rom.md5() +
                  ") has no ALE game settings, so it has no rewards or episode ends; expected one "
                  "of the games cule.list_games() names");
    }
    // The prototype checks the mode and difficulty (and throws).
    if (config_.mode >= 0) prototype.set_mode(config_.mode);
    if (config_.difficulty >= 0) prototype.set_difficulty(config_.difficulty);
    game_names_.push_back(rom.name());
    game_ += (game_.empty() ? "" : "+") + rom.name();
    std::vector<int> actions;
    if (config_.full_action_space) {
      for (int a = 0; a < kNumActions; ++a) actions.push_back(a);
    } else {
      actions = minimal_action_set(prototype.game());
    }
    if (prototypes_.size() > 1 && actions != action_set_) {
      throw Error("full_action_space: '" + rom.name() + "' and '" + game_names_.front() +
                  "' have different minimal action sets; a batch of several games needs "
                  "full_action_space=true");
    }
    action_set_ = actions;
    const int height = prototype.height();
    if (height != prototypes_.front().height()) {
      throw Error("roms: '" + rom.name() + "' has a " + std::to_string(height) +
                  "-line screen and '" + game_names_.front() + "' a " +
                  std::to_string(prototypes_.front().height()) +
                  "-line one; the games of a batch need screens of one height");
    }
  }

  // The geometry, from the first game (every game has the same).
  EnvSetup& s = setup_;
  s.num_actions = int32_t(action_set_.size());
  for (size_t a = 0; a < action_set_.size(); ++a) s.action_set[a] = action_set_[a];
  s.frameskip = config_.frameskip;
  s.repeat_action_probability = config_.repeat_action_probability;
  s.max_num_frames_per_episode = config_.max_num_frames_per_episode;
  s.noop_max = config_.noop_max;
  s.stack_num = config_.stack_num;
  s.screen_pixels = prototypes_.front().frame_buffers().size;
  s.screen_height = prototypes_.front().height();
  s.obs_type = config_.obs_type;
  s.autoreset_mode = config_.autoreset_mode;
  s.fire_reset = config_.use_fire_reset &&
                 std::count(action_set_.begin(), action_set_.end(), int(Action::FIRE)) > 0;
  s.episodic_life = config_.episodic_life;
  s.life_loss_info = config_.life_loss_info;
  s.reward_clipping = config_.reward_clipping;
  s.count_reset_frames = config_.count_reset_frames;
  s.maxpool = config_.maxpool;
  // Only the last two frames of a step are observed: with frame skip 2 or
  // less every frame is, and drawn.
  s.draw_all_frames = config_.draw_all_frames || config_.frameskip <= 2;

  const int height = s.screen_height;
  if (config_.obs_type == ObsType::ram) {
    obs_shape_ = {config_.stack_num, 128};
    s.frame_bytes = 128;
    s.channels = 0;
  } else {
    if (config_.img_height == 0) config_.img_height = height;
    if (config_.img_height > height) {
      throw Error("img_height: " + std::to_string(config_.img_height) + " is taller than '" +
                  game_ + "''s " + std::to_string(height) +
                  "-line screen; frames are shrunk, never enlarged");
    }
    s.channels = config_.obs_type == ObsType::rgb ? 3 : 1;
    obs_shape_ = {config_.stack_num, config_.img_height, config_.img_width};
    if (s.channels == 3) obs_shape_.push_back(3);
    s.frame_bytes = config_.img_height * config_.img_width * s.channels;
    s.capture_bytes = height * kScreenWidth * s.channels;
    s.resize = config_.img_height != height || config_.img_width != kScreenWidth;
    s.scratch_floats = s.resize ? 2 * config_.img_width * 3 : 0;
    if (s.resize) {
      x_taps_.resize(size_t(config_.img_width * area_span_bound(kScreenWidth, config_.img_width)));
      y_taps_.resize(size_t(area_taps_bound(height, config_.img_height)));
      s.area.x_span = uint16_t(area_taps_padded(kScreenWidth, config_.img_width, x_taps_.data()));
      s.area.x_count = uint16_t(config_.img_width * s.area.x_span);
      s.area.y_count = uint16_t(area_taps(height, config_.img_height, y_taps_.data()));
      s.area.x_taps = x_taps_.data();
      s.area.y_taps = y_taps_.data();
      s.area.src_width = kScreenWidth;
      s.area.src_height = uint16_t(height);
      s.area.dst_width = uint16_t(config_.img_width);
      s.area.dst_height = uint16_t(config_.img_height);
    }
  }
  s.obs_bytes = s.frame_bytes * config_.stack_num;

  // Game g plays a contiguous run of environments, the runs as equal as can
  // be: on a GPU no warp then mixes games.
  const int n = config_.num_envs, count = int(prototypes_.size());
  for (int g = 0; g < count; ++g) {
    Game game{setup_, &prototypes_[size_t(g)], int(int64_t(g) * n / count), 0, nullptr};
    game.count = int(int64_t(g + 1) * n / count) - game.first;
    game.setup.ale = game.prototype->setup();
    game.setup.palette = &palette_for(game.prototype->properties().format == TvFormat::PAL);
    if (!config_.run_full_resets) {
      game.reset_copy = find_reset_copy(*game.prototype, config_.mode, config_.difficulty);
      if (game.reset_copy) game.setup.reset_copy = game.reset_copy->view();
    }
    games_.push_back(game);
  }
  s.ale = games_.front().setup.ale;
  s.palette = games_.front().setup.palette;

  storage_ = config_.device.kind == Device::Kind::cpu
                 ? make_cpu_storage(games_, config_.num_envs, pool_)
                 : make_cuda_storage(games_, config_.num_envs, config_.device.index);
  batch_ = storage_->batch();
  // Environment i is ALE's environment built with seed + i.
  std::vector<uint64_t> seeds(size_t(config_.num_envs));
  for (size_t i = 0; i < seeds.size(); ++i) seeds[i] = config_.seed + i;
  check_status(storage_->reset(nullptr, seeds.data(), config_.mode, config_.difficulty, nullptr));
  check_device_errors();
}

int VecEnv::game_of(int env) const {
  check_env(env);
  int g = 0;
  while (env >= games_[size_t(g)].first + games_[size_t(g)].count) ++g;
  return g;
}

bool VecEnv::resets_copied(int game) const {
  if (game < 0 || game >= int(games_.size())) {
    throw Error("game: " + std::to_string(game) + " is out of range; expected 0-" +
                std::to_string(games_.size() - 1));
  }
  return games_[size_t(game)].reset_copy != nullptr;
}

VecEnv::~VecEnv() { wait_for_sent(); }

void VecEnv::wait_for_sent() const {
  if (!sent_.valid()) return;
  try {
    sent_.get();
  } catch (...) {
    sent_error_ = std::current_exception();
  }
}

void VecEnv::check_nothing_sent() const {
  if (sent_.valid()) {
    throw Error("send: the step sent before has not been received; call recv() first");
  }
}

void VecEnv::send(const int32_t* actions, const float* paddle_strengths, void* stream) {
  check_nothing_sent();
  check_actions(actions, paddle_strengths, num_envs());
  sent_actions_.assign(actions, actions + num_envs());
  sent_strengths_.clear();
  if (paddle_strengths) sent_strengths_.assign(paddle_strengths, paddle_strengths + num_envs());
  const float* strengths = paddle_strengths ? sent_strengths_.data() : nullptr;
  sent_error_ = nullptr;
  if (config_.device.kind != Device::Kind::cpu) {
    // Kernel launches return at once already.
    check_status(storage_->step(sent_actions_.data(), strengths, false, stream));
    sent_ = std::async(std::launch::deferred, [] {});
    return;
  }
  sent_ = std::async(std::launch::async, [this, strengths, stream] {
    check_status(storage_->step(sent_actions_.data(), strengths, false, stream));
  });
}

void VecEnv::send_device(const int32_t* actions, const float* paddle_strengths, void* stream) {
  if (config_.device.kind == Device::Kind::cpu) {
    send(actions, paddle_strengths, stream);
    return;
  }
  check_nothing_sent();
  storage_->step(actions, paddle_strengths, true, stream);
  sent_error_ = nullptr;
  sent_ = std::async(std::launch::deferred, [] {});  // the launch returned at once already
}

void VecEnv::recv() {
  if (!sent_.valid() && !sent_error_) throw Error("recv: no step was sent; call send() first");
  wait_for_sent();
  if (sent_error_) {
    const std::exception_ptr error = sent_error_;
    sent_error_ = nullptr;
    std::rethrow_exception(error);
  }
}

void VecEnv::check_env(int env) const {
  if (env < 0 || env >= num_envs()) {
    throw Error("env: " + std::to_string(env) + " is out of range; expected 0-" +
                std::to_string(num_envs() - 1));
  }
}

std::string VecEnv::mode_failure(ModeStatus status) const {
  return "game mode: selecting " + std::to_string(prototypes_.front().mode()) + " of '" + game_ +
         "' failed at a reset: " +
         (status == ModeStatus::gave_up ? "ALE gives up after 100 presses of SELECT"
                                        : "the game never reached it");
}

void VecEnv::check_status(ModeStatus status) const {
  if (status != ModeStatus::ok) throw Error(mode_failure(status));
}

const uint8_t* VecEnv::screen(int env) const {
  check_env(env);
  wait_for_sent();
  return storage_->screen(env);
}

void VecEnv::screen_rgb(int env, uint8_t* out) const {
  palette_rgb_row(games_[size_t(game_of(env))].setup.palette, screen(env), out,
                  setup_.screen_height * kScreenWidth);
}

void VecEnv::screen_grayscale(int env, uint8_t* out) const {
  palette_gray_row(games_[size_t(game_of(env))].setup.palette, screen(env), out,
                   setup_.screen_height * kScreenWidth);
}

int VecEnv::frames_per_second() const {
  return prototypes_.front().properties().format == TvFormat::PAL ? 50 : 60;
}

const uint8_t* VecEnv::ram(int env) const {
  check_env(env);
  wait_for_sent();
  return storage_->ram(env);
}

void VecEnv::reset(const uint8_t* mask, const uint64_t* seeds, void* stream) {
  wait_for_sent();
  std::vector<uint64_t> per_env;
  if (seeds) {
    // One seed per environment reset, in order: spread over the batch.
    per_env.assign(size_t(num_envs()), 0);
    size_t k = 0;
    for (int i = 0; i < num_envs(); ++i) {
      if (!mask || mask[i]) per_env[size_t(i)] = seeds[k++];
    }
  }
  check_status(storage_->reset(mask, seeds ? per_env.data() : nullptr, config_.mode,
                               config_.difficulty, stream));
}

void VecEnv::reset_env(int env, const uint64_t* seed) {
  check_env(env);
  check_status(storage_->reset_one(env, seed, config_.mode, config_.difficulty));
}

void VecEnv::step_env(int env, int32_t action, float paddle_strength) {
  check_env(env);
  check_actions(&action, &paddle_strength, 1);
  check_status(storage_->step_one(env, action, paddle_strength));
}

void VecEnv::check_actions(const int32_t* actions, const float* paddle_strengths, int count) const {
  const int n_actions = int(action_set_.size());
  for (int i = 0; i < count; ++i) {
    if (actions[i] < 0 || actions[i] >= n_actions) {
      throw Error("actions[" + std::to_string(i) + "]: " + std::to_string(actions[i]) +
                  " is out of range; expected 0-" + std::to_string(n_actions - 1) + " ('" + game_ +
                  "' has " + std::to_string(n_actions) + " actions)");
    }
    if (paddle_strengths && !paddle_strength_valid(paddle_strengths[i])) {
      throw Error("paddle_strengths[" + std::to_string(i) +
                  "]: " + std::to_string(paddle_strengths[i]) +
                  " is out of range; expected a number of magnitude at most " +
                  std::to_string(int(kMaxPaddleStrength)));
    }
  }
}

void VecEnv::step(const int32_t* actions, const float* paddle_strengths, void* stream) {
  wait_for_sent();
  check_actions(actions, paddle_strengths, num_envs());
  check_status(storage_->step(actions, paddle_strengths, false, stream));
}

void VecEnv::step_device(const int32_t* actions, const float* paddle_strengths, void* stream) {
  wait_for_sent();
  if (config_.device.kind == Device::Kind::cpu) {
    step(actions, paddle_strengths, stream);
    return;
  }
  storage_->step(actions, paddle_strengths, true, stream);
}

void VecEnv::check_device_errors() {
  wait_for_sent();
  const uint32_t errors = storage_->check_errors();
  // check_errors cleared the word: one message tells every error it held.
  std::string message;
  auto add = [&message](const std::string& error) {
    message += (message.empty() ? "" : "; ") + error;
  };
  if (errors & kErrorBadAction) {
    add("actions: a step_device() call had an action out of range; expected 0-" +
        std::to_string(action_set_.size() - 1) + " ('" + game_ + "' has " +
        std::to_string(action_set_.size()) + " actions); those environments were not stepped");
  }
  if (errors & kErrorBadStrength) {
    add("paddle_strengths: a step_device() call had a strength out of range; expected a "
        "number of magnitude at most " +
        std::to_string(int(kMaxPaddleStrength)) + "; those environments were not stepped");
  }
  if (errors & kErrorModeGaveUp) add(mode_failure(ModeStatus::gave_up));
  if (errors & kErrorModeSelection) add(mode_failure(ModeStatus::not_reached));
  if (!message.empty()) throw Error(message);
}

void VecEnv::synchronize() {
  wait_for_sent();
  storage_->synchronize();
}

void VecEnv::copy_to_host(const void* buffer, void* host, size_t bytes) {
  wait_for_sent();
  storage_->copy_to_host(buffer, host, bytes);
}

void VecEnv::order_before(void* consumer_stream) { storage_->order_before(consumer_stream); }

std::shared_ptr<const VecEnv::Snapshot> VecEnv::clone_state(const uint8_t* mask) const {
  wait_for_sent();
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->owner = this;
  storage_->synchronize();
  for (int i = 0; i < num_envs(); ++i) {
    if (mask && !mask[i]) continue;
    snapshot->envs.push_back(i);
    snapshot->state.emplace_back();
    storage_->read(i, snapshot->state.back());
  }
  return snapshot;
}

void VecEnv::restore_state(const Snapshot& snapshot) {
  wait_for_sent();
  if (snapshot.owner != this) {
    throw Error("snapshot: taken from another VecEnv; expected one of this batch's clone_state()");
  }
  storage_->synchronize();
  for (size_t k = 0; k < snapshot.envs.size(); ++k) {
    storage_->write(snapshot.envs[k], snapshot.state[k]);
  }
  // A copy to the device from pageable memory may return before it lands,
  // and a stream that does not wait for the default one (PyTorch's side
  // streams) would not wait for it.
  storage_->synchronize();
}

}  // namespace cule
