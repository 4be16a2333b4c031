# The [thresholds] of a .gmemlint: each number that decides a verdict (docs/config.md), on both
# sides of its default and of a value the file sets, with every finding and --explain notice in
# full; the telemetry's confirm counts judged by the file's own values; bad names and values
# rejected with the file and line (exit 2); the result cache keyed on the thresholds.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir default raised lowered
cat >default/trips.cu <<'SRC'
#include <cuda_runtime.h>
__global__ void step(float *p, int n) { if (threadIdx.x < n) p[threadIdx.x] = 0; }
void eight_rounds(int n) {
  for (int r = 0; r < 8; ++r) {
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float));
    step<<<1, 256>>>(tmp, n + r);
    cudaFree(tmp);
  }
}
void nine_rounds(int n) {
  for (int r = 0; r < 9; ++r) {
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float));
    step<<<1, 256>>>(tmp, n + r);
    cudaFree(tmp);
  }
}
SRC
cat >default/devices.cu <<'SRC'
#include <cuda_runtime.h>
static int *d_flags[65];
void up_to_64(void) {
  for (int t = 0; t < 64; ++t)
    cudaMalloc(&d_flags[t], sizeof(int));
}
void up_to_65(void) {
  for (int t = 0; t < 65; ++t)
    cudaMalloc(&d_flags[t], sizeof(int));
}
SRC
cat >default/slots.cu <<'SRC'
#include <cuda_runtime.h>
void slots_of_64k(float **d_rows, int nrows) {
  for (int r = 0; r < nrows; ++r)
    cudaMalloc(&d_rows[r], 65536);
}
void slots_past_64k(float **d_rows, int nrows) {
  for (int r = 0; r < nrows; ++r)
    cudaMalloc(&d_rows[r], 65537);
}
SRC
cat >default/copies.cu <<'SRC'
#include <cuda_runtime.h>
__global__ void step(char *p) { p[threadIdx.x] = 0; }
void copies_of_4k(char *h, char *d, int nblocks) {
  for (int b = 0; b < nblocks; ++b) {
    cudaMemcpy(h + 4096 * b, d + 4096 * b, 4096, cudaMemcpyDeviceToHost);
    step<<<1, 32>>>(d);
  }
}
void copies_past_4k(char *h, char *d, int nblocks) {
  for (int b = 0; b < nblocks; ++b) {
    cudaMemcpy(h + 4097 * b, d + 4097 * b, 4097, cudaMemcpyDeviceToHost);
    step<<<1, 32>>>(d);
  }
}
SRC
cat >default/depth.cu <<'SRC'
#include <cuda_runtime.h>
__global__ void step(float *p) { p[threadIdx.x] = 0; }
static void scratch(int n) {
  float *tmp = nullptr;
  cudaMalloc(&tmp, n * sizeof(float));
  step<<<1, 32>>>(tmp);
  cudaFree(tmp);
}
static void one(int n) { scratch(n); }
static void two(int n) { one(n); }
static void three(int n) { two(n); }
void three_calls_away(int steps, int n) {
  for (int s = 0; s < steps; ++s)
    three(n);
}
static void scratch4(int n) {
  float *tmp = nullptr;
  cudaMalloc(&tmp, n * sizeof(float));
  step<<<1, 32>>>(tmp);
  cudaFree(tmp);
}
static void a1(int n) { scratch4(n); }
static void a2(int n) { a1(n); }
static void a3(int n) { a2(n); }
static void a4(int n) { a3(n); }
void four_calls_away(int steps, int n) {
  for (int s = 0; s < steps; ++s)
    a4(n);
}
SRC
for d in raised lowered; do cp default/*.cu $d/; done
printf '[thresholds]\nfew-trips = 9\ndevice-count = 65\nsmall-slot-bytes = 65537\nsmall-copy-bytes = 4097\ncall-depth = 4\n' >raised/.gmemlint
printf '[thresholds]\nfew-trips = 7\ndevice-count = 63\nsmall-slot-bytes = 65535\nsmall-copy-bytes = 4095\ncall-depth = 2\n' >lowered/.gmemlint

# check_case DIR: the findings and notices of DIR's sources (default: no .gmemlint) equal DIR.expected
check_case() {
  (cd "$1" && "$GMEMLINT" --no-cache --explain --only=GM010,GM021 trips.cu devices.cu slots.cu \
    copies.cu depth.cu) >"$WORK/out" 2>"$WORK/err" || true
  grep -E ': (warning|note): ' "$WORK/out" >"$WORK/got" || true
  diff -u "$1.expected" "$WORK/got" >"$WORK/diff" || fail "$1: findings and notices differ: $(cat "$WORK/diff")"
}
cat >default.expected <<'OUT'
trips.cu:6:5: note: GM010 allocation-in-loop not reported (few-trips): cudaMalloc in a loop known to run 8 times, no more than the few-trips threshold (8): setup, not a step
trips.cu:14:5: warning: cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it [GM010 allocation-in-loop]
trips.cu:12:3: note: the loop
devices.cu:5:5: note: GM010 allocation-in-loop not reported (device-count): cudaMalloc in a loop bounded by 64, no more than the device-count threshold (64): one buffer per device
devices.cu:9:5: warning: cudaMalloc gives each element of this loop its own 4-byte buffer, one allocation per element of data rather than per device or stream; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate one buffer for all the elements and point each element at its slice [GM010 allocation-in-loop]
devices.cu:8:3: note: the loop
slots.cu:4:5: warning: cudaMalloc gives each element of this loop its own 65536-byte buffer, one allocation per element of data rather than per device or stream; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate one buffer for all the elements and point each element at its slice [GM010 allocation-in-loop]
slots.cu:3:3: note: the loop
slots.cu:8:5: note: GM010 allocation-in-loop not reported (small-slot-bytes): cudaMalloc in a loop gives each element 65537 bytes, more than the small-slot-bytes threshold (65536): each is worth its own allocation
copies.cu:5:5: warning: cudaMemcpy moves 4096 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cudaMemcpy (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D [GM021 small-transfer-in-loop]
copies.cu:4:3: note: the loop
copies.cu:11:5: note: GM021 small-transfer-in-loop not reported (small-copy-bytes): cudaMemcpy moves 4097 bytes per iteration, more than the small-copy-bytes threshold (4096)
depth.cu:5:3: warning: cudaMalloc in 'scratch' runs each time 'scratch' is called, and a loop calls 'three', which reaches 'scratch' (on the iterations where the calls on the way run); on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool [GM010 allocation-in-loop]
depth.cu:14:5: note: 'three' is called in a loop here
depth.cu:11:28: note: 'three' calls 'two' here
depth.cu:10:26: note: 'two' calls 'one' here
depth.cu:9:26: note: 'one' calls 'scratch' here
depth.cu:18:3: note: GM010 allocation-in-loop not reported (call-depth): cudaMalloc in 'scratch4' is reached from a loop that calls 'a4' with 4 functions in between, more than the call-depth threshold (3)
OUT
check_case default
cat >raised.expected <<'OUT'
trips.cu:6:5: note: GM010 allocation-in-loop not reported (few-trips): cudaMalloc in a loop known to run 8 times, no more than the few-trips threshold (9): setup, not a step
trips.cu:14:5: note: GM010 allocation-in-loop not reported (few-trips): cudaMalloc in a loop known to run 9 times, no more than the few-trips threshold (9): setup, not a step
devices.cu:5:5: note: GM010 allocation-in-loop not reported (device-count): cudaMalloc in a loop bounded by 64, no more than the device-count threshold (65): one buffer per device
devices.cu:9:5: note: GM010 allocation-in-loop not reported (device-count): cudaMalloc in a loop bounded by 65, no more than the device-count threshold (65): one buffer per device
slots.cu:4:5: warning: cudaMalloc gives each element of this loop its own 65536-byte buffer, one allocation per element of data rather than per device or stream; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate one buffer for all the elements and point each element at its slice [GM010 allocation-in-loop]
slots.cu:3:3: note: the loop
slots.cu:8:5: warning: cudaMalloc gives each element of this loop its own 65537-byte buffer, one allocation per element of data rather than per device or stream; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate one buffer for all the elements and point each element at its slice [GM010 allocation-in-loop]
slots.cu:7:3: note: the loop
copies.cu:5:5: warning: cudaMemcpy moves 4096 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cudaMemcpy (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D [GM021 small-transfer-in-loop]
copies.cu:4:3: note: the loop
copies.cu:11:5: warning: cudaMemcpy moves 4097 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cudaMemcpy (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D [GM021 small-transfer-in-loop]
copies.cu:10:3: note: the loop
depth.cu:5:3: warning: cudaMalloc in 'scratch' runs each time 'scratch' is called, and a loop calls 'three', which reaches 'scratch' (on the iterations where the calls on the way run); on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool [GM010 allocation-in-loop]
depth.cu:14:5: note: 'three' is called in a loop here
depth.cu:11:28: note: 'three' calls 'two' here
depth.cu:10:26: note: 'two' calls 'one' here
depth.cu:9:26: note: 'one' calls 'scratch' here
depth.cu:18:3: warning: cudaMalloc in 'scratch4' runs each time 'scratch4' is called, and a loop calls 'a4', which reaches 'scratch4' (on the iterations where the calls on the way run); on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool [GM010 allocation-in-loop]
depth.cu:28:5: note: 'a4' is called in a loop here
depth.cu:25:25: note: 'a4' calls 'a3' here
depth.cu:24:25: note: 'a3' calls 'a2' here
depth.cu:23:25: note: 'a2' calls 'a1' here
depth.cu:22:25: note: 'a1' calls 'scratch4' here
OUT
check_case raised
cat >lowered.expected <<'OUT'
trips.cu:6:5: warning: cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it [GM010 allocation-in-loop]
trips.cu:4:3: note: the loop
trips.cu:14:5: warning: cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it [GM010 allocation-in-loop]
trips.cu:12:3: note: the loop
devices.cu:5:5: warning: cudaMalloc gives each element of this loop its own 4-byte buffer, one allocation per element of data rather than per device or stream; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate one buffer for all the elements and point each element at its slice [GM010 allocation-in-loop]
devices.cu:4:3: note: the loop
devices.cu:9:5: warning: cudaMalloc gives each element of this loop its own 4-byte buffer, one allocation per element of data rather than per device or stream; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate one buffer for all the elements and point each element at its slice [GM010 allocation-in-loop]
devices.cu:8:3: note: the loop
slots.cu:4:5: note: GM010 allocation-in-loop not reported (small-slot-bytes): cudaMalloc in a loop gives each element 65536 bytes, more than the small-slot-bytes threshold (65535): each is worth its own allocation
slots.cu:8:5: note: GM010 allocation-in-loop not reported (small-slot-bytes): cudaMalloc in a loop gives each element 65537 bytes, more than the small-slot-bytes threshold (65535): each is worth its own allocation
copies.cu:5:5: note: GM021 small-transfer-in-loop not reported (small-copy-bytes): cudaMemcpy moves 4096 bytes per iteration, more than the small-copy-bytes threshold (4095)
copies.cu:11:5: note: GM021 small-transfer-in-loop not reported (small-copy-bytes): cudaMemcpy moves 4097 bytes per iteration, more than the small-copy-bytes threshold (4095)
depth.cu:5:3: note: GM010 allocation-in-loop not reported (call-depth): cudaMalloc in 'scratch' is reached from a loop that calls 'three' with 3 functions in between, more than the call-depth threshold (2)
depth.cu:18:3: note: GM010 allocation-in-loop not reported (call-depth): cudaMalloc in 'scratch4' is reached from a loop that calls 'a4' with 4 functions in between, more than the call-depth threshold (2)
OUT
check_case lowered

# the telemetry's verdicts use the thresholds of the finding's file
for c in gm010_threshold gm020 gm021; do cp -r "$ROOT/tests/join/$c" "$WORK/$c"; done
# judge CASE EXPECTED...: the verdict notes of the join case, in order
judge() {
  local dir=$WORK/$1
  shift
  (cd "$dir" && "$GMEMLINT" --no-cache --telemetry *.json *.cu) >"$WORK/out" 2>"$WORK/err" || true
  grep -E 'note: (confirmed|dismissed): ' "$WORK/out" >"$WORK/got" || true
  printf '%s\n' "$@" >"$WORK/want"
  diff -u "$WORK/want" "$WORK/got" >"$WORK/diff" || fail "$(basename "$dir") judged: $(cat "$WORK/diff")"
}
printf '[thresholds]\ngm010-confirm-calls = 15\n' >gm010_threshold/.gmemlint
judge gm010_threshold \
  "steps.cu:14:5: note: confirmed: 16 calls (threshold: 15), all of 1.0 MiB, 80.0 us in the allocation per call (1.3 ms in all), frees by API: cudaFree 16" \
  "steps.cu:23:5: note: confirmed: 15 calls (threshold: 15), all of 1.0 MiB, 80.0 us in the allocation per call (1.2 ms in all), frees by API: cudaFree 15"
printf '[thresholds]\ngm010-confirm-calls = 17\n' >gm010_threshold/.gmemlint
judge gm010_threshold \
  "steps.cu:14:5: note: dismissed: ran only 16 times (all of 1.0 MiB); the loop did not churn (threshold: 17 calls)" \
  "steps.cu:23:5: note: dismissed: ran only 15 times (all of 1.0 MiB); the loop did not churn (threshold: 17 calls)"
printf '[thresholds]\ngm020-confirm-increases = 2\n' >gm020/.gmemlint
judge gm020 \
  "concat.cu:12:5: note: confirmed: 64 calls, 63 of them larger than the one before (threshold: 2), from 4.0 MiB to 256.0 MiB (8.1 GiB allocated in all), 7.9 GiB copied by 63 copies at line 14" \
  "concat.cu:27:5: note: confirmed: 3 calls, 2 of them larger than the one before (threshold: 2), from 4.0 MiB to 12.0 MiB (24.0 MiB allocated in all), 12.0 MiB copied by 2 copies at line 29"
printf '[thresholds]\ngm020-confirm-increases = 64\n' >gm020/.gmemlint
judge gm020 \
  "concat.cu:12:5: note: dismissed: 64 calls, only 63 larger than the one before (threshold: 64), 7.9 GiB copied by 63 copies at line 14" \
  "concat.cu:27:5: note: dismissed: 3 calls, only 2 larger than the one before (threshold: 64), 12.0 MiB copied by 2 copies at line 29"
printf '[thresholds]\ngm021-confirm-copies = 32\ngm021-small-mean-bytes = 2M\n' >gm021/.gmemlint
judge gm021 \
  "upload.cu:8:5: note: confirmed: 4096 copies of mean 256 B, 1.0 MiB in 20.5 ms: 48.8 MiB/s achieved (thresholds: at least 32 copies, mean below 2.0 MiB)" \
  "upload.cu:13:5: note: confirmed: 32 copies of mean 1.0 MiB, 32.0 MiB in 1.0 ms: 29.8 GiB/s achieved (thresholds: at least 32 copies, mean below 2.0 MiB)"
printf '[thresholds]\ngm021-confirm-copies = 4097\n' >gm021/.gmemlint
judge gm021 \
  "upload.cu:8:5: note: dismissed: 4096 copies of mean 256 B, 1.0 MiB in 20.5 ms: 48.8 MiB/s achieved; too few to matter (threshold: 4097 copies)" \
  "upload.cu:13:5: note: dismissed: 32 copies of mean 1.0 MiB, 32.0 MiB in 1.0 ms: 29.8 GiB/s achieved; too few to matter (threshold: 4097 copies)"

# K, M and G suffixes, quotes and comments; the same verdicts as the defaults written out
printf '[thresholds]\nsmall-copy-bytes = 4K  ; the default\nsmall-slot-bytes = "64K"\nfew-trips = 8\n' >default/.gmemlint
check_case default

# bad names and values: the file and line, exit status 2, nothing analysed
bad_threshold() {
  printf '[rules]\ndisable = GM003\n[thresholds]\n%s\n' "$1" >default/.gmemlint
  run default/trips.cu
  expect_rc 2 "threshold line '$1'"
  expect_err "^gmemlint: error: .*default/.gmemlint:4: $2" "message for '$1'"
  [ "$(count_out ': warning: ')" -eq 0 ] || fail "'$1': findings under a bad config: $(head -c 300 "$WORK/out")"
}
bad_threshold 'few-tripz = 3' "unknown threshold 'few-tripz' \(see docs/config.md for the names\)"
bad_threshold 'few-trips = many' "threshold 'few-trips' = 'many': expected a whole number from 0 to 1000000 \(a loop known to run at most this many times is setup, not a step\)"
bad_threshold 'few-trips = -1' "threshold 'few-trips' = '-1': expected a whole number from 0 to 1000000"
bad_threshold 'call-depth = 9' "threshold 'call-depth' = '9': expected a whole number from 0 to 8 \(functions followed between a loop's call and an allocation \(GM010\)\)"
bad_threshold 'gm010-confirm-calls = 0' "threshold 'gm010-confirm-calls' = '0': expected a whole number from 1 to 1000000000"
bad_threshold 'small-copy-bytes = 2G' "threshold 'small-copy-bytes' = '2G': expected a whole number from 0 to 1073741824"
bad_threshold 'small-copy-bytes = 4KB' "threshold 'small-copy-bytes' = '4KB': expected a whole number"
bad_threshold 'small-copy-bytes = 99999999999999999999' "threshold 'small-copy-bytes' = '99999999999999999999': expected a whole number"
printf '[thresholds call-depth]\nvalue = 2\n' >default/.gmemlint
run default/trips.cu
expect_rc 2 "a threshold section with a name"
expect_err "default/.gmemlint:2: unknown section \[thresholds call-depth\] \(expected rules, thresholds, family, alloc, realloc, free, copy, sink, alias, use, device-use, borrow, device-fill, prefetch, launch, noreturn, last-error, fallible or runtime-status\)$" "named [thresholds] message"

# the result cache: a changed threshold is a changed result
rm -f default/.gmemlint
run --only=GM010 default/trips.cu
[ "$(count_out 'warning: ')" -eq 1 ] || fail "cold, default few-trips: $(cat "$WORK/out")"
printf '[thresholds]\nfew-trips = 9\n' >default/.gmemlint
run --only=GM010 default/trips.cu
[ "$(count_out 'warning: ')" -eq 0 ] || fail "few-trips = 9 after a cached run: $(cat "$WORK/out")"
finish
