"""make_config and MpmdConfig against the JSON config the CLI reads."""

import json

import pytest

import mpmd


def test_cli_config_round_trips(mlp_files):
    _, config_path = mlp_files
    original = json.loads(config_path.read_text())
    config = mpmd.MpmdConfig.from_file(config_path)
    assert config.to_dict() == original
    assert mpmd.MpmdConfig.from_json(config.to_json()) == config
    assert config.mesh_names == ["m0", "m1", "m2", "m3"]


def test_make_config_writes_the_cli_json(mlp_files):
    _, config_path = mlp_files
    original = json.loads(config_path.read_text())
    assignment = {name: entry["mesh"] for name, entry in original["assignment"].items()}
    stages = {name: entry["stage"] for name, entry in original["assignment"].items()}
    config = mpmd.make_config(
        {"m0": {"x": 1}, "m1": {"x": 1}, "m2": {"x": 1}, "m3": {"x": 1}}, assignment,
        name_to_stage_assignment=stages, pipeline_schedule="1F1B",
        partitioning_options={"mpmd_infer_transfers": True})
    assert config.to_dict() == original


def test_every_field_is_written_as_docs_config_md_says():
    config = mpmd.make_config(
        [("m0", [("data", 2), ("model", 4)]), ("m1", {"data": 2, "model": 4})],
        {"layer1": "m0", "layer2": "m1", "cache": "m1#pinned_host"},
        name_to_stage_assignment={"layer2": 1},
        input_mesh_assignment={0: "m0", 2: "m1"},
        output_mesh_assignment=[None, "m1#pinned_host"],
        pipeline_schedule=mpmd.generated_schedule("ZB-V"),
        fragment_merge_rules=["FragmentMergeRule(sources=[],target=FragmentInfo(origins=[]))"],
        partitioning_options={"mpmd_infer_transfers": True})
    assert config.to_dict() == {
        "topology": [["m0", [["data", 2], ["model", 4]]], ["m1", [["data", 2], ["model", 4]]]],
        "assignment": {"layer1": "m0", "layer2": {"mesh": "m1", "stage": 1},
                       "cache": "m1#pinned_host"},
        "input_assignment": ["m0", None, "m1"],
        "output_assignment": [None, "m1#pinned_host"],
        "schedule": {"generated": "ZB-V"},
        "merge_rules": ["FragmentMergeRule(sources=[],target=FragmentInfo(origins=[]))"],
        "partitioning_options": {"mpmd_infer_transfers": True},
    }


def test_the_cpp_parser_validates(tmp_path):
    good = mpmd.make_config({"m0": {"x": 2}}, {"a": "m0"}, pipeline_schedule="GPipe")
    assert good.validate() is good
    with pytest.raises(mpmd.ConfigError, match=r'config.assignment.a: unknown mesh "m9"'):
        mpmd.make_config({"m0": {"x": 2}}, {"a": "m9"}).validate()
    with pytest.raises(mpmd.ConfigError, match="config.partitioning_options.mpmd_nonsense"):
        mpmd.make_config({"m0": {"x": 2}}, {},
                         partitioning_options={"mpmd_nonsense": True}).validate()
    with pytest.raises(mpmd.ConfigError, match=r"config.topology\[0\]"):
        mpmd.make_config({"m0": {"x": 0}}, {}).validate()


def test_a_planned_config_keeps_its_prediction(mlp_files):
    _, config_path = mlp_files
    planned = json.loads(config_path.read_text())
    planned["plan"] = {"step_seconds": 0.0125, "description": "1F1B, 4 meshes"}
    config = mpmd.MpmdConfig.from_dict(planned)
    assert config.plan == planned["plan"]
    assert config.to_dict() == planned


def test_bad_json_and_unknown_fields():
    with pytest.raises(mpmd.ConfigError, match="invalid JSON"):
        mpmd.MpmdConfig.from_json("{")
    with pytest.raises(mpmd.ConfigError, match="unknown field"):
        mpmd.MpmdConfig.from_dict({"topology": [], "meshes": []})


def test_a_python_config_compiles_as_the_cli_does(mlp_files, cli, tmp_path):
    program, config_path = mlp_files
    config = mpmd.MpmdConfig.from_file(config_path)
    saved = tmp_path / "saved.json"
    config.save(saved)
    exported = tmp_path / "out.mlir"
    cli("compile", program, "--config", saved, "-o", exported)
    lowered = mpmd.jit(program, config).lower()
    assert lowered.as_text() == exported.read_text()


def test_mesh_device_ids_pass_through_and_are_checked():
    config = mpmd.make_config(
        [("m0", {"x": 2}, {"device_ids": [1, 0]}), ("m1", {"x": 2})], {"a": "m0"})
    assert config.to_dict()["topology"] == [
        ["m0", [["x", 2]], {"device_ids": [1, 0]}], ["m1", [["x", 2]]]]
    assert config.validate() is config
    assert mpmd.MpmdConfig.from_json(config.to_json()) == config
    with pytest.raises(mpmd.ConfigError,
                       match=r'config.topology\[0\]\[2\].device_ids\[1\]: device id 1 of mesh "m0" is given twice'):
        mpmd.make_config([("m0", {"x": 2}, {"device_ids": [1, 1]})], {}).validate()
