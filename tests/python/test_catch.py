"""The project's cartridge catch (roms/catch.asm): found by name, identified
by its signature, and its rules score what its RAM counters say."""

from __future__ import annotations

import os

import numpy as np
import pytest

import cule
from cule.vector import project_rom_path

pytestmark = pytest.mark.skipif("catch" not in cule.project_games(), reason="cule built without the catch cartridge")


def test_catch_is_a_project_game_not_an_ale_one():
    assert cule.project_games() == ["catch"]
    assert "catch" not in cule.list_games() and len(cule.list_games()) == 104


def test_the_signature_identifies_the_cartridge_whatever_its_name():
    data = open(project_rom_path("catch"), "rb").read()
    assert len(data) == 4096 and data[-32:-16] == b"cule-game:catch\0"
    assert cule.Console(data).game == "catch" and cule.Console(data).has_rules
    # The same image with the signature spoiled is an unknown cartridge without rules.
    spoiled = data[:-32] + b"cule-game:catcx\0" + data[-16:]
    assert not cule.Console(spoiled).has_rules


def test_rewards_and_the_end_of_a_game_follow_the_ram_counters():
    env = cule.make("catch", 4, episodic_life=False, reward_clipping=False)
    assert env.action_set == [0, 3, 4]
    env.reset(seed=0)
    totals, games = np.zeros(4), []
    rng = np.random.default_rng(0)
    for _ in range(600):
        ram_before = [np.asarray(env.core.ram(i)).copy() for i in range(4)]
        _, reward, terminated, truncated, _ = env.step(rng.integers(0, 3, 4))
        assert set(np.unique(reward)) <= {-1.0, 0.0, 1.0}
        for i in range(4):
            ram = np.asarray(env.core.ram(i))
            if not terminated[i] and ram_before[i][2] == 0:
                # caught ($80) minus missed ($81) moved by the reward.
                change = (int(ram[0]) - int(ram[1])) - (int(ram_before[i][0]) - int(ram_before[i][1]))
                assert change == reward[i]
        totals += reward
        for i in np.flatnonzero(terminated | truncated):
            ram = np.asarray(env.core.ram(i))
            assert ram[2] == 1 and ram[0] + ram[1] == 10  # the game is over after 10 balls
            assert totals[i] == int(ram[0]) - int(ram[1]) == env.core.episode_returns[i]
            games.append(totals[i])
            totals[i] = 0
    assert len(games) >= 8 and all(-10 <= g <= 10 for g in games)


def test_a_player_following_the_ball_catches_every_ball():
    env = cule.make("catch", 2, episodic_life=False)
    env.reset(seed=1)
    for _ in range(400):
        actions = []
        for i in range(2):
            ram = np.asarray(env.core.ram(i))
            paddle_centre, ball_centre = int(ram[3]) + 8, int(ram[4]) + 4
            actions.append(1 if ball_centre > paddle_centre + 2 else 2 if ball_centre < paddle_centre - 2 else 0)
        _, _, terminated, _, _ = env.step(np.array(actions))
        if terminated.any():
            assert all(env.core.episode_returns[terminated] == 10)
            return
    pytest.fail("no game ended within 400 steps")
