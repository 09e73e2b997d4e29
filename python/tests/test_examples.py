"""The examples of examples/python run (shortened)."""

import os
import pathlib
import re
import subprocess
import sys

from test_schedule import _png_size

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"


def _run(script, *args):
    result = subprocess.run([sys.executable, str(EXAMPLES / script), *map(str, args)],
                            capture_output=True, text=True, env=dict(os.environ))
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_train_mlp_lowers_the_loss():
    output = _run("train_mlp.py", "--steps", "4")
    losses = [float(value) for value in re.findall(r"step \d+: loss ([0-9.]+)", output)]
    assert len(losses) == 4 and losses == sorted(losses, reverse=True) and losses[-1] < losses[0]
    assert "meshes m0, m1, m2, m3" in output


def test_compare_schedules_saves_a_png(tmp_path):
    output = _run("compare_schedules.py", "-o", tmp_path / "s.png", "--schedules",
                  "1F1B:1,ZB-H1:1")
    assert "ZB-H1, p=4, v=1, m=8" in output
    size, width, _ = _png_size(tmp_path / "s.png")
    assert size > 10_000 and width >= 800


def test_transformer_takes_one_ffn_width_per_layer(cli, tmp_path):
    import mpmd.examples
    import pytest

    model = mpmd.examples.transformer(layers=2, seq=4, dim=8, ffn=[8, 24], batch=4,
                                      microbatches=2, meshes=2)
    cli("example", "transformer", "--layers", "2", "--seq", "4", "--dim", "8", "--ffn", "8,24",
        "--batch", "4", "--microbatches", "2", "--meshes", "2", "-o", tmp_path / "m.mlir",
        "--config-out", tmp_path / "c.json")
    assert model.program == (tmp_path / "m.mlir").read_text()
    assert "%w1_1: tensor<8x24xf32>" in model.program
    with pytest.raises(ValueError, match="ffn"):
        mpmd.examples.transformer(layers=2, ffn=[])
    with pytest.raises(Exception, match="ffn lists 3 widths for 2 layers"):
        mpmd.examples.transformer(layers=2, ffn=[8, 8, 8])


def test_cnn_is_the_cli_model(cli, tmp_path):
    import mpmd.examples
    import pytest

    model = mpmd.examples.cnn(layers=2, image=4, channels=3, classes=2, batch=4,
                              microbatches=2, meshes=2, dtype="f64")
    cli("example", "cnn", "--layers", "2", "--image", "4", "--channels", "3", "--classes", "2",
        "--batch", "4", "--microbatches", "2", "--meshes", "2", "--dtype", "f64",
        "-o", tmp_path / "m.mlir", "--config-out", tmp_path / "c.json")
    assert model.program == (tmp_path / "m.mlir").read_text()
    assert "%conv_0: tensor<3x3x3x3xf64>" in model.program
    with pytest.raises(Exception, match="must be even"):
        mpmd.examples.cnn(image=5)
