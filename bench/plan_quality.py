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
gradient and gradient sums), before and after the measured compute
factor. Run it on an otherwise idle machine; a loaded one inflates the
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


def layer_names(fragment):
    """The layers of a fragment's name ('layer_2+layer_3',
    'layer_3(1)+layer_2(1) mb 4')."""
    return {name.replace("(1)", "")
            for name in re.sub(r" mb \d+$", "", fragment).split("+")}


def profiled_ms(cost_table, fragment, kind):
    """The profiled time per microbatch of a fragment's layers, in ms: the
    forwards for F, else the backwards (with the weight gradient; the
    gradient sums run in the mesh's last fragment, see `tail_ms`)."""
    layers = layer_names(fragment)
    wanted = 0 if kind == "F" else 1
    return 1e3 * sum(cost["seconds"] for cost in cost_table["computations"]
                     if cost["name"] in layers and
                     cost["transpose_count"] == wanted)


def tail_ms(cost_table, layers):
    """The profiled gradient sums (all microbatches) and optimizer update of
    `layers`, in ms: what a mesh's last backward fragment runs beyond its
    own backward."""
    microbatches = cost_table["microbatches"]
    return 1e3 * sum(microbatches * cost.get("accumulate_seconds", 0) +
                     cost.get("update_seconds", 0)
                     for cost in cost_table["computations"]
                     if cost["name"] in layers and
                     cost["transpose_count"] == 0)


def fragment_breakdown(mpmd, work, model, label, config, cost_table,
                       repeat, predicted_ms=None):
    """Where the step goes, from one more run's trace (the last of `repeat`
    runs): per fragment (a stage's forward or backward on its mesh) its
    median time per microbatch (a backward split into B and W: the two
    together; the last fragment of a mesh as its typical call) against its
    profiled time; then per mesh the terms of the
    step: its forwards and backwards against the profile times the
    compute factor, the first call of each fragment function (which
    builds its fusion plan and constants in every run), the last
    fragment's gradient sums and update, the executor's per-action
    overhead, and the time the mesh waits."""
    trace = os.path.join(work, "trace.json")
    run([mpmd, "run", model, "--config", config, "--random-inputs", "1",
         "--repeat", str(repeat), "--trace", trace, "--quiet"])
    with open(trace) as file:
        events = json.load(file)
    events = events["traceEvents"] if isinstance(events, dict) else events
    meshes = {e["pid"]: e["args"]["name"] for e in events
              if e.get("ph") == "M" and e.get("name") == "process_name"}
    timed = [e for e in events if e.get("ph") == "X"]
    fragments = [e for e in timed if e.get("cat") == "fragment"]
    start = min(e["ts"] for e in timed)
    step_ms = (max(e["ts"] + e["dur"] for e in timed) - start) * 1e-3
    microbatches = cost_table["microbatches"]
    factor = cost_table.get("compute_factor", 1)
    overhead_ms = cost_table.get("action_overhead_seconds", 0) * 1e3
    print(f"{label}: step {step_ms:.3f} ms in the traced run"
          + (f", predicted {predicted_ms:.3f} ms" if predicted_ms else "")
          + f"; compute factor {factor:.3f}, action overhead "
          f"{overhead_ms * 1e3:.2f} us")
    print("| mesh | fragment | kind | median per microbatch (ms) | profiled "
          "| measured / profiled | / (profiled x factor) |")
    print("|---|---|---|---|---|---|---|")
    # (mesh, fragment, kind) -> microbatch -> ms (B and W of one
    # microbatch add up; each mesh's last fragment as its typical call).
    per_microbatch = {}
    mesh_terms = []
    for pid, mesh in sorted(meshes.items()):
        mine = sorted((e for e in fragments if e["pid"] == pid),
                      key=lambda e: e["ts"])
        if not mine:
            continue
        # A backward split into B and W runs two fragments of one name per
        # microbatch (both kind B): each is compared with the calls of its
        # name at the same position within the microbatch.
        position = {}
        seen = {}
        for event in mine:
            key = re.sub(r" mb \d+$", "", event["name"]), event["name"]
            position[id(event)] = seen.get(key, 0)
            seen[key] = seen.get(key, 0) + 1
        def base(event):
            return re.sub(r" mb \d+$", "", event["name"])
        def typical(event):
            """The median of the other calls of its name and position."""
            others = [e["dur"] * 1e-3 for e in mine
                      if e is not event and base(e) == base(event) and
                      position[id(e)] == position[id(event)]]
            return statistics.median(others) if others else None
        # The first call of each name and position: its extra over the
        # typical call.
        first_extra = 0.0
        firsts = {}
        for event in mine:
            firsts.setdefault((base(event), position[id(event)]), event)
        for event in firsts.values():
            usual = typical(event)
            if usual is not None and event is not mine[-1]:
                first_extra += max(0.0, event["dur"] * 1e-3 - usual)
        # The last fragment also sums the gradients and updates: its extra
        # over its typical call goes to that term.
        last = mine[-1]
        last_usual = typical(last)
        last_usual = last["dur"] * 1e-3 if last_usual is None else last_usual
        last_extra = last["dur"] * 1e-3 - last_usual
        for event in mine:
            kind = event.get("args", {}).get("kind", "other")
            microbatch = re.search(r" mb (\d+)$", event["name"])
            slot = per_microbatch.setdefault((mesh, base(event), kind), {})
            index = int(microbatch.group(1)) if microbatch else 0
            duration = last_usual if event is last else event["dur"] * 1e-3
            slot[index] = slot.get(index, 0.0) + duration
        mesh_layers = set()
        for event in mine:
            mesh_layers |= layer_names(event["name"])
        busy = sum(e["dur"] for e in mine) * 1e-3
        end = (last["ts"] + last["dur"] - start) * 1e-3
        totals = {}
        for (m, name, kind), times in per_microbatch.items():
            if m != mesh:
                continue
            total = totals.setdefault(kind, [0.0, 0.0])
            total[0] += sum(times.values())
            total[1] += len(times) * profiled_ms(cost_table, name, kind)
        mesh_terms.append((mesh, busy, end, totals, first_extra, last_extra,
                           tail_ms(cost_table, mesh_layers), len(mine)))
    for (mesh, name, kind), times in sorted(per_microbatch.items()):
        measured = statistics.median(times.values())
        profiled = profiled_ms(cost_table, name, kind)
        ratio = f"{measured / profiled:.2f}" if profiled else "-"
        scaled = (f"{measured / (profiled * factor):.2f}" if profiled
                  else "-")
        print(f"| {mesh} | {name} | {kind} | {measured:.3f} | "
              f"{profiled:.3f} | {ratio} | {scaled} |")
    print("per mesh, ms (measured / modelled: profile x factor; the "
          "model has no first-call term):")
    print("| mesh | forwards | backwards | first calls | last fragment's "
          "sums + update | overhead | waiting | ends at |")
    print("|---|---|---|---|---|---|---|---|")
    for (mesh, busy, end, totals, first_extra, last_extra, tail, actions
         ) in mesh_terms:
        def pair(kind):
            measured, profiled = totals.get(kind, (0.0, 0.0))
            return (f"{measured:.2f} / {profiled * factor:.2f}"
                    if profiled else "-")
        print(f"| {mesh} | {pair('F')} | {pair('B')} | {first_extra:.2f} | "
              f"{last_extra:.2f} / {tail * factor:.2f} | "
              f"{actions * overhead_ms:.3f} | {end - busy:.2f} | {end:.2f} |")


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
                    fragment_breakdown(
                        mpmd, work, model, label, config, cost_table,
                        args.repeat,
                        predicted_ms if label == "planned" else None)
            print()


if __name__ == "__main__":
    main()
