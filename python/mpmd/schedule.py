"""Pipeline schedules: simulate them and draw their timelines.

``simulate(schedule, meshes, microbatches, costs=...)`` runs the C++
schedule simulator (``mpmd/Schedule/Simulator.h``, what ``mpmd schedule``
prints) and returns a ``SimulationResult``: ``makespan``, per-mesh
``bubbles`` and ``peak_activations``, the timeline, and ``plot(path)``
(matplotlib, Agg backend).
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any, Sequence

from mpmd import _mpmd

__all__ = ["Costs", "StageCosts", "TimedAction", "SimulationResult", "simulate", "plot_comparison"]

ACTION_COLORS = {"F": "#4c72b0", "B": "#dd8452", "W": "#55a868"}


@dataclasses.dataclass(frozen=True)
class Costs:
    """Durations of a forward, a backward (input gradient) and a weight
    gradient of one stage, and the transfer latency between meshes. A
    backward without a split-off W lasts ``backward + weight_gradient``."""

    forward: float = 1.0
    backward: float = 1.0
    weight_gradient: float = 1.0
    transfer: float = 0.0


@dataclasses.dataclass(frozen=True)
class StageCosts:
    """The costs of one stage, for stages that differ; the transfer latency
    is that of the boundary after the stage; ``activation_bytes`` weights
    the stage's live activations."""

    forward: float = 1.0
    backward: float = 1.0
    weight_gradient: float = 1.0
    transfer_to_next: float = 0.0
    activation_bytes: float = 1.0


@dataclasses.dataclass(frozen=True)
class TimedAction:
    kind: str  # "F", "B" or "W"
    microbatch: int
    stage: int
    start: float
    end: float


@dataclasses.dataclass(frozen=True)
class SimulationResult:
    """A simulated (or predicted) schedule.

    Attributes:
      title: what was simulated ("1F1B, p=4, v=1, m=8").
      makespan: the end of the last action.
      bubbles: per mesh, the idle share of the makespan.
      active_bubbles: per mesh, the idle share between its first start and
        its last end.
      peak_activations: per mesh, the most (microbatch, stage) activations
        live at once.
      timeline: per mesh, its actions in order with their times.
      stage_mesh: the mesh of each stage.
    """

    title: str
    makespan: float
    bubbles: list[float]
    active_bubbles: list[float]
    peak_activations: list[int]
    busy: list[float]
    timeline: list[list[TimedAction]]
    stage_mesh: list[int]
    microbatches: int
    total_bubble_fraction: float
    summary: str = ""

    @classmethod
    def _from_dict(cls, result: dict, title: str | None = None) -> "SimulationResult":
        meshes = result["meshes"]
        return cls(
            title=title if title is not None else result.get("title", ""),
            makespan=result["makespan"],
            bubbles=[mesh["bubble_fraction"] for mesh in meshes],
            active_bubbles=[mesh["active_bubble_fraction"] for mesh in meshes],
            peak_activations=[mesh["peak_live_activations"] for mesh in meshes],
            busy=[mesh["busy"] for mesh in meshes],
            timeline=[[TimedAction(*action) for action in row] for row in result["timeline"]],
            stage_mesh=list(result["stage_mesh"]),
            microbatches=result["microbatches"],
            total_bubble_fraction=result["total_bubble_fraction"],
            summary=result.get("summary", ""),
        )

    def __str__(self) -> str:
        return self.summary or f"{self.title}: makespan {self.makespan:g}"

    def plot(self, path: str | os.PathLike | None = None, ax: Any = None, unit: str = ""):
        """Draws the timeline: one row per mesh, one box per action (F blue,
        B orange, W green, labelled with the microbatch). Saves a PNG (or
        any matplotlib format) to ``path`` when given; returns the figure."""
        import matplotlib

        if ax is None and path is not None:
            matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt

        figure = None
        if ax is None:
            figure, ax = plt.subplots(figsize=(max(6.0, min(24.0, 0.25 * self._action_count())),
                                               0.6 * len(self.timeline) + 1.2))
        draw_timeline(ax, self.timeline, f"{self.title} (makespan {self.makespan:g}{unit})")
        if figure is not None:
            figure.tight_layout()
            if path is not None:
                figure.savefig(os.fspath(path), dpi=100)
                plt.close(figure)
        return figure if figure is not None else ax.figure

    def _action_count(self) -> int:
        return max((len(row) for row in self.timeline), default=1)


def draw_timeline(ax: Any, timeline: Sequence[Sequence[TimedAction]], title: str,
                  row_labels: Sequence[str] | None = None, label_microbatches: bool = True) -> None:
    """Draws per-row action boxes on a matplotlib axis, coloured by kind;
    boxes wide enough for it are labelled with their microbatch."""
    span = max((action.end for actions in timeline for action in actions), default=0.0)
    for row, actions in enumerate(timeline):
        for action in actions:
            ax.broken_barh([(action.start, max(action.end - action.start, 1e-9))],
                           (row - 0.4, 0.8), facecolors=ACTION_COLORS.get(action.kind, "#999999"),
                           edgecolors="black", linewidth=0.3)
            if label_microbatches and action.end - action.start >= span / 60:
                ax.text((action.start + action.end) / 2, row, str(action.microbatch),
                        ha="center", va="center", fontsize=6, color="white")
    ax.set_yticks(range(len(timeline)))
    ax.set_yticklabels(row_labels or [f"mesh {index}" for index in range(len(timeline))])
    ax.invert_yaxis()
    ax.set_xlabel("time")
    ax.set_title(title, fontsize=9)


def simulate(schedule: str, meshes: int, microbatches: int, *,
             costs: Costs | Sequence[StageCosts] | Sequence[float] | None = None,
             stages_per_mesh: int | None = None) -> SimulationResult:
    """Simulates a built-in schedule (any ``mpmd schedule`` name: ``GPipe``,
    ``1F1B``, ``Interleaved1F1B``, ``ZB-H1``, ``ZB-H2``, ``ZB-V``,
    ``DualPipeV``, ``Circular``, ...).

    Args:
      schedule: the schedule's name (case-insensitive, '-' and '_' ignored).
      meshes: pipeline ranks.
      microbatches: microbatches per step.
      costs: ``Costs`` (or ``(F, B, W[, T])``) for every stage, or one
        ``StageCosts`` per stage; unit costs by default.
      stages_per_mesh: stages per mesh (2 for ZB-V and DualPipeV by
        default, else 1).

    Raises:
      ConfigError: an unknown schedule, parameters it does not support, or
        invalid costs.
    """
    uniform = (1.0, 1.0, 1.0, 0.0)
    per_stage: list[tuple[float, float, float, float, float]] = []
    if isinstance(costs, Costs):
        uniform = (costs.forward, costs.backward, costs.weight_gradient, costs.transfer)
    elif costs is not None and len(costs) and isinstance(costs[0], StageCosts):
        per_stage = [(c.forward, c.backward, c.weight_gradient, c.transfer_to_next,
                      c.activation_bytes) for c in costs]
    elif costs is not None:
        values = [float(value) for value in costs]
        if len(values) not in (3, 4):
            raise ValueError(f"costs: expected (F, B, W[, T]), got {costs!r}")
        uniform = tuple(values + [0.0] * (4 - len(values)))
    result = _mpmd.simulate_schedule(schedule, meshes, microbatches, stages_per_mesh,
                                     uniform, per_stage)
    return SimulationResult._from_dict(result)


def plot_comparison(results: Sequence[SimulationResult], path: str | os.PathLike) -> None:
    """One timeline per result, stacked on a shared time axis, saved to
    ``path`` (e.g. a PNG comparing schedules)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    rows = [len(result.timeline) for result in results]
    figure, axes = plt.subplots(len(results), 1, sharex=True, squeeze=False,
                                figsize=(12, sum(0.5 * r + 0.9 for r in rows)),
                                gridspec_kw={"height_ratios": rows})
    for ax, result in zip(axes[:, 0], results):
        result.plot(ax=ax)
    figure.tight_layout()
    figure.savefig(os.fspath(path), dpi=100)
    plt.close(figure)
