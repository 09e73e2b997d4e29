"""``MpmdArray``: an array that lives on some meshes of an MPMD topology.

Semantics follow JaxPP's ``MpmdArray``: ``mpmd_idxs`` are the meshes (by
position in the topology) that hold the array, ``spec`` says how it is
sharded inside each of them, ``is_mpmd_replicated`` when several meshes hold
it, and ``to_mpmd_local_array`` / ``numpy.asarray`` give its data.

The data are the runtime's tensors (one per mesh that holds the array),
shared, never copied: the results of a compiled step hold the buffers the
executor produced, and passing them to the next step hands the same buffers
back. Meshes run replicated today, so each mesh holds the whole tensor; the
per-mesh slot is where real shards will go.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from mpmd import _mpmd
from mpmd.sharding import PartitionSpec

__all__ = ["MpmdMesh", "MpmdSharding", "MpmdArray", "device_put"]

_NUMPY_DTYPES = {
    "f64": np.dtype(np.float64), "f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
    "i1": np.dtype(np.bool_), "i8": np.dtype(np.int8), "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32), "i64": np.dtype(np.int64), "ui8": np.dtype(np.uint8),
    "ui16": np.dtype(np.uint16), "ui32": np.dtype(np.uint32), "ui64": np.dtype(np.uint64),
}


def numpy_dtype(name: str) -> np.dtype | str:
    """The NumPy dtype of a runtime dtype name; ``"bfloat16"`` for bf16,
    which NumPy lacks (its values read as float32)."""
    return _NUMPY_DTYPES.get(name, "bfloat16")


class MpmdMesh:
    """The meshes of a topology, in pipeline order (JaxPP's ``MpmdMesh``)."""

    def __init__(self, mesh_names: Sequence[str], mesh_shapes: Sequence[dict] | None = None):
        self.mesh_names = tuple(mesh_names)
        self.mesh_shapes = tuple(mesh_shapes) if mesh_shapes is not None else None

    @classmethod
    def from_config(cls, config: Any) -> "MpmdMesh":
        from mpmd.jit import _as_config

        parsed = _as_config(config)
        return cls([name for name, _ in parsed.topology],
                   [dict(axes) for _, axes in parsed.topology])

    @property
    def mpmd_dim(self) -> int:
        return len(self.mesh_names)

    def index(self, mesh_name: str) -> int:
        try:
            return self.mesh_names.index(mesh_name)
        except ValueError:
            raise ValueError(f"unknown mesh {mesh_name!r}; meshes: {list(self.mesh_names)}") from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MpmdMesh) and self.mesh_names == other.mesh_names

    def __hash__(self) -> int:
        return hash(self.mesh_names)

    def __repr__(self) -> str:
        return f"MpmdMesh({list(self.mesh_names)})"


class MpmdSharding:
    """Where an ``MpmdArray`` lives: the meshes ``mesh_ids`` of ``mpmd_mesh``
    and the ``spec`` inside each (JaxPP's ``MpmdSharding``)."""

    __slots__ = ("mpmd_mesh", "mesh_ids", "spec", "memory_kind")

    def __init__(self, mpmd_mesh: MpmdMesh, mesh_ids: Sequence[int] | int,
                 spec: PartitionSpec | None = None, memory_kind: str | None = None):
        ids = (mesh_ids,) if isinstance(mesh_ids, int) else tuple(sorted(set(mesh_ids)))
        if not ids:
            raise ValueError("an MpmdSharding needs at least one mesh")
        for index in ids:
            if not 0 <= index < mpmd_mesh.mpmd_dim:
                raise ValueError(f"mesh index {index} out of range for {mpmd_mesh}")
        self.mpmd_mesh = mpmd_mesh
        self.mesh_ids = ids
        self.spec = spec if spec is not None else PartitionSpec()
        self.memory_kind = memory_kind

    @property
    def mesh_names(self) -> tuple[str, ...]:
        return tuple(self.mpmd_mesh.mesh_names[index] for index in self.mesh_ids)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, MpmdSharding) and self.mpmd_mesh == other.mpmd_mesh
                and self.mesh_ids == other.mesh_ids and self.spec == other.spec
                and self.memory_kind == other.memory_kind)

    def __hash__(self) -> int:
        return hash((self.mpmd_mesh, self.mesh_ids, self.spec, self.memory_kind))

    def __repr__(self) -> str:
        kind = f", memory_kind={self.memory_kind!r}" if self.memory_kind else ""
        return f"MpmdSharding(meshes={list(self.mesh_names)}, spec={self.spec!r}{kind})"


class MpmdArray:
    """An array distributed over one or more meshes of an MPMD topology.

    Construct one from host data with ``MpmdArray(arrays, mpmd_sharding)``
    (one array per mesh of the sharding, or a single array for all of them;
    the data are copied once) or ``mpmd.device_put``; compiled steps return
    them.
    """

    __slots__ = ("_tensors", "_sharding", "_deleted")

    def __init__(self, partially_addressable_arrays: Sequence[Any] | Any,
                 mpmd_sharding: MpmdSharding, shape: Sequence[int] | None = None,
                 dtype: Any = None):
        arrays = (list(partially_addressable_arrays)
                  if isinstance(partially_addressable_arrays, (list, tuple))
                  else [partially_addressable_arrays])
        if len(arrays) == 1 and len(mpmd_sharding.mesh_ids) > 1:
            arrays = arrays * len(mpmd_sharding.mesh_ids)
        if len(arrays) != len(mpmd_sharding.mesh_ids):
            raise ValueError(f"{len(arrays)} arrays for the {len(mpmd_sharding.mesh_ids)} "
                             f"meshes of {mpmd_sharding}")
        tensors = []
        converted: dict[int, _mpmd.Tensor] = {}
        for array in arrays:
            if isinstance(array, _mpmd.Tensor):
                tensors.append(array)
            elif id(array) in converted:
                tensors.append(converted[id(array)])
            else:
                tensor = _mpmd.Tensor.from_array(np.asarray(array, dtype=dtype))
                converted[id(array)] = tensor
                tensors.append(tensor)
        shapes = {tensor.shape for tensor in tensors}
        dtypes = {tensor.dtype for tensor in tensors}
        if len(shapes) != 1 or len(dtypes) != 1:
            raise ValueError(f"the arrays of one MpmdArray differ: shapes {shapes}, dtypes {dtypes}")
        if shape is not None and tuple(shape) != tensors[0].shape:
            raise ValueError(f"shape {tuple(shape)} does not match the data's {tensors[0].shape}")
        self._tensors = tuple(tensors)
        self._sharding = mpmd_sharding
        self._deleted = False

    @classmethod
    def _wrap(cls, tensor: "_mpmd.Tensor", sharding: MpmdSharding) -> "MpmdArray":
        """An array of a run's output tensor (no copy)."""
        array = cls.__new__(cls)
        array._tensors = (tensor,) * len(sharding.mesh_ids)
        array._sharding = sharding
        array._deleted = False
        return array

    # Shape and placement.
    @property
    def shape(self) -> tuple[int, ...]:
        return self._tensors[0].shape

    @property
    def dtype(self) -> np.dtype | str:
        return numpy_dtype(self._tensors[0].dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        size = 1
        for extent in self.shape:
            size *= extent
        return size

    @property
    def nbytes(self) -> int:
        return self._tensors[0].nbytes

    @property
    def spec(self) -> PartitionSpec:
        """How the array is sharded inside each of its meshes."""
        return self._sharding.spec

    @property
    def sharding(self) -> MpmdSharding:
        return self._sharding

    @property
    def mpmd_idxs(self) -> tuple[int, ...]:
        """The meshes (positions in the topology) that hold the array."""
        return self._sharding.mesh_ids

    @property
    def is_mpmd_replicated(self) -> bool:
        """True when more than one mesh holds the array."""
        return len(self._sharding.mesh_ids) > 1

    @property
    def is_partially_addressable(self) -> bool:
        """True when this process holds data of the array: always, with
        every mesh's virtual devices in this process."""
        return not self._deleted

    # Data.
    def _check_alive(self) -> None:
        if self._deleted:
            raise RuntimeError("the MpmdArray was deleted")

    @property
    def to_mpmd_local_array(self) -> np.ndarray | list[np.ndarray] | None:
        """The data on each mesh as read-only NumPy views: one array, or a
        list (one per mesh in ``mpmd_idxs``) when replicated."""
        self._check_alive()
        arrays = [tensor.to_numpy() for tensor in self._tensors]
        return arrays[0] if len(arrays) == 1 else arrays

    @property
    def first_mpmd_replica(self) -> np.ndarray:
        """The data on the first mesh of ``mpmd_idxs``."""
        self._check_alive()
        return self._tensors[0].to_numpy()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        self._check_alive()
        array = self._tensors[0].to_numpy()
        if dtype is not None and np.dtype(dtype) != array.dtype:
            return array.astype(dtype)
        return array.copy() if copy else array

    def tensor_for_mesh(self, mesh_index: int) -> "_mpmd.Tensor":
        """The runtime tensor the mesh ``mesh_index`` holds (the first
        replica's when the array is not on that mesh: placing it there is a
        copy the executor makes)."""
        self._check_alive()
        ids = self._sharding.mesh_ids
        return self._tensors[ids.index(mesh_index)] if mesh_index in ids else self._tensors[0]

    def shares_buffer_with(self, other: "MpmdArray") -> bool:
        """True when both arrays hold the same runtime buffer."""
        return self._tensors[0].shares_buffer_with(other._tensors[0])

    def block_until_ready(self) -> "MpmdArray":
        """Runs are synchronous: the data are ready when a step returns."""
        return self

    def delete(self) -> None:
        """Drops this array's references to its buffers."""
        self._check_alive()
        self._tensors = ()
        self._deleted = True

    def is_deleted(self) -> bool:
        return self._deleted

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d MpmdArray")
        return self.shape[0]

    def __float__(self) -> float:
        return float(np.asarray(self))

    def __int__(self) -> int:
        return int(np.asarray(self))

    def __format__(self, format_spec: str) -> str:
        return format(np.asarray(self) if self.ndim else np.asarray(self).item(), format_spec)

    def __repr__(self) -> str:
        return (f"MpmdArray(shape={self.shape}, dtype={self.dtype}, "
                f"mpmd_idxs={self.mpmd_idxs}, sharding={self._sharding})")


def device_put(array: Any, sharding: MpmdSharding) -> MpmdArray:
    """An ``MpmdArray`` of host data on the meshes of ``sharding``."""
    return MpmdArray(array, sharding)
