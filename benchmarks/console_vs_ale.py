"""Frames per second of one cule.Console against ale-py's ALEInterface, one
core each, in the same run: frameskip 1, every frame rendered, the same
random actions, no sticky actions.

    python benchmarks/console_vs_ale.py --frames 5000 pong breakout seaquest
"""

import argparse
import time

import numpy as np

import cule


def frames_per_second(step, reset, game_over, actions) -> float:
    start = time.perf_counter()
    for action in actions:
        step(int(action))
        if game_over():
            reset()
    return len(actions) / (time.perf_counter() - start)


def main() -> None:
    from ale_py import Action, ALEInterface, LoggerMode, roms

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=["pong", "breakout", "seaquest", "space_invaders", "ms_pacman", "montezuma_revenge", "pitfall2", "enduro"])
    parser.add_argument("--frames", type=int, default=5000)
    args = parser.parse_args()

    ALEInterface.setLoggerMode(LoggerMode.Error)
    print("| game | cule frames/s | ale-py frames/s | cule / ale-py |")
    print("| --- | ---: | ---: | ---: |")
    ratios = []
    for game in args.games:
        path = str(roms.get_rom_path(game))
        actions = np.random.default_rng(0).integers(0, 18, args.frames)
        ale = ALEInterface()
        ale.setFloat("repeat_action_probability", 0.0)
        ale.loadROM(path)
        ale_fps = frames_per_second(lambda a: ale.act(Action(a)), ale.reset_game, ale.game_over, actions)
        console = cule.Console(path)
        # cule.Console has no game rules yet: reset when ALE would (same frames).
        cule_fps = frames_per_second(console.act, console.reset, lambda: False, actions)
        ratios.append(cule_fps / ale_fps)
        print(f"| {game} | {cule_fps:.0f} | {ale_fps:.0f} | {ratios[-1]:.2f} |", flush=True)
    print(f"geometric mean cule / ale-py: {np.exp(np.mean(np.log(ratios))):.2f}")


if __name__ == "__main__":
    main()
