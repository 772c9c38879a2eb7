// cule._core: the pybind11 module. Thin: converts types, releases the GIL
// around emulation, maps cule's exceptions to Python's.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "cule/cule.hpp"
#include "cule/game_rules.hpp"

namespace py = pybind11;

namespace {

cule::FlatMachine flat_machine_from_bytes(const py::bytes& image, uint16_t load_address) {
  const std::string data = image;
  return cule::FlatMachine(reinterpret_cast<const uint8_t*>(data.data()), data.size(),
                           load_address);
}

// A read-only numpy view of memory owned by `owner` (kept alive by the view).
py::array_t<uint8_t> view(const uint8_t* data, std::vector<py::ssize_t> shape, py::handle owner) {
  py::array_t<uint8_t> array(shape, data, owner);
  py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return array;
}

cule::Rom rom_from(const py::object& rom) {
  if (py::isinstance<py::bytes>(rom)) {
    const std::string data = rom.cast<py::bytes>();
    return cule::Rom::from_bytes(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  }
  return cule::Rom::load(py::str(rom).cast<std::string>());
}

}  // namespace

// --- GameRules: ALE's per-game reward/terminal/lives rules, for tests ------
namespace {

struct PyGameRules {
  cule::Game game;
  cule::GameRuleState state;
};

// The first 128 bytes of a console's cartridge RAM (zeros without any).
std::vector<uint8_t> console_cart_ram(const cule::Console& c) {
  std::vector<uint8_t> bytes(128, 0);
  const int n = std::min<int>(cule::mapper_ram_bytes(c.rom().mapper()), 128);
  std::copy(c.state().cart.ram, c.state().cart.ram + n, bytes.begin());
  return bytes;
}

void bind_game_rules(py::module_& m) {
  py::class_<PyGameRules>(m, "GameRules", R"doc(
ALE's game settings for one game: reward, terminal and lives after each frame,
computed from RAM (kernels/game_rules.hpp).)doc")
      .def(py::init([](const std::string& id) {
             PyGameRules r{cule::game_from_id(id), {}};
             cule::game_rules_init(r.state);
             cule::game_rules_reset(r.game, r.state);
             return r;
           }),
           py::arg("game_id"))
      .def(
          "reset", [](PyGameRules& r) { cule::game_rules_reset(r.game, r.state); },
          "RomSettings::reset.")
      .def(
          "set_mode",
          [](PyGameRules& r, int mode) { cule::game_rules_set_mode(r.game, r.state, mode); },
          py::arg("mode"), "What the game's setMode does to its settings.")
      .def(
          "step",
          [](PyGameRules& r, py::array_t<uint8_t, py::array::c_style | py::array::forcecast> ram,
             std::optional<py::array_t<uint8_t, py::array::c_style | py::array::forcecast>>
                 cart_ram) {
            if (ram.size() != 128) throw cule::Error("ram: expected 128 bytes");
            if (cart_ram && cart_ram->size() != 128) {
              throw cule::Error("cart_ram: expected 128 bytes");
            }
            cule::game_rules_step(r.game, r.state, ram.data(),
                                  cart_ram ? cart_ram->data() : nullptr);
          },
          py::arg("ram"), py::arg("cart_ram") = py::none(),
          "RomSettings::step over 128 bytes of RAM (and Klax's cartridge RAM).")
      .def(
          "step_console",
          [](PyGameRules& r, const cule::Console& c) {
            const std::vector<uint8_t> cart = console_cart_ram(c);
            cule::game_rules_step(r.game, r.state, c.ram(), cart.data());
          },
          py::arg("console"), "step() on the console's memory after its last frame.")
      .def(
          "replay_reset",
          [](PyGameRules& r, const cule::Console& c) {
            // The frames of the console's last reset, as ALE's settings see
            // them: step() on each, reset() and setMode's changes in between.
            const auto& frames = c.reset_frames();
            const int n = int(frames.size() / cule::Console::kResetFrameBytes);
            for (int i = 0; i <= n; ++i) {
              if (i == c.reset_settings_frame()) cule::game_rules_reset(r.game, r.state);
              if (i == c.reset_mode_frame()) {
                cule::game_rules_set_mode(r.game, r.state, c.mode());
              }
              if (i == n) break;
              const uint8_t* f = frames.data() + size_t(i) * cule::Console::kResetFrameBytes;
              cule::game_rules_step(r.game, r.state, f, f + 128);
            }
          },
          py::arg("console"), "Bring the rules to where ALE's are after the console's last reset.")
      .def_property_readonly("reward",
                             [](const PyGameRules& r) { return cule::game_rules_reward(r.state); })
      .def_property_readonly(
          "terminal", [](const PyGameRules& r) { return cule::game_rules_terminal(r.state); })
      .def_property_readonly(
          "lives", [](const PyGameRules& r) { return cule::game_rules_lives(r.game, r.state); })
      .def_property_readonly("score", [](const PyGameRules& r) { return r.state.score; });
  m.def(
      "minimal_action_set",
      [](const std::string& id) { return cule::minimal_action_set(cule::game_from_id(id)); },
      py::arg("game_id"), "ALE's minimal action set, in ALE's action order.");
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "cule's compiled core (use the `cule` package)";
  m.attr("__version__") = CULE_VERSION;

  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const cule::FileError& e) {
      PyErr_SetString(PyExc_FileNotFoundError, e.what());
    } catch (const cule::DeviceError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const cule::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  py::class_<cule::CpuRunResult>(m, "CpuRunResult", "How a run of a FlatMachine ended.")
      .def_readonly("pc", &cule::CpuRunResult::pc)
      .def_readonly("instructions", &cule::CpuRunResult::instructions)
      .def_readonly("cycles", &cule::CpuRunResult::cycles)
      .def_readonly("jammed", &cule::CpuRunResult::jammed)
      .def_readonly("trapped", &cule::CpuRunResult::trapped)
      .def("__repr__", [](const cule::CpuRunResult& r) {
        return "CpuRunResult(pc=" + std::to_string(r.pc) +
               ", instructions=" + std::to_string(r.instructions) +
               ", cycles=" + std::to_string(r.cycles) +
               ", jammed=" + (r.jammed ? "True" : "False") +
               ", trapped=" + (r.trapped ? "True" : "False") + ")";
      });

  py::class_<cule::FlatMachine>(m, "FlatMachine",
                                "A 6502 over 64 KiB of flat RAM, for CPU test images.")
      .def(py::init(&flat_machine_from_bytes), py::arg("image"), py::arg("load_address") = 0)
      .def_static("from_file", &cule::FlatMachine::from_file, py::arg("path"),
                  py::arg("load_address") = 0)
      .def("run", &cule::FlatMachine::run, py::arg("start_pc"), py::arg("max_instructions"),
           py::call_guard<py::gil_scoped_release>(),
           "Set PC and run until a trap (PC stops moving), a JAM, or max_instructions.")
      .def_property_readonly("memory", [](const cule::FlatMachine& machine) {
        const auto& memory = machine.memory();
        return py::bytes(reinterpret_cast<const char*>(memory.data()), memory.size());
      });

  py::class_<cule::Console::Snapshot>(m, "ConsoleState",
                                      "A snapshot of a Console, for restore_state.");

  py::class_<cule::Console>(m, "Console", R"doc(
One Atari 2600, driven the way ALE drives its own: built from a ROM (a path or
the image's bytes) and reset as ALE's loadROM does; act(action) emulates one
frame with one of ALE's 18 actions.)doc")
      .def(py::init([](const py::object& rom, uint32_t seed) {
             return cule::Console(rom_from(rom), seed);
           }),
           py::arg("rom"), py::arg("seed") = 0)
      .def_property("mode", &cule::Console::mode, &cule::Console::set_mode,
                    "The game mode used from the next reset (ALE's default at first).")
      .def("reset", &cule::Console::reset, py::call_guard<py::gil_scoped_release>(),
           "ALE's reset_game sequence.")
      .def("act", py::overload_cast<int, float>(&cule::Console::act), py::arg("action"),
           py::arg("paddle_strength") = 1.0f, py::call_guard<py::gil_scoped_release>(),
           "Emulate one frame with action 0-17; paddle games turn the paddle by "
           "|paddle_strength| of ALE's step.")
      .def_property_readonly("game", [](const cule::Console& c) { return c.rom().name(); })
      .def_property_readonly("md5", [](const cule::Console& c) { return c.rom().md5(); })
      .def_property_readonly(
          "mapper", [](const cule::Console& c) { return cule::mapper_name(c.rom().mapper()); })
      .def_property_readonly("frame_number", &cule::Console::frame_number)
      .def(
          "screen",
          [](py::object self) {
            const auto& c = self.cast<const cule::Console&>();
            return view(c.screen(), {c.height(), c.width()}, self);
          },
          "The last frame as palette indices, shape (height, 160); a read-only view.")
      .def(
          "screen_rgb",
          [](const cule::Console& c) {
            py::array_t<uint8_t> out({c.height(), c.width(), 3});
            c.screen_rgb(out.mutable_data());
            return out;
          },
          "The last frame as RGB, shape (height, 160, 3), as ALE's getScreenRGB.")
      .def(
          "screen_grayscale",
          [](const cule::Console& c) {
            py::array_t<uint8_t> out({c.height(), c.width()});
            c.screen_grayscale(out.mutable_data());
            return out;
          },
          "The last frame as luminance, shape (height, 160), as ALE's getScreenGrayscale.")
      .def(
          "ram",
          [](py::object self) {
            const auto& c = self.cast<const cule::Console&>();
            return view(c.ram(), {128}, self);
          },
          "The 128 bytes of RIOT RAM; a read-only view.")
      .def("clone_state", &cule::Console::clone_state)
      .def("restore_state", &cule::Console::restore_state, py::arg("state"));

  m.def("cuda_device_count", &cule::cuda_device_count,
        "Number of usable CUDA devices (0 without CUDA support, driver or device).");

  bind_game_rules(m);
}
