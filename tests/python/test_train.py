"""The trainer's contract: zero copy, checkpoints and resume, --eval videos,
seeded reproducibility, argument errors. Learning itself is test_train_learning.py."""

from __future__ import annotations

import os

import imageio.v3 as iio
import numpy as np
import pytest
import torch

import cule
from cule.train import Config, Trainer, load_checkpoint
from cule.train.__main__ import main
from cule.train.envs import buffer_address
from cule.train.evaluate import evaluate

pytestmark = pytest.mark.skipif("catch" not in cule.project_games(), reason="cule built without the catch cartridge")


def small(tmp_path, **overrides) -> Config:
    """A quick configuration: the small network on 42x42 frames."""
    values = dict(game="catch", algo="ppo", network="small", img_size=42, stack_num=2, num_envs=4, num_steps=16,
                  num_minibatches=2, update_epochs=2, total_timesteps=4 * 4 * 16, torch_threads=1, env_threads=1,
                  run_dir=str(tmp_path / "run"), progress=False, tensorboard=False, log_every=1)
    values.update(overrides)
    return Config(**values)


class HostCopy(AssertionError):
    pass


@pytest.fixture
def no_host_copies(monkeypatch):
    """Makes every way of bringing a tensor to the host raise."""
    calls = []

    def refuse(name):
        def method(self, *args, **kwargs):
            calls.append(name)
            raise HostCopy(f"Tensor.{name}() in the training loop")

        return method

    for name in ("cpu", "numpy", "item", "tolist", "__array__"):
        monkeypatch.setattr(torch.Tensor, name, refuse(name))
    return calls


@pytest.mark.parametrize("algo", ["ppo", "a2c"])
def test_rollout_and_update_share_the_env_buffers_without_host_copies(tmp_path, algo, no_host_copies):
    trainer = Trainer(small(tmp_path, algo=algo, vtrace=algo == "a2c", update_epochs=2))
    env = trainer.env
    address = buffer_address(env.core.observations)
    assert env.obs.data_ptr() == address
    for update in range(2):
        trainer.collect()
        trainer.update(update)
        # The same memory, rewritten in place by the env on every step.
        assert env.obs.data_ptr() == buffer_address(env.core.observations) == address
        assert env.rewards.data_ptr() == buffer_address(env.core.rewards)
        assert env.terminated.data_ptr() == buffer_address(env.core.terminated)
    assert no_host_copies == []
    # The tensor is a view, not a snapshot: it equals what the env holds now.
    assert np.array_equal(np.from_dlpack(env.obs), env.core.observations)
    for tensor in (trainer.rollout.obs, trainer.rollout.rewards, trainer.rollout.values, env.obs):
        assert tensor.device == env.device
    # The rollout really holds the observations the env produced (the last one equals the last step's input).
    assert trainer.rollout.obs.float().std() > 0


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (and cule's CUDA backend)")
def test_gpu_step_has_no_device_to_host_copies(tmp_path):
    trainer = Trainer(small(tmp_path, device="cuda"))
    assert trainer.env.device.type == "cuda"
    trainer.collect()
    trainer.update(0)
    torch.cuda.synchronize()
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        trainer.collect()
        trainer.update(1)
        torch.cuda.synchronize()
    copies = [e.key for e in prof.key_averages() if "DtoH" in e.key or "Device -> Host" in e.key]
    assert copies == []


def test_checkpoint_and_resume_continue_the_run(tmp_path):
    config = small(tmp_path, total_timesteps=4 * 4 * 16)
    first = Trainer(config)
    first.run(max_updates=2)
    path = os.path.join(config.run_dir, "checkpoint.pt")
    saved = load_checkpoint(path)
    assert saved["update"] == 2 and saved["global_step"] == 2 * 4 * 16
    for name, value in first.policy.state_dict().items():
        assert torch.equal(saved["model"][name], value)

    resumed = Trainer(small(tmp_path, resume=path))
    assert resumed.start_update == 2 and resumed.global_step == 2 * 4 * 16
    for name, value in resumed.policy.state_dict().items():
        assert torch.equal(saved["model"][name], value)
    # The optimizer's moments came back too.
    assert resumed.optimizer.state_dict()["state"][0]["step"] == saved["optimizer"]["state"][0]["step"]
    rows = resumed.run()
    assert [r["update"] for r in rows] == [3, 4]
    final = load_checkpoint(path)
    assert final["update"] == 4 and final["global_step"] == 4 * 4 * 16
    assert any(not torch.equal(final["model"][k], saved["model"][k]) for k in saved["model"])
    lines = open(os.path.join(config.run_dir, "progress.csv")).read().splitlines()
    assert lines[0].startswith("update,") and [line.split(",")[0] for line in lines[1:]] == ["1", "2", "3", "4"]


def test_eval_plays_a_game_and_writes_a_gif(tmp_path):
    config = small(tmp_path, total_timesteps=4 * 16)
    Trainer(config).run()
    video = str(tmp_path / "game.gif")
    result = evaluate(os.path.join(config.run_dir, "checkpoint.pt"), episodes=1, video=video)
    assert len(result["returns"]) == 1
    # A game of catch is 10 balls, each caught (+1) or missed (-1).
    assert -10 <= result["returns"][0] <= 10 and result["returns"][0] % 2 == 0
    frames = iio.imread(video, index=None)
    assert frames.shape[0] == result["frames"] == result["steps"] > 10
    assert frames.shape[1:3] == (210, 160)
    # The frames move (the ball falls) and show the game's colours, not one flat image.
    assert not np.array_equal(frames[0], frames[5]) and len(np.unique(frames[5].reshape(-1, frames.shape[-1]), axis=0)) > 1


def test_cli_eval_writes_the_default_video(tmp_path, capsys):
    config = small(tmp_path, total_timesteps=4 * 16)
    Trainer(config).run()
    checkpoint = os.path.join(config.run_dir, "checkpoint.pt")
    assert main(["--eval", checkpoint, "--device", "cpu"]) == 0
    assert os.path.getsize(os.path.join(config.run_dir, "eval.gif")) > 0
    assert "return" in capsys.readouterr().out


def test_same_seed_same_run_and_another_seed_another(tmp_path):
    def weights(seed, name):
        trainer = Trainer(small(tmp_path, seed=seed, run_dir=str(tmp_path / name)))
        trainer.run(max_updates=2)
        return trainer.policy.state_dict(), trainer.rollout.actions.clone()

    a, actions_a = weights(3, "a")
    b, actions_b = weights(3, "b")
    c, actions_c = weights(4, "c")
    assert all(torch.equal(a[k], b[k]) for k in a) and torch.equal(actions_a, actions_b)
    assert any(not torch.equal(a[k], c[k]) for k in a) and not torch.equal(actions_a, actions_c)


def test_actions_are_drawn_from_the_policy(tmp_path):
    from cule.train.model import sample_actions

    logits = torch.log(torch.tensor([[0.2, 0.5, 0.3]])).repeat(20000, 1)
    counts = torch.bincount(sample_actions(logits, torch.Generator().manual_seed(0)), minlength=3).double() / 20000
    assert torch.allclose(counts, torch.tensor([0.2, 0.5, 0.3], dtype=torch.double), atol=0.015)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--num-envs", "0"], "num_envs"),
        (["--num-envs", "3", "--num-steps", "5", "--num-minibatches", "4"], "num_minibatches"),
        (["--vtrace"], "vtrace"),
        (["--gamma", "1.5"], "gamma"),
        (["--device", "tpu"], "device"),
        (["--game", "no_such_game", "--total-timesteps", "8"], "no_such_game"),
        (["--eval", "/nonexistent/checkpoint.pt"], "checkpoint"),
        (["--num-envs", "4", "--env-option", "batch_size=2", "--total-timesteps", "8"], "batch_size"),
    ],
)
def test_cli_rejects_bad_arguments_by_name(argv, message, capsys, tmp_path):
    assert main(argv + ["--run-dir", str(tmp_path), "--no-progress", "--no-tensorboard"]) == 2
    error = capsys.readouterr().err
    assert message in error and "expected" in error


def test_cli_rejects_unknown_choices(capsys):
    with pytest.raises(SystemExit):
        main(["--algo", "dqn"])
    assert "--algo" in capsys.readouterr().err


def test_torchrun_trains_one_shard_per_rank(tmp_path):
    """Two ranks under torchrun (gloo on CPU): each steps its own 4 envs, and
    the run counts both ranks' steps."""
    import csv
    import subprocess
    import sys

    run_dir = tmp_path / "ddp"
    torchrun = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2"]
    args = ["-m", "cule.train", "--game", "catch", "--device", "cpu", "--num-envs", "4", "--num-steps", "16",
            "--total-timesteps", "1024", "--no-tensorboard", "--no-progress", "--torch-threads", "1",
            "--run-dir", str(run_dir)]
    result = subprocess.run(torchrun + args, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    with open(run_dir / "progress.csv") as f:
        rows = list(csv.DictReader(f))
    assert int(rows[-1]["global_step"]) == 2 * 1024
    assert (run_dir / "checkpoint.pt").exists()
