"""NumPy's side of test/Tools/mpmd_run_numpy.mlir.

`write DIR`: saves one array per argument of that test's @main with NumPy
(format versions 1.0, 2.0 and 3.0), and arrays mpmd refuses (Fortran order,
big-endian, objects). `check DIR`: loads DIR/output_<i>.npy,
which mpmd run wrote, and compares each with the array it came from.
"""
import sys

import numpy as np

# (dtype, shape, values): the arguments of @main, in order.
ARRAYS = [
    ("<f8", (2, 3), [0.1, -2.5, 1e300, -0.0, 3.0, 7.25]),
    ("<f4", (2, 3), [0.1, -2.5, 1e30, -0.0, 3.0, 7.25]),
    ("<f2", (3,), [0.1, -2.5, 65504.0]),
    ("|b1", (4,), [True, False, False, True]),
    ("|i1", (3,), [-128, 0, 127]),
    ("<i2", (3,), [-32768, 1, 32767]),
    ("<i4", (2, 2), [-(2**31), -1, 0, 2**31 - 1]),
    ("<i8", (), [-(2**63)]),
    ("|u1", (3,), [0, 1, 255]),
    ("<u2", (3,), [0, 1, 65535]),
    ("<u4", (3,), [0, 1, 2**32 - 1]),
    ("<u8", (3,), [0, 1, 2**64 - 1]),
    # The bf16 argument: values bf16 holds exactly, saved as f4.
    ("<f4", (3,), [0.5, -1.25, 384.0]),
]


def array(index):
    dtype, shape, values = ARRAYS[index]
    return np.array(values, dtype=dtype).reshape(shape)


def write(directory):
    for index in range(len(ARRAYS)):
        version = [(1, 0), (2, 0), (3, 0)][index % 3]
        with open(f"{directory}/input_{index}.npy", "wb") as f:
            np.lib.format.write_array(f, array(index), version=version)
    np.save(f"{directory}/fortran.npy", np.asfortranarray(array(1)))
    np.save(f"{directory}/big_endian.npy", array(1).astype(">f4"))
    np.save(f"{directory}/objects.npy", np.array([1, "a"], dtype=object))


def check(directory):
    for index in range(len(ARRAYS)):
        expected = array(index)
        loaded = np.load(f"{directory}/output_{index}.npy", allow_pickle=False)
        assert loaded.dtype == expected.dtype, (index, loaded.dtype)
        assert loaded.shape == expected.shape, (index, loaded.shape)
        assert np.array_equal(loaded, expected), (index, loaded, expected)
        assert loaded.flags.c_contiguous
    print(f"numpy read {len(ARRAYS)} outputs back unchanged")


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]](sys.argv[2])
