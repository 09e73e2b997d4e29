"""Schedule simulation and plots, against `mpmd schedule`."""

import re

import pytest

import mpmd


def _png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return len(data), width, height


def test_1f1b_matches_the_cli(cli):
    result = mpmd.schedule.simulate("1F1B", 4, 8, costs=(1, 2, 0, 0.5))
    printed = cli("schedule", "--schedule", "1F1B", "--meshes", "4", "--microbatches", "8",
                  "--costs", "1,2,0,0.5").stdout
    makespan = float(re.search(r"makespan\s*[:=]?\s*([0-9.]+)", printed).group(1))
    assert result.makespan == pytest.approx(makespan)
    assert result.peak_activations == [4, 3, 2, 1]  # min(p - r, m)
    assert len(result.bubbles) == 4 and all(0 < b < 1 for b in result.bubbles)
    assert [len(row) for row in result.timeline] == [16, 16, 16, 16]
    assert result.summary.splitlines()[0] in printed


def test_per_stage_costs_and_defaults():
    zbv = mpmd.schedule.simulate("ZB-V", 2, 4)
    assert zbv.stage_mesh == [0, 1, 1, 0]
    uniform = mpmd.schedule.simulate("GPipe", 2, 2)
    slow = mpmd.schedule.simulate("GPipe", 2, 2, costs=[mpmd.schedule.StageCosts(forward=3),
                                                         mpmd.schedule.StageCosts()])
    assert slow.makespan > uniform.makespan


def test_bad_parameters_raise():
    with pytest.raises(mpmd.ConfigError, match="unknown schedule 'nope'"):
        mpmd.schedule.simulate("nope", 4, 8)
    with pytest.raises(mpmd.ConfigError, match="multiple of meshes"):
        mpmd.schedule.simulate("Interleaved1F1B", 4, 6, stages_per_mesh=2)
    with pytest.raises(mpmd.ConfigError):
        mpmd.schedule.simulate("1F1B", 2, 2, costs=(-1, 1, 1))
    with pytest.raises(mpmd.ConfigError, match="has 2 stages, got costs for 1"):
        mpmd.schedule.simulate("1F1B", 2, 2, costs=[mpmd.schedule.StageCosts()])


def test_plots_are_pngs(tmp_path):
    result = mpmd.schedule.simulate("ZB-H1", 4, 8)
    result.plot(tmp_path / "zbh1.png")
    size, width, height = _png_size(tmp_path / "zbh1.png")
    assert size > 10_000 and width >= 600 and height >= 200
    mpmd.schedule.plot_comparison([result, mpmd.schedule.simulate("GPipe", 4, 8)],
                                  tmp_path / "both.png")
    size, _, both_height = _png_size(tmp_path / "both.png")
    assert size > 20_000 and both_height > height
