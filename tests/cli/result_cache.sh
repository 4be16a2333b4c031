# The result cache: a hit on an unchanged file prints exactly what a parse would (text, JSON,
# SARIF, fix-its); a changed source, header, flag or .gmemlint is a miss; a corrupt entry is a
# miss that gets replaced; --verify, --no-cache and files with parse errors never use it.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir proj
cat >proj/release.cuh <<'SRC'
#include <cuda_runtime.h>
inline void release(float *p) { cudaFree(p); }
SRC
cat >proj/main.cu <<'SRC'
#include "release.cuh"
int setup(int n) {
  float *a = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  release(a);
  return 0;
}
void train(int steps, int n) {
  float *scratch = nullptr;
  for (int s = 0; s < steps; ++s) {
    cudaMalloc(&scratch, n * sizeof(float));
    cudaFree(scratch);
  }
}
SRC
C="--cache-dir=$WORK/cache --cache-stats --no-pch-store" # the result cache alone
stats() { grep -E '^gmemlint: cache:' "$WORK/err"; }
expect_stats() { stats | grep -qE -- "$1" || fail "$2: cache stats '$(stats)', expected /$1/"; }

run $C proj/main.cu
expect_rc 1 "first run: GM010 in train"
expect_stats '0 hit\(s\), 1 miss\(es\), 1 stored' "first run is a miss"
[ "$(find cache -type f | wc -l)" -eq 1 ] || fail "one entry expected: $(find cache -type f)"
cp out first.out
run $C proj/main.cu
expect_rc 1 "second run"
expect_stats '1 hit\(s\), 0 miss\(es\), 0 stored' "unchanged file hits"
cmp -s first.out out || fail "a hit prints what the parse printed: $(diff first.out out)"

# every output format and the fix-its: the same from a hit as from a parse
for fmt in text json sarif; do
  "$GMEMLINT" --no-cache --format=$fmt --export-fixes cold.yaml proj/main.cu >cold.$fmt 2>cold.err
  run $C --format=$fmt --export-fixes warm.yaml proj/main.cu
  expect_stats '1 hit\(s\)' "$fmt from the cache"
  cmp -s cold.$fmt out || fail "$fmt differs between parse and hit: $(diff cold.$fmt out | head)"
  cmp -s cold.yaml warm.yaml || fail "fix-its differ ($fmt): $(diff cold.yaml warm.yaml | head)"
  grep -v '^gmemlint: cache:' err | cmp -s cold.err - || fail "$fmt: stderr differs"
done
grep -q 'GM010' cold.yaml || fail "the fix-it of GM010 is in the YAML"

# a changed source: a miss, then a hit again
echo '// touched' >>proj/main.cu
run $C proj/main.cu
expect_stats '0 hit\(s\), 1 miss\(es\), 1 stored' "changed source misses"
run $C proj/main.cu
expect_stats '1 hit\(s\)' "changed source, second run"

# a changed header: the same key, but a file it read differs
cat >proj/release.cuh <<'SRC'
#include <cuda_runtime.h>
inline void release(float *p) { (void)p; }
SRC
run $C proj/main.cu
expect_stats '0 hit\(s\), 1 miss\(es\), 1 stored' "changed header misses"
expect_out "main.cu:4:7: warning: .*GM001" "the header's change shows (release no longer frees)"
run $C proj/main.cu
expect_stats '1 hit\(s\)' "changed header, second run"
expect_out "GM001" "the hit has the new finding"

# changed flags, rule selection, --werror
run $C proj/main.cu -- -DEXTRA=1
expect_stats '0 hit\(s\), 1 miss' "changed parser flags miss"
run $C proj/main.cu -- -DEXTRA=1
expect_stats '1 hit\(s\)' "same flags hit"
run $C --disable=GM010 proj/main.cu
expect_stats '0 hit\(s\), 1 miss' "changed rule selection misses"
expect_no_out "GM010" "--disable=GM010 applies"
run $C --werror proj/main.cu
expect_stats '0 hit\(s\), 1 miss' "--werror misses"
expect_out "error: .*GM001" "--werror findings are errors"

# a .gmemlint that applies: its contents are in the key
printf '[rules]\ndisable = GM001\n' >proj/.gmemlint
run $C proj/main.cu
expect_stats '0 hit\(s\), 1 miss' "a new .gmemlint misses"
expect_no_out "GM001" ".gmemlint disables GM001"
printf '[rules]\ndisable = GM010\n' >proj/.gmemlint
run $C proj/main.cu
expect_stats '0 hit\(s\), 1 miss' "a changed .gmemlint misses"
expect_out "GM001" "GM001 is back"
rm proj/.gmemlint

# corrupt entries: each is a miss (no crash, same output), then replaced
run $C proj/main.cu
expect_stats '1 hit\(s\)' "before corrupting"
cp out good.out
for how in garbage truncate flip empty; do
  for f in $(find cache -type f); do
    case $how in
    garbage) head -c 3000 /dev/urandom >"$f" ;;
    truncate) truncate -s 100 "$f" ;;
    flip) printf '\x55' | dd of="$f" bs=1 seek=200 conv=notrunc status=none ;;
    empty) : >"$f" ;;
    esac
  done
  run $C proj/main.cu
  expect_rc 1 "corrupt entry ($how)"
  expect_stats '0 hit\(s\), 1 miss\(es\), 1 stored' "corrupt entry ($how) is a miss"
  cmp -s good.out out || fail "corrupt entry ($how): output differs"
  run $C proj/main.cu
  expect_stats '1 hit\(s\)' "corrupt entry ($how) was replaced"
done

# the PCH does not change the key: entries made with it serve parses without it
cp proj/main.cu proj/b.cu
cp proj/main.cu proj/c.cu
run --cache-dir="$WORK/cache2" --cache-stats --pch=always proj/main.cu proj/b.cu proj/c.cu
expect_stats '0 hit\(s\), 3 miss\(es\), 3 stored' "PCH run stores"
run --cache-dir="$WORK/cache2" --cache-stats --pch=never proj/main.cu proj/b.cu proj/c.cu
expect_stats '3 hit\(s\), 0 miss' "entries from a PCH run hit without one"
# ... and a header the PCH holds is checked too: a copy of cuda_runtime.h first on the search
# path is read while building the PCH, not by the parses that use it
CUDA=${CUDA_PATH:-/usr/local/cuda}
mkdir shadow
cp "$CUDA/include/cuda_runtime.h" shadow/
S=(--cache-dir="$WORK/cache3" --cache-stats --no-pch-store --pch=always proj/main.cu proj/b.cu proj/c.cu
  -- -isystem "$WORK/shadow")
run "${S[@]}"
expect_stats '3 stored' "shadowed CUDA header, first run"
grep -qa "$WORK/shadow/cuda_runtime.h" $(find cache3 -type f | head -1) ||
  fail "the entry lists the PCH's headers"
run "${S[@]}"
expect_stats '3 hit\(s\)' "shadowed CUDA header, unchanged"
echo '/* changed */' >>shadow/cuda_runtime.h
run "${S[@]}"
expect_stats '0 hit\(s\), 3 miss' "a changed CUDA header (inside the PCH) misses"

# files with parse errors are not cached (a missing header may appear)
cat >proj/broken.cu <<'SRC'
#include "missing.cuh"
void f(int n) { float *p; cudaMalloc(&p, n); }
SRC
run $C proj/broken.cu
run $C proj/broken.cu
expect_stats '0 hit\(s\), 1 miss\(es\), 0 stored' "a file with parse errors is not stored"

# --verify and --no-cache bypass it
run --cache-dir="$WORK/cache4" --cache-stats --no-cache --no-pch-store proj/main.cu
expect_stats 'off' "--no-cache"
run --cache-dir="$WORK/cache4" --cache-stats --verify proj/main.cu
expect_stats 'off' "--verify"
[ ! -e cache4 ] || fail "nothing written with --no-cache or --verify"

# where it lives by default
XDG_CACHE_HOME="$WORK/xdg" run --cache-stats proj/main.cu
expect_stats "$WORK/xdg/gmemlint" "XDG_CACHE_HOME"
[ -n "$(find xdg/gmemlint -type f)" ] || fail "entries under \$XDG_CACHE_HOME/gmemlint"
env -u XDG_CACHE_HOME HOME="$WORK/home" "$GMEMLINT" --cache-stats proj/main.cu >/dev/null 2>err.home
grep -q "$WORK/home/.cache/gmemlint" err.home || fail "~/.cache/gmemlint: $(cat err.home)"

# an unwritable cache costs a warning, not the result
: >notadir
run --cache-dir="$WORK/notadir/cache" proj/main.cu
expect_rc 1 "unwritable cache: findings still reported"
expect_err "warning: cannot write the result cache" "unwritable cache warns"
[ "$(grep -c 'cannot write the result cache' "$WORK/err")" -eq 1 ] || fail "warned once"

# a hit keeps each leak's path kind: an error-path leak stays a note in JSON and SARIF
write_leak proj/errpath.cu
for fmt in json sarif; do
  "$GMEMLINT" --no-cache --format=$fmt proj/errpath.cu >cold.$fmt 2>/dev/null
  run --cache-dir="$WORK/cache5" --format=$fmt proj/errpath.cu
  run --cache-dir="$WORK/cache5" --cache-stats --format=$fmt proj/errpath.cu
  expect_stats '1 hit\(s\)' "errpath.cu $fmt from the cache"
  cmp -s cold.$fmt out || fail "errpath.cu $fmt differs between parse and hit: $(diff cold.$fmt out | head)"
done
grep -q '"level": "note"' out || fail "the hit's SARIF has level note"
finish
