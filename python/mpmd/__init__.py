"""mpmd: MPMD pipeline parallelism for StableHLO programs, from Python.

The API follows upstream Shardy's JAX ``mpmd`` package (``make_config``,
``jit(...).lower(...).compile()``), JaxPP's ``MpmdArray`` and scalax's
sharding helpers, over mpmd's C++ compiler and runtime (every decision is
made in C++; this package converts). Reference: docs/python.md.

Three lines train the example MLP::

    import mpmd
    model = mpmd.examples.mlp(layers=8, width=64, batch=64, microbatches=8, meshes=4)
    step = mpmd.jit(model.program, model.config).lower().compile()
    x, y, *params = step.random_inputs(0)
    for _ in range(5):
        loss, *params = step(x, y, *params)
"""

from mpmd import examples, schedule, sharding, trace
from mpmd.array import MpmdArray, MpmdMesh, MpmdSharding, device_put
from mpmd.config import MpmdConfig, generated_schedule, make_config
from mpmd.errors import (ConfigError, Diagnostic, ExecutionError, InputError, MpmdError,
                         ProgramError)
from mpmd.jit import (FunctionNamedShardings, MpmdCompiled, MpmdJitted, MpmdLowered,
                      NamedSharding, RunInfo, Validation, jit, named_computation)
from mpmd.sharding import PartitionSpec

__all__ = [
    "ConfigError", "Diagnostic", "ExecutionError", "FunctionNamedShardings", "InputError",
    "MpmdArray", "MpmdCompiled", "MpmdConfig", "MpmdError", "MpmdJitted", "MpmdLowered",
    "MpmdMesh", "MpmdSharding", "NamedSharding", "PartitionSpec", "ProgramError", "RunInfo",
    "Validation", "device_put", "examples", "generated_schedule", "jit", "make_config",
    "named_computation", "schedule", "sharding", "trace",
]
