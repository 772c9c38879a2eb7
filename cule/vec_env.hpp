// A batch of environments of one game (or several): ALE's Atari
// environments with AtariVectorEnv's preprocessing, stepped together on CPU
// threads or a CUDA device.
//
//   cule::VecEnv env(cule::Rom::load("pong.bin"), config);
//   env.reset();
//   env.step(actions);                     // num_envs indices into action_set()
//   env.observations(); env.rewards(); env.terminated(); env.truncated();
//
// Every buffer is allocated once and rewritten in place by each reset and
// step, so views of it stay valid for the environment's lifetime. The
// environments' logic is kernels/env_step.hpp: the CPU backend runs it on a
// thread pool, the CUDA backend in one device thread per environment.
#pragma once

#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "cule/console.hpp"
#include "cule/env_config.hpp"
#include "cule/reset_copy.hpp"
#include "cule/rom.hpp"
#include "cule/thread_pool.hpp"
#include "kernels/env_step.hpp"

namespace cule {

class VecEnv {
 public:
  //! Throws cule::Error for a bad option, a ROM without ALE game settings
  //! (no rewards or terminals to give), or a mode or difficulty the game
  //! does not have; cule::DeviceError for a device this build or machine
  //! cannot use.
  VecEnv(const Rom& rom, const EnvConfig& config);
  //! A batch of several games: game g plays environments [g * n / G,
  //! (g + 1) * n / G) of n, for G games (so consecutive environments share a
  //! game). The games must have one screen height, and one action set: the
  //! same minimal set, or full_action_space. Each game checks the mode and
  //! difficulty. Throws cule::Error naming the ROM that does not fit.
  VecEnv(const std::vector<Rom>& roms, const EnvConfig& config);
  ~VecEnv();
  VecEnv(const VecEnv&) = delete;
  VecEnv& operator=(const VecEnv&) = delete;

  const EnvConfig& config() const { return config_; }
  int num_envs() const { return config_.num_envs; }
  int num_threads() const { return pool_.size(); }
  const Device& device() const { return config_.device; }
  //! The game's name; for several games, their names joined by '+'.
  const std::string& game() const { return game_; }
  //! The names of the batch's games, and which one environment `env` plays.
  const std::vector<std::string>& games() const { return game_names_; }
  int game_of(int env) const;
  //! Whether game g's resets are copies of their result (cule/reset_copy.hpp)
  //! rather than ALE's whole reset. Throws cule::Error for a game out of range.
  bool resets_copied(int game = 0) const;
  //! The ALE actions (0-17) that step()'s action indices stand for.
  const std::vector<int>& action_set() const { return action_set_; }

  //! One environment's observation shape: (stack, height, width[, 3]) or
  //! (stack, 128).
  const std::vector<int64_t>& observation_shape() const { return obs_shape_; }
  int64_t observation_bytes() const { return setup_.obs_bytes; }

  //! Starts new episodes in the environments where mask[i] != 0 (all of them
  //! when mask is null). `seeds`, when given, holds one seed per environment
  //! reset (in order): it rebuilds that environment from the ROM with the
  //! seed, as AtariVectorEnv's reset(seed=...) does. Every buffer reports the
  //! reset environments' new state; the others keep theirs. `mask` and
  //! `seeds` are host memory. On CUDA the work is queued on `stream` (a
  //! cudaStream_t; null: the default stream), after the resets and steps
  //! queued before it on any stream; so are steps. (A stream being captured
  //! into a CUDA graph is not ordered after work outside the capture: order
  //! the graph's launches, as CUDA requires of captures.)
  void reset(const uint8_t* mask = nullptr, const uint64_t* seeds = nullptr,
             void* stream = nullptr);

  //! One step of every environment: actions[i] (host memory) indexes
  //! action_set(). `paddle_strengths` (optional, one per environment) scales
  //! a paddle game's turn as ALE's act(action, strength). Throws cule::Error,
  //! before anything runs, for an action out of range.
  void step(const int32_t* actions, const float* paddle_strengths = nullptr,
            void* stream = nullptr);

  //! The first half of step(): checks and copies the actions, starts the step
  //! and returns at once (CPU: on a thread of its own; CUDA: queued on
  //! `stream`), so the caller can work meanwhile. The buffers hold the step's
  //! results after recv(); every other call waits for the step first.
  //! Throws cule::Error for bad actions, or if a sent step was not received.
  void send(const int32_t* actions, const float* paddle_strengths = nullptr,
            void* stream = nullptr);
  //! send() with the actions (and strengths) in the device's memory, as
  //! step_device() takes them (on CPU: send()).
  void send_device(const int32_t* actions, const float* paddle_strengths = nullptr,
                   void* stream = nullptr);
  //! Waits for the step send() started; rethrows what it threw. Throws
  //! cule::Error when no step was sent.
  void recv();

  //! Throws cule::Error for an action index out of range or a strength out
  //! of range (NaN, or magnitude over kMaxPaddleStrength, 65536) among the
  //! first `count` (host memory).
  void check_actions(const int32_t* actions, const float* paddle_strengths, int count) const;

  //! One environment's reset (rebuilt from the ROM with *seed first when
  //! given) or step, run on the calling thread: the tasks of
  //! cule::AsyncVecEnv. Calls for different environments may run at once on
  //! different threads, and other environments' buffer rows may be read
  //! meanwhile; no other call may run. Throws cule::Error for an environment
  //! or action out of range. CPU only.
  void reset_env(int env, const uint64_t* seed);
  void step_env(int env, int32_t action, float paddle_strength);

  //! step() with the actions (and strengths) already in the device's memory,
  //! so nothing crosses to the host. An action out of range, or a strength
  //! out of range, leaves its environment as it was and is reported by the
  //! next check_device_errors() (the step itself cannot wait for the device
  //! to say so). On CPU the pointers are host memory and this is step().
  void step_device(const int32_t* actions, const float* paddle_strengths = nullptr,
                   void* stream = nullptr);
  //! Waits for the device and throws cule::Error if a step_device() since the
  //! last check met an action or a strength out of range, or a
  //! reset a mode selection that never ended.
  void check_device_errors();
  //! Waits until every queued reset and step has finished (CPU: returns).
  void synchronize();
  //! Copies `bytes` of one of this batch's buffers to host memory, after the
  //! queued work has run.
  void copy_to_host(const void* buffer, void* host, size_t bytes);
  //! Makes work queued on `consumer_stream` from now on wait for the resets
  //! and steps queued so far (the stream semantics of DLPack export; CPU:
  //! nothing to do).
  void order_before(void* consumer_stream);

  // The batch buffers, num_envs entries each (observations: num_envs x
  // observation_bytes()), in the device's memory: host memory on CPU, device
  // memory on CUDA (read them after the stream has run the step).
  const uint8_t* observations() const { return batch_.observations; }
  //! The observations that ended episodes in the last step, for
  //! AutoresetMode::same_step (rows of other environments are stale).
  const uint8_t* final_observations() const { return batch_.final_observations; }
  const float* rewards() const { return batch_.rewards; }
  const uint8_t* terminated() const { return batch_.terminated; }
  const uint8_t* truncated() const { return batch_.truncated; }
  const int32_t* lives() const { return batch_.lives; }
  //! Frames emulated in the current episode (ALE's getEpisodeFrameNumber).
  const int32_t* episode_frame_numbers() const { return batch_.episode_frame_numbers; }
  //! Frames emulated since the environment was built (ALE's getFrameNumber).
  const int64_t* frame_numbers() const { return batch_.frame_numbers; }
  //! Total reward and length (agent steps) of the episode under way.
  const float* episode_returns() const { return batch_.episode_returns; }
  const int32_t* episode_lengths() const { return batch_.episode_lengths; }
  //! For same_step: 1 where the last step ended an episode and reset.
  const uint8_t* autoreset() const { return batch_.autoreset; }
  //! The screen of one environment (palette indices, screen_height() x 160),
  //! in host memory (copied from the device on CUDA; valid until the next
  //! call of screen or ram).
  const uint8_t* screen(int env) const;
  int screen_height() const { return setup_.screen_height; }
  //! The screen of one environment in RGB (screen_height() x 160 x 3 bytes
  //! into `out`), with its game's palette, as ALE's getScreenRGB.
  void screen_rgb(int env, uint8_t* out) const;
  //! ... in grey (screen_height() x 160 bytes), as ALE's getScreenGrayscale.
  void screen_grayscale(int env, uint8_t* out) const;
  //! The TV's frames a second of the (first) game: 60 (NTSC) or 50 (PAL).
  int frames_per_second() const;
  //! One environment's RIOT RAM (128 bytes), in host memory as screen().
  const uint8_t* ram(int env) const;

  using Episode = EnvEpisode;

  //! Everything that determines some environments' future: consoles,
  //! episode bookkeeping, frame stacks and last outputs (host copies).
  struct Snapshot {
    const VecEnv* owner;
    std::vector<int> envs;
    struct Env {
      AleConsole console;
      EnvEpisode episode;
      std::vector<uint8_t> pixels;    // the console's frame buffers
      std::vector<uint8_t> captured;  // the last two frames
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

  //! One game of a batch, for the backends: environments [first, first +
  //! count) play it.
  struct Game {
    EnvSetup setup;  //!< host pointers; the geometry is the same for every game
    const Console* prototype;
    int first, count;
    std::shared_ptr<const ResetCopy> reset_copy;  //!< the game's reset as a copy (null: none)
  };

  //! Where a backend keeps the batch (host vectors or device arrays).
  class Storage;

 private:
  // Throws cule::Error unless 0 <= env < num_envs().
  void check_env(int env) const;
  // Throws cule::Error while a step sent is not received.
  void check_nothing_sent() const;
  // What a failed mode selection (status not ok) means, for an error.
  std::string mode_failure(ModeStatus status) const;
  // Throws cule::Error when a mode selection failed.
  void check_status(ModeStatus status) const;
  // Waits for a step send() started, if any (its errors are kept for recv).
  void wait_for_sent() const;

  EnvConfig config_;
  std::string game_;
  std::vector<std::string> game_names_;
  std::vector<int> action_set_;
  std::vector<int64_t> obs_shape_;
  // Per game: setup, ROM image and the state every console starts from.
  std::vector<Console> prototypes_;
  std::vector<AreaTap> x_taps_, y_taps_;
  EnvSetup setup_{};  // host pointers; the batch's geometry (the first game's setup)
  std::vector<Game> games_;
  std::unique_ptr<Storage> storage_;
  EnvBatch batch_{};  // the storage's pointers
  // send(): the step under way and its copies of the actions.
  mutable std::future<void> sent_;
  mutable std::exception_ptr sent_error_;
  std::vector<int32_t> sent_actions_;
  std::vector<float> sent_strengths_;
  mutable ThreadPool pool_;
};

}  // namespace cule
