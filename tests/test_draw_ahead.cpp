// The device's CPU loop draws up to the beam every few instructions, all of
// a warp's consoles together (console_run_instructions' kDrawEvery); the
// host's draws only when an access needs the picture. Drawing early must
// change nothing ALE shows: every ale-py game runs here on both loops side
// by side, the drawing loop drawing before every instruction, and each
// frame's console and both frame buffers must agree (see compare_games).
// The drawing loop also runs the device's CPU step, decoded, with the code
// read ahead (CodeAhead), where the host's runs its per-opcode step, and
// waits some of its iterations, as a console waits for its warp on the
// device (WaitsNowAndThen).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cule/console.hpp"
#include "cule/rom.hpp"
#include "testdata.hpp"

namespace cule {
namespace {

constexpr int kFramesPerGame = 400;

//! A console of the device's loop that waits one iteration in four,
//! pseudo-randomly, as a lane waits for its warp's earliest
//! (WarpSchedule): the iterations it waits draw ahead again and run no
//! instruction.
struct WaitsNowAndThen {
  static constexpr bool kMayWait = true;
  uint32_t state = 2600;
  bool runs_now(uint32_t) {
    state = state * 1664525u + 1013904223u;
    return (state >> 30) != 0;
  }
};

//! A console and its two frame buffers.
struct Side {
  AleConsole state;
  std::vector<uint8_t> pixels;
  // The device's loop: draws up to the beam before every instruction where
  // it may, runs the decoded step, and waits now and then.
  bool ahead;

  //! Runs a frame; returns whether it ended partial.
  bool run_frame(const AleSetup& setup, int action, bool draw, bool may_redo,
                 uint16_t draw_ahead_rows) {
    controls_set_events(state.controls, setup.controllers, action, HeldSwitch::none, 1.0f);
    const ConsoleInputs inputs =
        controls_inputs(state.controls, setup.controllers, state.difficulty);
    FrameBuffers frames{pixels.data(), uint32_t(pixels.size() / 2)};
    frames.draw = draw;
    frames.may_redo = may_redo;
    frames.draw_ahead_rows = draw_ahead_rows;
    if (ahead) {
      console_run_frame_here<1, false, kAnyMapper, true, WaitsNowAndThen>(
          state.machine, setup.console, frames, inputs);
    } else {
      console_run_frame(state.machine, setup.console, frames, inputs);
    }
    return state.machine.tia.partial_frame;
  }

  //! An environment's step as env_step_frames runs it: the frames before
  //! the last 2 undrawn, all of them frames that may be run again, drawn
  //! ahead in every row if undrawn, if drawn in the rows that the new frame
  //! two before drew; where one ends partial, or the drawn ones or the
  //! buffers are not ALE's, the console is put back (not its pixels) and
  //! the step runs again, every frame drawn and none to be run again.
  //! Returns whether it ran again.
  bool run_step(const AleSetup& setup, int action, int frameskip) {
    const AleConsole saved = state;
    const Tia& tia = state.machine.tia;
    uint16_t rows_drawn[2] = {0, 0};
    bool exact = true;
    for (int frame = 0; frame < frameskip && exact; ++frame) {
      const bool draw = frameskip - frame <= 2, new_frame = !tia.partial_frame;
      exact = !run_frame(setup, action, draw, true, draw ? rows_drawn[frame & 1] : kAllRows) &&
              !(draw && tia.undrawn_pixels[tia.current_buffer] != 0);
      rows_drawn[frame & 1] = new_frame ? tia_rows_drawn(tia) : 0;
    }
    if (exact && tia.undrawn_pixels[0] == 0 && tia.undrawn_pixels[1] == 0) return false;
    state = saved;
    for (int frame = 0; frame < frameskip; ++frame) run_frame(setup, action, true, false, 0);
    return true;
  }
};

struct Compared {
  size_t games = 0;
  int frames = 0;   // compared
  int partial = 0;  // frames that ended partial (steps: run again)
};

namespace fs = std::filesystem;

std::vector<fs::path> ale_py_roms() {
  std::vector<fs::path> roms;
  for (const fs::directory_entry& entry : fs::directory_iterator(testing::ale_roms_dir())) {
    if (entry.path().extension() == ".bin") roms.push_back(entry.path());
  }
  std::sort(roms.begin(), roms.end());
  return roms;
}

//! Runs each game from its reset on both loops, with random actions, and
//! compares the consoles and both frame buffers. With `may_redo`, in the
//! environments' steps (Side::run_step), with a frame skip of 4 and again
//! of 3, compared after each step, a step run again counted as partial;
//! else frame by frame, each drawn where a step of 4 would draw it.
Compared compare_games(const std::vector<fs::path>& roms, bool may_redo) {
  std::mt19937 rng(2600);
  Compared compared;
  for (const fs::path& path : roms) {
    SCOPED_TRACE(path.filename().string());
    Console console(Rom::load(path.string()));
    console.reset();
    const AleSetup& setup = console.setup();
    const FrameBuffers& buffers = console.frame_buffers();
    for (const int frameskip : may_redo ? std::vector<int>{4, 3} : std::vector<int>{1}) {
      SCOPED_TRACE("frame skip " + std::to_string(frameskip));
      Side host{console.ale_state(), {buffers.pixels, buffers.pixels + 2 * buffers.size}, false};
      Side ahead = host;
      ahead.ahead = true;
      for (int frame = 0; frame < kFramesPerGame; frame += frameskip) {
        const int action = int(rng() % kNumActions);
        if (may_redo) {
          compared.partial += host.run_step(setup, action, frameskip);
          ahead.run_step(setup, action, frameskip);
        } else {
          const bool draw = frame % 4 >= 2;
          compared.partial += host.run_frame(setup, action, draw, false, 0);
          ahead.run_frame(setup, action, draw, false, 0);
        }
        if (std::memcmp(&host.state.machine, &ahead.state.machine, sizeof(ConsoleState)) != 0 ||
            host.pixels != ahead.pixels) {
          ADD_FAILURE() << "the consoles or their pixels differ after frame " << frame;
          return compared;
        }
        ++compared.frames;
      }
    }
    ++compared.games;
  }
  return compared;
}

TEST(DrawAhead, EveryAlePyGameShowsTheSameFrames) {
  if (testing::ale_roms_dir().empty()) GTEST_SKIP() << testing::kNoAleRoms;
  const Compared c = compare_games(ale_py_roms(), true);
  std::printf("%zu games, %d steps compared, %d run again\n", c.games, c.frames, c.partial);
  EXPECT_GE(c.games, 100u) << "ale-py ships over 100 ROMs";
}

// The project's cartridge of uneven frames (roms/uneven_frames.asm), in
// steps of 4 frames and of 3, ends a frame partial two frames after one
// that ended short of the picture's last row, and two frames after one
// that went on from a partial frame: where the step runs again, that frame
// draws over only the rows it reached (from the top, or from where the
// partial one had stopped) before the partial one does.
TEST(DrawAhead, StepsWhosePartialFrameFollowsAShortOne) {
  const Compared c = compare_games({fs::path(CULE_CARTRIDGE_DIR) / "uneven_frames.bin"}, true);
  std::printf("%d steps compared, %d run again\n", c.frames, c.partial);
  EXPECT_EQ(c.games, 1u);
  EXPECT_GT(c.partial, 0) << "a frame of the cartridge's should end partial";
}

// Frames that are not run again (a rerun's, a reset's, cule::Console's)
// must not be drawn ahead: partial ones included, they stay ALE's.
TEST(DrawAhead, NotInFramesThatAreNotRunAgain) {
  if (testing::ale_roms_dir().empty()) GTEST_SKIP() << testing::kNoAleRoms;
  const Compared c = compare_games(ale_py_roms(), false);
  std::printf("%zu games, %d frames compared, %d ended partial\n", c.games, c.frames, c.partial);
  EXPECT_GE(c.games, 100u) << "ale-py ships over 100 ROMs";
  EXPECT_GT(c.partial, 0) << "some frames should end partial, where drawing ahead would show";
}

}  // namespace
}  // namespace cule
