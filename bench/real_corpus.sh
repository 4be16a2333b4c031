#!/usr/bin/env bash
# gmemlint's speed on real CUDA code, in one run: over the same files with the same parser flags,
# `clang -fsyntax-only` one file at a time (the anchor), gmemlint -j 1 and -j N (one process, all
# workers: wall clock, CPU and peak memory), clang-tidy with the clang-analyzer-* checks (what a
# user would run otherwise; on a subset, scaled), gmemlint -j 1's own time report, and the check
# that the shared preambles change no output (bench/pch_identical.sh).
#
# Usage: bench/real_corpus.sh [--files=N] [--gmemlint=BIN] [--jobs=N] [--tidy-every=M]
#                             [--repeat=R] [--no-check] [--keep=DIR] DIR... [-- parser flags]
#   DIR...          program directories; every .cu under each is a translation unit. HeCBench:
#                   bash bench/real_corpus.sh SRC/HeCBench/src/*-cuda
#   --files=N       at least N files (default 160), whole directories evenly spaced over the
#                   sorted list (the 1st, the k+1th, ... with the largest k that gives N)
#   --gmemlint=BIN  default: build/gmemlint of this checkout
#   --jobs=N        the parallel run's -j (default: cores)
#   --tidy-every=M  clang-tidy on every Mth file of the corpus (default 4; 1: all), its time
#                   scaled to the whole corpus
#   --repeat=R      clang, gmemlint -j 1 and -j N R times in turn (default 1); the fastest of
#                   each is reported, every round is listed
#   --no-check      skip bench/pch_identical.sh
#   --keep=DIR      keep the outputs (JSON, standard error, timings) in DIR
# Each tool runs alone; run it on a quiet machine (on a shared one even CPU seconds vary by a
# fifth from run to run: repeat). Nothing is written under the DIRs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
want=160
bin=$root/build/gmemlint
jobs=$(nproc)
tidy_every=4
repeat=1
check=1
keep=
dirs=()
extra=()
while [ $# -gt 0 ]; do
  case $1 in
  --files=*) want=${1#--files=} ;;
  --gmemlint=*) bin=${1#--gmemlint=} ;;
  --jobs=*) jobs=${1#--jobs=} ;;
  --tidy-every=*) tidy_every=${1#--tidy-every=} ;;
  --keep=*) keep=${1#--keep=} ;;
  --repeat=*) repeat=${1#--repeat=} ;;
  --no-check) check=0 ;;
  --) shift; extra=("$@"); break ;;
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) echo "real_corpus.sh: unknown option $1" >&2; exit 2 ;;
  *) dirs+=("$1") ;;
  esac
  shift
done
[ ${#dirs[@]} -gt 0 ] || { echo "usage: real_corpus.sh [options] DIR... (see --help)" >&2; exit 2; }
bin=$(realpath "$bin")
out=${keep:-$(mktemp -d)}
mkdir -p "$out"
out=$(realpath "$out")
[ -n "$keep" ] || trap 'rm -rf "$out"' EXIT

# ---- the corpus: whole directories, evenly spaced ----
mapfile -t dirs < <(printf '%s\n' "${dirs[@]}" | sort)
count_in() { find "$1" -name '*.cu' -type f | wc -l; }
counts=()
total=0
for d in "${dirs[@]}"; do
  n=$(count_in "$d")
  counts+=("$n")
  total=$((total + n))
done
step=$((total / want))
[ "$step" -ge 1 ] || step=1
while :; do
  files=()
  taken=0
  for ((i = 0; i < ${#dirs[@]}; i += step)); do
    [ "${counts[$i]}" -gt 0 ] || continue
    taken=$((taken + 1))
    mapfile -t -O "${#files[@]}" files < <(find "${dirs[$i]}" -name '*.cu' -type f | sort)
  done
  [ ${#files[@]} -ge "$want" ] || [ "$step" -eq 1 ] || { step=$((step - 1)); continue; }
  break
done
nfiles=${#files[@]}
printf '%s\n' "${files[@]}" >"$out/files.txt"

# ---- the parser's flags, as gmemlint builds them (driver.c build_args) ----
cuda=${CUDA_PATH:-/usr/local/cuda}
"$bin" --dump-nvcc-compat >"$out/nvcc_compat.h"
flags=(-x cuda --cuda-host-only -nocudalib -Wno-unknown-cuda-version "--cuda-path=$cuda" -fgpu-rdc
  -include "$out/nvcc_compat.h" -std=c++17 -w -ferror-limit=0 "${extra[@]}"
  -isystem "$cuda/include" -isystem "$cuda/include/cccl")
CLANG=${CLANG:-clang-22}
TIDY=${CLANG_TIDY:-clang-tidy-22}

# measure NAME CMD...: wall, CPU (user + system, children included) and peak RSS
measure() {
  local name=$1
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$out/$name.time" "$@" >"$out/$name.out" 2>"$out/$name.err" || true
}
# (time's last line: a line before it says when the command exited non-zero)
wall() { tail -1 "$out/$1.time" | cut -d' ' -f1; }
cpu() { tail -1 "$out/$1.time" | awk '{printf "%.2f", $2 + $3}'; }
peak() { tail -1 "$out/$1.time" | awk '{printf "%.0f", $4 / 1024}'; }
ratio() { echo "scale=3; $1 / $2" | bc | sed 's/^\./0./'; }

# keep NAME ROUND: the round's timing becomes NAME's when it is the fastest so far
keep_best() {
  local w
  w=$(tail -1 "$out/$1.r$2.time" | cut -d' ' -f1)
  rounds[$1]+=" $w"
  if [ "$2" -eq 1 ] || [ "$(echo "$w < $(wall "$1")" | bc)" -eq 1 ]; then
    for ext in time out err; do cp "$out/$1.r$2.$ext" "$out/$1.$ext"; done
  fi
}
declare -A rounds
load=$(cut -d' ' -f1-3 /proc/loadavg)
common=(--no-cache --no-progress --color=never --enable=all --format=json)
for ((r = 1; r <= repeat; r++)); do
  measure clang.r$r bash -c 'c=$1; shift; n=$1; shift; f=("${@:1:$n}"); shift "$n";
    for x in "${f[@]}"; do "$c" -fsyntax-only "$@" "$x" >/dev/null 2>&1; done' _ \
    "$CLANG" "$nfiles" "${files[@]}" "${flags[@]}"
  measure j1.r$r "$bin" "${common[@]}" -j 1 --time-report "${files[@]}" -- "${extra[@]}"
  measure jN.r$r "$bin" "${common[@]}" -j "$jobs" "${files[@]}" -- "${extra[@]}"
  for name in clang j1 jN; do keep_best $name $r; done
done
tidy_files=()
for ((i = 0; i < nfiles; i += tidy_every)); do tidy_files+=("${files[$i]}"); done
measure tidy bash -c 't=$1; shift; n=$1; shift; f=("${@:1:$n}"); shift "$n";
  for x in "${f[@]}"; do "$t" --quiet "--checks=-*,clang-analyzer-*" "$x" -- "$@" >/dev/null 2>&1; done' _ \
  "$TIDY" "${#tidy_files[@]}" "${tidy_files[@]}" "${flags[@]}"

clang_w=$(wall clang) clang_c=$(cpu clang)
tidy_scale=$(echo "scale=6; $nfiles / ${#tidy_files[@]}" | bc)
tidy_w=$(echo "scale=2; $(wall tidy) * $tidy_scale / 1" | bc)
tidy_c=$(echo "scale=2; $(cpu tidy) * $tidy_scale / 1" | bc)
echo "corpus: $nfiles files in $taken directories (1 in ${step} of ${#dirs[@]}); $(nproc) cores;" \
  "$("$CLANG" --version | head -1); load average before: $load"
printf '%-46s %9s %9s %14s %9s\n' "" "wall s" "CPU s" "ratio w / CPU" "peak MiB"
row() { printf '%-46s %9s %9s %14s %9s\n' "$1" "$2" "$3" "$(ratio "$2" "$clang_w") / $(ratio "$3" "$clang_c")" "$4"; }
row "clang -fsyntax-only, one file at a time" "$clang_w" "$clang_c" "$(peak clang)"
row "gmemlint -j 1" "$(wall j1)" "$(cpu j1)" "$(peak j1)"
row "gmemlint -j $jobs" "$(wall jN)" "$(cpu jN)" "$(peak jN)"
row "clang-tidy clang-analyzer-* (x$(printf %.2f "$tidy_scale"))" "$tidy_w" "$tidy_c" "$(peak tidy)"
[ "$repeat" -eq 1 ] || echo "wall clock of each round: clang${rounds[clang]}; -j 1${rounds[j1]};" \
  "-j $jobs${rounds[jN]} (the fastest is shown)"
echo "clang-tidy ran on ${#tidy_files[@]} of the $nfiles files (1 in ${tidy_every}), scaled"
echo "speed-up of -j $jobs over -j 1: $(ratio "$(wall j1)" "$(wall jN)")x (wall clock)"
echo "gmemlint -j 1, exit statuses aside: $(grep -c '"rule"' "$out/j1.out") findings," \
  "$(grep -c 'parse error(s)' "$out/j1.err") files with parse errors"
sed -n '/time report/,$p' "$out/j1.err"
cmp -s "$out/j1.out" "$out/jN.out" || echo "NOTE: -j 1 and -j $jobs outputs differ"
[ "$check" -eq 0 ] || bash "$root/bench/pch_identical.sh" -b "$bin" -j "$jobs" "${files[@]}" -- "${extra[@]}"
