#!/usr/bin/env bash
# Injected defects over the real-code corpus (issue 38): inject.py on every project of
# bench/realcode/repos.tsv (both halves, at their pinned commits) whose compile database
# bench/realcode/run.sh has made, one seed for the whole run, then the tables summed over them.
#
# Usage: bench/inject/run.sh [--seed N] [--max N] [--kinds K,K] [--label L] GMEMLINT [NAME...]
#   GMEMLINT   the gmemlint binary to measure
#   NAME...    projects of repos.tsv (default: every one with a database)
#   --seed N   picks each site's variant and the sample (default: a new seed, printed)
#   --max N    at most N mutants a project, sampled by the seed (default: all)
#   --kinds    the kinds to make (default: all; inject.py --help lists them)
#   --label L  results under $REALCODE/inject/L (default: seed-N)
# Environment: REALCODE (default /work/realcode) holds the clones and databases (see
# bench/realcode/README.md: fetch the repositories, then run.sh makes the databases); REPOS
# (default bench/realcode/repos.tsv). The database used is the one evaluate.py uses: Ninja's,
# else Unix Makefiles', else the make dry run's. Each mutant edits one file of the clone in place
# and puts it back (a journal beside the project's result cache, $REALCODE/inject/cache/NAME,
# kept between runs, restores a file an interrupted run left).
# Exit status: 0 the measurement ran, 2 bad usage.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
realcode=${REALCODE:-/work/realcode}
repos=${REPOS:-$here/../realcode/repos.tsv}
seed=
label=
extra=()
while [ $# -gt 0 ]; do
  case $1 in
  --seed) seed=$2; shift ;;
  --seed=*) seed=${1#--seed=} ;;
  --max) extra+=(--max "$2"); shift ;;
  --max=*) extra+=(--max "${1#--max=}") ;;
  --kinds) extra+=(--kinds "$2"); shift ;;
  --kinds=*) extra+=(--kinds "${1#--kinds=}") ;;
  --label) label=$2; shift ;;
  --label=*) label=${1#--label=} ;;
  -h | --help)
    sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  -*)
    echo "run.sh: error: unknown option $1" >&2
    exit 2
    ;;
  *) break ;;
  esac
  shift
done
if [ $# -lt 1 ]; then
  echo "usage: bench/inject/run.sh [--seed N] [--max N] [--kinds K,K] [--label L] GMEMLINT [NAME...]" >&2
  exit 2
fi
gmemlint=$(realpath "$1")
shift
[ -x "$gmemlint" ] || {
  echo "run.sh: error: $gmemlint is not executable" >&2
  exit 2
}
case $seed in
'') seed=$(python3 -c 'import random; print(random.SystemRandom().randrange(1, 10**6))') ;;
*[!0-9]*)
  echo "run.sh: error: --seed takes a number, not '$seed'" >&2
  exit 2
  ;;
esac
label=${label:-seed-$seed}
out=$realcode/inject/$label
mkdir -p "$out"
echo "seed $seed; results in $out" >&2

wanted=" $* "
results=()
while IFS=$'\t' read -r name _ _ _ _ _ _ _; do
  case $name in '#'* | '') continue ;; esac
  [ $# -eq 0 ] || [[ $wanted == *" $name "* ]] || continue
  db=
  for gen in ninja make dryrun; do
    if [ -f "$realcode/build/$name/$gen/compile_commands.json" ]; then
      db=$realcode/build/$name/$gen
      break
    fi
  done
  if [ -z "$db" ]; then
    echo "run.sh: $name: no compile database under $realcode/build/$name (run bench/realcode/run.sh first); skipped" >&2
    continue
  fi
  python3 "$here/inject.py" --db "$db" --gmemlint "$gmemlint" --seed "$seed" \
    --project "$name" --out "$out/$name" --cache "$realcode/inject/cache/$name" "${extra[@]}" >"$out/$name.table" 2>"$out/$name.log"
  status=$?
  if [ $status -ne 0 ] || [ ! -f "$out/$name/$name.results.json" ]; then
    echo "run.sh: $name: inject.py exited $status (see $out/$name.log)" >&2
    continue
  fi
  echo "$name: $(head -1 "$out/$name.log" | sed "s/^$name: //")" >&2
  results+=("$out/$name/$name.results.json")
done <"$repos"
if [ ${#results[@]} -eq 0 ]; then
  echo "run.sh: no project was measured" >&2
  exit 0
fi
python3 "$here/inject.py" --summarize "${results[@]}" | tee "$out/summary.txt"
