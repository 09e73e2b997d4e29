#!/usr/bin/env python3
"""Speed-up of SPMD inside one mesh: the transformer step on one device
against the same step on a mesh of two devices, tensor parallel (model=2,
--sharding tp), tensor and sequence parallel (model=2, --sharding tp+sp) and
data parallel (data=2, --sharding dp).

Each variant is `mpmd example transformer --meshes 1` with the given mesh
shape, run by `mpmd run --config ... --repeat R --summary` (fresh process,
the first runs warm the buffer pool); the variants are interleaved ROUNDS
times so load changes hit all of them alike. Prints, per variant, the median
over rounds of the fastest run and the speed-up over one device (issue 13
asks for >= 1.6x on a 2-core machine). Run it on an otherwise idle machine.

usage: bench/spmd_speedup.py BUILD_DIR [--rounds N] [--repeat R]
                             [--layers L --seq S --dim D --ffn F --batch B]
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile

VARIANTS = [
    ("1 device", "x=1", "none"),
    ("tp, model=2", "model=2", "tp"),
    ("tp+sp, model=2", "model=2", "tp+sp"),
    ("dp, data=2", "data=2", "dp"),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--seq", type=int, default=32)
    parser.add_argument("--dim", type=int, default=256)
    parser.add_argument("--ffn", type=int, default=1024)
    parser.add_argument("--batch", type=int, default=32)
    args = parser.parse_args()
    mpmd = os.path.join(args.build, "bin", "mpmd")
    fastest = {name: [] for name, _, _ in VARIANTS}
    with tempfile.TemporaryDirectory() as work:
        programs = {}
        for name, shape, sharding in VARIANTS:
            model = os.path.join(work, f"{sharding}.mlir")
            config = os.path.join(work, f"{sharding}.json")
            subprocess.run(
                [mpmd, "example", "transformer", "--layers", str(args.layers),
                 "--seq", str(args.seq), "--dim", str(args.dim),
                 "--ffn", str(args.ffn), "--batch", str(args.batch),
                 "--microbatches", "1", "--meshes", "1",
                 "--mesh-shape", shape, "--sharding", sharding,
                 "-o", model, "--config-out", config], check=True)
            programs[name] = (model, config)
        for _ in range(args.rounds):
            for name, _, _ in VARIANTS:
                model, config = programs[name]
                out = subprocess.run(
                    [mpmd, "run", model, "--config", config,
                     "--random-inputs", "1", "--repeat", str(args.repeat),
                     "--summary", "--quiet"],
                    check=True, capture_output=True, text=True).stdout
                match = re.search(r"wall time per run: mean [0-9.]+ us, "
                                  r"min ([0-9.]+) us", out)
                fastest[name].append(float(match.group(1)) / 1000)
    base = statistics.median(fastest[VARIANTS[0][0]])
    print(f"transformer L={args.layers} S={args.seq} D={args.dim} "
          f"F={args.ffn} B={args.batch}, median over {args.rounds} rounds "
          f"of the fastest of {args.repeat} runs")
    print("| variant | step | speed-up over 1 device |")
    print("|---|---|---|")
    for name, _, _ in VARIANTS:
        step = statistics.median(fastest[name])
        print(f"| {name} | {step:.1f} ms | {base / step:.2f}x |")


if __name__ == "__main__":
    main()
