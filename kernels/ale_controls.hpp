// ALE's controls: how an action (0-17) becomes controller events, and how
// those events reach the console's ports through the game's controllers.
//
//   controls_set_events(controls, setup, action, HeldSwitch::none, strength);
//   const ConsoleInputs inputs = controls_inputs(controls, setup, difficulty);
//
// The facts (ALE v0.12.1, StellaEnvironment / Stella's Joystick and Paddles):
// a joystick game maps the action to player A's joystick; a paddle game moves
// player A's paddle by a fixed resistance step per frame (right turns it
// towards lower resistance) and fires with its button; SELECT and RESET are
// port B switches; the difficulty switches follow ALE's difficulty setting on
// every frame once ALE's environment drives them.
#pragma once

#include <cstdint>

#include "kernels/console.hpp"
#include "kernels/hd.hpp"

namespace cule {

//! ALE's paddle resistances, and the step a full-strength action moves them.
constexpr int32_t kPaddleDelta = 23000;
constexpr int32_t kPaddleMin = 27450;
constexpr int32_t kPaddleMax = 790196;
//! The largest |paddle strength| taken. ALE takes any, but past about
//! 93,000 its int conversion of the step is undefined (x86 and CUDA give
//! different values); up to this bound the step and the paddle's position
//! before clamping fit an int32, so every strength taken moves the paddle as
//! ALE does.
constexpr float kMaxPaddleStrength = 65536.0f;

//! A strength steps may use: a number (not NaN) of magnitude at most
//! kMaxPaddleStrength.
CULE_HD inline bool paddle_strength_valid(float strength) {
  return strength >= -kMaxPaddleStrength && strength <= kMaxPaddleStrength;
}

//! The console switch held during a frame.
enum class HeldSwitch : uint8_t { none, reset, select };

//! How a ROM's controllers are wired, from its properties (read-only, shared
//! by a batch).
struct ControllerSetup {
  uint8_t left_paddles;  // Controller.Left == PADDLES
  uint8_t right_paddles;
  uint8_t swap_ports;    // Console.SwapPorts
  uint8_t swap_paddles;  // Controller.SwapPaddles
  uint8_t fire_illegal;  // ALE's settings make every firing action illegal
  int32_t paddle_max;    // the game's highest paddle resistance
};

//! ALE treats a game as a paddle game when either side has paddles.
CULE_HD inline bool uses_paddles(const ControllerSetup& s) {
  return s.left_paddles || s.right_paddles;
}

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

// In ALE's action order the eight directions come twice: 2-9 without FIRE
// and 10-17 with it.
CULE_HD inline int action_direction(int action) { return action >= 10 ? action - 8 : action; }
CULE_HD inline bool action_fires(int action) { return action == 1 || action >= 10; }
CULE_HD inline bool action_up(int action) {
  const int d = action_direction(action);
  return d == 2 || d == 6 || d == 7;
}
CULE_HD inline bool action_down(int action) {
  const int d = action_direction(action);
  return d == 5 || d == 8 || d == 9;
}
CULE_HD inline bool action_left(int action) {
  const int d = action_direction(action);
  return d == 4 || d == 7 || d == 9;
}
CULE_HD inline bool action_right(int action) {
  const int d = action_direction(action);
  return d == 3 || d == 6 || d == 8;
}

//! The controller events ALE sends (its Event table).
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

//! ALE's events for one frame of `action` with `held` pressed. In a paddle
//! game, a left or right action turns player A's paddle by
//! |paddle_strength| of the full step.
CULE_HD inline void controls_set_events(Controls& c, const ControllerSetup& setup, int action,
                                        HeldSwitch held, float paddle_strength) {
  const AleEvents previous = c.events;
  c.events = AleEvents{};
  // Paddle resistances stay as ALE last set them.
  for (int i = 0; i < 4; ++i) c.events.paddle_resistance[i] = previous.paddle_resistance[i];
  c.events.reset = held == HeldSwitch::reset;
  c.events.select = held == HeldSwitch::select;
  c.events.difficulty_set = true;
  if (held == HeldSwitch::select) return;  // pressSelect leaves the controllers alone
  if (uses_paddles(setup)) {
    const float strength = paddle_strength < 0.0f ? -paddle_strength : paddle_strength;
    // In double, as ALE (its fabs is C's): a float product rounds some
    // strengths up to the next whole step, e.g. 0.8713478 to 20041, not 20040.
    const int32_t delta = static_cast<int32_t>(double(kPaddleDelta) * double(strength));
    if (action_right(action)) c.left_paddle -= delta;
    if (action_left(action)) c.left_paddle += delta;
    auto clamp = [&](int32_t v) {
      return v < kPaddleMin ? kPaddleMin : (v > setup.paddle_max ? setup.paddle_max : v);
    };
    c.left_paddle = clamp(c.left_paddle);
    c.right_paddle = clamp(c.right_paddle);
    c.events.paddle_resistance[0] = c.left_paddle;
    c.events.paddle_resistance[1] = c.right_paddle;
    c.events.paddle_fire[0] = action_fires(action);
  } else {
    c.events.joystick[0] = {action_up(action), action_down(action), action_left(action),
                            action_right(action), action_fires(action)};
  }
}

//! The port and TIA inputs the events give. Updates the switch positions:
//! SELECT and RESET as held, and (once ALE's environment drives them) the
//! difficulty switches from `difficulty` (bit 0: left A = port B bit 6,
//! bit 1: right A = bit 7).
CULE_HD inline ConsoleInputs controls_inputs(Controls& c, const ControllerSetup& setup,
                                             int difficulty) {
  // ALE's Console puts the left controller in port 1 and the right one in
  // port 0 when SwapPorts is set.
  const bool swap = setup.swap_ports;
  ConsoleInputs inputs{};
  inputs.swcha = 0;
  for (int port = 0; port < 2; ++port) {
    const bool paddles = (port == 0) != swap ? setup.left_paddles : setup.right_paddles;
    const int jack = (port == 0) != swap ? 0 : 1;  // 0: left jack (events Zero/One)
    // Pins One-Four (up, down, left, right) and Six (fire): true = high = released.
    bool pin[5];
    int32_t nine, five;
    if (paddles) {
      // A paddle jack carries two paddles: fire buttons on pins Four and
      // Three, resistances on pins Nine and Five (swapped by SwapPaddles).
      const int first = 2 * jack + (setup.swap_paddles ? 1 : 0);
      const int second = 2 * jack + (setup.swap_paddles ? 0 : 1);
      pin[0] = pin[1] = true;
      pin[2] = !c.events.paddle_fire[second];
      pin[3] = !c.events.paddle_fire[first];
      pin[4] = true;
      nine = c.events.paddle_resistance[first];
      five = c.events.paddle_resistance[second];
    } else {
      const JoystickEvents& j = c.events.joystick[jack];
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
  if (c.events.difficulty_set) {
    c.switches = uint8_t((c.switches & ~0xC0) | ((difficulty & 1) << 6) | ((difficulty & 2) << 6));
  }
  c.switches = c.events.select ? uint8_t(c.switches & ~0x02) : uint8_t(c.switches | 0x02);
  c.switches = c.events.reset ? uint8_t(c.switches & ~0x01) : uint8_t(c.switches | 0x01);
  inputs.swchb = c.switches;
  return inputs;
}

}  // namespace cule
