/* gmemcc's helpers: fatal errors, allocation that cannot fail, argument vectors and how one is
 * printed, environment flags and file names. */
#include "gmemcc/gmemcc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void die(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, PROG ": error: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(status);
}

void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p)
    die(EXIT_GMEMCC, "out of memory");
  return p;
}

char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xrealloc(NULL, n), s, n);
}

char *xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0)
    die(EXIT_GMEMCC, "out of memory");
  va_end(ap);
  return s;
}

void push(strvec *s, const char *x) {
  if (s->n + 2 > s->cap) {
    s->cap = s->cap ? s->cap * 2 : 16;
    s->v = xrealloc(s->v, s->cap * sizeof *s->v);
  }
  s->v[s->n++] = x;
  s->v[s->n] = NULL;
}

bool env_on(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

bool is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool is_executable(const char *path) {
  return is_file(path) && access(path, X_OK) == 0;
}

const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

const char *suffix(const char *path) {
  const char *base = base_name(path), *dot = strrchr(base, '.');
  return dot && dot != base ? dot : "";
}

bool in_list(const char *s, const char *const *list) {
  for (; *list; list++)
    if (strcmp(s, *list) == 0)
      return true;
  return false;
}

static void print_quoted(FILE *f, const char *s) {
  if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-") ==
                strlen(s)) {
    fputs(s, f);
    return;
  }
  fputc('\'', f);
  for (; *s; s++)
    if (*s == '\'')
      fputs("'\\''", f);
    else
      fputc(*s, f);
  fputc('\'', f);
}

void print_command(const strvec *cmd) {
  fputs(PROG ":", stderr);
  for (size_t i = 0; i < cmd->n; i++) {
    fputc(' ', stderr);
    print_quoted(stderr, cmd->v[i]);
  }
  fputc('\n', stderr);
}
