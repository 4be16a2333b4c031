#!/usr/bin/env bash
# The preamble store (issue 29), in one run against `clang -fsyntax-only` on the same files and
# flags: unrelated files (every Nth .cu of a benchmark collection, one per program: little
# sharing), linted
#   before  as before the store: preambles built in the run only (--no-pch-store --no-cache),
#           or another gmemlint's default with --no-cache (--before=BIN: the main branch's)
#   cold    with an empty cache directory (result cache and preamble store both empty)
#   warm    with the preambles the cold run kept and the result cache off (--no-cache)
# and a generated 100-file project under git, its pre-commit hook (gmemlint --install-hook) run
# as `git commit` runs it after one file was edited and staged, results and preambles warm.
# Each round runs all of them in turn; the median, the spread (min-max) and the peak memory of
# each are printed, with the time report of the last cold and warm runs.
#
# Usage: bench/preamble_store.sh [--gmemlint=BIN] [--before=BIN] [--every=N] [--repeat=R]
#                                [--keep=DIR] [SRC]
#   SRC         the collection's program directories' parent (default:
#               /work/realcode/src/HeCBench/src; its *-cuda directories are read)
#   --every=N   every Nth file of the sorted list, the first of each program (default 20)
#   --repeat=R  rounds (default 3)
#   --keep=DIR  keep the outputs and timings in DIR
# Run it on a quiet machine, -j 1 throughout; nothing is written under SRC.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/gmemlint
before=
every=20
repeat=3
keep=
src=/work/realcode/src/HeCBench/src
while [ $# -gt 0 ]; do
  case $1 in
  --gmemlint=*) bin=${1#--gmemlint=} ;;
  --before=*) before=$(realpath "${1#--before=}") ;;
  --every=*) every=${1#--every=} ;;
  --repeat=*) repeat=${1#--repeat=} ;;
  --keep=*) keep=${1#--keep=} ;;
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) echo "preamble_store.sh: unknown option $1" >&2; exit 2 ;;
  *) src=$1 ;;
  esac
  shift
done
[ -d "$src" ] || { echo "preamble_store.sh: no directory $src" >&2; exit 2; }
bin=$(realpath "$bin")
out=${keep:-$(mktemp -d)}
mkdir -p "$out"
out=$(realpath "$out")
[ -n "$keep" ] || trap 'rm -rf "$out"' EXIT

# ---- the corpus: every Nth file, one per program ----
files=()
declare -A seen
i=0
while IFS= read -r f; do
  if [ $((i % every)) -eq 0 ]; then
    prog=${f#"$src"/}
    prog=${prog%%/*}
    [ -n "${seen[$prog]:-}" ] || files+=("$f")
    seen[$prog]=1
  fi
  i=$((i + 1))
done < <(find "$src" -path '*-cuda/*' -name '*.cu' -type f | LC_ALL=C sort)
nfiles=${#files[@]}
printf '%s\n' "${files[@]}" >"$out/files.txt"

# ---- the parser's flags, as gmemlint builds them (as bench/real_corpus.sh) ----
cuda=${CUDA_PATH:-/usr/local/cuda}
"$bin" --dump-nvcc-compat >"$out/nvcc_compat.h"
flags=(-x cuda --cuda-host-only -nocudalib -Wno-unknown-cuda-version "--cuda-path=$cuda" -fgpu-rdc
  -include "$out/nvcc_compat.h" -std=c++17 -w -ferror-limit=0
  -isystem "$cuda/include" -isystem "$cuda/include/cccl")
CLANG=${CLANG:-clang-22}

# ---- the 100-file project: each file opens with the system headers a CUDA program of that
# size includes, then the project's own header ----
proj=$out/project
rm -rf "$proj"
mkdir -p "$proj/src"
cat >"$proj/src/common.cuh" <<'SRC'
#pragma once
#include <cuda_runtime.h>
#define CHECK(call) do { if ((call) != cudaSuccess) return -1; } while (0)
SRC
for ((k = 0; k < 100; k++)); do
  {
    case $((k % 4)) in
    0) printf '#include <cstdio>\n#include <vector>\n' ;;
    1) printf '#include <cstdio>\n#include <cstdlib>\n#include <chrono>\n' ;;
    2) printf '#include <iostream>\n#include <vector>\n#include <algorithm>\n' ;;
    3) printf '#include <cstdio>\n#include <cmath>\n' ;;
    esac
    printf '#include "common.cuh"\n'
    printf '__global__ void scale_%d(float *x, int n) {\n' "$k"
    printf '  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] *= 2.0f;\n}\n'
    printf 'int run_%d(int n) {\n  float *d = nullptr;\n  CHECK(cudaMalloc(&d, n * sizeof(float)));\n' "$k"
    printf '  scale_%d<<<(n + 255) / 256, 256>>>(d, n);\n  cudaFree(d);\n  return 0;\n}\n' "$k"
  } >"$proj/src/f$k.cu"
done
export XDG_CACHE_HOME=$out/hook-cache # the hook runs with the default cache directory
(
  cd "$proj"
  git init -q .
  git config user.email bench@example.invalid
  git config user.name bench
  "$bin" --install-hook -j 1 >/dev/null
  git add src
  # the first commit lints all 100 files: results and preambles are warm after it
  /usr/bin/time -f '%e %U %S %M' -o "$out/hook-first.time" git commit -q -m first >/dev/null 2>&1 || true
)

# measure NAME CMD...: wall, CPU (user + system) and peak RSS in KiB
measure() {
  local name=$1
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$out/$name.time" "$@" >"$out/$name.out" 2>"$out/$name.err" || true
}
declare -A walls cpus peaks
note() { # note NAME ROUND
  local line
  line=$(tail -1 "$out/$1.r$2.time")
  walls[$1]+=" $(cut -d' ' -f1 <<<"$line")"
  cpus[$1]+=" $(awk '{printf "%.2f", $2 + $3}' <<<"$line")"
  local kib
  kib=$(cut -d' ' -f4 <<<"$line")
  [ -z "${peaks[$1]:-}" ] || [ "$kib" -gt "${peaks[$1]}" ] && peaks[$1]=$kib
  return 0
}
common=(--no-progress --color=never --enable=all --format=json -j 1)
load=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 1; r <= repeat; r++)); do
  measure clang.r$r bash -c 'c=$1; shift; n=$1; shift; f=("${@:1:$n}"); shift "$n";
    for x in "${f[@]}"; do "$c" -fsyntax-only "$@" "$x" >/dev/null 2>&1; done' _ \
    "$CLANG" "$nfiles" "${files[@]}" "${flags[@]}"
  if [ -n "$before" ]; then
    XDG_CACHE_HOME=$out/before-cache measure before.r$r "$before" "${common[@]}" --no-cache "${files[@]}"
  else
    measure before.r$r "$bin" "${common[@]}" --no-pch-store --no-cache "${files[@]}"
  fi
  rm -rf "$out/cache"
  measure cold.r$r "$bin" "${common[@]}" --cache-dir="$out/cache" --cache-stats --time-report "${files[@]}"
  measure warm.r$r "$bin" "${common[@]}" --cache-dir="$out/cache" --no-cache --cache-stats --time-report "${files[@]}"
  # an edit of one file, staged, and the hook as `git commit` runs it
  f=$proj/src/f$((r * 7 % 100)).cu
  printf '// edit %d\n' "$r" >>"$f"
  (cd "$proj" && git add src && measure hook.r$r .git/hooks/pre-commit && git commit -q --no-verify -m "edit $r")
  for name in clang before cold warm hook; do note $name $r; done
done

median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
spread() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%s-%s", lo, hi}'; }
clang_m=$(median <<<"${walls[clang]}")
clang_c=$(median <<<"${cpus[clang]}")
echo "corpus: $nfiles files from $nfiles programs (every ${every}th of $(find "$src" -path '*-cuda/*' -name '*.cu' -type f | wc -l));" \
  "$(nproc) cores; $("$CLANG" --version | head -1); load average before: $load; $repeat round(s)"
# wall clock and CPU (user + system): on a shared machine CPU seconds vary less
echo "medians of the rounds, their spread (min-max), ratios to clang's; MiB: the largest max RSS"
printf '%-52s %8s %13s %6s %8s %13s %6s %5s\n' "" "wall s" "spread" "ratio" "CPU s" "spread" \
  "ratio" "MiB"
ratio() { echo "scale=3; $1 / $2" | bc | sed 's/^\./0./'; }
row() {
  local m c
  m=$(median <<<"${walls[$1]}")
  c=$(median <<<"${cpus[$1]}")
  printf '%-52s %8s %13s %6s %8s %13s %6s %5s\n' "$2" "$m" "$(spread <<<"${walls[$1]}")" \
    "$(ratio "$m" "$clang_m")" "$c" "$(spread <<<"${cpus[$1]}")" "$(ratio "$c" "$clang_c")" \
    "$((peaks[$1] / 1024))"
}
row clang "clang -fsyntax-only, one file at a time"
row before "gmemlint -j 1, preambles per run${before:+ (--before)}"
row cold "gmemlint -j 1, cold (empty cache directory)"
row warm "gmemlint -j 1, warm preambles, --no-cache"
row hook "pre-commit hook, 1 edited file of 100 (warm)"
echo "first commit of the 100-file project through the hook: $(cut -d' ' -f1 "$out/hook-first.time") s"
for name in before cold warm; do
  cmp -s "$out/$name.r$repeat.out" "$out/before.r$repeat.out" ||
    echo "NOTE: $name's output differs from the run without the store"
done
echo "cold, last round:"
grep -E 'cache: preambles|preamble builds|clang parse|^  flow|wall clock|peak memory' "$out/cold.r$repeat.err"
echo "warm, last round:"
grep -E 'cache: preambles|preamble builds|clang parse|^  flow|wall clock|on a chained' "$out/warm.r$repeat.err"
