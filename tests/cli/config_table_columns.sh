# The family table's columns that rules read instead of a function's name: a copy's direction,
# kind and stream arguments (GM021), whether the host touches a use's memory (GM031), whether a
# family's memory is pinned (GM010's cost) and which calls set the runtime's status (an error
# path after cudaGetLastError). A project's .gmemlint rows carry them for functions with any
# name; a config without them still loads, with their defaults.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir copies touch pin status status/sys

# --- copies: direction = htod, stream, kind ---
cat >copies/copies.cu <<'SRC'
#include <cstddef>
extern "C" int dev_upload(void *dst, const void *src, size_t n);
extern "C" int host_pack(void *dst, const void *src, size_t n);
extern "C" int dev_upload_on(void *dst, const void *src, size_t n, int stream);
extern "C" int dev_copy(void *dst, const void *src, size_t n, int kind);
void upload_rows(float *d, float *const *rows, int nrows, size_t bytes) {
  for (int r = 0; r < nrows; ++r) // expected-note {{the loop}}
    dev_upload(d + r * 64, rows[r], bytes); // expected-warning {{dev_upload copies the same number of bytes on every iteration from host memory found through a table or struct into a destination that advances with the loop; pack the pieces into one host buffer (a host memcpy costs nanoseconds) and upload it with one dev_upload, instead of paying the per-call cost for each piece [GM021 small-transfer-in-loop]}}
}
void pack_rows(float *h, float *const *rows, int nrows, size_t bytes) {
  for (int r = 0; r < nrows; ++r)
    host_pack(h + r * 64, rows[r], bytes);
}
void upload_rows_one_stream(float *d, float *const *rows, int nrows, size_t bytes, int stream) {
  for (int r = 0; r < nrows; ++r) // expected-note {{the loop}}
    dev_upload_on(d + r * 64, rows[r], bytes, stream); // expected-warning {{dev_upload_on copies the same number of bytes on every iteration from host memory found through a table or struct into a destination that advances with the loop; pack the pieces into one host buffer (a host memcpy costs nanoseconds) and upload it with one dev_upload_on, instead of paying the per-call cost for each piece [GM021 small-transfer-in-loop]}}
}
void upload_chunks_pipelined(float *d, const float *h, size_t n, int nchunks,
                             const int *streams) {
  size_t chunk = n / nchunks;
  for (int c = 0; c < nchunks; ++c)
    dev_upload_on(d + c * chunk, h + c * chunk, chunk * sizeof(float), streams[c]);
}
void upload_rows_by_kind(float *d, float *const *rows, int nrows, size_t bytes) {
  for (int r = 0; r < nrows; ++r) // expected-note {{the loop}}
    dev_copy(d + r * 64, rows[r], bytes, 1); // expected-warning {{dev_copy copies the same number of bytes on every iteration from host memory found through a table or struct into a destination that advances with the loop; pack the pieces into one host buffer (a host memcpy costs nanoseconds) and upload it with one dev_copy, instead of paying the per-call cost for each piece [GM021 small-transfer-in-loop]}}
}
void download_rows_by_kind(float *h, float *const *rows, int nrows, size_t bytes) {
  for (int r = 0; r < nrows; ++r)
    dev_copy(h + r * 64, rows[r], bytes, 2);
}
SRC
cat >copies/.gmemlint <<'INI'
; a device copy made host to device; a host copy (direction = host, the default)
[copy dev_upload]
dst = 0
src = 1
size = 2
direction = htod

[copy host_pack]
dst = 0
src = 1
size = 2

; its stream is argument 3: a stream per iteration is a pipeline, not a small copy
[copy dev_upload_on]
dst = 0
src = 1
size = 2
direction = htod
stream = 3

; the device copies in the direction a cudaMemcpyKind in argument 3 gives (1: host to device)
[copy dev_copy]
dst = 0
src = 1
size = 2
direction = device
kind = 3
INI
run --verify --no-cache --only=GM021 copies/copies.cu
expect_rc 0 "copy rows' direction, stream and kind (GM021)"
[ ! -s "$WORK/err" ] || fail "copies: $(cat "$WORK/err")"

# --- who touches a use's memory: [use] (the host) against [device-use] ---
cat >touch/steps.cu <<'SRC'
#include <cstddef>
#include <cuda_runtime.h>
extern "C" void host_clear(void *p, size_t n);
extern "C" void engine_clear(void *p, size_t n);
__global__ void bump(unsigned *bins) { bins[threadIdx.x] += 1u; }
void steps_host(int steps) {
  unsigned *bins = nullptr;
  cudaMallocManaged(&bins, 256 * sizeof(unsigned)); // expected-warning {{'bins' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  for (int s = 0; s < steps; ++s) { // expected-note {{the loop}}
    host_clear(bins, 256 * sizeof(unsigned)); // expected-note {{and host code touches it here, in the same loop}}
    bump<<<1, 256>>>(bins); // expected-note {{a kernel uses it here}}
    cudaDeviceSynchronize();
  }
  cudaFree(bins);
}
void steps_engine(int steps) {
  unsigned *bins = nullptr;
  cudaMallocManaged(&bins, 256 * sizeof(unsigned));
  for (int s = 0; s < steps; ++s) {
    engine_clear(bins, 256 * sizeof(unsigned));
    bump<<<1, 256>>>(bins);
    cudaDeviceSynchronize();
  }
  cudaFree(bins);
}
SRC
printf '[use]\nfunctions = host_clear\n\n[device-use]\nfunctions = engine_clear\n' >touch/.gmemlint
run --verify --no-cache --only=GM031 touch/steps.cu
expect_rc 0 "[use] is the host's touch, [device-use] is not (GM031)"
[ ! -s "$WORK/err" ] || fail "touch: $(cat "$WORK/err")"

# --- a family's pinned memory: GM010 names the cost of pinning ---
cat >pin/slabs.cu <<'SRC'
#include <cstddef>
extern "C" int slab_alloc(void **p, size_t n);
extern "C" int slab_free(void *p);
extern "C" int scratch_alloc(void **p, size_t n);
extern "C" int scratch_free(void *p);
extern "C" void fill(void *p, size_t n);
void per_step_slab(size_t n, int steps) {
  for (int s = 0; s < steps; ++s) { // expected-note {{the loop}}
    void *p = nullptr;
    slab_alloc(&p, n); // expected-warning {{slab_alloc runs on every iteration of this loop with a loop-invariant size; on an H200 cudaMallocHost costs 0.8 ms for 256 bytes and 465 ms for 1 GiB, because it pins the pages. Hoist it: allocate once before the loop and free once after it [GM010 allocation-in-loop]}}
    fill(p, n);
    slab_free(p);
  }
}
void per_step_scratch(size_t n, int steps) {
  for (int s = 0; s < steps; ++s) { // expected-note {{the loop}}
    void *p = nullptr;
    scratch_alloc(&p, n); // expected-warning {{scratch_alloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it [GM010 allocation-in-loop]}}
    fill(p, n);
    scratch_free(p);
  }
}
SRC
cat >pin/.gmemlint <<'INI'
[family slab]
description = page-locked slab
free = slab_free
gpu = yes
pinned = yes

[family scratch]
description = scratch device memory
free = scratch_free
gpu = yes
pinned = no

[alloc slab_alloc]
family = slab
pointer = 0
size = 1

[free slab_free]
pointer = 0
frees = slab

[alloc scratch_alloc]
family = scratch
pointer = 0
size = 1

[free scratch_free]
pointer = 0
frees = scratch
INI
run --verify --no-cache --only=GM010 pin/slabs.cu
expect_rc 0 "a pinned family's cost (GM010)"
[ ! -s "$WORK/err" ] || fail "pin: $(cat "$WORK/err")"

# --- [runtime-status]: a system library's call after an allocation changes what
# cudaGetLastError reports, so its failure test no longer says the allocation failed ---
cat >status/sys/mylib.h <<'SRC'
#pragma once
void mylib_sync(void);
void otherlib_sync(void);
SRC
cat >status/status.cu <<'SRC'
#include <cuda_runtime.h>
#include <mylib.h>
int after_mylib(size_t n) {
  float *a = nullptr;
  cudaMalloc(&a, n); // expected-warning {{'a' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'after_mylib' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  mylib_sync();
  if (cudaGetLastError() != cudaSuccess)
    return -1; // expected-note {{this return after a failed call leaves without freeing 'a'}}
  cudaFree(a);
  return 0;
}
int after_otherlib(size_t n) {
  float *a = nullptr;
  cudaMalloc(&a, n);
  otherlib_sync();
  if (cudaGetLastError() != cudaSuccess)
    return -1;
  cudaFree(a);
  return 0;
}
SRC
printf '[runtime-status]\nfunctions = mylib_*\n' >status/.gmemlint
run --verify --no-cache --only=GM001 status/status.cu -- -isystem status/sys
expect_rc 0 "[runtime-status] names a library's calls (GM001 error path)"
[ ! -s "$WORK/err" ] || fail "status: $(cat "$WORK/err")"

# --- a config without the new keys loads, and takes their defaults: an unnamed direction is
# the host's, so GM021 leaves dev_upload alone; a [use] row is the host's touch ---
printf '[copy dev_upload]\ndst = 0\nsrc = 1\nsize = 2\n' >copies/.gmemlint
run --no-cache --only=GM021 copies/copies.cu
expect_rc 0 "a [copy] row without direction loads, as a host copy"
[ ! -s "$WORK/out" ] || fail "a host copy is no GPU transfer: $(cat "$WORK/out")"
printf '[use]\nfunctions = host_clear, engine_clear\n' >touch/.gmemlint
run --no-cache --only=GM031 touch/steps.cu
expect_rc 1 "a [use] row without device-use loads"
[ "$(count_out '^touch/steps.cu:(8|18):3: warning: .*\[GM031 managed-ping-pong\]$')" -eq 2 ] || fail "two [use] rows, two host touches: $(cat "$WORK/out")"

# --- bad values: the file, the line and the key (exit status 2) ---
printf '[copy dev_upload]\ndst = 0\ndirection = sideways\n' >copies/.gmemlint
run --no-cache copies/copies.cu
expect_rc 2 "bad direction"
expect_err "^gmemlint: error: .*copies/.gmemlint:3: bad direction 'sideways' in \[copy dev_upload\] \(expected host, device, htod, dtoh or dtod\)" "bad direction message"
printf '[copy dev_upload]\nstream = first\n' >copies/.gmemlint
run --no-cache copies/copies.cu
expect_rc 2 "bad stream"
expect_err "copies/.gmemlint:2: bad argument index 'first' in \[copy dev_upload\]" "bad stream message"
printf '[copy dev_upload]\npinned = yes\n' >copies/.gmemlint
run --no-cache copies/copies.cu
expect_rc 2 "a family key in a copy row"
expect_err "copies/.gmemlint:2: unknown key 'pinned' in \[copy dev_upload\] \(expected dst, src, size, direction, kind or stream\)" "unknown copy key message"
printf '[family slab]\npinned = maybe\n' >pin/.gmemlint
run --no-cache pin/slabs.cu
expect_rc 2 "bad pinned value"
expect_err "pin/.gmemlint:2: bad value 'maybe' for pinned \(expected yes or no\)" "bad pinned message"
printf '[runtime-status]\nnames = mylib_*\n' >status/.gmemlint
run --no-cache status/status.cu -- -isystem status/sys
expect_rc 2 "unknown key in [runtime-status]"
expect_err "status/.gmemlint:2: unknown key 'names' in \[runtime-status\] \(expected functions\)" "runtime-status key message"
finish
