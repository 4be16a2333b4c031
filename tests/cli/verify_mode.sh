# --verify fails on a missing or an unexpected finding, says which, and passes when they match.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
write_leak ok.cu
sed -i '4s|$| // expected-warning {{GM001}}|' ok.cu
run --verify ok.cu
expect_rc 0 "matching expectation"

write_leak offset.cu
# (write_leak's leak is on an error path: a note in SARIF, still an expected-warning here)
sed -i '2s|$| // expected-warning@+2 {{not freed on an error path}}|' offset.cu
run --verify offset.cu
expect_rc 0 "@+N offset with message text"

write_leak missing.cu
sed -i '4s|$| // expected-warning {{GM001}}|' missing.cu
sed -i '9s|$| // expected-warning {{GM003}}|' missing.cu
run --verify missing.cu
expect_rc 1 "missing finding"
expect_err "missing.cu:9: verify: expected warning not seen: \{\{GM003\}\}" "names the missing one"

write_leak unexpected.cu
echo '// expected-no-diagnostics' >>unexpected.cu
run --verify unexpected.cu
expect_rc 1 "unexpected finding"
expect_err "unexpected.cu:4:7: verify: unexpected warning: .*GM001" "names the unexpected one"

write_leak wrongtext.cu
sed -i '4s|$| // expected-warning {{GM002}}|' wrongtext.cu
run --verify wrongtext.cu
expect_rc 1 "wrong rule on the right line"

write_clean none.cu
run --verify none.cu
expect_rc 1 "a test file without directives is an error"
expect_err "no expected-warning or expected-no-diagnostics" "missing directives message"

write_leak notes.cu
sed -i '4s|$| // expected-warning {{GM001}}|' notes.cu
sed -i '7s|$| // expected-note {{this return after a failed call leaves}}|' notes.cu
run --verify notes.cu
expect_rc 0 "expected-note matches a related location"
sed -i '7s|expected-note {{this return after a failed call leaves}}|expected-note {{something else}}|' notes.cu
run --verify notes.cu
expect_rc 1 "wrong note text"
expect_err "unexpected note: this return after a failed call leaves" "unexpected note named"
finish
