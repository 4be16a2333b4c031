# gmemlint report --html: the page from tests/report/trainer.json (a simulated run of
# tests/report/trainer.cu, see tests/report/README.md), with and without the source, loaded in
# headless Chromium: its charts (series, step and OOM markers), the site table with the join's
# verdicts, the address-space and NVML views, a screenshot that is a real picture, and text from
# the telemetry (a file name with <script>, & and quotes) shown as text, never as markup.
source "$(dirname "$0")/testlib.bash"
REPORT="$ROOT/tests/report"
export PYTHONPATH="$REPORT${PYTHONPATH:+:$PYTHONPATH}"

# 1. the page, written without touching standard output; the source gives the static findings
(cd "$REPORT" && "$GMEMLINT" report --html "$WORK/full.html" trainer.json trainer.cu) \
  >"$WORK/out" 2>"$WORK/err" && rc=0 || rc=$?
expect_rc 0 "report --html with the source"
[ ! -s "$WORK/out" ] || fail "report --html printed: $(head -c 300 "$WORK/out")"
[ -s "$WORK/full.html" ] || fail "no HTML written"
# the verdicts the page must show are the join's own
(cd "$REPORT" && "$GMEMLINT" --format=json --telemetry trainer.json trainer.cu) >"$WORK/join.json" 2>/dev/null || true
# self-contained: nothing to fetch
if grep -Eq '<link|<img|<iframe| src=|https?://|@import|url\([^#]' "$WORK/full.html"; then
  fail "the page refers to something outside itself: $(grep -Eo '.{30}(<link|<img|<iframe| src=|https?://|@import|url\([^#]).{30}' "$WORK/full.html" | head -3)"
fi
[ "$(grep -c '<script' "$WORK/full.html")" -eq 1 ] || fail "expected one inline script (table sorting)"

# 2. text from the telemetry is escaped: a file name, a function, the program and a stack frame
"$PY" - "$REPORT/trainer.json" "$WORK/evil.json" <<'PY' || fail "could not write the hostile telemetry"
import json, sys
d = json.load(open(sys.argv[1]))
evil = "x<script>alert(\"pwn\")</script>&'q'.cu"
for s in d["sites"]:
    if s.get("line") == 103:
        s["file"] = evil
        s["stacks"] = [{"count": 1, "frames": ["<b>main</b>+0x1 (trainer)"]}]
for e in d["process"]["oom_events"]:
    e["file"] = evil
d["program"] = "/bin/<img src=x onerror=alert(1)>"
d["nvml"] = {"available": False, "reason": "</style><script>alert(2)</script>"}
json.dump(d, open(sys.argv[2], "w"))
PY
run report --html "$WORK/evil.html" "$WORK/evil.json"
expect_rc 0 "report --html on hostile text"
grep -q 'x&lt;script&gt;alert(&quot;pwn&quot;)&lt;/script&gt;&amp;&#39;q&#39;.cu' "$WORK/evil.html" ||
  fail "the hostile file name is not escaped in the file"
grep -q '<img\|<b>main\|<script>alert' "$WORK/evil.html" && fail "hostile markup reached the page unescaped"
[ "$(grep -c '<script' "$WORK/evil.html")" -eq 1 ] || fail "hostile telemetry added a script element"

# 3. without sources: the runtime-only findings, and a caption that says so
run report --html "$WORK/runtime.html" "$REPORT/trainer.json"
expect_rc 0 "report --html without sources"
grep -q 'No sources were given' "$WORK/runtime.html" || fail "no caption for the runtime-only view"

# 3b. NVML: each run's GM140 verdict beside its samples, in the rule's words
run report --html "$WORK/bound.html" "$ROOT"/tests/join/gm140/*.json
expect_rc 0 "report --html on the GM140 runs"
for v in capacity-bound:1 bandwidth-bound:1 neither:2 no-verdict:1; do
  n=$(grep -c "<p class=\"nvml-verdict\" data-verdict=\"${v%:*}\">" "$WORK/bound.html" || true)
  [ "$n" -eq "${v#*:}" ] || fail "NVML verdicts: $n ${v%:*}, expected ${v#*:}"
done
grep -q '<h3 class="nvml-device not-judged">Device 1 (pid 5103)' "$WORK/bound.html" ||
  fail "the device the run did not use is not marked"
grep -q 'no verdict</span> 6 NVML samples of device 0, fewer than the 10 a verdict needs' "$WORK/bound.html" ||
  fail "too few samples: no reason given"
[ "$(grep -c 'class="full-line"' "$WORK/bound.html")" -eq 6 ] || fail "a 90% line on each memory chart"

# 4. misuse and errors
run --html "$WORK/x.html" "$REPORT/trainer.json"
expect_rc 2 "--html without report"
expect_err "^gmemlint: error: --html is an option of 'gmemlint report'" "--html without report message"
run report --html "$WORK/x.html"
expect_rc 2 "--html without telemetry"
expect_err "no telemetry files" "--html without telemetry message"
"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1])); d["process"]["timeline"][3] = [1.5, "many"]
json.dump(d, open(sys.argv[2], "w"))' "$REPORT/trainer.json" "$WORK/bad.json"
run report --html "$WORK/x.html" "$WORK/bad.json"
expect_rc 2 "malformed timeline"
expect_err "^gmemlint: error: $WORK/bad.json: process.timeline\[3\]\[1\]: expected a non-negative integer, found a string$" "malformed timeline names the field"
[ ! -e "$WORK/x.html" ] || fail "a failed report left a page"
run report --html "$WORK/no/such/dir/x.html" "$REPORT/trainer.json"
expect_rc 2 "unwritable page"
expect_err "^gmemlint: error: $WORK/no/such/dir/x.html: cannot write" "unwritable page message"
run report -o "$WORK/r.txt" "$REPORT/trainer.json" "$REPORT/trainer.cu"
expect_rc 2 "a source without --html or --trace"
expect_err "^gmemlint: error: report: $REPORT/trainer.cu is not telemetry \(\*\.json, or --telemetry FILE\); sources are read for --html and --trace only$" "a source without --html or --trace: the message names it"
[ ! -e "$WORK/r.txt" ] || fail "a source without --html or --trace: no text view written"

# 5. the rendered page, in headless Chromium
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  echo "SKIP: the checks in Chromium (chromium is not installed; bootstrap.sh installs it)"
  finish
  exit 0
fi
# its crash reports go under XDG_CONFIG_HOME whatever the profile: $WORK, not the user's home
chrome() { # chrome OUTPUT-FLAG FILE: headless, isolated profile, bounded time
  XDG_CONFIG_HOME="$WORK/chrome-config" timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$WORK/chrome-profile" --window-size=1280,5600 "$1" "file://$2" 2>>"$WORK/chrome.log"
}
for page in full evil runtime; do
  chrome --dump-dom "$WORK/$page.html" >"$WORK/$page.dom" || fail "chromium could not load $page.html: $(tail -3 "$WORK/chrome.log")"
done
chrome --screenshot="$WORK/full.png" "$WORK/full.html" >/dev/null || fail "chromium could not take a screenshot"

"$PY" - "$WORK/full.dom" "$REPORT/trainer.json" "$WORK/join.json" <<'PY' || fail "the rendered page (with the source)"
import json, sys
import dom
root, tel, join = dom.parse(sys.argv[1]), json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
proc = tel["process"]
def one(**kw):
    n = root.find(**kw)
    assert n is not None, f"no element {kw}"
    return n

# the timeline: one line for the one run, one marker per OOM event, the view at the peak
tl = one(tag="svg", id="timeline-chart")
assert len(tl.find_all(tag="g", cls="run-line")) == 1
assert len(tl.find_all(tag="g", cls="oom-marker")) == len(proc["oom_events"]) == 1
assert "fragmentation" in tl.find(tag="g", cls="oom-marker").text()
assert len(tl.find_all(tag="g", cls="peak-view-marker")) == 1
# the steps: one stacked series per top site with step data (every such site here: 5), and one
# marker per gmem_step()
st = one(tag="svg", id="steps-chart")
stepped = [s for s in tel["sites"] if s.get("step_live_bytes") and any(s["step_live_bytes"])]
series = st.find_all(tag="g", cls="series")
assert len(series) == len(stepped) == 5, (len(series), len(stepped))
assert len(st.find_all(cls="step-marker")) == proc["steps"] == 12
assert all(len(g.find_all(tag="rect")) == 12 for g in series), "a bar per step per series"
# the legend names the top sites
legend = " ".join(li.text() for li in root.find_all(tag="ul", cls="legend")[0].find_all(tag="li"))
assert "trainer.cu:103 cudaMalloc" in legend and "trainer.cu:68 cudaMalloc" in legend, legend

# the site table: one row per alloc and copy site, with the join's verdicts in its row
rows = one(tag="table", id="sites").find_all(tag="tr", cls="site")
want_rows = [s for s in tel["sites"] if s["kind"] != "free"]
assert len(rows) == len(want_rows) == 8, (len(rows), len(want_rows))
by_line = {}
for r in rows:
    where = r.find(tag="td", cls="where").text().strip()
    by_line[int(where.rsplit(":", 1)[1])] = r
for f in join["findings"]:
    if f["line"] == 32:  # never ran: no runtime site to show it in
        continue
    if f["line"] == 0:  # the run's own finding (GM140 bandwidth-bound, at the telemetry file)
        assert f["rule"] == "GM140" and f["file"] == "trainer.json", f
        continue
    chips = [c.text() for c in by_line[f["line"]].find_all(tag="span", cls="verdict")]
    assert f"{f['rule']} {f['verdict']}" in chips, (f, chips)
cells = {k: by_line[103].find_all(tag="td")[i].text().strip() for i, k in ((3, "calls"), (4, "peak"), (5, "exit"))}
assert cells == {"calls": "12", "peak": "72.0 MiB", "exit": "48.0 MiB"}, cells
# the findings table: every finding of the join, in order, with its verdict
frows = one(tag="table", id="findings").find_all(tag="tr", cls="finding")
got = [(r.find_all(tag="td")[1].text().split()[0], r.find(tag="span", cls="verdict").text()) for r in frows]
want = [(f["rule"], f"{f['rule']} {f['verdict']}") for f in join["findings"]]
assert got == want, (got, want)
# (the malloc leak at line 42 is GM004's, and the leaks still held where main returns GM005's, both
# off by default: not among them)
# the runtime-only ones: GM101, GM102, and GM140 (the stand-in NVML's 50% SM, 80% memory
# bandwidth read as bandwidth-bound)
assert len(root.find_all(tag="tr", cls="static")) == 7 and len(root.find_all(tag="tr", cls="runtime")) == 3

# out of memory, unified memory, the address space, NVML
assert len(one(tag="table", id="ooms").find_all(tag="tr", cls="oom")) == 1
um = one(tag="svg", id="um-chart")
assert len(um.find_all(tag="g", cls="um-row")) == 1 and "trainer.cu:91" in um.text()
peak = one(id="space-peak-0")
blocks = peak.find_all(tag="rect", cls="block")
assert sum(int(b.attrs["data-blocks"]) for b in blocks) == len(proc["address_space_at_peak"]["blocks"])
assert "no gaps" in peak.text()
oom = one(id="space-oom-0")
assert len(oom.find_all(tag="rect", cls="largest-gap")) == 1
assert "largest gap 1.0 MiB" in oom.text() and "496 gaps" in oom.text(), oom.text()[:300]
assert len(root.find_all(tag="svg", cls="nvml-chart")) == 3
# the run's GM140 verdict beside the samples: the finding's own evidence
nv = root.find_all(tag="p", cls="nvml-verdict")
gm140 = [f for f in join["findings"] if f["rule"] == "GM140"]
assert len(nv) == 1 and nv[0].attrs["data-verdict"] == "bandwidth-bound" and len(gm140) == 1, nv
assert " ".join(nv[0].text().split()) == "GM140 " + gm140[0]["evidence"].replace(": ", " ", 1), nv[0].text()
# the only script is the page's own sorter
scripts = root.find_all(tag="script")
assert [s.attrs.get("id") for s in scripts] == ["gm-sort"], [s.attrs for s in scripts]
PY

"$PY" - "$WORK/evil.dom" <<'PY' || fail "hostile telemetry in the rendered page"
import sys
import dom
root = dom.parse(sys.argv[1])
evil = "x<script>alert(\"pwn\")</script>&'q'.cu"
assert [s.attrs.get("id") for s in root.find_all(tag="script")] == ["gm-sort"], "an injected script"
assert not root.find_all(tag="img") and not root.find_all(tag="b"), "injected markup"
wheres = [td.text().strip() for td in root.find(tag="table", id="sites").find_all(tag="td", cls="where")]
assert evil + ":103" in wheres, wheres
assert evil in root.find(tag="table", id="ooms").text()
assert "/bin/<img src=x onerror=alert(1)>" in root.find(id="summary").text()
assert "</style><script>alert(2)</script>" in root.find(id="summary").text()
PY

"$PY" - "$WORK/runtime.dom" <<'PY' || fail "the rendered page without sources"
import sys
import dom
root = dom.parse(sys.argv[1])
rules = [r.find_all(tag="td")[1].text().split()[0] for r in root.find(tag="table", id="findings").find_all(tag="tr")[1:]]
# without the source's GM001 on it, the workspace that leaked is GM101's, without its GM021 the
# row-by-row uploads are GM121's, and without its GM030 the managed table the kernel faulted over
# is GM130's
assert rules == ["GM101", "GM102", "GM103", "GM121", "GM130", "GM140"], rules
assert len(root.find(tag="table", id="sites").find_all(tag="tr", cls="site")) == 8
PY

"$PY" - "$WORK/full.png" <<'PY' || fail "the screenshot"
import os, sys
import dom
size = os.path.getsize(sys.argv[1])
assert size > 50000, f"only {size} bytes"
w, h, rows, bpp = dom.read_png(sys.argv[1])
assert (w, h) == (1280, 5600), (w, h)
colours = set()
for y in range(0, h, 7):
    r = rows[y]
    colours.update(r[x:x + 3] for x in range(0, w * bpp, 5 * bpp))
# a white page with text has a few dozen shades; charts in eight site colours have hundreds
assert len(colours) > 200, f"{len(colours)} colours"
# the chart colours themselves (the first two series and the OOM marker's red) are there
for want in (bytes.fromhex("f28e2b"), bytes.fromhex("59a14f"), bytes.fromhex("d62728")):
    assert want in colours, want.hex()
PY
finish
