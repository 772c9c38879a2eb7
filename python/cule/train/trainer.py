"""The training loop: rollouts from cule environments straight into device
tensors, PPO or A2C updates, logs, checkpoints; one process per GPU under
torchrun (each rank steps its own shard of environments).

Nothing in the loop moves data to the host: observations, rewards and flags
are the env's own buffers (see envs.py), the rollout and the advantages live
on the env's device, and actions are sampled there. Logged scalars are read
every ``log_every`` updates, and that is the only host synchronisation.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import math
import os
import sys
import time
from typing import Any, Optional

import torch
import torch.distributed as dist

from cule.train.algorithms import Rollout, Stats, a2c_update, ppo_update
from cule.train.config import Config
from cule.train.envs import EnvTensors
from cule.train.model import ActorCritic, log_prob_entropy, sample_actions


@dataclasses.dataclass
class Dist:
    rank: int = 0
    world: int = 1
    local_rank: int = 0

    @property
    def main(self) -> bool:
        return self.rank == 0


def _init_distributed(config: Config) -> Dist:
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world <= 1:
        return Dist()
    rank, local_rank = int(os.environ["RANK"]), int(os.environ.get("LOCAL_RANK", "0"))
    use_cuda = config.device != "cpu" and torch.cuda.is_available()
    if use_cuda:
        torch.cuda.set_device(local_rank)
    if not dist.is_initialized():
        dist.init_process_group("nccl" if use_cuda else "gloo")
    return Dist(rank, world, local_rank)


def _env_device(config: Config, d: Dist) -> list[str]:
    """The devices to try for the environments, in order."""
    cuda = f"cuda:{d.local_rank}" if d.world > 1 else "cuda"
    if config.device == "auto":
        return [cuda, "cpu"] if torch.cuda.is_available() else ["cpu"]
    if config.device == "cuda" and d.world > 1:
        return [cuda]
    return [config.device]


def make_envs(config: Config, d: Dist, seed_offset: int = 0) -> EnvTensors:
    seed = config.seed + seed_offset + d.rank * config.num_envs
    errors = []
    for device in _env_device(config, d):
        try:
            return EnvTensors(config.game, config.num_envs, device, seed, **config.env_kwargs())
        except (RuntimeError, ValueError) as error:
            if config.device != "auto" or device == "cpu":
                raise
            errors.append(f"{device}: {error}")
    raise RuntimeError("no device could run the environments: " + "; ".join(errors))


def _seed_everything(config: Config, d: Dist) -> None:
    torch.manual_seed(config.seed + d.rank)
    if config.torch_threads > 0:
        torch.set_num_threads(config.torch_threads)
    if config.deterministic:
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        torch.use_deterministic_algorithms(True, warn_only=True)
        torch.backends.cudnn.benchmark = False


class Logger:
    """CSV (always), TensorBoard (optional) and a progress bar, on rank 0."""

    FIELDS = ["update", "global_step", "frames", "seconds", "fps", "games", "return_mean", "length_mean",
              "learning_rate", "policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac"]

    def __init__(self, config: Config, run_dir: str, total_updates: int, start_update: int, enabled: bool):
        self.enabled = enabled
        self.bar = None
        self.writer = None
        if not enabled:
            return
        os.makedirs(run_dir, exist_ok=True)
        path = os.path.join(run_dir, "progress.csv")
        new = not (config.resume and os.path.exists(path))
        self.file = open(path, "w" if new else "a", newline="")
        self.csv = csv.DictWriter(self.file, fieldnames=self.FIELDS)
        if new:
            self.csv.writeheader()
        if config.tensorboard:
            try:
                from torch.utils.tensorboard import SummaryWriter
            except ImportError as error:
                raise RuntimeError("tensorboard: the tensorboard package is not installed; "
                                   "pip install tensorboard or pass --no-tensorboard") from error
            self.writer = SummaryWriter(run_dir)
        if config.progress:
            from tqdm import tqdm

            self.bar = tqdm(total=total_updates, initial=start_update, unit="update", dynamic_ncols=True,
                            file=sys.stderr)

    def log(self, row: dict[str, Any]) -> None:
        if not self.enabled:
            return
        self.csv.writerow({k: row.get(k) for k in self.FIELDS})
        self.file.flush()
        if self.writer is not None:
            for key in self.FIELDS[3:]:
                value = row.get(key)
                if value is not None and not (isinstance(value, float) and math.isnan(value)):
                    self.writer.add_scalar(f"train/{key}", value, row["global_step"])
        if self.bar is not None:
            self.bar.set_postfix(fps=f"{row['fps']:.0f}", ret=f"{row['return_mean']:.2f}", games=row["games"])

    def advance(self, updates: int = 1) -> None:
        if self.bar is not None:
            self.bar.update(updates)

    def close(self) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.close()
        if self.writer is not None:
            self.writer.close()
        self.file.close()


def default_run_dir(config: Config) -> str:
    game = os.path.splitext(os.path.basename(config.game))[0]
    return os.path.join("runs", f"{game}_{config.algo}_{config.seed}")


def save_checkpoint(path: str, model, optimizer, config: Config, update: int, global_step: int,
                    generator: torch.Generator, seconds: float) -> None:
    state = dict(model=_unwrap(model).state_dict(), optimizer=optimizer.state_dict(),
                 config=dataclasses.asdict(config), update=update, global_step=global_step,
                 generator=generator.get_state(), torch_rng=torch.get_rng_state(), seconds=seconds)
    tmp = path + ".tmp"
    torch.save(state, tmp)
    os.replace(tmp, path)


def load_checkpoint(path: str, device: torch.device | str = "cpu") -> dict[str, Any]:
    if not os.path.exists(path):
        raise FileNotFoundError(f"checkpoint: {path!r} does not exist; expected a file written by cule.train")
    return torch.load(path, map_location=device, weights_only=False)


def _unwrap(model):
    return getattr(model, "module", model)


def build_model(config: Config, obs_shape, num_actions: int, device: torch.device) -> ActorCritic:
    return ActorCritic(obs_shape, num_actions, config.network).to(device)


def build_optimizer(config: Config, model) -> torch.optim.Optimizer:
    # Fused Adam and multi-tensor RMSprop keep their step counters as tensors
    # (the other implementations read them on the host every step).
    if config.optimizer == "adam":
        return torch.optim.Adam(model.parameters(), lr=config.learning_rate, eps=config.adam_eps, fused=True)
    return torch.optim.RMSprop(model.parameters(), lr=config.learning_rate, alpha=0.99, eps=config.adam_eps,
                               foreach=True)


class Trainer:
    """One training run. ``run()`` trains to config.total_timesteps; the
    pieces (env, model, rollout) are attributes for tests and tools."""

    def __init__(self, config: Config):
        self.config = config = config.resolved()
        self.dist = _init_distributed(config)
        _seed_everything(config, self.dist)
        self.run_dir = config.run_dir or default_run_dir(config)
        self.start_update = 0
        self.global_step = 0
        self.seconds_before = 0.0
        resume = load_checkpoint(config.resume) if config.resume else None
        if resume is not None:
            self.start_update = resume["update"]
            self.global_step = resume["global_step"]
            self.seconds_before = resume.get("seconds", 0.0)
        # A resumed run's environments start fresh games, seeded apart from the first run's.
        self.env = make_envs(config, self.dist, seed_offset=self.start_update * 7919)
        self.device = self.env.device
        self.generator = torch.Generator(device=self.device)
        self.generator.manual_seed(config.seed + self.dist.rank)
        model = build_model(config, self.env.obs_shape, self.env.num_actions, self.device)
        self.optimizer = build_optimizer(config, model)
        if resume is not None:
            model.load_state_dict(resume["model"])
            self.optimizer.load_state_dict(resume["optimizer"])
            self.generator.set_state(resume["generator"].to(self.generator.get_state().device))
            torch.set_rng_state(resume["torch_rng"])
        if self.dist.world > 1:
            ids = [self.device.index] if self.device.type == "cuda" else None
            model = torch.nn.parallel.DistributedDataParallel(model, device_ids=ids)
        self.model = model
        self.rollout = Rollout.allocate(config.num_steps, config.num_envs, self.env.obs_shape, self.device)
        self.prev_done = torch.zeros(config.num_envs, device=self.device)
        self.stats = Stats(self.device)
        self.update_fn = ppo_update if config.algo == "ppo" else a2c_update
        amp = config.amp and self.device.type == "cuda"
        self.autocast = (lambda: torch.autocast("cuda", dtype=torch.bfloat16)) if amp else contextlib.nullcontext
        self.history: list[dict[str, Any]] = []

    @property
    def policy(self) -> ActorCritic:
        return _unwrap(self.model)

    def collect(self) -> None:
        """One rollout of num_steps steps into self.rollout (on the device)."""
        env, r, policy = self.env, self.rollout, self.policy
        with torch.no_grad():
            for t in range(self.config.num_steps):
                r.obs[t].copy_(env.obs)
                with self.autocast():
                    logits, value = policy(env.obs)
                action = sample_actions(logits.float(), self.generator)
                logprob, _ = log_prob_entropy(logits.float(), action)
                r.actions[t] = action
                r.logprobs[t] = logprob
                r.values[t] = value
                r.valid[t] = 1.0 - self.prev_done
                env.step(action)
                r.rewards[t] = env.rewards
                done = (env.terminated | env.truncated).float()
                r.dones[t] = done
                self.prev_done = done

    def update(self, update: int) -> None:
        config = self.config
        if config.anneal_lr:
            frac = 1.0 - update / config.num_updates
            for group in self.optimizer.param_groups:
                group["lr"] = frac * config.learning_rate
        self.update_fn(self.model, self.optimizer, self.rollout, self.env.obs, config, self.stats, self.generator,
                       self.autocast)

    def checkpoint(self, update: int, seconds: float, name: str = "checkpoint.pt") -> str:
        path = os.path.join(self.run_dir, name)
        if self.dist.main:
            os.makedirs(self.run_dir, exist_ok=True)
            save_checkpoint(path, self.model, self.optimizer, self.config, update, self.global_step,
                            self.generator, seconds)
        return path

    def run(self, max_updates: Optional[int] = None) -> list[dict[str, Any]]:
        """Trains until config.total_timesteps (or `max_updates` more updates);
        returns the logged rows."""
        config = self.config
        total = config.num_updates
        end = total if max_updates is None else min(total, self.start_update + max_updates)
        logger = Logger(config, self.run_dir, total, self.start_update, self.dist.main)
        steps_per_update = config.batch_size * self.dist.world
        start = time.perf_counter()
        mark_time, mark_step = start, self.global_step
        update = self.start_update
        try:
            for update in range(self.start_update, end):
                self.collect()
                self.update(update)
                self.global_step += steps_per_update
                logger.advance()
                done_updates = update + 1
                if done_updates % config.log_every == 0 or done_updates == end:
                    now = time.perf_counter()
                    games, mean_return, mean_length = self.env.recent_games()
                    row = dict(update=done_updates, global_step=self.global_step,
                               frames=self.global_step * config.frameskip,
                               seconds=self.seconds_before + now - start,
                               fps=(self.global_step - mark_step) * config.frameskip / max(now - mark_time, 1e-9),
                               games=games, return_mean=mean_return, length_mean=mean_length,
                               learning_rate=self.optimizer.param_groups[0]["lr"], **self.stats.read())
                    mark_time, mark_step = now, self.global_step
                    self.history.append(row)
                    logger.log(row)
                if config.checkpoint_every and done_updates % config.checkpoint_every == 0:
                    self.checkpoint(done_updates, self.seconds_before + time.perf_counter() - start)
            self.start_update = end
            self.checkpoint(end, self.seconds_before + time.perf_counter() - start)
        finally:
            logger.close()
        return self.history


def train(config: Config) -> list[dict[str, Any]]:
    """Trains per `config`; returns the logged rows (rank 0's)."""
    trainer = Trainer(config)
    history = trainer.run()
    if trainer.dist.main and history:
        last = history[-1]
        print(f"cule.train: {config.algo if config.algo else ''} {trainer.config.game}: "
              f"{last['frames']:,} frames in {last['seconds']:.1f} s "
              f"({last['frames'] / max(last['seconds'], 1e-9):,.0f} frames/s); "
              f"mean return of the last {min(last['games'], 100)} games {last['return_mean']:.2f}; "
              f"logs and checkpoint in {trainer.run_dir}")
    if dist.is_initialized():
        dist.destroy_process_group()
    return history
