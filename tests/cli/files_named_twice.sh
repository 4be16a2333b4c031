# A file named twice is analysed once, under its first name: on the command line (`a.cu a.cu`,
# `a.cu ./a.cu`), with -p, and in a compile database that lists it twice (the first entry's
# flags are used, as libclang gives them first).
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir -p src build
write_leak src/leak.cu
write_clean src/clean.cu
finding="src/leak.cu:4:7: warning: 'a' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'setup' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]"
"$GMEMLINT" --no-cache src/leak.cu src/clean.cu >once.out 2>once.err || true
grep -qxF "$finding" once.out || fail "the finding, once: $(cat once.out)"

for names in "src/leak.cu src/leak.cu src/clean.cu" "src/leak.cu ./src/leak.cu src/clean.cu src/../src/clean.cu" \
  "src/leak.cu src/clean.cu src/leak.cu $WORK/src/leak.cu"; do
  run --no-cache $names
  expect_rc 1 "$names"
  cmp -s once.out out || fail "$names: each file analysed once: $(diff once.out out)"
  cmp -s once.err err || fail "$names: stderr: $(diff once.err err)"
done
run --no-cache --format=json src/leak.cu ./src/leak.cu
[ "$($PY -c 'import json,sys; print(len(json.load(sys.stdin)["findings"]))' <out)" = 1 ] ||
  fail "JSON: the finding once: $(head -c 400 out)"

# the database lists leak.cu twice: the first entry's flags (here the one that makes it compile)
cat >src/pre.h <<'SRC'
#define SIZE_OF_A 64
SRC
sed 's/cudaMalloc(&a, n)/cudaMalloc(\&a, SIZE_OF_A)/' src/leak.cu >src/sized.cu
cat >build/compile_commands.json <<JSON
[{"directory": "$WORK/src", "file": "sized.cu", "command": "clang++ -include pre.h -c sized.cu"},
 {"directory": "$WORK/src", "file": "$WORK/src/sized.cu", "command": "clang++ -c sized.cu"}]
JSON
sized="src/sized.cu:4:7: warning: 'a' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'setup' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]"
run --no-cache -p build src/sized.cu src/sized.cu
expect_rc 1 "-p, named twice, listed twice"
[ ! -s err ] || fail "-p: the first entry's flags: $(cat err)"
[ "$(grep -cxF "$sized" out)" = 1 ] || fail "-p: the finding once: $(cat out)"
run --no-cache -p build
expect_rc 1 "-p alone, listed twice"
[ "$(grep -c 'GM001' out)" = 1 ] || fail "-p alone: the finding once: $(cat out)"
finish
