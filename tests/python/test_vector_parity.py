"""Every game through cule.make against ale-py's AtariVectorEnv, step by step,
with AtariVectorEnv's default preprocessing (84x84 grayscale, frame skip 4,
max-pool, stack of 4, fire reset, reward clipping), and with episodes
truncated every 40 steps, so that resets (copies of their result, for the
games cule/reset_copy.hpp found allow it) meet ALE's own. See
vector_compare.py. Asynchronous batches (batch_size < num_envs) are compared
environment by environment, whatever batches each library's threads made."""

import os

import pytest

pytest.importorskip("ale_py.vector_env", reason="ale-py's AtariVectorEnv is the reference")

import cule  # noqa: E402
from vector_compare import compare, compare_async  # noqa: E402

STEPS = int(os.environ.get("CULE_VECTOR_PARITY_STEPS", "300"))


@pytest.mark.parametrize("game", cule.list_games())
def test_game_matches_atari_vector_env(game):
    problem, _ = compare(game, STEPS)
    assert problem is None, problem


@pytest.mark.parametrize("game", cule.list_games())
def test_resets_match_atari_vector_env(game):
    problem, ended = compare(game, 100, max_num_frames_per_episode=160)
    assert problem is None, problem
    assert ended >= 4, "both environments should be truncated twice"


ASYNC_CASES = [
    ("pong", 2, {}),
    ("breakout", 3, dict(max_num_frames_per_episode=160, autoreset_mode="SameStep")),
    ("ms_pacman", 2, dict(episodic_life=True)),
    ("pong", 3, dict(continuous=True)),
]


@pytest.mark.parametrize("game,batch_size,options", ASYNC_CASES, ids=[f"{g}-{b}-{'-'.join(o)}" for g, b, o in ASYNC_CASES])
def test_async_batches_match_atari_vector_env(game, batch_size, options):
    problem, compared = compare_async(game, 200, 6, batch_size, **options)
    assert problem is None, problem
    # 200 batches hold 200 * batch_size results of each library.
    assert compared >= 100 * batch_size, "most results should be compared"
