"""cule against ALE (ale-py), side by side: screens, RAM, rewards, game ends
and lives equal on every frame.

Each run loads a ROM in both emulators, resets both as ale-py resets a game,
and plays the same random actions (full action set, frameskip 1, no sticky
actions); `cule.ale_diff.compare` checks every frame and names the first
difference. test_ale_modes.py does the same in every mode and difficulty.
"""

import os
import pathlib

import pytest

ale_py = pytest.importorskip("ale_py", reason="ale-py is the reference; scripts/setup installs it")

import cule  # noqa: E402
from cule import ale_diff  # noqa: E402

TESTDATA = pathlib.Path(
    os.environ.get("CULE_TESTDATA_DIR", pathlib.Path(__file__).parents[3] / "shared" / "testdata")
)
FRAMES = int(os.environ.get("CULE_PARITY_FRAMES", "2000"))

# Every game ALE has settings for (104 of the 108 ROMs ale-py ships).
GAMES = ale_diff.supported_rom_ids()


def _assert_identical(result):
    assert result.first_divergence is None, (
        f"{result.game} (seed {result.seed}) differs from ALE at frame "
        f"{result.first_divergence}: {result.detail}"
    )
    assert result.frames_compared == FRAMES


def test_tetris_from_the_shared_testdata():
    _assert_identical(ale_diff.compare(str(TESTDATA / "roms" / "tetris.bin"), FRAMES, seed=0))


def test_every_game_with_ale_settings_is_covered():
    assert len(GAMES) == 104


@pytest.mark.parametrize("game", GAMES)
def test_game_matches_ale(game):
    from ale_py import roms

    path = str(roms.get_rom_path(game))
    _assert_identical(ale_diff.compare(path, FRAMES, seed=0))


def _loaded_pair(game, seed=0):
    from ale_py import roms

    path = str(roms.get_rom_path(game))
    ale = ale_diff.make_ale(path, seed)
    console = cule.Console(path, seed=seed)
    ale.reset_game()
    console.reset()
    return ale, console


def _act_both(ale, console, action, strength, where):
    """One act of both emulators, compared (RAM, screen, reward, game end,
    lives); both reset where the game ended."""
    import numpy as np
    from ale_py import Action

    reward = ale.act(Action(action), strength)
    console.act(action, strength)
    assert np.array_equal(ale.getRAM(), console.ram()), f"{where}: RAM differs"
    assert np.array_equal(ale.getScreen(), console.screen()), f"{where}: screen differs"
    assert (reward, ale.game_over(), ale.lives()) == (console.reward, console.terminal, console.lives), where
    if ale.game_over():
        ale.reset_game()
        console.reset()


@pytest.mark.parametrize("game", ["pong", "breakout", "kaboom", "backgammon"])
def test_paddle_strength_matches_ale(game):
    import numpy as np

    ale, console = _loaded_pair(game)
    rng = np.random.default_rng(3)
    for frame in range(600):
        action, strength = int(rng.integers(18)), float(rng.uniform(-1.0, 1.0))
        _act_both(ale, console, action, strength, f"{game} frame {frame}")


def test_paddle_steps_round_as_ale():
    """ALE turns a paddle by int(23000 x |strength|) worked in double; in
    float some strengths round up to the next whole step. Pong played with
    only such strengths (1 in some 2,000) must still match ALE."""
    import numpy as np

    candidates = np.random.default_rng(8).uniform(0.0, 1.0, 400_000).astype(np.float32)
    in_float = (np.float32(23000) * candidates).astype(np.int64)
    in_double = (23000.0 * candidates.astype(np.float64)).astype(np.int64)
    strengths = candidates[in_float != in_double]
    assert len(strengths) > 50
    ale, console = _loaded_pair("pong")
    rng = np.random.default_rng(9)
    for frame in range(4000):
        action, strength = int(rng.choice([3, 4, 11, 12])), float(rng.choice(strengths))  # left or right
        _act_both(ale, console, action, strength, f"frame {frame}")


def test_strong_paddle_steps_match_ale_up_to_the_bound():
    """Strengths past 1, up to the bound cule takes (65,536; ALE takes any),
    turn the paddle to its ends as ALE does; each is followed by weak steps,
    so that the paddle leaves the end again."""
    import numpy as np

    ale, console = _loaded_pair("pong")
    rng = np.random.default_rng(10)
    strong = [1.5, 40.0, 1000.0, 65535.9, 65536.0, -65536.0]
    for frame in range(1200):
        action = int(rng.choice([3, 4, 11, 12]))
        strength = float(rng.choice(strong)) if frame % 8 == 0 else float(rng.uniform(-0.2, 0.2))
        _act_both(ale, console, action, strength, f"frame {frame}, strength {strength}")


@pytest.mark.parametrize("game", ["pong", "air_raid", "ms_pacman", "pitfall2"])  # air_raid is PAL
def test_rgb_and_grayscale_screens_match_ale(game):
    import numpy as np
    from ale_py import Action

    ale, console = _loaded_pair(game)
    rng = np.random.default_rng(4)
    for frame in range(200):
        action = int(rng.integers(18))
        ale.act(Action(action))
        console.act(action)
        assert np.array_equal(ale.getScreenRGB(), console.screen_rgb()), f"{game}: RGB differs at frame {frame}"
        assert np.array_equal(ale.getScreenGrayscale(), console.screen_grayscale()), (
            f"{game}: grayscale differs at frame {frame}"
        )


@pytest.mark.parametrize("game", ["breakout", "ms_pacman", "pitfall"])
def test_ram_writes_match_ale(game):
    """setRAM, then play on: every 25 frames both emulators get the same byte
    written, every 100 the byte ALE reads the lives from."""
    import numpy as np

    ale, console = _loaded_pair(game)
    rng = np.random.default_rng(6)
    lives_index = {"breakout": 0xB9, "ms_pacman": 0xFB, "pitfall": 0x80}[game] - 0x80  # ALE reads lives there
    for frame in range(600):
        if frame % 25 == 0:
            index = lives_index if frame % 100 == 0 else int(rng.integers(128))
            value = int(rng.integers(256))
            ale.setRAM(index, value)
            console.set_ram(index, value)
            assert console.ram()[index] == value
        _act_both(ale, console, int(rng.integers(18)), 1.0, f"{game} frame {frame}")
