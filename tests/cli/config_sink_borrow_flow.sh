# Flow-level checks of .gmemlint [sink] and [borrow] rows (needs the flow engine's use of
# GM_FN_SINK / GM_FN_BORROW): run as  bash config_sink_borrow_flow.sh build/gmemlint .
source "$2/tests/cli/testlib.bash"
cd "$WORK"
mkdir proj
cat >proj/q.cu <<'SRC'
#include <cuda_runtime.h>
extern "C" int my_enqueue(int queue, void *item, void *tag);
extern "C" void mylib_put(void *p);
int submit(int queue, size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  return my_enqueue(queue, d, nullptr);
}
int tag_only(int queue, size_t n, void *item) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  return my_enqueue(queue, item, d);
}
int through_library(size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  mylib_put(d);
  return 0;
}
SRC
run --config=/dev/null proj/q.cu
expect_rc 0 "without a config, undefined user functions may keep what they get"
printf '[sink my_enqueue]\npointer = 1\n[borrow]\nfunctions = mylib_*\n' >proj/.gmemlint
run proj/q.cu
expect_rc 1 "with the config"
[ "$(count_out 'warning:')" -eq 2 ] || fail "two leaks: $(cat "$WORK/out")"
expect_out "q.cu:12:7: warning: 'd'" "the sink does not keep argument 2"
expect_out "q.cu:18:7: warning: 'd'" "mylib_put borrows"
printf '[sink my_enqueue]\npointer = all\n' >proj/.gmemlint
run proj/q.cu
expect_rc 0 "pointer = all keeps every pointer"
# a project's row replaces the built-in one
cat >proj/t.cu <<'SRC'
#include <cuda_runtime.h>
#include <pthread.h>
void *worker(void *arg);
int start(pthread_t *t, size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  return pthread_create(t, nullptr, worker, d);
}
SRC
run --config=/dev/null proj/t.cu
expect_rc 0 "pthread_create keeps its argument"
printf '[borrow]\nfunctions = pthread_create\n' >proj/.gmemlint
run proj/t.cu
expect_rc 1 "a project's borrow replaces the built-in sink"
printf '[borrow]\nfunctions = pthread_*\n' >proj/.gmemlint
run proj/t.cu
expect_rc 0 "a pattern does not replace a built-in exact name"
finish
