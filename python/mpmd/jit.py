"""``mpmd.jit``: compile and run a program with a configuration.

The stages mirror upstream's ``mpmd.jit(f, config).lower(*args).compile()``:

* ``jit(program, config)`` -> ``MpmdJitted``; ``program`` is StableHLO text,
  a path to it, or (when JAX is installed) a JAX function;
* ``.lower(*args)`` -> ``MpmdLowered``: the program through import,
  optimize, sharding propagation and export (``as_text()``,
  ``function_named_shardings``, ``summary()``);
* ``.compile()`` -> ``MpmdCompiled``: a callable taking NumPy arrays or
  ``MpmdArray`` s and returning ``MpmdArray`` s, run on the MPMD executor
  (one virtual device per device of the topology).

All the work is the C++ driver's (``mpmd/Driver/Session.h``); failures raise
``mpmd.MpmdError`` subclasses carrying the diagnostics.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from typing import Any, Callable, Sequence

import numpy as np

from mpmd import _mpmd
from mpmd.array import MpmdArray, MpmdMesh, MpmdSharding, numpy_dtype
from mpmd.config import MpmdConfig
from mpmd.errors import InputError, ProgramError
from mpmd.sharding import PartitionSpec

__all__ = [
    "jit",
    "MpmdJitted",
    "MpmdLowered",
    "MpmdCompiled",
    "NamedSharding",
    "FunctionNamedShardings",
    "RunInfo",
    "Validation",
]

PHASES = ("import", "optimize", "sharding-propagation", "export")


@dataclasses.dataclass(frozen=True)
class NamedSharding:
    """Where an input or output of ``@main`` lives: its mesh, its spec in
    the mesh, the ``#sdy.sharding`` text and the memory kind (None: device
    memory)."""

    mesh: str
    spec: PartitionSpec
    text: str
    memory_kind: str | None = None


@dataclasses.dataclass(frozen=True)
class FunctionNamedShardings:
    """The ``NamedSharding`` of every input and output of ``@main``."""

    input_shardings: list[NamedSharding]
    output_shardings: list[NamedSharding]


@dataclasses.dataclass(frozen=True)
class Validation:
    """The comparison of a run with the unpartitioned program."""

    passed: bool
    report: str

    def __bool__(self) -> bool:
        return self.passed


def _as_config(config: Any) -> MpmdConfig:
    """An ``MpmdConfig`` from one, a JSON dict, JSON text or a path."""
    if isinstance(config, MpmdConfig):
        return config
    if isinstance(config, dict):
        return MpmdConfig.from_dict(config)
    if isinstance(config, os.PathLike):
        return MpmdConfig.from_file(config)
    if isinstance(config, str):
        if config.lstrip().startswith("{"):
            return MpmdConfig.from_json(config)
        return MpmdConfig.from_file(config)
    raise TypeError(f"expected an MpmdConfig, a dict, JSON text or a path, got {type(config).__name__}")


def _is_program_text(program: str) -> bool:
    return "\n" in program or "{" in program


def _trace_with_jax(function: Callable, args: Sequence[Any]) -> str:
    try:
        import jax
    except ImportError:
        raise ProgramError(
            "mpmd.jit got a Python function: tracing it needs JAX, which is not "
            "installed; pass StableHLO text or a path to it instead") from None
    lowered = jax.jit(function).lower(*args)
    return lowered.as_text(dialect="stablehlo")


def named_computation(function: Callable, *, name: str) -> Callable:
    """Labels ``function`` as the named computation ``name`` of a JAX
    program that ``mpmd.jit`` traces.

    Calling the result runs ``jax.jit`` of ``function`` under the name
    ``name``. JAX prints such a call in the traced program as a private
    function ``@name`` called from ``@main`` (and its backward as
    ``@"transpose(jvp(name))"``), which the import pass
    ``-mpmd-calls-to-named-computations`` turns into
    ``mpmd.named_computation<"name">`` and ``"name"(1)``: the names a
    configuration's assignment places on meshes. The model needs no other
    mpmd code.

    Args:
      function: what the computation computes (JAX-traceable).
      name: its name in the assignment, e.g. ``"layer_0"``.

    Raises:
      ValueError: ``name`` is empty.
      ProgramError: the result is called without JAX installed.

    Example::

      layer = mpmd.named_computation(lambda x, w: jnp.tanh(x @ w), name="layer_0")
    """
    if not isinstance(name, str) or not name:
        raise ValueError("named_computation needs a non-empty name")

    def renamed(*args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    renamed.__name__ = renamed.__qualname__ = name
    jitted = None

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        nonlocal jitted
        if jitted is None:
            try:
                import jax
            except ImportError:
                raise ProgramError(
                    f"mpmd.named_computation '{name}' was called without JAX: it "
                    "labels a function of a JAX program (install JAX, or write the "
                    "StableHLO with mpmd.named_computation ops)") from None
            jitted = jax.jit(renamed)
        return jitted(*args, **kwargs)

    return call


def _specs_of(specs: list) -> list[tuple[tuple[int, ...], str]]:
    return [(tuple(shape), dtype) for shape, dtype in specs]


def _check_args(args: Sequence[Any], specs: list, what: str) -> None:
    """The arguments of ``lower``: shapes and dtypes of ``@main``'s inputs."""
    if len(args) != len(specs):
        raise InputError(f"{what} takes {len(specs)} argument(s), got {len(args)}")
    for index, (arg, (shape, dtype)) in enumerate(zip(args, specs)):
        arg_shape = tuple(getattr(arg, "shape", np.shape(arg)))
        arg_dtype = getattr(arg, "dtype", None)
        expected = numpy_dtype(dtype)
        if arg_shape != tuple(shape) or (arg_dtype is not None and expected != "bfloat16"
                                         and np.dtype(arg_dtype) != expected):
            raise InputError(f"argument {index}: expected {tuple(shape)} {expected}, "
                             f"got {arg_shape} {arg_dtype}")


class MpmdJitted:
    """A program and a configuration, ready to lower (``jit``'s result)."""

    def __init__(self, program: Any, config: Any, keep_phase_texts: bool = False):
        self._source = program
        self.config = _as_config(config)
        self._keep_phase_texts = keep_phase_texts
        self._program = None if callable(program) else self._parse(program)
        self._compiled: MpmdCompiled | None = None

    @staticmethod
    def _parse(program: Any) -> "_mpmd.Program":
        if isinstance(program, os.PathLike):
            return _mpmd.Program.read_file(os.fspath(program))
        if isinstance(program, str):
            if _is_program_text(program):
                return _mpmd.Program.parse(program, "<program>")
            return _mpmd.Program.read_file(program)
        raise TypeError(f"expected StableHLO text, a path or a JAX function, got {type(program).__name__}")

    def lower(self, *args: Any) -> "MpmdLowered":
        """Lowers the program: import -> optimize -> sharding propagation ->
        export. ``args`` (arrays, or anything with ``shape`` and ``dtype``)
        are checked against ``@main``'s inputs; a JAX function is traced
        with them."""
        program = self._program
        if program is None:
            program = _mpmd.Program.parse(_trace_with_jax(self._source, args), "<jax>")
        if args:
            _check_args(args, program.input_specs(), "@main")
        lowered = program.lower(self.config._parsed(), self._keep_phase_texts)
        return MpmdLowered(program, lowered, self.config)

    def __call__(self, *args: Any) -> Any:
        """Lowers and compiles on first use (the executable is kept), then
        runs on ``args``."""
        if self._compiled is None:
            self._compiled = self.lower(*args).compile()
        return self._compiled(*args)


def jit(program: Any, config: Any, *, keep_phase_texts: bool = False) -> MpmdJitted:
    """Prepares ``program`` for MPMD compilation with ``config``.

    Args:
      program: StableHLO text (a module with ``@main``), a path to a
        ``.mlir`` file, or, when JAX is installed, a JAX function (traced by
        ``lower(*args)``).
      config: an ``MpmdConfig`` (``mpmd.make_config``), its JSON dict or
        text, or a path to a JSON config (the file ``mpmd compile --config``
        reads).
      keep_phase_texts: keep the IR after each phase for
        ``MpmdLowered.as_text(phase)``.

    Returns:
      An ``MpmdJitted``: ``.lower(*args)`` then ``.compile()``, or call it
      directly.

    Raises:
      ProgramError: the program does not parse (the diagnostics carry file,
        line and message).
      ConfigError: the configuration is invalid (when it is used).

    Example::

      step = mpmd.jit(text, mpmd.make_config({"m0": {"x": 1}, "m1": {"x": 1}},
                                             {"layer_0": "m0", "layer_1": "m1"}))
      compiled = step.lower().compile()
      loss, *params = compiled(x, y, *params)
    """
    return MpmdJitted(program, config, keep_phase_texts)


class MpmdLowered:
    """A lowered program (upstream's ``MpmdLowered``)."""

    def __init__(self, program: "_mpmd.Program", lowered: "_mpmd.Lowered", config: MpmdConfig):
        self._program = program
        self._lowered = lowered
        self.config = config

    def as_text(self, phase: str = "export") -> str:
        """The IR after ``phase``: ``"export"`` (the MPMD program that runs),
        or ``"import"``, ``"optimize"``, ``"sharding-propagation"`` when
        lowered with ``keep_phase_texts``."""
        return self._lowered.as_text(phase)

    @property
    def function_named_shardings(self) -> FunctionNamedShardings:
        """Mesh, spec and memory kind of every input and output of ``@main``."""
        def convert(entries: list) -> list[NamedSharding]:
            return [NamedSharding(entry["mesh"],
                                  PartitionSpec.from_dim_axes(entry["dim_axes"], entry["rank"]),
                                  entry["text"], entry["memory_kind"])
                    for entry in entries]
        return FunctionNamedShardings(convert(self._lowered.input_shardings()),
                                      convert(self._lowered.output_shardings()))

    def summary(self) -> str:
        """Per mesh: fragment calls, functions, transfers and reserved
        memory; then the sharding of each input and output (``mpmd compile
        --summary``)."""
        return self._lowered.summary()

    def compile(self) -> "MpmdCompiled":
        """The executable: a callable over NumPy arrays and ``MpmdArray`` s."""
        return MpmdCompiled(self._program, self._lowered, self.config)


@dataclasses.dataclass
class RunInfo:
    """One run of a compiled step: its outputs and what was measured."""

    outputs: tuple
    step_us: float
    _run: Any = dataclasses.field(repr=False)

    def chrome_trace(self) -> str:
        """The run as Chrome trace-event JSON (``mpmd run --trace``)."""
        return self._run.chrome_trace()

    def write_trace(self, path: str | os.PathLike) -> None:
        with open(path, "w") as file:
            file.write(self._run.chrome_trace())

    def summary(self) -> str:
        """Busy and bubble share and peak memory per device, the replay of
        the measured step times and the schedule simulator's prediction
        (``mpmd run --summary``)."""
        return self._run.summary()

    def predict(self):
        """The schedule simulator fed with this run's mean costs per action
        kind (ms): an ``mpmd.schedule.SimulationResult``."""
        from mpmd.schedule import SimulationResult

        return SimulationResult._from_dict(self._run.predict(), title="predicted")


class MpmdCompiled:
    """A compiled MPMD program: call it with one argument per input of
    ``@main`` (NumPy arrays or ``MpmdArray`` s); it returns one
    ``MpmdArray`` per output (a tuple, or the array when there is one)."""

    def __init__(self, program: "_mpmd.Program", lowered: "_mpmd.Lowered", config: MpmdConfig):
        self._program = program
        self._compiled = lowered.compile()
        self.config = config
        compiled = self._compiled
        self.mesh = MpmdMesh(compiled.mesh_names)
        self.input_specs = _specs_of(compiled.input_specs)
        self.output_specs = _specs_of(compiled.output_specs)

        def shardings(entries: list, meshes: list) -> list[MpmdSharding]:
            return [MpmdSharding(self.mesh, mesh,
                                 PartitionSpec.from_dim_axes(entry["dim_axes"], entry["rank"]),
                                 entry["memory_kind"])
                    for entry, mesh in zip(entries, meshes)]
        self.input_shardings = shardings(lowered.input_shardings(), compiled.input_meshes)
        self.output_shardings = shardings(lowered.output_shardings(), compiled.output_meshes)
        self._input_meshes = list(compiled.input_meshes)

    def _tensors(self, args: Sequence[Any]) -> list:
        meshes = self._input_meshes
        return [arg.tensor_for_mesh(meshes[index]) if isinstance(arg, MpmdArray) else arg
                for index, arg in enumerate(args)] if len(args) == len(meshes) else list(args)

    def run(self, *args: Any, device_memory_bytes: int | None = None) -> RunInfo:
        """Runs once and returns the outputs with the run's measurements
        (trace, summary, prediction). ``device_memory_bytes`` caps each
        device's memory (a program that exceeds it is refused)."""
        run = self._compiled.run(self._tensors(args), device_memory_bytes)
        outputs = tuple(MpmdArray._wrap(tensor, sharding)
                        for tensor, sharding in zip(run.outputs, self.output_shardings))
        return RunInfo(outputs, run.step_us, run)

    def __call__(self, *args: Any) -> Any:
        """Runs once on ``args`` (one per input of ``@main``: NumPy arrays,
        copied once, or ``MpmdArray`` s, passed without a copy) and returns
        the outputs as ``MpmdArray`` s on their meshes: a tuple, or the
        array when ``@main`` has one result."""
        run = self._compiled.run(self._tensors(args), None)
        wrap = MpmdArray._wrap
        outputs = tuple(wrap(tensor, sharding)
                        for tensor, sharding in zip(run.outputs, self.output_shardings))
        return outputs[0] if len(outputs) == 1 else outputs

    def random_inputs(self, seed: int) -> list[MpmdArray]:
        """The inputs ``mpmd run --random-inputs SEED`` uses, on their meshes."""
        tensors = _mpmd.random_inputs(seed, [(list(shape), dtype) for shape, dtype in self.input_specs])
        return [MpmdArray._wrap(tensor, sharding)
                for tensor, sharding in zip(tensors, self.input_shardings)]

    def validate(self, *args: Any, outputs: Sequence[Any] | None = None,
                 tolerance: float | None = None) -> Validation:
        """Runs the unpartitioned program on one device (the interpreter)
        on ``args`` and compares with ``outputs`` (a run of this step on
        ``args`` when not given), as ``mpmd run --validate``: normwise
        relative error within ``tolerance`` (default per dtype)."""
        tensors = [arg if isinstance(arg, _mpmd.Tensor) else
                   arg.tensor_for_mesh(0) if isinstance(arg, MpmdArray) else
                   _mpmd.Tensor.from_array(arg, "bf16" if dtype == "bf16" else None)
                   for arg, (_, dtype) in zip(args, self.input_specs)]
        if len(tensors) != len(args):
            raise InputError(f"@main takes {len(self.input_specs)} argument(s), got {len(args)}")
        if outputs is None:
            outputs = self._compiled.run(tensors, None).outputs
        else:
            outputs = [out.tensor_for_mesh(out.mpmd_idxs[0]) if isinstance(out, MpmdArray)
                       else _mpmd.Tensor.from_array(out) for out in outputs]
        passed, report = self._program.validate(tensors, list(outputs), tolerance)
        return Validation(passed, report)
