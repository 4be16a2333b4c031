/* The static pass (--gmem-lint, GMEMCC_LINT=1): gmemlint runs on each source before it is
 * compiled, its report next to the object; any failure only warns. */
#include "gmemcc/gmemcc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, PROG ": warning: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* The object a compile of `source` writes (its static-pass report goes next to it): -o for a
 * single-source compile, else the source's name with .o in the working directory. */
static char *object_for(const cmdline *c, const char *source) {
  if (c->compile_only && c->sources.n == 1 && c->output)
    return xstrdup(c->output);
  const char *base = base_name(source), *dot = strrchr(base, '.');
  size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  return xasprintf("%.*s.o", (int)stem, base);
}

/* Runs the static pass on one source before it is compiled. Findings (exit 1) are its output,
 * not an error; any failure only warns: the compile goes on. */
void lint_source(const cmdline *c, const char *gmemlint, const char *source, bool verbose) {
  strvec cmd = {0};
  push(&cmd, gmemlint);
  push(&cmd, "--format=json");
  push(&cmd, "-o");
  push(&cmd, xasprintf("%s.gmemlint.json", object_for(c, source)));
  push(&cmd, source);
  push(&cmd, "--");
  for (size_t i = 0; i < c->lint_flags.n; i++)
    push(&cmd, c->lint_flags.v[i]);
  if (verbose)
    print_command(&cmd);
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    warn("cannot run gmemlint: %s; compiling without the static pass", strerror(errno));
    return;
  }
  if (pid == 0) {
    dup2(STDERR_FILENO, STDOUT_FILENO); /* stdout stays the compiler's (-E, -M) */
    execvp(cmd.v[0], (char *const *)cmd.v);
    fprintf(stderr, PROG ": warning: cannot run '%s': %s; compiling without the static pass\n",
            cmd.v[0], strerror(errno));
    _exit(EXIT_NOTFOUND);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      warn("waiting for gmemlint: %s", strerror(errno));
      return;
    }
  if (WIFEXITED(status)) {
    int rc = WEXITSTATUS(status);
    if (rc != 0 && rc != 1 && rc != EXIT_NOTFOUND)
      warn("gmemlint could not analyse '%s' (exit status %d); compiling it anyway", source, rc);
  } else if (WIFSIGNALED(status)) {
    warn("gmemlint was killed by signal %d on '%s'; compiling it anyway", WTERMSIG(status), source);
  }
}

char *find_gmemlint(const char *self) {
  char *next_to_us = xasprintf("%s/gmemlint", dir_name(self));
  if (is_executable(next_to_us))
    return next_to_us;
  return xstrdup("gmemlint"); /* execvp searches PATH */
}
