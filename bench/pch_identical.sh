#!/usr/bin/env bash
# The shared preambles change nothing: gmemlint's JSON output (findings, messages, notices) and
# its standard error (clang's parse errors as notes, the warnings about them) over the same
# sources with --pch=never and with the default (preambles shared and grouped by leading
# includes) must be byte for byte the same. Exits 1 on any difference, printing it.
#   bash bench/pch_identical.sh [-b gmemlint] [-j N] [--keep DIR] SOURCES... [-- FLAGS]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/gmemlint
jobs=2
keep=
while [ $# -gt 0 ]; do
  case $1 in
  -b) bin=$2; shift 2 ;;
  -j) jobs=$2; shift 2 ;;
  --keep) keep=$2; shift 2 ;;
  *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: pch_identical.sh [-b gmemlint] [-j N] [--keep DIR] SOURCES... [-- FLAGS]" >&2; exit 2; }
out=${keep:-$(mktemp -d)}
mkdir -p "$out"
[ -n "$keep" ] || trap 'rm -rf "$out"' EXIT
common=(--no-cache --no-progress --color=never --enable=all --format=json -j "$jobs")
for mode in never auto; do
  "$bin" "${common[@]}" --pch=$mode "$@" >"$out/$mode.json" 2>"$out/$mode.err"
  echo "rc=$?" >>"$out/$mode.err"
done
if cmp -s "$out/never.json" "$out/auto.json" && cmp -s "$out/never.err" "$out/auto.err"; then
  echo "identical: --pch=never and the default agree on every finding, message and parse error" \
    "($(grep -c '"rule"' "$out/auto.json") findings, $(grep -c 'note: clang:' "$out/auto.err")" \
    "clang error notes, $# arguments)"
  exit 0
fi
echo "DIFFERENT: --pch=never against the default:" >&2
diff "$out/never.json" "$out/auto.json" | head -40 >&2
diff "$out/never.err" "$out/auto.err" | head -40 >&2
exit 1
