"""Training frames/second: cule.train's PPO against a CleanRL-style PPO loop on
ale-py's AtariVectorEnv, with the same network and settings, in one run.

What is compared: CleanRL's ppo_atari is not run itself (it needs gym/envpool
stacks this project does not install). The peer here is the same algorithm
written the way CleanRL writes it: numpy observations from the env copied into
torch tensors every step (``torch.tensor(obs)``), actions sampled with
``torch.distributions.Categorical`` and copied back to numpy, the same Nature
CNN (cule.train.model.ActorCritic), the same PPO update
(cule.train.algorithms.ppo_update) and settings (CleanRL's ppo_atari
defaults: 8 envs x 128 steps, 4 minibatches, 4 epochs). Both sides use the same
torch thread count and env thread count. Frames are emulated frames (frame
skip 4).

    .venv/bin/python benchmarks/train_vs_cleanrl.py --game pong --updates 2 --torch-threads 1
"""

from __future__ import annotations

import argparse
import contextlib
import time

import numpy as np
import torch

from cule.train import Config, Trainer
from cule.train.algorithms import Rollout, Stats, ppo_update
from cule.train.model import ActorCritic


def cule_fps(config: Config, updates: int) -> float:
    trainer = Trainer(config)
    trainer.run(max_updates=1)  # warm-up: allocations, first-call costs
    start, before = time.perf_counter(), trainer.global_step
    trainer.run(max_updates=updates)
    return (trainer.global_step - before) * config.frameskip / (time.perf_counter() - start)


def cleanrl_style_fps(config: Config, updates: int) -> float:
    from ale_py.vector_env import AtariVectorEnv

    env = AtariVectorEnv(config.game, num_envs=config.num_envs, episodic_life=True, reward_clipping=True,
                         noop_max=30, frameskip=4, stack_num=4, img_height=84, img_width=84,
                         repeat_action_probability=0.0, batch_size=config.num_envs,
                         num_threads=config.env_threads or 0)
    obs, _ = env.reset(seed=config.seed)
    agent = ActorCritic(obs.shape[1:], env.single_action_space.n, config.network)
    optimizer = torch.optim.Adam(agent.parameters(), lr=config.learning_rate, eps=1e-5)
    rollout = Rollout.allocate(config.num_steps, config.num_envs, obs.shape[1:], torch.device("cpu"))
    stats = Stats(torch.device("cpu"))
    next_obs = torch.tensor(obs)

    def one_update(update: int) -> None:
        nonlocal next_obs
        for t in range(config.num_steps):
            rollout.obs[t] = next_obs
            with torch.no_grad():
                logits, value = agent(next_obs)
            dist = torch.distributions.Categorical(logits=logits)
            action = dist.sample()
            rollout.actions[t] = action
            rollout.logprobs[t] = dist.log_prob(action)
            rollout.values[t] = value
            rollout.valid[t] = 1.0
            obs, reward, terminated, truncated, _ = env.step(action.cpu().numpy())
            next_obs = torch.tensor(obs)
            rollout.rewards[t] = torch.tensor(reward)
            rollout.dones[t] = torch.tensor(np.logical_or(terminated, truncated)).float()
        for group in optimizer.param_groups:
            group["lr"] = (1.0 - update / 1000) * config.learning_rate
        ppo_update(agent, optimizer, rollout, next_obs, config, stats, None, contextlib.nullcontext)

    one_update(0)
    start = time.perf_counter()
    for update in range(1, updates + 1):
        one_update(update)
    seconds = time.perf_counter() - start
    env.close()
    return updates * config.batch_size * config.frameskip / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="pong")
    parser.add_argument("--updates", type=int, default=2, help="timed updates per side (after one warm-up)")
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument("--env-threads", type=int, default=2)
    parser.add_argument("--network", default="nature")
    args = parser.parse_args()
    torch.set_num_threads(args.torch_threads)
    config = Config(algo="ppo", game=args.game, network=args.network, torch_threads=args.torch_threads,
                    env_threads=args.env_threads, total_timesteps=10_000_000, progress=False, tensorboard=False,
                    run_dir="/tmp/cule_train_vs_cleanrl", log_every=1000).resolved()
    ours = cule_fps(config, args.updates)
    peer = cleanrl_style_fps(config, args.updates)
    print(f"| game | network | torch threads | cule.train frames/s | CleanRL-style on AtariVectorEnv frames/s | ratio |")
    print(f"| {args.game} | {args.network} | {args.torch_threads} | {ours:.0f} | {peer:.0f} | {ours / peer:.2f} |")


if __name__ == "__main__":
    main()
