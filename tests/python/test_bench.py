"""cule-bench (cule.bench): what a measurement counts, its table, and its
argument checks. The run against ale-py and EnvPool is CTest's
benchmark_vec_env_vs_ale; on a GPU, test_cuda_env.py runs it on the device."""

import re

import numpy as np
import pytest
from gymnasium.spaces import Discrete

from cule import bench


class CountingEnv:
    """An environment that records the actions of each step."""

    def __init__(self, rows: int, n_actions: int):
        self.rows = rows
        self.single_action_space = Discrete(n_actions)
        self.steps: list[np.ndarray] = []
        self.seeds: list[int] = []

    def reset(self, seed=None):
        self.seeds.append(seed)

    def step(self, actions):
        self.steps.append(np.array(actions))


def test_a_measurement_steps_each_row_with_an_action_of_its_space():
    env = CountingEnv(rows=3, n_actions=5)
    fps = bench.frames_per_second(env, 3, 40)
    assert fps > 0
    assert env.seeds == [0]
    assert len(env.steps) == 4 + 40  # a tenth as many steps of warm-up
    actions = np.stack(env.steps)
    assert actions.shape == (44, 3)
    assert actions.min() >= 0 and actions.max() < 5
    assert len(np.unique(actions)) == 5, "random actions should take every value"


def _rows(output: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in output.splitlines()
        if line.startswith("| ") and not line.startswith("| game") and "---" not in line
    ]


def test_the_table_has_a_row_per_game_and_count(capsys):
    bench.main(["--game", "catch", "--envs", "1,3", "2", "--steps", "5", "--threads", "1", "--peers", "none"])
    out = capsys.readouterr().out
    rows = _rows(out)
    assert [(game, int(n)) for game, n, *_ in rows] == [("catch", 1), ("catch", 3), ("catch", 2)]
    for _, _, per_second, per_hour in rows:
        assert float(per_second) > 0
        # frames/h is frames/s times 3,600, in millions to one decimal.
        assert float(per_hour.rstrip(" M")) == pytest.approx(float(per_second) * 3600 / 1e6, abs=0.051)
    assert "geometric mean" not in out, "no peer ran"


def test_asynchronous_batches_are_measured(capsys):
    bench.main(["--game", "catch", "--envs", "4", "--batch-size", "2", "--steps", "5", "--threads", "2",
                "--peers", "none"])
    out = capsys.readouterr().out
    assert "asynchronous batches of 2" in out
    assert len(_rows(out)) == 1


@pytest.mark.parametrize(
    "argv, named",
    [
        (["--envs", "0"], "--envs"),
        (["--envs", "1,x"], "--envs"),
        (["--threads", "0"], "--threads"),
        (["--steps", "-1"], "--steps"),
        (["--batch-size", "-2"], "--batch-size"),
        (["--device", "cuda", "--batch-size", "2"], "--batch-size"),
        (["--peers", "gym"], "--peers"),
    ],
)
def test_bad_arguments_are_named(argv, named, capsys):
    with pytest.raises(SystemExit) as exit_:
        bench.main(argv)
    assert exit_.value.code == 2
    assert named in capsys.readouterr().err


def test_peers_without_the_game_are_not_applicable(capsys):
    bench.main(["--game", "catch", "--envs", "2", "--steps", "3", "--threads", "1"])
    rows = _rows(capsys.readouterr().out)
    assert len(rows) == 1 and rows[0][4] == "n/a" and rows[0][6] == "n/a"


def test_gymnasium_names_are_the_games_not_the_v5_preset(capsys):
    bench.main(["--game", "ALE/Pong-v5", "SpaceInvaders", "--envs", "1", "--steps", "3", "--peers", "none"])
    assert [row[0] for row in _rows(capsys.readouterr().out)] == ["pong", "space_invaders"]


def test_an_unknown_game_is_a_clear_error():
    with pytest.raises(SystemExit) as exit_:
        bench.main(["--game", "no_such_game", "--envs", "1", "--steps", "1", "--peers", "none"])
    message = str(exit_.value.code)
    assert message.startswith("cule-bench: ") and re.search("no_such_game", message)
