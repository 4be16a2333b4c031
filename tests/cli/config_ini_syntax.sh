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

# A comment after a value starts at `;` or `#` after a blank; quotes around a name are not part
# of it; a line may continue an indented list, and end in CR LF.
printf '[borrow]   # ours\nfunctions = mylib_put # our library\n' >proj/.gmemlint
run --dump-model proj/use.cu
expect_rc 0 "# comment after a name"
expect_err "call 'mylib_put' \[table\]" "# comment is not part of the name"
printf '[borrow]\r\nfunctions = "other",\r\n    '"'mylib_put'"' ; ours\r\n' >proj/.gmemlint
run --dump-model proj/use.cu
expect_rc 0 "quoted names, continued, CR LF"
expect_err "call 'mylib_put' \[table\]" "quotes are not part of the name"
printf '[sink "mylib_put"]\npointer = "0"\n' >proj/.gmemlint
run --dump-model proj/use.cu
expect_rc 0 "a quoted section subject and value"
expect_err "call 'mylib_put' \[table\]" "a quoted subject names the function"

# What is left of a name with no blank before `;` or `#` (or with a blank or quote inside) is
# not a name: an error, not a row for `mylib_put;x`.
printf '[borrow]\nfunctions = mylib_put;x\n' >proj/.gmemlint
run proj/use.cu
expect_rc 2 "; without a blank"
expect_err "^gmemlint: error: .*proj/.gmemlint:2: 'mylib_put;x' is not a function name or pattern \(a name has no blanks, quotes, commas, ';' or '#'\)$" "; inside a name message"
printf '[use]\nfunctions = a, mylib put\n' >proj/.gmemlint
run proj/use.cu
expect_rc 2 "a blank inside a name"
expect_err "proj/.gmemlint:2: 'mylib put' is not a function name or pattern" "blank inside a name message"

# Long lines are read whole, and later lines keep their numbers.
long=$(for i in $(seq 1 30); do printf 'lib_fn_%02d, ' "$i"; done)
printf '[borrow]\nfunctions = %smylib_put\n' "$long" >proj/.gmemlint
[ "$(sed -n 2p proj/.gmemlint | wc -c)" -gt 300 ] || fail "the long line is over 300 characters"
run --dump-model proj/use.cu
expect_rc 0 "a line over 300 characters"
expect_err "call 'mylib_put' \[table\]" "the end of a long line is read"
printf '[borrow]\nfunctions = %smylib_put\n\nbogus line\n' "$long" >proj/.gmemlint
run proj/use.cu
expect_rc 2 "a syntax error after a long line"
expect_err "^gmemlint: error: .*proj/.gmemlint:4: syntax error \(expected \[section\] or key = value\)$" "error at its own line after a long line"
name=$(printf 'x%.0s' $(seq 1 120))
printf '; long\n[%s]\nk = v\n' "$name" >proj/.gmemlint
run proj/use.cu
expect_rc 2 "a long unknown section"
expect_err "proj/.gmemlint:3: unknown section \[$name\] \(expected rules, " "a long section is named whole"

# A section or key given twice is an error naming both lines, as every other mistake in the
# file is (before, a repeated section merged and a repeated key replaced silently).
printf '[borrow]\nfunctions = a\n\n[ borrow ]\nfunctions = mylib_put\n' >proj/.gmemlint
run proj/use.cu
expect_rc 2 "a repeated section"
expect_err "^gmemlint: error: .*proj/.gmemlint:4: duplicate section \[borrow\] \(first at line 1\)$" "repeated section message"
printf '[sink mylib_put]\npointer = 0\n[sink  "mylib_put"]\npointer = 0\n' >proj/.gmemlint
run proj/use.cu
expect_rc 2 "a repeated named section"
expect_err "proj/.gmemlint:3: duplicate section \[sink mylib_put\] \(first at line 1\)$" "repeated named section message"
printf '[sink mylib_put]\npointer = 0\n; again\npointer = all\n' >proj/.gmemlint
run proj/use.cu
expect_rc 2 "a repeated key"
expect_err "^gmemlint: error: .*proj/.gmemlint:4: duplicate key 'pointer' in \[sink mylib_put\] \(first at line 2\)$" "repeated key message"
# the same key in different sections is no repeat
printf '[borrow]\nfunctions = a\n[use]\nfunctions = mylib_put\n' >proj/.gmemlint
run proj/use.cu
expect_rc 0 "one key in two sections"
[ ! -s "$WORK/err" ] || fail "no message for one key in two sections: $(cat "$WORK/err")"

finish
