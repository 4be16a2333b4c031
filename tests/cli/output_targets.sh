# An output replaces only a regular file (or a missing one) by renaming its temporary into place
# (support/atomic_file.h): a symbolic link keeps pointing at its target, which holds the output;
# the replaced file keeps its mode; a FIFO's reader, a pipe behind /dev/stdout and a character
# device get the text written in place (a rename would leave a regular file where they were).
# An output that names one of the command line's inputs is refused before any work (exit 2),
# the input untouched; --write-baseline may still update the --baseline it read.
source "$(dirname "$0")/testlib.bash" "$@"
cd "$WORK"
write_leak leak.cu
FINDING="leak.cu:4:7: warning: 'a' \(device memory from cudaMalloc\) is not freed on an error path"
LINT=(--no-cache --only=GM001)

# a file of mode 600 stays 600
echo old >private.txt
chmod 600 private.txt
run "${LINT[@]}" -o private.txt leak.cu
expect_rc 1 "-o onto a file of mode 600"
grep -qE "^$FINDING" private.txt || fail "the 600 file holds the finding: $(head -c 300 private.txt)"
[ "$(stat -c %a private.txt)" = 600 ] || fail "mode kept: $(stat -c %a private.txt), expected 600"

# a file with another hard link is written in place: both names show the output
echo old >linked.txt
ln linked.txt other_name.txt
run "${LINT[@]}" -o linked.txt leak.cu
expect_rc 1 "-o onto a file with two hard links"
grep -qE "^$FINDING" other_name.txt || fail "the other hard link holds the finding: $(head -c 300 other_name.txt)"
[ "$(stat -c %h linked.txt)" = 2 ] || fail "still two links: $(stat -c %h linked.txt)"

# a file of another owner keeps its owner (as root, which CI is); without the right to give it
# back, it is written in place, which keeps the owner too
if [ "$(id -u)" = 0 ]; then
  echo old >owned.txt
  chown 65534:65534 owned.txt
  run "${LINT[@]}" -o owned.txt leak.cu
  expect_rc 1 "-o onto a file of another owner"
  grep -qE "^$FINDING" owned.txt || fail "the owned file holds the finding"
  [ "$(stat -c %u:%g owned.txt)" = 65534:65534 ] || fail "owner kept: $(stat -c %u:%g owned.txt)"
else
  echo "note: not root; the other owner's file case is skipped"
fi

# a symbolic link (relative, from another directory) stays a link; its target gets the output
mkdir links
echo old >target.txt
ln -s ../target.txt links/out.txt
run "${LINT[@]}" -o links/out.txt leak.cu
expect_rc 1 "-o onto a symbolic link"
[ -L links/out.txt ] && [ "$(readlink links/out.txt)" = ../target.txt ] ||
  fail "the link stays a link to ../target.txt: $(ls -l links/out.txt)"
grep -qE "^$FINDING" target.txt || fail "the link's target holds the finding: $(head -c 300 target.txt)"
ln -s ../page.html links/page.html
run report --html links/page.html "$ROOT/tests/report/trainer.json"
expect_rc 0 "report --html onto a symbolic link"
[ -L links/page.html ] && grep -q '<html' page.html || fail "report --html follows the link"

# a FIFO: its reader gets the output, and it stays a FIFO
mkfifo fifo
timeout 20 cat fifo >from_fifo &
reader=$!
run "${LINT[@]}" -o fifo leak.cu
expect_rc 1 "-o onto a FIFO"
wait "$reader" || fail "the FIFO's reader ended with status $?"
grep -qE "^$FINDING" from_fifo || fail "the FIFO's reader got the finding: $(head -c 300 from_fifo)"
[ -p fifo ] || fail "the FIFO stays a FIFO: $(ls -l fifo)"

# /dev/fd/1 on a pipe (as /dev/stdout, which links to /proc/self/fd/1; the test names /dev/fd/1
# so that a build that renames still cannot replace a node of /dev: procfs refuses the temporary)
"$GMEMLINT" "${LINT[@]}" -o /dev/fd/1 leak.cu 2>"$WORK/err" | cat >piped
rc=${PIPESTATUS[0]}
expect_rc 1 "-o /dev/fd/1"
grep -qE "^$FINDING" piped || fail "-o /dev/fd/1 prints the finding: $(head -c 300 piped)"

# a character device: /dev/null bound over a file of a private tmpfs in a private mount
# namespace, so that no real device node is ever at stake
if unshare -rm true 2>/dev/null; then
  mkdir devdir
  unshare -rm bash -c 'mount -t tmpfs none devdir && touch devdir/null &&
    mount --bind /dev/null devdir/null && { "$1" --no-cache --only=GM001 -o devdir/null leak.cu;
    echo $? >device_rc; [ -c devdir/null ] && echo char >device_kind; ls devdir >device_ls; }' \
    _ "$GMEMLINT" >device_out 2>"$WORK/err" || true
  [ "$(cat device_rc 2>/dev/null)" = 1 ] ||
    fail "-o onto a character device: exit status $(cat device_rc 2>/dev/null) ($(cat "$WORK/err"))"
  [ "$(cat device_kind 2>/dev/null)" = char ] || fail "the device stays a character device"
  [ "$(cat device_ls 2>/dev/null)" = null ] || fail "nothing beside the device: $(cat device_ls)"
else
  echo "note: no private user and mount namespace (unshare -rm); the character device case is skipped"
fi

# an output naming an input: refused before any work, the input untouched
cp leak.cu kept.cu
run "${LINT[@]}" -o leak.cu leak.cu
expect_rc 2 "-o naming the source"
expect_err "^gmemlint: error: -o leak.cu would overwrite the input leak.cu$" "-o naming the source"
cmp -s leak.cu kept.cu || fail "the source is untouched"
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "-o naming the source: only the error: $(cat "$WORK/err")"
ln -s leak.cu alias.cu
run "${LINT[@]}" --export-fixes alias.cu leak.cu
expect_rc 2 "--export-fixes naming the source through a link"
expect_err "^gmemlint: error: --export-fixes alias.cu would overwrite the input leak.cu$" \
  "--export-fixes naming the source through a link"
cmp -s leak.cu kept.cu || fail "the source is untouched by --export-fixes"
printf '[rules]\ndisable = GM002\n' >project.gmemlint
cp project.gmemlint config_kept
run "${LINT[@]}" --config=project.gmemlint -o project.gmemlint leak.cu
expect_rc 2 "-o naming the --config file"
expect_err "^gmemlint: error: -o project.gmemlint would overwrite the input project.gmemlint$" \
  "-o naming the --config file"
cmp -s project.gmemlint config_kept || fail "the config file is untouched"
cp "$ROOT/tests/report/trainer.json" run.json
run report --html run.json run.json
expect_rc 2 "report --html naming its telemetry"
expect_err "^gmemlint: error: --html run.json would overwrite the input run.json$" \
  "report --html naming its telemetry"
cmp -s run.json "$ROOT/tests/report/trainer.json" || fail "the telemetry is untouched"
run report --trace ./run.json -o out.txt run.json
expect_rc 2 "report --trace naming its telemetry"
expect_err "^gmemlint: error: --trace ./run.json would overwrite the input run.json$" \
  "report --trace naming its telemetry"
run "${LINT[@]}" --telemetry=run.json -o run.json leak.cu
expect_rc 2 "-o naming the --telemetry file"
expect_err "^gmemlint: error: -o run.json would overwrite the input run.json$" \
  "-o naming the --telemetry file"
cmp -s run.json "$ROOT/tests/report/trainer.json" || fail "the telemetry is untouched by -o"
run "${LINT[@]}" --write-baseline base.json leak.cu
run "${LINT[@]}" --baseline base.json -o base.json leak.cu
expect_rc 2 "-o naming the --baseline file"
expect_err "^gmemlint: error: -o base.json would overwrite the input base.json$" \
  "-o naming the --baseline file"
run "${LINT[@]}" --baseline base.json --write-baseline base.json leak.cu
expect_rc 0 "--write-baseline updates the --baseline it read"
grep -q GM001 base.json || fail "the updated baseline holds the finding: $(head -c 300 base.json)"
# two outputs that name one file: refused before any work
run "${LINT[@]}" -o both.txt --export-fixes ./both.txt leak.cu
expect_rc 2 "-o and --export-fixes on one file"
expect_err "^gmemlint: error: -o both.txt and --export-fixes ./both.txt name one file: each output needs its own$" \
  "-o and --export-fixes on one file"
[ ! -e both.txt ] || fail "nothing written to both.txt"
finish
