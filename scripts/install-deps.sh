#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test mpmd; installs nothing when all is present.
set -euo pipefail

packages=(
  # Compiler toolchain and MLIR/LLVM 22 (bookworm-security ships 22.1.x).
  clang-22 lld-22 libclang-rt-22-dev
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  cmake ninja-build ccache
  # The runtime's dot_general (cblas_sgemm/dgemm), found through pkg-config.
  libopenblas-dev pkg-config
  # Test and benchmark frameworks.
  libgtest-dev libgmock-dev libbenchmark-dev
  # NumPy for the .npy interop lit test (skipped without it) and the Python
  # package (python/): pybind11 and the headers build it, pytest tests it,
  # matplotlib draws its plots.
  python3-numpy python3-dev python3-pybind11 python3-pytest python3-matplotlib
  # Multi-process runs: the MPI transport and 'mpmd run --backend mpi'.
  openmpi-bin libopenmpi-dev
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
