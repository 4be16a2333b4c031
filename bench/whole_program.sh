#!/usr/bin/env bash
# Whole-program mode over a real project: `gmemlint -p` on a compile database of every .cu/.cpp
# under DIR (each compiled from its own directory, with -I. -I..), cold (empty result cache),
# warm (nothing changed), and after one file is edited (a comment appended); then clang-tidy
# (clang-analyzer-* checks, the per-file analyzer users would otherwise run) over the same
# database. Wall time and peak memory (one process, all workers) of each, and how many files
# each warm run parsed again. DIR is copied first: nothing is written under it.
#   bash bench/whole_program.sh DIR [gmemlint] [jobs] [-- extra compile flags]
# Extra flags go into every entry (e.g. -I$DIR/utils for CUDALibrarySamples/cuBLAS); a path under
# DIR is rewritten to the copy.
# The project is fetched or named by the user, never committed (e.g. NVIDIA's
# CUDALibrarySamples/cuBLAS).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
src=$(realpath "${1:?usage: whole_program.sh DIR [gmemlint] [jobs]}")
gm=$(realpath "${2:-$here/build/gmemlint}")
jobs=${3:-$(nproc)}
extra=()
if [ $# -gt 3 ] && [ "$4" = "--" ]; then
  shift 4
  extra=("$@")
fi
tidy=$(command -v clang-tidy-22 || true)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/project"
cd "$work/project"
mapfile -t files < <(find . \( -name '*.cu' -o -name '*.cpp' \) | sort)
{
  echo "["
  for i in "${!files[@]}"; do
    f=$(realpath "${files[$i]}")
    d=$(dirname "$f")
    sep=,
    [ "$i" -eq $((${#files[@]} - 1)) ] && sep=
    flags=""
    for x in "${extra[@]}"; do flags+="\"${x//$src/$work\/project}\","; done
    printf '{"directory":"%s","arguments":["/usr/local/cuda/bin/nvcc","-I.","-I..",%s"-std=c++17","-c","%s","-o","%s.o"],"file":"%s"}%s\n' \
      "$d" "$flags" "$f" "$f" "$f" "$sep"
  done
  echo "]"
} >"$work/compile_commands.json"
measure() { # label, command...: wall seconds and peak resident memory
  local label=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/$label.out" 2>"$work/$label.err" || true
  read -r wall rss < <(tail -n 1 "$work/time")
  printf '%-34s %7.1f s  %7.0f MiB\n' "$label" "$wall" "$((rss / 1024))"
}
echo "$(basename "$src"): ${#files[@]} files, gmemlint -j $jobs"
cache=$work/cache
measure "gmemlint -p, cold" "$gm" -p "$work" -j "$jobs" --cache-dir="$cache" --cache-stats --enable=all
measure "gmemlint -p, warm" "$gm" -p "$work" -j "$jobs" --cache-dir="$cache" --cache-stats --enable=all
echo "// edited" >>"${files[0]}"
measure "gmemlint -p, one file edited" "$gm" -p "$work" -j "$jobs" --cache-dir="$cache" --cache-stats --enable=all
for run in "gmemlint -p, cold" "gmemlint -p, warm" "gmemlint -p, one file edited"; do
  echo "  $run: $(grep -o 'cache: .*stored' "$work/$run.err"), $(grep -c 'parse error' "$work/$run.err" || true) with parse errors"
done
cold_findings=$(grep -c 'warning:' "$work/gmemlint -p, cold.out" || true)
edit_findings=$(grep -c 'warning:' "$work/gmemlint -p, one file edited.out" || true)
echo "  findings: cold $cold_findings, after the edit $edit_findings"
if [ -n "$tidy" ]; then
  measure "clang-tidy clang-analyzer-*" xargs -P "$jobs" -n 1 "$tidy" -p "$work" --quiet \
    --checks='-*,clang-analyzer-*' < <(printf '%s\n' "${files[@]}" | xargs -n1 realpath)
else
  echo "clang-tidy-22 not installed: no comparison (apt-get install clang-tidy-22)"
fi
