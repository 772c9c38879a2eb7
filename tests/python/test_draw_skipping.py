"""Every game: drawing only the frames a step observes (the default) gives
exactly what drawing every frame, as ALE does, gives.

A step runs its skipped frames undrawn and runs again, drawing all, when that
could show (a frame that ends partial greys out from the old buffer; a drawn
frame may end short of what an undrawn one reached). Sticky actions, an odd
frame skip, truncations and same-step resets put those cases in the run.

Resets run whole: a copied reset leaves what a whole one leaves
(test_reset_copies.py), and building the copies would take most of this
test's time."""

import pytest

pytest.importorskip("ale_py", reason="the games' ROMs come from ale-py")

import cule  # noqa: E402
from same_runs import assert_same_runs  # noqa: E402

OPTIONS = dict(
    frameskip=5,
    maxpool=False,
    repeat_action_probability=0.25,
    max_num_frames_per_episode=1500,
    autoreset_mode="SameStep",
    run_full_resets=True,
)
NUM_ENVS, STEPS = 3, 150


@pytest.mark.parametrize("game", cule.list_games())
def test_skipped_drawing_never_shows(game):
    observed_only = cule.make(game, NUM_ENVS, num_threads=1, **OPTIONS)
    all_drawn = cule.make(game, NUM_ENVS, num_threads=1, draw_all_frames=True, **OPTIONS)
    observed_only.reset(seed=1)
    all_drawn.reset(seed=1)
    assert_same_runs(observed_only, all_drawn, STEPS)
    observed_only.close()
    all_drawn.close()
