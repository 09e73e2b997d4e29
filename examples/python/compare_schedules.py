"""Simulates pipeline schedules on the same pipeline and saves a PNG of
their timelines, one above the other on a shared time axis, with their
makespans, bubbles and peak activations printed.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/compare_schedules.py \\
        [-o /tmp/schedules.png] [--meshes 4] [--microbatches 8]
"""

import argparse

import mpmd


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default="/tmp/mpmd-schedules.png")
    parser.add_argument("--meshes", type=int, default=4)
    parser.add_argument("--microbatches", type=int, default=8)
    parser.add_argument("--schedules", default="GPipe:1,1F1B:1,Interleaved1F1B:2,ZB-H1:1,ZB-V:2",
                        help="NAME:STAGES_PER_MESH,...")
    args = parser.parse_args()

    # The same model on every schedule: with v stages per mesh, a stage holds
    # 1/v of a mesh's layers, so its actions take 1/v of the time. A
    # backward (input and weight gradients) costs twice a forward; the
    # zero-bubble schedules split it into B and W.
    results = []
    for entry in args.schedules.split(","):
        name, stages_per_mesh = entry.split(":")
        v = int(stages_per_mesh)
        costs = mpmd.schedule.Costs(forward=1.0 / v, backward=1.0 / v,
                                    weight_gradient=1.0 / v, transfer=0.05)
        result = mpmd.schedule.simulate(name, args.meshes, args.microbatches, costs=costs,
                                        stages_per_mesh=v)
        results.append(result)
        print(f"{result.title:32s} makespan {result.makespan:6.2f}  "
              f"bubble {100 * result.total_bubble_fraction:5.1f}%  "
              f"peak activations {result.peak_activations}")
    mpmd.schedule.plot_comparison(results, args.output)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
