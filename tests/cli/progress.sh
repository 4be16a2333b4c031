# The progress line: "[done/total] file" on standard error, redrawn in place with carriage
# returns and erased before findings and at the end; on a terminal by default (faked with
# script(1)), never when standard error is a file or a pipe unless --progress forces it.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
write_leak a.cu
write_clean b.cu
write_leak c.cu
FILES=(--no-cache -j 1 a.cu b.cu c.cu)

# not a terminal: nothing
run "${FILES[@]}"
expect_rc 1 "findings in a.cu and c.cu"
! grep -q $'\r' err || fail "no carriage returns when stderr is a file: $(cat -A err)"
! grep -q '\[0/3\]' err || fail "no counter when stderr is a file"

# forced: counter lines, each after a carriage return, and erased at the end
run --progress "${FILES[@]}"
expect_rc 1 "--progress: same exit status"
grep -q $'\r\\[0/3\\] a.cu' err || fail "--progress shows [0/3] a.cu: $(cat -A err)"
# each later file too, with the files finished before it counted (the counter names each file
# it waits for once, also one that finished before it came to it: on a loaded machine the
# count may already be past it)
grep -q $'\r\\[[123]/3\\] b.cu' err || fail "--progress shows b.cu: $(cat -A err)"
grep -q $'\r\\[[23]/3\\] c.cu' err || fail "--progress shows c.cu: $(cat -A err)"
tail -c 1 err | grep -q $'\r' || fail "the line is erased at the end: $(tail -c 80 err | cat -A)"
# erasing writes spaces over the longest line drawn, then returns to the start
grep -q $'\r          *\r' err || fail "erased with spaces: $(cat -A err)"
[ "$(count_out 'warning:')" -eq 2 ] || fail "findings unchanged with --progress"

# --no-progress wins over a terminal, and --progress --no-progress is off
run --progress --no-progress "${FILES[@]}"
! grep -q $'\r' err || fail "--no-progress: none"

if command -v script >/dev/null; then
  # a terminal (script's pseudo-terminal for both streams): shown, and erased before findings
  script -qec "'$GMEMLINT' --color=never ${FILES[*]}" /dev/null >tty.out 2>&1 </dev/null
  grep -q $'\\[0/3\\] a.cu' tty.out || fail "a terminal shows the counter: $(cat -A tty.out | head)"
  # each finding starts a clean line: after the last carriage return comes the file name
  # (script's terminal turns \n into \r\n, so look at the text between the returns)
  tr '\n' '\r' <tty.out | tr '\r' '\n' | grep 'warning:' >tty.warn || true
  [ "$(wc -l <tty.warn)" -eq 2 ] || fail "two findings on the terminal: $(cat -A tty.out)"
  ! grep -vq '^[ac].cu:4:7: warning:' tty.warn || fail "a finding shares a line with the counter: $(cat -A tty.warn)"
  script -qec "'$GMEMLINT' --no-progress ${FILES[*]}" /dev/null >tty2.out 2>&1 </dev/null
  ! grep -q '\[0/3\]' tty2.out || fail "--no-progress on a terminal"
else
  echo "script(1) not installed: terminal checks skipped"
fi
finish
