# A GM002 or GM003 finding carries its allocation site as data (gm_finding.site), and a GM020
# finding its copy site (gm_finding.copy_site), which the judges look up in the telemetry. Both
# survive the result cache and a findings file (*.gmemlint.json), so a verdict from a cache hit
# or a findings file is the one a parse gives: each case under tests/join prints exactly its
# expected.txt all three ways (GM020's evidence names the bytes its copy site moved).
source "$(dirname "$0")/testlib.bash"
JOIN="$ROOT/tests/join"
VERDICTS='note: (confirmed|dismissed|not-exercised|unverifiable): '
C=(--cache-dir="$WORK/cache" --cache-stats)

# verdicts NAME WHAT: the verdict lines of $WORK/out are exactly the case's expected.txt
verdicts() {
  grep -E -- "$VERDICTS" "$WORK/out" >"$WORK/got" || true
  diff -u "$JOIN/$1/expected.txt" "$WORK/got" >"$WORK/diff" ||
    fail "$1, $2: verdicts differ from expected.txt: $(cat "$WORK/diff")"
}

for name in gm002 gm002_member gm003 gm020; do
  dir="$JOIN/$name"
  tel=()
  for t in "$dir"/*.json; do tel+=(--telemetry "$(basename "$t")"); done
  src=$(basename "$dir"/*.cu)
  rm -rf "$WORK/cache"
  for pass in parse hit; do
    rc=0
    (cd "$dir" && "$GMEMLINT" "${C[@]}" "${tel[@]}" "$src") >"$WORK/out" 2>"$WORK/err" || rc=$?
    expect_rc 1 "$name, $pass: findings remain"
    if [ $pass = parse ]; then
      grep -qE '^gmemlint: cache: 0 hit\(s\), 1 miss\(es\), 1 stored' "$WORK/err" ||
        fail "$name: the first run parses: $(cat "$WORK/err")"
    else
      grep -qE '^gmemlint: cache: 1 hit\(s\), 0 miss\(es\)' "$WORK/err" ||
        fail "$name: the second run is a cache hit: $(cat "$WORK/err")"
    fi
    verdicts $name "$pass"
  done

  # the findings of a parse written as a findings file, then joined without the source's parse
  (cd "$dir" && "$GMEMLINT" --no-cache --format=json -o "$WORK/$name.gmemlint.json" "$src") || true
  [ -s "$WORK/$name.gmemlint.json" ] || fail "$name: could not write a findings file"
  rc=0
  (cd "$dir" && "$GMEMLINT" --cuda-path=/nonexistent "${tel[@]}" "$WORK/$name.gmemlint.json") \
    >"$WORK/out" 2>"$WORK/err" || rc=$?
  expect_rc 1 "$name, findings file: findings remain"
  verdicts $name "findings file"
done

# a finding that names no allocation (a free of a local array) has no site to judge
cat >"$WORK/local.cu" <<'SRC'
#include <cuda_runtime.h>
void run_step() {
  float staging[64];
  cudaFree(staging);
}
SRC
run --no-cache --telemetry "$JOIN/gm002/staging.json" "$WORK/local.cu"
expect_rc 1 "a free of a local array"
expect_out "^$WORK/local.cu:4:3: note: unverifiable: the finding names no allocation site$" \
  "no site, no runtime evidence"
finish
