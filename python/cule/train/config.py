"""The trainer's settings and its command line.

Defaults are the well-known Atari settings: PPO as in the PPO paper's Atari
experiments (and CleanRL's ppo_atari), A2C as in the A3C paper's synchronous
variant (and the common baselines' Atari settings). A setting left at None
takes its algorithm's default (see ALGORITHM_DEFAULTS).
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Optional

#: What an unset (None) setting becomes, per algorithm.
ALGORITHM_DEFAULTS: dict[str, dict[str, Any]] = {
    "ppo": dict(num_envs=8, num_steps=128, learning_rate=2.5e-4, num_minibatches=4, update_epochs=4,
                vf_coef=0.5, optimizer="adam", adam_eps=1e-5, gae_lambda=0.95, norm_adv=True),
    "a2c": dict(num_envs=16, num_steps=5, learning_rate=7e-4, num_minibatches=1, update_epochs=1,
                vf_coef=0.25, optimizer="rmsprop", adam_eps=1e-5, gae_lambda=1.0, norm_adv=False),
}


@dataclass
class Config:
    # What to train on.
    algo: str = "ppo"
    game: str = "catch"  # a cule game id, a ROM path, or one of cule.project_games()
    device: str = "auto"  # auto: cuda when the env can run there, else cpu
    num_envs: Optional[int] = None
    env_threads: int = 0  # CPU env worker threads (0: one per core)
    # Environment options (ale-py AtariVectorEnv's, with CleanRL's Atari choices).
    frameskip: int = 4
    repeat_action_probability: float = 0.0
    noop_max: int = 30
    episodic_life: bool = True
    reward_clipping: bool = True
    img_size: int = 84
    stack_num: int = 4
    max_episode_frames: int = 108000
    env_options: dict = field(default_factory=dict)  # any other AtariVectorEnv option
    # The rollout and the update.
    total_timesteps: int = 10_000_000  # agent steps of one rank, summed over its environments
    num_steps: Optional[int] = None
    learning_rate: Optional[float] = None
    anneal_lr: bool = True
    gamma: float = 0.99
    gae_lambda: Optional[float] = None
    num_minibatches: Optional[int] = None
    update_epochs: Optional[int] = None
    norm_adv: Optional[bool] = None
    clip_coef: float = 0.1
    clip_vloss: bool = True
    ent_coef: float = 0.01
    vf_coef: Optional[float] = None
    max_grad_norm: float = 0.5
    target_kl: Optional[float] = None
    optimizer: Optional[str] = None  # adam or rmsprop
    adam_eps: Optional[float] = None
    # A2C only: V-trace corrections (clipped importance weights) for the
    # epochs after the first, where the policy has moved off the behaviour.
    vtrace: bool = False
    vtrace_rho_bar: float = 1.0
    vtrace_c_bar: float = 1.0
    # The network and the arithmetic.
    network: str = "nature"  # nature (Nature DQN) or small (the 2013 DQN's)
    amp: bool = False  # bfloat16 autocast on CUDA
    seed: int = 1
    torch_threads: int = 0  # 0: torch's default
    deterministic: bool = True
    # Output.
    run_dir: Optional[str] = None  # default runs/<game>_<algo>_<seed>
    log_every: int = 10  # updates between host reads of the logged scalars
    tensorboard: bool = True
    progress: bool = True
    checkpoint_every: int = 0  # updates (0: only at the end)
    resume: Optional[str] = None
    # --eval CHECKPOINT: play instead of training.
    eval: Optional[str] = None
    eval_episodes: int = 1
    video: Optional[str] = None  # .gif or .mp4; default <run_dir>/eval.gif
    greedy: bool = False

    def resolved(self) -> "Config":
        """A copy with every None replaced by its algorithm's default, checked."""
        if self.algo not in ALGORITHM_DEFAULTS:
            raise ValueError(f"algo: {self.algo!r} is not an algorithm; expected one of {sorted(ALGORITHM_DEFAULTS)}")
        values = dataclasses.asdict(self)
        for name, default in ALGORITHM_DEFAULTS[self.algo].items():
            if values[name] is None:
                values[name] = default
        config = Config(**values)
        config.check()
        return config

    def check(self) -> None:
        positive = ["num_envs", "num_steps", "num_minibatches", "update_epochs", "total_timesteps", "frameskip",
                    "img_size", "stack_num", "log_every", "eval_episodes"]
        for name in positive:
            value = getattr(self, name)
            if value is None or value < 1:
                raise ValueError(f"{name}: {value!r}; expected an integer of at least 1")
        if self.network not in ("nature", "small"):
            raise ValueError(f"network: {self.network!r}; expected 'nature' or 'small'")
        if self.device not in ("auto", "cpu") and not self.device.startswith("cuda"):
            raise ValueError(f"device: {self.device!r}; expected 'auto', 'cpu', 'cuda' or 'cuda:N'")
        if self.optimizer not in ("adam", "rmsprop"):
            raise ValueError(f"optimizer: {self.optimizer!r}; expected 'adam' or 'rmsprop'")
        batch = self.num_envs * self.num_steps
        if batch % self.num_minibatches:
            raise ValueError(
                f"num_minibatches: {self.num_minibatches} does not divide the batch of num_envs x num_steps = {batch}; "
                f"expected a divisor of {batch}"
            )
        for name in ("learning_rate", "gamma", "clip_coef", "max_grad_norm"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name}: {getattr(self, name)!r}; expected a number above 0")
        for name in ("gamma", "gae_lambda", "repeat_action_probability"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name}: {getattr(self, name)!r}; expected a number from 0 to 1")
        if self.vtrace and self.algo != "a2c":
            raise ValueError("vtrace: V-trace corrections are an A2C option; expected --algo a2c with --vtrace")
        if self.checkpoint_every < 0:
            raise ValueError(f"checkpoint_every: {self.checkpoint_every}; expected 0 (only at the end) or more")

    @property
    def batch_size(self) -> int:
        return self.num_envs * self.num_steps

    @property
    def num_updates(self) -> int:
        return max(1, self.total_timesteps // self.batch_size)

    def env_kwargs(self) -> dict[str, Any]:
        """The options cule.make gets."""
        options = dict(
            frameskip=self.frameskip,
            repeat_action_probability=self.repeat_action_probability,
            noop_max=self.noop_max,
            episodic_life=self.episodic_life,
            reward_clipping=self.reward_clipping,
            img_height=self.img_size,
            img_width=self.img_size,
            stack_num=self.stack_num,
            max_num_frames_per_episode=self.max_episode_frames,
            num_threads=self.env_threads,
            autoreset_mode="NextStep",
        )
        options.update(self.env_options)
        return options


def _flag(parser: argparse.ArgumentParser, name: str, default: bool, help: str) -> None:
    parser.add_argument(f"--{name}", dest=name.replace("-", "_"), action=argparse.BooleanOptionalAction,
                        default=default, help=help)


def _option_value(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"{text!r}: expected KEY=VALUE (e.g. full_action_space=true)")
    key, value = text.split("=", 1)
    lowered = value.lower()
    if lowered in ("true", "false"):
        return key, lowered == "true"
    for kind in (int, float):
        try:
            return key, kind(value)
        except ValueError:
            pass
    return key, value


def parser() -> argparse.ArgumentParser:
    d = Config()
    p = argparse.ArgumentParser(
        prog="python -m cule.train",
        description="Train PPO or A2C on cule environments (or --eval a checkpoint).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--algo", choices=sorted(ALGORITHM_DEFAULTS), default=d.algo)
    p.add_argument("--game", default=d.game, help="game id, ROM path, or a project game (catch)")
    p.add_argument("--device", default=d.device, help="auto, cpu, cuda or cuda:N")
    p.add_argument("--num-envs", type=int, default=None, help="environments (per rank); ppo 8, a2c 16")
    p.add_argument("--env-threads", type=int, default=d.env_threads)
    p.add_argument("--frameskip", type=int, default=d.frameskip)
    p.add_argument("--repeat-action-probability", type=float, default=d.repeat_action_probability)
    p.add_argument("--noop-max", type=int, default=d.noop_max)
    _flag(p, "episodic-life", d.episodic_life, "a lost life ends the training episode")
    _flag(p, "reward-clipping", d.reward_clipping, "clip rewards to [-1, 1]")
    p.add_argument("--img-size", type=int, default=d.img_size)
    p.add_argument("--stack-num", type=int, default=d.stack_num)
    p.add_argument("--max-episode-frames", type=int, default=d.max_episode_frames)
    p.add_argument("--env-option", dest="env_options", type=_option_value, action="append", default=[],
                   metavar="KEY=VALUE", help="another cule.make option")
    p.add_argument("--total-timesteps", type=int, default=d.total_timesteps,
                   help="agent steps per rank (under torchrun each rank runs this many)")
    p.add_argument("--num-steps", type=int, default=None, help="rollout length; ppo 128, a2c 5")
    p.add_argument("--learning-rate", "--lr", type=float, default=None, help="ppo 2.5e-4, a2c 7e-4")
    _flag(p, "anneal-lr", d.anneal_lr, "anneal the learning rate linearly to 0")
    p.add_argument("--gamma", type=float, default=d.gamma)
    p.add_argument("--gae-lambda", type=float, default=None, help="ppo 0.95, a2c 1.0 (n-step returns)")
    p.add_argument("--num-minibatches", type=int, default=None, help="ppo 4, a2c 1")
    p.add_argument("--update-epochs", type=int, default=None, help="ppo 4, a2c 1")
    _flag(p, "norm-adv", None, "normalise advantages per minibatch (ppo yes, a2c no)")
    p.add_argument("--clip-coef", type=float, default=d.clip_coef)
    _flag(p, "clip-vloss", d.clip_vloss, "clip the value loss (PPO)")
    p.add_argument("--ent-coef", type=float, default=d.ent_coef)
    p.add_argument("--vf-coef", type=float, default=None, help="ppo 0.5, a2c 0.25")
    p.add_argument("--max-grad-norm", type=float, default=d.max_grad_norm)
    p.add_argument("--target-kl", type=float, default=None)
    p.add_argument("--optimizer", choices=["adam", "rmsprop"], default=None, help="ppo adam, a2c rmsprop")
    p.add_argument("--adam-eps", type=float, default=None)
    _flag(p, "vtrace", d.vtrace, "A2C: V-trace targets and advantages")
    p.add_argument("--vtrace-rho-bar", type=float, default=d.vtrace_rho_bar)
    p.add_argument("--vtrace-c-bar", type=float, default=d.vtrace_c_bar)
    p.add_argument("--network", choices=["nature", "small"], default=d.network)
    _flag(p, "amp", d.amp, "bfloat16 autocast (CUDA)")
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--torch-threads", type=int, default=d.torch_threads)
    _flag(p, "deterministic", d.deterministic, "deterministic torch kernels")
    p.add_argument("--run-dir", default=None, help="where logs and checkpoints go; default runs/<game>_<algo>_<seed>")
    p.add_argument("--log-every", type=int, default=d.log_every, help="updates between logged scalars")
    _flag(p, "tensorboard", d.tensorboard, "write TensorBoard logs")
    _flag(p, "progress", d.progress, "show a progress bar")
    p.add_argument("--checkpoint-every", type=int, default=d.checkpoint_every, help="updates (0: only at the end)")
    p.add_argument("--resume", default=None, help="a checkpoint to continue from")
    p.add_argument("--eval", default=None, metavar="CHECKPOINT", help="play a checkpoint and write a video")
    p.add_argument("--eval-episodes", type=int, default=d.eval_episodes)
    p.add_argument("--video", default=None, help=".gif or .mp4 (default <run-dir>/eval.gif)")
    _flag(p, "greedy", d.greedy, "eval: take the most likely action")
    return p


def from_args(argv: Optional[list[str]] = None) -> Config:
    """A Config from command-line arguments (not yet resolved)."""
    args = vars(parser().parse_args(argv))
    args["env_options"] = dict(args["env_options"])
    return Config(**args)
