"""cule/<Game>-v5 in Gymnasium's registry: the ids and options of ale-py's
ALE/<Game>-v5, and make_vec of one steps as make_vec of ale-py's does (make
of one: test_atari_env.py)."""

import gymnasium
import numpy as np
import pytest

import cule
from cule.registration import env_id
from vector_compare import EXACT

ale_py = pytest.importorskip("ale_py", reason="ale-py's registrations are the reference")


def _ale_v5_specs() -> dict:
    return {spec.id: spec for spec in gymnasium.registry.values() if spec.namespace == "ALE" and spec.version == 5}


def test_every_game_has_the_id_and_options_of_ale_pys():
    ale = _ale_v5_specs()
    ours = {spec.id: spec for spec in gymnasium.registry.values() if spec.namespace == "cule"}
    assert len(ours) == len(cule.list_games())
    assert set(ours) == {id_.replace("ALE/", "cule/", 1) for id_ in ale}
    for id_, spec in ours.items():
        assert spec.kwargs == ale[id_.replace("cule/", "ALE/", 1)].kwargs, id_
        assert spec.vector_entry_point == "cule.vector:make"
        assert spec.entry_point == "cule.env:AtariEnv"


def test_make_vec_steps_as_ale_pys_make_vec():
    # Sticky actions and no-op starts draw from each library's own generator
    # (vector_compare.py): off in both.
    exact = dict(num_envs=2, num_threads=1, **EXACT)
    ours = gymnasium.make_vec("cule/Breakout-v5", **exact)
    theirs = gymnasium.make_vec("ALE/Breakout-v5", **exact)
    assert isinstance(ours, cule.vector.VectorEnv)
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.single_action_space == theirs.single_action_space
    np.testing.assert_array_equal(ours.reset(seed=4)[0], theirs.reset(seed=4)[0])
    rng = np.random.default_rng(1)
    for step in range(120):
        actions = rng.integers(ours.single_action_space.n, size=2)
        for name, a, b in zip(("obs", "reward", "terminated", "truncated"), ours.step(actions), theirs.step(actions)):
            np.testing.assert_array_equal(a, b, err_msg=f"{name} at step {step}")
    ours.close()
    theirs.close()


def test_make_vec_passes_options_to_cule_make():
    env = gymnasium.make_vec("cule/Pong-v5", num_envs=3, stack_num=2, img_height=42, img_width=42)
    assert env.single_observation_space.shape == (2, 42, 42)
    assert env.unwrapped.spec.kwargs["game"] == "pong"
    with pytest.raises(ValueError, match="stack_num"):
        gymnasium.make_vec("cule/Pong-v5", num_envs=1, stack_num=0)
    # cule.make's own options too: the v5 preset, AtariEnv's.
    assert gymnasium.make_vec("cule/Pong-v5", num_envs=1, preset="v5").single_observation_space.shape == (
        1, 210, 160, 3)


def test_make_gives_one_environment_as_ale_pys_make():
    env = gymnasium.make("cule/Pong-v5")
    assert isinstance(env.unwrapped, cule.env.AtariEnv)
    assert env.observation_space == gymnasium.make("ALE/Pong-v5").observation_space
    assert env.spec.kwargs["repeat_action_probability"] == 0.25


def test_ids_follow_ale_pys_names_and_lead_back_to_the_game():
    assert env_id("pong") == "cule/Pong-v5"
    assert env_id("space_invaders") == "cule/SpaceInvaders-v5"
    assert env_id("tic_tac_toe_3d") == "cule/TicTacToe3D-v5"
    for game in cule.list_games():  # 'UpNDown' and 'TicTacToe3D' among them
        name = env_id(game).removeprefix("cule/").removesuffix("-v5")
        assert cule.vector.game_id(name) == game
        assert cule.vector.game_id(f"ALE/{name}-v5") == game
