#!/usr/bin/python3
"""How steady this machine's cores are: one sgemm thread alone against two
at once, sampled over time.

Pipelining over two meshes on a two-core machine assumes that two device
threads compute as fast as one. On a virtual machine that holds only when
the host gives its two vCPUs two physical cores; when it places them on the
two hyperthreads of one core, each computes at roughly half speed, and the
host can switch between the two placements within a second. This prints,
for each sample (~25 ms), the GFLOP/s of one thread alone and the slower of
two threads running at once (both OpenBLAS sgemm of 128 x 256 x 256 in
NumPy, one BLAS thread each), then a summary: the medians, the share of
samples where two threads ran below 75% of one alone, and how much one
thread's own speed moved. Docs: docs/measurements.md (#how-steady-the-cores-are).

  OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/core_sharing.py [--seconds 10]

Needs NumPy (python3-numpy).
"""

import argparse
import os
import statistics
import sys
import threading
import time

ROWS, INNER, COLUMNS = 128, 256, 256
FLOP = 2 * ROWS * INNER * COLUMNS
# Two threads below this fraction of one thread's speed: they shared a core.
SHARED_BELOW = 0.75


def gflops(numpy, products=40, rounds=4):
    """The fastest of `rounds` timings of products/rounds sgemms, GFLOP/s."""
    lhs = numpy.ones((ROWS, INNER), numpy.float32)
    rhs = numpy.ones((INNER, COLUMNS), numpy.float32)
    out = numpy.empty((ROWS, COLUMNS), numpy.float32)
    best = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(products // rounds):
            numpy.matmul(lhs, rhs, out=out)
        seconds = time.perf_counter() - start
        best = max(best, products // rounds * FLOP / seconds / 1e9)
    return best


def sample(numpy):
    """(one thread alone, the slower of two at once), GFLOP/s. NumPy's
    matmul releases the GIL, so the two threads compute in parallel."""
    alone = gflops(numpy)
    together = [0.0, 0.0]

    def work(index):
        together[index] = gflops(numpy)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return alone, min(together)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    try:
        import numpy
    except ImportError:
        print("skipped: NumPy is not installed (Debian: python3-numpy)")
        return 0
    if os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        print("error: run with OPENBLAS_NUM_THREADS=1 (one BLAS thread per "
              "measuring thread)", file=sys.stderr)
        return 2
    if (os.cpu_count() or 1) < 2:
        print("skipped: one CPU, nothing to share")
        return 0
    samples = []
    deadline = time.monotonic() + args.seconds
    print("alone (GFLOP/s)  two at once, slower  ratio")
    while time.monotonic() < deadline:
        alone, together = sample(numpy)
        samples.append((alone, together))
        print(f"{alone:15.1f}  {together:20.1f}  {together / alone:5.2f}")
    alones = [alone for alone, _ in samples]
    ratios = [together / alone for alone, together in samples]
    shared = sum(ratio < SHARED_BELOW for ratio in ratios)
    print(f"\n{len(samples)} samples over {args.seconds:g} s: one thread "
          f"alone median {statistics.median(alones):.1f} GFLOP/s "
          f"({min(alones):.1f}-{max(alones):.1f}); two at once median "
          f"{statistics.median(ratios):.2f} of alone "
          f"({min(ratios):.2f}-{max(ratios):.2f}); below "
          f"{SHARED_BELOW:.2f} (sharing a core) in {shared} of "
          f"{len(samples)} samples")
    return 0


if __name__ == "__main__":
    sys.exit(main())
