# Every file gmemlint writes (-o, --export-fixes, --write-baseline, the result cache, and report's
# -o, --html and --trace) goes to a temporary beside it that is renamed into place: a run leaves
# no temporary behind, and when the rename fails (here: the path is a directory) the error names
# the path and the temporary is gone. The tests' own result cache lives under $WORK, never in
# the user's home directory.
source "$(dirname "$0")/testlib.bash" "$@"
cd "$WORK"
write_leak leak.cu
REPORT="$ROOT/tests/report/trainer.json"
no_temporaries() { # where: names a file left as *.tmp.*
  local left
  left=$(find "$WORK" -name '*.tmp.*' | head -3)
  [ -z "$left" ] || fail "$1: temporaries left: $left"
}

HOME="$WORK/home" run --only=GM001 -o out.txt --export-fixes fixes.yaml --write-baseline base.json leak.cu
expect_rc 1 "lint with every file written"
grep -q "leak.cu:4:7: warning: 'a' (device memory from cudaMalloc) is not freed on an error path" out.txt ||
  fail "-o holds the finding: $(head -c 300 out.txt)"
[ -s fixes.yaml ] && [ -s base.json ] || fail "--export-fixes and --write-baseline written"
[ -n "$(find "$WORK/cache/gmemlint" -type f)" ] || fail "the result cache is under \$WORK/cache"
[ ! -e "$WORK/home" ] || fail "nothing written under \$HOME: $(find "$WORK/home" | head -3)"
no_temporaries "lint"
run report -o report.txt --html page.html --trace trace.json "$REPORT"
expect_rc 0 "report with every file written"
[ -s report.txt ] && [ -s page.html ] && [ -s trace.json ] || fail "report's three files written"
no_temporaries "report"

# a directory in the way: the rename fails, the message names the path, nothing is left
mkdir -p taken/out.txt taken/fixes.yaml taken/base.json taken/page.html taken/trace.json taken/r.txt
for opt in -o --export-fixes --write-baseline; do
  case $opt in
  -o) path=taken/out.txt ;;
  --export-fixes) path=taken/fixes.yaml ;;
  *) path=taken/base.json ;;
  esac
  run --no-cache --only=GM001 "$opt" "$path" leak.cu
  expect_rc 2 "$opt onto a directory"
  if [ "$opt" = --write-baseline ]; then
    expect_err "^gmemlint: error: $path: cannot write baseline: Is a directory$" "$opt message"
  else
    expect_err "^gmemlint: error: $path: cannot write: Is a directory$" "$opt message"
  fi
  no_temporaries "$opt onto a directory"
done
for opt in -o --html --trace; do
  case $opt in
  -o) path=taken/r.txt ;;
  --html) path=taken/page.html ;;
  *) path=taken/trace.json ;;
  esac
  run report "$opt" "$path" "$REPORT"
  expect_rc 2 "report $opt onto a directory"
  expect_err "^gmemlint: error: $path: cannot write: Is a directory$" "report $opt message"
  no_temporaries "report $opt onto a directory"
done
finish
