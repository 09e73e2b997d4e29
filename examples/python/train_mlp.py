"""Trains the example MLP for a few steps, pipelined over 4 meshes.

The training step (forward, backward, gradient accumulation over
microbatches, SGD update) is the program `mpmd example mlp` writes; mpmd
compiles it with 1F1B over meshes m0..m3 and runs it on 4 virtual devices.
The updated weights of one step are the next step's inputs: they stay the
executor's buffers (MpmdArrays), never copied through NumPy.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/train_mlp.py [--steps N]
"""

import argparse

import numpy as np

import mpmd


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--layers", type=int, default=8)
    parser.add_argument("--width", type=int, default=32)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--microbatches", type=int, default=8)
    parser.add_argument("--meshes", type=int, default=4)
    parser.add_argument("--schedule", default="1F1B")
    parser.add_argument("--learning-rate", type=float, default=0.05)
    args = parser.parse_args()

    model = mpmd.examples.mlp(args.layers, args.width, args.batch, args.microbatches,
                              args.meshes, learning_rate=args.learning_rate,
                              schedule=args.schedule)
    step = mpmd.jit(model.program, model.config).lower().compile()

    # A learnable task: the targets are a fixed linear map of the inputs;
    # weights start small (scaled by 1/sqrt(width)) so that tanh is not saturated.
    rng = np.random.default_rng(0)
    x = rng.standard_normal((args.batch, args.width)).astype(np.float32)
    teacher = rng.standard_normal((args.width, args.width)).astype(np.float32) / np.sqrt(args.width)
    y = np.tanh(x @ teacher)
    params = [(rng.standard_normal((args.width, args.width)) / np.sqrt(args.width)).astype(np.float32)
              for _ in range(args.layers)]

    print(f"{args.layers}-layer MLP, width {args.width}, batch {args.batch} in "
          f"{args.microbatches} microbatches, {args.schedule} over meshes "
          f"{', '.join(step.mesh.mesh_names)}")
    for index in range(args.steps):
        loss, *params = step(x, y, *params)
        print(f"step {index}: loss {float(loss):.6f}")
    print(f"weights: {params[0]!r}")


if __name__ == "__main__":
    main()
