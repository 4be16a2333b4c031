# --verify over many files in one run (as ctest runs tests/analyzer, a group per process): every
# file is checked, each failing one is named with its line and why, and with --no-whole-program
# no file's functions or members reach another's analysis.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"

# Two good files and two bad ones in one run: the run fails, names both bad files, and says
# nothing about the good ones. Every file defines the same function, setup().
write_leak good1.cu
sed -i '4s|$| // expected-warning {{GM001}}|' good1.cu
sed -i "7s|\$| // expected-note {{this return after a failed call leaves without freeing 'a'}}|" good1.cu
cp good1.cu wrongtext.cu
sed -i "7s|without freeing 'a'|without freeing 'b'|" wrongtext.cu
write_clean good2.cu
echo '// expected-no-diagnostics' >>good2.cu
write_leak unexpected.cu
echo '// expected-no-diagnostics' >>unexpected.cu
run --verify --no-whole-program -j 1 good1.cu wrongtext.cu good2.cu unexpected.cu
expect_rc 1 "a batch with two bad files"
expect_err "^wrongtext.cu:7:5: verify: unexpected note: this return after a failed call leaves without freeing 'a'" "the first bad file's note named"
expect_err "^wrongtext.cu:7: verify: expected note not seen: \{\{this return after a failed call leaves without freeing 'b'\}\}" "the first bad file's expectation named"
expect_err "^unexpected.cu:4:7: verify: unexpected warning: .*\[GM001 unpaired-allocation\]" "the second bad file, after a good one, still checked"
expect_err "^unexpected.cu:7:5: verify: unexpected note: this return after a failed call leaves without freeing 'a'" "the second bad file's note named"
expect_err "^gmemlint: verify: 4 problem\(s\) in 4 file\(s\)$" "the problems counted"
! grep -qE "good[12]" "$WORK/err" || fail "a good file named: $(cat "$WORK/err")"
run --verify --no-whole-program -j 2 good1.cu good2.cu
expect_rc 0 "the good files alone, in parallel"

# Pass two: keep() does nothing with its argument. Named alone, use.cu's call to keep() may keep
# the pointer (a function of another file); in one program, keep()'s summary shows the leak.
cat >keep.cu <<'SRC'
void keep(float *p) { (void)p; }
// expected-no-diagnostics
SRC
cat >use.cu <<'SRC'
#include <cuda_runtime.h>
void keep(float *p);
void run(int n) {
  float *d = nullptr;
  cudaMalloc(&d, n);
  keep(d);
}
// expected-no-diagnostics
SRC
run --verify --no-whole-program keep.cu use.cu
expect_rc 0 "another file's summary does not reach a file with --no-whole-program"
run --verify keep.cu use.cu
expect_rc 1 "one program: keep()'s summary reaches use.cu"
expect_err "^use.cu:5:3: verify: unexpected warning: .*\[GM001 unpaired-allocation\]" "the whole-program leak"

# Program-wide checks: d_found[] is allocated with d_state[] and freed nowhere, while another file
# frees d_state[]. A file named alone does not judge globals other files may release.
cat >tables_init.cu <<'SRC'
#include <cuda_runtime.h>
float *d_state[4];
float *d_found[4];
void worker_init(int t, int n) {
  cudaMalloc(&d_state[t], n);
  cudaMalloc(&d_found[t], n);
}
// expected-no-diagnostics
SRC
cat >tables_release.cu <<'SRC'
#include <cuda_runtime.h>
extern float *d_state[4];
void worker_release(int t) { cudaFree(d_state[t]); }
// expected-no-diagnostics
SRC
run --verify --no-whole-program tables_init.cu tables_release.cu
expect_rc 0 "another file's globals do not reach a file with --no-whole-program"
run --verify tables_init.cu tables_release.cu
expect_rc 1 "one program: the global freed nowhere while its sibling is freed"
expect_err "^tables_init.cu:6:3: verify: unexpected warning: 'd_found\[\]' .*is never freed.*\[GM001 unpaired-allocation\]" "the program-wide finding"
finish
