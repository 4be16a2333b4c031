# report --html places each finding in its site's row through indexes (sites by line, sites
# without a source line by module and offset, each site's findings chained once) rather than a
# scan of every site per finding. tests/join/runtime_only's telemetry, padded with 20,000 sites
# without a source line in modules that sort before and after its plugin's and 20,000 sites on
# its lines in other files, plus a second site at the plugin's address with another API placed
# after it (the first is the one a finding there names): its sites' rows, findings included,
# must be those of the page without the padding.
source "$(dirname "$0")/testlib.bash"
CASE="$ROOT/tests/join/runtime_only"

"$PY" - "$CASE/trainer.json" "$WORK/plain.json" "$WORK/padded.json" <<'PY' || fail "could not write the padded telemetry"
import json, sys
d = json.load(open(sys.argv[1]))
# two findings at one site (GM101 and GM106): its row lists both, in order
loader = next(s for s in d["sites"] if s["file"] and s["file"].endswith("loader.cu"))
loader["double_frees"] = 1
json.dump(d, open(sys.argv[2], "w"))
pad = []
for i in range(20000):
    pad.append({"file": None, "module": ("liba.so" if i % 2 else "libz.so"),
                "module_offset": hex(0x1000 + 16 * i), "line": 0, "api": "cudaMalloc",
                "kind": "alloc", "calls": 1, "peak_live_bytes": 0, "live_bytes": 0,
                "live_count": 0, "frees": {"cudaFree": 1}})
    pad.append({"file": f"/pad/p{i % 40}.cu", "line": [14, 20, 45, 77][i % 4],
                "api": "cudaMalloc", "kind": "alloc", "calls": 2, "peak_live_bytes": 0,
                "live_bytes": 0, "live_count": 0, "frees": {"cudaFree": 2}})
plugin = next(s for s in d["sites"] if s["file"] is None)
twin = dict(plugin, api="cudaMallocManaged", calls=5, peak_live_bytes=0, live_bytes=0,
            live_count=0, frees={"cudaFree": 5})
d["sites"] = pad[:20000] + d["sites"] + [twin] + pad[20000:]
json.dump(d, open(sys.argv[3], "w"))
PY
rows() { # the rows of the case's own sites
  "$PY" - "$1" <<'PY'
import re, sys
for row in re.findall(r'<tr class="site">.*?</tr>', open(sys.argv[1]).read(), re.S):
    if "/pad/" not in row and "liba.so" not in row and "libz.so" not in row:
        print(row)
PY
}
run report --html "$WORK/plain.html" "$WORK/plain.json"
expect_rc 0 "the page of the case"
run report --html "$WORK/padded.html" "$WORK/padded.json"
expect_rc 0 "the page of the padded case"
rows "$WORK/plain.html" >"$WORK/plain.rows"
rows "$WORK/padded.html" | grep -v 'cudaMallocManaged' >"$WORK/padded.rows"
[ "$(grep -c 'verdict v-' "$WORK/plain.rows")" -ge 6 ] || fail "the case's rows hold too few findings: $(cat "$WORK/plain.rows")"
grep -q 'libplugin.so+0x1a2b.*GM101 confirmed.*64.0 KiB still live at exit' "$WORK/plain.rows" ||
  fail "the plugin's finding is not in its row"
grep -q 'loader.cu:77.*GM101 confirmed.*GM106 confirmed' "$WORK/plain.rows" ||
  fail "the loader's row lacks one of its two findings: $(grep loader.cu "$WORK/plain.rows")"
diff -u "$WORK/plain.rows" "$WORK/padded.rows" >"$WORK/diff" ||
  fail "padding moved findings between rows: $(head -c 3000 "$WORK/diff")"
grep 'cudaMallocManaged' "$WORK/padded.html" | grep -q 'verdict v-' &&
  fail "a finding went to the second site at the plugin's address"
finish
