"""ALE's per-game rules (kernels/game_rules.hpp) against ale-py, frame by frame.

Each run resets ale-py and a cule.Console the same way, then plays the same
random actions (full action set, frameskip 1, no sticky actions) and requires
the console's reward, terminal and lives to be ALE's reward, game_over() and
lives() on every frame, the reset's own last frame included. An episode that ends is reset on both sides and play goes on.
"""

import os

import numpy as np
import pytest

pytest.importorskip("ale_py", reason="ale-py is the reference; scripts/setup installs it")

import cule  # noqa: E402
from cule import _core, ale_diff  # noqa: E402

FRAMES = int(os.environ.get("CULE_RULES_FRAMES", "2000"))
GAMES = ale_diff.supported_rom_ids()


def compare_rules(game: str, frames: int = FRAMES, seed: int = 0) -> str | None:
    """None when every frame agrees, else a description of the first difference."""
    from ale_py import Action, roms

    path = str(roms.get_rom_path(game))
    ale = ale_diff.make_ale(path, seed)
    console = cule.Console(path, seed=seed)
    rng = np.random.default_rng(seed)

    def reset() -> None:
        ale.reset_game()
        console.reset()

    def check(frame: int, ale_reward: int) -> str | None:
        got = (console.reward, console.terminal, console.lives)
        want = (ale_reward, ale.game_over(), ale.lives())
        if got == want:
            return None
        ram_same = np.array_equal(ale.getRAM(), console.ram())
        return (
            f"{game} frame {frame}: (reward, terminal, lives) cule {got} ALE {want}"
            + ("" if ram_same else " (RAM differs: an emulation difference)")
        )

    reset()
    if (problem := check(0, console.reward)) is not None:
        return "after reset: " + problem
    for frame in range(1, frames + 1):
        action = int(rng.integers(18))
        reward = ale.act(Action(action))
        console.act(action)
        if (problem := check(frame, reward)) is not None:
            return problem
        if ale.game_over():
            reset()
            if (problem := check(frame, console.reward)) is not None:
                return "after reset: " + problem
    return None


def test_unknown_game_is_named():
    with pytest.raises(ValueError, match="no_such_game"):
        _core.GameRules("no_such_game")


def test_minimal_action_sets():
    from ale_py import roms

    for game in GAMES:
        ale = ale_diff.make_ale(str(roms.get_rom_path(game)), 0)
        assert _core.minimal_action_set(game) == [a.value for a in ale.getMinimalActionSet()], game


@pytest.mark.parametrize("game", GAMES)
def test_rules_match_ale(game):
    problem = compare_rules(game)
    assert problem is None, problem
