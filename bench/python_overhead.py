"""The overhead of calling a compiled step from Python vs `mpmd run` in C++.

Both sides run the same program (the example MLP training step of
`mpmd example mlp`, compiled with its config) on the same seeded inputs,
and both time one call of the executor's run: `mpmd run --repeat N` prints
the wall time per run around `Executable::run`; Python times
`compiled(*args)` (argument conversion, the run, wrapping the outputs as
MpmdArrays). Blocks of N runs alternate between the two (interleaved, so
that load from other processes hits both alike); the ratio of the medians
of the per-block means, and of the minima, is the Python overhead. A third
row times the extension's run alone (`_mpmd.Compiled.run` on the tensors,
no conversion or wrapping) in the same process: the cost of the Python
layer without the difference between two processes.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py \\
        [--blocks 10] [--runs 50] [--layers 16 --width 64 --batch 64 \\
         --microbatches 8 --meshes 4]
"""

import argparse
import pathlib
import re
import statistics
import subprocess
import tempfile
import time

import numpy as np

import mpmd

REPO = pathlib.Path(__file__).resolve().parents[1]


def cli_block(mpmd_bin: str, program: str, config: str, runs: int) -> tuple[float, float]:
    """(mean, min) wall µs per run of `mpmd run --repeat runs`."""
    output = subprocess.run([mpmd_bin, "run", program, "--config", config, "--random-inputs",
                             "0", "--repeat", str(runs), "--quiet"],
                            check=True, capture_output=True, text=True).stdout
    match = re.search(r"wall time per run: mean ([0-9.]+) us, min ([0-9.]+) us", output)
    return float(match.group(1)), float(match.group(2))


def python_block(step, args, runs: int) -> tuple[float, float]:
    """(mean, min) wall µs per call of `step(*args)`."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        step(*args)
        times.append((time.perf_counter() - start) * 1e6)
    return statistics.fmean(times), min(times)


def raw_block(step, args, runs: int) -> tuple[float, float]:
    """(mean, min) wall µs per call of the extension's run alone."""
    tensors = [a.tensor_for_mesh(mesh) for a, mesh in zip(args, step._input_meshes)]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        step._compiled.run(tensors, None)
        times.append((time.perf_counter() - start) * 1e6)
    return statistics.fmean(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=10)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--layers", type=int, default=16)
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--microbatches", type=int, default=8)
    parser.add_argument("--meshes", type=int, default=4)
    parser.add_argument("--mpmd", default=str(REPO / "build" / "bin" / "mpmd"))
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as directory:
        program, config = f"{directory}/mlp.mlir", f"{directory}/mlp.json"
        subprocess.run([args.mpmd, "example", "mlp", "--layers", str(args.layers), "--width",
                        str(args.width), "--batch", str(args.batch), "--microbatches",
                        str(args.microbatches), "--meshes", str(args.meshes), "-o", program,
                        "--config-out", config], check=True)
        step = mpmd.jit(program, config).lower().compile()
        arrays = step.random_inputs(0)  # the inputs of --random-inputs 0
        numpy_args = [np.array(a) for a in arrays]
        python_block(step, arrays, 3)  # warm the buffer pool, as --repeat's first runs do

        rows = {"cli": [], "extension run alone": [], "python (MpmdArray args)": [],
                "python (numpy args)": []}
        for _ in range(args.blocks):
            rows["cli"].append(cli_block(args.mpmd, program, config, args.runs))
            rows["extension run alone"].append(raw_block(step, arrays, args.runs))
            rows["python (MpmdArray args)"].append(python_block(step, arrays, args.runs))
            rows["python (numpy args)"].append(python_block(step, numpy_args, args.runs))

    print(f"MLP {args.layers} layers, width {args.width}, batch {args.batch}, "
          f"{args.microbatches} microbatches, {args.meshes} meshes; "
          f"{args.blocks} interleaved blocks of {args.runs} runs")
    cli_mean = statistics.median(mean for mean, _ in rows["cli"])
    cli_min = min(minimum for _, minimum in rows["cli"])
    for name, blocks in rows.items():
        mean = statistics.median(m for m, _ in blocks)
        minimum = min(m for _, m in blocks)
        print(f"{name:26s} median of block means {mean:9.1f} us ({mean / cli_mean:.3f} x cli), "
              f"min {minimum:9.1f} us ({minimum / cli_min:.3f} x cli)")


if __name__ == "__main__":
    main()
