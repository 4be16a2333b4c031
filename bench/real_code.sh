#!/usr/bin/env bash
# gmemlint over a directory of real CUDA sources (a benchmark suite, the CUDA samples, ...):
# files whose parse had errors (and the most frequent first errors), exit statuses other than
# 0/1, findings per rule, analyses cut short, and the wall time.
#
# Usage: bench/real_code.sh [--filter=REGEX] [--every=N] [--jobs=N] [--timeout=S] [--keep=DIR]
#                           DIR [gmemlint-binary] [-- extra parser flags]
#   DIR            every *.cu under it (translation units only: headers come in through them)
#   binary         default: build/gmemlint of this checkout
#   --filter=REGEX only the files whose path (relative to DIR) matches the extended regular
#                  expression, e.g. '^src/[^/]*-cuda/' for HeCBench's CUDA programs
#   --every=N      a deterministic sample: of the directories that hold .cu files (sorted),
#                  take the 1st, the N+1th, ...; every file in a taken directory is linted
#   --jobs=N       files linted at once (default: cores); each file is one gmemlint process
#                  (-j 1), so that a crash or a hang loses that file only
#   --timeout=S    seconds one file may take (default 300); a file cut off counts as exit 124
#   --keep=DIR     keep each file's JSON, stderr and exit status in DIR (default: a temporary
#                  directory, removed at the end)
# Every rule is enabled (--enable=all), the result cache is off (--no-cache). Each file is
# linted from DIR (paths in the output are relative to it), with the extra flags after --.
# The third-party sources are only read; nothing is written under DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
every=1
filter=
jobs=$(nproc)
timeout_s=300
keep=
while [ $# -gt 0 ]; do
  case $1 in
  --filter=*) filter=${1#--filter=} ;;
  --every=*) every=${1#--every=} ;;
  --jobs=*) jobs=${1#--jobs=} ;;
  --timeout=*) timeout_s=${1#--timeout=} ;;
  --keep=*) keep=${1#--keep=} ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  -*)
    echo "real_code.sh: unknown option $1" >&2
    exit 2
    ;;
  *) break ;;
  esac
  shift
done
[ $# -ge 1 ] || {
  echo "usage: bench/real_code.sh [--filter=REGEX] [--every=N] [--jobs=N] [--timeout=S] [--keep=DIR] DIR [gmemlint] [-- flags]" >&2
  exit 2
}
dir=$(cd "$1" && pwd)
shift
gmemlint="$here/build/gmemlint"
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  gmemlint=$1
  shift
fi
gmemlint=$(realpath "$gmemlint")
[ -x "$gmemlint" ] || {
  echo "real_code.sh: $gmemlint is not executable" >&2
  exit 2
}
extra=()
if [ $# -gt 0 ] && [ "$1" = "--" ]; then
  shift
  extra=("$@")
fi
case $every in '' | *[!0-9]* | 0)
  echo "real_code.sh: --every wants a positive integer" >&2
  exit 2
  ;;
esac

if [ -n "$keep" ]; then
  mkdir -p "$keep"
  work=$(cd "$keep" && pwd)
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/out"

# The file list: sorted in the C locale, sampled by directory.
export LC_ALL=C
(cd "$dir" && find . -type f -name '*.cu' -print | sed 's|^\./||' | sort |
  { grep -E -e "${filter:-.}" || true; }) >"$work/all.txt"
awk -F/ -v every="$every" '{
    d = $0; sub(/\/?[^\/]*$/, "", d)
    if (!(d in seen)) { seen[d] = n++ }
    if (seen[d] % every == 0) print
  }' "$work/all.txt" >"$work/files.txt"
nall=$(wc -l <"$work/all.txt")
nfiles=$(wc -l <"$work/files.txt")

# One file: its JSON, its stderr, its exit status and its wall time, under out/<index>.
cat >"$work/one.sh" <<'EOF'
#!/usr/bin/env bash
# one.sh WORK GMEMLINT TIMEOUT INDEX FILE (the extra flags are in WORK/extra, NUL-separated)
work=$1 gmemlint=$2 timeout_s=$3 i=$4 f=$5
mapfile -d '' extra <"$work/extra"
t0=$(date +%s.%N)
rc=0
timeout -k 10 "$timeout_s" "$gmemlint" --format=json --no-cache --enable=all -j 1 --no-progress \
  --color=never "$f" -- "${extra[@]}" >"$work/out/$i.json" 2>"$work/out/$i.err" || rc=$?
t1=$(date +%s.%N)
printf '%s\t%s\t%s\n' "$rc" "$(echo "$t1 - $t0" | bc)" "$f" >"$work/out/$i.rc"
EOF
chmod +x "$work/one.sh"
: >"$work/extra"
[ ${#extra[@]} -eq 0 ] || printf '%s\0' "${extra[@]}" >"$work/extra"

cmd=("$gmemlint" --format=json --no-cache --enable=all -j 1 --no-progress --color=never FILE --)
[ ${#extra[@]} -eq 0 ] || cmd+=("${extra[@]}")
{
  echo "gmemlint real-code run"
  echo "  directory: $dir"
  echo "  binary:    $gmemlint ($("$gmemlint" --version 2>&1 | head -1))"
  echo "  files:     $nfiles of $nall *.cu${filter:+ matching $filter}$([ "$every" -gt 1 ] && echo " (one directory in $every, sorted: the 1st, the $((every + 1))th, ...)")"
  echo "  per file:  (cd $dir && timeout ${timeout_s} ${cmd[*]})"
  echo "  in parallel: $jobs files at once (xargs -P), $(nproc) cores"
} >"$work/header.txt"
cat "$work/header.txt"

t0=$(date +%s.%N)
cd "$dir"
awk '{ printf "%d\n%s\n", NR, $0 }' "$work/files.txt" | tr '\n' '\0' |
  xargs -0 -P "$jobs" -n 2 "$work/one.sh" "$work" "$gmemlint" "$timeout_s" 2>>"$work/shell.log"
t1=$(date +%s.%N)
wall=$(echo "$t1 - $t0" | bc)
echo "$wall" >"$work/wall.txt"

python3 - "$work" "$nfiles" "$wall" <<'EOF'
import collections, glob, json, os, re, sys
work, nfiles, wall = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
files = open(os.path.join(work, "files.txt")).read().splitlines()
parse_err = 0           # files with at least one clang error
unanalysable = 0        # ... of which no function could be analysed (exit 2)
first_errors = collections.Counter()
codes = collections.Counter()
odd = []                # (file, exit status) other than 0/1
rules = collections.Counter()
files_with = collections.Counter()
cut_short = 0
bad_json = 0
times = []
note = re.compile(r"^(?:.*?:\d+:\d+: |.*?: )note: clang: (.*)$")
for i, f in enumerate(files, 1):
    base = os.path.join(work, "out", str(i))
    try:
        rc, secs, _ = open(base + ".rc").read().rstrip("\n").split("\t", 2)
        rc, secs = int(rc), float(secs)
    except (OSError, ValueError):
        rc, secs = -1, 0.0
    times.append((secs, f))
    codes[rc] += 1
    if rc not in (0, 1):
        odd.append((f, rc))
    try:
        err = open(base + ".err", errors="replace").read().splitlines()
    except OSError:
        err = []
    first = None
    for line in err:
        m = note.match(line)
        if m:
            first = m.group(1)
            break
    if first is not None or any("parse error(s)" in l for l in err):
        parse_err += 1
        first_errors[first or "(no clang message)"] += 1
        if any("no function could be analysed" in l for l in err):
            unanalysable += 1
    try:
        doc = json.load(open(base + ".json"))
    except (OSError, ValueError):
        doc = None
        if rc in (0, 1):
            bad_json += 1
    if isinstance(doc, dict):
        seen = set()
        findings = doc.get("findings")
        for fd in findings if isinstance(findings, list) else []:
            r = fd.get("rule", "?") if isinstance(fd, dict) else "?"
            rules[r] += 1
            seen.add(r)
        for r in seen:
            files_with[r] += 1
        notices = doc.get("notices")
        for n in notices if isinstance(notices, list) else []:
            if isinstance(n, dict) and n.get("kind") == "cut-short":
                cut_short += 1

def sig(rc):
    if rc == 124: return "124 (timeout)"
    if rc == 137: return "137 (killed after timeout)"
    if rc > 128: return "%d (signal %d)" % (rc, rc - 128)
    if rc == -1: return "no status recorded"
    return str(rc)

print()
print("%-40s %8s" % ("files linted", nfiles))
print("%-40s %8d" % ("files with parse errors", parse_err))
print("%-40s %8d" % ("  of which nothing analysable (exit 2)", unanalysable))
print("%-40s %8d" % ("files with unreadable JSON (exit 0/1)", bad_json))
print("%-40s %8d" % ("analyses cut short (notices)", cut_short))
print("%-40s %8.1f s" % ("wall time", wall))
print()
print("exit status          files")
for rc in sorted(codes):
    print("  %-18s %6d" % (sig(rc), codes[rc]))
print()
print("findings per rule (all rules enabled)   findings   files")
for r in sorted(rules):
    print("  %-36s %9d %7d" % (r, rules[r], files_with[r]))
print("  %-36s %9d" % ("total", sum(rules.values())))
print()
print("first parse error of each file, top 10   files")
for msg, n in sorted(first_errors.items(), key=lambda kv: (-kv[1], kv[0]))[:10]:
    print("  %6d  %s" % (n, msg[:110]))
odd = [(f, rc) for f, rc in odd if rc != 2]
print()
print("exit statuses other than 0/1/2 (crash, signal, timeout): %d" % len(odd))
for f, rc in sorted(odd):
    print("  %-18s %s" % (sig(rc), f))
print()
print("slowest files")
for secs, f in sorted(times, key=lambda t: (-t[0], t[1]))[:5]:
    print("  %7.1f s  %s" % (secs, f))
EOF
