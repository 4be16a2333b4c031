#!/usr/bin/env bash
# -j 1 against -j 2 over many files (default: the first 128 analyzer tests), in one run.
# Usage: bench/jobs_scaling.sh [build/gmemlint] [count]
set -euo pipefail
cd "$(dirname "$0")/.."
GMEMLINT=${1:-build/gmemlint}
COUNT=${2:-128}
mapfile -t files < <(ls tests/analyzer/*.cu | head -"$COUNT")
now() { date +%s.%N; }
t0=$(now)
"$GMEMLINT" -j 1 "${files[@]}" >/dev/null || [ $? -eq 1 ]
t1=$(now)
"$GMEMLINT" -j 2 "${files[@]}" >/dev/null || [ $? -eq 1 ]
t2=$(now)
j1=$(echo "$t1 - $t0" | bc)
j2=$(echo "$t2 - $t1" | bc)
echo "files: ${#files[@]} ($(nproc) cores)"
printf 'gmemlint -j 1: %.2f s (%.3f s a file)\n' "$j1" "$(echo "$j1 / ${#files[@]}" | bc -l)"
printf 'gmemlint -j 2: %.2f s\n' "$j2"
echo "speed-up of -j 2 over -j 1: $(echo "scale=2; $j1 / $j2" | bc)x"
