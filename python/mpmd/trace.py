"""Traces of runs: load the Chrome trace a run writes and plot it, next to
the schedule simulator's prediction.

A trace is what ``mpmd run --trace FILE`` and ``RunInfo.write_trace`` write
(``runtime::writeChromeTrace``): one process per mesh, per device one track
of fragments (tid 2d) and one of received copies (tid 2d+1), times in µs.
"""

from __future__ import annotations

import dataclasses
import json
import os
from mpmd.schedule import SimulationResult, TimedAction, draw_timeline

__all__ = ["TraceEvent", "Trace", "load", "plot_measured_vs_simulated"]


@dataclasses.dataclass(frozen=True)
class TraceEvent:
    name: str
    category: str  # "fragment" or "transfer"
    mesh: int
    device: int
    start_us: float
    duration_us: float
    # A fragment's kind: "F" forward, "B" backward, "o" other (the
    # executor's letter); "" for transfers.
    kind: str = ""

    @property
    def end_us(self) -> float:
        return self.start_us + self.duration_us


@dataclasses.dataclass
class Trace:
    """The events of one run."""

    mesh_names: dict[int, str]
    events: list[TraceEvent]

    @classmethod
    def from_json(cls, text: str) -> "Trace":
        data = json.loads(text)
        events = data["traceEvents"] if isinstance(data, dict) else data
        names: dict[int, str] = {}
        parsed: list[TraceEvent] = []
        for event in events:
            if event.get("ph") == "M" and event.get("name") == "process_name":
                name = event["args"]["name"]
                names[int(event["pid"])] = name.removeprefix("mesh ")
            elif event.get("ph") == "X":
                parsed.append(TraceEvent(event["name"], event.get("cat", ""), int(event["pid"]),
                                         int(event["tid"]) // 2, float(event["ts"]),
                                         float(event["dur"]),
                                         event.get("args", {}).get("kind", "")))
        return cls(names, parsed)

    @property
    def fragments(self) -> list[TraceEvent]:
        return [event for event in self.events if event.category == "fragment"]

    @property
    def transfers(self) -> list[TraceEvent]:
        return [event for event in self.events if event.category == "transfer"]

    @property
    def step_us(self) -> float:
        """From the first start to the last end."""
        if not self.events:
            return 0.0
        return max(e.end_us for e in self.events) - min(e.start_us for e in self.events)

    def devices(self) -> list[tuple[int, int]]:
        """The (mesh, device) pairs that ran fragments, in order."""
        return sorted({(e.mesh, e.device) for e in self.fragments})

    def busy_us(self, mesh: int, device: int) -> float:
        return sum(e.duration_us for e in self.fragments if (e.mesh, e.device) == (mesh, device))

    def bubbles(self) -> dict[tuple[int, int], float]:
        """Per device, the idle share of the step."""
        step = self.step_us
        return {device: (1 - self.busy_us(*device) / step) if step else 0.0
                for device in self.devices()}

    def timeline(self) -> list[list[TimedAction]]:
        """The fragments of each device as timeline rows (times from the
        first event; microbatch and stage unknown, so -1)."""
        origin = min((e.start_us for e in self.events), default=0.0)
        return [[TimedAction(e.kind, -1, -1, e.start_us - origin, e.end_us - origin)
                 for e in self.fragments if (e.mesh, e.device) == device]
                for device in self.devices()]

    def plot(self, path: str | os.PathLike | None = None, simulated: SimulationResult | None = None):
        """The measured timeline (µs) and, when given, the simulated one
        below it on the same axis (the simulator's ms are converted).
        Saves to ``path`` when given; returns the figure."""
        import matplotlib

        if path is not None:
            matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt

        labels = [f"{self.mesh_names.get(m, m)}/{d}" for m, d in self.devices()]
        panels = 2 if simulated is not None else 1
        figure, axes = plt.subplots(panels, 1, sharex=True, squeeze=False,
                                    figsize=(12, 0.6 * (len(labels) * panels) + 1.6 * panels))
        draw_timeline(axes[0, 0], self.timeline(),
                      f"measured: step {self.step_us:.0f} us", labels, label_microbatches=False)
        if simulated is not None:
            scaled = [[dataclasses.replace(a, start=a.start * 1000, end=a.end * 1000) for a in row]
                      for row in simulated.timeline]
            draw_timeline(axes[1, 0], scaled,
                          f"{simulated.title}: makespan {simulated.makespan * 1000:.0f} us")
            axes[1, 0].set_xlabel("time (us)")
        axes[0, 0].set_xlabel("time (us)")
        figure.tight_layout()
        if path is not None:
            figure.savefig(os.fspath(path), dpi=100)
            plt.close(figure)
        return figure


def load(path: str | os.PathLike) -> Trace:
    """Reads a trace file (``mpmd run --trace``, ``RunInfo.write_trace``)."""
    with open(path) as file:
        return Trace.from_json(file.read())


def plot_measured_vs_simulated(trace: Trace, simulated: SimulationResult,
                               path: str | os.PathLike) -> None:
    """``trace.plot(path, simulated)``."""
    trace.plot(path, simulated)
