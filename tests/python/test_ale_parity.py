"""cule against ALE (ale-py), side by side: screens and RAM equal on every frame.

Each run loads a ROM in both emulators, resets both as ale-py resets a game,
and plays the same random actions (full action set, frameskip 1, no sticky
actions); `cule.ale_diff.compare` checks every frame and names the first
difference.
"""

import os
import pathlib

import pytest

ale_py = pytest.importorskip("ale_py", reason="ale-py is the reference; scripts/setup installs it")

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
