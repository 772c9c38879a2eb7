// Per-cartridge emulator settings for the ROMs that ale-py ships.
//
// Where the facts come from: ALE (v0.12.1, the release ale-py 0.12.1 is built
// from) looks every cartridge up by the md5 of its image in the properties
// database it inherited from Stella (src/ale/emucore/DefProps.hxx, read
// through Props.cxx / PropsSet.cxx). The table in game_properties.cpp holds,
// for each of ale-py's 108 ROMs, the values of that database which ALE's
// emulator reads, with ALE's defaults filled in where the database leaves a
// field empty or has no entry at all:
//
//   Cartridge.Type           AUTO-DETECT   Console.LeftDifficulty   B
//   Display.Format           AUTO-DETECT   Console.RightDifficulty  B
//   Display.YStart           34            Console.TelevisionType   COLOR
//   Display.Height           210           Console.SwapPorts        NO
//   Emulation.HmoveBlanks    YES           Controller.Left/Right    JOYSTICK
//                                          Controller.SwapPaddles   NO
//
// How ALE's console then adjusts them, and what this table already folds in:
//
// * Display format. When Display.Format is AUTO-DETECT (every ROM here but
//   maze_craze, which says PAL), the console resets the machine and runs 60
//   frames while the TIA is still set up as NTSC (at most 290 scanlines per
//   frame, no colour loss); a frame counts as PAL when, among frames 30..59,
//   the TIA reports more than 285 scanlines; 15 or more such frames make the
//   game PAL, otherwise it is NTSC. The machine is then reset again, but the
//   6532 RAM and whatever the cartridge keeps across a reset are left as those
//   60 frames made them, and the reset calls draw from the system RNG, so an
//   exact emulation must replay that warm-up: `format_autodetected` says it
//   happened. `format` is the outcome (checked against ale-py's palettes).
// * Height. When the resolved format is PAL and Display.Height is exactly
//   "210" (the default), the console replaces it with 250. `height` is the
//   value after this rule. The TIA then clamps only the size of the frame it
//   hands out (the screen ALE returns) to at least 200 rows; the scanline at
//   which it stops drawing still follows `height`. See frame_height().
// * TIA by format: PAL enables colour loss (odd frames' colours gain bit 0)
//   and allows 342 scanlines per frame; NTSC allows 290.
// * Controllers: only "PADDLES" builds paddles; anything else (including
//   "NONE") is a joystick. Console.SwapPorts != "NO" plugs the left
//   controller into the right port and vice versa.
// * Difficulty / TV type only set the switches' power-on positions; ALE's
//   environment drives the difficulty switches every frame afterwards.
// * Cartridge.Type is AUTO-DETECT for all 108 ROMs, so ALE picks the
//   bank-switching scheme from the image's size and byte signatures;
//   `bank_scheme` is that outcome (checked against ale-py's saved states).
//
// A ROM with no database entry (here only road_runner, whose row says
// in_database = false) gets every default, with its format found by the
// 60-frame detection above.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cule {

//! The colour standard a cartridge is emulated with (ALE knows no others for
//! these ROMs; AUTO-DETECT always resolves to one of the two).
enum class TvFormat : uint8_t { NTSC, PAL };

struct GameProperties {
  const char* md5;             //!< 32 lowercase hex characters
  const char* rom_id;          //!< ale-py's id, e.g. "pong"
  const char* cartridge_type;  //!< the database's Cartridge.Type; "AUTO-DETECT" when none
  const char* bank_scheme;     //!< the scheme ALE ends up with: "2K", "4K", "F8", "F6SC", ...
  uint16_t y_start;            //!< first visible scanline (Display.YStart)
  uint16_t height;             //!< visible scanlines, after the PAL 210 -> 250 rule
  bool hmove_blanks;           //!< Emulation.HmoveBlanks == YES
  TvFormat format;             //!< the resolved display format
  bool format_autodetected;    //!< ALE ran its 60-frame detection before power-on
  bool left_paddles;           //!< Controller.Left == PADDLES
  bool right_paddles;          //!< Controller.Right == PADDLES
  bool swap_ports;             //!< Console.SwapPorts == YES
  bool swap_paddles;           //!< Controller.SwapPaddles == YES
  char left_difficulty;        //!< 'A' or 'B'
  char right_difficulty;       //!< 'A' or 'B'
  bool color_tv;               //!< Console.TelevisionType == COLOR
  bool in_database;            //!< ALE's database has the md5 (false: all defaults)
};

//! ALE's defaults for a cartridge the database does not know.
constexpr uint16_t kDefaultYStart = 34;
constexpr uint16_t kDefaultHeight = 210;
constexpr uint16_t kPalDefaultHeight = 250;
//! The TIA never hands out a frame with fewer rows than this.
constexpr uint16_t kMinFrameHeight = 200;
//! Frames the console runs to detect the format, and the first one it counts.
constexpr int kFormatDetectFrames = 60;
constexpr int kFormatDetectSkipFrames = 30;
//! A counted frame longer than this many scanlines looks PAL; this many such
//! frames make the cartridge PAL.
constexpr int kFormatDetectPalScanlines = 285;
constexpr int kFormatDetectPalFrames = 15;
//! Frame width in pixels: always 160.
constexpr uint16_t kFrameWidth = 160;

//! Rows in the frames ALE returns for this cartridge (its screen height).
constexpr uint16_t frame_height(const GameProperties& p) {
  return p.height < kMinFrameHeight ? kMinFrameHeight : p.height;
}

//! Scanlines the TIA lets a frame run before it ends it by force.
constexpr int max_scanlines(TvFormat format) { return format == TvFormat::PAL ? 342 : 290; }

//! ALE's environment treats a game as a paddle game when either side has paddles.
constexpr bool uses_paddles(const GameProperties& p) { return p.left_paddles || p.right_paddles; }

//! The properties of the games ale-py ships, by md5 (32 hex characters, either
//! case); nullptr when unknown.
const GameProperties* find_game_properties(const char* md5);

//! A view of the whole table, sorted by md5.
struct GamePropertiesList {
  const GameProperties* data;
  size_t size;

  const GameProperties* begin() const { return data; }
  const GameProperties* end() const { return data + size; }
};

//! All entries, for listing.
GamePropertiesList all_game_properties();

//! What ALE uses for a cartridge without a database entry: md5, rom_id and
//! bank_scheme are nullptr (the caller knows the first two; the scheme must
//! be detected). ALE resolves the format by its 60-frame detection; pass the
//! outcome (PAL also raises the height to 250). NTSC is only an assumption.
GameProperties default_game_properties(TvFormat detected_format = TvFormat::NTSC);

}  // namespace cule
