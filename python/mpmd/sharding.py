"""Sharding helpers in the shape of scalax's ``scalax.sharding``.

``PartitionSpec`` says, per tensor dimension, which mesh axes shard it.
``MeshShardingHelper`` and the rules (``FSDPShardingRule``,
``TreePathShardingRule``, ``PolicyShardingRule``) turn a pytree of
parameters into specs and into the configuration's ``in_shardings`` /
``sharding_rules`` entries (docs/python.md#sharding), which the C++
sharding propagation reads; nothing is partitioned in Python.

The JSON written here:

* a sharding: ``null`` (left to propagation), upstream's sharding text, or a
  PartitionSpec-like list with one entry per dimension: ``null``
  (replicated) or the list of mesh axes, major first: ``[["data"], null]``;
* ``sharding_rules``: a list applied in order, each either
  ``{"regex": R, "sharding": S}`` (inputs whose name matches ``R`` get
  ``S``) or ``{"fsdp": {"axes": [...], "min_size": N}}`` (every input of at
  least ``N`` elements is sharded over the axes along its largest dimension
  they divide).
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Iterable, Mapping, Sequence

__all__ = [
    "PartitionSpec",
    "ShardingRule",
    "FSDPShardingRule",
    "TreePathShardingRule",
    "PolicyShardingRule",
    "MeshShardingHelper",
    "with_sharding_constraint",
    "tree_paths",
    "rules_to_json",
]


class PartitionSpec(tuple):
    """Per dimension: ``None`` (replicated), an axis name, or a tuple of
    axis names (major first), as ``jax.sharding.PartitionSpec``. Trailing
    dimensions left out are replicated."""

    def __new__(cls, *dims: str | Sequence[str] | None) -> "PartitionSpec":
        normalized = []
        for dim in dims:
            if dim is None or isinstance(dim, str):
                normalized.append(dim)
            else:
                axes = tuple(dim)
                if not all(isinstance(axis, str) for axis in axes):
                    raise TypeError(f"PartitionSpec entries are axis names, got {dim!r}")
                normalized.append(axes if len(axes) != 1 else axes[0])
        return super().__new__(cls, normalized)

    def __repr__(self) -> str:
        return "PartitionSpec(" + ", ".join(repr(dim) for dim in self) + ")"

    def axes_of(self, dim: int) -> tuple[str, ...]:
        """The mesh axes of dimension ``dim`` (empty: replicated)."""
        if dim >= len(self) or self[dim] is None:
            return ()
        entry = self[dim]
        return (entry,) if isinstance(entry, str) else tuple(entry)

    def to_json(self) -> list:
        """``[["data"], null]``: the config's PartitionSpec-like list."""
        return [list(self.axes_of(dim)) if self[dim] is not None else None
                for dim in range(len(self))]

    @classmethod
    def from_json(cls, value: Sequence[Sequence[str] | None]) -> "PartitionSpec":
        return cls(*[None if axes is None else tuple(axes) for axes in value])

    @classmethod
    def from_dim_axes(cls, dim_axes: Sequence[Sequence[str]], rank: int) -> "PartitionSpec":
        """The spec of per-dimension axis lists (empty: replicated), padded
        to ``rank`` dimensions."""
        dims = [tuple(axes) if axes else None for axes in dim_axes]
        dims += [None] * (rank - len(dims))
        return cls(*dims)


def _sharding_to_json(sharding: Any) -> Any:
    if sharding is None or isinstance(sharding, str):
        return sharding
    if isinstance(sharding, PartitionSpec):
        return sharding.to_json()
    if isinstance(sharding, (list, tuple)):
        return PartitionSpec(*sharding).to_json()
    raise TypeError(f"expected a PartitionSpec, a sharding string or None, got {sharding!r}")


def _key_name(key: Any) -> str:
    return str(key)


def tree_paths(tree: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """The ``(path, leaf)`` pairs of a pytree of nested dicts, lists and
    tuples, paths joined with ``/`` (dict keys in insertion order)."""
    if isinstance(tree, Mapping):
        pairs = []
        for key, value in tree.items():
            pairs += tree_paths(value, f"{prefix}/{_key_name(key)}" if prefix else _key_name(key))
        return pairs
    if isinstance(tree, (list, tuple)) and not isinstance(tree, PartitionSpec):
        pairs = []
        for index, value in enumerate(tree):
            pairs += tree_paths(value, f"{prefix}/{index}" if prefix else str(index))
        return pairs
    return [(prefix, tree)]


def _tree_map_with_path(function: Callable[[str, Any], Any], tree: Any, prefix: str = "") -> Any:
    if isinstance(tree, Mapping):
        return type(tree)(
            (key, _tree_map_with_path(function, value,
                                      f"{prefix}/{_key_name(key)}" if prefix else _key_name(key)))
            for key, value in tree.items())
    if isinstance(tree, (list, tuple)) and not isinstance(tree, PartitionSpec):
        mapped = [_tree_map_with_path(function, value, f"{prefix}/{index}" if prefix else str(index))
                  for index, value in enumerate(tree)]
        return type(tree)(mapped) if isinstance(tree, tuple) else mapped
    return function(prefix, tree)


def _shape_of(leaf: Any) -> tuple[int, ...]:
    shape = getattr(leaf, "shape", None)
    if shape is None:
        raise TypeError(f"a sharding rule needs leaves with a shape, got {type(leaf).__name__}")
    return tuple(shape)


class ShardingRule:
    """A rule mapping each leaf of a pytree to a ``PartitionSpec``."""

    def apply(self, pytree: Any) -> Any:
        """The pytree of ``PartitionSpec`` s, of the same structure."""
        return _tree_map_with_path(self.spec_for, pytree)

    def spec_for(self, path: str, leaf: Any) -> PartitionSpec:
        raise NotImplementedError

    def to_json(self, inputs: Mapping[str, Any] | None = None) -> list:
        """The config's ``sharding_rules`` entries of this rule."""
        raise NotImplementedError


class FSDPShardingRule(ShardingRule):
    """Fully sharded data parallelism: each tensor of at least
    ``min_fsdp_size`` elements is sharded over ``fsdp_axis_name`` along one
    dimension: the largest dimension divisible by ``fsdp_axis_size``, or,
    without a size, the dimension with the largest power-of-two divisor."""

    def __init__(self, fsdp_axis_name: str | Sequence[str] = "fsdp",
                 fsdp_axis_size: int | None = None, min_fsdp_size: int = 1048576):
        self.axes = (fsdp_axis_name,) if isinstance(fsdp_axis_name, str) else tuple(fsdp_axis_name)
        self.fsdp_axis_size = fsdp_axis_size
        self.min_fsdp_size = min_fsdp_size

    def spec_for(self, path: str, leaf: Any) -> PartitionSpec:
        shape = _shape_of(leaf)
        if math.prod(shape) < self.min_fsdp_size or not shape:
            return PartitionSpec()
        if self.fsdp_axis_size is not None:
            candidates = [dim for dim, size in enumerate(shape) if size % self.fsdp_axis_size == 0]
            if not candidates:
                return PartitionSpec()
            dim = max(candidates, key=lambda d: (shape[d], -d))
        else:
            def power_of_two(size: int) -> int:
                return (size & -size) if size > 0 else 0
            dim = max(range(len(shape)), key=lambda d: (power_of_two(shape[d]), -d))
        dims: list[Any] = [None] * len(shape)
        dims[dim] = self.axes
        return PartitionSpec(*dims)

    def to_json(self, inputs: Mapping[str, Any] | None = None) -> list:
        return [{"fsdp": {"axes": list(self.axes), "min_size": self.min_fsdp_size}}]


class TreePathShardingRule(ShardingRule):
    """``(regex, PartitionSpec)`` pairs tried in order on each leaf's path;
    the first match wins. ``strict``: a leaf nothing matches is an error
    (else it is replicated)."""

    def __init__(self, *rules: tuple[str, Any], strict: bool = True):
        self.rules = [(pattern, spec) for pattern, spec in rules]
        for pattern, _ in self.rules:
            re.compile(pattern)
        self.strict = strict

    def spec_for(self, path: str, leaf: Any) -> PartitionSpec:
        for pattern, spec in self.rules:
            if re.search(pattern, path):
                return spec if isinstance(spec, PartitionSpec) else PartitionSpec(*(spec or ()))
        if self.strict:
            raise ValueError(f"no sharding rule matches {path!r}")
        return PartitionSpec()

    def to_json(self, inputs: Mapping[str, Any] | None = None) -> list:
        return [{"regex": pattern, "sharding": _sharding_to_json(spec)}
                for pattern, spec in self.rules]


class PolicyShardingRule(ShardingRule):
    """A function ``policy(path, leaf) -> PartitionSpec``. A Python
    function cannot go into the JSON config: ``to_json(inputs)`` evaluates
    it on the named inputs and writes one exact-name rule per input."""

    def __init__(self, policy: Callable[[str, Any], Any]):
        self.policy = policy

    def spec_for(self, path: str, leaf: Any) -> PartitionSpec:
        spec = self.policy(path, leaf)
        return spec if isinstance(spec, PartitionSpec) else PartitionSpec(*(spec or ()))

    def to_json(self, inputs: Mapping[str, Any] | None = None) -> list:
        if inputs is None:
            raise TypeError("PolicyShardingRule.to_json needs the inputs "
                            "({name: array or shape holder}) to evaluate the policy on")
        return [{"regex": "^" + re.escape(path) + "$",
                 "sharding": self.spec_for(path, leaf).to_json()}
                for path, leaf in tree_paths(inputs)]


def rules_to_json(rules: Any, inputs: Mapping[str, Any] | None = None) -> list:
    """The ``sharding_rules`` JSON of a rule, a list of rules, or entries
    that are JSON already (dicts)."""
    if isinstance(rules, ShardingRule):
        return rules.to_json(inputs)
    entries: list = []
    for rule in rules:
        if isinstance(rule, ShardingRule):
            entries += rule.to_json(inputs)
        elif isinstance(rule, Mapping):
            entries.append(dict(rule))
        else:
            raise TypeError(f"expected sharding rules, got {rule!r}")
    return entries


class MeshShardingHelper:
    """The mesh shape every mesh of a pipeline has, and the helpers of
    scalax's ``MeshShardingHelper`` over it.

    Args:
      axis_dims: the size of each axis; one may be -1, inferred from
        ``num_devices``.
      axis_names: the axis names, as many as ``axis_dims``.
      mesh_axis_splitting: accepted for compatibility (virtual devices have
        no physical mesh to split).
      num_devices: the devices of one mesh, needed when an axis is -1.
    """

    def __init__(self, axis_dims: Sequence[int], axis_names: Sequence[str],
                 mesh_axis_splitting: bool = False, num_devices: int | None = None):
        if len(axis_dims) != len(axis_names):
            raise ValueError(f"{len(axis_dims)} axis sizes for {len(axis_names)} axis names")
        if len(set(axis_names)) != len(axis_names):
            raise ValueError(f"axis names must differ: {list(axis_names)}")
        dims = list(axis_dims)
        if dims.count(-1) > 1:
            raise ValueError("at most one axis size may be -1")
        if -1 in dims:
            known = math.prod(size for size in dims if size != -1)
            if num_devices is None or known <= 0 or num_devices % known:
                raise ValueError(f"cannot infer the -1 axis of {dims} from num_devices={num_devices}")
            dims[dims.index(-1)] = num_devices // known
        if any(size < 1 for size in dims):
            raise ValueError(f"axis sizes must be positive: {dims}")
        self.axis_dims = tuple(dims)
        self.axis_names = tuple(axis_names)
        self.mesh_axis_splitting = mesh_axis_splitting

    @property
    def mesh_shape(self) -> dict[str, int]:
        """``{axis: size}``, a mesh of ``make_config``'s topology."""
        return dict(zip(self.axis_names, self.axis_dims))

    def topology(self, mesh_names: Iterable[str]) -> dict[str, dict[str, int]]:
        """A topology of meshes of this shape, in the given pipeline order."""
        return {name: self.mesh_shape for name in mesh_names}

    def _check_spec(self, spec: PartitionSpec) -> PartitionSpec:
        used = [axis for dim in range(len(spec)) for axis in spec.axes_of(dim)]
        unknown = [axis for axis in used if axis not in self.axis_names]
        if unknown:
            raise ValueError(f"{spec!r} names axes {unknown} not in {list(self.axis_names)}")
        if len(set(used)) != len(used):
            raise ValueError(f"{spec!r} uses an axis twice")
        return spec

    def match_sharding_rule(self, sharding_rules: Any, pytree: Any) -> Any:
        """The pytree of ``PartitionSpec`` s that ``sharding_rules`` (a rule,
        a spec, or a pytree of them matching ``pytree``) gives ``pytree``."""
        if isinstance(sharding_rules, ShardingRule):
            specs = sharding_rules.apply(pytree)
        elif isinstance(sharding_rules, PartitionSpec) or sharding_rules is None:
            specs = _tree_map_with_path(lambda path, leaf: sharding_rules or PartitionSpec(), pytree)
        else:
            rule_by_path = dict(tree_paths(sharding_rules))

            def pick(path: str, leaf: Any) -> PartitionSpec:
                if path not in rule_by_path:
                    raise ValueError(f"the sharding pytree has no entry for {path!r}")
                rule = rule_by_path[path]
                if isinstance(rule, ShardingRule):
                    return rule.spec_for(path, leaf)
                return rule if isinstance(rule, PartitionSpec) else PartitionSpec()
            specs = _tree_map_with_path(pick, pytree)
        for _, spec in tree_paths(specs):
            self._check_spec(spec)
        return specs

    def in_shardings_json(self, in_shardings: Sequence[Any], args: Sequence[Any] | None = None) -> list:
        """One config ``in_shardings`` entry per argument: a spec, a
        sharding string, ``None``, or a rule applied to the argument at the
        same position of ``args``."""
        entries = []
        for index, sharding in enumerate(in_shardings):
            if isinstance(sharding, ShardingRule):
                if args is None:
                    raise TypeError("a ShardingRule in in_shardings needs the arguments")
                sharding = sharding.spec_for(str(index), args[index])
            if isinstance(sharding, PartitionSpec):
                self._check_spec(sharding)
            entries.append(_sharding_to_json(sharding))
        return entries

    def sjit(self, program: Any, config: Any, *, in_shardings: Sequence[Any] | None = None,
             out_shardings: Sequence[Any] | None = None,
             annotation_shardings: Mapping[str, Any] | None = None,
             sharding_rules: Any = None, args: Sequence[Any] | None = None):
        """``mpmd.jit(program, config)`` with the shardings added to the
        config: ``in_shardings`` / ``out_shardings`` per input / output of
        ``@main``, ``annotation_shardings`` (named tensor or input name ->
        spec) and ``sharding_rules`` as the config's ``sharding_rules``."""
        import dataclasses

        from mpmd.config import MpmdConfig
        from mpmd.jit import _as_config, jit

        base: MpmdConfig = _as_config(config)
        rules: list = []
        for name, spec in (annotation_shardings or {}).items():
            if isinstance(spec, PartitionSpec):
                self._check_spec(spec)
            rules.append({"regex": "^" + re.escape(name) + "$", "sharding": _sharding_to_json(spec)})
        if sharding_rules is not None:
            rules += rules_to_json(sharding_rules)
        updated = dataclasses.replace(
            base,
            in_shardings=self.in_shardings_json(in_shardings, args) if in_shardings is not None
            else base.in_shardings,
            out_shardings=self.in_shardings_json(out_shardings) if out_shardings is not None
            else base.out_shardings,
            sharding_rules=(base.sharding_rules or []) + rules if rules else base.sharding_rules,
        )
        return jit(program, updated)


def with_sharding_constraint(x: Any, sharding: Any) -> Any:
    """Constrains the sharding of ``x`` where a program is built: under JAX,
    ``jax.lax.with_sharding_constraint`` with the spec (``sdy.sharding_constraint``
    in the exported StableHLO, which our sharding propagation honours). Without
    JAX there is no program being built in Python."""
    try:
        import jax
    except ImportError:
        raise RuntimeError("with_sharding_constraint constrains a value of a program "
                           "being traced by JAX, which is not installed; write "
                           "sdy.sharding_constraint in the StableHLO instead") from None
    spec = sharding if not isinstance(sharding, PartitionSpec) else jax.sharding.PartitionSpec(*sharding)
    return jax.lax.with_sharding_constraint(x, spec)
