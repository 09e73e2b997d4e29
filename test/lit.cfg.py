# -*- Python -*-
import os
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "MPMD"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
# .test: command-line tests of tools that take no IR (mpmd schedule).
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mpmd_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%mpmd_src_root", config.mpmd_src_root))

llvm_config.use_default_substitutions()

tool_dirs = [os.path.join(config.mpmd_obj_root, "bin"), config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["mpmd-opt", "mpmd", "mpmd-generate-program"], tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# `%partition-and-run FILE PASS...`: partitions FILE's sharded @parallel_*
# functions with mpmd-opt and checks every device's results against the
# unpartitioned program in `mpmd interpret` (test/Utils/partition_and_run.py).
config.substitutions.append(("%partition-and-run", " ".join([
    "/usr/bin/python3",
    os.path.join(config.mpmd_src_root, "test", "Utils", "partition_and_run.py"),
    "--mpmd-opt", os.path.join(config.mpmd_obj_root, "bin", "mpmd-opt"),
    "--mpmd", os.path.join(config.mpmd_obj_root, "bin", "mpmd")])))

# NumPy interop tests run where Debian's python3 has NumPy (python3-numpy).
numpy_python = "/usr/bin/python3"
try:
    has_numpy = subprocess.call([numpy_python, "-c", "import numpy"],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL) == 0
except OSError:
    has_numpy = False
if has_numpy:
    config.available_features.add("numpy")
    config.substitutions.append(("%numpy_python", numpy_python))

# Multi-process runs (`mpmd run --backend mpi`) where mpmd was built with MPI
# (MPMD_ENABLE_MPI) and mpirun exists; otherwise their tests are reported
# UNSUPPORTED and this note says why.
import shutil
mpirun = config.mpiexec if os.path.isfile(config.mpiexec) else shutil.which("mpirun")
if config.mpmd_enable_mpi and mpirun:
    config.available_features.add("mpi")
    # --oversubscribe: more ranks than cores (2-core CI); root needs the
    # explicit permission. `timeout` turns a hang into a failure. Each test
    # gets its own Open MPI session directory (%t.ompi): lit runs tests in
    # parallel under one TMPDIR, where two mpiruns starting at once race to
    # create the same session directory and one fails before any rank runs.
    launcher = [mpirun, "--oversubscribe"]
    if os.geteuid() == 0:
        launcher.append("--allow-run-as-root")
    launcher += ["--mca", "orte_tmpdir_base", "%t.ompi"]
    config.substitutions.append(("%mpirun", "timeout 120 " + " ".join(launcher)))
else:
    lit_config.note("MPI tests are skipped (UNSUPPORTED): " +
                    ("mpmd was built without MPI (MPMD_ENABLE_MPI=OFF)"
                     if not config.mpmd_enable_mpi else "no mpirun found"))
