#!/usr/bin/env python3
"""Times -mpmd-sharding-propagation-pipeline against parse+verify+print.

For each layer count, generates a program (8 microbatches, 4 meshes), gives
its meshes a 2-device axis "x", batch-shards the input and FSDP-shards every
weight over "x" (config `in_shardings` and `sharding_rules`), compiles it to
get the IR the sharding-propagation phase reads (--dump-dir
02-optimize.mlir), then times, interleaved, `mpmd-opt` on that IR without
passes (parse, verify, print) and with the pipeline. Prints the median of
--repeat runs of each and their ratio (pipeline alone / parse+verify+print).

usage: bench/sharding_propagation.py BUILD_DIR [LAYERS ...] [--repeat N]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(args, **kwargs):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, **kwargs)


def timed(args):
    start = time.perf_counter()
    run(args)
    return time.perf_counter() - start


def main():
    argv = sys.argv[1:]
    repeat = 3
    if "--repeat" in argv:
        index = argv.index("--repeat")
        repeat = int(argv[index + 1])
        del argv[index:index + 2]
    build, layer_counts = argv[0], [int(n) for n in argv[1:]] or [64, 512, 4096]
    bin_dir = os.path.join(build, "bin")
    with tempfile.TemporaryDirectory() as work:
        print("| layers | IR lines | parse+verify+print | pipeline | ratio |")
        print("|---|---|---|---|---|")
        for layers in layer_counts:
            model = os.path.join(work, f"l{layers}.mlir")
            config_path = os.path.join(work, f"l{layers}.json")
            with open(model, "w") as out:
                subprocess.run([os.path.join(bin_dir, "mpmd-generate-program"),
                                "--layers", str(layers), "--microbatches", "8",
                                "--meshes", "4", "--config", config_path],
                               check=True, stdout=out)
            # The program carries the topology too.
            with open(model) as f:
                text = f.read().replace('["x"=1]', '["x"=2]')
            with open(model, "w") as f:
                f.write(text)
            with open(config_path) as f:
                config = json.load(f)
            for mesh in config["topology"]:
                mesh[1] = [["x", 2]]
            config["in_shardings"] = [[["x"], None]]
            config["sharding_rules"] = [{"fsdp": "x"}]
            with open(config_path, "w") as f:
                json.dump(config, f)
            dump = os.path.join(work, f"l{layers}")
            run([os.path.join(bin_dir, "mpmd"), "compile", model, "--config",
                 config_path, "-o", os.path.join(work, "out.mlir"),
                 "--dump-dir", dump, "--quiet"])
            ir = os.path.join(dump, "02-optimize.mlir")
            with open(ir) as f:
                lines = sum(1 for _ in f)
            opt = [os.path.join(bin_dir, "mpmd-opt"), ir, "-o", os.devnull,
                   "--verify-each=false"]
            base, full = [], []
            for _ in range(repeat):
                base.append(timed(opt))
                full.append(timed(opt + ["-mpmd-sharding-propagation-pipeline"]))
            b, f = statistics.median(base), statistics.median(full)
            print(f"| {layers} | {lines} | {b:.3f} s | {f - b:.3f} s | "
                  f"{(f - b) / b:.2f} |")


if __name__ == "__main__":
    main()
