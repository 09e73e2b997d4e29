#!/usr/bin/python3
"""Writes the seed corpus of every fuzzer under OUT_DIR/<fuzzer>/, taken from
the tests: modules of test/ and examples/ (split at '// -----' and at
split-file sections), pipeline options of their RUN lines, JSON configs of
split-file sections, `mpmd schedule` command lines, and small .npy files.

usage: extract-seeds.py REPO_ROOT OUT_DIR
"""

import hashlib
import pathlib
import re
import struct
import sys

SPLIT_FILE_SECTION = re.compile(r"^(?:#|//)--- (\S+)\n", re.MULTILINE)
# Each MPMD pipeline with the test directory of its phase.
PIPELINES = {"import": "Import", "optimize": "Optimize",
             "sharding-propagation": "ShardingPropagation", "export": "Export"}


def write(directory, content):
    data = content.encode() if isinstance(content, str) else content
    directory.mkdir(parents=True, exist_ok=True)
    (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)


def sections(path):
    """(name, text) of each split-file section, or of the whole file."""
    text = path.read_text(errors="replace")
    parts = SPLIT_FILE_SECTION.split(text)
    if len(parts) == 1:
        return [(path.name, text)]
    return list(zip(parts[1::2], parts[2::2]))


def modules(text):
    return [part for part in re.split(r"^// -----\s*$", text, flags=re.MULTILINE)
            if "module" in part or "func.func" in part]


def pipeline_options(text, pipeline):
    """The options of the first -mpmd-<pipeline>-pipeline on a RUN line."""
    match = re.search(r"-mpmd-%s-pipeline(?:='([^']*)'|=(\S+))?" % pipeline, text)
    if not match:
        return None
    return match.group(1) or match.group(2) or ""


def npy(descr, shape, data):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, "(%s)" % "".join("%d, " % dim for dim in shape))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data


def main(root, out):
    root, out = pathlib.Path(root), pathlib.Path(out)
    files = sorted(root.glob("test/**/*.mlir")) + sorted(root.glob("test/**/*.test")) \
        + sorted(root.glob("examples/*.mlir"))
    for path in files:
        for name, text in sections(path):
            if name.endswith(".json"):
                write(out / "mpmd-config-fuzzer", text)
                continue
            for module in modules(text) if name.endswith((".mlir", ".test")) else []:
                write(out / "mpmd-ir-fuzzer", module)
                for pipeline, directory in PIPELINES.items():
                    options = pipeline_options(text, pipeline)
                    # Every module seeds the pipeline its test runs; the
                    # others get modules of their own phase's directory.
                    if options is not None or directory in path.parts:
                        write(out / ("mpmd-%s-pipeline-fuzzer" % pipeline),
                              (options or "") + "\n" + module)
                # The sdy fuzzers take every module of the sdy tests (the
                # propagation outputs are the partitioner's inputs).
                if "Sdy" in path.parts:
                    match = re.search(r"-sdy-propagation-pipeline(?:='([^']*)'|=(\S+))?", text)
                    options = (match.group(1) or match.group(2) or "") if match else ""
                    write(out / "mpmd-sdy-propagation-pipeline-fuzzer", options + "\n" + module)
                    write(out / "mpmd-sdy-partitioner-fuzzer", "\n" + module)
                # The interpreter's tests (StableHLO's ops, the check and
                # interpreter dialects) seed the interpreter.
                if "Runtime" in path.parts:
                    write(out / "mpmd-interpreter-fuzzer", module)
                # Modules with GSPMD shardings seed the GSPMD import (no
                # options).
                if "mhlo.sharding" in module or "@SPMDFullToShardShape" in module:
                    write(out / "mpmd-gspmd-import-pipeline-fuzzer", "\n" + module)
            for line in text.splitlines():
                match = re.search(r"mpmd schedule (--[^|%]*?)\s*(?:2>&1|\||$)", line)
                if match:
                    write(out / "mpmd-schedule-fuzzer", match.group(1))
    for descr, shape, data in [
            ("<f4", (2, 3), struct.pack("<6f", *range(6))),
            ("<f8", (), struct.pack("<d", 1.5)),
            ("|b1", (4,), bytes([0, 1, 2, 0])),
            ("<i8", (1, 0, 3), b""),
            ("<u2", (3,), struct.pack("<3H", 1, 2, 65535))]:
        write(out / "mpmd-npy-fuzzer", npy(descr, shape, data))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
