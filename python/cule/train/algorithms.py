"""Advantage estimates and the PPO and A2C updates, over a rollout that stays
on the device where it was collected.

A rollout holds T steps of N environments. With the environments' NextStep
autoreset, the step after an episode's last one only resets (its action is
unused, its reward 0): ``valid`` is 0 there, and such steps carry no weight in
any loss. ``dones[t]`` says step t ended its episode (terminated or
truncated; a truncation is not bootstrapped, as in the usual Atari setups).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from cule.train.model import log_prob_entropy


@dataclass
class Rollout:
    obs: torch.Tensor  # (T, N, *obs) uint8
    actions: torch.Tensor  # (T, N) int64
    logprobs: torch.Tensor  # (T, N) behaviour log pi(a)
    values: torch.Tensor  # (T, N)
    rewards: torch.Tensor  # (T, N)
    dones: torch.Tensor  # (T, N) float: 1 where step t ended its episode
    valid: torch.Tensor  # (T, N) float: 0 on reset-only steps

    @classmethod
    def allocate(cls, steps: int, num_envs: int, obs_shape: tuple[int, ...], device: torch.device) -> "Rollout":
        def zeros(dtype=torch.float32, shape=()):
            return torch.zeros((steps, num_envs, *shape), dtype=dtype, device=device)

        return cls(zeros(torch.uint8, obs_shape), zeros(torch.int64), zeros(), zeros(), zeros(), zeros(), zeros())


def gae(rewards, values, dones, next_value, gamma: float, lam: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Generalised advantage estimates and returns (Schulman et al. 2016).
    Everything is (T, N) but next_value (N,): the value after the last step."""
    steps = rewards.shape[0]
    advantages = torch.zeros_like(rewards)
    last = torch.zeros_like(next_value)
    for t in reversed(range(steps)):
        nonterminal = 1.0 - dones[t]
        following = next_value if t == steps - 1 else values[t + 1]
        delta = rewards[t] + gamma * following * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        advantages[t] = last
    return advantages, advantages + values


def vtrace(behaviour_logprobs, target_logprobs, rewards, values, dones, next_value, gamma: float, lam: float,
           rho_bar: float = 1.0, c_bar: float = 1.0) -> tuple[torch.Tensor, torch.Tensor]:
    """V-trace value targets v_s and policy-gradient advantages (Espeholt et
    al. 2018, eqs. 1-2, with lambda folded into c). All (T, N)."""
    ratios = torch.exp(target_logprobs - behaviour_logprobs)
    rhos = ratios.clamp(max=rho_bar)
    cs = lam * ratios.clamp(max=c_bar)
    steps = rewards.shape[0]
    nonterminal = 1.0 - dones
    following = torch.cat([values[1:], next_value.unsqueeze(0)], 0)
    deltas = rhos * (rewards + gamma * following * nonterminal - values)
    corrections = torch.zeros_like(rewards)
    last = torch.zeros_like(next_value)
    for t in reversed(range(steps)):
        last = deltas[t] + gamma * cs[t] * nonterminal[t] * last
        corrections[t] = last
    targets = values + corrections
    following_targets = torch.cat([targets[1:], next_value.unsqueeze(0)], 0)
    advantages = rhos * (rewards + gamma * following_targets * nonterminal - values)
    return targets, advantages


def _masked_mean(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return (x * weight).sum() / weight.sum().clamp(min=1.0)


def _normalise(adv: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    mean = _masked_mean(adv, weight)
    var = _masked_mean((adv - mean) ** 2, weight)
    return (adv - mean) / (var.sqrt() + 1e-8)


class Stats:
    """Sums of update statistics, kept on the device until logged."""

    def __init__(self, device: torch.device):
        self.names = ["policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac"]
        self.sums = torch.zeros(len(self.names), device=device)
        self.count = 0

    def add(self, *values: torch.Tensor) -> None:
        self.sums += torch.stack([v.detach().float() for v in values])
        self.count += 1

    def read(self) -> dict[str, float]:
        """Host values (one synchronisation), then cleared."""
        values = (self.sums / max(1, self.count)).tolist()
        self.sums.zero_()
        self.count = 0
        return dict(zip(self.names, values))


def _flat(x: torch.Tensor) -> torch.Tensor:
    return x.reshape(-1, *x.shape[2:])


def _step(model: nn.Module, optimizer, loss: torch.Tensor, max_grad_norm: float) -> None:
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
    optimizer.step()


def ppo_update(model, optimizer, rollout: Rollout, next_obs: torch.Tensor, config, stats: Stats,
               generator: torch.Generator | None, autocast) -> None:
    """PPO's clipped surrogate with clipped value loss and an entropy bonus,
    over shuffled minibatches for several epochs (Schulman et al. 2017).
    `next_obs`: the observations after the rollout's last step."""
    with torch.no_grad():
        with autocast():
            next_value = getattr(model, "module", model).value(next_obs).float()
        advantages, returns = gae(rollout.rewards, rollout.values, rollout.dones, next_value, config.gamma,
                                  config.gae_lambda)
    obs, actions, old_logprobs = _flat(rollout.obs), _flat(rollout.actions), _flat(rollout.logprobs)
    old_values, valid = _flat(rollout.values), _flat(rollout.valid)
    advantages, returns = _flat(advantages), _flat(returns)
    batch = obs.shape[0]
    size = batch // config.num_minibatches
    for _ in range(config.update_epochs):
        order = torch.randperm(batch, device=obs.device, generator=generator)
        for start in range(0, batch, size):
            idx = order[start:start + size]
            weight = valid[idx]
            with autocast():
                logits, value = model(obs[idx])
            logprob, entropy = log_prob_entropy(logits, actions[idx])
            log_ratio = logprob - old_logprobs[idx]
            ratio = log_ratio.exp()
            with torch.no_grad():
                approx_kl = _masked_mean((ratio - 1) - log_ratio, weight)
                clipfrac = _masked_mean(((ratio - 1.0).abs() > config.clip_coef).float(), weight)
            adv = advantages[idx]
            if config.norm_adv:
                adv = _normalise(adv, weight)
            pg_loss = _masked_mean(torch.max(-adv * ratio, -adv * ratio.clamp(1 - config.clip_coef,
                                                                               1 + config.clip_coef)), weight)
            ret = returns[idx]
            if config.clip_vloss:
                old = old_values[idx]
                clipped = old + (value - old).clamp(-config.clip_coef, config.clip_coef)
                v_loss = 0.5 * _masked_mean(torch.max((value - ret) ** 2, (clipped - ret) ** 2), weight)
            else:
                v_loss = 0.5 * _masked_mean((value - ret) ** 2, weight)
            entropy_loss = _masked_mean(entropy, weight)
            loss = pg_loss - config.ent_coef * entropy_loss + config.vf_coef * v_loss
            _step(model, optimizer, loss, config.max_grad_norm)
            stats.add(pg_loss, v_loss, entropy_loss, approx_kl, clipfrac)
        # Early stop reads the KL on the host: only when asked for.
        if config.target_kl is not None and approx_kl.item() > config.target_kl:
            break


def a2c_update(model, optimizer, rollout: Rollout, next_obs: torch.Tensor, config, stats: Stats,
               generator: torch.Generator | None, autocast) -> None:
    """Advantage actor-critic (Mnih et al. 2016, synchronous): policy gradient
    with GAE(lambda) advantages (lambda 1: n-step returns), or V-trace targets
    and advantages from the current network's values, which correct the
    epochs after the first for the policy having moved."""
    steps, num_envs = rollout.rewards.shape
    batch = steps * num_envs
    size = batch // config.num_minibatches
    for epoch in range(config.update_epochs):
        if config.vtrace or epoch == 0:
            with torch.no_grad(), autocast():
                logits, values = model(_flat(rollout.obs))
                next_value = getattr(model, "module", model).value(next_obs).float()
            values = values.float().reshape(steps, num_envs)
            target_logprobs, _ = log_prob_entropy(logits.float(), _flat(rollout.actions))
            with torch.no_grad():
                if config.vtrace:
                    returns, advantages = vtrace(rollout.logprobs, target_logprobs.reshape(steps, num_envs),
                                                 rollout.rewards, values, rollout.dones, next_value, config.gamma,
                                                 config.gae_lambda, config.vtrace_rho_bar, config.vtrace_c_bar)
                else:
                    advantages, returns = gae(rollout.rewards, rollout.values, rollout.dones, next_value,
                                              config.gamma, config.gae_lambda)
            flat_adv, flat_ret = _flat(advantages), _flat(returns)
        order = (torch.randperm(batch, device=rollout.obs.device, generator=generator)
                 if config.num_minibatches > 1 else torch.arange(batch, device=rollout.obs.device))
        for start in range(0, batch, size):
            idx = order[start:start + size]
            weight = _flat(rollout.valid)[idx]
            with autocast():
                logits, value = model(_flat(rollout.obs)[idx])
            logprob, entropy = log_prob_entropy(logits, _flat(rollout.actions)[idx])
            adv = flat_adv[idx]
            if config.norm_adv:
                adv = _normalise(adv, weight)
            pg_loss = -_masked_mean(adv * logprob, weight)
            v_loss = 0.5 * _masked_mean((value - flat_ret[idx]) ** 2, weight)
            entropy_loss = _masked_mean(entropy, weight)
            loss = pg_loss - config.ent_coef * entropy_loss + config.vf_coef * v_loss
            _step(model, optimizer, loss, config.max_grad_norm)
            with torch.no_grad():
                log_ratio = logprob - _flat(rollout.logprobs)[idx]
                approx_kl = _masked_mean(log_ratio.exp() - 1 - log_ratio, weight)
            stats.add(pg_loss, v_loss, entropy_loss, approx_kl, torch.zeros((), device=adv.device))
