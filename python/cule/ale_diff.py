"""Differential runs of cule against ALE (ale-py), frame by frame.

Both emulators load the same ROM, are reset the way ale-py resets a game (in
a mode and difficulty where asked), and play the same random actions from the
full action set with frameskip 1 and no sticky actions. After every frame the
screens (palette indices), the 128 bytes of RAM, the reward, the game's end
and the lives are compared; the first difference is reported with the RAM
bytes that differ and, on request, a PNG of both screens and their difference.

    python -m cule.ale_diff tetris --frames 2000 --seeds 0 1
    python -m cule.ale_diff --all --frames 2000 --table ale_diff.md
    python -m cule.ale_diff --all --modes --frames 1000   # every mode and difficulty
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import pathlib
import struct
import sys
import time
import zlib

import numpy as np

import cule


@dataclasses.dataclass
class DiffResult:
    game: str
    mapper: str
    seed: int
    frames_compared: int
    first_divergence: int | None  # frame index, None when all frames matched
    detail: str = ""
    mode: int | None = None  # None: the game's default
    difficulty: int | None = None


def write_png(path: pathlib.Path, rgb: np.ndarray) -> None:
    """Writes an (H, W, 3) uint8 image as PNG."""
    height, width, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[row].tobytes() for row in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def _difference_picture(ale_rgb: np.ndarray, cule_rgb: np.ndarray) -> np.ndarray:
    """ALE's screen, cule's screen and their difference (red) side by side."""
    differs = np.any(ale_rgb != cule_rgb, axis=2)
    diff = (ale_rgb // 4).copy()
    diff[differs] = (255, 0, 0)
    gap = np.full((ale_rgb.shape[0], 4, 3), 255, np.uint8)
    return np.concatenate([ale_rgb, gap, cule_rgb, gap, diff], axis=1)


def make_ale(rom_path: str, seed: int):
    from ale_py import ALEInterface, LoggerMode

    ALEInterface.setLoggerMode(LoggerMode.Error)
    ale = ALEInterface()
    ale.setInt("random_seed", seed)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setInt("frame_skip", 1)
    ale.loadROM(rom_path)
    return ale


def compare(
    rom_path: str,
    frames: int,
    seed: int,
    picture_dir: pathlib.Path | None = None,
    mode: int | None = None,
    difficulty: int | None = None,
) -> DiffResult:
    """Runs ALE and cule side by side on one ROM for `frames` frames."""
    from ale_py import Action

    ale = make_ale(rom_path, seed)
    console = cule.Console(rom_path, seed=seed)
    if mode is not None:
        ale.setMode(mode)
        console.mode = mode
    if difficulty is not None:
        ale.setDifficulty(difficulty)
        console.difficulty = difficulty
    result = DiffResult(console.game, console.mapper, seed, 0, None, mode=mode, difficulty=difficulty)
    rng = np.random.default_rng(seed)

    # ALE tells a reward only as act's result: after a reset there is none to compare.
    def check(frame: int, ale_reward: int | None = None) -> bool:
        for name, want, got in (
            ("reward", ale_reward, console.reward if ale_reward is not None else None),
            ("game over", ale.game_over(), console.terminal),
            ("lives", ale.lives(), console.lives),
        ):
            if want != got:
                result.first_divergence = frame
                result.detail = f"{name}: ALE {want} cule {got}"
                return False
        ale_screen = ale.getScreen()
        cule_screen = console.screen()
        ale_ram = ale.getRAM()
        cule_ram = console.ram()
        screen_ok = ale_screen.shape == cule_screen.shape and np.array_equal(ale_screen, cule_screen)
        ram_ok = np.array_equal(ale_ram, cule_ram)
        if screen_ok and ram_ok:
            return True
        result.first_divergence = frame
        parts = []
        if not screen_ok:
            if ale_screen.shape != cule_screen.shape:
                parts.append(f"screen shape {cule_screen.shape} != ALE's {ale_screen.shape}")
            else:
                rows = np.nonzero(np.any(ale_screen != cule_screen, axis=1))[0]
                parts.append(f"{int(np.sum(ale_screen != cule_screen))} pixels differ in rows {rows.min()}-{rows.max()}")
                if picture_dir is not None:
                    picture_dir.mkdir(parents=True, exist_ok=True)
                    path = picture_dir / f"{console.game}_seed{seed}_frame{frame}.png"
                    write_png(path, _difference_picture(ale.getScreenRGB(), console.screen_rgb()))
                    parts.append(f"picture {path}")
        if not ram_ok:
            addresses = np.nonzero(ale_ram != cule_ram)[0]
            parts.append("RAM " + ", ".join(f"${0x80 + a:02X}: ALE {ale_ram[a]:02X} cule {cule_ram[a]:02X}" for a in addresses[:8]))
        result.detail = "; ".join(parts)
        return False

    ale.reset_game()
    console.reset()
    if not check(0):
        return result
    for frame in range(1, frames + 1):
        action = int(rng.integers(18))
        ale_reward = ale.act(Action(action))
        console.act(action)
        result.frames_compared = frame
        if not check(frame, ale_reward):
            return result
        if ale.game_over():
            ale.reset_game()
            console.reset()
            if not check(frame):
                result.detail = "after reset: " + result.detail
                return result
    return result


def supported_rom_ids() -> list[str]:
    """The ROMs ale-py ships that ALE has game settings for (ALE exits on the others)."""
    from ale_py import ALEInterface, roms

    return sorted(g for g in roms.get_all_rom_ids() if ALEInterface.isSupportedROM(roms.get_rom_path(g)))


def _rom_ids(names: list[str]) -> list[str]:
    return supported_rom_ids() if not names else names


def settings_to_compare(rom_path: str) -> list[tuple[int, int]]:
    """(mode, difficulty) pairs other than the defaults: every mode ALE lists
    with the default difficulty, and every difficulty with the default mode."""
    from ale_py import ALEInterface, LoggerMode

    ALEInterface.setLoggerMode(LoggerMode.Error)
    ale = ALEInterface()
    ale.loadROM(rom_path)
    modes, difficulties = list(ale.getAvailableModes()), list(ale.getAvailableDifficulties())
    return [(m, difficulties[0]) for m in modes[1:]] + [(modes[0], d) for d in difficulties[1:]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="ale-py ROM ids (default with --all: every ROM ale-py ships)")
    parser.add_argument("--all", action="store_true", help="every ROM ale-py ships")
    parser.add_argument("--frames", type=int, default=2000)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument(
        "--modes",
        action="store_true",
        help="each game in its other modes (default difficulty) and difficulties (default mode)",
    )
    parser.add_argument("--pictures", type=pathlib.Path, default=None, help="folder for PNGs of first differences")
    parser.add_argument("--table", type=pathlib.Path, default=None, help="also write the table (Markdown) here")
    args = parser.parse_args(argv)
    if not args.games and not args.all:
        parser.error("name games or pass --all")

    from ale_py import roms

    rows = []
    matched = 0
    start = time.time()
    for game in _rom_ids(args.games):
        path = str(roms.get_rom_path(game))
        settings = settings_to_compare(path) if args.modes else [(None, None)]
        for (mode, difficulty), seed in itertools.product(settings, args.seeds):
            try:
                r = compare(path, args.frames, seed, args.pictures, mode, difficulty)
            except Exception as error:  # an unsupported ROM is a row too
                r = DiffResult(game, "-", seed, 0, -1, f"error: {error}", mode, difficulty)
            matched += r.first_divergence is None
            first = "none" if r.first_divergence is None else str(r.first_divergence)
            setting = f" {r.mode} | {r.difficulty} |" if args.modes else ""
            rows.append(f"| {game} | {r.mapper} |{setting} {r.seed} | {r.frames_compared} | {first} | {r.detail} |")
            print(rows[-1], flush=True)
    setting_columns = (" mode | difficulty |", " ---: | ---: |") if args.modes else ("", "")
    header = [
        f"| game | mapper |{setting_columns[0]} seed | frames compared | first divergence | detail |",
        f"| --- | --- |{setting_columns[1]} ---: | ---: | ---: | --- |",
    ]
    summary = f"{matched} of {len(rows)} runs identical to ALE for {args.frames} frames ({time.time() - start:.0f} s)"
    print(summary)
    if args.table:
        command = "python -m cule.ale_diff " + " ".join(argv if argv is not None else sys.argv[1:])
        args.table.write_text("\n".join([f"Generated by `{command}`.", "", *header, *rows, "", summary, ""]))
    return 0 if matched == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
