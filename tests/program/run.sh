# Whole-program analysis: a directory per case holds its sources with the expectations annotated
# in them (--verify). The case runs both ways: every file named on the command line, and every
# entry of a generated compile database (-p). A file `rules` in the case names the rules it runs
# (default: gmemlint's default set); a third argument `all` runs every rule instead.
#   bash tests/program/run.sh GMEMLINT CASE_DIR [all]
set -u
gm=$(realpath "$1")
case_dir=$(realpath "$2")
rules=()
[ -f "$case_dir/rules" ] && rules=("--only=$(tr -d ' \n' <"$case_dir/rules")")
[ "${3:-}" = all ] && rules=("--enable=all")
mapfile -t files < <(find "$case_dir" -maxdepth 1 \( -name '*.cu' -o -name '*.cpp' \) | sort)
[ ${#files[@]} -ge 2 ] || { echo "FAIL: $case_dir holds fewer than two sources" >&2; exit 1; }
status=0
if ! "$gm" --verify -j 2 --no-cache "${rules[@]}" "${files[@]}"; then
  echo "FAIL: files named: gmemlint --verify ${rules[*]} ${files[*]}" >&2
  status=1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  echo "["
  for i in "${!files[@]}"; do
    f=${files[$i]}
    sep=","
    [ "$i" -eq $((${#files[@]} - 1)) ] && sep=""
    printf '  {"directory": "%s", "arguments": ["/usr/local/cuda/bin/nvcc", "-I%s", "-c", "%s", "-o", "%s.o"], "file": "%s"}%s\n' \
      "$case_dir" "$case_dir" "$f" "$(basename "$f")" "$f" "$sep"
  done
  echo "]"
} >"$work/compile_commands.json"
if ! "$gm" --verify -j 2 --no-cache "${rules[@]}" -p "$work"; then
  echo "FAIL: compile database: gmemlint --verify ${rules[*]} -p $work" >&2
  status=1
fi
[ $status -eq 0 ] && echo "ok: $(basename "$case_dir"), ${#files[@]} files, both ways"
exit $status
