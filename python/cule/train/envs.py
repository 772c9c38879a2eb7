"""The environment's buffers as torch tensors on its device, shared without a
copy (DLPack), and per-game statistics kept there.

The env rewrites its buffers in place on every step, so the tensors made once
here always hold the latest step: reading them costs nothing and moves nothing.
"""

from __future__ import annotations

import numpy as np
import torch

import cule


def torch_device(env_device: str) -> torch.device:
    return torch.device("cuda" if env_device == "cuda" else env_device)


def buffer_address(array) -> int:
    """Where an env buffer lives (host or device pointer)."""
    if hasattr(array, "__cuda_array_interface__"):
        return array.__cuda_array_interface__["data"][0]
    return np.asarray(array).__array_interface__["data"][0]


class EnvTensors:
    """A cule environment whose observations, rewards and flags are torch
    tensors aliasing its own buffers."""

    def __init__(self, game: str, num_envs: int, device: str, seed: int, **options):
        if options.get("batch_size", 0) not in (0, num_envs):
            raise ValueError(
                f"batch_size: {options['batch_size']} of {num_envs} environments makes asynchronous "
                f"batches, and the trainer steps all its environments together; expected 0 or {num_envs}"
            )
        self.env = cule.make(game, num_envs, device=device, seed=seed, **options)
        self.core = self.env.core
        self.device = torch_device(device)
        self.num_envs = num_envs
        self.episodic_life = bool(options.get("episodic_life", False))
        self.obs_shape = tuple(self.core.observation_shape)
        self.num_actions = len(self.core.action_set)
        self.reset(seed)

    def reset(self, seed: int) -> None:
        self.env.reset(seed=seed)
        self._bind()
        n, dev = self.num_envs, self.device
        self.game_return = torch.zeros(n, device=dev)  # raw score of the game under way
        self.game_steps = torch.zeros(n, device=dev)
        capacity = 100
        self.recent = torch.zeros(capacity + 1, device=dev)  # the last slot takes non-events
        self.recent_steps = torch.zeros(capacity + 1, device=dev)
        self.games = torch.zeros((), dtype=torch.int64, device=dev)

    def _bind(self) -> None:
        core = self.core
        self.obs = torch.from_dlpack(core.observations)
        self.rewards = torch.from_dlpack(core.rewards)
        self.terminated = torch.from_dlpack(core.terminated)
        self.truncated = torch.from_dlpack(core.truncated)
        self.lives = torch.from_dlpack(core.lives)
        self.episode_returns = torch.from_dlpack(core.episode_returns)
        self.episode_lengths = torch.from_dlpack(core.episode_lengths)
        if self.device.type == "cpu":
            # Actions go in through a host buffer that a torch tensor shares.
            self._actions_host = np.zeros(self.num_envs, dtype=np.int32)
            self.actions = torch.from_numpy(self._actions_host)
        else:
            self._actions_host = None
            self.actions = torch.zeros(self.num_envs, dtype=torch.int32, device=self.device)

    def step(self, actions: torch.Tensor) -> None:
        """One step with `actions` (N,) on the env's device; the tensors bound
        above then hold its results."""
        self.actions.copy_(actions)
        if self._actions_host is not None:
            self.core.step(self._actions_host)
        else:
            # Device actions, queued on torch's stream: nothing reaches the host.
            stream = torch.cuda.current_stream(self.device).cuda_stream
            self.core.step_device(self.actions.data_ptr(), stream=stream)
        self._record_games()

    def _record_games(self) -> None:
        done = self.terminated | self.truncated
        # A game ends with the episode unless a lost life ended only the episode.
        game_over = done & (self.truncated | (self.lives == 0)) if self.episodic_life else done
        lengths = self.episode_lengths.float()
        self.game_return += torch.where(done, self.episode_returns, torch.zeros_like(self.game_return))
        self.game_steps += torch.where(done, lengths, torch.zeros_like(self.game_steps))
        ended = game_over.long()
        capacity = self.recent.shape[0] - 1
        slots = torch.where(game_over, (self.games + torch.cumsum(ended, 0) - 1) % capacity,
                            torch.full_like(ended, capacity))
        self.recent.scatter_(0, slots, self.game_return)
        self.recent_steps.scatter_(0, slots, self.game_steps)
        self.games += ended.sum()
        self.game_return.masked_fill_(game_over, 0.0)
        self.game_steps.masked_fill_(game_over, 0.0)

    def recent_games(self) -> tuple[int, float, float]:
        """(games finished, mean return and mean length in steps of the last
        up to 100): host values, for logging only."""
        games = int(self.games.item())
        count = min(games, self.recent.shape[0] - 1)
        if count == 0:
            return games, float("nan"), float("nan")
        return games, float(self.recent[:count].mean().item()), float(self.recent_steps[:count].mean().item())
