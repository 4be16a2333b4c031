#!/usr/bin/env bash
# gmemlint against its anchor, `clang -fsyntax-only` with the same flags over the same files,
# measured in one run. Usage: bench/compare_clang.sh [build/gmemlint] [files...]
# (default: the first 32 analyzer tests, all realistic .cu files that include cuda_runtime.h).
# clang gets the flags gmemlint's parser gets (its nvcc-compatibility header included); gmemlint
# runs without its result cache, which would otherwise answer every run after the first.
set -euo pipefail
cd "$(dirname "$0")/.."
GMEMLINT=${1:-build/gmemlint}
shift || true
if [ $# -gt 0 ]; then files=("$@"); else mapfile -t files < <(ls tests/analyzer/*.cu | head -32); fi
CLANG=${CLANG:-clang-22}
CUDA=${CUDA_PATH:-/usr/local/cuda}
compat=$(mktemp --suffix=.h)
trap 'rm -f "$compat"' EXIT
"$GMEMLINT" --dump-nvcc-compat >"$compat"
flags=(-x cuda --cuda-host-only -nocudalib -Wno-unknown-cuda-version "--cuda-path=$CUDA" -fgpu-rdc
  -include "$compat" -std=c++17 -w -ferror-limit=0 -isystem "$CUDA/include"
  -isystem "$CUDA/include/cccl")

now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | bc; }

t0=$(now)
for f in "${files[@]}"; do "$CLANG" -fsyntax-only "${flags[@]}" "$f"; done
t1=$(now)
"$GMEMLINT" --no-cache -j 1 --pch=never "${files[@]}" >/dev/null || [ $? -eq 1 ]
t2=$(now)
"$GMEMLINT" --no-cache -j 1 "${files[@]}" >/dev/null || [ $? -eq 1 ]
t3=$(now)
"$GMEMLINT" --no-cache -j 2 "${files[@]}" >/dev/null || [ $? -eq 1 ]
t4=$(now)

clang_s=$(elapsed "$t0" "$t1")
nopch_s=$(elapsed "$t1" "$t2")
j1_s=$(elapsed "$t2" "$t3")
j2_s=$(elapsed "$t3" "$t4")
ratio() { echo "scale=2; $1 / $2" | bc; }
echo "files: ${#files[@]} ($(nproc) cores, $("$CLANG" --version | head -1))"
printf '%-44s %8s %s\n' "command" "seconds" "ratio to clang -fsyntax-only"
printf '%-44s %8.2f %s\n' "clang -fsyntax-only, one file at a time" "$clang_s" "1.00"
printf '%-44s %8.2f %s\n' "gmemlint -j 1 --pch=never" "$nopch_s" "$(ratio "$nopch_s" "$clang_s")"
printf '%-44s %8.2f %s\n' "gmemlint -j 1 (shared CUDA preamble)" "$j1_s" "$(ratio "$j1_s" "$clang_s")"
printf '%-44s %8.2f %s\n' "gmemlint -j 2" "$j2_s" "$(ratio "$j2_s" "$clang_s")"
echo "speed-up of -j 2 over -j 1: $(ratio "$j1_s" "$j2_s")x"
