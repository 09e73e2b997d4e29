#!/usr/bin/env python3
"""Runs a sharded program partitioned and unpartitioned, and compares them.

Lit substitution: `%partition-and-run FILE PASS...` (test/lit.cfg.py).

FILE holds `@parallel_NAME` functions with global types, `sdy.mesh`es,
shardings and sdy collectives. They are partitioned with `mpmd-opt PASS...`;
the sequential reference `@sequential_NAME` is the same function with sdy collectives, reshards and
sharding constraints replaced by their operand, after
`mpmd-opt -sdy-inline-meshes -sdy-drop-sharding-and-mesh` (a manual
computation stays, which `mpmd interpret` runs per device of its mesh),
unless FILE defines the references (all of them or none; exit code 2
otherwise). Then:

* if FILE has `//--- part1.mlir` and `//--- part2.mlir` sections (the layout
  of upstream Shardy's executable tests), part1 is the program and part2
  the harness (a `@main` building inputs, running `interpreter.run_parallel`
  and checking the results), used as written;
* otherwise a harness `@main_NAME` is generated per `@parallel_NAME`: global
  inputs counting up from 0 (argument k from 1000 * k), the sequential
  result, each device's shard of every argument by its sharding, one
  `interpreter.run_parallel` over every device of the mesh of the first
  sharded argument (device ids = partition ids, or replica ids when a PASS
  sets replica-count > 1), and each device's result checked against its
  shard of the sequential result (`check.expect_eq` for integers,
  `check.expect_almost_eq` for floats).

Everything is then run by `mpmd interpret`; its output (one PASS/FAIL line
per harness function) is printed and its exit code returned.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile


def run(command, stdin=None):
    process = subprocess.run(command, input=stdin, capture_output=True,
                             text=True)
    if process.returncode != 0:
        sys.stderr.write(process.stderr)
        sys.exit(process.returncode)
    return process.stdout


def strip_module(text):
    """The body of the single `module { ... }` mpmd-opt prints."""
    lines = text.strip().splitlines()
    if lines and lines[0].startswith("module") and lines[-1] == "}":
        lines = lines[1:-1]
    return "\n".join(lines)


def split_top_level(text):
    """`text` split at commas outside (), [], {}, <> and strings."""
    items, depth, current, in_string = [], 0, "", False
    for char in text:
        if char == '"':
            in_string = not in_string
        elif not in_string and char in "([{<":
            depth += 1
        elif not in_string and char in ")]}>":
            depth -= 1
        if char == "," and depth == 0 and not in_string:
            items.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        items.append(current.strip())
    return items


def closing(text, start):
    """Index of the bracket closing the one at text[start]."""
    pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
    depth, in_string = 0, False
    for index in range(start, len(text)):
        char = text[index]
        if char == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif char == text[start]:
            depth += 1
        elif char == pairs[text[start]]:
            depth -= 1
            if depth == 0:
                return index
    raise ValueError("unbalanced brackets")


class Mesh:
    def __init__(self, axes, device_ids):
        self.axes = axes  # [(name, size)]
        self.size = 1
        for _, size in axes:
            self.size *= size
        self.device_ids = device_ids or list(range(self.size))

    def coordinate(self, position, axis):
        name, pre_size, size = axis
        stride = 1
        for axis_name, axis_size in reversed(self.axes):
            if axis_name == name:
                # "x":(m)k is the middle of x seen as [m, k, rest].
                full = (position // stride) % axis_size
                size = size or axis_size
                return (full // (axis_size // (pre_size * size))) % size
            stride *= axis_size
        raise ValueError("unknown axis " + name)

    def axis_size(self, axis):
        name, _, size = axis
        return size or dict(self.axes)[name]


def parse_meshes(text):
    meshes = {}
    for match in re.finditer(
            r'sdy\.mesh @(\w+) = <\[(.*?)\](?:, device_ids=\[(.*?)\])?>', text):
        axes = [(name, int(size)) for name, size in
                re.findall(r'"(\w+)"=(\d+)', match.group(2))]
        ids = [int(i) for i in match.group(3).split(",")] if match.group(3) \
            else None
        meshes[match.group(1)] = Mesh(axes, ids)
    return meshes


def parse_value(item):
    """(shape, element type, sharding) of `%a: tensor<...> {attrs}`."""
    match = re.search(r"tensor<([^>]*)>", item)
    parts = match.group(1).split("x")
    shape = [int(d) for d in parts[:-1]]
    sharding = None
    found = re.search(r"#sdy\.sharding<@(\w+), \[(.*?)\]", item)
    if found:
        dims = []
        for dim in re.findall(r"\{([^}]*)\}", found.group(2)):
            dims.append([(name, int(pre) if pre else 1,
                          int(size) if size else None)
                         for name, pre, size in re.findall(
                             r'"(\w+)"(?::\((\d+)\)(\d+))?', dim)])
        sharding = (found.group(1), dims)
    return shape, parts[-1], sharding


def parse_functions(text):
    """name -> (arguments, results) of every `func.func @parallel_NAME`."""
    functions = {}
    for match in re.finditer(r"func\.func (?:public )?@parallel_(\w+)\(", text):
        open_args = match.end() - 1
        close_args = closing(text, open_args)
        arguments = [parse_value(item) for item in
                     split_top_level(text[open_args + 1:close_args])]
        rest = text[close_args + 1:].lstrip()
        results = []
        if rest.startswith("->"):
            rest = rest[2:].lstrip()
            if rest.startswith("("):
                results = [parse_value(item) for item in
                           split_top_level(rest[1:closing(rest, 0)])]
            else:
                results = [parse_value(rest[:closing(rest, rest.index("<"))
                                            + 1])]
        functions[match.group(1)] = (arguments, results)
    return functions


# An sdy collective, reshard or sharding constraint in generic form. On
# global values every one of them is the identity: it changes where the
# shards live, not the value (and an sdy.constant is a constant).
COLLECTIVE = re.compile(
    r'"sdy\.(?:all_gather|all_slice|all_reduce|reduce_scatter|all_to_all|'
    r'collective_permute|reshard|sharding_constraint)"\((%[\w#]+)\) '
    r'<\{.*?\}> : \((tensor<[^>]*>)\) -> (tensor<[^>]*>)')


def sequential_version(mpmd_opt, part1):
    """@sequential_NAME: part1 without collectives, shardings and meshes
    (but those of manual computations)."""
    generic = run([mpmd_opt, "--mlir-print-op-generic", "-"], stdin=part1)
    identity = COLLECTIVE.sub(r'"stablehlo.reshape"(\1) : (\2) -> \3',
                              generic).replace('"sdy.constant"',
                                               '"stablehlo.constant"')
    # A manual computation stays, its shardings on inlined meshes: the
    # interpreter runs its body per device of the mesh on global values.
    sequential = strip_module(run(
        [mpmd_opt, "-sdy-inline-meshes", "-sdy-drop-sharding-and-mesh", "-"],
        stdin=identity))
    return sequential.replace("@parallel_", "@sequential_")


def usage_error(message):
    sys.stderr.write("partition_and_run.py: " + message + "\n")
    sys.exit(2)


def missing_references(part1):
    """The NAMEs of `@parallel_NAME` without a `@sequential_NAME`: either
    all of them (the references are generated) or none."""
    names = re.findall(r"func\.func (?:public )?@parallel_(\w+)\(", part1)
    missing = [name for name in names
               if not re.search(r"func\.func (?:public |private )?"
                                r"@sequential_" + name + r"\(", part1)]
    if missing and len(missing) != len(names):
        usage_error("@sequential_" + ", @sequential_".join(missing) +
                    " missing: write a reference for every @parallel_ "
                    "function or for none")
    return missing


def tensor_type(shape, element):
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def shard_ranges(mesh, shape, sharding, position):
    """[start, limit) per dimension of the shard at `position`."""
    ranges = []
    dims = sharding[1] if sharding else [[] for _ in shape]
    for size, axes in zip(shape, dims):
        shards, index = 1, 0
        for axis in axes:
            axis_size = mesh.axis_size(axis)
            shards *= axis_size
            index = index * axis_size + mesh.coordinate(position, axis)
        local = size // shards
        ranges.append((index * local, (index + 1) * local))
    return ranges


def generate_harness(name, arguments, results, meshes, replicas):
    sharded = [s for _, _, s in arguments + results if s]
    mesh = meshes[sharded[0][0]] if sharded else Mesh([], None)
    lines = [f"func.func @main_{name}() {{"]
    globals_ = []
    for index, (shape, element, _) in enumerate(arguments):
        count = 1
        for d in shape:
            count *= d
        flat = tensor_type([count], "i64")
        lines += [
            f"  %iota{index} = stablehlo.iota dim = 0 : {flat}",
            f"  %base{index} = stablehlo.constant dense<{1000 * index}> : {flat}",
            f"  %int{index} = stablehlo.add %iota{index}, %base{index} : {flat}",
            f"  %conv{index} = stablehlo.convert %int{index} : ({flat}) -> "
            f"{tensor_type([count], element)}",
            f"  %g{index} = stablehlo.reshape %conv{index} : "
            f"({tensor_type([count], element)}) -> {tensor_type(shape, element)}",
        ]
        globals_.append(f"%g{index}")
    argument_types = ", ".join(tensor_type(s, e) for s, e, _ in arguments)
    result_types = ", ".join(tensor_type(s, e) for s, e, _ in results)
    reference = "%ref" + (f":{len(results)}" if len(results) > 1 else "")
    lines.append(f"  {reference} = func.call @sequential_{name}("
                 f"{', '.join(globals_)}) : ({argument_types}) -> "
                 f"({result_types})")

    def part(value, shape, element, sharding, position, label):
        if not sharding or not shape:
            return value, tensor_type(shape, element)
        ranges = shard_ranges(meshes[sharding[0]], shape, sharding, position)
        local = [limit - start for start, limit in ranges]
        text = ", ".join(f"{start}:{limit}" for start, limit in ranges)
        lines.append(f"  {label} = stablehlo.slice {value} [{text}] : "
                     f"({tensor_type(shape, element)}) -> "
                     f"{tensor_type(local, element)}")
        return label, tensor_type(local, element)

    position_of_id = {device: position
                      for position, device in enumerate(mesh.device_ids)}
    operands, operand_types, out_types = [], [], []
    for device in range(mesh.size):
        position = position_of_id[device]
        for index, (shape, element, sharding) in enumerate(arguments):
            value, type_ = part(f"%g{index}", shape, element, sharding,
                                position, f"%in{device}_{index}")
            operands.append(value)
            operand_types.append(type_)
        for shape, element, sharding in results:
            ranges = shard_ranges(meshes[sharding[0]] if sharding else mesh,
                                  shape, sharding, position)
            out_types.append(tensor_type([l - s for s, l in ranges], element))
    program = f"@parallel_{name}"
    if replicas:
        programs = ", ".join(f"[{program}]" for _ in range(mesh.size))
    else:
        programs = "[" + ", ".join(program for _ in range(mesh.size)) + "]"
    total = len(out_types)
    outputs = "%out" + (f":{total}" if total > 1 else "")
    lines.append(f"  {outputs} = \"interpreter.run_parallel\"("
                 f"{', '.join(operands)}) {{programs = [{programs}]}} : "
                 f"({', '.join(operand_types)}) -> ({', '.join(out_types)})")
    for device in range(mesh.size):
        position = position_of_id[device]
        for index, (shape, element, sharding) in enumerate(results):
            flat_index = device * len(results) + index
            got = f"%out#{flat_index}" if total > 1 else "%out"
            ref = f"%ref#{index}" if len(results) > 1 else "%ref"
            expected, type_ = part(ref, shape, element, sharding, position,
                                   f"%want{device}_{index}")
            check = "expect_eq" if element[0] in "iu" else "expect_almost_eq"
            lines.append(f"  check.{check} {got}, {expected} : {type_}")
    lines += ["  func.return", "}"]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mpmd-opt", required=True)
    parser.add_argument("--mpmd", required=True)
    parser.add_argument("file")
    parser.add_argument("passes", nargs=argparse.REMAINDER)
    args = parser.parse_args()

    text = open(args.file).read()
    part2 = None
    if "//--- part1.mlir" in text:
        sections = re.split(r"^//--- (\S+)\n", text, flags=re.M)
        named = dict(zip(sections[1::2], sections[2::2]))
        part1, part2 = named["part1.mlir"], named.get("part2.mlir")
    else:
        part1 = text

    pieces = [strip_module(run([args.mpmd_opt] + args.passes + ["-"],
                               stdin=part1))]
    missing = missing_references(part1)
    if missing:
        pieces.append(sequential_version(args.mpmd_opt, part1))
    if part2 is not None:
        pieces.append(part2)
    else:
        replicas = any(
            int(m) > 1 for p in args.passes
            for m in re.findall(r"replica-count=(\d+)", p))
        meshes = parse_meshes(part1)
        for name, (arguments, results) in parse_functions(part1).items():
            pieces.append(generate_harness(name, arguments, results, meshes,
                                           replicas))
    program = "module {\n" + "\n".join(pieces) + "\n}\n"
    with tempfile.NamedTemporaryFile("w", suffix=".mlir",
                                     delete=False) as combined:
        combined.write(program)
    process = subprocess.run([args.mpmd, "interpret", combined.name],
                             capture_output=True, text=True)
    sys.stdout.write(process.stdout)
    sys.stderr.write(process.stderr)
    if process.returncode == 0:
        os.unlink(combined.name)
    else:
        sys.stderr.write(f"(combined program kept in {combined.name})\n")
    sys.exit(process.returncode)


if __name__ == "__main__":
    main()
