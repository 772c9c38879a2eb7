"""cule's batched environments as a Gymnasium 1.x ``VectorEnv``.

    env = cule.make("pong", num_envs=8)          # AtariVectorEnv's options
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

The arrays returned are zero-copy views of the environment's own buffers:
each step rewrites them in place (copy what must outlive the next step). They
export through DLPack, so ``torch.from_dlpack(obs)`` shares their memory. With
``device="cuda"`` they are ``cule._core.CudaBuffer`` objects in device memory
(``__dlpack__`` and ``__cuda_array_interface__``); resets and steps run on
PyTorch's current stream, and actions may be an int32 CUDA tensor.

``continuous=True`` takes AtariVectorEnv's continuous actions: per environment
(radius, angle, fire), mapped to one of the 18 joystick actions and a paddle
strength as ale-py maps them (NumPy on the host; PyTorch on a tensor's device).

``render_mode="rgb_array"`` makes ``render()`` return each environment's
last frame in RGB, as ALE's getScreenRGB (Gymnasium's vector ``RecordVideo``
and ``HumanRendering`` wrappers take them).

``batch_size`` below ``num_envs`` makes the batches asynchronous, as
AtariVectorEnv's (and EnvPool's): the environments run on their own threads,
each step returns the first ``batch_size`` of them to finish, named by
``info["env_id"]``, and the next step's actions are theirs (CPU only).
``thread_affinity_offset`` pins the worker threads to cores from that one on.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from typing import Any

import gymnasium
import numpy as np
from gymnasium.spaces import Box, Discrete
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from cule import _core

#: Gymnasium's ``ALE/<Game>-v5`` (ale_py.env.AtariEnv as registered).
V5 = dict(
    frameskip=4,
    repeat_action_probability=0.25,
    full_action_space=False,
    max_num_frames_per_episode=108000,
    count_reset_frames=True,  # ALE's limit, on the episode frame number
    noop_max=0,
    use_fire_reset=False,
    episodic_life=False,
    reward_clipping=False,
    obs_type="rgb",
    img_height=0,  # the screen's: 210, or 250 for PAL games, as AtariEnv's
    img_width=160,
    maxpool=False,
    stack_num=1,
)
PRESETS = {"v5": V5}

_GYM_ID = re.compile(r"^(?:ALE/)?([A-Za-z0-9]+)-v5$")


def env_name(game: str) -> str:
    """A game's name in Gymnasium ids, as ale-py writes it: 'space_invaders'
    is 'SpaceInvaders', 'up_n_down' 'UpNDown'."""
    return game.title().replace("_", "")


@functools.lru_cache(maxsize=None)
def _games_by_name() -> dict[str, str]:
    """Each game's id by its name in Gymnasium ids (env_name)."""
    return {env_name(game): game for game in (*_core.list_games(), *_core.project_games())}


def game_id(name: str) -> str:
    """The ale-py id for a game name: 'pong', 'MsPacman' or 'ALE/MsPacman-v5'."""
    match = _GYM_ID.match(name)
    if match:
        name = match.group(1)
    if name.lower() == name:
        return name
    known = _games_by_name()
    if name in known:
        return known[name]
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def project_rom_path(rom_id: str) -> str:
    """The built cartridge of one of the project's own games (roms/<id>.asm).

    The build puts it beside the package (cule/roms/<id>.bin, also after
    ``pip install .``); ``CULE_CARTRIDGE_DIR`` points elsewhere.
    """
    places = [os.path.join(os.path.dirname(__file__), "roms")]
    if os.environ.get("CULE_CARTRIDGE_DIR"):
        places.insert(0, os.environ["CULE_CARTRIDGE_DIR"])
    for place in places:
        path = os.path.join(place, f"{rom_id}.bin")
        if os.path.exists(path):
            return path
    raise FileNotFoundError(
        f"game: {rom_id!r} is the project's own cartridge, but {rom_id}.bin is in none of {places}; "
        f"build it from roms/{rom_id}.asm with scripts/build (needs dasm)"
    )


def resolve_rom(game: str | bytes | os.PathLike) -> str | bytes:
    """A ROM to load: the bytes or file given, or ale-py's ROM for a game id."""
    if isinstance(game, (bytes, bytearray)):
        return bytes(game)
    text = os.fspath(game)
    if os.path.exists(text):
        return text
    rom_id = game_id(text)
    if rom_id in _core.project_games():
        return project_rom_path(rom_id)
    if rom_id not in _core.list_games():
        raise ValueError(
            f"game: {text!r} is not a game cule knows nor a ROM file; expected a path, one of "
            f"cule.list_games() (e.g. 'pong') or of cule.project_games() ({', '.join(_core.project_games())})"
        )
    try:
        from ale_py import roms
    except ImportError as error:
        raise FileNotFoundError(
            f"game: {text!r} needs its ROM; install ale-py (which ships the ROMs) or pass the ROM's path"
        ) from error
    return str(roms.get_rom_path(rom_id))


def _current_stream(device: str) -> int:
    """The current PyTorch stream on ``device`` as an integer (0: the default
    stream when PyTorch is not in use)."""
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return 0
    return int(torch.cuda.current_stream(torch.device(device)).cuda_stream)


def _device_actions(interface: dict, num_envs: int, owner: Any) -> int:
    """The address of ``num_envs`` contiguous int32 actions in device memory."""
    if interface["typestr"] != "<i4" or tuple(interface["shape"]) != (num_envs,):
        raise ValueError(
            f"actions: expected a contiguous int32 device array of shape ({num_envs},), got "
            f"{interface['typestr']} of shape {tuple(interface['shape'])} (use .int())"
        )
    strides = interface.get("strides")
    if strides is not None and tuple(strides) != (4,):
        raise ValueError("actions: expected a contiguous device array (use .contiguous())")
    return int(interface["data"][0])


def _host(strengths: Any):
    """joystick_actions' paddle strengths as a host array (None: none)."""
    return None if strengths is None else np.asarray(strengths)


def _device_strengths(strengths: Any) -> int:
    """The address of joystick_actions' float32 paddle strengths on the device (0: none)."""
    return 0 if strengths is None else int(strengths.__cuda_array_interface__["data"][0])


# ALE's joystick actions, [horizontal + 1][vertical + 1][fire]: horizontal
# -1 is left and 1 right, vertical -1 down and 1 up (ale_py.Action values).
_JOYSTICK_ACTIONS = np.array(
    [
        [[9, 17], [4, 12], [7, 15]],  # DOWNLEFT, LEFT, UPLEFT (and ...FIRE)
        [[5, 13], [0, 1], [2, 10]],  # DOWN, NOOP, UP
        [[8, 16], [3, 11], [6, 14]],  # DOWNRIGHT, RIGHT, UPRIGHT
    ],
    dtype=np.int32,
)

_joystick_tables: dict = {}  # _JOYSTICK_ACTIONS as a tensor, by torch device


def _joystick_table(torch, device):
    """_JOYSTICK_ACTIONS on a torch device, copied there once (a copy inside a
    CUDA graph's capture would fail: VectorEnv makes it up front)."""
    table = _joystick_tables.get(device)
    if table is None:
        table = _joystick_tables[device] = torch.as_tensor(_JOYSTICK_ACTIONS, device=device)
    return table


def joystick_actions(actions, threshold: float):
    """AtariVectorEnv's continuous actions, rows of (radius, angle, fire), as
    (ALE actions, paddle strengths): the point (radius cos angle, radius sin
    angle) pushes the stick along each axis where it lies beyond +-threshold,
    fire beyond threshold presses the button, and the radius is the paddle
    strength. float32 arithmetic, as ale-py's; a torch tensor is mapped by
    PyTorch on its device (its cos and sin may differ from NumPy's in the
    last bit, so a point within a rounding of a threshold may map apart)."""
    torch = _torch_of(actions)
    if torch is not None:
        actions = actions.detach().to(torch.float32)  # a policy's output may require grad
        table, cos, sin = _joystick_table(torch, actions.device), torch.cos, torch.sin
    else:
        actions = np.asarray(actions, dtype=np.float32)
        table, cos, sin = _JOYSTICK_ACTIONS, np.cos, np.sin
    radius, angle, fire = actions[:, 0], actions[:, 1], actions[:, 2]

    def axis(v):  # -1, 0 or 1, plus 1: an index
        return (v > threshold) * 1 - (v < -threshold) * 1 + 1

    indices = table[axis(radius * cos(angle)), axis(radius * sin(angle)), (fire > threshold) * 1]
    return indices, radius.contiguous() if torch is not None else np.ascontiguousarray(radius)


def _torch_of(value):
    """The torch module where ``value`` is a torch tensor, else None."""
    torch = sys.modules.get("torch")
    return torch if torch is not None and isinstance(value, torch.Tensor) else None


def resolve_roms(game):
    """resolve_rom for one game, or for each of a list of them."""
    if isinstance(game, (list, tuple)):
        return [resolve_rom(g) for g in game]
    return resolve_rom(game)


class VectorEnv(gymnasium.vector.VectorEnv):
    """A batch of ALE environments of one game (or of several, given a list:
    consecutive environments share a game), in Gymnasium's vector API."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["rgb_array"]}

    def __init__(self, game: str | bytes | os.PathLike | list, num_envs: int = 1, *, device: str = "cpu", **options: Any):
        if "grayscale" in options:  # AtariVectorEnv's spelling
            options["obs_type"] = "grayscale" if options.pop("grayscale") else "rgb"
        self.continuous = bool(options.pop("continuous", False))
        self.continuous_action_threshold = float(options.pop("continuous_action_threshold", 0.5))
        if not np.isfinite(self.continuous_action_threshold):
            raise ValueError(
                f"continuous_action_threshold: {self.continuous_action_threshold} is not a finite number"
            )
        if self.continuous:  # as AtariVectorEnv: every joystick action is reachable
            options["full_action_space"] = True
        self.render_mode = options.pop("render_mode", None)
        if self.render_mode not in (None, "rgb_array"):
            raise ValueError(
                f"render_mode: {self.render_mode!r} is not a render mode of cule's environments; expected "
                f"None or 'rgb_array' (gymnasium.wrappers.vector.HumanRendering shows those in a window)"
            )
        # AtariVectorEnv's batch_size: fewer than num_envs makes the batches
        # asynchronous (each holds the first environments to finish).
        batch_size = options.get("batch_size", 0)
        asynchronous = isinstance(batch_size, (int, np.integer)) and 0 < batch_size < int(num_envs)
        if asynchronous and self.render_mode is not None:
            raise ValueError(
                f"render_mode: asynchronous batches ({batch_size} of {num_envs}) have environments running "
                f"while a batch is out, so none can be drawn; leave render_mode None or batch_size 0"
            )
        core = _core.AsyncVecEnv if asynchronous else _core.VecEnv
        self._env = core(resolve_roms(game), int(num_envs), device=device, **options)
        self._async = asynchronous
        self.num_envs = self._env.num_envs
        self.batch_size = self._env.batch_size if asynchronous else self.num_envs
        self.device = self._env.device
        self._on_cuda = self.device.startswith("cuda")
        self.autoreset_mode = AutoresetMode(self._env.autoreset_mode)
        # A step is frameskip frames of the TV's picture: videos play in real time.
        render_fps = max(1, self._env.frames_per_second // int(options.get("frameskip", 4)))
        self.metadata = dict(self.metadata, autoreset_mode=self.autoreset_mode, render_fps=render_fps)
        self.single_observation_space = Box(0, 255, tuple(self._env.observation_shape), np.uint8)
        if self.continuous:  # radius, angle, fire
            self.single_action_space = Box(
                np.array([0.0, -np.pi, 0.0], np.float32), np.array([1.0, np.pi, 1.0], np.float32), dtype=np.float32
            )
            torch = sys.modules.get("torch")
            if self._on_cuda and torch is not None:
                _joystick_table(torch, torch.device(self.device))
        else:
            self.single_action_space = Discrete(len(self._env.action_set))
        self.observation_space = batch_space(self.single_observation_space, self.batch_size)
        self.action_space = batch_space(self.single_action_space, self.batch_size)
        self._env_ids = np.arange(self.num_envs, dtype=np.int32)

    @property
    def core(self) -> _core.VecEnv | _core.AsyncVecEnv:
        """The underlying cule._core.VecEnv (buffers, clone/restore, screens),
        or cule._core.AsyncVecEnv for asynchronous batches."""
        return self._env

    @property
    def action_set(self) -> list[int]:
        """The ALE actions (0-17) that action indices stand for."""
        return self._env.action_set

    def _info(self) -> dict[str, np.ndarray]:
        env = self._env
        info = {
            "lives": env.lives,
            "episode_frame_number": env.episode_frame_numbers,
            "frame_number": env.frame_numbers,
            # Asynchronous batches: a new array each time, as AtariVectorEnv's
            # (ids kept from one batch must not become the next one's).
            "env_id": env.env_ids.copy() if self._async else self._env_ids,
        }
        if self.autoreset_mode == AutoresetMode.SAME_STEP and self._on_cuda:
            # On the device the mask is not looked at (that would wait for
            # the step): both are always there.
            info["final_obs"] = env.final_observations
            info["_final_obs"] = env.autoreset
        elif self.autoreset_mode == AutoresetMode.SAME_STEP and env.autoreset.any():
            # As AtariVectorEnv: the whole batch's final observations (rows
            # of environments that did not end are stale), with a mask.
            info["final_obs"] = env.final_observations
            info["_final_obs"] = env.autoreset.copy()
        return info

    def reset(self, *, seed: int | np.ndarray | None = None, options: dict[str, Any] | None = None):
        mask = None if options is None else options.get("reset_mask")
        if mask is not None and self._async:
            raise ValueError(
                f"reset_mask: partial resets need batch_size == num_envs; this environment has "
                f"asynchronous batches ({self.batch_size} of {self.num_envs})"
            )
        if mask is not None:
            mask = np.asarray(mask)
            if mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
                raise ValueError(f"reset_mask: expected a boolean array of shape ({self.num_envs},)")
        count = self.num_envs if mask is None else int(mask.sum())
        seeds = None
        if seed is not None:
            if isinstance(seed, (int, np.integer)):
                seeds = np.arange(int(seed), int(seed) + count, dtype=np.int64)
            else:
                seeds = np.asarray(seed, dtype=np.int64)
        if self._async:
            self._env.reset(seeds)
        elif self._on_cuda:
            self._env.reset(mask, seeds, stream=_current_stream(self.device))
        else:
            self._env.reset(mask, seeds)
        return self._env.observations, self._info()

    def _step_inputs(self, actions):
        """(action indices, paddle strengths or None) for the core's step:
        device tensors where the actions are on the device, else arrays."""
        if not self.continuous:
            return actions, None
        shape = tuple(getattr(actions, "shape", np.shape(actions)))
        if shape != (self.batch_size, 3):
            raise ValueError(
                f"actions: continuous actions are rows of (radius, angle, fire); expected shape "
                f"({self.batch_size}, 3), got {shape}"
            )
        return joystick_actions(actions, self.continuous_action_threshold)

    def step(self, actions):
        """One step of the batch: of every environment, or with asynchronous
        batches of those of the last batch returned (``info["env_id"]``),
        returning the next batch."""
        if self._async:
            self.step_async(actions)
            return self.step_wait()
        self._start_step(actions, wait=True)
        env = self._env
        return env.observations, env.rewards, env.terminated, env.truncated, self._info()

    def step_async(self, actions) -> None:
        """Starts a step and returns at once (the environments run on their
        own threads, or the device, meanwhile); ``step_wait()`` returns its
        results. The arrays must not be read in between."""
        self._start_step(actions, wait=False)

    def _start_step(self, actions, wait: bool) -> None:
        """The core's step (`wait`) or send, with the actions where they are:
        in the CUDA environment's memory (step_device, send_device) or in
        host memory."""
        actions, strengths = self._step_inputs(actions)
        env = self._env
        if self._async:
            env.send(np.asarray(actions), _host(strengths))
            return
        stream = _current_stream(self.device) if self._on_cuda else 0
        interface = getattr(actions, "__cuda_array_interface__", None) if self._on_cuda else None
        if interface is not None:
            on_device = _device_actions(interface, self.num_envs, actions), _device_strengths(strengths)
            (env.step_device if wait else env.send_device)(*on_device, stream=stream)
        else:
            (env.step if wait else env.send)(np.asarray(actions), _host(strengths), stream=stream)

    def step_wait(self):
        """The results of the step ``step_async`` started."""
        self._env.recv()
        env = self._env
        return env.observations, env.rewards, env.terminated, env.truncated, self._info()

    def send(self, actions) -> None:
        """AtariVectorEnv's name for ``step_async``."""
        self.step_async(actions)

    def recv(self):
        """AtariVectorEnv's name for ``step_wait``."""
        return self.step_wait()

    def render(self) -> tuple[np.ndarray, ...] | None:
        """With ``render_mode="rgb_array"``, each environment's last frame in
        RGB, arrays of shape (height, 160, 3) as ALE's getScreenRGB gives
        them, one per environment (``gymnasium.wrappers.vector.RecordVideo``
        records them); else None. On a GPU each is copied from the device."""
        if self.render_mode is None:
            return None
        if self._env is None:
            raise ValueError("render: the environment is closed")
        return tuple(self._env.screen_rgb(i) for i in range(self.num_envs))

    def close_extras(self, **kwargs):
        self._env = None


def make(game: str | bytes | os.PathLike | list, num_envs: int = 1, *, device: str = "cpu", preset: str | None = None, **options: Any) -> VectorEnv:
    """A batch of ``num_envs`` environments of ``game`` (an ale-py id such as
    'pong', 'ALE/Pong-v5', or a ROM path or bytes), or of several games given
    as a list: game g plays environments ``[g * n // G, (g + 1) * n // G)``
    (they need ``full_action_space=True`` unless their action sets agree).

    Options and their defaults are ale-py's ``AtariVectorEnv``'s; ``preset="v5"``
    (or a ``-v5`` name) starts from Gymnasium's ``ALE/<Game>-v5`` instead, and
    options given override the preset.
    """
    if preset is None and isinstance(game, str) and _GYM_ID.match(game):
        preset = "v5"
    if preset is not None:
        if preset not in PRESETS:
            raise ValueError(f"preset: {preset!r} is not a preset; expected one of {sorted(PRESETS)}")
        options = {**PRESETS[preset], **options}
    return VectorEnv(game, num_envs, device=device, **options)
