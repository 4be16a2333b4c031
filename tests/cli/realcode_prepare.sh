#!/usr/bin/env bash
# bench/realcode/run.sh on a CMake project written here whose CMakeLists.txt lies in a
# subdirectory (the recipe's -S DIR) and whose source includes a header the build would generate
# (a run:CMD need makes it in the checkout); a run: command that fails skips its project.
source "$(dirname "$0")/testlib.bash" "$@"
tools=$ROOT/bench/realcode
export REALCODE=$WORK/realcode MIRROR=$WORK/mirror
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
repo=$WORK/mirror/me+nested/repo
mkdir -p "$repo/part"
git -C "$repo" init -q
cat >"$repo/part/CMakeLists.txt" <<'SRC'
cmake_minimum_required(VERSION 3.18)
project(nested LANGUAGES CXX)
add_library(nested part.cpp)
SRC
cat >"$repo/part/part.cpp" <<'SRC'
#include "generated.h"
int width() { return GENERATED_WIDTH; }
SRC
git -C "$repo" add -A && git -C "$repo" commit -qm "a project in part/"
head=$(git -C "$repo" rev-parse HEAD)

row() { printf '%s\tme/nested\t%s\tml\tcmake\t-S part\t%s\tmeasured\n' "$1" "$head" "$2"; }
{
  printf '# name\trepo\tcommit\tkind\tbuild\trecipe\tneeds\thalf\n'
  row nested "run:echo '#define GENERATED_WIDTH 4' >part/generated.h"
  row broken "run:false"
} >"$WORK/repos.tsv"
REPOS=$WORK/repos.tsv "$tools/run.sh" --label=t "$GMEMLINT" >"$WORK/out" 2>"$WORK/err" ||
  fail "run.sh exited $?: $(head -c 600 "$WORK/err")"

[ "$(cat "$REALCODE/src/nested/part/generated.h" 2>/dev/null)" = "#define GENERATED_WIDTH 4" ] ||
  fail "run: did not write part/generated.h in the checkout"
for gen in make ninja; do
  db=$REALCODE/build/nested/$gen/compile_commands.json
  files=$("$PY" -c 'import json,sys; print(" ".join(e["file"] for e in json.load(open(sys.argv[1]))))' "$db" 2>&1)
  [ "$files" = "$REALCODE/src/nested/part/part.cpp" ] ||
    fail "-S part ($gen): the database lists '$files', expected $REALCODE/src/nested/part/part.cpp"
done
# files missing analysed parse_errors, for each generator: the generated header was found
got=$(awk -F'\t' '$1 == "nested" { print $1, $3, $4, $5, $6 }' "$REALCODE/out/t/results.tsv")
want=$'nested 1 0 1 0\nnested 1 0 1 0'
[ "$got" = "$want" ] || fail "results.tsv for nested: expected
$want
got
$got"
grep -qx "run.sh: broken: 'false' failed (see $REALCODE/out/t/logs/run-broken.log)" "$WORK/err" ||
  fail "run.sh: no note naming the failed run: command: $(cat "$WORK/err")"
grep -qx "run.sh: broken: skipped" "$WORK/err" || fail "run.sh: the project whose run: failed was not skipped"
[ -d "$REALCODE/build/broken" ] && fail "run.sh configured the project whose run: failed"
finish
