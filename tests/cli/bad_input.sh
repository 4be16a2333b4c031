# Bad input: each gets a clear message naming the file and exit status 2 when nothing could be
# analysed; a partly broken file is analysed as far as it parses.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"

run missing.cu
expect_rc 2 "missing file"
expect_err "^gmemlint: error: missing.cu: No such file or directory" "missing file message"

mkdir adir
run adir
expect_rc 2 "directory"
expect_err "gmemlint: error: adir: is a directory" "directory message"

"$PY" -c "import socket; s=socket.socket(socket.AF_UNIX); s.bind('sock.cu')"
run sock.cu
expect_rc 2 "unreadable file"
expect_err "gmemlint: error: sock.cu: cannot read" "unreadable message"

: >empty.cu
run empty.cu
expect_rc 2 "empty file"
expect_err "gmemlint: error: empty.cu: file is empty" "empty file message"

printf 'int main() {\n  return 0;\x00\n}\n' >nul.cu
run nul.cu
expect_rc 2 "NUL bytes"
expect_err "gmemlint: error: nul.cu:2: file contains a NUL byte" "NUL message"

printf 'this is not C at all {{{ ]]\n' >garbage.cu
run garbage.cu
expect_rc 2 "unparsable file"
expect_err "garbage.cu:1:[0-9]+: note: clang: " "clang errors become notes"
expect_err "gmemlint: error: garbage.cu: [0-9]+ parse error\(s\) and no function could be analysed" "unparsable message"

# A file with a parse error and a leak: the leak is still found; the error is a note.
write_leak partial.cu
printf 'void broken() { int x = ; }\n' >>partial.cu
run partial.cu
expect_rc 3 "partial parse still analysed (exit 3: a parse error)"
expect_out "partial.cu:4:7: warning: .*\[GM001 unpaired-allocation\]" "leak found in a partly broken file"
expect_err "partial.cu:12:[0-9]+: note: clang: expected expression" "parse error reported as note"
expect_err "gmemlint: warning: partial.cu: 1 parse error\(s\); findings may be incomplete" "partial warning"

# Invalid UTF-8 in a comment: analysed, warned about, and JSON output stays valid UTF-8.
write_leak utf8.cu
printf '// caf\xe9 \xff\xfe\n' >>utf8.cu
run --format=json utf8.cu
expect_rc 1 "invalid UTF-8 still analysed"
expect_err "gmemlint: warning: utf8.cu:12: invalid UTF-8" "invalid UTF-8 warning"
"$PY" -c "import json,sys; d=json.load(open(sys.argv[1], encoding='utf-8')); assert len(d['findings'])==1" "$WORK/out" || fail "JSON after invalid UTF-8"

echo 'int x;' >notes.txt
run notes.txt
expect_rc 2 "not a source"
expect_err "gmemlint: error: notes.txt: not a C, C\+\+ or CUDA source" "not a source message"

# One bad file among good ones: the good one is still reported, and the status is 2.
write_leak good.cu
run good.cu missing.cu
expect_rc 2 "mixed good and missing"
expect_out "good.cu:4:7: warning" "good file still reported"

# compile_commands.json problems
mkdir bad_db empty_db
printf '[{"directory": "/tmp", "file": "a.cu", "command": "nvcc a.cu"},\n {"directory": ]\n' >bad_db/compile_commands.json
run -p bad_db good.cu
expect_rc 2 "malformed compile database"
expect_err "bad_db/compile_commands.json:2:[0-9]+: invalid JSON" "compdb JSON error has line and column"
printf '{"not": "an array"}\n' >bad_db/compile_commands.json
run -p bad_db good.cu
expect_rc 2 "compile database of the wrong shape"
expect_err "expected a JSON array of compile commands" "compdb shape message"
printf '[{"directory": "/tmp", "file": "a.cu"}]\n' >bad_db/compile_commands.json
run -p bad_db good.cu
expect_rc 2 "compile database entry without command"
expect_err "entry 1 needs" "compdb entry message"
run -p empty_db good.cu
expect_rc 2 "no compile database"
expect_err "empty_db/compile_commands.json: cannot open compile database" "missing compdb message"

# a broken .gmemlint
mkdir proj
write_leak proj/a.cu
printf '[rules]\ndisable = GM042\n' >proj/.gmemlint
run proj/a.cu
expect_rc 2 "bad config"
expect_err "proj/.gmemlint: unknown rule 'GM042'" "bad config message"
printf '[alloc my_alloc]\nfamily = no-such-family\npointer = 0\n' >proj/.gmemlint
run proj/a.cu
expect_rc 2 "config names unknown family"
expect_err "names unknown family 'no-such-family'" "unknown family message"
printf 'this line is not ini\n' >proj/.gmemlint
run proj/a.cu
expect_rc 2 "config syntax"
expect_err "proj/.gmemlint:1: syntax error" "config syntax message"

# a bad baseline file
printf '{"version": 2}' >base.json
run --baseline base.json good.cu
expect_rc 2 "bad baseline"
expect_err "base.json: not a gmemlint baseline" "bad baseline message"
finish
