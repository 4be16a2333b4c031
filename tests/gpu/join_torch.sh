#!/usr/bin/env bash
# After tests/gpu/run.sh: judges the PyTorch view recorded on the GPU (the companions
# DIR/tv_NAME-PID.torch.json that gmemrun wrote for tests/gpu/torch_NAME.py, with their snapshot
# files beside them) with gmemlint here, from the companion alone (no sources: runtime-only
# rules), and checks the GM15x findings, per script, against tests/gpu/torch_expected.txt.
# Usage: bash tests/gpu/join_torch.sh DIR [gmemlint]
# Exit status: 0 all verdicts as expected; 1 a verdict differs, a companion is missing or
# gmemlint could not read one; 2 usage.
set -uo pipefail
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "join_torch: usage: join_torch.sh DIR [gmemlint] (DIR: the GPU run's results)" >&2
  exit 2
fi
DIR=$(cd "$1" && pwd) || exit 2
cd "$(dirname "$0")/../.." || exit 2
GMEMLINT=${2:-build/gmemlint}
got=$(mktemp)
trap 'rm -f "$got" "$got.err"' EXIT
status=0
shopt -s nullglob
companions=("$DIR"/tv_*.torch.json)
[ ${#companions[@]} -gt 0 ] || { echo "FAIL: no tv_*.torch.json in $DIR"; exit 1; }
for companion in "${companions[@]}"; do
  base=$(basename "$companion" .torch.json) # tv_NAME-PID
  name=${base#tv_}
  name=${name%-*}
  echo "== $name ($(basename "$companion"))"
  "$GMEMLINT" --telemetry "$companion" 2>&1 | grep -E '\[GM|note:' | sed 's|^.*/tests/gpu/||'
  json=$("$GMEMLINT" --format=json --telemetry "$companion" 2>"$got.err")
  rc=$?
  if [ $rc -ge 2 ]; then
    echo "FAIL: gmemlint exited $rc on $(basename "$companion"): $(tail -3 "$got.err")"
    status=1
    continue
  fi
  # one line per GM15x finding: NAME RULE FILE:LINE, a tab, its message and evidence (the cause)
  echo "$json" | /usr/bin/python3 -c '
import json, os, re, sys
for f in json.load(sys.stdin)["findings"]:
    if f["rule"].startswith("GM15"):
        # a finding at the companion (no Python line known) names it without its pid
        where = re.sub(r"-[0-9]+\.torch\.json$", ".torch.json", os.path.basename(f["file"]))
        where += ":" + str(f["line"])
        text = (f["message"] + " " + f.get("evidence", "")).replace("\t", " ")
        print(sys.argv[1], f["rule"], where + "\t" + text)
' "$name" >>"$got" || { echo "FAIL: $name: gmemlint's JSON could not be read"; status=1; }
done
echo "== GM15x verdicts against tests/gpu/torch_expected.txt (- expected, + this run)"
/usr/bin/python3 - tests/gpu/torch_expected.txt "$got" tests/gpu <<'PY' || status=1
import collections, sys

expected_path, got_path, script_dir = sys.argv[1:]


def resolve(loc):
    """FILE:LINE, or FILE:@marker for the line of FILE holding '# @marker'."""
    path, _, line = loc.rpartition(":")
    if line.startswith("@"):
        with open(f"{script_dir}/{path}") as script:
            hits = [n for n, text in enumerate(script, 1) if f"# {line}" in text]
        if len(hits) != 1:
            sys.exit(f"join_torch: error: {expected_path}: {loc}: marker found {len(hits)} times")
        line = str(hits[0])
    return f"{path}:{line}"


expected, words, names = collections.Counter(), {}, set()
for raw in open(expected_path):
    fields = raw.split("#", 1)[0].split()
    if not fields:
        continue
    names.add(fields[0])
    if fields[1:] == ["-"]:
        continue  # a clean script: its companion must exist and hold no GM15x finding
    key = f"{fields[0]} {fields[1]} {resolve(fields[2])}"
    expected[key] += 1
    if len(fields) > 3:
        words[key] = fields[3:]  # words the message or evidence must hold (an OOM's cause)
got, texts = collections.Counter(), {}
for raw in open(got_path):
    key, _, text = raw.rstrip("\n").partition("\t")
    got[key] += 1
    texts[key] = text.lower()
ok = True
for key in sorted(set(expected) | set(got)):
    for _ in range(expected[key] - got[key]):
        print(f"-{key}")
        ok = False
    for _ in range(got[key] - expected[key]):
        print(f"+{key}")
        ok = False
    if got[key] and expected[key]:
        missing = [w for w in words.get(key, []) if w.lower() not in texts[key]]
        if missing:
            print(f"!{key}: the finding does not say {', '.join(missing)}: {texts[key][:200]}")
            ok = False
print("all torch verdicts as expected" if ok else "torch verdicts differ")
sys.exit(0 if ok else 1)
PY
for name in $(awk '!/^#/ && NF {print $1}' tests/gpu/torch_expected.txt | sort -u); do
  files=("$DIR"/tv_"$name"-*.torch.json)
  [ ${#files[@]} -gt 0 ] || { echo "FAIL: $name: no companion from the GPU run"; status=1; }
done
exit $status
