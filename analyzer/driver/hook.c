#include "driver/hook.h"

#include "support/atomic_file.h"
#include "support/version.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What marks a hook as ours: such a hook is replaced without --force. */
#define HOOK_MARKER "installed by `gmemlint --install-hook`"

/* s in single quotes, for the shell. */
static void put_quoted(gm_strbuf *sb, const char *s) {
  gm_sb_append(sb, "'");
  for (; *s; s++) {
    if (*s == '\'')
      gm_sb_append(sb, "'\\''");
    else
      gm_sb_appendn(sb, s, 1);
  }
  gm_sb_append(sb, "'");
}

/* Where git runs the pre-commit hook from (core.hooksPath and worktrees included), or NULL. */
static char *hook_path(void) {
  FILE *p = popen("git rev-parse --git-path hooks/pre-commit 2>/dev/null", "r");
  if (!p)
    return NULL;
  char line[PATH_MAX + 2];
  char *got = fgets(line, sizeof line, p);
  int status = pclose(p);
  if (!got || status != 0)
    return NULL;
  line[strcspn(line, "\n")] = 0;
  return line[0] ? gm_xstrdup(line) : NULL;
}

static char *script(int argc, char **argv) {
  char self[PATH_MAX];
  if (!realpath("/proc/self/exe", self))
    snprintf(self, sizeof self, "gmemlint");
  gm_strbuf sb = {0};
  gm_sb_printf(
      &sb,
      "#!/usr/bin/env bash\n"
      "# gmemlint pre-commit hook, " HOOK_MARKER " (gmemlint %s); running that\n"
      "# again replaces it. It lints the staged C, C++ and CUDA files (their working-tree copies)\n"
      "# and refuses the commit when gmemlint reports findings or cannot analyse a file (or\n"
      "# parse one in full: exit 3, which --allow-parse-errors accepts).\n"
      "# Skip it once with `git commit --no-verify`; set GMEMLINT to run another gmemlint.\n",
      GM_VERSION);
  gm_sb_append(&sb, "installed=");
  put_quoted(&sb, self);
  gm_sb_append(&sb, "\ngmemlint=${GMEMLINT:-$installed}\n"
                    "if [ -z \"${GMEMLINT:-}\" ] && [ ! -x \"$gmemlint\" ]; then\n"
                    "  gmemlint=gmemlint # moved or removed since: the one on PATH\n"
                    "fi\n"
                    "files=()\n"
                    "while IFS= read -r -d '' f; do\n"
                    "  files+=(\"$f\")\n"
                    "done < <(git diff --cached --name-only -z --diff-filter=ACMR -- \\\n"
                    "  '*.cu' '*.cuh' '*.c' '*.cc' '*.cpp' '*.h' '*.hpp')\n"
                    "[ ${#files[@]} -eq 0 ] && exit 0\n"
                    "\"$gmemlint\"");
  /* the options given with --install-hook, then the files, then the parser flags after -- */
  int dashdash = argc;
  for (int i = 1; i < argc && dashdash == argc; i++)
    if (strcmp(argv[i], "--") == 0)
      dashdash = i;
  for (int i = 1; i < dashdash; i++) {
    if (strcmp(argv[i], "--install-hook") == 0 || strcmp(argv[i], "--force") == 0)
      continue;
    gm_sb_append(&sb, " ");
    put_quoted(&sb, argv[i]);
  }
  gm_sb_append(&sb, " \"${files[@]}\"");
  for (int i = dashdash; i < argc; i++) {
    gm_sb_append(&sb, " ");
    put_quoted(&sb, argv[i]);
  }
  /* exit 3: files did not parse, so findings may be missing: the flags are what to fix */
  gm_sb_append(&sb, "\nrc=$?\n"
                    "if [ $rc -eq 3 ]; then\n"
                    "  echo \"gmemlint: commit refused (exit 3): files had parse errors, so "
                    "findings may be missing; give the build's flags (-p build), install the "
                    "hook again with --allow-parse-errors, or commit with --no-verify\" >&2\n"
                    "elif [ $rc -ne 0 ]; then\n"
                    "  echo \"gmemlint: commit refused (exit $rc): fix the findings above, or "
                    "commit with --no-verify\" >&2\n"
                    "fi\n"
                    "exit $rc\n");
  return gm_sb_take(&sb);
}

int gm_install_hook(const gm_options *opt, int argc, char **argv) {
  if (opt->files.len || opt->report_command) {
    gm_error("--install-hook takes no files: the hook lints the staged ones");
    return GM_EXIT_USAGE;
  }
  char *path = hook_path();
  if (!path) {
    gm_error("--install-hook: not inside a git repository (git rev-parse failed)");
    return GM_EXIT_USAGE;
  }
  int rc = GM_EXIT_CLEAN;
  char *text = script(argc, argv);
  char *old = gm_xasprintf("%s.old", path);
  char *dir = gm_xstrdup(path);
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = 0;
  size_t len = 0;
  char *existing = gm_read_file(path, &len);
  int ours = existing && strstr(existing, HOOK_MARKER) != NULL;
  if (existing && !ours && !opt->force) {
    gm_error("%s exists and is not gmemlint's; --force replaces it (keeping it as %s)", path, old);
    rc = GM_EXIT_USAGE;
    goto out;
  }
  if (existing && !ours && rename(path, old) != 0) {
    gm_error("cannot keep the old hook as %s: %s", old, strerror(errno));
    rc = GM_EXIT_USAGE;
    goto out;
  }
  if (slash && mkdir(dir, 0777) != 0 && errno != EEXIST) {
    gm_error("cannot create %s: %s", dir, strerror(errno));
    rc = GM_EXIT_USAGE;
    goto out;
  }
  gm_atomic_file f;
  int ok = gm_atomic_open(&f, path, "w") != NULL;
  if (ok) /* executable before it appears, or git would skip it */
    ok = gm_atomic_commit(&f, fputs(text, f.out) >= 0 && fchmod(fileno(f.out), 0755) == 0);
  if (!ok) {
    gm_error("%s: cannot write: %s", path, strerror(errno));
    rc = GM_EXIT_USAGE;
    goto out;
  }
  printf(GM_PROGRAM ": installed %s%s: it lints the staged .cu, .cuh, .c, .cc, .cpp, .h and .hpp "
                    "files before each commit\n",
         path, existing && !ours ? " (the old hook is kept as .old)" : "");
out:
  free(existing);
  free(dir);
  free(old);
  free(text);
  free(path);
  return rc;
}
