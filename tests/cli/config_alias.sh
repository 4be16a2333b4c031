# .gmemlint [alias FUNC]: a project's call that gives a block another address is followed (the
# alias freed after the block is a double free), and malformed sections are rejected with the
# file and line (exit 2).
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir proj
cat >proj/view.cu <<'SRC'
#include <cuda_runtime.h>
extern "C" int pool_device_view(void **view, void *block);
void run(size_t n) {
  float *h = nullptr;
  float *d = nullptr;
  cudaMallocHost(&h, n);
  pool_device_view((void **)&d, h);
  cudaFreeHost(h);
  cudaFreeHost(d);
}
SRC
run proj/view.cu
expect_rc 0 "without a row, the view is another function's business"
printf '[alias pool_device_view]\npointer = 0\nsource = 1\n' >proj/.gmemlint
run proj/view.cu
expect_rc 1 "with the row, the view names the block"
expect_out "view.cu:9:3: warning: 'h' \(pinned host memory from cudaMallocHost\) is freed twice: cudaFreeHost already released it on this path; set the pointer to null after freeing it, or free it in one place \[GM003 double-free\]" "double free through the alias"
expect_out "view.cu:7:3: note: pool_device_view gives the same block another address here" "the alias note"
printf '[alias pool_device_view]\n' >proj/.gmemlint
run proj/view.cu
expect_rc 1 "pointer 0 and source 1 are the defaults"
printf '[alias pool_device_view]\npointer = x\n' >proj/.gmemlint
run proj/view.cu
expect_rc 2 "bad alias pointer"
expect_err "^gmemlint: error: .*proj/.gmemlint:2: bad argument index 'x' in \[alias pool_device_view\]" "bad pointer message"
printf '[alias pool_device_view]\nsize = 1\n' >proj/.gmemlint
run proj/view.cu
expect_rc 2 "unknown alias key"
expect_err "proj/.gmemlint:2: unknown key 'size' in \[alias pool_device_view\] \(expected pointer or source\)" "unknown alias key message"
printf '[alias]\nsource = 1\n' >proj/.gmemlint
run proj/view.cu
expect_rc 2 "alias without a name"
expect_err "proj/.gmemlint:1: \[alias\] needs a name: \[alias FUNC\]" "nameless alias message"
finish
