#!/usr/bin/env python3
"""Collectives and matmul FLOPs per device of one SPMD training step.

Generates `mpmd example transformer` (or mlp) with the given mesh shape and
sharding, compiles it with `mpmd compile`, and reads the partitioned
fragment functions of the exported module: per collective kind the count
and the bytes of its per-device operands, and the dot_general FLOPs of one
device, each weighted by how often @main calls the function. Counts, not
times: they do not depend on the load of the machine, so they show what a
partitioning change does where 2-device timings cannot (issue 13's tp
target). Linear in the size of the module text.

usage: bench/spmd_collectives.py BUILD_DIR [--model transformer|mlp]
           [--mesh-shape model=2] [--sharding tp] [--layers L --seq S
           --dim D --ffn F --batch B --microbatches M] [--per-function]
"""
import argparse
import collections
import math
import os
import re
import subprocess
import tempfile

COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all",
               "collective_permute", "collective_broadcast")
FUNCTION = re.compile(r"^  func\.func (?:private )?@([\w.$-]+)\(", re.M)
CALL = re.compile(r"mpmd\.fragment_call<[^>]*> @([\w.$-]+)\(")
# The first line of a collective (generic form), and the type that ends it:
# on that line, or on the line closing its region (all_reduce,
# reduce_scatter).
COLLECTIVE = re.compile(r'"stablehlo\.(' + "|".join(COLLECTIVES) + r')"\(')
TYPE = re.compile(r" : \((tensor<[^>]*>)\) -> (tensor<[^>]*>)$")
DOT = re.compile(
    r"stablehlo\.dot_general [^\n]*?contracting_dims = \[([0-9, ]*)\] x "
    r"[^\n]*: \((tensor<[^>]*>), tensor<[^>]*>\) -> (tensor<[^>]*>)")
ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i32": 4,
                 "i64": 8, "ui32": 4, "i1": 1}


def parse_tensor(text):
    """tensor<32x32xf32> -> ([32, 32], 'f32')."""
    parts = text[len("tensor<"):-1].split("x")
    return [int(d) for d in parts[:-1]], parts[-1]


def tensor_bytes(text):
    dims, element = parse_tensor(text)
    return math.prod(dims) * ELEMENT_BYTES[element]


def split_functions(module):
    """{name: body text} of every function of the module."""
    starts = [(m.start(), m.group(1)) for m in FUNCTION.finditer(module)]
    bodies = {}
    for i, (start, name) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(module)
        bodies[name] = module[start:end]
    return bodies


def count_function(body):
    """(collectives {kind: [count, bytes]}, dot FLOPs) of one body."""
    collectives = collections.defaultdict(lambda: [0, 0])
    lines = body.splitlines()
    for index, line in enumerate(lines):
        match = COLLECTIVE.search(line)
        if not match:
            continue
        end = index
        if line.endswith("({"):
            while not lines[end].lstrip().startswith("})"):
                end += 1
        typed = TYPE.search(lines[end])
        if not typed:
            raise ValueError(f"cannot read the type of: {line.strip()}")
        entry = collectives[match.group(1)]
        entry[0] += 1
        entry[1] += tensor_bytes(typed.group(1))
    flops = 0
    for match in DOT.finditer(body):
        lhs, _ = parse_tensor(match.group(2))
        result, _ = parse_tensor(match.group(3))
        contracted = math.prod(
            lhs[int(d)] for d in match.group(1).split(",") if d.strip())
        flops += 2 * math.prod(result) * contracted
    return collectives, flops


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--model", default="transformer")
    parser.add_argument("--mesh-shape", default="model=2")
    parser.add_argument("--sharding", default="tp")
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--seq", type=int, default=32)
    parser.add_argument("--dim", type=int, default=256)
    parser.add_argument("--ffn", type=int, default=1024)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--microbatches", type=int, default=1)
    parser.add_argument("--per-function", action="store_true",
                        help="also list each fragment function")
    args = parser.parse_args()
    mpmd = os.path.join(args.build, "bin", "mpmd")
    sizes = ["--layers", str(args.layers), "--batch", str(args.batch),
             "--microbatches", str(args.microbatches)]
    if args.model == "transformer":
        sizes += ["--seq", str(args.seq), "--dim", str(args.dim),
                  "--ffn", str(args.ffn)]
    with tempfile.TemporaryDirectory() as work:
        model = os.path.join(work, "model.mlir")
        config = os.path.join(work, "config.json")
        exported = os.path.join(work, "exported.mlir")
        subprocess.run([mpmd, "example", args.model, *sizes, "--meshes", "1",
                        "--mesh-shape", args.mesh_shape, "--sharding",
                        args.sharding, "-o", model, "--config-out", config],
                       check=True)
        subprocess.run([mpmd, "compile", model, "--config", config, "-o",
                        exported, "--quiet"], check=True)
        with open(exported) as file:
            module = file.read()
    bodies = split_functions(module)
    calls = collections.Counter(CALL.findall(bodies.get("main", "")))
    total = collections.defaultdict(lambda: [0, 0])
    total_flops = 0
    print(f"{args.model} {args.mesh_shape} --sharding {args.sharding}, "
          f"L={args.layers} B={args.batch} M={args.microbatches}"
          + (f" S={args.seq} D={args.dim} F={args.ffn}"
             if args.model == "transformer" else "")
          + ": per device and step")
    for name, count in calls.items():
        collectives, flops = count_function(bodies[name])
        total_flops += count * flops
        for kind, (number, size) in collectives.items():
            total[kind][0] += count * number
            total[kind][1] += count * size
        if args.per_function:
            listed = ", ".join(f"{kind} {number} ({size / 2**20:.3f} MiB)"
                               for kind, (number, size)
                               in sorted(collectives.items()))
            print(f"  @{name} x{count}: {flops / 1e9:.3f} GFLOP; "
                  f"{listed or 'no collectives'}")
    print("| collective | count | operand bytes |")
    print("|---|---|---|")
    for kind in COLLECTIVES:
        if kind in total:
            number, size = total[kind]
            print(f"| {kind} | {number} | {size / 2**20:.3f} MiB |")
    print(f"matmul FLOPs per device: {total_flops / 1e9:.3f} GFLOP")


if __name__ == "__main__":
    main()
