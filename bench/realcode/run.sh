#!/usr/bin/env bash
# gmemlint over public CUDA projects as their builds compile them: each project of
# repos.tsv is cloned from its snapshot, its compile database made the way its build makes it
# (CMake: configured, not built, with both Unix Makefiles and Ninja; Make: a dry run turned into
# compile_commands.json by make_db.py), and linted whole-program with
# `gmemlint -p DB --format=json --explain --no-cache -j2`. Per project and generator it counts the files
# in the database, the files analysed, the files with parse errors, and sorts each broken
# file's first error into classes (count.py).
#
# Usage: bench/realcode/run.sh [--reconfigure] [--recount] [--label=NAME] [--half=HALF] GMEMLINT [NAME...]
#        bench/realcode/run.sh --list [--half=HALF] [NAME...]
#   GMEMLINT       the gmemlint binary to measure
#   NAME...        projects of repos.tsv (default: all)
#   --half=HALF    only the projects of that half of the split (README.md): development (fixes are
#                  drawn from them) or measured (kept unread, to measure)
#   --list         print the names of the projects selected, one a line, and do nothing else
#   --label=NAME   results go to $REALCODE/out/NAME (default: the binary's commit, from
#                  `git describe` of the checkout it sits in, else "gmemlint")
#   --reconfigure  make the compile databases again (default: reuse them, so that two binaries
#                  are measured on the same databases)
#   --recount      lint nothing: count the outputs this label already has again (after a change
#                  to count.py's classes)
# Environment: REPOS (default repos.tsv beside this script) names the projects; REALCODE (default /work/realcode) holds src/ (clones), build/ (compile
# databases), out/ (results, logs); MIRROR (default /work/.mirror) holds the snapshots, one git
# directory per repository as owner+name/repo (bring one there with the `fetch` tool); CMAKE4
# (default $REALCODE/venv/bin/cmake) for projects that need a newer CMake than the system's.
# Nothing is built: configure steps and dry runs only. Nothing is written inside this checkout.
# Prints a table, writes $REALCODE/out/LABEL/results.tsv (counts) and errors.tsv (each broken
# file's class and first error), and exits 0 when the measurement ran (2: bad usage, or a row
# of REPOS without a valid half).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
realcode=${REALCODE:-/work/realcode}
mirror=${MIRROR:-/work/.mirror}
cmake4=${CMAKE4:-$realcode/venv/bin/cmake}
repos=${REPOS:-$here/repos.tsv}
extra_make_args=() # what a build kind adds to each dry run of make
reconfigure=0
recount=0
list=0
half=
label=
while [ $# -gt 0 ]; do
  case $1 in
  --reconfigure) reconfigure=1 ;;
  --recount) recount=1 ;;
  --label=*) label=${1#--label=} ;;
  --half=development | --half=measured) half=${1#--half=} ;;
  --half=*)
    echo "run.sh: error: --half takes development or measured, not '${1#--half=}'" >&2
    exit 2
    ;;
  --list) list=1 ;;
  -h | --help)
    sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  -*)
    echo "run.sh: error: unknown option $1" >&2
    exit 2
    ;;
  *) break ;;
  esac
  shift
done
[ -r "$repos" ] || {
  echo "run.sh: error: cannot read the project list $repos" >&2
  exit 2
}
# Every row says which half it belongs to: a row without one would silently join neither.
bad_row=$(awk -F'\t' '!/^(#|$)/ && $8 != "development" && $8 != "measured" { print NR ": " $1; exit }' "$repos")
[ -z "$bad_row" ] || {
  echo "run.sh: error: $repos:$bad_row: the column half must be development or measured" >&2
  exit 2
}
[ $# -ge 1 ] || [ $list = 1 ] || {
  echo "usage: bench/realcode/run.sh [--reconfigure] [--recount] [--label=NAME] [--half=HALF] GMEMLINT [NAME...]" >&2
  exit 2
}
if [ $list = 0 ]; then
  gmemlint=$(realpath "$1")
  shift
  [ -x "$gmemlint" ] || {
    echo "run.sh: error: $gmemlint is not executable" >&2
    exit 2
  }
fi
want=("$@")
for name in "${want[@]}"; do
  cut -f1 "$repos" | grep -qxF -- "$name" || {
    echo "run.sh: error: $name is not a project of $repos" >&2
    exit 2
  }
done
# The rows of REPOS chosen by the names and the half, comments left out.
selected_rows() {
  local name rest row_half
  while IFS=$'\t' read -r name rest; do
    case $name in '' | '#'*) continue ;; esac
    if [ ${#want[@]} -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qxF -- "$name"; then continue; fi
    row_half=${rest##*$'\t'}
    [ -n "$half" ] && [ "$row_half" != "$half" ] && continue
    printf '%s\t%s\n' "$name" "$rest"
  done <"$repos"
}
if [ $list = 1 ]; then
  selected_rows | cut -f1
  exit 0
fi
if [ -z "$label" ]; then
  label=$(git -C "$(dirname "$gmemlint")" describe --always --dirty 2>/dev/null || echo gmemlint)
fi
out=$realcode/out/$label
mkdir -p "$realcode/src" "$realcode/build" "$out/logs"

note() { echo "run.sh: $*" >&2; }

# Check out COMMIT of the git directory MIRROR_GIT into DIR. Snapshots lack files of 4 MiB and
# more (data, images, prebuilt libraries): those are left out, everything else is checked out.
checkout() {
  local from=$1 dir=$2 commit=$3
  if [ ! -d "$dir/.git" ]; then
    git clone -q --no-checkout "$from" "$dir" || return 1
  fi
  git -C "$dir" cat-file -e "$commit^{commit}" 2>/dev/null || {
    note "$dir: commit $commit is not in the snapshot $from"
    return 1
  }
  [ "$(git -C "$dir" rev-parse HEAD 2>/dev/null)" = "$commit" ] && [ -f "$dir/.realcode-done" ] &&
    return 0
  git -C "$dir" read-tree "$commit" && git -C "$dir" update-ref --no-deref HEAD "$commit" || return 1
  git -C "$dir" ls-files -s | awk -F'\t' '{ split($1, m, " "); print m[2] "\t" $2 }' >"$dir/.git/realcode-index"
  cut -f1 "$dir/.git/realcode-index" | git -C "$dir" cat-file --batch-check='%(objectname) %(objecttype)' |
    paste - "$dir/.git/realcode-index" | awk -F'\t' '$1 !~ / missing$/ { print $3 }' |
    git -C "$dir" checkout-index -f --stdin 2>/dev/null
  touch "$dir/.realcode-done"
}

mirror_of() { # owner/name -> its git directory in the mirror
  local d=$mirror/${1/\//+}/repo
  [ -d "$d/.git" ] && d=$d/.git
  [ -d "$d" ] && echo "$d"
}

# needs: comma-separated apt:PKG, cmake>=3.26 (CMAKE4), sub:PATH=owner/name@commit (a submodule
# from its snapshot), fc:NAME=owner/name@commit (a FetchContent dependency given to CMake as
# FETCHCONTENT_SOURCE_DIR_NAME, so that configure fetches nothing), fcdir:NAME=DIR (the same
# with a directory of this machine, e.g. the toolkit's own copy of a library), run:CMD (a command
# run in the checkout, without commas: a header the build generates before compiling)
prepare_needs() {
  local name=$1 needs=$2 item
  fc_args=()
  cmake_bin=cmake
  IFS=',' read -ra items <<<"$needs"
  for item in "${items[@]}"; do
    case $item in
    '' | -) ;;
    apt:*)
      dpkg -s "${item#apt:}" >/dev/null 2>&1 || {
        note "$name: needs the Debian package ${item#apt:} (apt-get install ${item#apt:})"
        return 1
      }
      ;;
    cmake\>=*)
      [ -x "$cmake4" ] || {
        note "$name: needs CMake ${item#cmake}: python3 -m venv $realcode/venv && $realcode/venv/bin/pip install cmake"
        return 1
      }
      cmake_bin=$cmake4
      ;;
    run:*)
      # a file the build would generate before compiling (a protoc header every source
      # includes), made in the checkout since no build runs here
      (cd "$realcode/src/$name" && bash -c "${item#run:}") >"$out/logs/run-$name.log" 2>&1 || {
        note "$name: '${item#run:}' failed (see $out/logs/run-$name.log)"
        return 1
      }
      ;;
    fcdir:*)
      local spec=${item#fcdir:}
      fc_args+=("-DFETCHCONTENT_SOURCE_DIR_${spec%%=*}=${spec#*=}")
      ;;
    sub:* | fc:*)
      local spec=${item#*:}
      local path=${spec%%=*} rest=${spec#*=}
      local repo=${rest%@*} commit=${rest#*@}
      local git_dir
      git_dir=$(mirror_of "$repo") || {
        note "$name: no snapshot of $repo in $mirror (fetch github:$repo)"
        return 1
      }
      if [ "${item%%:*}" = sub ]; then
        checkout "$git_dir" "$realcode/src/$name/$path" "$commit" || return 1
      else
        checkout "$git_dir" "$realcode/deps/$name/$path" "$commit" || return 1
        fc_args+=("-DFETCHCONTENT_SOURCE_DIR_${path^^}=$realcode/deps/$name/$path")
        fc_args+=("-DFETCHCONTENT_FULLY_DISCONNECTED=ON")
      fi
      ;;
    *)
      note "$name: unknown need '$item' in repos.tsv"
      return 1
      ;;
    esac
  done
}

configure_cmake() { # name recipe -> build/NAME/{make,ninja}/compile_commands.json
  local name=$1 recipe=$2 gen dir
  local -a args=()
  [ "$recipe" = - ] || read -ra args <<<"$recipe" # -: no arguments of its own
  for gen in make ninja; do
    dir=$realcode/build/$name/$gen
    [ $reconfigure = 0 ] && [ -f "$dir/compile_commands.json" ] && continue
    rm -rf "$dir"
    local G="Unix Makefiles"
    [ $gen = ninja ] && G=Ninja
    # run from the source, so that a recipe's own -S DIR (the last -S wins) names a
    # subdirectory holding the CMakeLists.txt of a project that has none at its top
    (cd "$realcode/src/$name" && "$cmake_bin" -S . -B "$dir" -G "$G" \
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
      -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -DCMAKE_CUDA_ARCHITECTURES=90 \
      "${fc_args[@]}" "${args[@]}") >"$out/logs/configure-$name-$gen.log" 2>&1 ||
      note "$name ($gen): configure failed (see $out/logs/configure-$name-$gen.log); using what it wrote"
    [ -f "$dir/compile_commands.json" ] || {
      note "$name ($gen): no compile_commands.json"
      return 1
    }
  done
}

# recipe: DIR-GLOB... [-- MAKE-ARGS...]: one `make -n -B -w -k` per directory (relative to the
# source), whose dry runs make_db.py turns into one database (-k: a sub-make that fails, for a
# library this machine lacks, loses its own commands only)
dryrun_make() {
  local name=$1 recipe=$2 src=$realcode/src/$name dir=$realcode/build/$name/dryrun
  [ $reconfigure = 0 ] && [ -f "$dir/compile_commands.json" ] && return 0
  local -a words dirs=() make_args=()
  read -ra words <<<"$recipe"
  local w seen_dash=0
  for w in "${words[@]}"; do
    if [ "$w" = -- ]; then seen_dash=1; elif [ $seen_dash = 1 ]; then make_args+=("$w"); else dirs+=("$w"); fi
  done
  mkdir -p "$dir"
  (
    cd "$src" || exit 1
    for g in "${dirs[@]}"; do
      for d in $g; do
        [ -f "$d/Makefile" ] || [ -f "$d/makefile" ] || [ -f "$d/GNUmakefile" ] || continue
        make -n -B -w -k -C "$d" "${make_args[@]}" "${extra_make_args[@]}" 2>&1
      done
    done
  ) >"$out/logs/dryrun-$name.log"
  python3 "$here/make_db.py" "$src" <"$out/logs/dryrun-$name.log" >"$dir/compile_commands.json"
}

configure_autotools() { # recipe: configure arguments; then a dry run of make at the top
  local name=$1 recipe=$2 src=$realcode/src/$name
  [ $reconfigure = 0 ] && [ -f "$realcode/build/$name/dryrun/compile_commands.json" ] && return 0
  local -a args
  read -ra args <<<"$recipe"
  (cd "$src" && { [ -x configure ] || autoreconf -fi; } && ./configure "${args[@]}") \
    >"$out/logs/configure-$name.log" 2>&1 || {
    note "$name: configure failed (see $out/logs/configure-$name.log)"
    return 1
  }
  # make -B remakes every Makefile first, which in an Automake tree reruns automake and
  # configure once per directory even in a dry run: the Makefiles configure just wrote are
  # taken as current (-o, which make does not pass down, so also in every $(MAKE)).
  extra_make_args=(-o Makefile "MAKE=make -o Makefile")
  dryrun_make "$name" "."
}

count() { # name generator db-dir
  local base=$out/$1.$2
  : >"$base.errors"
  python3 "$here/count.py" "$3/compile_commands.json" "$base.json" "$base.err" "$1" "$2" \
    "$base.errors" >"$base.row"
}

lint() { # name generator db-dir
  local name=$1 gen=$2 db=$3 base=$out/$1.$2
  if [ $recount = 1 ]; then
    [ -f "$base.json" ] && count "$name" "$gen" "$db"
    return
  fi
  local start=$SECONDS
  (cd "$db" && "$gmemlint" -p "$db" --format=json --explain --no-cache -j2 >"$base.json" 2>"$base.err")
  echo $? >"$base.rc"
  count "$name" "$gen" "$db"
  note "$name ($gen): linted in $((SECONDS - start)) s, exit $(cat "$base.rc")"
}

while IFS=$'\t' read -r name repo commit kind build recipe needs row_half; do
  if [ $recount = 1 ]; then
    case $build in
    cmake) for gen in make ninja; do lint "$name" "$gen" "$realcode/build/$name/$gen"; done ;;
    *) lint "$name" make-n "$realcode/build/$name/dryrun" ;;
    esac
    continue
  fi
  git_dir=$(mirror_of "$repo") || {
    note "$name: no snapshot of $repo in $mirror (fetch github:$repo); skipped"
    continue
  }
  checkout "$git_dir" "$realcode/src/$name" "$commit" || {
    note "$name: skipped"
    continue
  }
  prepare_needs "$name" "$needs" || {
    note "$name: skipped"
    continue
  }
  case $build in
  cmake)
    configure_cmake "$name" "$recipe" || continue
    for gen in make ninja; do lint "$name" "$gen" "$realcode/build/$name/$gen"; done
    ;;
  make)
    dryrun_make "$name" "$recipe" || continue
    lint "$name" make-n "$realcode/build/$name/dryrun"
    ;;
  autotools)
    configure_autotools "$name" "$recipe" || continue
    lint "$name" make-n "$realcode/build/$name/dryrun"
    ;;
  *) note "$name: unknown build '$build'" ;;
  esac
done < <(selected_rows)

# every project measured with this label so far, this run's and earlier ones'
python3 "$here/count.py" --header >"$out/results.tsv"
cat "$out"/*.row >>"$out/results.tsv" 2>/dev/null
cat "$out"/*.errors >"$out/errors.tsv" 2>/dev/null
echo "gmemlint: $gmemlint ($label)"
column -t -s $'\t' "$out/results.tsv"
awk -F'\t' 'NR > 1 { f += $3; m += $4; a += $5; p += $6 } END { printf "total: %d files (%d missing), %d analysed, %d with parse errors\n", f, m, a, p }' "$out/results.tsv"
echo
echo "most frequent first errors (class: count message):"
cut -f3,6 "$out/errors.tsv" | sed -E "s/'[^']*'/'…'/g" | sort | uniq -c | sort -rn | head -20
echo
echo "most frequent first errors, exactly:"
cut -f3,6 "$out/errors.tsv" | sort | uniq -c | sort -rn | head -30
echo "results: $out/results.tsv; each broken file's first error: $out/errors.tsv"
exit 0
