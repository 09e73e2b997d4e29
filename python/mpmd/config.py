"""``mpmd.make_config``: upstream's configuration API over our JSON config.

An ``MpmdConfig`` is exactly the JSON object ``mpmd compile --config`` and
``mpmd run --config`` read (docs/config.md): ``to_json()`` writes it,
``MpmdConfig.from_json`` / ``from_file`` read it, and the C++ parser
validates it (``validate()``, and every ``jit`` that uses it), so the CLI and
Python share one definition of what a configuration means.
"""

from __future__ import annotations

import dataclasses
import json
import os
from typing import Any, Mapping, Sequence, Union

from mpmd import _mpmd

__all__ = ["MpmdConfig", "make_config", "generated_schedule"]

# A mesh's axes: {"data": 2, "model": 4} (ordered) or [("data", 2), ...].
MeshShape = Union[Mapping[str, int], Sequence[Sequence[Any]]]
# The topology: {"m0": MeshShape, ...} (ordered) or [("m0", MeshShape), ...],
# where a list entry may add the mesh's device ids:
# ("m0", MeshShape, {"device_ids": [1, 0]}).
Topology = Union[Mapping[str, MeshShape], Sequence[Sequence[Any]]]
# The JSON of one sharding of `in_shardings` / `out_shardings` / a rule:
# upstream's sharding text, or a PartitionSpec-like list [["data"], None].
ShardingJson = Union[None, str, list]


def generated_schedule(name: str) -> dict:
    """``{"generated": name}``: a schedule generated for the program's meshes,
    stages and microbatches (``Interleaved1F1B``, ``ZB-V``, ``DualPipeV``,
    any ``mpmd schedule`` name)."""
    return {"generated": name}


def _mesh_axes(shape: MeshShape) -> list:
    items = shape.items() if isinstance(shape, Mapping) else shape
    return [[str(axis), int(size)] for axis, size in items]


def _topology_json(topology: Topology) -> list:
    """The JSON topology; a list entry may carry a third item, the mesh's
    options ``{"device_ids": [...]}``, passed through for the C++ parser to
    check."""
    items = topology.items() if isinstance(topology, Mapping) else topology
    meshes = []
    for entry in items:
        name, shape, *options = entry
        mesh = [str(name), _mesh_axes(shape)]
        if options:
            mesh.extend(dict(option) for option in options)
        meshes.append(mesh)
    return meshes


def _indexed_assignment(assignment) -> list | None:
    """A list with one entry per input/output (None: inferred), from a list
    or an {index: mesh} mapping."""
    if assignment is None:
        return None
    if isinstance(assignment, Mapping):
        if not assignment:
            return None
        entries = [None] * (max(int(index) for index in assignment) + 1)
        for index, mesh in assignment.items():
            entries[int(index)] = mesh
        return entries
    entries = list(assignment)
    return entries or None


def _sharding_json(sharding) -> ShardingJson:
    to_json = getattr(sharding, "to_json", None)
    return to_json() if to_json else sharding


@dataclasses.dataclass(frozen=True)
class MpmdConfig:
    """A configuration of the compiler (upstream's ``MpmdConfig``).

    Build one with ``make_config``; the fields are those of ``make_config``
    in the JSON form (lists in the topology, because the order of meshes is
    their pipeline order).
    """

    topology: list
    name_to_mesh_assignment: dict
    name_to_stage_assignment: dict = dataclasses.field(default_factory=dict)
    input_mesh_assignment: list | None = None
    output_mesh_assignment: list | None = None
    partitioning_options: dict = dataclasses.field(default_factory=dict)
    pipeline_schedule: Any = None
    fragment_merge_rules: list = dataclasses.field(default_factory=list)
    in_shardings: list | None = None
    out_shardings: list | None = None
    sharding_rules: list | None = None
    # What `mpmd plan` predicted for this configuration (docs/config.md):
    # carried unchanged; `mpmd run --summary` compares it with the run.
    plan: dict | None = None

    @property
    def mesh_names(self) -> list[str]:
        """The meshes, in pipeline order (an ``MpmdArray``'s ``mpmd_idxs``
        index this list)."""
        return [name for name, _ in self.topology]

    def to_dict(self) -> dict:
        """The JSON object of docs/config.md."""
        result: dict[str, Any] = {"topology": self.topology}
        assignment: dict[str, Any] = {}
        for name, mesh in self.name_to_mesh_assignment.items():
            stage = self.name_to_stage_assignment.get(name)
            assignment[name] = mesh if stage is None else {"mesh": mesh, "stage": stage}
        result["assignment"] = assignment
        if self.input_mesh_assignment is not None:
            result["input_assignment"] = self.input_mesh_assignment
        if self.output_mesh_assignment is not None:
            result["output_assignment"] = self.output_mesh_assignment
        if self.pipeline_schedule is not None:
            result["schedule"] = self.pipeline_schedule
        if self.fragment_merge_rules:
            result["merge_rules"] = self.fragment_merge_rules
        if self.partitioning_options:
            result["partitioning_options"] = self.partitioning_options
        if self.in_shardings is not None:
            result["in_shardings"] = self.in_shardings
        if self.out_shardings is not None:
            result["out_shardings"] = self.out_shardings
        if self.sharding_rules is not None:
            result["sharding_rules"] = self.sharding_rules
        if self.plan is not None:
            result["plan"] = self.plan
        return result

    def to_json(self, indent: int | None = None) -> str:
        """The JSON text ``mpmd compile --config`` reads."""
        return json.dumps(self.to_dict(), indent=indent)

    def save(self, path: str | os.PathLike) -> None:
        """Writes ``to_json()`` to ``path``."""
        with open(path, "w") as file:
            file.write(self.to_json(indent=2) + "\n")

    @classmethod
    def from_dict(cls, config: Mapping[str, Any]) -> "MpmdConfig":
        """The inverse of ``to_dict`` (unknown fields: ``ConfigError``)."""
        known = {
            "topology", "assignment", "input_assignment", "output_assignment",
            "schedule", "merge_rules", "partitioning_options", "in_shardings",
            "out_shardings", "sharding_rules", "plan",
        }
        unknown = sorted(set(config) - known)
        if unknown:
            raise _config_error(f"config: unknown field(s) {', '.join(unknown)}; "
                                f"expected one of {', '.join(sorted(known))}")
        if "topology" not in config:
            raise _config_error("config.topology: missing")
        meshes: dict[str, Any] = {}
        stages: dict[str, int] = {}
        for name, entry in config.get("assignment", {}).items():
            if isinstance(entry, Mapping):
                meshes[name] = entry.get("mesh")
                if "stage" in entry:
                    stages[name] = entry["stage"]
            else:
                meshes[name] = entry
        return cls(
            topology=_topology_json(config["topology"]),
            name_to_mesh_assignment=meshes,
            name_to_stage_assignment=stages,
            input_mesh_assignment=config.get("input_assignment"),
            output_mesh_assignment=config.get("output_assignment"),
            partitioning_options=dict(config.get("partitioning_options", {})),
            pipeline_schedule=config.get("schedule"),
            fragment_merge_rules=list(config.get("merge_rules", [])),
            in_shardings=config.get("in_shardings"),
            out_shardings=config.get("out_shardings"),
            sharding_rules=config.get("sharding_rules"),
            plan=config.get("plan"),
        )

    @classmethod
    def from_json(cls, text: str) -> "MpmdConfig":
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError as error:
            raise _config_error(f"config: invalid JSON: {error}") from None
        if not isinstance(parsed, Mapping):
            raise _config_error("config: expected a JSON object")
        return cls.from_dict(parsed)

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> "MpmdConfig":
        with open(path) as file:
            return cls.from_json(file.read())

    def validate(self) -> "MpmdConfig":
        """Checks the configuration with the C++ parser (what ``mpmd
        compile`` accepts); raises ``ConfigError`` naming the JSON path of
        the offending field. Returns ``self``."""
        self._parsed()
        return self

    def _parsed(self) -> "_mpmd.Config":
        cached = self.__dict__.get("_parsed_config")
        if cached is None:
            cached = _mpmd.Config.parse(self.to_json())
            object.__setattr__(self, "_parsed_config", cached)
        return cached


def _config_error(message: str):
    from mpmd.errors import ConfigError

    return ConfigError(message)


def make_config(
    topology: Topology,
    name_to_mesh_assignment: Mapping[str, str],
    *,
    name_to_stage_assignment: Mapping[str, int] | None = None,
    input_mesh_assignment: Sequence[str | None] | Mapping[int, str] | None = None,
    output_mesh_assignment: Sequence[str | None] | Mapping[int, str] | None = None,
    partitioning_options: Mapping[str, bool | str] | None = None,
    pipeline_schedule: str | Mapping[str, str] | Sequence[str] | None = None,
    fragment_merge_rules: Sequence[str] | None = None,
    in_shardings: Sequence[Any] | None = None,
    out_shardings: Sequence[Any] | None = None,
    sharding_rules: Sequence[Any] | None = None,
) -> MpmdConfig:
    """Builds a configuration, as upstream's ``mpmd.make_config``.

    Args:
      topology: the meshes in pipeline order, ``{"m0": {"data": 2}, ...}``
        (insertion-ordered) or ``[("m0", [("data", 2)]), ...]``; a list
        entry ``("m0", {"data": 2}, {"device_ids": [1, 0]})`` numbers the
        mesh's devices (docs/config.md).
      name_to_mesh_assignment: named computation or tensor -> mesh, with an
        optional ``#pinned_host`` / ``#device`` memory kind.
      name_to_stage_assignment: named computation -> pipeline stage (>= 0).
      input_mesh_assignment, output_mesh_assignment: the mesh[#kind] of each
        input / output of ``@main`` (``None`` entries are inferred), as a
        list or an ``{index: mesh}`` mapping.
      partitioning_options: upstream's ``mpmd_*`` options (docs/config.md).
      pipeline_schedule: a built-in schedule name (``"1F1B"``, ...),
        ``generated_schedule(name)``, or a list of ``FragmentScheduleRule``
        strings.
      fragment_merge_rules: ``FragmentMergeRule(...)`` strings.
      in_shardings, out_shardings: per input / output of ``@main``, a
        ``PartitionSpec``, a sharding string or ``None`` (see
        ``mpmd.sharding``).
      sharding_rules: ``mpmd.sharding`` rules (or their JSON), applied in
        order to the inputs by name.

    Returns:
      The ``MpmdConfig``; its JSON is ``config.to_json()``. The C++ parser
      checks it when it is used (or on ``config.validate()``).
    """
    from mpmd import sharding as _sharding

    rules = None
    if sharding_rules is not None:
        rules = _sharding.rules_to_json(sharding_rules)
    return MpmdConfig(
        topology=_topology_json(topology),
        name_to_mesh_assignment=dict(name_to_mesh_assignment),
        name_to_stage_assignment=dict(name_to_stage_assignment or {}),
        input_mesh_assignment=_indexed_assignment(input_mesh_assignment),
        output_mesh_assignment=_indexed_assignment(output_mesh_assignment),
        partitioning_options=dict(partitioning_options or {}),
        pipeline_schedule=pipeline_schedule,
        fragment_merge_rules=list(fragment_merge_rules or []),
        in_shardings=None if in_shardings is None else [_sharding_json(s) for s in in_shardings],
        out_shardings=None if out_shardings is None else [_sharding_json(s) for s in out_shardings],
        sharding_rules=rules,
    )
