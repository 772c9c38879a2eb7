"""Every game: starting episodes from a copy of the reset's result and of
the episode's first acts, FIRE and the no-ops (the default, for the games
whose reset cule found to forget the console's past; cule/reset_copy.hpp)
gives exactly what running ALE's whole reset and those acts every time
gives, also for the games whose reset this test sees depend on the past.

Truncations, lost lives (episodic_life) and sticky actions make several
resets per environment in the run, some from games that ended inside a
reset's no-op frames."""

import numpy as np
import pytest

pytest.importorskip("ale_py", reason="the games' ROMs come from ale-py")

import cule  # noqa: E402
from cule import _core  # noqa: E402
from cule.vector import resolve_rom  # noqa: E402
from same_runs import assert_same_runs  # noqa: E402

OPTIONS = dict(
    repeat_action_probability=0.25,
    max_num_frames_per_episode=300,
    episodic_life=True,
    autoreset_mode="SameStep",
)
NUM_ENVS, STEPS = 3, 120


@pytest.mark.parametrize("game", cule.list_games())
def test_copied_resets_give_what_full_resets_give(game):
    copied = cule.make(game, NUM_ENVS, num_threads=1, **OPTIONS)
    full = cule.make(game, NUM_ENVS, num_threads=1, run_full_resets=True, **OPTIONS)
    assert not full.core.resets_copied()
    copied.reset(seed=3)
    full.reset(seed=3)
    ended = assert_same_runs(copied, full, STEPS, seed=1)
    assert ended >= NUM_ENVS, "the run should reset every environment at least once"
    copied.close()
    full.close()


def _reset_after(rom, frames: int):
    """RAM and screen after ALE's reset of a console that played `frames`
    random frames first (None if its game ended: then it reset in between,
    and its reset draws other system RNG numbers)."""
    console = _core.Console(rom)
    rng = np.random.default_rng(frames)
    for _ in range(frames):
        console.act(int(rng.integers(18)))
        if console.terminal:
            return None
    console.reset()
    return np.array(console.ram()), np.array(console.screen())


def test_copied_resets_of_games_that_keep_ram_are_exact():
    """The games seen to keep RAM through ALE's reset, where copied (the
    bytes their reset never writes keep their values, and some copies hold
    only for the values of the RAM bits that steer their reset): long
    episodes of them, resets from long pasts of play, run as full resets
    do."""
    dependent = []
    for game in cule.list_games():
        rom = resolve_rom(game)
        fresh = _reset_after(rom, 0)
        for frames in (400, 1200):
            played = _reset_after(rom, frames)
            if played is not None and not all(np.array_equal(a, b) for a, b in zip(fresh, played)):
                dependent.append(game)
                break
    assert dependent, "some games keep RAM through ALE's reset: the run should find a few"
    copied = [game for game in dependent if cule.make(game, 1, num_threads=1).core.resets_copied()]
    options = dict(OPTIONS, max_num_frames_per_episode=1500)
    for game in copied:
        got = cule.make(game, 4, num_threads=1, **options)
        want = cule.make(game, 4, num_threads=1, run_full_resets=True, **options)
        got.reset(seed=7)
        want.reset(seed=7)
        assert assert_same_runs(got, want, 400, seed=2) >= 4, f"{game}: every environment should reset"
        got.close()
        want.close()
