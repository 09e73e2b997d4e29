#!/usr/bin/python3
"""mpmd against PyTorch on the same training steps, side by side.

For each model of the table in docs/measurements.md (#mpmd-vs-pytorch):
writes the step with `mpmd example` for one and for two meshes, writes one
set of inputs as .npy (x and y uniform in [-1, 1), weights normal with
standard deviation 1/sqrt(fan-in), seeded), checks that mpmd (1 and 2
meshes) and PyTorch (torch_step.py) compute the same loss and the same
weight updates from them, then times ROUNDS interleaved rounds: in each
round every configuration (mpmd on 1 mesh, PyTorch with 1 thread, mpmd on 2
meshes with 1F1B, PyTorch with 2 threads; for the MLPs also the step's
matrix products alone, the OpenBLAS floor both sides share) runs once, in
a shuffled order,
mpmd as a fresh process (`mpmd run --repeat REPEAT`), PyTorch as a request
to a process started once per configuration (`torch_step.py --serve`):
both run the step REPEAT times and report the last. Prints the medians and the
ratios (PyTorch time / mpmd time: above 1, mpmd is faster), and the median
of mpmd's measured / replay ratio on 2 meshes (`mpmd run --summary`: the
step against the replay of its own fragment times; above 1 is waiting).

  /usr/bin/python3 bench/peer/run.py [--build build] [--rounds 11]
      [--repeat 3] [--models mlp-8x512,mlp-16x128,transformer-4x128]
      [--check-only] [--keep DIR]

Needs NumPy; without PyTorch it prints why it skips and exits 0. Exit code 3
when the results differ beyond the tolerances, 1 when a run fails.
"""

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PYTHON = sys.executable or "/usr/bin/python3"

# Normwise relative error max|a - b| / max|b| allowed between mpmd and
# PyTorch: for the loss, and for each weight's update w - w_new (both are
# f32 computations of the same math in a different operation order).
LOSS_TOLERANCE = 1e-5
UPDATE_TOLERANCE = 1e-5
SEED = 2026
# The SGD step of both sides: with 1, w - w_new is the gradient itself, so the
# check compares gradients rather than the weights' rounding (the time of a
# step does not depend on it).
LEARNING_RATE = 1.0


class Model:
    def __init__(self, name, kind, title, sizes):
        self.name, self.kind, self.title, self.sizes = name, kind, title, sizes

    def example_args(self):
        return [arg for key, value in self.sizes.items()
                for arg in (f"--{key}", str(value))]

    def input_shapes(self):
        s = self.sizes
        if self.kind == "mlp":
            act = (s["batch"], s["width"])
            return [act, act] + [(s["width"], s["width"])] * s["layers"]
        act = (s["batch"], s["seq"], s["dim"])
        d, f = s["dim"], s["ffn"]
        layer = [(d, d)] * 4 + [(d, f), (f, d)]
        return [act, act] + layer * s["layers"]


MODELS = [
    Model("mlp-8x512", "mlp", "MLP 8 × 512, batch 1024, 8 microbatches",
          {"layers": 8, "width": 512, "batch": 1024, "microbatches": 8}),
    Model("mlp-16x128", "mlp", "MLP 16 × 128, batch 256, 8 microbatches",
          {"layers": 16, "width": 128, "batch": 256, "microbatches": 8}),
    Model("transformer-4x128", "transformer",
          "transformer 4 blocks, 128 wide, 64 × 32 tokens",
          {"layers": 4, "seq": 32, "dim": 128, "ffn": 512, "batch": 64,
           "microbatches": 8}),
]

# (label, side, meshes or threads)
CONFIGS = [("mpmd, 1 mesh", "mpmd", 1), ("PyTorch, 1 thread", "torch", 1),
           ("mpmd, 2 meshes (1F1B)", "mpmd", 2),
           ("PyTorch, 2 threads", "torch", 2)]

# The MLP step's matrix products alone (torch_step.py --products-only): the
# OpenBLAS work both sides pay for, so the floor of each one's step.
PRODUCTS = ("OpenBLAS products alone, 1 thread", "products", 1)

STEP_TIME = re.compile(r"step time: ([0-9.]+) ms")
# `mpmd run --summary`: the measured step against the replay of its own
# fragment and copy times (issue 18 asks for <= 1.05).
REPLAY_RATIO = re.compile(r"measured/replay ([0-9.]+)")


class RunFailed(Exception):
    pass


def run(command, env=None):
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RunFailed(f"{' '.join(command)} exited with {done.returncode}:"
                        f"\n{done.stdout}{done.stderr}")
    return done.stdout


class TorchWorker:
    """A `torch_step.py --serve` process: one measurement per request, so
    that Python and PyTorch start once, not once per sample."""

    def __init__(self, command, env):
        self.command = command
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True,
                                        env=env)

    def measure(self):
        self.process.stdin.write("step\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RunFailed(f"{' '.join(self.command)} stopped (exit code "
                            f"{self.process.wait()})")
        return line

    def close(self):
        self.process.stdin.close()
        self.process.wait()


class Workspace:
    """The programs, configs and inputs of one model."""

    def __init__(self, model, mpmd, directory):
        import numpy as np
        self.model, self.mpmd = model, mpmd
        self.workers = {}
        self.directory = os.path.join(directory, model.name)
        self.inputs = os.path.join(self.directory, "inputs")
        os.makedirs(self.inputs)
        for meshes in (1, 2):
            run([mpmd, "example", model.kind, *model.example_args(),
                 "--meshes", str(meshes), "--learning-rate", str(LEARNING_RATE),
                 "-o", self.program(meshes),
                 "--config-out", self.config(meshes)])
        rng = np.random.default_rng(SEED)
        self.input_paths = []
        for index, shape in enumerate(model.input_shapes()):
            if index < 2:
                value = rng.uniform(-1, 1, shape)
            else:
                value = rng.standard_normal(shape) / np.sqrt(shape[0])
            path = os.path.join(self.inputs, f"input_{index}.npy")
            np.save(path, value.astype(np.float32))
            self.input_paths.append(path)

    def program(self, meshes):
        return os.path.join(self.directory, f"model_{meshes}.mlir")

    def config(self, meshes):
        return os.path.join(self.directory, f"config_{meshes}.json")

    def command(self, side, count, repeat, outputs=None):
        """The command of one configuration, and its environment."""
        if side == "mpmd":
            command = [self.mpmd, "run", self.program(count), "--config",
                       self.config(count), "--inputs",
                       ",".join(self.input_paths), "--repeat", str(repeat),
                       "--summary", "--quiet"]
            env = None
        else:
            # PyTorch's step, or (side "products") only its matrix products.
            command = [PYTHON, os.path.join(HERE, "torch_step.py"),
                       self.model.kind, "--inputs", self.inputs,
                       "--microbatches", str(self.model.sizes["microbatches"]),
                       "--learning-rate", str(LEARNING_RATE),
                       "--threads", str(count), "--repeat", str(repeat)]
            if side == "products":
                command.append("--products-only")
            env = dict(os.environ, OMP_NUM_THREADS=str(count),
                       OPENBLAS_NUM_THREADS=str(count))
        if outputs:
            command += ["--outputs", outputs]
        return command, env

    def time_step(self, side, count, repeat):
        """The step time in ms, and for mpmd its measured / replay ratio."""
        if side == "mpmd":
            output = run(*self.command(side, count, repeat))
        else:
            output = self.torch_worker(side, count, repeat).measure()
        match = STEP_TIME.search(output)
        if not match:
            raise RunFailed(f"no step time in the output of {side}:\n{output}")
        replay = REPLAY_RATIO.search(output) if side == "mpmd" else None
        return float(match.group(1)), float(replay.group(1)) if replay else None

    def torch_worker(self, side, threads, repeat):
        key = (side, threads, repeat)
        if key not in self.workers:
            command, env = self.command(side, threads, repeat)
            self.workers[key] = TorchWorker(command + ["--serve"], env)
        return self.workers[key]

    def close(self):
        for worker in self.workers.values():
            worker.close()

    def check(self):
        """The largest loss and update errors of mpmd against PyTorch."""
        import numpy as np

        def outputs(side, count):
            directory = os.path.join(self.directory, f"out_{side}_{count}")
            run(*self.command(side, count, 1, outputs=directory))
            return [np.load(os.path.join(directory, f"output_{i}.npy"))
                    .astype(np.float64)
                    for i in range(len(self.input_paths) - 1)]

        def normwise(actual, expected):
            scale = np.max(np.abs(expected))
            return np.max(np.abs(actual - expected)) / scale if scale else \
                np.max(np.abs(actual))

        initial = [np.load(path).astype(np.float64)
                   for path in self.input_paths[2:]]
        reference = outputs("torch", 1)
        errors = []
        for meshes in (1, 2):
            ours = outputs("mpmd", meshes)
            loss_error = normwise(ours[0], reference[0])
            update_error = max(
                normwise(w - new, w - expected)
                for w, new, expected in zip(initial, ours[1:], reference[1:]))
            errors.append((meshes, float(reference[0]), float(ours[0]),
                           loss_error, update_error))
        return errors


def format_ms(value):
    return f"{value:.1f} ms" if value >= 10 else f"{value:.2f} ms"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="the build directory (default: build/)")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=3,
                        help="steps per process; the last is timed")
    parser.add_argument("--models", default=",".join(m.name for m in MODELS))
    parser.add_argument("--check-only", action="store_true",
                        help="only compare the results")
    parser.add_argument("--keep", help="write the programs and inputs here "
                                       "and keep them")
    args = parser.parse_args()

    try:
        import numpy  # noqa: F401
    except ImportError:
        print("skipped: NumPy is not installed (Debian: python3-numpy)")
        return 0
    probe = subprocess.run([PYTHON, "-c", "import torch"],
                           capture_output=True)
    if probe.returncode != 0:
        print("skipped: PyTorch is not installed for " + PYTHON +
              " (Debian: python3-torch)")
        return 0
    mpmd = os.path.join(args.build, "bin", "mpmd")
    if not os.access(mpmd, os.X_OK):
        print(f"error: {mpmd} not found; build it first (scripts/build.sh "
              "mpmd)", file=sys.stderr)
        return 2
    by_name = {m.name: m for m in MODELS}
    unknown = [n for n in args.models.split(",") if n not in by_name]
    if unknown:
        print(f"error: unknown model(s) {', '.join(unknown)}; expected "
              f"{', '.join(by_name)}", file=sys.stderr)
        return 2
    models = [by_name[n] for n in args.models.split(",")]

    directory = args.keep or tempfile.mkdtemp(prefix="mpmd-peer-")
    workspaces = []
    try:
        for model in models:
            workspaces.append(Workspace(model, mpmd, directory))
        mismatch = False
        print("results against PyTorch (normwise relative errors; loss "
              f"tolerance {LOSS_TOLERANCE:g}, update tolerance "
              f"{UPDATE_TOLERANCE:g}):")
        for workspace in workspaces:
            for meshes, torch_loss, loss, loss_error, update_error in \
                    workspace.check():
                ok = loss_error <= LOSS_TOLERANCE and \
                    update_error <= UPDATE_TOLERANCE
                mismatch |= not ok
                print(f"  {workspace.model.name}, {meshes} mesh(es): loss "
                      f"{loss:.7g} (PyTorch {torch_loss:.7g}), loss error "
                      f"{loss_error:.2e}, largest update error "
                      f"{update_error:.2e} {'ok' if ok else 'MISMATCH'}")
        if mismatch:
            return 3
        if args.check_only:
            return 0

        print(f"load before: {os.getloadavg()[0]:.2f}", flush=True)
        def configs(workspace):
            return CONFIGS + ([PRODUCTS] if workspace.model.kind == "mlp"
                              else [])

        samples = {(w.model.name, c[0]): [] for w in workspaces
                   for c in configs(w)}
        replays = {key: [] for key in samples}
        jobs = [(w, c) for w in workspaces for c in configs(w)]
        shuffle = random.Random(SEED)
        started = time.time()
        for round_index in range(args.rounds):
            shuffle.shuffle(jobs)
            for workspace, (label, side, count) in jobs:
                step, replay = workspace.time_step(side, count, args.repeat)
                samples[(workspace.model.name, label)].append(step)
                if replay is not None:
                    replays[(workspace.model.name, label)].append(replay)
            print(f"round {round_index + 1}/{args.rounds} "
                  f"({time.time() - started:.0f} s, load "
                  f"{os.getloadavg()[0]:.2f})", file=sys.stderr, flush=True)
        print(f"load after: {os.getloadavg()[0]:.2f}")

        print(f"\nmedians of {args.rounds} interleaved rounds (spread: "
              "lowest-highest); ratio = PyTorch / mpmd\n")
        print("| model | " + " | ".join(c[0] for c in CONFIGS) +
              " | 1 mesh vs 1 thread | 2 meshes vs 2 threads | "
              "2 meshes vs 1 mesh | 2 meshes: measured / replay |")
        print("|---" * (len(CONFIGS) + 5) + "|")
        for workspace in workspaces:
            name = workspace.model.name
            median = {c[0]: statistics.median(samples[(name, c[0])])
                      for c in CONFIGS}
            cells = [f"{format_ms(median[c[0]])} "
                     f"({min(samples[(name, c[0])]):.1f}–"
                     f"{max(samples[(name, c[0])]):.1f})" for c in CONFIGS]
            one = median["PyTorch, 1 thread"] / median["mpmd, 1 mesh"]
            two = median["PyTorch, 2 threads"] / \
                median["mpmd, 2 meshes (1F1B)"]
            pipeline = median["mpmd, 1 mesh"] / median["mpmd, 2 meshes (1F1B)"]
            replay = replays[(name, "mpmd, 2 meshes (1F1B)")]
            replay_cell = f"{statistics.median(replay):.2f}" if replay else "–"
            print(f"| {workspace.model.title} | " + " | ".join(cells) +
                  f" | **{one:.2f}×** | **{two:.2f}×** | {pipeline:.2f}× | "
                  f"{replay_cell} |")

        floors = [w for w in workspaces if (w.model.name, PRODUCTS[0])
                  in samples]
        if floors:
            print("\nthe floor: the step's matrix products alone (OpenBLAS "
                  "through PyTorch, 1 thread, torch_step.py "
                  "--products-only); each side over it, medians of the "
                  "per-round ratios\n")
            print("| model | products alone | mpmd, 1 mesh / products | "
                  "PyTorch, 1 thread / products | ≥ 1.15× needs mpmd / "
                  "products ≤ |")
            print("|---" * 5 + "|")
        for workspace in floors:
            name = workspace.model.name
            floor = samples[(name, PRODUCTS[0])]

            def over_floor(label):
                return statistics.median(
                    step / products for step, products
                    in zip(samples[(name, label)], floor))
            ours = over_floor("mpmd, 1 mesh")
            theirs = over_floor("PyTorch, 1 thread")
            print(f"| {workspace.model.title} | "
                  f"{format_ms(statistics.median(floor))} | {ours:.3f} | "
                  f"{theirs:.3f} | {theirs / 1.15:.3f} |")
        return 0
    except RunFailed as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        for workspace in workspaces:
            workspace.close()
        if not args.keep:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
