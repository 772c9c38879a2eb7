// A single Atari 2600 with ALE's controls: load a ROM, reset, act frame by
// frame, read the screen and RAM. The emulation is kernels/console.hpp.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "cule/game_modes.hpp"
#include "cule/game_rules.hpp"
#include "cule/rom.hpp"
#include "kernels/console.hpp"

namespace cule {

//! ALE's actions for player A (ale_py.Action), 0-17.
enum class Action : uint8_t {
  NOOP,
  FIRE,
  UP,
  RIGHT,
  LEFT,
  DOWN,
  UPRIGHT,
  UPLEFT,
  DOWNRIGHT,
  DOWNLEFT,
  UPFIRE,
  RIGHTFIRE,
  LEFTFIRE,
  DOWNFIRE,
  UPRIGHTFIRE,
  UPLEFTFIRE,
  DOWNRIGHTFIRE,
  DOWNLEFTFIRE,
};
constexpr int kNumActions = 18;

//! One console, set up and driven the way ALE's ALEInterface drives its own.
class Console : private ResetContext {
 public:
  //! Builds the console as ALE's loadROM does, ending with an ALE reset.
  //! `seed` is ALE's "random_seed": it seeds the environment RNG that ALE
  //! draws from on every act (and that Adventure's mode selection uses).
  explicit Console(Rom rom, uint32_t seed = 0);

  // The configuration and frame buffers point into this object's own ROM
  // image and pixels: a console moves, but is not copied (clone_state is the
  // copy of its state).
  Console(const Console&) = delete;
  Console& operator=(const Console&) = delete;
  Console(Console&&) = default;
  Console& operator=(Console&&) = default;

  //! ALE's reset_game: system reset, 60 no-op frames, RESET held 4 frames,
  //! the game's mode selection, RESET again, the game's starting actions.
  void reset();

  //! Emulates one frame with player A's `action` (0-17), as ALE's act with
  //! frame skip 1 and no sticky actions. In paddle games a left or right
  //! action turns the paddle by |paddle_strength| of ALE's full step.
  //! Throws cule::Error for an action out of range or a strength that is not
  //! finite.
  void act(int action, float paddle_strength);
  void act(int action) override { act(action, 1.0f); }

  //! The game mode selected at reset (ALE's default until set_mode).
  int mode() const { return mode_; }
  //! Selects the game mode used from the next reset on. Throws cule::Error
  //! for a mode the game does not have.
  void set_mode(int mode);

  //! The difficulty switches' setting (ALE's difficulty: bit 0 sets the
  //! left switch to A, bit 1 the right one); 0 until set_difficulty.
  int difficulty() const { return difficulty_; }
  //! Sets the difficulty switches from the next frame on, as ALE's
  //! setDifficulty. Throws cule::Error for a difficulty the game does not
  //! have.
  void set_difficulty(int difficulty);

  const Rom& rom() const { return rom_; }
  //! The game's properties, with the format ALE detected.
  const GameProperties& properties() const { return properties_; }
  int width() const { return kScreenWidth; }
  int height() const { return height_; }
  //! The last frame as NTSC/PAL palette indices, height() x width().
  const uint8_t* screen() const { return frames_.current(state_.tia); }
  //! Whether frames write pixels (on by default). Off, a frame still runs
  //! exactly (collisions included) but leaves the frame buffer as it was:
  //! for frames no one looks at.
  void set_drawing(bool draw) { frames_.draw = draw; }
  //! The last frame as RGB, height() x width() x 3, as ALE's getScreenRGB.
  void screen_rgb(uint8_t* out) const;
  //! The last frame as luminance, height() x width(), as ALE's getScreenGrayscale.
  void screen_grayscale(uint8_t* out) const;
  //! The 128 bytes of RIOT RAM.
  const uint8_t* ram() const { return state_.riot.ram; }
  //! ALE's getFrameNumber: frames emulated by act() since the console was
  //! built, plus one for each pressSelect of the resets' mode selections
  //! (ALE counts those as it counts acts; the other reset frames it does not).
  uint64_t frame_number() const { return frame_number_; }
  //! ALE's getEpisodeFrameNumber: the same count since the last reset began.
  uint32_t episode_frame_number() const { return episode_frame_number_; }

  //! Whether ALE has game settings for this ROM (then reward(), terminal()
  //! and lives() follow them; otherwise they stay 0, false and 0).
  bool has_rules() const { return game_ != Game::count; }
  //! The game the rules are for (valid when has_rules()).
  Game game() const { return game_; }
  //! ALE's getReward for the last frame emulated (by act or by the reset).
  int32_t reward() const { return game_rules_reward(rules_); }
  //! ALE's isTerminal (game over, by the game's settings).
  bool terminal() const { return game_rules_terminal(rules_); }
  //! ALE's lives().
  int32_t lives() const { return has_rules() ? game_rules_lives(game_, rules_) : 0; }
  //! The settings' state, as ALE's settings object keeps it.
  const GameRuleState& rules() const { return rules_; }

  // The controller events ALE sends (its Event table), before they reach
  // the ports through the game's controllers.
  struct JoystickEvents {
    bool up, down, left, right, fire;
  };
  struct AleEvents {
    JoystickEvents joystick[2];    // left jack (player A), right jack
    int32_t paddle_resistance[4];  // paddles 0-3; 0 until ALE first sets them
    bool paddle_fire[4];
    bool reset, select;
    bool difficulty_set;  // ALE's environment drives the difficulty switches
  };
  //! Controller and switch positions (ALE keeps them between frames).
  struct Controls {
    AleEvents events;
    uint8_t switches;  // port B switch positions
    int32_t left_paddle, right_paddle;
  };

  //! The whole emulator state: console, frame buffers, system RNG, controls.
  struct Snapshot {
    ConsoleState state;
    std::vector<uint8_t> frames;
    std::mt19937 rng;
    std::mt19937 env_rng;
    Controls controls;
    uint64_t frame_number;
    uint32_t episode_frame_number;
    GameRuleState rules;
  };
  Snapshot clone_state() const;
  void restore_state(const Snapshot& snapshot);

  //! The emulator state and per-ROM configuration, for tests and tools.
  const ConsoleState& state() const { return state_; }
  const ConsoleConfig& config() const { return config_; }

 private:
  // Console switches held during emulated frames.
  enum class Switch { None, Reset, Select };

  void system_reset();
  void set_events(int action, Switch held, float paddle_strength = 1.0f);
  ConsoleInputs hardware_inputs();
  void run_frames(int action, Switch held, int count, float paddle_strength = 1.0f);

  // ResetContext: the primitives of ALE's per-game mode selection.
  uint8_t read_ram(uint16_t address) override;
  uint8_t read_mapped(uint16_t address) override;
  void press_select(int frames) override;
  void soft_reset() override;
  uint32_t env_rng_next() override;

  Rom rom_;
  GameProperties properties_{};  // with the detected format and height
  ConsoleConfig config_{};
  int height_ = 0;
  std::vector<uint8_t> pixels_;
  FrameBuffers frames_{};
  ConsoleState state_{};
  std::mt19937 rng_;      // ALE's system RNG
  std::mt19937 env_rng_;  // ALE's environment RNG (sticky actions)
  int mode_ = 0;
  int difficulty_ = 0;
  Controls controls_{};
  uint64_t frame_number_ = 0;
  uint32_t episode_frame_number_ = 0;
  void count_frame() {
    ++frame_number_;
    ++episode_frame_number_;
  }
  Game game_ = Game::count;  // Game::count: no ALE settings
  GameRuleState rules_{};
  // During reset(): the memory after each frame on which ALE steps its
  // settings (RIOT RAM, then the first 128 bytes of cartridge RAM), replayed
  // into rules_ at the end, since setMode's effect on the settings lands at
  // its last soft reset, which is known only afterwards.
  static constexpr int kResetFrameBytes = 256;
  std::vector<uint8_t> reset_frames_;
  bool recording_reset_ = false;
  int last_soft_reset_frame_ = 0;
  void replay_reset(int settings_frame, int mode_frame);
  void step_rules(const uint8_t* ram, const uint8_t* cart_ram);
};

}  // namespace cule
