"""jit -> lower -> compile -> run, and validation, against the CLI."""

import importlib.util

import numpy as np
import pytest

import mpmd


def test_outputs_equal_mpmd_run(mlp_files, mlp_step, cli, tmp_path):
    program, config = mlp_files
    cli("run", program, "--config", config, "--random-inputs", "7", "--outputs", tmp_path,
        "--quiet")
    outputs = mlp_step(*mlp_step.random_inputs(7))
    assert len(outputs) == 9  # the loss and 8 updated weights
    for index, output in enumerate(outputs):
        expected = np.load(tmp_path / f"output_{index}.npy")
        np.testing.assert_array_equal(np.asarray(output), expected)


def test_validation_against_the_unpartitioned_program(mlp_step):
    args = mlp_step.random_inputs(3)
    validation = mlp_step.validate(*args)
    assert validation.passed and "validation: PASS" in validation.report
    outputs = list(mlp_step(*args))
    outputs[0] = np.asarray(outputs[0]) + np.float32(1.0)
    failed = mlp_step.validate(*args, outputs=outputs)
    assert not failed.passed and "MISMATCH" in failed.report


def test_lowered_stages(mlp_files):
    program, config = mlp_files
    lowered = mpmd.jit(program, config, keep_phase_texts=True).lower()
    for phase in ("import", "optimize", "sharding-propagation"):
        assert "mpmd.fragment" in lowered.as_text(phase)
    assert "mpmd.fragment_call" in lowered.as_text()
    shardings = lowered.function_named_shardings
    assert [s.mesh for s in shardings.input_shardings[2:]] == ["m0", "m0", "m1", "m1", "m2",
                                                               "m2", "m3", "m3"]
    assert shardings.output_shardings[0].mesh == "m3"
    assert shardings.input_shardings[2].spec == mpmd.PartitionSpec(None, None)
    summary = lowered.summary()
    assert summary.startswith("meshes:\n  m0:") and "outputs:\n  0: m3 replicated" in summary
    with pytest.raises(mpmd.ConfigError, match="unknown phase 'parse'"):
        lowered.as_text("parse")
    assert "fragment_call" in mpmd.jit(program, config).lower(
        *mpmd.jit(program, config).lower().compile().random_inputs(0)).as_text()


def test_jit_accepts_text_paths_and_calls(mlp_files):
    program, config = mlp_files
    text = program.read_text()
    step = mpmd.jit(text, config.read_text())
    args = step.lower().compile().random_inputs(1)
    first = step(*args)
    np.testing.assert_array_equal(np.asarray(first[0]), np.asarray(step(*args)[0]))


def test_numpy_inputs_and_wrong_arguments(mlp_files, mlp_step):
    args = [np.asarray(a) for a in mlp_step.random_inputs(0)]
    loss = mlp_step(*args)[0]
    assert loss.shape == () and loss.dtype == np.float32
    with pytest.raises(mpmd.InputError, match="takes 10 inputs, got 1"):
        mlp_step(args[0])
    with pytest.raises(mpmd.InputError,
                       match=r"input 1: expected tensor<32x16xf32>, got tensor<32x16xf64>"):
        mlp_step(args[0], args[1].astype(np.float64), *args[2:])
    program, config = mlp_files
    with pytest.raises(mpmd.InputError, match=r"argument 0: expected \(32, 16\) float32"):
        mpmd.jit(program, config).lower(np.zeros((2, 2), np.float32), *args[1:])


BAD_IR = """module {
  func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
    %0 = stablehlo.add %a, %b : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
"""


def test_bad_ir_raises_with_line_information():
    with pytest.raises(mpmd.ProgramError) as raised:
        mpmd.jit(BAD_IR, {"topology": [["m0", [["x", 1]]]]})
    diagnostic = raised.value.diagnostics[0]
    assert (diagnostic.severity, diagnostic.file, diagnostic.line) == ("error", "<program>", 3)
    assert "undeclared SSA value" in diagnostic.message
    assert "<program>:3:" in str(raised.value)


def test_missing_file_and_jax_functions(tmp_path):
    with pytest.raises(mpmd.ProgramError):
        mpmd.jit(tmp_path / "missing.mlir", {"topology": [["m0", [["x", 1]]]]})
    if importlib.util.find_spec("jax") is None:
        with pytest.raises(mpmd.ProgramError, match="needs JAX"):
            mpmd.jit(lambda x: x, {"topology": [["m0", [["x", 1]]]]}).lower(np.zeros(2))


def test_config_errors_when_lowering(mlp_files):
    program, _ = mlp_files
    config = mpmd.make_config({"m0": {"x": 1}}, {"layer_0": "m0"})
    with pytest.raises(mpmd.ConfigError) as raised:
        mpmd.jit(program, config).lower()
    lines = {d.message: d.line for d in raised.value.diagnostics}
    assert "named computation 'layer_1' is missing from config.assignment" in lines
    assert all(line > 0 for line in lines.values())


def test_runtime_errors_are_exceptions(mlp_step):
    with pytest.raises(mpmd.ExecutionError, match="memory"):
        mlp_step.run(*mlp_step.random_inputs(0), device_memory_bytes=64)


@pytest.mark.parametrize("text, message", [
    ("garbage {", "custom op 'garbage' is unknown"),
    ("module {}\n", "no @main function"),
    ("func.func @main(%a: tensor<99999999999x99999999999xf32>) -> "
     "tensor<99999999999x99999999999xf32> {\n"
     "  return %a : tensor<99999999999x99999999999xf32>\n}\n", "is too large"),
])
def test_bad_programs_are_exceptions(text, message):
    with pytest.raises(mpmd.ProgramError, match=message):
        mpmd.jit(text, {"topology": [["m0", [["x", 1]]]]}).lower()
