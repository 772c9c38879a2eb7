"""--eval: play a checkpoint's policy for whole games and write a video."""

from __future__ import annotations

import dataclasses
import os
from typing import Any, Optional

import numpy as np
import torch

from cule.train.config import Config
from cule.train.envs import EnvTensors
from cule.train.model import sample_actions
from cule.train.trainer import build_model, default_run_dir, load_checkpoint

def write_video(path: str, frames: list[np.ndarray], fps: int) -> None:
    """A GIF or MP4 of RGB frames (imageio; MP4 needs imageio-ffmpeg)."""
    import imageio.v3 as iio

    extension = os.path.splitext(path)[1].lower()
    if extension == ".gif":
        iio.imwrite(path, np.stack(frames), duration=1000.0 / fps, loop=0)
    elif extension == ".mp4":
        try:
            iio.imwrite(path, np.stack(frames), fps=fps, codec="libx264", plugin="pyav")
        except Exception as error:  # a missing plugin or codec
            raise RuntimeError(f"video: cannot write MP4 {path!r} ({error}); install av or use a .gif name") from error
    else:
        raise ValueError(f"video: {path!r}; expected a name ending in .gif or .mp4")


def evaluate(checkpoint: str, episodes: int = 1, video: Optional[str] = None, greedy: bool = False,
             device: str = "cpu", seed: int = 12345, max_steps: int = 27000) -> dict[str, Any]:
    """Plays `episodes` whole games (no episodic life) with the checkpoint's
    policy; writes the first game as a video to `video` (None: none)."""
    state = load_checkpoint(checkpoint, "cpu")
    config = Config(**state["config"])
    options = config.env_kwargs()
    options.update(episodic_life=False, num_threads=1)
    env = EnvTensors(config.game, 1, device, seed, **options)
    model = build_model(config, env.obs_shape, env.num_actions, env.device)
    model.load_state_dict(state["model"])
    model.eval()
    generator = torch.Generator(device=env.device)
    generator.manual_seed(seed)
    frames: list[np.ndarray] = []
    returns = []
    steps = 0
    with torch.no_grad():
        while len(returns) < episodes and steps < max_steps * episodes:
            logits, _ = model(env.obs)
            action = logits.argmax(-1) if greedy else sample_actions(logits, generator)
            env.step(action)
            steps += 1
            if video is not None and not returns:
                frames.append(env.core.screen_rgb(0))  # with the game's palette
            if bool(env.terminated[0] | env.truncated[0]):
                returns.append(float(env.episode_returns[0]))
    if video is not None:
        os.makedirs(os.path.dirname(os.path.abspath(video)), exist_ok=True)
        write_video(video, frames, fps=max(1, 60 // config.frameskip))
    return dict(returns=returns, steps=steps, video=video, frames=len(frames))


def main(config: Config) -> dict[str, Any]:
    video = config.video
    if video is None:
        run_dir = config.run_dir or os.path.dirname(os.path.abspath(config.eval)) or default_run_dir(config)
        video = os.path.join(run_dir, "eval.gif")
    device = "cpu" if config.device == "auto" and not torch.cuda.is_available() else config.device
    if device == "auto":
        device = "cuda"
    result = evaluate(config.eval, config.eval_episodes, video, config.greedy, device, config.seed)
    for i, value in enumerate(result["returns"]):
        print(f"cule.train --eval: game {i + 1}: return {value:g}")
    print(f"cule.train --eval: video of game 1 ({result['frames']} frames) in {result['video']}")
    return result
