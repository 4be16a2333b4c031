# Globals as members of the program (tests/program/global_tables_release_forgets_one): the
# findings of the whole program with every note, in full; a file alone does not judge globals
# other files can see; and the result cache keeps what a unit summary says of its globals, so a
# warm run judges them as the cold run did.
source "$(dirname "$0")/testlib.bash"
CASE=$ROOT/tests/program/global_tables_release_forgets_one
cp "$CASE"/*.cu "$CASE"/*.h "$WORK"/
cd "$WORK"

cat >expected.txt <<'TXT'
init.cu:11:3: warning: 'd_found[]' (device memory from cudaMalloc) is never freed: no function in the program releases it, while 'd_state[]', allocated with it in 'worker_init', is freed in 'worker_release'; free it there with cudaFree [GM001 unpaired-allocation]
release.cu:6:3: note: 'd_state[]' is freed here, in 'worker_release'
release.cu:7:3: warning: 'h_found[]' (pinned host memory from cudaMallocHost, allocated in 'worker_init') is released with cudaFree, which does not free it; use cudaFreeHost [GM002 mismatched-free]
init.cu:12:3: note: allocated here with cudaMallocHost
TXT

run --no-cache --color=never init.cu kernels.cu release.cu
expect_rc 1 "whole program: the forgotten table and the wrong free"
grep -E '^[a-z]+\.cu:[0-9]+:[0-9]+: ' out >got.txt
diff expected.txt got.txt >/dev/null || fail "whole program findings: $(diff expected.txt got.txt)"

for f in init.cu release.cu; do
  run --no-cache "$f"
  expect_rc 0 "$f alone: its tables may be freed by a file the run does not see"
  [ -s out ] && fail "$f alone prints nothing: $(head -c 400 out)"
done

mkdir cache
run --cache-dir=cache --cache-stats --color=never init.cu kernels.cu release.cu
expect_err 'cache: 0 hit\(s\), 3 miss\(es\)' "cold run parses the three files"
cp out cold.txt
run --cache-dir=cache --cache-stats --color=never init.cu kernels.cu release.cu
expect_err 'cache: [0-9]+ hit\(s\), 0 miss\(es\)' "warm run parses nothing"
cmp -s out cold.txt || fail "warm run prints what the cold run printed: $(diff cold.txt out)"
finish
