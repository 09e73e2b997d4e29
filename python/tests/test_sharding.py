"""Sharding helpers and the config JSON they write."""

import numpy as np
import pytest

import mpmd
from mpmd.sharding import (FSDPShardingRule, MeshShardingHelper, PartitionSpec,
                           PolicyShardingRule, TreePathShardingRule)


def test_partition_spec_json():
    spec = PartitionSpec("data", None, ("x", "y"))
    assert spec.to_json() == [["data"], None, ["x", "y"]]
    assert PartitionSpec.from_json(spec.to_json()) == spec
    assert PartitionSpec.from_dim_axes([["a"], []], 3) == PartitionSpec("a", None, None)


def test_fsdp_rule():
    params = {"w1": np.zeros((6, 8)), "b": np.zeros(3), "w2": np.zeros((12, 4))}
    specs = FSDPShardingRule("fsdp", fsdp_axis_size=4, min_fsdp_size=8).apply(params)
    assert specs == {"w1": PartitionSpec(None, "fsdp"), "b": PartitionSpec(),
                     "w2": PartitionSpec("fsdp", None)}
    by_power_of_two = FSDPShardingRule("fsdp", min_fsdp_size=1).apply({"w": np.zeros((12, 8))})
    assert by_power_of_two == {"w": PartitionSpec(None, "fsdp")}
    assert FSDPShardingRule(("data", "fsdp"), min_fsdp_size=64).to_json() == [
        {"fsdp": {"axes": ["data", "fsdp"], "min_size": 64}}]


def test_tree_path_rule():
    rule = TreePathShardingRule(("attn/w[qkv]", PartitionSpec(None, "model")),
                                ("mlp/.*", PartitionSpec("model", None)))
    params = {"attn": {"wq": np.zeros((2, 2)), "wk": np.zeros((2, 2))},
              "mlp": [np.zeros((2, 2))]}
    assert rule.apply(params) == {
        "attn": {"wq": PartitionSpec(None, "model"), "wk": PartitionSpec(None, "model")},
        "mlp": [PartitionSpec("model", None)]}
    with pytest.raises(ValueError, match="no sharding rule matches 'embed'"):
        rule.apply({"embed": np.zeros(2)})
    assert TreePathShardingRule(strict=False).apply({"e": np.zeros(2)}) == {"e": PartitionSpec()}
    assert rule.to_json() == [{"regex": "attn/w[qkv]", "sharding": [None, ["model"]]},
                              {"regex": "mlp/.*", "sharding": [["model"], None]}]


def test_policy_rule_json_is_per_input():
    rule = PolicyShardingRule(lambda path, leaf: PartitionSpec("data") if leaf.ndim == 1
                              else PartitionSpec())
    inputs = {"bias": np.zeros(4), "w.0": np.zeros((2, 2))}
    assert rule.to_json(inputs) == [{"regex": "^bias$", "sharding": [["data"]]},
                                    {"regex": r"^w\.0$", "sharding": []}]
    with pytest.raises(TypeError, match="needs the inputs"):
        rule.to_json()


def test_mesh_sharding_helper():
    helper = MeshShardingHelper([-1, 2], ["data", "model"], num_devices=8)
    assert helper.mesh_shape == {"data": 4, "model": 2}
    assert helper.topology(["m0", "m1"]) == {"m0": {"data": 4, "model": 2},
                                             "m1": {"data": 4, "model": 2}}
    with pytest.raises(ValueError, match="cannot infer"):
        MeshShardingHelper([-1, 3], ["data", "model"], num_devices=8)
    params = {"w": np.zeros((8, 8))}
    assert helper.match_sharding_rule(PartitionSpec("data"), params) == {"w": PartitionSpec("data")}
    assert helper.match_sharding_rule({"w": FSDPShardingRule("data", min_fsdp_size=1)},
                                      params) == {"w": PartitionSpec("data", None)}
    with pytest.raises(ValueError, match="not in"):
        helper.match_sharding_rule(PartitionSpec("pipe"), params)


def test_sjit_writes_in_shardings_and_rules(mlp_files):
    program, config = mlp_files
    helper = MeshShardingHelper([1], ["x"])
    jitted = helper.sjit(program, config,
                         in_shardings=[PartitionSpec("x", None), None] + [None] * 8,
                         out_shardings=[PartitionSpec()],
                         annotation_shardings={"cache": PartitionSpec(None, "x")},
                         sharding_rules=[FSDPShardingRule("x", min_fsdp_size=256)])
    written = jitted.config.to_dict()
    assert written["in_shardings"] == [[["x"], None], None] + [None] * 8
    assert written["out_shardings"] == [[]]
    assert written["sharding_rules"] == [
        {"regex": "^cache$", "sharding": [None, ["x"]]},
        {"fsdp": {"axes": ["x"], "min_size": 256}}]
    with pytest.raises(ValueError, match="not in"):
        helper.sjit(program, config, in_shardings=[PartitionSpec("data")])


def test_make_config_takes_rules_and_specs():
    config = mpmd.make_config({"m0": {"data": 2}}, {}, in_shardings=[PartitionSpec("data"), None],
                              sharding_rules=TreePathShardingRule(("w.*", PartitionSpec("data"))))
    assert config.to_dict()["in_shardings"] == [[["data"]], None]
    assert config.to_dict()["sharding_rules"] == [{"regex": "w.*", "sharding": [["data"]]}]


def test_with_sharding_constraint_needs_jax():
    import importlib.util

    if importlib.util.find_spec("jax") is None:
        with pytest.raises(RuntimeError, match="traced by JAX"):
            mpmd.sharding.with_sharding_constraint(np.zeros(2), PartitionSpec("data"))
