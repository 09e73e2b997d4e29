#!/usr/bin/env python3
"""Plan quality of `mpmd plan` (issue 19): profile -> plan -> compile -> run
against the even splits of `mpmd example` with 1F1B, GPipe and ZB-H1, on the
example transformer with deliberately unbalanced layers (`--ffn` per layer)
and on the example MLP, on two meshes of one device (one per core of a
2-core machine, `mpmd plan --devices 2`).

For each model: `mpmd example` writes the model and the even configs,
`mpmd profile` the costs, `mpmd plan --measure K` the planned config with
its predicted step (the K fastest predicted of its short list compiled and
run, the fastest measured chosen; `--measure 0`: the model's best alone). Each config then runs as `mpmd run --config ... --repeat R --summary`
(a fresh process; the first runs warm the buffer pool), the four configs
interleaved ROUNDS times so that load changes hit all of them alike. Per
config: the median over rounds of the fastest of the R runs' steps; the
ratio planned / best even split is the median of the per-round ratios.
Prints, per model, the measured steps, the ratios, the replay of each
config's measured step times (`mpmd run --summary`: the step its fragment
and copy times allow without the executor's waits, which load inflates
least), the planner's prediction next to the planned config's measured step
and replay, and whether the targets hold:
planned <= best even split (strictly better on the unbalanced model), and
prediction within 10% of the measured step. Then, for the planned config
and the best even split, where the prediction goes wrong: one more run with
a trace, and per fragment (a stage's forward or backward, by mesh) its
measured time per microbatch against the profiled time of its layers (the
named computations of the unpartitioned model; backward: backward, weight
gradient and gradient sums), before and after the calibrated concurrency
slowdown. Run it on an otherwise idle machine; a loaded one inflates the
measured steps, not the predictions.

usage: bench/plan_quality.py BUILD_DIR [--rounds N] [--repeat R] [--measure K]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile

TOPOLOGY = '[["m0", [["x", 1]]], ["m1", [["x", 1]]]]'
# The even splits of `mpmd example --meshes 2`, by their built-in names.
BASELINES = [("even 1F1B", "1F1B"), ("even GPipe", "GPipe"),
             ("even ZB-H1", "ZeroBubbleH1")]
MODELS = [
    # Three wide MLPs in the first half: the even split puts them all on m0.
    ("transformer, unbalanced", "transformer",
     ["--layers", "8", "--seq", "16", "--dim", "64",
      "--ffn", "768,768,768,64,64,64,64,64", "--batch", "16",
      "--microbatches", "8"], True),
    ("MLP", "mlp",
     ["--layers", "8", "--width", "256", "--batch", "128",
      "--microbatches", "8"], False),
]


def run(command):
    return subprocess.run(command, check=True, capture_output=True,
                          text=True).stdout


def measure_ms(mpmd, model, config, repeat):
    """The fastest step of `repeat` runs, and the replay of the last run's
    measured step times (the step the executor's own fragment and copy
    times allow without its waits: what load inflates least)."""
    out = run([mpmd, "run", model, "--config", config, "--random-inputs",
               "1", "--repeat", str(repeat), "--summary", "--quiet"])
    fastest = re.search(r"fastest step of \d+ runs: ([0-9.]+) ms", out)
    replay = re.search(r"replay of the measured step times: ([0-9.]+) (m?s)",
                       out)
    if not fastest or not replay:
        raise RuntimeError("no fastest step or replay in:\n" + out)
    scale = 1 if replay.group(2) == "ms" else 1e-3
    return float(fastest.group(1)), float(replay.group(1)) * scale


def prepare(mpmd, work, name, kind, options, measure):
    """The model, its configs (planned first), the planner's output and the
    cost file."""
    model = os.path.join(work, f"{kind}.mlir")
    configs = []
    for label, schedule in BASELINES:
        config = os.path.join(work, f"{kind}_{schedule}.json")
        run([mpmd, "example", kind, *options, "--meshes", "2",
             "--schedule", schedule, "-o", model, "--config-out", config])
        configs.append((label, config))
    costs = os.path.join(work, f"{kind}_costs.json")
    run([mpmd, "profile", model, "--random-inputs", "1", "-o", costs])
    planned = os.path.join(work, f"{kind}_plan.json")
    printed = run([mpmd, "plan", model, "--costs", costs, "--topology",
                   TOPOLOGY, "--devices", "2", "-o", planned] +
                  (["--measure", str(measure)] if measure else []))
    with open(planned) as file:
        plan = json.load(file)["plan"]
    with open(costs) as file:
        cost_table = json.load(file)
    return model, [("planned", planned)] + configs, printed, plan, cost_table


def profiled_ms(cost_table, fragment, kind):
    """The profiled time per microbatch of a fragment's layers, in ms: the
    forwards for F, else backward (with weight gradient) plus gradient
    sums. The fragment's name lists its layers ('layer_2+layer_3',
    'layer_3(1)+layer_2(1)')."""
    layers = {name.replace("(1)", "") for name in fragment.split("+")}
    total = 0.0
    for cost in cost_table["computations"]:
        if cost["name"] not in layers:
            continue
        if kind == "F" and cost["transpose_count"] == 0:
            total += cost["seconds"]
        elif kind != "F" and cost["transpose_count"] == 1:
            total += cost["seconds"]
        elif kind != "F":
            total += cost.get("accumulate_seconds", 0)
    return total * 1e3


def fragment_breakdown(mpmd, work, model, label, config, cost_table,
                       repeat):
    """Per fragment of the last of `repeat` runs: its measured time per
    microbatch (the sum of its runs over the microbatch count: a backward
    split into B and W counts both) against its profiled time."""
    trace = os.path.join(work, "trace.json")
    run([mpmd, "run", model, "--config", config, "--random-inputs", "1",
         "--repeat", str(repeat), "--trace", trace, "--quiet"])
    with open(trace) as file:
        events = json.load(file)
    events = events["traceEvents"] if isinstance(events, dict) else events
    meshes = {e["pid"]: e["args"]["name"] for e in events
              if e.get("ph") == "M" and e.get("name") == "process_name"}
    sums = {}
    for event in events:
        if event.get("ph") != "X" or event.get("cat") != "fragment":
            continue
        name = re.sub(r" mb \d+$", "", event["name"])
        kind = event.get("args", {}).get("kind", "other")
        key = (meshes.get(event["pid"], event["pid"]), name, kind)
        sums[key] = sums.get(key, 0.0) + event["dur"] * 1e-3
    microbatches = cost_table["microbatches"]
    slowdown = cost_table.get("concurrency_slowdown", 1)
    print(f"{label}: per fragment, ms per microbatch (concurrency slowdown "
          f"{slowdown:.3f}; the mesh's last backward also runs its "
          f"optimizer update):")
    print("| mesh | fragment | kind | measured | profiled | measured / "
          "profiled | measured / (profiled x slowdown) |")
    print("|---|---|---|---|---|---|---|")
    measured_total = profiled_total = 0.0
    for (mesh, name, kind), total in sorted(sums.items()):
        measured = total / microbatches
        profiled = profiled_ms(cost_table, name, kind)
        measured_total += measured
        profiled_total += profiled
        ratio = f"{measured / profiled:.2f}" if profiled else "-"
        scaled = (f"{measured / (profiled * slowdown):.2f}" if profiled
                  else "-")
        print(f"| {mesh} | {name} | {kind} | {measured:.3f} | "
              f"{profiled:.3f} | {ratio} | {scaled} |")
    if profiled_total:
        print(f"all fragments: measured / profiled "
              f"{measured_total / profiled_total:.2f}, / (profiled x "
              f"slowdown) {measured_total / (profiled_total * slowdown):.2f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--measure", type=int, default=64,
                        help="candidates mpmd plan --measure runs (0: none)")
    args = parser.parse_args()
    mpmd = os.path.join(args.build, "bin", "mpmd")
    with tempfile.TemporaryDirectory() as work:
        for name, kind, options, unbalanced in MODELS:
            model, configs, printed, plan, cost_table = prepare(
                mpmd, work, name, kind, options, args.measure)
            steps = {label: [] for label, _ in configs}
            replays = {label: [] for label, _ in configs}
            ratios = []
            for _ in range(args.rounds):
                for label, config in configs:
                    step, replay = measure_ms(mpmd, model, config,
                                              args.repeat)
                    steps[label].append(step)
                    replays[label].append(replay)
                best_even = min(steps[label][-1] for label, _ in BASELINES)
                ratios.append(steps["planned"][-1] / best_even)
            print(f"== {name}: mpmd example {kind} {' '.join(options)}")
            print(printed.rstrip())
            print(f"median over {args.rounds} rounds of the fastest of "
                  f"{args.repeat} runs:")
            print("| config | measured step | vs planned | replay of its "
                  "step times |")
            print("|---|---|---|---|")
            planned_ms = statistics.median(steps["planned"])
            for label, _ in configs:
                step = statistics.median(steps[label])
                replay = statistics.median(replays[label])
                print(f"| {label} | {step:.2f} ms | {step / planned_ms:.2f}x "
                      f"| {replay:.2f} ms |")
            ratio = statistics.median(ratios)
            predicted_ms = plan["step_seconds"] * 1e3
            error = planned_ms / predicted_ms - 1
            wanted = "< 1" if unbalanced else "<= 1"
            holds = ratio < 1 if unbalanced else ratio <= 1
            print(f"planned / best even split: {ratio:.2f} (target {wanted}: "
                  f"{'yes' if holds else 'NO'})")
            print(f"predicted {predicted_ms:.2f} ms ({plan['description']}), "
                  f"measured {planned_ms:.2f} ms: {error:+.1%} (target "
                  f"within 10%: {'yes' if abs(error) <= 0.10 else 'NO'}); "
                  f"replay {statistics.median(replays['planned']):.2f} ms: "
                  f"{statistics.median(replays['planned']) / predicted_ms - 1:+.1%}")
            best_label = min((label for label, _ in BASELINES),
                             key=lambda label: statistics.median(steps[label]))
            for label, config in configs:
                if label in ("planned", best_label):
                    fragment_breakdown(mpmd, work, model, label, config,
                                       cost_table, args.repeat)
            print()


if __name__ == "__main__":
    main()
