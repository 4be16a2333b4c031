# A run that could not read the code is never silently clean. Text: each file with parse errors
# gets a warning and its first clang errors (3 by default, --show-parse-errors), and the run ends
# with one summary line naming the first error and, for a header not found, where the include
# path should come from. Exit 3 when files had parse errors, unless --allow-parse-errors; 2 (an
# input that could not be analysed) wins over 3, and 3 over 1 (findings). --verify keeps its own
# meaning.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir -p inc
# the project's header, found only with -I inc
printf '#define SCALE 4\n' >inc/scale.h
# a leak (GM001 at 6:7) in a file whose header is not found
cat >header.cu <<'SRC'
#include "scale.h"
#include <cuda_runtime.h>
static int scale() { return SCALE; }
int setup(int n) {
  float *a = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (n > 3)
    return 2;
  cudaFree(a);
  return 0;
}
SRC
# five errors that have nothing to do with includes
cat >typos.cu <<'SRC'
#include <cuda_runtime.h>
void broken() {
  int x = ;
  undefined_a();
  undefined_b();
  undefined_c();
  undefined_d();
}
SRC
write_clean clean.cu

# ---- a clean run: no summary, exit 0 ----
run --no-cache clean.cu
expect_rc 0 "a clean file"
[ ! -s "$WORK/err" ] || fail "nothing on stderr for a clean run: $(cat "$WORK/err")"

# ---- a missing header, without -p ----
run --no-cache header.cu typos.cu clean.cu
expect_rc 3 "parse errors and a finding: exit 3 (3 wins over 1)"
expect_out "^header.cu:6:7: warning: .*\[GM001 unpaired-allocation\]" "the finding is still printed"
cat >expected.err <<'TXT'
gmemlint: warning: header.cu: 2 parse error(s); findings may be incomplete; 1 of its 2 functions holds an error, analysed with what clang could type: 'scale'
header.cu:1:10: note: clang: 'scale.h' file not found
header.cu:3:29: note: clang: use of undeclared identifier 'SCALE'
gmemlint: warning: typos.cu: 5 parse error(s); findings may be incomplete; its only function, 'broken', holds an error, analysed with what clang could type
typos.cu:3:11: note: clang: expected expression
typos.cu:4:3: note: clang: use of undeclared identifier 'undefined_a'
typos.cu:5:3: note: clang: use of undeclared identifier 'undefined_b'
typos.cu: note: clang: 2 more error(s) (--show-parse-errors=all prints them)
gmemlint: warning: 2 of 3 files had parse errors; the first: header.cu:1:10: 'scale.h' file not found; 2 functions hold errors, analysed with what clang could type
gmemlint: note: 'scale.h' was not found: give the build's include paths (-p build/ reads its compile_commands.json, or -- -I DIR)
TXT
diff expected.err "$WORK/err" >/dev/null || fail "stderr in full: $(diff expected.err "$WORK/err")"

run --no-cache --allow-parse-errors header.cu typos.cu clean.cu
expect_rc 1 "--allow-parse-errors: the findings decide"
diff expected.err "$WORK/err" >/dev/null || fail "--allow-parse-errors prints the same: $(diff expected.err "$WORK/err")"
run --no-cache --allow-parse-errors typos.cu clean.cu
expect_rc 0 "--allow-parse-errors and no finding: exit 0"

# ---- any other first error is itself the cause: no include hint ----
run --no-cache typos.cu clean.cu
expect_rc 3 "parse errors alone: exit 3"
[ "$(tail -1 "$WORK/err")" = "gmemlint: warning: 1 of 2 files had parse errors; the first: typos.cu:3:11: expected expression; 1 function holds an error, analysed with what clang could type" ] ||
  fail "the summary ends the output: $(tail -2 "$WORK/err")"
! grep -q "include" "$WORK/err" || fail "no include hint for a syntax error: $(cat "$WORK/err")"

# ---- one file: "1 of 1 file" ----
run --no-cache typos.cu
expect_err "^gmemlint: warning: 1 of 1 file had parse errors; the first: typos.cu:3:11: expected expression; 1 function holds an error, analysed with what clang could type$" "one file"

# ---- the first error in a header: named, with the file being parsed ----
printf 'struct shape { undefined_t rows; };\n' >inc/shape.h
printf '#include "shape.h"\n' | cat - clean.cu >in_header.cu
run --no-cache in_header.cu -- -Iinc
expect_rc 3 "an error in a header"
[ "$(tail -1 "$WORK/err")" = "gmemlint: warning: 1 of 1 file had parse errors; the first: inc/shape.h:1:16: unknown type name 'undefined_t' (parsing in_header.cu)" ] ||
  fail "the header's error, parsing in_header.cu: $(tail -1 "$WORK/err")"

# ---- the flags fixed: clean ----
run --no-cache header.cu -- -Iinc
expect_rc 1 "with -I inc only the finding"
[ ! -s "$WORK/err" ] || fail "no parse error with -I inc: $(cat "$WORK/err")"

# ---- --show-parse-errors ----
run --no-cache --show-parse-errors=all typos.cu
[ "$(grep -c 'note: clang:' "$WORK/err")" -eq 5 ] || fail "all: every error: $(cat "$WORK/err")"
expect_err "^typos.cu:7:3: note: clang: use of undeclared identifier 'undefined_d'$" "all: the last one"
! grep -q "more error" "$WORK/err" || fail "all: no count of the rest"
run --no-cache --show-parse-errors 0 typos.cu
expect_rc 3 "--show-parse-errors 0"
expect_err "^typos.cu: note: clang: 5 more error\(s\) \(--show-parse-errors=all prints them\)$" "0: only the count"
[ "$(grep -c 'note: clang:' "$WORK/err")" -eq 1 ] || fail "0: no error shown: $(cat "$WORK/err")"
run --show-parse-errors=some typos.cu
expect_rc 2 "a bad --show-parse-errors"
expect_err "^gmemlint: error: bad --show-parse-errors value 'some' \(expected a number or all\)$" "says what it expects"

# ---- precedence: an input that could not be analysed (2) wins over parse errors (3) ----
printf 'this is not C at all {{{ ]]\n' >garbage.cu
run --no-cache typos.cu garbage.cu missing.cu
expect_rc 2 "an input error and parse errors: exit 2"
expect_err "^gmemlint: error: garbage.cu: 1 parse error\(s\) and no function could be analysed$" "nothing parsed"
expect_err "^garbage.cu:1:1: note: clang: expected unqualified-id$" "its error"
[ "$(tail -1 "$WORK/err")" = "gmemlint: warning: 2 of 3 files had parse errors; the first: typos.cu:3:11: expected expression; 1 function holds an error, analysed with what clang could type" ] ||
  fail "a file that did not parse at all counts: $(tail -1 "$WORK/err")"
run --no-cache --allow-parse-errors garbage.cu
expect_rc 2 "--allow-parse-errors does not accept a file with nothing analysed"

# ---- --verify keeps its meaning: a parse error is a problem (1), not exit 3 ----
run --no-cache --verify typos.cu
expect_rc 1 "--verify: a parse error fails the verification"
expect_err "^typos.cu: verify: the file has 5 parse error\(s\)$" "--verify says so"
! grep -q "files had parse errors\|file had parse errors" "$WORK/err" || fail "--verify: no run summary"

# ---- --help documents the status and the flags ----
run --help
expect_out "^  3  files had parse errors, so findings may be missing \(unless --allow-parse-errors;$" "--help: exit 3"
expect_out "--allow-parse-errors +exit 0 or 1 by the findings alone" "--help: --allow-parse-errors"
expect_out "--show-parse-errors=N +print the first N of clang's errors in each file" "--help: --show-parse-errors"
finish
