// A single Atari 2600 with ALE's controls: load a ROM, reset, act frame by
// frame, read the screen and RAM. The emulation is kernels/ale_console.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "cule/game_modes.hpp"
#include "cule/game_rules.hpp"
#include "cule/rom.hpp"
#include "kernels/ale_console.hpp"

namespace cule {

//! A ROM image laid out as the consoles read it: its code predecoded for
//! the decoded step, then the image (ConsoleConfig::rom points at it).
struct PredecodedRom {
  //! cartridge_code_entries(mapper) entries, then the image in 16-byte units.
  std::vector<PredecodedCode> memory;
  size_t code_entries = 0;
  size_t image_size = 0;

  //! The predecoded code: at each cartridge_code_index, the three bytes
  //! cartridge_read_code reads there with the opcode's table entry, valid
  //! where it reads them.
  const PredecodedCode* code() const { return memory.data(); }
  const uint8_t* image() const { return image_in(memory.data()); }
  //! The image within a copy of `memory` (a device's), for ConsoleConfig::rom.
  const uint8_t* image_in(const PredecodedCode* copy) const {
    return reinterpret_cast<const uint8_t*>(copy + code_entries);
  }
  size_t bytes() const { return memory.size() * sizeof(PredecodedCode); }
};

//! `image` run as `mapper` laid out with its code predecoded (none for
//! schemes whose code is never plain ROM reads: cartridge_code_entries).
PredecodedRom predecode_rom(Mapper mapper, const std::vector<uint8_t>& image);

//! One console, set up and driven the way ALE's ALEInterface drives its own.
//! It owns the ROM image and the frame buffers; the state and everything it
//! does is kernels/ale_console.hpp, which the CUDA backend runs too.
class Console {
 public:
  //! Builds the console as ALE's loadROM does, ending with an ALE reset.
  //! `seed` is ALE's "random_seed": it seeds the environment RNG that ALE
  //! draws from on every act (and that Adventure's mode selection uses).
  explicit Console(Rom rom, uint32_t seed = 0);

  // The configuration and frame buffers point into this object's own ROM
  // image, predecoded code and pixels: a console moves, but is not copied
  // (clone_state is the copy of its state).
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
  //! Throws cule::Error for an action out of range or a strength out of
  //! range (NaN, or magnitude over kMaxPaddleStrength, 65536).
  void act(int action, float paddle_strength = 1.0f);

  //! ALE's getAvailableModes and getAvailableDifficulties, in ALE's order
  //! ({0} for a ROM ALE has no settings for).
  std::vector<int> available_modes() const;
  std::vector<int> available_difficulties() const;

  //! The game mode selected at reset (ALE's default until set_mode).
  int mode() const { return state_.mode; }
  //! Selects the game mode used from the next reset on. Throws cule::Error
  //! for a mode the game does not have.
  void set_mode(int mode);

  //! The difficulty switches' setting (ALE's difficulty: bit 0 sets the
  //! left switch to A, bit 1 the right one); 0 until set_difficulty.
  int difficulty() const { return state_.difficulty; }
  //! Sets the difficulty switches from the next frame on, as ALE's
  //! setDifficulty. Throws cule::Error for a difficulty the game does not
  //! have.
  void set_difficulty(int difficulty);

  const Rom& rom() const { return rom_; }
  //! The ROM image with its predecoded code, which config() points into,
  //! for the backends that copy it to a device.
  const PredecodedRom& predecoded_rom() const { return predecoded_; }
  //! The game's properties, with the format ALE detected.
  const GameProperties& properties() const { return properties_; }
  int width() const { return kScreenWidth; }
  int height() const { return height_; }
  //! The last frame as NTSC/PAL palette indices, height() x width().
  const uint8_t* screen() const { return frames_.current(state_.machine.tia); }
  //! Whether frames write pixels (on by default). Off, a frame still runs
  //! exactly (collisions included) but leaves the frame buffer as it was:
  //! for frames no one looks at.
  void set_drawing(bool draw) { frames_.draw = draw; }
  //! The last frame as RGB, height() x width() x 3, as ALE's getScreenRGB.
  void screen_rgb(uint8_t* out) const;
  //! The last frame as luminance, height() x width(), as ALE's getScreenGrayscale.
  void screen_grayscale(uint8_t* out) const;
  //! The 128 bytes of RIOT RAM.
  const uint8_t* ram() const { return state_.machine.riot.ram; }
  //! ALE's setRAM: byte `index` (0-127) of RIOT RAM becomes `value`. Throws
  //! cule::Error for an index out of range.
  void set_ram(int index, uint8_t value);
  //! ALE's getFrameNumber: frames emulated by act() since the console was
  //! built, plus one for each pressSelect of the resets' mode selections
  //! (ALE counts those as it counts acts; the other reset frames it does not).
  uint64_t frame_number() const { return state_.frame_number; }
  //! ALE's getEpisodeFrameNumber: the same count since the last reset began.
  uint32_t episode_frame_number() const { return state_.episode_frame_number; }

  //! Whether ALE has game settings for this ROM (then reward(), terminal()
  //! and lives() follow them; otherwise they stay 0, false and 0).
  bool has_rules() const { return ale_has_rules(setup_); }
  //! The game the rules are for (valid when has_rules()).
  Game game() const { return setup_.game; }
  //! ALE's getReward for the last frame emulated (by act or by the reset).
  int32_t reward() const { return ale_reward(state_); }
  //! ALE's isTerminal (game over, by the game's settings).
  bool terminal() const { return ale_terminal(state_); }
  //! ALE's lives().
  int32_t lives() const { return ale_lives(state_, setup_); }
  //! The settings' state, as ALE's settings object keeps it.
  const GameRuleState& rules() const { return state_.rules; }

  //! The whole emulator state and the frame buffers.
  struct Snapshot {
    AleConsole state;
    std::vector<uint8_t> frames;
  };
  Snapshot clone_state() const;
  void restore_state(const Snapshot& snapshot);

  //! The emulator state, the per-ROM configuration and the frame buffers,
  //! for the batched backends, tests and tools.
  const ConsoleState& state() const { return state_.machine; }
  const ConsoleConfig& config() const { return setup_.console; }
  const AleConsole& ale_state() const { return state_; }
  AleConsole& ale_state() { return state_; }
  const AleSetup& setup() const { return setup_; }
  const FrameBuffers& frame_buffers() const { return frames_; }
  //! The console and frame buffers as ALE's Console constructor left them,
  //! before loadROM's reset: the same for every seed but the environment
  //! RNG's (see env_rebuild).
  const Snapshot& constructed() const { return constructed_; }

 private:
  Rom rom_;
  PredecodedRom predecoded_;
  GameProperties properties_{};  // with the detected format and height
  AleSetup setup_{};
  int height_ = 0;
  std::vector<uint8_t> pixels_;
  FrameBuffers frames_{};
  AleConsole state_{};
  Snapshot constructed_;
};

}  // namespace cule
