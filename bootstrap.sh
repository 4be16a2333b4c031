#!/usr/bin/env bash
# Quick start, step 1: installs what is missing (Debian 12 with the CUDA toolkit), builds
# gmemlint, and lints samples/. The samples hold real defects, so the lint's exit status 1
# ("findings") is the expected outcome here.
set -euo pipefail
cd "$(dirname "$0")"

packages=(cmake ninja-build make gcc pkg-config libclang-22-dev libomp-22-dev clang-22 clang-tools-22
          clang-format libjansson-dev libunwind-dev libdw-dev python3 python3-jsonschema
          pre-commit chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi

cmake -S . -B build -DGMEMLINT_WERROR=ON
cmake --build build -j "$(nproc)"

echo "bootstrap: build/gmemlint samples/*.cu"
status=0
./build/gmemlint samples/*.cu || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
  echo "bootstrap: gmemlint failed on samples/ (exit $status)" >&2
  exit "$status"
fi
