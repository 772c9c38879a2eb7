// How far the CPU code paths of a warp's consoles agree, measured on the
// host (no GPU needed):
//
//   warp_dispatch ROM... [--frames N] [--draw-every N] [--warp-slack S] ...
//
// For each game, 32 consoles (one warp) start from different seeds and
// 100-500 frames of random play, then run N frames (default 20) side by
// side one instruction at a time, as the GPU's CPU loop runs them: each
// iteration of the loop, every lane whose frame has not ended runs one
// instruction (and the timer wait it may start, see console_skip_timer_wait).
// Per iteration it counts the lanes that run one, the distinct PCs they run
// at, and the distinct paths the lanes take through the
// instruction's operation: a switch over the operation (Op) takes one per
// distinct operation; execute() takes one per distinct Decoded kind, the
// kind `other` one per operation. Lanes on different paths run one after
// the other, so fewer paths a warp iteration means less divergence. It
// also counts the iterations in which some lane's instruction makes a bus
// access out of line (the TIA, the RIOT's ports and timer, bank switching:
// ConsoleBus::read_device and write_device), which the whole warp waits
// for, and in those iterations how many lanes make one and how many
// distinct registers they reach (the TIA's, the RIOT's, the cartridge's
// hotspots, each read or written: the paths inside the call), and the
// pixels those accesses draw (the TIA draws up to an access's clock): in
// a warp the iteration lasts as long as its lane that draws most.
// --draw-together K,W weighs another schedule: lanes whose next
// instruction would draw (found by running it on a copy) wait until K of
// them wait, or one has waited W iterations, then run it together.
// --draw-every N weighs the GPU loop's own (console_run_instructions'
// kDrawEvery, CULE_DEVICE_DRAW_EVERY): every N iterations, before they run
// their instructions, all lanes draw up to their clock together, so that
// the writes that change the picture find little left to draw (as in the
// environments' steps, whose frames may be run again). --warp-slack S
// weighs the GPU loop's schedule (WarpSchedule,
// CULE_DEVICE_WARP_SLACK): only the lanes whose CPU clock is within S
// cycles of the warp's earliest run an instruction, the others wait. A
// model, not a timing.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cule/console.hpp"
#include "cule/rom.hpp"

namespace {

using namespace cule;

constexpr int kLanes = 32;

//! --draw-together K,W: a lane whose next instruction would draw waits,
//! its console untouched, until at least `lanes` lanes wait or it has
//! waited `iterations`; then the waiting lanes run theirs together.
//! lanes 0: lanes never wait (the loop as the GPU runs it).
struct DrawTogether {
  int lanes = 0;
  int iterations = 0;
};

//! The pixels one instruction of a lane would draw, run on copies of its
//! console and bus (drawing into `scratch`).
uint32_t pixels_drawn_by_next(const ConsoleBus<kAnyMapper>& bus, const Cpu& cpu,
                              const FrameBuffers& scratch) {
  ConsoleState copy = bus.c;
  Cpu cpu_copy = cpu;
  ConsoleBus<kAnyMapper> trial{copy, bus.config, scratch, bus.inputs, cpu_copy};
  trial.data_bus = bus.data_bus;
  trial.last_access_was_read = bus.last_access_was_read;
  const uint32_t before = copy.tia.frame_pixel;
  cpu_step(cpu_copy, trial);
  return copy.tia.frame_pixel - before;
}

struct Counts {
  double iterations = 0, lanes = 0, operations = 0, decoded_paths = 0, pcs = 0, running = 0;
  double device_iterations = 0, device_lanes = 0, device_registers = 0;
  double drawing_iterations = 0, drawing_lanes = 0, pixels = 0, most_pixels = 0;
  // Drawing ahead (--draw-every), included in pixels and most_pixels.
  double ahead_pixels = 0, ahead_most_pixels = 0;
};

//! The console's bus, noting the accesses ConsoleBus makes out of line
//! (read_device and write_device: the TIA, the RIOT's ports and timer, the
//! cartridge's switching), which a warp runs as a call when any lane does,
//! and the registers they reach, where the call's code divides.
struct CountingBus {
  ConsoleBus<kAnyMapper>& bus;
  std::set<int>& registers;  // of the warp's iteration
  int device_accesses = 0;
  uint32_t pixels = 0;  // drawn by those accesses (the TIA draws up to their clock)

  void note(uint16_t address, bool write) {
    const uint16_t a = address & 0x1FFF;
    const int reg = a & 0x1000               ? 0x1000 | (a & 0x0FFF)  // cartridge
                    : (a & 0x0280) == 0x0280 ? 0x0280 | (a & 0x1F)    // RIOT ports and timer
                    : write                  ? a & 0x3F               // TIA
                                             : a & 0x0F;
    registers.insert(reg | (write ? 0x10000 : 0));
    ++device_accesses;
  }
  uint8_t read(uint16_t address) {
    uint8_t ignored;
    const bool rom = (address & 0x1000) &&
                     cartridge_read_plain(bus.c.cart, bus.mapper(), bus.rom, address, ignored);
    if (!rom && !ConsoleBus<kAnyMapper>::is_riot_ram(address & 0x1FFF, bus.mapper())) {
      note(address, false);
    }
    const uint32_t before = bus.c.tia.frame_pixel;
    const uint8_t value = bus.read(address);
    pixels += bus.c.tia.frame_pixel - before;
    return value;
  }
  void write(uint16_t address, uint8_t value) {
    if (!ConsoleBus<kAnyMapper>::is_riot_ram(address & 0x1FFF, bus.mapper())) note(address, true);
    const uint32_t before = bus.c.tia.frame_pixel;
    bus.write(address, value);
    pixels += bus.c.tia.frame_pixel - before;
  }
};

Counts measure(const std::string& path, int frames, DrawTogether together, int draw_every,
               int warp_slack) {
  std::mt19937 rng(2600);
  std::vector<std::unique_ptr<Console>> consoles;
  for (int i = 0; i < kLanes; ++i) {
    consoles.push_back(std::make_unique<Console>(Rom::load(path), uint32_t(i)));
    Console& console = *consoles.back();
    console.reset();
    const int warm_up = 100 + int(rng() % 400);
    for (int f = 0; f < warm_up; ++f) console.act(int(rng() % 18));
  }
  Counts counts;
  const uint32_t screen_pixels = uint32_t(kScreenWidth * consoles[0]->setup().console.tia.height);
  std::vector<std::vector<uint8_t>> pixels(2 * kLanes, std::vector<uint8_t>(2 * screen_pixels));
  std::vector<FrameBuffers> buffers, scratch;
  for (int i = 0; i < kLanes; ++i) {
    buffers.push_back(FrameBuffers{pixels[i].data(), screen_pixels});
    scratch.push_back(FrameBuffers{pixels[kLanes + i].data(), screen_pixels});
  }
  for (int frame = 0; frame < frames; ++frame) {
    // Each lane runs a copy of its console's frame, with the inputs of its
    // last action; the consoles themselves then play on.
    std::vector<AleConsole> state(kLanes);
    std::vector<ConsoleInputs> inputs(kLanes);
    std::vector<Cpu> cpus(kLanes);
    std::vector<std::unique_ptr<ConsoleBus<kAnyMapper>>> buses;
    for (int i = 0; i < kLanes; ++i) {
      const AleSetup& setup = consoles[i]->setup();
      state[i] = consoles[i]->ale_state();
      inputs[i] = controls_inputs(state[i].controls, setup.controllers, state[i].difficulty);
      console_begin_frame(state[i].machine, setup.console);
      cpus[i] = state[i].machine.cpu;
      buses.push_back(std::make_unique<ConsoleBus<kAnyMapper>>(
          ConsoleBus<kAnyMapper>{state[i].machine, setup.console, buffers[i], inputs[i], cpus[i]}));
    }
    // As console_run_instructions' loop, a lane at a time.
    std::vector<int> run(kLanes, 0), waited(kLanes, 0);
    for (int iteration = 0;; ++iteration) {
      std::set<int> operations, paths, registers, pcs;
      int running = 0;
      int active = 0, device = 0, drawing = 0;
      uint32_t pixels = 0, most_pixels = 0;
      std::vector<bool> live(kLanes), waits(kLanes);
      int waiting = 0;
      bool draw_now = false;
      for (int i = 0; i < kLanes; ++i) {
        live[i] = run[i] < kMaxInstructionsPerFrame && !buses[i]->stop && !cpus[i].jammed;
        if (live[i] && together.lanes > 0) {
          waits[i] = pixels_drawn_by_next(*buses[i], cpus[i], scratch[i]) > 0;
          waiting += waits[i];
          draw_now = draw_now || (waits[i] && waited[i] >= together.iterations);
        }
      }
      draw_now = draw_now || waiting >= together.lanes;
      // --warp-slack S: only the lanes within S cycles of the warp's
      // earliest run (WarpSchedule; lanes that --draw-together
      // holds back count too, and the device has no such wait).
      uint32_t earliest = ~0u;
      for (int i = 0; i < kLanes; ++i) {
        if (live[i]) earliest = std::min(earliest, cpus[i].cycles);
      }
      if (draw_every > 0 && iteration % draw_every == draw_every - 1) {
        uint32_t sum = 0, most = 0;
        for (int i = 0; i < kLanes; ++i) {
          if (!live[i]) continue;
          Tia& tia = state[i].machine.tia;
          const uint32_t before = tia.frame_pixel;
          tia_update(tia, buffers[i], int(cpus[i].cycles * 3));
          sum += tia.frame_pixel - before;
          most = std::max(most, tia.frame_pixel - before);
        }
        counts.ahead_pixels += sum;
        counts.ahead_most_pixels += most;
        counts.pixels += sum;
        counts.most_pixels += most;
      }
      for (int i = 0; i < kLanes; ++i) {
        ConsoleBus<kAnyMapper>& bus = *buses[i];
        Cpu& cpu = cpus[i];
        if (!live[i]) continue;
        ++active;
        if (waits[i] && !draw_now) {
          ++waited[i];
          continue;
        }
        waited[i] = 0;
        if (!warp_lane_runs(cpus[i].cycles - earliest, warp_slack)) continue;
        ++running;
        pcs.insert(cpu.PC);
        const ConsoleConfig& config = consoles[i]->setup().console;
        uint8_t opcode = 0;
        if (cartridge_read_plain(state[i].machine.cart, config.mapper, config.rom, cpu.PC,
                                 opcode)) {
          const Decoded d = kDecoded[opcode];
          operations.insert(int(d.op));
          paths.insert(d.kind == Decoded::other ? 256 + int(d.op) : int(d.kind));
        }
        CountingBus counting{bus, registers};
        cpu_step(cpu, counting);
        device += counting.device_accesses > 0;
        drawing += counting.pixels > 0;
        pixels += counting.pixels;
        most_pixels = std::max(most_pixels, counting.pixels);
        if (bus.riot_read) {
          bus.riot_read = false;
          run[i] += console_skip_timer_wait(bus, kMaxInstructionsPerFrame - 1 - run[i]);
        }
        ++run[i];
      }
      if (active == 0) break;
      counts.iterations += 1;
      counts.lanes += active;
      counts.operations += double(operations.size());
      counts.decoded_paths += double(paths.size());
      counts.pcs += double(pcs.size());
      counts.running += running;
      counts.device_iterations += device > 0;
      counts.device_lanes += device;
      counts.device_registers += double(registers.size());
      counts.drawing_iterations += drawing > 0;
      counts.drawing_lanes += drawing;
      counts.pixels += pixels;
      counts.most_pixels += most_pixels;
    }
    for (auto& console : consoles) console->act(int(rng() % 18));
  }
  return counts;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> roms;
  int frames = 20;
  DrawTogether together;
  int draw_every = 0;
  int warp_slack = -1;
  bool usage = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--frames" && i + 1 < argc) {
      frames = std::atoi(argv[++i]);
      usage = usage || frames <= 0;
    } else if (arg == "--draw-together" && i + 1 < argc) {
      usage = usage ||
              std::sscanf(argv[++i], "%d,%d", &together.lanes, &together.iterations) != 2 ||
              together.lanes < 1 || together.lanes > kLanes || together.iterations < 0;
    } else if (arg == "--warp-slack" && i + 1 < argc) {
      warp_slack = std::atoi(argv[++i]);
      usage = usage || warp_slack < -1;
    } else if (arg == "--draw-every" && i + 1 < argc) {
      draw_every = std::atoi(argv[++i]);
      usage = usage || draw_every <= 0;
    } else {
      roms.push_back(arg);
    }
  }
  if (roms.empty() || usage) {
    std::fprintf(stderr,
                 "usage: warp_dispatch ROM... [--frames N (> 0)] [--draw-together K,W"
                 " (1 <= K <= 32, W >= 0)]"
                 " [--draw-every N (> 0)] [--warp-slack S (>= 0; -1: none)]\n");
    return 2;
  }
  std::printf("%d lanes, %d frames each", kLanes, frames);
  if (together.lanes > 0) {
    std::printf(", drawing together (%d lanes, or a lane that waited %d iterations)",
                together.lanes, together.iterations);
  }
  if (draw_every > 0) {
    std::printf(", all lanes drawing up to their clock every %d iterations", draw_every);
  }
  if (warp_slack >= 0) {
    std::printf(", lanes running within %d cycles of the warp's earliest", warp_slack);
  }
  std::printf("; per warp iteration:\n");
  std::printf(
      "| game | iterations | active lanes | running lanes | distinct PCs |"
      " operations (switch over Op) | execute() paths |"
      " with an out-of-line access | lanes with one | registers they reach |\n"
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  std::vector<std::string> drawing_rows;
  try {
    for (const std::string& rom : roms) {
      const Counts c = measure(rom, frames, together, draw_every, warp_slack);
      const std::string file = rom.substr(rom.find_last_of('/') + 1);
      const std::string game = file.substr(0, file.rfind('.'));
      const double device = c.device_iterations;
      std::printf("| %s | %.0f | %.1f | %.1f | %.2f | %.2f | %.2f | %.0f%% | %.2f | %.2f |\n",
                  game.c_str(), c.iterations, c.lanes / c.iterations, c.running / c.iterations,
                  c.pcs / c.iterations, c.operations / c.iterations, c.decoded_paths / c.iterations,
                  100 * device / c.iterations, c.device_lanes / device,
                  c.device_registers / device);
      const double drawing = c.drawing_iterations;
      char row[256];
      std::snprintf(row, sizeof row,
                    "| %s | %.0f | %.0f%% | %.2f | %.1f | %.1f | %.0f | %.0f | %.0f%% |\n",
                    game.c_str(), c.iterations / frames, 100 * drawing / c.iterations,
                    c.drawing_lanes / drawing, (c.pixels - c.ahead_pixels) / c.drawing_lanes,
                    (c.most_pixels - c.ahead_most_pixels) / drawing, c.most_pixels / frames,
                    c.ahead_most_pixels / frames, 100 * c.pixels / (c.most_pixels * kLanes));
      drawing_rows.push_back(row);
    }
    std::printf(
        "\nDrawing within the loop (the TIA draws up to an access's clock), per warp iteration\n"
        "| game | iterations a frame | with drawing | lanes drawing | pixels a drawing lane draws |"
        " most pixels a lane draws | drawing time a frame (sum of the most) |"
        " of it drawing ahead | lanes' pixels / (32 x most) |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (const std::string& row : drawing_rows) std::printf("%s", row.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warp_dispatch: %s\n", e.what());
    return 1;
  }
  return 0;
}
