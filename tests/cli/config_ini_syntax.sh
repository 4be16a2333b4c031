# .gmemlint syntax read as written: a section name with blanks around it, and (below) comments,
# quotes, long lines and repeated sections. Each case is read as the docs say or rejected with
# FILE:LINE and exit status 2; none crashes.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir proj
cat >proj/use.cu <<'SRC'
extern "C" void mylib_put(void *p);
void put(void *p) { mylib_put(p); }
SRC

# A blank after `[` names the same section: it once freed the trimmed pointer (abort, exit 134).
printf '[ borrow ]\nfunctions = mylib_put\n' >proj/.gmemlint
run --dump-model proj/use.cu
expect_rc 0 "[ borrow ] is read as [borrow]"
expect_err "call 'mylib_put' \[table\]" "[ borrow ] registers its functions"

finish
