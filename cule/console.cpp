#include "cule/console.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "cule/error.hpp"
#include "kernels/palette.hpp"

namespace cule {
namespace {

TiaConfig tia_config(const GameProperties& properties) {
  return TiaConfig{properties.y_start, properties.height, max_scanlines(properties.format),
                   properties.hmove_blanks, uint8_t(properties.format == TvFormat::PAL)};
}

// Games whose ALE settings make every firing action illegal; ALE turns an
// illegal action into NOOP (direction included).
bool fire_is_illegal(const std::string& game) { return game == "lost_luggage" || game == "skiing"; }

// Games whose ALE settings raise the paddle range (modifyEnvironmentSettings).
int32_t paddle_max(const std::string& game) {
  if (game == "backgammon") return 1000000;
  if (game == "blackjack") return 795000;
  return kPaddleMax;
}

// Port B as the switches stand at power-on, from the game's properties:
// difficulty A sets bits 7 (right) and 6 (left), a colour TV bit 3.
uint8_t power_on_switches(const GameProperties& properties) {
  uint8_t switches = 0xFF;
  if (properties.right_difficulty != 'A') switches &= ~0x80;
  if (properties.left_difficulty != 'A') switches &= ~0x40;
  if (!properties.color_tv) switches &= ~0x08;
  return switches;
}

const char* mode_failure(ModeStatus status) {
  return status == ModeStatus::gave_up ? "ALE gives up after 100 presses of SELECT"
                                       : "the game never reached it";
}

// "a, b, c", for an error message.
std::string listed(const std::vector<int>& values) {
  std::string list;
  for (int v : values) list += (list.empty() ? "" : ", ") + std::to_string(v);
  return list;
}

}  // namespace

PredecodedRom predecode_rom(Mapper mapper, const std::vector<uint8_t>& image) {
  PredecodedRom rom;
  rom.code_entries = cartridge_code_entries(mapper);
  rom.image_size = image.size();
  const size_t image_entries = (image.size() + sizeof(PredecodedCode) - 1) / sizeof(PredecodedCode);
  rom.memory.assign(rom.code_entries + image_entries, PredecodedCode{});
  std::memcpy(rom.memory.data() + rom.code_entries, image.data(), image.size());
  ConsoleCartridge cart{};
  cart.rom_size = uint32_t(image.size());
  // Entries stay invalid where the image lacks the bytes (a scheme's
  // consoles never run such an image: check_rom_size).
  const size_t bank_bytes = mapper == Mapper::k2K ? 2048 : 4096;
  for (size_t bank = 0; bank < rom.code_entries / 4096 && (bank + 1) * bank_bytes <= image.size();
       ++bank) {
    cart.bank = uint8_t(bank);
    for (uint16_t address = 0x1000; address < 0x2000; ++address) {
      uint8_t bytes[3];
      if (cartridge_read_code(cart, mapper, image.data(), address, bytes)) {
        rom.memory.at(size_t(cartridge_code_index(cart, mapper, address))) =
            predecode(bytes[0], bytes[1], bytes[2]);
      }
    }
  }
  return rom;
}

Console::Console(Rom rom, uint32_t seed)
    : rom_(std::move(rom)), predecoded_(predecode_rom(rom_.mapper(), rom_.image())) {
  properties_ = rom_.properties();
  setup_.game = find_game_modes(rom_.name()) ? game_from_id(rom_.name()) : Game::count;
  setup_.controllers =
      ControllerSetup{uint8_t(properties_.left_paddles),     uint8_t(properties_.right_paddles),
                      uint8_t(properties_.swap_ports),       uint8_t(properties_.swap_paddles),
                      uint8_t(fire_is_illegal(rom_.name())), paddle_max(rom_.name())};
  // The database's height (the table holds it after the PAL 210 -> 250 rule).
  const bool raised_for_pal = properties_.format == TvFormat::PAL &&
                              properties_.format_autodetected &&
                              properties_.height == kPalDefaultHeight;
  const uint16_t database_height = raised_for_pal ? kDefaultHeight : properties_.height;
  ConsoleConfig& config = setup_.console;
  config.mapper = rom_.mapper();
  config.rom = predecoded_.image();
  config.rom_size = uint32_t(rom_.image().size());
  // While the format is being detected, the TIA runs as NTSC.
  config.tia = properties_.format_autodetected
                   ? TiaConfig{properties_.y_start, database_height, max_scanlines(TvFormat::NTSC),
                               properties_.hmove_blanks, 0}
                   : tia_config(properties_);
  const int rows = std::max({int(database_height), int(properties_.height), int(kPalDefaultHeight),
                             int(kMinFrameHeight)});
  pixels_.assign(size_t(2) * kScreenWidth * rows, 0);
  frames_ = FrameBuffers{pixels_.data(), uint32_t(kScreenWidth * rows)};

  ale_power_on(state_, setup_, frames_, seed, power_on_switches(properties_));

  if (properties_.format_autodetected) {
    // 60 frames; among the last 30, frames of more than 285 scanlines are PAL.
    // No ALE event has been sent yet: everything reads as released, and
    // paddles read zero resistance.
    ConsoleState& machine = state_.machine;
    const ConsoleInputs idle = controls_inputs(state_.controls, setup_.controllers, 0);
    int pal_frames = 0;
    for (int i = 0; i < kFormatDetectFrames; ++i) {
      console_run_frame(machine, config, frames_, idle);
      if (i >= kFormatDetectSkipFrames &&
          machine.tia.current_scanline > kFormatDetectPalScanlines) {
        ++pal_frames;
      }
    }
    const TvFormat detected = pal_frames >= kFormatDetectPalFrames ? TvFormat::PAL : TvFormat::NTSC;
    if (!rom_.known()) {
      properties_.format = detected;
      if (detected == TvFormat::PAL && database_height == kDefaultHeight) {
        properties_.height = kPalDefaultHeight;
      }
    }
    config.tia = tia_config(properties_);
    ale_system_reset(state_, setup_, frames_);
  }
  height_ = frame_height(properties_);
  constructed_ = clone_state();
  // ALE's loadROM ends with an environment reset.
  reset();
}

void Console::reset() {
  const ModeStatus status = ale_reset(state_, setup_, frames_);
  if (status != ModeStatus::ok) {
    throw Error("game mode: selecting " + std::to_string(state_.mode) + " of '" + rom_.name() +
                "' failed: " + mode_failure(status));
  }
}

std::vector<int> Console::available_modes() const {
  const GameModes* modes = find_game_modes(rom_.name());
  return modes ? modes->modes : std::vector<int>{0};
}

std::vector<int> Console::available_difficulties() const {
  const GameModes* modes = find_game_modes(rom_.name());
  return modes ? modes->difficulties : std::vector<int>{0};
}

void Console::set_mode(int mode) {
  const std::vector<int> available = available_modes();
  if (std::find(available.begin(), available.end(), mode) == available.end()) {
    throw Error("mode: " + std::to_string(mode) + " is not a mode of '" + rom_.name() +
                "'; expected one of " + listed(available));
  }
  state_.mode = mode;
}

void Console::set_difficulty(int difficulty) {
  const std::vector<int> available = available_difficulties();
  if (std::find(available.begin(), available.end(), difficulty) == available.end()) {
    throw Error("difficulty: " + std::to_string(difficulty) + " is not a difficulty of '" +
                rom_.name() + "'; expected one of " + listed(available));
  }
  state_.difficulty = difficulty;
}

void Console::act(int action, float paddle_strength) {
  if (action < 0 || action >= kNumActions) {
    throw Error("action: " + std::to_string(action) + " is out of range; expected 0-" +
                std::to_string(kNumActions - 1));
  }
  if (!paddle_strength_valid(paddle_strength)) {
    throw Error("paddle_strength: " + std::to_string(paddle_strength) +
                " is out of range; expected a fraction of a full paddle step (ALE uses its "
                "absolute value) of magnitude at most " +
                std::to_string(int(kMaxPaddleStrength)));
  }
  ale_act(state_, setup_, frames_, action, paddle_strength);
}

void Console::set_ram(int index, uint8_t value) {
  constexpr int kRamBytes = int(sizeof(Riot::ram));
  if (index < 0 || index >= kRamBytes) {
    throw Error("index: " + std::to_string(index) + " is not a RAM byte; expected 0-" +
                std::to_string(kRamBytes - 1));
  }
  state_.machine.riot.ram[index] = value;
}

void Console::screen_rgb(uint8_t* out) const {
  palette_rgb_row(&palette_for(properties_.format == TvFormat::PAL), screen(), out,
                  height_ * kScreenWidth);
}

void Console::screen_grayscale(uint8_t* out) const {
  palette_gray_row(&palette_for(properties_.format == TvFormat::PAL), screen(), out,
                   height_ * kScreenWidth);
}

Console::Snapshot Console::clone_state() const { return Snapshot{state_, pixels_}; }

void Console::restore_state(const Snapshot& snapshot) {
  if (snapshot.frames.size() != pixels_.size()) {
    throw Error("snapshot: taken from a console of another game; expected one of '" + rom_.name() +
                "'");
  }
  state_ = snapshot.state;
  // In place: frames_ points into pixels_.
  std::copy(snapshot.frames.begin(), snapshot.frames.end(), pixels_.begin());
}

}  // namespace cule
