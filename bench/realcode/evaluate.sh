#!/usr/bin/env bash
# The real-code evaluation (README.md) in one command: lint every project of repos.tsv as its build
# compiles it (run.sh), then compute both halves' figures (evaluate.py): precision from
# ledger.tsv, recall on the labels of labels.tsv (each mined label's parent commit linted as a
# program), clean functions reported.
#
# Usage: bench/realcode/evaluate.sh [--label=NAME] [--reuse] GMEMLINT [NAME...]
#   GMEMLINT       the gmemlint binary to measure
#   NAME...        projects of repos.tsv (default: all)
#   --label=NAME   the run's folder, $REALCODE/out/NAME (default: eval- and the binary's commit)
#   --reuse        lint nothing at the pinned commits: use the run already in that folder
# Writes $REALCODE/out/NAME/evaluation.tsv (the figures) and evaluation-details.tsv (each label's
# outcome and each finding's verdict) and prints the table. Exit status: evaluate.py's (0 when the
# figures were computed, 2 on bad usage or unreadable inputs).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
realcode=${REALCODE:-/work/realcode}
label=
reuse=0
while [ $# -gt 0 ]; do
  case $1 in
  --label=*) label=${1#--label=} ;;
  --reuse) reuse=1 ;;
  -h | --help)
    sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  -*)
    echo "evaluate.sh: error: unknown option $1" >&2
    exit 2
    ;;
  *) break ;;
  esac
  shift
done
[ $# -ge 1 ] || {
  echo "usage: bench/realcode/evaluate.sh [--label=NAME] [--reuse] GMEMLINT [NAME...]" >&2
  exit 2
}
gmemlint=$(realpath "$1")
shift
[ -x "$gmemlint" ] || {
  echo "evaluate.sh: error: $gmemlint is not executable" >&2
  exit 2
}
if [ -z "$label" ]; then
  label=eval-$(git -C "$(dirname "$gmemlint")" describe --always --dirty 2>/dev/null || echo gmemlint)
fi
out=$realcode/out/$label
if [ $reuse = 0 ]; then
  "$here/run.sh" --label="$label" "$gmemlint" "$@" || exit $?
fi
exec python3 "$here/evaluate.py" --gmemlint="$gmemlint" --tsv="$out/evaluation.tsv" \
  --details="$out/evaluation-details.tsv" "$out" "$@"
