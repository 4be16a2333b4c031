# A compile database entry that gives no compiler command ("arguments": [], "command": "" or
# only blanks) or whose "directory" is a file is an error naming the database, the entry and
# its file, with exit status 2 (bad input), and nothing is analysed; a well-formed twin of the
# same database is read.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir -p src build
write_leak src/leak.cu
good='{"directory": "'$WORK'/src", "file": "leak.cu", "command": "clang++ -c leak.cu"}'
check() { # ENTRY MESSAGE
  printf '[%s,\n %s]\n' "$good" "$1" >build/compile_commands.json
  run --no-cache -p build
  expect_rc 2 "$1"
  [ "$(cat err)" = "gmemlint: error: build/compile_commands.json: $2" ] ||
    fail "$1: the error in full: $(cat err)"
  [ ! -s out ] || fail "$1: nothing analysed: $(cat out)"
}
check '{"directory": "'$WORK'/src", "file": "leak.cu", "arguments": []}' \
  'entry 2 (leak.cu) has an empty "arguments": no compiler command to read'
check '{"directory": "'$WORK'/src", "file": "leak.cu", "command": ""}' \
  'entry 2 (leak.cu) has an empty "command": no compiler command to read'
check '{"directory": "'$WORK'/src", "file": "leak.cu", "command": " \t "}' \
  'entry 2 (leak.cu) has an empty "command": no compiler command to read'
check '{"directory": "'$WORK'/src/leak.cu", "file": "leak.cu", "command": "clang++ -c leak.cu"}' \
  "entry 2 (leak.cu): its \"directory\" $WORK/src/leak.cu is not a directory"
check '{"directory": "../src/leak.cu", "file": "leak.cu", "command": "clang++ -c leak.cu"}' \
  "entry 2 (leak.cu): its \"directory\" ../src/leak.cu ($WORK/src/leak.cu) is not a directory"

# the twin: the same entries, well formed (arguments given, a real directory)
printf '[%s,\n {"directory": "../src", "file": "leak.cu", "arguments": ["clang++", "-c", "leak.cu"]}]\n' \
  "$good" >build/compile_commands.json
run --no-cache -p build
expect_rc 1 "the well-formed twin"
[ ! -s err ] || fail "the well-formed twin: $(cat err)"
expect_out "^$WORK/src/leak.cu:4:7: warning: .*\[GM001 unpaired-allocation\]$" "the twin's finding"
finish
