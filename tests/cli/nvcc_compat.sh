# The nvcc compatibility header (analyzer/frontend/nvcc_compat.c), held in the executable and force-included
# into every CUDA parse from a virtual path: the shared preamble (--pch) holds it and gives the
# same findings as parsing without one; the result cache neither lists it among the files a parse
# read nor fails to store because of it; a project's own min and max macros still win; nothing
# in it is ever reported.
source "$(dirname "$0")/testlib.bash"
cd "$ROOT"
files=(tests/analyzer/GM001_parse_nvcc_*.cu samples/error_path_leak.cu samples/leaky_training_loop.cu samples/managed_saxpy.cu)
for f in "${files[@]}"; do [ -f "$f" ] || fail "missing test input $f"; done

# --pch=always and --pch=never: the same findings, and no parse error either way
run --no-cache --no-progress --pch=always -j 2 "${files[@]}"
expect_rc 1 "--pch=always finds the leaks"
cp "$WORK/out" "$WORK/always.out"
grep -q 'parse error' "$WORK/err" && fail "--pch=always: parse errors: $(grep 'clang:' "$WORK/err" | head -3)"
run --no-cache --no-progress --pch=never -j 2 "${files[@]}"
expect_rc 1 "--pch=never finds the leaks"
grep -q 'parse error' "$WORK/err" && fail "--pch=never: parse errors: $(grep 'clang:' "$WORK/err" | head -3)"
cmp -s "$WORK/always.out" "$WORK/out" ||
  fail "--pch=always and --pch=never differ: $(diff "$WORK/always.out" "$WORK/out" | head)"
[ "$(grep -c 'GM001' "$WORK/out")" -ge 6 ] || fail "a GM001 finding in each parse_nvcc test expected"
grep -q '__gmemlint__' "$WORK/out" "$WORK/err" && fail "the compat header's path is shown"

# the result cache: stored (the in-memory header is no file to check), then a hit
cp tests/analyzer/GM001_parse_nvcc_host_min_max.cu "$WORK/minmax.cu"
cp tests/analyzer/GM001_parse_nvcc_dynamic_parallelism.cu "$WORK/dp.cu"
C=(--cache-dir="$WORK/cache" --cache-stats --no-progress)
run "${C[@]}" "$WORK/minmax.cu" "$WORK/dp.cu"
expect_rc 1 "first cached run"
expect_err '0 hit\(s\), 2 miss\(es\), 2 stored' "both files stored"
run "${C[@]}" "$WORK/minmax.cu" "$WORK/dp.cu"
expect_err '2 hit\(s\), 0 miss\(es\), 0 stored' "both files hit"
grep -rqa --exclude-dir=preambles '__gmemlint__' "$WORK/cache" && fail "the cache lists the compat header as a file read"

# a project's own force-included header that defines min and max as macros comes after the compat
# header (which it therefore leaves intact), and its macros are what the calls use
cat >"$WORK/minmax_macros.h" <<'SRC'
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
SRC
cat >"$WORK/macro.cu" <<'SRC'
#include <cuda_runtime.h>
long pick(int a, long b) { return max(a, b) + min(a, 2.5); }
SRC
run --no-cache "$WORK/macro.cu" -- -include "$WORK/minmax_macros.h"
expect_rc 0 "min/max macros from the project's -include"
grep -q 'clang:' "$WORK/err" && fail "min/max macros: $(grep 'clang:' "$WORK/err" | head -3)"

# C++ sources do not get it: their own static max(int, int) is theirs alone
cat >"$WORK/host.cpp" <<'SRC'
static int max(int a, int b) { return a > b ? a : b; }
int pick(int a, int b) { return max(a, b); }
SRC
run --no-cache "$WORK/host.cpp"
expect_rc 0 "a C++ file with its own max"
grep -q 'clang:' "$WORK/err" && fail "C++ file: $(grep 'clang:' "$WORK/err" | head -3)"
finish
