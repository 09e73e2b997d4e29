"""JAX functions into mpmd: ``mpmd.jit(function)`` and
``mpmd.named_computation``. JAX cannot be installed on the machines CI runs
on, so a stand-in ``jax`` module plays its part: ``jax.jit(f)`` records the
name it jits under and ``.lower(*args).as_text()`` returns the StableHLO
JAX prints for a two-layer step whose layers are jitted functions. What is
checked is ours: the name handed to JAX, the arguments traced, and that the
printed program pipelines over the meshes of the assignment and computes
what it should."""

import sys
import types

import numpy as np
import pytest

import mpmd

# What `jax.jit(step).lower(x).as_text()` prints when `step` calls two
# functions made by mpmd.named_computation(..., name="layer_0"/"layer_1").
JAX_PRINTED_STEP = """
module @jit_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32> {jax.result_info = "result"}) {
    %0 = call @layer_0(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = call @layer_1(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    return %1 : tensor<4x4xf32>
  }
  func.func private @layer_0(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
  func.func private @layer_1(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}
"""


class StandInJax(types.ModuleType):
    """``jax.jit`` recording the function names it jits; the lowered text is
    JAX_PRINTED_STEP, and the shapes it was traced with are kept."""

    def __init__(self):
        super().__init__("jax")
        self.jitted_names = []
        self.traced_shapes = []

    def jit(self, function):
        self.jitted_names.append(function.__name__)
        jax = self

        class Jitted:
            def __call__(self, *args, **kwargs):
                return function(*args, **kwargs)

            def lower(self, *args):
                jax.traced_shapes.append([np.shape(arg) for arg in args])
                return types.SimpleNamespace(
                    as_text=lambda dialect: JAX_PRINTED_STEP if dialect == "stablehlo" else "")

        return Jitted()


@pytest.fixture
def stand_in_jax(monkeypatch):
    jax = StandInJax()
    monkeypatch.setitem(sys.modules, "jax", jax)
    return jax


def test_named_computation_jits_under_its_name(stand_in_jax):
    def double(x):
        """Doubles."""
        return 2 * x

    layer = mpmd.named_computation(double, name="layer_0")
    assert layer.__doc__ == "Doubles." and layer.__name__ == "double"
    assert stand_in_jax.jitted_names == []  # nothing is jitted before a call
    assert layer(3) == 6 and layer(4) == 8
    assert stand_in_jax.jitted_names == ["layer_0"]  # jitted once, under the name


def test_named_computation_needs_a_name_and_jax(monkeypatch):
    with pytest.raises(ValueError, match="non-empty name"):
        mpmd.named_computation(lambda x: x, name="")
    monkeypatch.setitem(sys.modules, "jax", None)  # import jax fails
    layer = mpmd.named_computation(lambda x: x, name="layer_0")
    with pytest.raises(mpmd.ProgramError, match="'layer_0' was called without JAX"):
        layer(1)


def test_jit_of_a_function_pipelines_what_jax_prints(stand_in_jax):
    def step(x):
        return x  # the stand-in prints JAX_PRINTED_STEP whatever it traces

    config = mpmd.make_config({"m0": {"x": 1}, "m1": {"x": 1}},
                              {"layer_0": "m0", "layer_1": "m1"})
    x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(4, 4)
    lowered = mpmd.jit(step, config).lower(x)
    assert stand_in_jax.jitted_names == ["step"]
    assert stand_in_jax.traced_shapes == [[(4, 4)]]
    text = lowered.as_text()
    assert 'mpmd.fragment_call<mesh="m0", origin=["layer_0"]>' in text
    assert 'mpmd.fragment_call<mesh="m1", origin=["layer_1"]>' in text
    result = lowered.compile()(x)
    np.testing.assert_allclose(np.asarray(result), np.tanh(x) ** 2, rtol=1e-6)
