#include "cule/console.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "cule/error.hpp"
#include "kernels/palette.hpp"

namespace cule {
namespace {

// ALE seeds its system RNG (System::myRandom) with this "system_random_seed".
constexpr uint32_t kAleSystemSeed = 4753849;
// ALE's reset: no-op frames, then the RESET switch held for this many frames.
constexpr int kResetNoopFrames = 60;
constexpr int kResetSwitchFrames = 4;

bool moves_up(Action a) {
  return a == Action::UP || a == Action::UPRIGHT || a == Action::UPLEFT || a == Action::UPFIRE ||
         a == Action::UPRIGHTFIRE || a == Action::UPLEFTFIRE;
}
bool moves_down(Action a) {
  return a == Action::DOWN || a == Action::DOWNRIGHT || a == Action::DOWNLEFT ||
         a == Action::DOWNFIRE || a == Action::DOWNRIGHTFIRE || a == Action::DOWNLEFTFIRE;
}
bool moves_left(Action a) {
  return a == Action::LEFT || a == Action::UPLEFT || a == Action::DOWNLEFT ||
         a == Action::LEFTFIRE || a == Action::UPLEFTFIRE || a == Action::DOWNLEFTFIRE;
}
bool moves_right(Action a) {
  return a == Action::RIGHT || a == Action::UPRIGHT || a == Action::DOWNRIGHT ||
         a == Action::RIGHTFIRE || a == Action::UPRIGHTFIRE || a == Action::DOWNRIGHTFIRE;
}
bool fires(Action a) { return a == Action::FIRE || a >= Action::UPFIRE; }

TiaConfig tia_config(const GameProperties& properties) {
  return TiaConfig{properties.y_start, properties.height, max_scanlines(properties.format),
                   properties.hmove_blanks, uint8_t(properties.format == TvFormat::PAL)};
}

// ALE's paddle positions are resistances, moved this much per frame.
constexpr int32_t kPaddleDelta = 23000;
constexpr int32_t kPaddleMin = 27450;
constexpr int32_t kPaddleMax = 790196;

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

}  // namespace

Console::Console(Rom rom, uint32_t seed)
    : rom_(std::move(rom)), rng_(kAleSystemSeed), env_rng_(seed) {
  if (const GameModes* modes = find_game_modes(rom_.name())) {
    mode_ = modes->default_mode;
    game_ = game_from_id(rom_.name());
    // A settings object just built (ALE's constructors call reset()).
    game_rules_init(rules_);
    game_rules_reset(game_, rules_);
  }
  properties_ = rom_.properties();
  // The database's height (the table holds it after the PAL 210 -> 250 rule).
  const bool raised_for_pal = properties_.format == TvFormat::PAL &&
                              properties_.format_autodetected &&
                              properties_.height == kPalDefaultHeight;
  const uint16_t database_height = raised_for_pal ? kDefaultHeight : properties_.height;
  config_.mapper = rom_.mapper();
  config_.rom = rom_.image().data();
  config_.rom_size = uint32_t(rom_.image().size());
  // While the format is being detected, the TIA runs as NTSC.
  config_.tia = properties_.format_autodetected
                    ? TiaConfig{properties_.y_start, database_height, max_scanlines(TvFormat::NTSC),
                                properties_.hmove_blanks, 0}
                    : tia_config(properties_);
  const int rows = std::max({int(database_height), int(properties_.height), int(kPalDefaultHeight),
                             int(kMinFrameHeight)});
  pixels_.assign(size_t(2) * kScreenWidth * rows, 0);
  frames_ = FrameBuffers{pixels_.data(), uint32_t(kScreenWidth * rows)};

  // ALE's Console constructor: the RIOT fills its RAM and picks a timer
  // value; the system is reset.
  uint8_t ram[128];
  for (uint8_t& byte : ram) byte = uint8_t(rng_());
  const uint32_t construction_timer = rng_();
  const uint32_t reset_timer = rng_();
  std::vector<uint8_t> cart_fill(mapper_ram_bytes(config_.mapper));
  for (uint8_t& byte : cart_fill) byte = uint8_t(rng_());
  console_power_on(state_, config_, frames_, ram, construction_timer, reset_timer,
                   cart_fill.empty() ? nullptr : cart_fill.data());
  controls_.switches = power_on_switches(properties_);

  if (properties_.format_autodetected) {
    // 60 frames; among the last 30, frames of more than 285 scanlines are PAL.
    // No ALE event has been sent yet: everything reads as released, and
    // paddles read zero resistance.
    const ConsoleInputs idle = hardware_inputs();
    int pal_frames = 0;
    for (int i = 0; i < kFormatDetectFrames; ++i) {
      console_run_frame(state_, config_, frames_, idle);
      if (i >= kFormatDetectSkipFrames && state_.tia.current_scanline > kFormatDetectPalScanlines) {
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
    config_.tia = tia_config(properties_);
    system_reset();
  }
  height_ = frame_height(properties_);
  // ALE's loadROM ends with an environment reset.
  reset();
}

void Console::system_reset() {
  const uint32_t timer = rng_();
  std::vector<uint8_t> cart_fill(mapper_ram_bytes(config_.mapper));
  for (uint8_t& byte : cart_fill) byte = uint8_t(rng_());
  console_system_reset(state_, config_, frames_, timer,
                       cart_fill.empty() ? nullptr : cart_fill.data());
}

void Console::set_events(int action, Switch held, float paddle_strength) {
  const Action a = static_cast<Action>(action);
  const AleEvents previous = controls_.events;
  controls_.events = AleEvents{};
  // Paddle resistances stay as ALE last set them.
  for (int i = 0; i < 4; ++i) controls_.events.paddle_resistance[i] = previous.paddle_resistance[i];
  controls_.events.reset = held == Switch::Reset;
  controls_.events.select = held == Switch::Select;
  controls_.events.difficulty_set = true;
  if (held == Switch::Select) return;  // pressSelect leaves the controllers alone
  if (uses_paddles(properties_)) {
    // ALE moves player A's paddle by a fixed step per frame; right turns it
    // towards lower resistance.
    const int32_t delta = static_cast<int32_t>(kPaddleDelta * std::fabs(paddle_strength));
    if (moves_right(a)) controls_.left_paddle -= delta;
    if (moves_left(a)) controls_.left_paddle += delta;
    const int32_t max = paddle_max(rom_.name());
    controls_.left_paddle = std::min(std::max(controls_.left_paddle, kPaddleMin), max);
    controls_.right_paddle = std::min(std::max(controls_.right_paddle, kPaddleMin), max);
    controls_.events.paddle_resistance[0] = controls_.left_paddle;
    controls_.events.paddle_resistance[1] = controls_.right_paddle;
    controls_.events.paddle_fire[0] = fires(a);
  } else {
    controls_.events.joystick[0] = {moves_up(a), moves_down(a), moves_left(a), moves_right(a),
                                    fires(a)};
  }
}

ConsoleInputs Console::hardware_inputs() {
  // Which controller sits in which port: ALE's Console puts the left
  // controller in port 1 and the right one in port 0 when SwapPorts is set.
  const bool swap = properties_.swap_ports;
  struct Port {
    bool paddles;
    int jack;  // 0: left jack (events Zero/One), 1: right jack (Two/Three)
  };
  const Port ports[2] = {
      {swap ? properties_.right_paddles : properties_.left_paddles, swap ? 1 : 0},
      {swap ? properties_.left_paddles : properties_.right_paddles, swap ? 0 : 1}};

  ConsoleInputs inputs{};
  inputs.swcha = 0;
  for (int port = 0; port < 2; ++port) {
    const Port& p = ports[port];
    // Pins One-Four (up, down, left, right) and Six (fire): true = high = released.
    bool pin[5];
    int32_t nine, five;
    if (p.paddles) {
      // A paddle jack carries two paddles: fire buttons on pins Four and
      // Three, resistances on pins Nine and Five (swapped by SwapPaddles).
      const int first = 2 * p.jack + (properties_.swap_paddles ? 1 : 0);
      const int second = 2 * p.jack + (properties_.swap_paddles ? 0 : 1);
      pin[0] = pin[1] = true;
      pin[2] = !controls_.events.paddle_fire[second];
      pin[3] = !controls_.events.paddle_fire[first];
      pin[4] = true;
      nine = controls_.events.paddle_resistance[first];
      five = controls_.events.paddle_resistance[second];
    } else {
      const JoystickEvents& j = controls_.events.joystick[p.jack];
      pin[0] = !j.up;
      pin[1] = !j.down;
      pin[2] = !j.left;
      pin[3] = !j.right;
      pin[4] = !j.fire;
      nine = five = kMaximumResistance;
    }
    const int shift = port == 0 ? 4 : 0;
    for (int i = 0; i < 4; ++i) inputs.swcha |= uint8_t(pin[i] << (shift + i));
    if (!pin[4]) inputs.tia.fire |= uint8_t(1 << port);
    inputs.tia.resistance[2 * port] = nine;
    inputs.tia.resistance[2 * port + 1] = five;
  }

  // The switches keep their positions; ALE drives the difficulty switches
  // every frame once its environment runs (bit 0: left A = port B bit 6,
  // bit 1: right A = bit 7).
  if (controls_.events.difficulty_set) {
    controls_.switches =
        uint8_t((controls_.switches & ~0xC0) | ((difficulty_ & 1) << 6) | ((difficulty_ & 2) << 6));
  }
  controls_.switches = controls_.events.select ? uint8_t(controls_.switches & ~0x02)
                                               : uint8_t(controls_.switches | 0x02);
  controls_.switches = controls_.events.reset ? uint8_t(controls_.switches & ~0x01)
                                              : uint8_t(controls_.switches | 0x01);
  inputs.swchb = controls_.switches;
  return inputs;
}

void Console::run_frames(int action, Switch held, int count, float paddle_strength) {
  // ALE applies a paddle action (a paddle move) on every frame it emulates.
  for (int i = 0; i < count; ++i) {
    if (i == 0 || (uses_paddles(properties_) && held != Switch::Select)) {
      set_events(action, held, paddle_strength);
    }
    const ConsoleInputs inputs = hardware_inputs();
    console_run_frame(state_, config_, frames_, inputs);
    // ALE's pressSelect holds SELECT without stepping the game's settings.
    if (!has_rules() || held == Switch::Select) continue;
    if (recording_reset_) {
      const size_t at = reset_frames_.size();
      reset_frames_.resize(at + kResetFrameBytes, 0);
      std::copy(state_.riot.ram, state_.riot.ram + 128, reset_frames_.begin() + at);
      const int cart_bytes = std::min<int>(mapper_ram_bytes(config_.mapper), 128);
      std::copy(state_.cart.ram, state_.cart.ram + cart_bytes, reset_frames_.begin() + at + 128);
    } else {
      step_rules(state_.riot.ram, state_.cart.ram);
    }
  }
}

void Console::step_rules(const uint8_t* ram, const uint8_t* cart_ram) {
  // Only Klax reads cartridge RAM (its F6SC RAM, 128 bytes).
  game_rules_step(game_, rules_, ram, mapper_ram_bytes(config_.mapper) >= 128 ? cart_ram : nullptr);
}

void Console::replay_reset(int settings_frame, int mode_frame) {
  const int n = int(reset_frames_.size() / kResetFrameBytes);
  for (int i = 0; i <= n; ++i) {
    if (i == settings_frame) game_rules_reset(game_, rules_);
    if (i == mode_frame) game_rules_set_mode(game_, rules_, mode_);
    if (i == n) break;
    const uint8_t* frame = reset_frames_.data() + size_t(i) * kResetFrameBytes;
    step_rules(frame, frame + 128);
  }
}

void Console::reset() {
  controls_.left_paddle = controls_.right_paddle = (kPaddleMin + paddle_max(rom_.name())) / 2;
  reset_frames_.clear();
  recording_reset_ = true;
  episode_frame_number_ = 0;
  system_reset();
  run_frames(0, Switch::None, kResetNoopFrames);
  soft_reset();
  const int settings_frame = int(reset_frames_.size() / kResetFrameBytes);
  last_soft_reset_frame_ = -1;
  if (find_game_modes(rom_.name())) set_game_mode(rom_.name(), mode_, *this);
  const int mode_frame = last_soft_reset_frame_ >= 0 ? last_soft_reset_frame_
                                                     : int(reset_frames_.size() / kResetFrameBytes);
  soft_reset();
  if (const GameModes* modes = find_game_modes(rom_.name())) {
    for (int action : modes->starting_actions) {
      if (action == kAleResetAction) {
        run_frames(0, Switch::Reset, 1);
      } else {
        run_frames(action, Switch::None, 1);
      }
    }
  }
  recording_reset_ = false;
  if (has_rules()) replay_reset(settings_frame, mode_frame);
}

void Console::set_mode(int mode) {
  const GameModes* modes = find_game_modes(rom_.name());
  const bool available =
      modes ? std::find(modes->modes.begin(), modes->modes.end(), mode) != modes->modes.end()
            : mode == 0;
  if (!available) {
    std::string list;
    if (modes) {
      for (int m : modes->modes) list += (list.empty() ? "" : ", ") + std::to_string(m);
    } else {
      list = "0";
    }
    throw Error("mode: " + std::to_string(mode) + " is not a mode of '" + rom_.name() +
                "'; expected one of " + list);
  }
  mode_ = mode;
}

void Console::set_difficulty(int difficulty) {
  const GameModes* modes = find_game_modes(rom_.name());
  const std::vector<int> available = modes ? modes->difficulties : std::vector<int>{0};
  if (std::find(available.begin(), available.end(), difficulty) == available.end()) {
    std::string list;
    for (int d : available) list += (list.empty() ? "" : ", ") + std::to_string(d);
    throw Error("difficulty: " + std::to_string(difficulty) + " is not a difficulty of '" +
                rom_.name() + "'; expected one of " + list);
  }
  difficulty_ = difficulty;
}

uint8_t Console::read_ram(uint16_t address) { return state_.riot.ram[address & 0x7F]; }

uint8_t Console::read_mapped(uint16_t address) {
  // A side-effect-free look through the bus, as ALE's System::peek of RAM or
  // a cartridge RAM read port.
  ConsoleState copy = state_;
  const ConsoleInputs inputs = hardware_inputs();
  ConsoleBus bus{copy, config_, frames_, inputs};
  return bus.read(address);
}

void Console::press_select(int frames) {
  run_frames(0, Switch::Select, frames);
  run_frames(0, Switch::None, 1);
  count_frame();
}

void Console::soft_reset() {
  last_soft_reset_frame_ = int(reset_frames_.size() / kResetFrameBytes);
  run_frames(0, Switch::Reset, kResetSwitchFrames);
}

uint32_t Console::env_rng_next() { return env_rng_(); }

void Console::act(int action, float paddle_strength) {
  if (action < 0 || action >= kNumActions) {
    throw Error("action: " + std::to_string(action) + " is out of range; expected 0-" +
                std::to_string(kNumActions - 1));
  }
  if (!std::isfinite(paddle_strength)) {
    throw Error("paddle_strength: " + std::to_string(paddle_strength) +
                " is not a finite number; expected a fraction of a full paddle step (ALE "
                "uses its absolute value)");
  }
  // ALE draws twice per frame for sticky actions (players A and B), even
  // when the repeat probability is zero.
  env_rng_();
  env_rng_();
  if (fire_is_illegal(rom_.name()) && fires(static_cast<Action>(action))) action = 0;
  run_frames(action, Switch::None, 1, paddle_strength);
  count_frame();
}

void Console::screen_rgb(uint8_t* out) const {
  const Palette& palette = properties_.format == TvFormat::PAL ? kPalPalette : kNtscPalette;
  const uint8_t* pixels = screen();
  for (int i = 0; i < height_ * kScreenWidth; ++i) {
    for (int c = 0; c < 3; ++c) out[3 * i + c] = palette.rgb[pixels[i]][c];
  }
}

void Console::screen_grayscale(uint8_t* out) const {
  const Palette& palette = properties_.format == TvFormat::PAL ? kPalPalette : kNtscPalette;
  const uint8_t* pixels = screen();
  for (int i = 0; i < height_ * kScreenWidth; ++i) out[i] = palette.gray[pixels[i]];
}

Console::Snapshot Console::clone_state() const {
  return Snapshot{state_, pixels_, rng_, env_rng_, controls_, frame_number_, episode_frame_number_,
                  rules_};
}

void Console::restore_state(const Snapshot& snapshot) {
  if (snapshot.frames.size() != pixels_.size()) {
    throw Error("snapshot: taken from a console of another game; expected one of '" + rom_.name() +
                "'");
  }
  state_ = snapshot.state;
  // In place: frames_ points into pixels_.
  std::copy(snapshot.frames.begin(), snapshot.frames.end(), pixels_.begin());
  rng_ = snapshot.rng;
  env_rng_ = snapshot.env_rng;
  controls_ = snapshot.controls;
  frame_number_ = snapshot.frame_number;
  episode_frame_number_ = snapshot.episode_frame_number;
  rules_ = snapshot.rules;
}

}  // namespace cule
