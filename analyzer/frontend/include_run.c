/* The scanner of a source's leading system includes (include_run.h). It reads bytes, not
 * tokens: whatever it does not recognise ends the run, so a file it misreads only loses the
 * shared preamble, never parses otherwise. */
#include "frontend/include_run.h"

#include "support/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct scanner {
  const char *s;
  size_t len, pos;
} scanner;

static int at(const scanner *sc, size_t k) {
  return sc->pos + k < sc->len ? (unsigned char)sc->s[sc->pos + k] : -1;
}

static void skip_blanks(scanner *sc) {
  while (at(sc, 0) == ' ' || at(sc, 0) == '\t')
    sc->pos++;
}

/* After a directive's last token: blanks, a comment closed on this line or a line comment, then
 * the end of the line. 0 when anything else is there (more tokens, a continuation, a comment that
 * runs on, in which the directive would go on too). */
static int end_of_line(scanner *sc) {
  for (;;) {
    skip_blanks(sc);
    if (at(sc, 0) == '/' && at(sc, 1) == '*') {
      size_t k = sc->pos + 2;
      while (k + 1 < sc->len && !(sc->s[k] == '*' && sc->s[k + 1] == '/') && sc->s[k] != '\n')
        k++;
      if (k + 1 >= sc->len || sc->s[k] == '\n')
        return 0;
      sc->pos = k + 2;
      continue;
    }
    if (at(sc, 0) == '/' && at(sc, 1) == '/') {
      while (at(sc, 0) != -1 && at(sc, 0) != '\n')
        sc->pos++;
      /* `// ...\` continues the comment onto the next line */
      size_t k = sc->pos;
      while (k > 0 && sc->s[k - 1] == '\r')
        k--;
      return !(k > 0 && sc->s[k - 1] == '\\');
    }
    if (at(sc, 0) == '\r' && (at(sc, 1) == '\n' || at(sc, 1) == -1))
      sc->pos++;
    return at(sc, 0) == '\n' || at(sc, 0) == -1;
  }
}

/* Reads an identifier at pos into name (cut to its size); returns its length. */
static size_t identifier(scanner *sc, char *name, size_t size) {
  size_t n = 0;
  for (int c = at(sc, 0);
       (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9');
       c = at(sc, 0)) {
    if (n + 1 < size)
      name[n] = (char)c;
    n++;
    sc->pos++;
  }
  name[n < size ? n : size - 1] = 0;
  return n;
}

/* After `#ifndef`: `NAME` on its line and `#define NAME` (nothing more) on the next non-blank
 * line, the include guard idiom; 1 (and past the #define) when so, else 0 where it was. */
static int include_guard(scanner *sc) {
  size_t back = sc->pos;
  char guard[128], name[16], defined[128];
  skip_blanks(sc);
  size_t n = identifier(sc, guard, sizeof guard);
  int ok = n && n < sizeof guard && end_of_line(sc);
  while (ok && (at(sc, 0) == '\n' || at(sc, 0) == ' ' || at(sc, 0) == '\t' || at(sc, 0) == '\r'))
    sc->pos++;
  ok = ok && at(sc, 0) == '#' && (sc->pos++, skip_blanks(sc), 1) &&
       identifier(sc, name, sizeof name) == 6 && strcmp(name, "define") == 0;
  if (ok) {
    skip_blanks(sc);
    n = identifier(sc, defined, sizeof defined);
    ok = n && n < sizeof defined && strcmp(guard, defined) == 0 && end_of_line(sc);
  }
  if (!ok)
    sc->pos = back;
  return ok;
}

static void push(gm_include_run *run, size_t *cap, char *header, size_t start, size_t end) {
  if (run->n == *cap) {
    *cap = *cap ? *cap * 2 : 8;
    run->headers = gm_xrealloc(run->headers, sizeof(char *) * *cap);
    run->start = gm_xrealloc(run->start, sizeof(size_t) * *cap);
    run->end = gm_xrealloc(run->end, sizeof(size_t) * *cap);
  }
  run->headers[run->n] = header;
  run->start[run->n] = start;
  run->end[run->n] = end;
  run->n++;
}

/* How a scan of one text goes: a source's own (its directives may be blanked), or a quoted
 * header's that the source's run reaches (nothing of it is blanked, and its include guard is
 * stepped into). */
typedef struct scan_how {
  int header;       /* a quoted header's text: directive offsets are left empty */
  size_t *cap;      /* run's capacity */
  char quoted[256]; /* out: the quoted include the scan stopped at, "" for none */
} scan_how;

/* Scans text's leading includes onto run; returns 1 when the scan stopped at a quoted include
 * (named in how->quoted). */
static int scan(const char *text, size_t len, gm_include_run *run, scan_how *how) {
  scanner sc = {text, len, 0};
  size_t *cap = how->cap;
  int conditional_follows = 0, stopped_at_quoted = 0;
  how->quoted[0] = 0;
  for (;;) {
    int c = at(&sc, 0);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      sc.pos++;
      continue;
    }
    if (c == '/' && (at(&sc, 1) == '*' || at(&sc, 1) == '/')) {
      if (at(&sc, 1) == '/') {
        if (!end_of_line(&sc))
          break;
        continue;
      }
      const char *close = NULL;
      for (size_t k = sc.pos + 2; k + 1 < len && !close; k++)
        if (text[k] == '*' && text[k + 1] == '/')
          close = text + k;
      if (!close)
        break;
      sc.pos = (size_t)(close - text) + 2;
      continue;
    }
    if (c != '#')
      break;
    size_t start = sc.pos++;
    skip_blanks(&sc);
    char name[16];
    size_t n = identifier(&sc, name, sizeof name);
    if (n >= sizeof name)
      break;
    if (strcmp(name, "pragma") == 0) {
      skip_blanks(&sc);
      char what[8];
      if (identifier(&sc, what, sizeof what) == 4 && strcmp(what, "once") == 0 && end_of_line(&sc))
        continue;
      break;
    }
    if (how->header && strcmp(name, "ifndef") == 0 && include_guard(&sc))
      continue; /* the guard is not defined before the header is first read */
    if (strcmp(name, "if") == 0 || strcmp(name, "ifdef") == 0 || strcmp(name, "ifndef") == 0) {
      conditional_follows = 1;
      break;
    }
    if (strcmp(name, "include") != 0)
      break;
    skip_blanks(&sc);
    if (at(&sc, 0) == '"') {
      size_t open = ++sc.pos;
      while (at(&sc, 0) != -1 && at(&sc, 0) != '"' && at(&sc, 0) != '\n' && at(&sc, 0) != '\\')
        sc.pos++;
      size_t n = sc.pos - open;
      if (at(&sc, 0) == '"' && n && n < sizeof how->quoted && (sc.pos++, end_of_line(&sc))) {
        memcpy(how->quoted, text + open, n);
        how->quoted[n] = 0;
        stopped_at_quoted = 1;
      }
      break;
    }
    if (at(&sc, 0) != '<')
      break;
    size_t open = sc.pos + 1;
    while (at(&sc, 0) != -1 && at(&sc, 0) != '>' && at(&sc, 0) != '\n' && at(&sc, 0) != '\\')
      sc.pos++;
    if (at(&sc, 0) != '>' || sc.pos == open)
      break;
    size_t close = sc.pos++;
    size_t end = sc.pos;
    if (!end_of_line(&sc))
      break;
    char *header = gm_xmalloc(close - open + 1);
    memcpy(header, text + open, close - open);
    header[close - open] = 0;
    push(run, cap, header, how->header ? 0 : start, how->header ? 0 : end);
  }
  if (conditional_follows && run->n && !how->header)
    free(run->headers[--run->n]);
  return stopped_at_quoted;
}

void gm_include_run_scan(const char *text, size_t len, gm_include_run *run) {
  memset(run, 0, sizeof *run);
  size_t cap = 0;
  scan_how how = {.cap = &cap};
  scan(text, len, run, &how);
}

/* Where `#include "name"` in a file of directory `dir` finds its header: that directory, then
 * the flags' -iquote and -I directories, in order; NULL when none has it. */
static char *find_quoted(const char *dir, const char *name, char *const *args, size_t nargs) {
  if (name[0] == '/')
    return access(name, R_OK) == 0 ? gm_xstrdup(name) : NULL;
  char *path = gm_xasprintf("%s/%s", dir, name);
  if (access(path, R_OK) == 0)
    return path;
  free(path);
  static const char *const flags[] = {"-iquote", "-I"};
  for (size_t i = 0; i < nargs; i++)
    for (size_t f = 0; f < sizeof flags / sizeof *flags; f++) {
      size_t n = strlen(flags[f]);
      if (strncmp(args[i], flags[f], n) != 0)
        continue;
      const char *d = args[i][n] ? args[i] + n : i + 1 < nargs ? args[i + 1] : "";
      if (!*d)
        continue;
      path = gm_xasprintf("%s/%s", d, name);
      if (access(path, R_OK) == 0)
        return path;
      free(path);
    }
  return NULL;
}

void gm_include_run_scan_through(const char *path, const char *text, size_t len, char *const *args,
                                 size_t nargs, gm_include_run *run) {
  memset(run, 0, sizeof *run);
  size_t cap = 0;
  scan_how how = {.cap = &cap};
  char *from = gm_xstrdup(path), *owned = NULL;
  /* a chain of quoted headers, each the first thing its includer reads after system headers;
   * bounded, as a header that includes itself would be */
  for (int depth = 0; depth < 8 && scan(text, len, run, &how); depth++) {
    char *slash = strrchr(from, '/');
    char *dir = slash ? gm_xasprintf("%.*s", (int)(slash - from), from) : gm_xstrdup(".");
    char *found = find_quoted(dir, how.quoted, args, nargs);
    free(dir);
    free(from);
    from = found;
    free(owned);
    owned = found ? gm_read_file(found, &len) : NULL;
    if (!owned)
      break;
    text = owned;
    how.header = 1;
  }
  free(owned);
  free(from);
}

void gm_include_run_free(gm_include_run *run) {
  for (size_t i = 0; i < run->n; i++)
    free(run->headers[i]);
  free(run->headers);
  free(run->start);
  free(run->end);
  memset(run, 0, sizeof *run);
}

char *gm_include_run_blank(const char *text, size_t len, const gm_include_run *run,
                           char *const *headers, size_t n) {
  char *copy = gm_xmalloc(len + 1);
  memcpy(copy, text, len);
  copy[len] = 0;
  char *blanked = gm_xcalloc(run->n + 1, 1);
  for (size_t h = 0; h < n; h++)
    for (size_t i = 0; i < run->n; i++)
      if (!blanked[i] && strcmp(run->headers[i], headers[h]) == 0) {
        memset(copy + run->start[i], ' ', run->end[i] - run->start[i]);
        blanked[i] = 1;
        break;
      }
  free(blanked);
  return copy;
}
