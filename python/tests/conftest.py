"""Shared fixtures: the `mpmd` CLI of the same build, to compare with."""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
BIN_DIR = pathlib.Path(os.environ.get("MPMD_BIN_DIR", REPO / "build" / "bin"))


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """Runs build/bin/mpmd; fails the test on a non-zero exit."""
    result = subprocess.run([str(BIN_DIR / "mpmd"), *map(str, args)], capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr
    return result


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture(scope="session")
def mlp_files(tmp_path_factory):
    """`mpmd example mlp` on 4 meshes: (program path, config path)."""
    directory = tmp_path_factory.mktemp("mlp")
    program, config = directory / "mlp.mlir", directory / "mlp.json"
    run_cli("example", "mlp", "--layers", "8", "--width", "16", "--batch", "32",
            "--microbatches", "4", "--meshes", "4", "-o", program, "--config-out", config)
    return program, config


@pytest.fixture(scope="session")
def mlp_step(mlp_files):
    import mpmd

    program, config = mlp_files
    return mpmd.jit(program, config).lower().compile()
