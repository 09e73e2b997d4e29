"""Traces of runs from Python: written, loaded, plotted next to the prediction."""

import json

import mpmd
from test_schedule import _png_size


def test_trace_of_a_run(mlp_step, tmp_path):
    run = mlp_step.run(*mlp_step.random_inputs(0))
    assert run.step_us > 0 and len(run.outputs) == 9
    path = tmp_path / "trace.json"
    run.write_trace(path)
    assert json.loads(path.read_text())["traceEvents"]
    trace = mpmd.trace.load(path)
    assert sorted(trace.mesh_names.values()) == ["m0", "m1", "m2", "m3"]
    assert trace.devices() == [(0, 0), (1, 0), (2, 0), (3, 0)]
    # Every microbatch runs a forward and a backward fragment on each mesh.
    assert len(trace.fragments) >= 4 * 4 * 2 and trace.transfers
    # Each mesh runs one forward and one backward fragment per microbatch.
    kinds = [e.kind for e in trace.fragments]
    assert kinds.count("F") == kinds.count("B") == 4 * 4
    assert all(0 <= bubble < 1 for bubble in trace.bubbles().values())
    assert "step time:" in run.summary() and "m3:0" in run.summary()

    predicted = run.predict()
    assert predicted.makespan > 0 and len(predicted.timeline) == 4
    trace.plot(tmp_path / "measured.png", predicted)
    size, _, height = _png_size(tmp_path / "measured.png")
    assert size > 10_000 and height > 300
