# --verify fails on a missing or an unexpected finding, says which, and passes when they match.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
write_leak ok.cu
sed -i '4s|$| // expected-warning {{GM001}}|' ok.cu
sed -i "7s|\$| // expected-note {{this return after a failed call leaves without freeing 'a'}}|" ok.cu
run --verify ok.cu
expect_rc 0 "matching expectation"

write_leak offset.cu
# (write_leak's leak is on an error path: a note in SARIF, still an expected-warning here)
sed -i '2s|$| // expected-warning@+2 {{not freed on an error path}}|' offset.cu
sed -i '3s|$| // expected-note@7 {{this return after a failed call leaves}}|' offset.cu
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

# Notes are checked in every file, as clang's -verify does: one with no expected-note at all
# still fails on a note it does not state.
write_leak unstated.cu
sed -i '4s|$| // expected-warning {{GM001}}|' unstated.cu
run --verify unstated.cu
expect_rc 1 "a note not stated in a file without expected-note"
expect_err "unstated.cu:7:5: verify: unexpected note: this return after a failed call leaves without freeing 'a'" "the unstated note named"

# The opt-out says why; without a reason it is malformed.
cp unstated.cu optout.cu
echo "// expected-notes-unchecked: the test is about the warning's line alone" >>optout.cu
run --verify optout.cu
expect_rc 0 "expected-notes-unchecked with a reason"
cp unstated.cu optout_bare.cu
echo "// expected-notes-unchecked" >>optout_bare.cu
run --verify optout_bare.cu
expect_rc 1 "expected-notes-unchecked without a reason"
expect_err "optout_bare.cu:12: error: expected-notes-unchecked needs a colon and a reason" "bare opt-out named"

# A rule listed as unchecked: its findings, and their notes, are left out; others still count.
write_leak rules.cu
echo "// expected-no-diagnostics" >>rules.cu
echo "// expected-rules-unchecked GM001: this file tests the other rules" >>rules.cu
run --verify --enable=all rules.cu
expect_rc 0 "a finding of a rule listed in expected-rules-unchecked"
sed -i 's|expected-rules-unchecked GM001:|expected-rules-unchecked GM010, GM030:|' rules.cu
run --verify --enable=all rules.cu
expect_rc 1 "a finding of a rule not listed"
expect_err "rules.cu:4:7: verify: unexpected warning: .*GM001" "the unlisted rule's finding named"
sed -i 's|expected-rules-unchecked GM010, GM030:.*|expected-rules-unchecked GM001|' rules.cu
run --verify --enable=all rules.cu
expect_rc 1 "expected-rules-unchecked without a reason"
expect_err "rules.cu:13: error: expected-rules-unchecked needs rule ids, a colon and a reason" "bare rule list named"

# A note in another file is stated as @FILE:LINE, as clang does (a path, or its last components).
mkdir -p other
cat >other/buf.h <<'SRC'
#include <cuda_runtime.h>
#include <stdlib.h>
struct Buf {
  float *data;
  void init(int n);
  void drop();
};
SRC
cat >other/init.cu <<'SRC'
#include "buf.h"
void Buf::init(int n) { cudaMallocHost(&data, n); }
// expected-no-diagnostics
SRC
cat >other/drop.cu <<'SRC'
#include "buf.h"
void Buf::drop() { free(data); } // expected-warning {{is released with free}} expected-note@init.cu:2 {{allocated here with cudaMallocHost}}
SRC
run --verify other/init.cu other/drop.cu
expect_rc 0 "a note in another file stated with @FILE:LINE"
sed -i 's|expected-note@init.cu:2|expected-note@drop.cu:2|' other/drop.cu
run --verify other/init.cu other/drop.cu
expect_rc 1 "a note stated in the wrong file"
expect_err "other/drop.cu: verify: unexpected note at other/init.cu:2:25: allocated here with cudaMallocHost" "the note in the other file named"
expect_err "other/drop.cu:2: verify: expected note not seen: \\{\\{allocated here with cudaMallocHost\\}\\} \\(in drop.cu\\)" "the stated one not seen"
finish
