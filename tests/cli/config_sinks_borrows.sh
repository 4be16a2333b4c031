# .gmemlint [sink FUNC] and [borrow] sections: accepted, looked up (exact names, then prefix
# patterns such as `mylib_*`), and rejected with the file and line when malformed (exit 2).
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir proj
cat >proj/queue.cu <<'SRC'
#include <cuda_runtime.h>
extern "C" int my_enqueue(int queue, void *item);
extern "C" void mylib_put(void *p);
extern "C" void mylib_(void *p);
extern "C" void other_put(void *p);
int submit(int queue, size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  mylib_put(d);
  mylib_(d);
  other_put(d);
  return my_enqueue(queue, d);
}
SRC
cat >proj/.gmemlint <<'INI'
; our queue keeps what it is given; our library only reads
[sink my_enqueue]
pointer = 1

[borrow]
functions = mylib_*
INI
run proj/queue.cu
expect_rc 0 "a config with [sink] and [borrow] is accepted"
[ ! -s "$WORK/err" ] || fail "no message for a good config: $(cat "$WORK/err")"
run --dump-model proj/queue.cu
expect_err "call 'my_enqueue' \[table\]" "the sink is a table row"
expect_err "call 'mylib_put' \[table\]" "a prefix pattern names mylib_put"
expect_err "call 'mylib_' \[table\]" "a prefix pattern names its bare prefix"
expect_err "call 'other_put' @" "other_put is in no table"

printf '[sink all_of_them]\npointer = all\n[borrow]\nfunctions = a, b_*,\n    c_*\n' >proj/.gmemlint
run proj/queue.cu
expect_rc 0 "pointer = all and a continued list"

# errors: file and line, exit status 2
printf '[borrow]\nfunctions = x\n\n[sink my_enqueue]\npointer = x\n' >proj/.gmemlint
run proj/queue.cu
expect_rc 2 "bad sink pointer"
expect_err "^gmemlint: error: .*proj/.gmemlint:5: bad pointer 'x' in \[sink my_enqueue\]" "bad pointer message"
printf '; sinks\n[sink]\npointer = 1\n' >proj/.gmemlint
run proj/queue.cu
expect_rc 2 "sink without a name"
expect_err "^gmemlint: error: .*proj/.gmemlint:2: \[sink\] needs a name: \[sink FUNC\]" "nameless sink message"
printf '[sink]\n' >proj/.gmemlint
run proj/queue.cu
expect_rc 2 "an empty nameless sink"
expect_err "proj/.gmemlint:1: \[sink\] needs a name" "empty nameless sink message"
printf '[rules]\ndisable = GM010\n[sink my_enqueue]  ; keeps it\n' >proj/.gmemlint
run proj/queue.cu
expect_rc 2 "sink without a pointer"
expect_err "proj/.gmemlint:3: \[sink my_enqueue\] needs pointer = N .* or pointer = all" "sink without pointer message"
printf '[sink my_enqueue]\nsize = 1\n' >proj/.gmemlint
run proj/queue.cu
expect_rc 2 "unknown sink key"
expect_err "proj/.gmemlint:2: unknown key 'size' in \[sink my_enqueue\]" "unknown sink key message"
printf '[borrow]\nfunctions = mylib_*, *\n' >proj/.gmemlint
run proj/queue.cu
expect_rc 2 "a pattern with no prefix"
expect_err "proj/.gmemlint:2: '\*' is not a function name or pattern" "bare star message"
printf '[borrow]\nfunctions = my*lib\n' >proj/.gmemlint
run proj/queue.cu
expect_rc 2 "a star inside a name"
expect_err "proj/.gmemlint:2: 'my\*lib' is not a function name or pattern" "inner star message"
finish
