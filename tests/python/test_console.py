"""cule.Console from Python: construction, acting, screens, RAM, snapshots, errors."""

import os
import pathlib

import numpy as np
import pytest

import cule

TESTDATA = pathlib.Path(
    os.environ.get("CULE_TESTDATA_DIR", pathlib.Path(__file__).parents[3] / "shared" / "testdata")
)
TETRIS = TESTDATA / "roms" / "tetris.bin"


@pytest.fixture
def console():
    return cule.Console(str(TETRIS))


def test_identifies_the_rom(console):
    assert console.game == "tetris"
    assert console.md5 == "b0e1ee07fbc73493eac5651a52f90f00"
    assert console.mapper == "2K"


def test_screen_and_ram_shapes(console):
    assert console.screen().shape == (210, 160)
    assert console.screen().dtype == np.uint8
    assert console.screen_rgb().shape == (210, 160, 3)
    assert console.screen_grayscale().shape == (210, 160)
    assert console.ram().shape == (128,)


def test_screen_view_is_read_only_and_tracks_frames(console):
    screen = console.screen()
    with pytest.raises(ValueError):
        screen[0, 0] = 1
    before = console.screen().copy()
    for _ in range(120):
        console.act(5)  # DOWN: the piece falls, the screen changes
    assert not np.array_equal(before, console.screen())


def test_rom_from_bytes_equals_rom_from_path(console):
    other = cule.Console(TETRIS.read_bytes())
    for action in [0, 1, 3, 4, 5] * 20:
        console.act(action)
        other.act(action)
    assert np.array_equal(console.screen(), other.screen())
    assert np.array_equal(console.ram(), other.ram())


def test_frame_number_counts_act_calls(console):
    start = console.frame_number
    for _ in range(7):
        console.act(0)
    assert console.frame_number == start + 7


def test_restore_state_replays_identically(console):
    for _ in range(50):
        console.act(3)
    snapshot = console.clone_state()
    actions = np.random.default_rng(1).integers(0, 18, 200)
    for a in actions:
        console.act(int(a))
    screen, ram = console.screen().copy(), console.ram().copy()
    console.restore_state(snapshot)
    for a in actions:
        console.act(int(a))
    assert np.array_equal(screen, console.screen())
    assert np.array_equal(ram, console.ram())


def test_grayscale_and_rgb_agree_on_equal_pixels(console):
    for _ in range(30):
        console.act(1)
    indices = console.screen()
    rgb = console.screen_rgb()
    gray = console.screen_grayscale()
    for value in np.unique(indices):
        where = indices == value
        assert len(np.unique(rgb[where], axis=0)) == 1
        assert len(np.unique(gray[where])) == 1


@pytest.mark.parametrize("action", [-1, 18, 1000])
def test_out_of_range_action_is_value_error(console, action):
    with pytest.raises(ValueError, match="action"):
        console.act(action)


def test_missing_rom_is_file_not_found():
    with pytest.raises(FileNotFoundError, match="no_such_game.bin"):
        cule.Console("/nonexistent/no_such_game.bin")


@pytest.mark.parametrize("size", [0, 1, 1000, 3000, 70000])
def test_image_of_no_known_size_is_value_error(size):
    with pytest.raises(ValueError, match="rom"):
        cule.Console(bytes(size))


@pytest.mark.parametrize("strength", [float("nan"), float("inf"), 65536.01, -1e6])
def test_paddle_strength_out_of_range_is_value_error(console, strength):
    with pytest.raises(ValueError, match="paddle_strength: .* out of range; expected .* at most 65536"):
        console.act(3, strength)
    console.act(3, 65536.0)  # the bound itself is taken
    console.act(3, -65536.0)


def test_mode_is_the_default_and_unknown_modes_are_value_errors(console):
    assert console.mode == 0
    with pytest.raises(ValueError, match="mode"):
        console.mode = 7


def test_difficulty_is_zero_and_unknown_difficulties_are_value_errors(console):
    assert console.difficulty == 0
    assert console.available_difficulties == [0]
    with pytest.raises(ValueError, match="difficulty: 1 is not a difficulty of 'tetris'; expected one of 0"):
        console.difficulty = 1
    assert console.difficulty == 0


def test_ram_writes_check_the_index_and_the_value(console):
    console.set_ram(5, 200)
    assert console.ram()[5] == 200
    with pytest.raises(ValueError, match="index: 128 is not a RAM byte; expected 0-127"):
        console.set_ram(128, 1)
    with pytest.raises(ValueError, match="value: 256 is not a byte"):
        console.set_ram(0, 256)
