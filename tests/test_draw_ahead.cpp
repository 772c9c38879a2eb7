// The device's CPU loop draws up to the beam every few instructions, all of
// a warp's consoles together (console_run_instructions' kDrawEvery); the
// host's draws only when an access needs the picture. Drawing early must
// change nothing ALE shows: every ale-py game runs here on both loops side
// by side, the drawing loop drawing before every instruction, and each
// frame's console and both frame buffers must agree (see compare_every_game).
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

//! A console and its two frame buffers.
struct Side {
  AleConsole state;
  std::vector<uint8_t> pixels;

  void run_frame(const AleSetup& setup, const ConsoleInputs& inputs, bool draw, bool may_redo,
                 bool ahead) {
    FrameBuffers frames{pixels.data(), uint32_t(pixels.size() / 2)};
    frames.draw = draw;
    frames.may_redo = may_redo;
    if (ahead) {
      console_run_frame_here<1, false>(state.machine, setup.console, frames, inputs);
    } else {
      console_run_frame(state.machine, setup.console, frames, inputs);
    }
  }
};

struct Compared {
  size_t games = 0;
  int frames = 0;   // compared
  int partial = 0;  // frames that ended partial
};

//! Runs every ale-py game from its reset on both loops, with random
//! actions, in steps of 4 frames that draw their last 2 as the
//! environments' steps do, and compares the consoles and their frame
//! buffers after each frame. With `may_redo`, a frame that ends partial is
//! not compared: the environments' step runs such a frame again, so the
//! drawing side takes the host side's console and pixels.
Compared compare_every_game(bool may_redo) {
  namespace fs = std::filesystem;
  std::vector<fs::path> roms;
  for (const fs::directory_entry& entry : fs::directory_iterator(testing::ale_roms_dir())) {
    if (entry.path().extension() == ".bin") roms.push_back(entry.path());
  }
  std::sort(roms.begin(), roms.end());
  std::mt19937 rng(2600);
  Compared compared;
  for (const fs::path& path : roms) {
    SCOPED_TRACE(path.filename().string());
    Console console(Rom::load(path.string()));
    console.reset();
    const AleSetup& setup = console.setup();
    const FrameBuffers& buffers = console.frame_buffers();
    Side host{console.ale_state(), {buffers.pixels, buffers.pixels + 2 * buffers.size}};
    Side ahead = host;
    for (int frame = 0; frame < kFramesPerGame; ++frame) {
      controls_set_events(host.state.controls, setup.controllers, int(rng() % kNumActions),
                          HeldSwitch::none, 1.0f);
      const ConsoleInputs inputs =
          controls_inputs(host.state.controls, setup.controllers, host.state.difficulty);
      const bool draw = frame % 4 >= 2;
      host.run_frame(setup, inputs, draw, may_redo, false);
      ahead.run_frame(setup, inputs, draw, may_redo, true);
      if (host.state.machine.tia.partial_frame) {
        ++compared.partial;
        if (may_redo) {
          ahead = host;
          continue;
        }
      }
      if (std::memcmp(&host.state.machine, &ahead.state.machine, sizeof(ConsoleState)) != 0 ||
          host.pixels != ahead.pixels) {
        ADD_FAILURE() << "the consoles or their pixels differ after frame " << frame;
        return compared;
      }
      ++compared.frames;
    }
    ++compared.games;
  }
  return compared;
}

TEST(DrawAhead, EveryAlePyGameShowsTheSameFrames) {
  if (testing::ale_roms_dir().empty()) GTEST_SKIP() << testing::kNoAleRoms;
  const Compared c = compare_every_game(true);
  std::printf("%zu games, %d frames compared, %d ended partial\n", c.games, c.frames, c.partial);
  EXPECT_GE(c.games, 100u) << "ale-py ships over 100 ROMs";
}

// Frames that are not run again (a rerun's, a reset's, cule::Console's)
// must not be drawn ahead: partial ones included, they stay ALE's.
TEST(DrawAhead, NotInFramesThatAreNotRunAgain) {
  if (testing::ale_roms_dir().empty()) GTEST_SKIP() << testing::kNoAleRoms;
  const Compared c = compare_every_game(false);
  std::printf("%zu games, %d frames compared, %d ended partial\n", c.games, c.frames, c.partial);
  EXPECT_GE(c.games, 100u) << "ale-py ships over 100 ROMs";
  EXPECT_GT(c.partial, 0) << "some frames should end partial, where drawing ahead would show";
}

}  // namespace
}  // namespace cule
