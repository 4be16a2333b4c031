# Shared preambles grouped by leading system includes (frontend/pch.h, driver/preambles.h): files
# whose runs of `#include <...>` hold the same headers (the standard's and the toolkit's in any
# order, others in the file's) share a preamble chained on the CUDA base, and each file parses as
# alone: --pch=always and --pch=never give byte-identical output and messages. The cases would
# differ if a file got a header it did not include (a global `count` with `using namespace std;`
# meets std::count from <algorithm>), if a blanked directive were read again (a header with no
# include guard defines a struct twice), if a #define before the includes were lost (a header's
# typedef depends on it), or if headers of the flags' own directories were put in another order
# (one defines the macro the other reads).
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir sys src tmp
# system headers of the test's own: one with no include guard, one that reads a macro
cat >sys/no_guard.h <<'H'
struct defined_once { int v; };
H
cat >sys/width.h <<'H'
#ifndef WIDTH_H
#define WIDTH_H
#ifdef WIDE
typedef long width_t;
#else
typedef int width_t;
#endif
#endif
H
leaky() { # a function with a GM001 leak on an error path, named $1
  cat <<SRC
int $1(int n) {
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  cudaFree(a);
  cudaFree(b);
  return 0;
}
SRC
}
# three files with <vector>, <cstdio>, <algorithm>, comments and #pragma once among them
for f in a b c; do
  { printf '// file %s\n#pragma once\n#include <vector>  // the containers\n/* io */ #include <cstdio>\n#  include <algorithm>\n#include <cuda_runtime.h>\n' $f
    leaky setup_$f; } >src/$f.cu
done
# two (and one with a parse error) with only <vector>, <cstdio>: `count` is theirs alone
for f in f g h; do
  { printf '#include <vector>\n#include <cstdio>\n#include <cuda_runtime.h>\nusing namespace std;\nint count;\n'
    printf 'int bump() { return ++count; }\n'
    leaky setup_$f; } >src/$f.cu
done
echo 'int broken( { return 0; }' >>src/h.cu
# the same standard headers in other orders: d.cu shares f, g, h's preamble, e.cu a, b, c's
{ printf '#include <cstdio>\n#include <vector>\n#include <cuda_runtime.h>\n'; leaky setup_d; } >src/d.cu
{ printf '#include <cuda_runtime.h>\n#include <algorithm>\n#include <cstdio>\n#include <vector>\n'
  leaky setup_e; } >src/e.cu
# headers of -isystem sys keep their order: wide_on.h before width.h makes width_t long
cat >sys/wide_on.h <<'H'
#define WIDE 1
H
{ printf '#include <wide_on.h>\n#include <width.h>\n#include <cuda_runtime.h>\n'
  printf 'static_assert(sizeof(width_t) == sizeof(long), "wide");\n'; leaky setup_o1; } >src/o1.cu
for f in o2 o3; do
  { printf '#include <width.h>\n#include <wide_on.h>\n#include <cuda_runtime.h>\n'
    printf 'static_assert(sizeof(width_t) == sizeof(int), "narrow");\n'; leaky setup_$f; } >src/$f.cu
done
# a #define before the includes ends the run: WIDE must reach width.h
for f in w1 w2; do
  { printf '#include <width.h>\n#include <cuda_runtime.h>\nstatic_assert(sizeof(width_t) == sizeof(int), "narrow");\n'
    leaky setup_$f; } >src/$f.cu
done
{ printf '#define WIDE 1\n#include <width.h>\n#include <cuda_runtime.h>\nstatic_assert(sizeof(width_t) == sizeof(long), "wide");\n'
  leaky setup_wide; } >src/wide.cu
# a header with no guard, included by two files: read once, in the preamble
for f in n1 n2; do
  { printf '#include <no_guard.h>\n#include <cuda_runtime.h>\nstruct defined_once used_%s;\n' $f; leaky setup_$f; } >src/$f.cu
done
# includes followed by a conditional: the last include stays in the file
for f in i1 i2; do
  { printf '#include <vector>\n#include <cstdio>\n#ifndef GUARD_%s\n#define GUARD_%s\n#include <cuda_runtime.h>\n' $f $f
    leaky setup_$f; printf '#endif\n'; } >src/$f.cu
done
# a run with a missing header: its preamble is refused, its files parse on the base
for f in m1 m2; do
  { printf '#include <no_such_header.h>\n#include <cuda_runtime.h>\n'; leaky setup_$f; } >src/$f.cu
done

# the planner's own choices, each run from scratch (tests/cli/preamble_store.sh: kept preambles)
FILES=(--no-cache --no-pch-store --no-progress --enable=all -j 2 src/*.cu -- -isystem sys)
for fmt in text json; do
  TMPDIR=$WORK/tmp run --pch=never --format=$fmt "${FILES[@]}"
  never_rc=$rc
  cp out never.$fmt.out
  cp err never.$fmt.err
  TMPDIR=$WORK/tmp run --pch=always --format=$fmt --time-report "${FILES[@]}"
  [ "$rc" -eq "$never_rc" ] || fail "$fmt: exit status $rc with preambles, $never_rc without"
  cmp -s out never.$fmt.out || fail "$fmt: output differs with preambles: $(diff never.$fmt.out out | head -20)"
  sed '/time report/,$d' err >always.$fmt.err
  cmp -s always.$fmt.err never.$fmt.err ||
    fail "$fmt: messages differ with preambles: $(diff never.$fmt.err always.$fmt.err | head -20)"
done
# what the files parse as alone: no error but in h.cu (its own) and m1, m2 (the missing header)
grep -q "src/h.cu:.*note: clang:" never.text.err || fail "h.cu's parse error is reported"
for f in a b c d e f g w1 w2 wide n1 n2 i1 i2 o1 o2 o3; do
  ! grep -q "src/$f.cu.*note: clang:" never.text.err || fail "$f.cu parses without error alone: $(grep "src/$f.cu" never.text.err | head -3)"
  grep -q "src/$f.cu:[0-9]*:[0-9]*: warning: .*GM001" never.text.out || fail "$f.cu's leak is found"
done
# the plan: the base; <vector> (i1, i2: the include before their #ifndef stays theirs), and on
# it <vector> <cstdio> <cuda_runtime.h> (f, g, h, d) and <vector> <cstdio> <algorithm>
# <cuda_runtime.h> (a, b, c, e); <width.h> <cuda_runtime.h> (w1, w2); <width.h> <wide_on.h>
# <cuda_runtime.h> (o2, o3); <no_guard.h> <cuda_runtime.h> (n1, n2); <cuda_runtime.h>
# <no_such_header.h> (m1, m2: refused, they parse on the base); o1.cu and wide.cu alone, on the
# base: eight builds. 16 parses on a chained preamble, which hold 4 x 4 + 4 x 3 + 2 x 1 + 2 x 2
# + 2 x 3 + 2 x 2 of the 4 x 4 + 4 x 3 + 2 x 1 + 2 x 2 + 3 x 3 + 2 x 2 + 2 x 2 includes of the
# 20 files' runs (wide.cu's is empty)
grep -qE '^  preamble builds +[0-9.]+ +[0-9.]+% +\(8\)$' err ||
  fail "eight preambles built: $(grep 'preamble builds' err)"
grep -qE '^  on a chained preamble +16 of 20 parses, holding 44 of their 51 leading' err ||
  fail "the parses on a chained preamble: $(grep 'on a chained' err)"
[ -z "$(ls -A tmp)" ] || fail "the preambles' files are removed: $(ls tmp)"
finish
