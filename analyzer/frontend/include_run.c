/* The scanner of a source's leading system includes (include_run.h). It reads bytes, not
 * tokens: whatever it does not recognise ends the run, so a file it misreads only loses the
 * shared preamble, never parses otherwise. */
#include "frontend/include_run.h"

#include "support/util.h"

#include <stdlib.h>
#include <string.h>

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

void gm_include_run_scan(const char *text, size_t len, gm_include_run *run) {
  memset(run, 0, sizeof *run);
  scanner sc = {text, len, 0};
  size_t cap = 0;
  int conditional_follows = 0;
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
    if (strcmp(name, "if") == 0 || strcmp(name, "ifdef") == 0 || strcmp(name, "ifndef") == 0) {
      conditional_follows = 1;
      break;
    }
    if (strcmp(name, "include") != 0)
      break;
    skip_blanks(&sc);
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
    push(run, &cap, header, start, end);
  }
  if (conditional_follows && run->n)
    free(run->headers[--run->n]);
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
