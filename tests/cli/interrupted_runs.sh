# A run killed by SIGTERM or SIGINT removes what it was writing before it dies
# (support/interrupt.h): the temporary of -o FILE and its preamble directory
# $TMPDIR/gmemlint-pch-PID-NS-*; the exit status still says which signal ended it (143, 130).
# A run that builds preambles first removes the directories of this user's dead runs
# (SIGKILL leaves them), keeping a live run's and any it cannot attribute.
source "$(dirname "$0")/testlib.bash" "$@"
cd "$WORK"
mkdir tmp src
export TMPDIR=$WORK/tmp
for i in $(seq 1 24); do write_leak "src/leak$i.cu"; done

# interrupted once its preamble directory exists: started with the signal's default action
# (a shell's background job ignores SIGINT)
interrupt() { # signal expected_status
  rm -rf tmp/* out.txt
  echo old >out.txt
  "$PY" -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
    "$GMEMLINT" --no-cache --no-pch-store --pch=always -j1 -o out.txt src/*.cu 2>"$WORK/err" &
  local pid=$! waited=0 status=0
  until compgen -G "tmp/gmemlint-pch-*/*" >/dev/null || [ $waited -ge 600 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  kill -s "$1" "$pid" 2>/dev/null || fail "$1: the run ended before the signal"
  wait "$pid" || status=$?
  [ "$status" = "$2" ] || fail "$1: exit status $status, expected $2 ($(head -c 300 "$WORK/err"))"
  local left
  left=$(find "$WORK" -name '*.tmp.*' | head -3)
  [ -z "$left" ] || fail "$1: the output's temporary is removed: $left"
  [ -z "$(ls tmp)" ] || fail "$1: the preamble directory is removed: $(ls -R tmp | head -5)"
  [ "$(cat out.txt)" = old ] || fail "$1: -o FILE keeps what it held: $(head -c 200 out.txt)"
}
interrupt TERM 143
interrupt INT 130

# dead and live runs' directories: named by pid and pid namespace
rm -rf tmp/*
ns=$(stat -L -c %i /proc/self/ns/pid)
sh -c 'exit 0' &
dead=$!
wait "$dead"
mkdir "tmp/gmemlint-pch-$dead-$ns-dead01" "tmp/gmemlint-pch-$$-$ns-live01" \
  "tmp/gmemlint-pch-$dead-$((ns + 1))-other1" tmp/gmemlint-pch-Ab12Cd
for d in tmp/gmemlint-pch-*; do echo x >"$d/preamble0.pch"; done
run --no-cache --no-pch-store --pch=always --only=GM001 src/leak1.cu src/leak2.cu
expect_rc 1 "a run after others"
[ ! -e "tmp/gmemlint-pch-$dead-$ns-dead01" ] || fail "a dead run's directory is removed"
[ -e "tmp/gmemlint-pch-$$-$ns-live01/preamble0.pch" ] || fail "a live run's directory is kept"
[ -e "tmp/gmemlint-pch-$dead-$((ns + 1))-other1/preamble0.pch" ] ||
  fail "another pid namespace's directory is kept"
[ -e tmp/gmemlint-pch-Ab12Cd/preamble0.pch ] || fail "a directory of no known owner is kept"
[ "$(ls tmp | wc -l)" = 3 ] || fail "the run removes its own directory: $(ls tmp)"
finish
