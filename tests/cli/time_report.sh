# --time-report: the stage totals, CPU time, peak memory and slowest files on standard error at
# the end; the findings and the exit status are those of the same run without it.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
write_leak a.cu
write_clean b.cu
write_leak c.cu
FILES=(--no-cache -j 2 a.cu b.cu c.cu)

run "${FILES[@]}"
expect_rc 1 "findings in a.cu and c.cu"
cp out plain.out
! grep -q 'time report' err || fail "no report unless asked for"

run --time-report "${FILES[@]}"
expect_rc 1 "--time-report: same exit status"
cmp -s out plain.out || fail "--time-report: standard output unchanged: $(diff plain.out out | head)"
expect_err '^gmemlint: time report \(seconds, each stage summed over 2 workers\)$' "the heading"
for stage in 'preamble builds' 'clang parse  .*\(3\)$' 'model' 'flow' 'rules' 'output' \
  'wall clock' 'CPU \(user \+ system\)' 'peak memory \(max RSS\) +[0-9.]+ MiB'; do
  expect_err "^  $stage" "a line for '$stage'"
done
expect_err '^  slowest files: [abc]\.cu [0-9.]+$' "the slowest file, with its seconds"
[ "$(grep -cE '^ +[abc]\.cu [0-9.]+$|slowest files: ' err)" -eq 3 ] ||
  fail "each of the three files once among the slowest: $(cat err)"
# the stages add up to no more than the workers' wall clock
awk '/stages, total/ {t = $3} /wall clock/ {w = $3} END {exit !(t <= 2 * w + 0.01)}' err ||
  fail "stage totals within 2 x wall clock: $(cat err)"
finish
