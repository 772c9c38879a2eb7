// The console on the project's own test cartridges (roms/*.asm), whose
// expected results come from the 6532 datasheet and the Stella Programmer's
// Guide, and cule::Console's input checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cule/console.hpp"
#include "cule/error.hpp"
#include "testdata.hpp"

namespace cule {
namespace {

Rom cartridge(const std::string& name) {
  return Rom::load(std::string(CULE_CARTRIDGE_DIR) + "/" + name + ".bin");
}

// The timer counts down once on the cycle after a write, then once per
// interval; a read sees the count on its own last cycle (4 cycles after the
// STA for an LDA absolute). After it passes zero, TIMINT bit 7 is set.
TEST(Riot, TimerReadsMatchTheDatasheet) {
  Console console(cartridge("riot_timer"));
  const uint8_t* ram = console.ram();
  auto count = [](int written, int interval, int cycles) {
    return written - 1 - (cycles - 1) / interval;
  };
  EXPECT_EQ(ram[0x00], count(10, 8, 4));    // TIM8T
  EXPECT_EQ(ram[0x01] & 0x80, 0x80);        // TIM1T 1 has expired
  EXPECT_EQ(ram[0x02], count(2, 64, 4));    // TIM64T
  EXPECT_EQ(ram[0x03], count(1, 1024, 4));  // T1024T
  EXPECT_EQ(ram[0x04], count(100, 1, 24));  // TIM1T, 10 NOPs later
  EXPECT_EQ(ram[0x05] & 0x80, 0x00);        // TIM8T 10 still running
}

// PF0 D4-D7, PF1 D7-D0, PF2 D0-D7 from the left, 4 pixels a bit; the right
// half repeats the left or, with CTRLPF bit 0, mirrors it.
bool playfield_pixel(int x, bool reflect) {
  const uint8_t pf0 = 0xA0, pf1 = 0xC3, pf2 = 0x81;
  int q = x / 4;
  if (q >= 20) q = reflect ? 39 - q : q - 20;
  if (q < 4) return pf0 >> (4 + q) & 1;
  if (q < 12) return pf1 >> (7 - (q - 4)) & 1;
  return pf2 >> (q - 12) & 1;
}

TEST(Tia, PlayfieldPlayerAndCollisionsMatchTheProgrammersGuide) {
  Console console(cartridge("tia_playfield"));
  for (int i = 0; i < 3; ++i) console.act(0);
  const uint8_t kBackground = 0x00, kPlayfield = 0x1E, kPlayer = 0x44;
  const uint8_t* screen = console.screen();
  // Rows 50 and 150 lie in the repeated and mirrored halves of the frame.
  for (const int row : {50, 150}) {
    for (int x = 0; x < kScreenWidth; ++x) {
      SCOPED_TRACE("row " + std::to_string(row) + " x " + std::to_string(x));
      // RESP0 during horizontal blank puts the player at pixel 3; it is
      // drawn over the playfield.
      const uint8_t expected = (x >= 3 && x < 11)               ? kPlayer
                               : playfield_pixel(x, row >= 100) ? kPlayfield
                                                                : kBackground;
      EXPECT_EQ(screen[row * kScreenWidth + x], expected);
    }
  }
  EXPECT_EQ(console.ram()[0x00] & 0xC0, 0x80);  // CXP0FB: P0-PF yes, P0-BL no
  EXPECT_EQ(console.ram()[0x01] & 0xC0, 0x00);  // CXM1FB: missile 1 never shown
}

TEST(Console, SameActionsGiveTheSameFrames) {
  const Rom rom = Rom::load(testing::testdata_path("roms/tetris.bin"));
  Console a(rom), b(rom);
  for (int i = 0; i < 300; ++i) {
    a.act(i % kNumActions);
    b.act(i % kNumActions);
  }
  EXPECT_TRUE(std::equal(a.ram(), a.ram() + 128, b.ram()));
  EXPECT_TRUE(std::equal(a.screen(), a.screen() + 160 * a.height(), b.screen()));
}

TEST(Console, RejectsActionsOutOfRange) {
  Console console(Rom::load(testing::testdata_path("roms/tetris.bin")));
  EXPECT_THROW(console.act(-1), Error);
  EXPECT_THROW(console.act(kNumActions), Error);
  EXPECT_NO_THROW(console.act(kNumActions - 1));
}

TEST(Console, RejectsModesTheGameDoesNotHave) {
  Console console(Rom::load(testing::testdata_path("roms/tetris.bin")));
  EXPECT_THROW(console.set_mode(3), Error);
  EXPECT_NO_THROW(console.set_mode(0));
}

TEST(Console, FramesWithoutDrawingRunTheSame) {
  // Drawing off, a frame still latches collisions and runs the same
  // instructions: RAM, CPU and TIA registers stay equal to a drawing console's,
  // and only the pixels differ.
  const Rom rom = Rom::load(testing::testdata_path("roms/tetris.bin"));
  Console drawn(rom), undrawn(rom);
  undrawn.set_drawing(false);
  const size_t pixels = size_t(kScreenWidth) * size_t(undrawn.height());
  for (int frame = 0; frame < 600; ++frame) {
    const int action = (frame * 7) % kNumActions;
    drawn.act(action);
    undrawn.act(action);
    ASSERT_TRUE(std::equal(drawn.ram(), drawn.ram() + 128, undrawn.ram())) << "frame " << frame;
    ASSERT_EQ(drawn.state().tia.collision, undrawn.state().tia.collision) << "frame " << frame;
    ASSERT_EQ(drawn.state().cpu.PC, undrawn.state().cpu.PC) << "frame " << frame;
    ASSERT_EQ(drawn.state().cpu.cycles, undrawn.state().cpu.cycles) << "frame " << frame;
  }
  EXPECT_FALSE(std::equal(drawn.screen(), drawn.screen() + pixels, undrawn.screen()))
      << "the undrawn console's pixels should be stale";
}

// A RamWatch notes the RIOT RAM bytes a frame reads before writing them and
// those it writes, and a watched console runs as an unwatched one.
TEST(Console, RamWatchNotesFirstReadsAndWrites) {
  std::vector<uint8_t> image(2048, 0xEA);  // NOP
  const std::vector<uint8_t> program{
      0xA5, 0x85,        // LDA $85: read first
      0x85, 0x86,        // STA $86
      0xA5, 0x86,        // LDA $86: read after the write
      0xAD, 0x85, 0x01,  // LDA $0185: $85 again, through a mirror
      0x48,              // PHA: the stack at $01FF is RAM $FF
      0x85, 0x02,        // loop: STA WSYNC
      0x4C, 0x0A, 0xF8,  // JMP loop
  };
  std::copy(program.begin(), program.end(), image.begin());
  image[0x7FC] = 0x00;  // the reset vector: $F800
  image[0x7FD] = 0xF8;
  const Console console(Rom::from_bytes(image.data(), image.size(), "ram_watch"));
  const Console::Snapshot& constructed = console.constructed();  // the CPU at $F800
  AleConsole c = constructed.state;
  std::vector<uint8_t> pixels = constructed.frames;
  const FrameBuffers frames{pixels.data(), uint32_t(pixels.size() / 2)};
  AleSetup watched = console.setup();
  RamWatch watch{};
  watched.console.ram_watch = &watch;
  ale_act(c, watched, frames, 0, 1.0f);
  for (uint32_t i = 0; i < 128; ++i) {
    EXPECT_EQ(watch.read_first[i], i == 0x05) << "RAM $" << std::hex << 0x80 + i;
    EXPECT_EQ(watch.written[i], i == 0x06 || i == 0x7F) << "RAM $" << std::hex << 0x80 + i;
  }

  // A game's frames, watched and not (the watch takes a CPU loop of its own).
  Console game(Rom::load(testing::testdata_path("roms/tetris.bin")));
  AleConsole plain = game.ale_state();
  AleConsole seen = plain;
  std::vector<uint8_t> plain_pixels(game.frame_buffers().pixels,
                                    game.frame_buffers().pixels + 2 * game.frame_buffers().size);
  std::vector<uint8_t> seen_pixels = plain_pixels;
  const FrameBuffers plain_frames{plain_pixels.data(), game.frame_buffers().size};
  const FrameBuffers seen_frames{seen_pixels.data(), game.frame_buffers().size};
  watched = game.setup();
  watch = RamWatch{};
  watched.console.ram_watch = &watch;
  for (int frame = 0; frame < 300; ++frame) {
    const int action = (frame * 7) % kNumActions;
    ale_act(plain, game.setup(), plain_frames, action, 1.0f);
    ale_act(seen, watched, seen_frames, action, 1.0f);
    ASSERT_EQ(std::memcmp(&plain, &seen, sizeof plain), 0) << "frame " << frame;
    ASSERT_EQ(plain_pixels, seen_pixels) << "frame " << frame;
  }
  EXPECT_GT(std::count(watch.written, watch.written + 128, 1), 0);
}

TEST(Rom, UnreadableAndUnsupportedImagesAreClearErrors) {
  EXPECT_THROW(Rom::load("/nonexistent/pong.bin"), FileError);
  const std::vector<uint8_t> odd(3000, 0xEA);
  try {
    Rom::from_bytes(odd.data(), odd.size(), "odd");
    FAIL() << "expected cule::Error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("3000"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace cule
