"""Actor-critic networks over stacked uint8 frames.

``nature``: the Nature DQN torso (Mnih et al. 2015: 32 8x8/4, 64 4x4/2,
64 3x3/1 convolutions, 512 units), with policy and value heads, orthogonal
initialisation (gain sqrt 2; 0.01 for the policy, 1 for the value), as the
PPO Atari baselines use. ``small``: the 2013 DQN torso (16 8x8/4, 32 4x4/2,
256 units), for small inputs and quick CPU runs.
"""

from __future__ import annotations

import math

import torch
from torch import nn


def _init(layer: nn.Module, gain: float = math.sqrt(2)) -> nn.Module:
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


def _torso(network: str, channels: int) -> tuple[nn.Sequential, int]:
    if network == "nature":
        convs = [_init(nn.Conv2d(channels, 32, 8, 4)), nn.ReLU(), _init(nn.Conv2d(32, 64, 4, 2)), nn.ReLU(),
                 _init(nn.Conv2d(64, 64, 3, 1)), nn.ReLU(), nn.Flatten()]
        hidden = 512
    elif network == "small":
        convs = [_init(nn.Conv2d(channels, 16, 8, 4)), nn.ReLU(), _init(nn.Conv2d(16, 32, 4, 2)), nn.ReLU(),
                 nn.Flatten()]
        hidden = 256
    else:
        raise ValueError(f"network: {network!r}; expected 'nature' or 'small'")
    return nn.Sequential(*convs), hidden


class ActorCritic(nn.Module):
    """Policy logits and state value from observations of shape (N, C, H, W)
    (grayscale stacks) or (N, S, H, W, 3) (RGB stacks), uint8."""

    def __init__(self, observation_shape: tuple[int, ...], num_actions: int, network: str = "nature"):
        super().__init__()
        shape = tuple(observation_shape)
        if len(shape) == 4:  # (stack, H, W, 3): channels are stack x RGB
            channels, height, width = shape[0] * shape[3], shape[1], shape[2]
        elif len(shape) == 3:
            channels, height, width = shape
        else:
            raise ValueError(
                f"observation_shape: {shape}; expected image stacks (C, H, W) or (S, H, W, 3), not RAM"
            )
        self.observation_shape = shape
        convs, hidden = _torso(network, channels)
        with torch.no_grad():
            flat = convs(torch.zeros(1, channels, height, width)).shape[1]
        self.body = nn.Sequential(convs, _init(nn.Linear(flat, hidden)), nn.ReLU())
        self.actor = _init(nn.Linear(hidden, num_actions), 0.01)
        self.critic = _init(nn.Linear(hidden, 1), 1.0)

    def features(self, obs: torch.Tensor) -> torch.Tensor:
        if obs.dim() == 5:
            obs = obs.permute(0, 1, 4, 2, 3).flatten(1, 2)
        return self.body(obs.float() * (1.0 / 255.0))

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(self.features(obs)).squeeze(-1).float()

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits, value), in float32."""
        hidden = self.features(obs)
        return self.actor(hidden).float(), self.critic(hidden).squeeze(-1).float()


def sample_actions(logits: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
    """One action per row, drawn from softmax(logits) by the Gumbel-max trick
    (no host synchronisation, reproducible from `generator`)."""
    uniform = torch.rand(logits.shape, device=logits.device, generator=generator).clamp_(min=1e-20)
    exponential = (-torch.log(uniform)).clamp_(min=1e-20)  # Exp(1); rand < 1 keeps it above 0
    return torch.argmax(logits - torch.log(exponential), dim=-1)


def log_prob_entropy(logits: torch.Tensor, actions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """log pi(action) and the policy's entropy, per row."""
    log_p = torch.log_softmax(logits, dim=-1)
    chosen = log_p.gather(-1, actions.long().unsqueeze(-1)).squeeze(-1)
    entropy = -(log_p.exp() * log_p).sum(-1)
    return chosen, entropy
