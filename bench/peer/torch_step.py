#!/usr/bin/python3
"""The training steps of `mpmd example mlp|transformer`, written in PyTorch.

What a PyTorch user would write for the same model: eager tensors, autograd,
gradient accumulation over the microbatches (one backward per microbatch, the
gradients summed into `.grad` in microbatch order) and an SGD update
`w - lr * g`. The math is the generated program's (docs/examples.md):

* MLP: h_{i+1} = tanh(h_i w_i), the last layer linear, loss
  0.5 * sum((h_L - y)^2) / B per microbatch, summed.
* transformer: pre-norm blocks, norm (x - mean) / sqrt(var + 1e-5) over the
  width without scale or bias, single-head causal attention with scores
  q k^T / sqrt(D), a residual, a norm and a tanh MLP, a residual; loss
  0.5 * sum((h_L - y)^2) / (B * S) per microbatch, summed.

Inputs are read from the .npy files `mpmd run --inputs` reads (same order:
x, y, then the weights as `@main` takes them), so both sides start from the
same numbers.

  torch_step.py MODEL --inputs DIR --microbatches M --learning-rate LR
                [--threads N] [--repeat R] [--outputs DIR] [--serve]
                [--products-only]

prints `step time: T ms` for the last of R steps (the earlier ones warm the
allocator and the caches, as `mpmd run --repeat` does), and with --outputs
writes the loss and the updated weights of the first step as
DIR/output_<i>.npy, in `@main`'s result order. With --serve it measures
again for every line it reads from stdin. With --products-only (MLP) it
times only the step's matrix products (`MlpProducts`).
"""

import argparse
import os
import sys
import time

try:
    import torch
except ImportError:
    print("skipped: PyTorch is not installed (Debian: python3-torch)")
    sys.exit(0)
import numpy as np

NORM_EPSILON = 1e-5
TRANSFORMER_WEIGHTS_PER_LAYER = 6  # wq, wk, wv, wo, w1, w2


def mlp_loss(x, y, weights, batch):
    h = x
    for w in weights[:-1]:
        h = torch.tanh(h @ w)
    diff = h @ weights[-1] - y
    return (diff * diff).sum() * 0.5 / batch


def norm(x):
    return torch.nn.functional.layer_norm(x, x.shape[-1:], eps=NORM_EPSILON)


def transformer_loss(x, y, weights, batch):
    rows, sequence, dim = x.shape
    scale = 1.0 / (dim ** 0.5)
    causal = torch.ones(sequence, sequence, dtype=torch.bool).tril()
    h = x
    for layer in range(len(weights) // TRANSFORMER_WEIGHTS_PER_LAYER):
        wq, wk, wv, wo, w1, w2 = weights[
            layer * TRANSFORMER_WEIGHTS_PER_LAYER:
            (layer + 1) * TRANSFORMER_WEIGHTS_PER_LAYER]
        n1 = norm(h)
        q, k, v = n1 @ wq, n1 @ wk, n1 @ wv
        scores = (q @ k.transpose(1, 2)) * scale
        scores = scores.masked_fill(~causal, float("-inf"))
        p = torch.softmax(scores, dim=-1)
        g = h + (p @ v) @ wo
        h = g + torch.tanh(norm(g) @ w1) @ w2
    diff = h - y
    return (diff * diff).sum() * 0.5 / (batch * sequence)


LOSSES = {"mlp": mlp_loss, "transformer": transformer_loss}


class MlpProducts:
    """Only the matrix products of the MLP's step, into buffers allocated
    once: per microbatch the forward h_i w_i, and backwards the weight
    gradients summed in place (h_i^T d, a gemm with beta = 1) and the input
    gradients d w_i^T, transposes passed to sgemm as flags. No tanh, loss,
    autograd or allocation: what OpenBLAS alone costs for this step, the
    floor of any framework that calls it (PyTorch and mpmd both do)."""

    def __init__(self, x, weights, microbatches):
        self.weights = [w.detach() for w in weights]
        rows = x.shape[0] // microbatches
        self.inputs = [x[k * rows:(k + 1) * rows] for k in range(microbatches)]
        width = x.shape[1]
        self.activations = [torch.empty(rows, w.shape[1])
                            for w in self.weights]
        self.sums = [torch.zeros_like(w) for w in self.weights]
        self.input_gradients = [torch.empty(rows, width) for _ in range(2)]

    def step(self):
        last = len(self.weights) - 1
        for h in self.inputs:
            layer_inputs = [h] + self.activations[:-1]
            for w, h_in, out in zip(self.weights, layer_inputs,
                                    self.activations):
                torch.mm(h_in, w, out=out)
            d = self.activations[last]  # stands in for the loss gradient
            for i in range(last, -1, -1):
                self.sums[i].addmm_(layer_inputs[i].t(), d)
                if i:
                    out = self.input_gradients[i % 2]
                    torch.mm(d, self.weights[i].t(), out=out)
                    d = out


def training_step(loss_of, x, y, weights, microbatches, learning_rate):
    """Returns the summed loss; updates `weights` in place."""
    batch = x.shape[0]
    rows = batch // microbatches
    for w in weights:
        w.grad = None
    total = None
    for k in range(microbatches):
        loss = loss_of(x[k * rows:(k + 1) * rows], y[k * rows:(k + 1) * rows],
                       weights, batch)
        loss.backward()
        total = loss.detach() if total is None else total + loss.detach()
    with torch.no_grad():
        for w in weights:
            w.sub_(w.grad * learning_rate)
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", choices=sorted(LOSSES))
    parser.add_argument("--inputs", required=True,
                        help="directory of input_<i>.npy: x, y, weights")
    parser.add_argument("--microbatches", type=int, required=True)
    parser.add_argument("--learning-rate", type=float, default=0.01)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--outputs")
    parser.add_argument("--serve", action="store_true",
                        help="measure once per line read from stdin")
    parser.add_argument("--products-only", action="store_true",
                        help="time only the step's matrix products (MLP)")
    args = parser.parse_args()
    if args.products_only and args.model != "mlp":
        parser.error("--products-only is written for the MLP")

    torch.set_num_threads(args.threads)
    count = len([name for name in os.listdir(args.inputs)
                 if name.startswith("input_") and name.endswith(".npy")])
    arrays = [np.load(os.path.join(args.inputs, f"input_{i}.npy"))
              for i in range(count)]
    x, y = torch.from_numpy(arrays[0]), torch.from_numpy(arrays[1])
    initial = [torch.from_numpy(a) for a in arrays[2:]]
    loss_of = LOSSES[args.model]

    def measure(outputs):
        """Runs the step --repeat times; the time of the last run."""
        if args.products_only:
            products = MlpProducts(x, initial, args.microbatches)
            for run in range(args.repeat):
                start = time.perf_counter()
                products.step()
                seconds = time.perf_counter() - start
            print(f"step time: {seconds * 1e3:.3f} ms", flush=True)
            return
        for run in range(args.repeat):
            # Every step starts from the same weights, as `mpmd run --repeat`.
            weights = [w.clone().requires_grad_() for w in initial]
            start = time.perf_counter()
            loss = training_step(loss_of, x, y, weights, args.microbatches,
                                 args.learning_rate)
            seconds = time.perf_counter() - start
            if run == 0 and outputs:
                os.makedirs(outputs, exist_ok=True)
                results = [loss] + [w.detach() for w in weights]
                for i, result in enumerate(results):
                    np.save(os.path.join(outputs, f"output_{i}.npy"),
                            result.numpy())
        print(f"step time: {seconds * 1e3:.3f} ms", flush=True)

    if not args.serve:
        measure(args.outputs)
        return
    # One measurement per line read, so that a runner interleaving this
    # with other processes pays for starting Python and PyTorch once.
    for _ in sys.stdin:
        measure(None)

if __name__ == "__main__":
    main()
