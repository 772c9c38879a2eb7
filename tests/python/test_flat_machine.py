"""cule.FlatMachine from Python: the functional test, and errors as Python exceptions."""

import os
import pathlib

import pytest

import cule

TESTDATA = pathlib.Path(
    os.environ.get("CULE_TESTDATA_DIR", pathlib.Path(__file__).parents[3] / "shared" / "testdata")
)
IMAGE = TESTDATA / "6502" / "6502_functional_test.bin"


def test_functional_test_passes():
    machine = cule.FlatMachine.from_file(str(IMAGE))
    result = machine.run(0x0400, 100_000_000)
    assert result.trapped and not result.jammed
    assert result.pc == 0x3469, f"failed check at PC=${result.pc:04X}"


def test_image_from_bytes_runs_and_writes_memory():
    # LDA #$42; STA $10; JMP * (trap)
    program = bytes([0xA9, 0x42, 0x85, 0x10, 0x4C, 0x04, 0x02])
    machine = cule.FlatMachine(program, load_address=0x0200)
    result = machine.run(0x0200, 1000)
    assert result.trapped and result.pc == 0x0204
    assert result.instructions == 3
    assert result.cycles == 2 + 3 + 3
    assert machine.memory[0x10] == 0x42


def test_jam_is_reported():
    machine = cule.FlatMachine(bytes([0xEA, 0x02]), load_address=0x0200)
    result = machine.run(0x0200, 100)
    assert result.jammed and not result.trapped


def test_missing_file_is_file_not_found():
    with pytest.raises(FileNotFoundError, match="/no/such/image.bin"):
        cule.FlatMachine.from_file("/no/such/image.bin")


def test_oversized_image_is_value_error():
    with pytest.raises(ValueError, match="image"):
        cule.FlatMachine(bytes(300), load_address=0xFF00)


def test_cuda_device_count_is_a_count():
    assert cule.cuda_device_count() >= 0
