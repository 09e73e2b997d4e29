"""MpmdArray: JaxPP's semantics over runtime tensors."""

import numpy as np
import pytest

import mpmd


@pytest.fixture
def mesh():
    return mpmd.MpmdMesh(["m0", "m1", "m2", "m3"])


def test_from_numpy_on_one_mesh(mesh):
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    array = mpmd.MpmdArray(data, mpmd.MpmdSharding(mesh, 2, mpmd.PartitionSpec("x", None)))
    assert array.mpmd_idxs == (2,)
    assert array.shape == (2, 3) and array.dtype == np.float32 and array.ndim == 2
    assert array.spec == mpmd.PartitionSpec("x", None)
    assert not array.is_mpmd_replicated and array.is_partially_addressable
    data[0, 0] = 100  # the array holds a copy
    np.testing.assert_array_equal(np.asarray(array), np.arange(6).reshape(2, 3))
    local = array.to_mpmd_local_array
    assert isinstance(local, np.ndarray) and not local.flags.writeable


def test_replicated_over_meshes(mesh):
    array = mpmd.device_put(np.ones(4, np.int32), mpmd.MpmdSharding(mesh, [3, 0]))
    assert array.mpmd_idxs == (0, 3) and array.is_mpmd_replicated
    locals_ = array.to_mpmd_local_array
    assert len(locals_) == 2
    for local in locals_:
        np.testing.assert_array_equal(local, np.ones(4))
    with pytest.raises(ValueError, match="2 arrays for the 1 meshes"):
        mpmd.MpmdArray([np.ones(2), np.ones(2)], mpmd.MpmdSharding(mesh, 1))
    with pytest.raises(ValueError, match="out of range"):
        mpmd.MpmdSharding(mesh, 4)


def test_delete(mesh):
    array = mpmd.device_put(np.zeros(3, np.float64), mpmd.MpmdSharding(mesh, 0))
    array.delete()
    assert array.is_deleted() and not array.is_partially_addressable
    with pytest.raises(RuntimeError, match="deleted"):
        np.asarray(array)


def test_step_results_feed_the_next_step_without_copies(mlp_step):
    x, y, *params = mlp_step.random_inputs(0)
    loss, *updated = mlp_step(x, y, *params)
    assert [p.mpmd_idxs for p in updated] == [s.mesh_ids for s in mlp_step.input_shardings[2:]]
    assert updated[0].mpmd_idxs == (0,) and updated[-1].mpmd_idxs == (3,)
    assert loss.mpmd_idxs == (3,)
    before = [np.array(p) for p in updated]
    views = [np.asarray(p) for p in updated]
    # The executor receives the arrays' own buffers (passing an MpmdArray
    # hands over its tensor), and never writes into buffers the caller holds.
    tensor = updated[0].tensor_for_mesh(0)
    assert tensor.shares_buffer_with(updated[0].tensor_for_mesh(0))
    again, *_ = mlp_step(x, y, *updated)
    for view, copy in zip(views, before):
        np.testing.assert_array_equal(view, copy)
    assert float(again) != float(loss)


def test_training_lowers_the_loss(mlp_step):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 16)).astype(np.float32)
    y = np.tanh(x @ (rng.standard_normal((16, 16)) / 4)).astype(np.float32)
    params = [(rng.standard_normal((16, 16)) / 4).astype(np.float32) for _ in range(8)]
    losses = []
    for _ in range(4):
        loss, *params = mlp_step(x, y, *params)
        losses.append(float(loss))
    assert losses == sorted(losses, reverse=True) and losses[-1] < losses[0]
