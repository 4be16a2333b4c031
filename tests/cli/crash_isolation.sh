# A file whose analysis kills the process (here: a macro bomb past --max-memory, with libclang's
# own crash recovery off so that the allocation failure aborts the process, as a stack overflow
# or the kernel's OOM killer does), or runs past --max-file-time, costs that file only: the
# supervising process runs the rest again, the file is reported as not analysed with the signal
# or the bound (stderr, JSON's notices, SARIF's notifications, exit 2), and every other file's
# findings are printed once.
source "$(dirname "$0")/testlib.bash" "$@"
cd "$WORK"
if ldd "$GMEMLINT" | grep -Eq 'lib(asan|tsan)'; then
  echo "note: a sanitizer build ignores --max-memory (its shadow memory is address space): skipped"
  finish
  exit 0
fi
write_leak leak.cu
FINDING="^leak.cu:4:7: warning: 'a' \(device memory from cudaMalloc\) is not freed on an error path"
# 10^9 terms once expanded: far past a 768 MiB address space
bomb() {
  {
    echo '#define A0 x+x+x+x+x+x+x+x+x+x'
    for i in 1 2 3 4 5 6 7 8; do
      echo "#define A$i A$((i - 1))+A$((i - 1))+A$((i - 1))+A$((i - 1))+A$((i - 1))+A$((i - 1))+A$((i - 1))+A$((i - 1))+A$((i - 1))+A$((i - 1))"
    done
    echo 'int f(int x) { return A8; }'
  } >"$1"
}
bomb bomb.cpp
bomb bomb2.cpp
export LIBCLANG_DISABLE_CRASH_RECOVERY=1
WHY="its analysis crashed \(SIGABRT\); it may have needed more than the run's 768 MiB \(--max-memory\); the other files' results stand"

run --no-cache --only=GM001 --max-memory=768M leak.cu bomb.cpp
expect_rc 2 "one file past the memory bound"
expect_err "^gmemlint: error: bomb.cpp: not analysed: $WHY$" "the file past the bound"
[ "$(count_out "$FINDING")" = 1 ] || fail "the other file's finding, once: $(cut -c1-200 "$WORK/out")"

# two such files in flight at once: analysed again one at a time, each named ($JOBS, not a
# literal job count: under ThreadSanitizer, which .ci/run gives the scripts that run several
# jobs, no address space bound can hold)
JOBS=2
run --no-cache --only=GM001 --max-memory=768M -j "$JOBS" bomb.cpp leak.cu bomb2.cpp
expect_rc 2 "two files past the memory bound, -j 2"
expect_err "^gmemlint: error: bomb.cpp: not analysed: $WHY$" "-j 2: the first file past the bound"
expect_err "^gmemlint: error: bomb2.cpp: not analysed: $WHY$" "-j 2: the second file past the bound"
[ "$(count_out "$FINDING")" = 1 ] || fail "-j 2: the other file's finding, once: $(cut -c1-200 "$WORK/out")"
[ "$(grep -c "^gmemlint: error: bomb" "$WORK/err")" = 2 ] || fail "-j 2: each file named once: $(cat "$WORK/err")"

# every format says it
run --no-cache --only=GM001 --max-memory=768M --format=json leak.cu bomb.cpp
expect_rc 2 "JSON"
"$PY" - "$WORK/out" <<'PY' || fail "JSON: the notice and the finding"
import json, sys
d = json.load(open(sys.argv[1]))
notices = [n for n in d["notices"] if n["kind"] == "not-analysed"]
assert [(n["file"], n["line"]) for n in notices] == [("bomb.cpp", 0)], d["notices"]
assert notices[0]["message"].startswith("bomb.cpp: not analysed: its analysis crashed (SIGABRT)"), notices
assert [(f["rule"], f["file"], f["line"]) for f in d["findings"]] == [("GM001", "leak.cu", 4)], d["findings"]
PY
run --no-cache --only=GM001 --max-memory=768M --format=sarif leak.cu bomb.cpp
expect_rc 2 "SARIF"
"$PY" - "$WORK/out" <<'PY' || fail "SARIF: the notification"
import json, sys
inv = json.load(open(sys.argv[1]))["runs"][0]["invocations"][0]
assert inv["executionSuccessful"] is False, inv
errors = [n["message"]["text"] for n in inv["toolExecutionNotifications"] if n["level"] == "error"]
assert len(errors) == 1 and errors[0].startswith("bomb.cpp: not analysed: its analysis crashed (SIGABRT)"), inv
PY

# a file past the time bound (a 100,000-term sum: about 18 s here) costs that file only
"$PY" -c "print('int f(int x) { return ' + '+'.join(['x'] * 100000) + '; }')" >slow.cu
run --no-cache --only=GM001 --max-file-time=2 leak.cu slow.cu
expect_rc 2 "a file past the time bound"
expect_err "^gmemlint: error: slow.cu: not analysed: its analysis took longer than 2 s \(--max-file-time\); the other files' results stand$" "the file past the time bound"
[ "$(count_out "$FINDING")" = 1 ] || fail "past the time bound: the other file's finding, once: $(cut -c1-200 "$WORK/out")"
run --max-file-time=soon leak.cu
expect_rc 2 "a bad --max-file-time"
expect_err "^gmemlint: error: bad --max-file-time value 'soon' \(expected seconds, 0 for no bound\)$" "a bad --max-file-time"

# without the supervising process the crash ends the run
run --no-cache --only=GM001 --max-memory=768M --no-isolation leak.cu bomb.cpp
expect_rc 134 "--no-isolation: the crash ends the run"
run --max-memory=lots leak.cu
expect_rc 2 "a bad --max-memory"
expect_err "^gmemlint: error: bad --max-memory value 'lots' \(expected a size such as 8G, 512M or 0\)$" "a bad --max-memory"
finish
