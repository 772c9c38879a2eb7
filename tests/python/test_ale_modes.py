"""cule against ALE (ale-py) in every game's modes and difficulties: the
lists ALE offers, and side-by-side runs (`cule.ale_diff.compare`: screens,
RAM, rewards, game ends and lives on every frame) in each mode with the
default difficulty and each difficulty with the default mode. A mode is
selected within the reset, so the runs are short. Also: cule.make's
environments in a mode, and acts past a game's end, which ALE refuses to
emulate.
"""

import os

import numpy as np
import pytest

ale_py = pytest.importorskip("ale_py", reason="ale-py is the reference; scripts/setup installs it")

import cule  # noqa: E402
from cule import ale_diff  # noqa: E402

FRAMES = int(os.environ.get("CULE_MODE_PARITY_FRAMES", "400"))
GAMES = ale_diff.supported_rom_ids()


@pytest.mark.parametrize("game", GAMES)
def test_modes_and_difficulties_match_ale(game):
    from ale_py import roms

    path = str(roms.get_rom_path(game))
    ale = ale_diff.make_ale(path, 0)
    console = cule.Console(path)
    assert console.available_modes == list(ale.getAvailableModes())
    assert console.available_difficulties == list(ale.getAvailableDifficulties())
    for mode, difficulty in ale_diff.settings_to_compare(path):
        result = ale_diff.compare(path, FRAMES, 0, mode=mode, difficulty=difficulty)
        assert result.first_divergence is None, (
            f"{game} mode {mode} difficulty {difficulty} differs from ALE at frame "
            f"{result.first_divergence}: {result.detail}"
        )
        assert result.frames_compared == FRAMES


@pytest.mark.parametrize("game, mode", [("breakout", None), ("demon_attack", 3)])
def test_acts_past_the_end_change_nothing_as_in_ale(game, mode):
    """ALE refuses to emulate once a game is over (Demon Attack's modes 3, 5
    and 7 are over from the reset on, as ALE reads them)."""
    from ale_py import Action, roms

    path = str(roms.get_rom_path(game))
    ale = ale_diff.make_ale(path, 0)
    console = cule.Console(path)
    if mode is not None:
        ale.setMode(mode)
        console.mode = mode
    ale.reset_game()
    console.reset()
    rng = np.random.default_rng(5)
    while not ale.game_over():
        action = int(rng.integers(18))
        ale.act(Action(action))
        console.act(action)
    assert console.terminal
    ended_at, screen, ram = console.frame_number, console.screen().copy(), console.ram().copy()
    for _ in range(30):
        action = int(rng.integers(18))
        assert ale.act(Action(action)) == 0
        console.act(action)
        assert console.reward == 0 and console.terminal
    assert console.frame_number == ale.getFrameNumber() == ended_at
    assert np.array_equal(console.screen(), screen) and np.array_equal(console.ram(), ram)
    assert np.array_equal(ale.getScreen(), screen) and np.array_equal(ale.getRAM(), ram)


# AtariVectorEnv has no modes: cule.make's are checked against ALE itself,
# one environment without preprocessing. Adventure's mode selection draws
# from the environment's RNG (seeded as ALE's random_seed), Word Zapper has
# the most difficulties, Demon Attack's modes 3-7 are over from the reset on.
WHOLE_SCREENS = dict(
    frameskip=1, noop_max=0, use_fire_reset=False, repeat_action_probability=0.0, full_action_space=True,
    grayscale=False, img_width=160, maxpool=False, stack_num=1, reward_clipping=False,
)


@pytest.mark.parametrize("game", ["adventure", "word_zapper", "demon_attack", "space_invaders"])
def test_environments_in_each_mode_match_ale(game):
    from ale_py import Action, roms

    path = str(roms.get_rom_path(game))
    settings = ale_diff.settings_to_compare(path)
    for mode, difficulty in dict.fromkeys(settings[:4] + settings[-4:]):  # modes first, difficulties last
        ale = ale_diff.make_ale(path, 0)
        ale.setMode(mode)
        ale.setDifficulty(difficulty)
        ale.reset_game()
        height = ale.getScreenRGB().shape[0]
        env = cule.make(game, 1, mode=mode, difficulty=difficulty, **WHOLE_SCREENS, img_height=height)
        obs, _ = env.reset(seed=0)  # a fresh console, as ALE's loadROM and reset_game
        where = f"{game} mode {mode} difficulty {difficulty}"
        assert np.array_equal(obs[0].reshape(ale.getScreenRGB().shape), ale.getScreenRGB()), f"{where}: reset"
        rng = np.random.default_rng(1)
        for step in range(200):
            action = int(rng.integers(18))
            reward = ale.act(Action(action))
            obs, rewards, terminated, _, info = env.step(np.array([action]))
            assert np.array_equal(obs[0].reshape(ale.getScreenRGB().shape), ale.getScreenRGB()), f"{where}: step {step}"
            assert (rewards[0], terminated[0], info["lives"][0]) == (reward, ale.game_over(), ale.lives()), where
            if ale.game_over():
                break
        env.close()
