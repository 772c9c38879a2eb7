"""Gymnasium ids for cule's environments: ``cule/<Game>-v5`` for each game of
``cule.list_games()``, registered when cule is imported, as ale-py registers
``ALE/<Game>-v5``, with its options (sticky actions 0.25, frame skip 4, the
minimal action set, at most 108,000 frames an episode) and its two entry
points:

    import gymnasium, cule
    envs = gymnasium.make_vec("cule/Pong-v5", num_envs=4096, device="cuda")
    env = gymnasium.make("cule/Pong-v5")

``make_vec`` gives a batch, ``cule.make`` with the other options at
AtariVectorEnv's defaults (84x84 grayscale, max-pool, a stack of 4, ...) as
ale-py's ``make_vec("ALE/<Game>-v5")`` gives AtariVectorEnv; options given
to it (``device``, ``preset``, ...) go to ``cule.make``. ``make`` gives one environment as ale-py's
AtariEnv (the RGB screen): ``cule.env.AtariEnv``.
"""

from __future__ import annotations

import gymnasium

from cule import _core
from cule.vector import V5, env_name

#: The options of ale-py's ``ALE/<Game>-v5`` registrations (the v5 preset's).
V5_KWARGS = {
    key: V5[key]
    for key in ("repeat_action_probability", "full_action_space", "frameskip", "max_num_frames_per_episode")
}


def env_id(game: str) -> str:
    """cule's Gymnasium id of an ale-py game id: 'pong' is 'cule/Pong-v5'."""
    return f"cule/{env_name(game)}-v5"


def register_envs() -> None:
    """Registers ``cule/<Game>-v5`` for every game of cule.list_games()."""
    for game in _core.list_games():
        gymnasium.register(
            id=env_id(game),
            entry_point="cule.env:AtariEnv",
            vector_entry_point="cule.vector:make",
            kwargs=dict(game=game, **V5_KWARGS),
        )
