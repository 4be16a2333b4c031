# The preamble store (frontend/pch_store.h): preambles kept between runs in the cache directory.
# A second run takes them ready-made (no build), a changed header or a damaged PCH costs a
# rebuild and never a wrong result or a parse failure, two runs on an empty store both succeed,
# the least recently used entries go beyond the bound, an unwritable store costs a warning, and
# the output is byte-identical with the store, without it and with --pch=never.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir sys
# a system header whose macro decides whether the file frees its buffer
printf '#pragma once\n#define SYS_RELEASE(p) cudaFree(p)\n' >sys/release.h
cat >main.cu <<'SRC'
#include <cuda_runtime.h>
#include <release.h>
void step(int n) {
  float *buf = nullptr;
  cudaMalloc(&buf, n);
  SYS_RELEASE(buf);
}
int setup(int n) {
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  cudaFree(a);
  cudaFree(b);
  return 0;
}
SRC
STORE="$XDG_CACHE_HOME/gmemlint/preambles"
ARGS=(--no-cache --no-progress --cache-stats --time-report -j 1 main.cu -- -isystem sys)
LEAK_SETUP="^main\.cu:10:7: warning: 'a' \(device memory from cudaMalloc\) is not freed on an error path: a return after a failed call leaves 'setup' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]$"
LEAK_STEP="^main\.cu:5:3: warning: 'buf' \(device memory from cudaMalloc\) is not freed on every path through 'step'; call cudaFree when it is no longer needed \[GM001 unpaired-allocation\]$"
stats() { grep -E '^gmemlint: cache: preambles:' "$WORK/err"; }
expect_stats() { stats | grep -qE -- "$1" || fail "$2: store stats '$(stats)', expected /$1/"; }
builds() { grep -E '^  preamble builds' "$WORK/err"; }
# the time report counts builds as "(N)" after the figures; none: no count
expect_builds() {
  local got
  got=$(builds | grep -oE '\([0-9]+\)$' || echo none)
  [ "$got" = "$1" ] || fail "$2: preamble builds $got, expected $1 ($(builds))"
}
expect_chained() {
  expect_err '^  on a chained preamble +1 of 1 parses, holding 2 of their 2 leading system includes$' "$1"
}
same_out() { cmp -s "$1" "$WORK/out" || fail "$2: output differs: $(diff "$1" "$WORK/out" | head)"; }

# the reference: no preambles at all
run --pch=never "${ARGS[@]}"
expect_rc 1 "--pch=never: GM001 in setup"
expect_out "$LEAK_SETUP" "--pch=never: the error-path leak"
expect_no_out 'main\.cu:5:' "--pch=never: buf is freed through the header's macro"
cp out never.out
expect_stats '^gmemlint: cache: preambles: off$' "--pch=never: no store"
[ ! -e "$STORE" ] || fail "--pch=never writes nothing to the store"

# a cold run builds the base and the file's own run, and keeps both
run "${ARGS[@]}"
expect_rc 1 "cold run"
same_out never.out "cold run against --pch=never"
expect_stats "^gmemlint: cache: preambles: 0 reused, 2 stored, 0 evicted \($STORE\)$" "cold run stores two"
expect_builds "(2)" "cold run builds two"
expect_chained "cold run: the file's whole run in a chained preamble"
[ "$(find "$STORE" -name '*.dep' | wc -l)" -eq 2 ] || fail "two manifests: $(ls "$STORE")"
[ "$(find "$STORE" -name '*.tmp.*' | wc -l)" -eq 0 ] || fail "no temporaries left: $(ls "$STORE")"
grep -q '^dep .*/release\.h$' "$STORE"/*.dep || fail "a manifest lists the header it read"
! grep -q '__gmemlint__' "$STORE"/*.dep || fail "no manifest lists a virtual header (nothing on disk)"

# a warm run takes both: no build (--no-cache: the result cache is off, the store is not)
run "${ARGS[@]}"
expect_rc 1 "warm run"
same_out never.out "warm run"
expect_stats '^gmemlint: cache: preambles: 2 reused, 0 stored, 0 evicted' "warm run reuses both"
expect_builds none "warm run builds none"
expect_chained "warm run: the stored chained preamble"
run --pch=never --no-progress --no-cache -j 1 main.cu -- -isystem sys
cp out never.plain
run --no-progress --no-cache -j 1 main.cu -- -isystem sys
same_out never.plain "warm run without --time-report"
cmp -s err /dev/null || fail "warm run: nothing on stderr: $(cat err)"

# a touched header: the chained preamble is built again, the base still serves
touch -d '+2 seconds' sys/release.h
run "${ARGS[@]}"
expect_rc 1 "touched header"
same_out never.out "touched header"
expect_stats '^gmemlint: cache: preambles: 1 reused, 1 stored' "touched header: chained rebuilt"
expect_builds "(1)" "touched header: one build"

# a changed header changes the findings, as without preambles (clang itself would not notice a
# system header's change, and would use the stale preamble)
printf '#pragma once\n#define SYS_RELEASE(p) ((void)(p))\n' >sys/release.h
run "${ARGS[@]}"
expect_rc 1 "changed header"
expect_out "$LEAK_STEP" "changed header: buf is no longer freed"
expect_stats '^gmemlint: cache: preambles: 1 reused, 1 stored' "changed header: chained rebuilt"
cp out changed.out
run --pch=never "${ARGS[@]}"
same_out changed.out "changed header, against --pch=never"
printf '#pragma once\n#define SYS_RELEASE(p) cudaFree(p)\n' >sys/release.h

# a damaged PCH (cut short, or bytes overwritten in place) is a miss, built again, never used
largest() { find "$STORE" -name '*.pch' -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2; }
run "${ARGS[@]}" # settles the store after the header's last edit
base=$(largest)
size=$(stat -c %s "$base")
truncate -s $((size / 2)) "$base"
run "${ARGS[@]}"
expect_rc 1 "truncated PCH"
same_out never.out "truncated PCH"
expect_stats ' [12] stored' "truncated PCH: the base built again"
! grep -qE 'could not parse|fatal' err || fail "truncated PCH: no parse error: $(cat err)"
[ "$(stat -c %s "$(largest)")" -eq "$size" ] || fail "truncated PCH: replaced whole"
printf 'garbage!' | dd of="$(largest)" bs=1 seek=$((size / 3)) conv=notrunc status=none
run "${ARGS[@]}"
expect_rc 1 "overwritten PCH"
same_out never.out "overwritten PCH"
expect_stats ' [12] stored' "overwritten PCH: the base built again"
run "${ARGS[@]}"
expect_stats '^gmemlint: cache: preambles: 2 reused, 0 stored' "after the repair: both reused"
# a manifest that does not check out (its sum) is a miss too
dep=$(grep -L '^below -$' "$STORE"/*.dep) # the chained preamble's
sed -i 's/^dep \([0-9]*\) /dep 1\1 /' "$dep"
run "${ARGS[@]}"
same_out never.out "edited manifest"
expect_stats ' 1 reused, 1 stored' "edited manifest: that entry built again"

# two runs on an empty store at once: both succeed with the same output, and the store is whole
rm -rf "$XDG_CACHE_HOME"
"$GMEMLINT" "${ARGS[@]}" >race1.out 2>race1.err &
p1=$!
"$GMEMLINT" "${ARGS[@]}" >race2.out 2>race2.err &
p2=$!
rc1=0 rc2=0
wait $p1 || rc1=$?
wait $p2 || rc2=$?
[ "$rc1" -eq 1 ] && [ "$rc2" -eq 1 ] || fail "concurrent runs: exit statuses $rc1 and $rc2, expected 1"
cmp -s race1.out never.out || fail "concurrent run 1: $(diff never.out race1.out | head)"
cmp -s race2.out never.out || fail "concurrent run 2: $(diff never.out race2.out | head)"
run "${ARGS[@]}"
expect_stats '^gmemlint: cache: preambles: 2 reused, 0 stored' "after concurrent runs: both reused"
[ "$(find "$STORE" -name '*.dep' | wc -l)" -eq 2 ] || fail "after concurrent runs: two manifests"

# the bound: each set of flags has its own base (megabytes); beyond the bound the least recently
# used entries go, never one the run uses
rm -rf "$XDG_CACHE_HOME"
variant() { run --no-cache --no-progress --cache-stats -j 1 "${@:2}" main.cu -- -isystem sys -DVARIANT="$1"; }
variant 1
variant 2
variant 1 # A used after B: B is now the least recently used
expect_stats ' 2 reused, 0 stored' "variant 1 again: reused"
two=$(du -sb "$STORE" | cut -f1)
bound=$((two * 5 / 4)) # room for two variants' preambles, not three
variant 3 --pch-store-max=$bound
expect_stats ' 0 reused, 2 stored, 2 evicted' "a third variant past the bound evicts one"
[ "$(du -sb "$STORE" | cut -f1)" -le "$bound" ] || fail "the store within its bound: $(du -sb "$STORE")"
variant 1
expect_stats ' 2 reused, 0 stored' "the recently used variant stays"
variant 3
expect_stats ' 2 reused, 0 stored' "the newest variant stays"
variant 2 --pch-store-max=1
expect_stats ' 0 reused, 2 stored, 4 evicted' "the least recently used went; a tiny bound keeps this run's own"
[ "$(find "$STORE" -name '*.dep' | wc -l)" -eq 2 ] || fail "a tiny bound: only the run's own entries left"
# the variable, and bad sizes
GMEMLINT_PCH_STORE_MAX=1 variant 1
expect_stats ' 0 reused, 2 stored, 2 evicted' "GMEMLINT_PCH_STORE_MAX bounds the store"
run --pch-store-max=lots main.cu
expect_rc 2 "a bad --pch-store-max"
expect_err "^gmemlint: error: bad --pch-store-max value 'lots' \(expected a size such as 500M or 2G\)$" "names the value"
GMEMLINT_PCH_STORE_MAX=2X run main.cu
expect_rc 2 "a bad GMEMLINT_PCH_STORE_MAX"
expect_err "^gmemlint: error: bad GMEMLINT_PCH_STORE_MAX value '2X' \(expected a size such as 500M or 2G\)$" "names the variable"

# a dead run's leftovers go once old; a live run's recent temporary stays
: >"$STORE/0123456789abcdef0123456789abcdef.pch.tmp.1.0"
touch -d '2 hours ago' "$STORE/0123456789abcdef0123456789abcdef.pch.tmp.1.0"
: >"$STORE/fedcba9876543210fedcba9876543210.pch.tmp.2.0"
variant 4
[ ! -e "$STORE/0123456789abcdef0123456789abcdef.pch.tmp.1.0" ] || fail "an old temporary goes"
[ -e "$STORE/fedcba9876543210fedcba9876543210.pch.tmp.2.0" ] || fail "a recent temporary stays"

# an unwritable store costs a warning, once, and the same output
: >notadir
run --no-cache --no-progress -j 1 --cache-dir="$WORK/notadir/cache" main.cu -- -isystem sys
expect_rc 1 "unwritable store"
same_out never.plain "unwritable store"
expect_err "^gmemlint: warning: cannot write the preamble store in $WORK/notadir/cache/preambles: Not a directory \(--no-pch-store turns it off\)$" "unwritable store warns"
[ "$(grep -c 'preamble store' "$WORK/err")" -eq 1 ] || fail "unwritable store: warned once: $(cat err)"
# a store that can be read but not written still serves (root writes anyway: not checked then)
if [ "$(id -u)" -ne 0 ]; then
  rm -rf "$XDG_CACHE_HOME"
  variant 1
  chmod -R a-w "$XDG_CACHE_HOME"
  variant 1
  expect_stats ' 2 reused, 0 stored' "read-only store: reused"
  variant 5
  expect_rc 1 "read-only store, new flags: still linted"
  expect_err 'warning: cannot write the preamble store' "read-only store: warned"
  chmod -R u+w "$XDG_CACHE_HOME"
fi

# byte-identical with the store, without it and without preambles, in every format
rm -rf "$XDG_CACHE_HOME"
for fmt in text json sarif; do
  F=(--no-cache --no-progress -j 1 --format=$fmt main.cu -- -isystem sys)
  run --pch=never "${F[@]}"
  cp out ref.$fmt
  cp err ref.err
  for mode in --no-pch-store --pch=auto --pch=auto --pch=always; do
    run "$mode" "${F[@]}"
    same_out ref.$fmt "$fmt with $mode"
    cmp -s err ref.err || fail "$fmt with $mode: stderr differs: $(diff ref.err err)"
  done
done
# --no-pch-store writes nothing there
rm -rf "$XDG_CACHE_HOME"
run --no-pch-store --cache-stats --no-cache main.cu -- -isystem sys
expect_stats '^gmemlint: cache: preambles: off$' "--no-pch-store"
[ ! -e "$STORE" ] || fail "--no-pch-store writes nothing"
finish
