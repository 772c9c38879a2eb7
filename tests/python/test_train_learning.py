"""PPO and A2C learn the project's catch cartridge on CPU, from pixels.

Random play's mean return is measured here on the same games; a trained
policy must beat a threshold that random play is measured not to reach. A
game is 10 balls, +1 caught and -1 missed, so returns run from -10 to 10 and
a mean of 0 means catching half the balls.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import cule
from cule.train import Config, Trainer
from cule.train.envs import EnvTensors
from cule.train.model import sample_actions

pytestmark = pytest.mark.skipif("catch" not in cule.project_games(), reason="cule built without the catch cartridge")

THRESHOLD = 0.0
GAMES = 64


def play(policy, config: Config, seed: int) -> float:
    """Mean return over GAMES fresh games, actions drawn from `policy`
    (None: uniformly at random)."""
    options = config.env_kwargs()
    options.update(episodic_life=False)
    env = EnvTensors("catch", GAMES, "cpu", seed, **options)
    generator = torch.Generator().manual_seed(seed)
    finished = torch.zeros(GAMES, dtype=torch.bool)
    returns = torch.zeros(GAMES)
    with torch.no_grad():
        for _ in range(400):  # a game of catch lasts about 150 steps
            if policy is None:
                logits = torch.zeros(GAMES, env.num_actions)
            else:
                logits, _ = policy(env.obs)
            env.step(sample_actions(logits, generator))
            done = env.terminated & ~finished
            returns[done] = env.episode_returns[done]
            finished |= done
            if finished.all():
                break
    assert finished.all(), "every game of catch ends within 400 steps"
    return float(returns.mean())


def learning_config(tmp_path, algo: str) -> Config:
    common = dict(game="catch", algo=algo, network="small", img_size=42, stack_num=2, num_envs=16,
                  torch_threads=1, seed=1, run_dir=str(tmp_path / algo), progress=False, tensorboard=False,
                  log_every=20)
    common.update(num_steps=64, learning_rate=1e-3, total_timesteps=40_960)
    if algo == "ppo":
        return Config(**common)
    # A2C as CuLE ran it: several passes over each batch, corrected by V-trace.
    return Config(**common, vtrace=True, update_epochs=4, num_minibatches=4, optimizer="adam", gae_lambda=0.95,
                  norm_adv=True)


@pytest.mark.parametrize("algo", ["ppo", "a2c"])
def test_learns_catch(tmp_path, algo):
    config = learning_config(tmp_path, algo)
    random_return = play(None, config.resolved(), seed=100)
    # Random play misses most balls: far from the threshold.
    assert random_return < THRESHOLD - 3
    trainer = Trainer(config)
    rows = trainer.run()
    trained_return = play(trainer.policy, trainer.config, seed=100)
    curve = [(row["frames"], round(row["return_mean"], 2)) for row in rows]
    print(f"{algo}: random {random_return:.2f}, trained {trained_return:.2f}; frames/s {rows[-1]['fps']:.0f}; "
          f"curve (frames, mean return) {curve}")
    assert trained_return > THRESHOLD, (random_return, trained_return, curve)
    assert trained_return > random_return + 3
