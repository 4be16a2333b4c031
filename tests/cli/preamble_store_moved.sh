# A preamble store moved or copied to another cache directory (frontend/pch_store.h). A PCH
# names the source it was built from by its path, and clang refuses it where that file is gone;
# the manifest checked that source's size and time where the store is now, so a moved store's
# base passed and every file parsed with it was reported as not parsed ("libclang could not
# parse the file"), run after run. Such an entry is a miss now, built again where the store is.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir sys
printf '#pragma once\n#define SYS_RELEASE(p) cudaFree(p)\n' >sys/release.h
cat >main.cu <<'SRC'
#include <cuda_runtime.h>
#include <release.h>
void step(int n) {
  float *buf = nullptr;
  cudaMalloc(&buf, n);
  SYS_RELEASE(buf);
}
SRC
FLAGS=(-j 1 main.cu -- -isystem sys)
stats() { grep -E '^gmemlint: cache: preambles:' "$WORK/err"; }
expect_stats() { stats | grep -qE -- "$1" || fail "$2: store stats '$(stats)', expected /$1/"; }
same_out() { cmp -s "$1" "$WORK/out" || fail "$2: output differs: $(diff "$1" "$WORK/out" | head)"; }
parsed() {
  ! grep -qE 'could not parse|not analysed' "$WORK/err" || fail "$1: the file was parsed: $(cat "$WORK/err")"
}
# the edit a pre-commit hook or bench/inject lints: a wrong free
edit() { sed -i 's/SYS_RELEASE(buf)/cudaFreeHost(buf)/' main.cu; }
unedit() { sed -i 's/cudaFreeHost(buf)/SYS_RELEASE(buf)/' main.cu; }

edit
run --pch=never --no-cache --no-progress "${FLAGS[@]}"
expect_rc 1 "--pch=never: the edited file"
expect_out '^main\.cu:6:3: warning: .*cudaFreeHost.*\[GM002 mismatched-free\]$' "--pch=never: GM002"
cp out edited.out
unedit

# a whole run fills the store in one cache directory (the base and the file's own run) ...
run --no-progress --cache-stats --cache-dir "$WORK/first" "${FLAGS[@]}"
expect_rc 0 "filling the store"
expect_stats ' 0 reused, 2 stored' "filling the store"
# ... which then moves: the next lint of an edited file builds both again where they are now
mv first moved
edit
run --no-progress --cache-stats --cache-dir "$WORK/moved" "${FLAGS[@]}"
expect_rc 1 "moved store: the edited file is linted"
same_out edited.out "moved store"
parsed "moved store"
expect_stats "^gmemlint: cache: preambles: 0 reused, 2 stored, 0 evicted \($WORK/moved/preambles\)$" \
  "moved store: both built again"
run --no-progress --no-cache --cache-stats --cache-dir "$WORK/moved" "${FLAGS[@]}"
same_out edited.out "moved store, once rebuilt"
expect_stats ' 2 reused, 0 stored' "moved store, once rebuilt: both reused"

# a copy (cp -a keeps every time) whose original stays leans on none of the original's files:
# it builds its own, and still serves once the original is gone
cp -a moved copy
run --no-progress --no-cache --cache-stats --cache-dir "$WORK/copy" "${FLAGS[@]}"
same_out edited.out "copied store"
parsed "copied store"
expect_stats ' 0 reused, 2 stored' "copied store: both built again"
rm -rf moved
run --no-progress --no-cache --cache-stats --cache-dir "$WORK/copy" "${FLAGS[@]}"
expect_rc 1 "copied store, original gone"
same_out edited.out "copied store, original gone"
parsed "copied store, original gone"
expect_stats ' 2 reused, 0 stored' "copied store, original gone: its own entries reused"
finish
