# Pre-commit: the repository's .pre-commit-hooks.yaml run by the real pre-commit tool (the hook
# repository is a scratch clone holding the working tree's file, so no network is needed), and
# the plain git hook of `gmemlint --install-hook`. In both a commit with a leak is refused with
# the finding shown, and a clean commit goes through.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
export XDG_CACHE_HOME="$WORK/cache" GIT_CONFIG_NOSYSTEM=1 HOME="$WORK/home"
mkdir -p home bin
git config --global user.name test
git config --global user.email test@example.com
git config --global init.defaultBranch main
ln -s "$GMEMLINT" bin/gmemlint # language: system runs the gmemlint on PATH
export PATH="$WORK/bin:$PATH"

new_repo() {
  rm -rf "$1"
  git init -q "$1"
}
# run_in DIR ARGS...: run, in DIR
run_in() {
  cd "$1" && shift && run "$@"
  cd "$WORK"
}
# commit DIR MESSAGE: commits what is staged; output in $WORK/commit.out, status in $crc
commit() {
  crc=0
  git -C "$1" commit -q -m "$2" >"$WORK/commit.out" 2>&1 || crc=$?
}

# ---- the pre-commit framework ----
if command -v pre-commit >/dev/null; then
  export PRE_COMMIT_HOME="$WORK/pre-commit-home"
  new_repo hooks
  cp "$ROOT/.pre-commit-hooks.yaml" hooks/
  mkdir hooks/tools
  cp "$ROOT/tools/pre-commit-build.sh" hooks/tools/
  git -C hooks add -A
  git -C hooks commit -q -m hooks
  rev=$(git -C hooks rev-parse HEAD)

  new_repo app
  cat >app/.pre-commit-config.yaml <<EOF
repos:
  - repo: $WORK/hooks
    rev: $rev
    hooks:
      - id: gmemlint
EOF
  git -C app add .pre-commit-config.yaml
  git -C app commit -q -m config
  (cd app && pre-commit install) >install.out 2>&1 || fail "pre-commit install: $(cat install.out)"

  write_leak app/leak.cu
  echo "notes" >app/README
  git -C app add leak.cu README
  commit app "leak"
  [ "$crc" -ne 0 ] || fail "pre-commit: a commit with a leak is refused"
  grep -q "leak.cu:4:7: warning: .*GM001" commit.out || fail "pre-commit shows the finding: $(cat commit.out)"
  grep -q "gmemlint.*Failed" commit.out || fail "pre-commit names the hook: $(cat commit.out)"
  [ "$(git -C app rev-list --count HEAD)" -eq 1 ] || fail "nothing was committed"

  write_clean app/leak.cu
  git -C app add leak.cu
  commit app "fixed"
  [ "$crc" -eq 0 ] || fail "pre-commit: a clean commit passes: $(cat commit.out)"
  [ "$(git -C app rev-list --count HEAD)" -eq 2 ] || fail "the clean commit is made"

  # only C, C++ and CUDA files reach gmemlint: a broken text file does not matter
  printf 'not C\0' >app/data.txt
  git -C app add data.txt
  commit app "data"
  [ "$crc" -eq 0 ] || fail "pre-commit: files of other types are not linted: $(cat commit.out)"
  grep -q "gmemlint.*(no files to check)Skipped" commit.out ||
    fail "pre-commit skips gmemlint: $(cat commit.out)"

  # a header is linted too (types c/c++)
  write_leak app/util.h
  git -C app add util.h
  commit app "header"
  [ "$crc" -ne 0 ] || fail "pre-commit: a leak in a staged header is refused"
  grep -q "util.h:4:7: warning:" commit.out || fail "the header's finding: $(cat commit.out)"
  git -C app reset -q util.h
else
  fail "pre-commit is not installed (Debian: apt-get install pre-commit)"
fi

# ---- gmemlint --install-hook ----
new_repo plain
run_in plain --install-hook
expect_rc 0 "--install-hook"
expect_out "installed .git/hooks/pre-commit" "names the hook"
[ -x plain/.git/hooks/pre-commit ] || fail "the hook is executable"
grep -q "installed by \`gmemlint --install-hook\`" plain/.git/hooks/pre-commit || fail "marker"

write_leak "plain/my leak.cu"
git -C plain add "my leak.cu"
commit plain "leak"
[ "$crc" -eq 1 ] || fail "--install-hook: a commit with a leak is refused (status $crc)"
grep -q "my leak.cu:4:7: warning: .*GM001" commit.out || fail "the hook shows the finding: $(cat commit.out)"
grep -q "gmemlint: commit refused" commit.out || fail "the hook says why: $(cat commit.out)"
! git -C plain rev-parse -q --verify HEAD >/dev/null || fail "nothing was committed"

# only staged files: an unstaged leaky file is not linted; a deleted one is not either
write_leak plain/unstaged.cu
write_clean "plain/my leak.cu"
git -C plain add "my leak.cu"
commit plain "fixed"
[ "$crc" -eq 0 ] || fail "--install-hook: a clean commit passes: $(cat commit.out)"
git -C plain rm -q "my leak.cu"
echo text >plain/notes.md
git -C plain add notes.md
commit plain "remove"
[ "$crc" -eq 0 ] || fail "--install-hook: a deletion and a text file pass: $(cat commit.out)"

# the options given with --install-hook are the hook's
run_in plain --install-hook --disable=GM001 -- -DUNUSED=1
expect_rc 0 "reinstalling our own hook needs no --force"
grep -q "'--disable=GM001' \"\${files\[@\]}\" '--' '-DUNUSED=1'" plain/.git/hooks/pre-commit ||
  fail "options and parser flags kept: $(grep files plain/.git/hooks/pre-commit)"
git -C plain add unstaged.cu
commit plain "GM001 is off"
[ "$crc" -eq 0 ] || fail "the hook runs with --disable=GM001: $(cat commit.out)"

# another tool's hook: refused without --force; with it, kept as pre-commit.old
printf '#!/bin/sh\nexit 0\n' >plain/.git/hooks/pre-commit
run_in plain --install-hook
expect_rc 2 "a foreign hook is not replaced"
expect_err "error: .git/hooks/pre-commit exists and is not gmemlint's; --force" "says how"
grep -q 'exit 0' plain/.git/hooks/pre-commit || fail "the foreign hook is untouched"
run_in plain --install-hook --force
expect_rc 0 "--force"
grep -q 'exit 0' plain/.git/hooks/pre-commit.old || fail "the old hook is kept as pre-commit.old"
grep -q "gmemlint --install-hook" plain/.git/hooks/pre-commit || fail "--force installs ours"

# core.hooksPath is where git looks, so that is where it goes; from a subdirectory too
git -C plain config core.hooksPath .githooks
mkdir -p plain/sub
run_in plain/sub --install-hook
expect_rc 0 "core.hooksPath"
[ -x plain/.githooks/pre-commit ] || fail "installed in core.hooksPath: $(ls -la plain plain/.githooks 2>&1)"

# misuse
mkdir notrepo
GIT_CEILING_DIRECTORIES="$WORK" run_in notrepo --install-hook
expect_rc 2 "outside a repository"
expect_err "error: --install-hook: not inside a git repository" "outside a repository"
run_in plain --install-hook a.cu
expect_rc 2 "files with --install-hook"
expect_err "takes no files" "files with --install-hook"
finish
