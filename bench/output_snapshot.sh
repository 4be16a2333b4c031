#!/usr/bin/env bash
# Every output gmemlint writes for the repository's own inputs, one file per command, so that a
# refactoring can be shown to change nothing: run it before and after, then `diff -r BEFORE AFTER`.
#   bash bench/output_snapshot.sh OUTDIR [gmemlint]
# Covers: samples/ and tests/analyzer/ in text, JSON and SARIF with every rule enabled, the
# fix-its, the joins of tests/join/, and gmemlint report (text, HTML, trace) on tests/report/.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: output_snapshot.sh OUTDIR [gmemlint]}
bin=$(realpath "${2:-$root/build/gmemlint}")
mkdir -p "$out"
out=$(realpath "$out")
cd "$root"
common=(--no-cache --no-progress --color=never -j2)
record() { # name, command...: stdout, stderr and the exit status
  local name=$1
  shift
  "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo "rc=$?" >>"$out/$name.out"
}
for fmt in text json sarif; do
  record "samples.$fmt" "$bin" "${common[@]}" --enable=all --format=$fmt samples/*.cu
  record "analyzer.$fmt" "$bin" "${common[@]}" --enable=all --format=$fmt tests/analyzer/*.cu
done
record samples.fixes "$bin" "${common[@]}" --export-fixes="$out/samples.fixes.yaml" samples/*.cu
record analyzer.verify "$bin" "${common[@]}" --verify tests/analyzer/*.cu
record help "$bin" --help
record rules "$bin" --list-rules
for dir in tests/join/*/; do
  name=$(basename "$dir")
  tel=()
  for j in "$dir"*.json; do
    case $j in *.torch-*.json) continue ;; esac # PyTorch snapshots: their companion names them
    tel+=(--telemetry="$j")
  done
  srcs=()
  for s in "$dir"*.cu; do [ -e "$s" ] && srcs+=("$s"); done
  for fmt in text json sarif; do
    record "join.$name.$fmt" "$bin" "${common[@]}" --enable=all --format=$fmt "${tel[@]}" "${srcs[@]}"
  done
done
record report.text "$bin" report tests/report/trainer.json
record report.files "$bin" report --html="$out/report.html" --trace="$out/report.trace.json" \
  tests/report/trainer.json tests/report/trainer.cu
# The HTML page and the SARIF carry nothing time-dependent; paths are the repository's own.
