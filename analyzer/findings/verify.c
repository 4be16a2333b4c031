#include "findings/verify.h"

#include "findings/rule.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct expectation {
  int is_note;
  char *file;        /* @FILE:LINE: a note in another file; NULL: this file */
  unsigned line;     /* expected line */
  unsigned src_line; /* where the comment is */
  int count;
  char *text;
  int seen;
} expectation;

typedef GM_VEC(expectation) expectation_vec;

/* What a file says about itself besides its expectations. */
typedef struct file_directives {
  int no_diags;
  int notes_unchecked;            /* expected-notes-unchecked: REASON */
  GM_VEC(char *) rules_unchecked; /* expected-rules-unchecked GMnnn ...: REASON */
} file_directives;

/* The reason a directive gives after its colon; an opt-out without one is malformed. */
static int has_reason(const char *p, const char *end) {
  if (p >= end || *p != ':')
    return 0;
  for (p++; p < end; p++)
    if (!isspace((unsigned char)*p) && *p != '*' && *p != '/')
      return 1;
  return 0;
}

/* `expected-rules-unchecked GM010 GM030: REASON`: the rule ids up to the colon. */
static int parse_rules_unchecked(const char *path, const char *p, const char *end, unsigned line,
                                 file_directives *d, FILE *err) {
  int ids = 0;
  for (;;) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == ','))
      p++;
    if (p + 2 <= end && p[0] == 'G' && p[1] == 'M') {
      const char *q = p + 2;
      while (q < end && isdigit((unsigned char)*q))
        q++;
      if (q == p + 2)
        break;
      char *id = gm_xmalloc((size_t)(q - p) + 1);
      memcpy(id, p, (size_t)(q - p));
      id[q - p] = 0;
      GM_PUSH(d->rules_unchecked, id);
      ids++;
      p = q;
      continue;
    }
    break;
  }
  if (!ids || !has_reason(p, end)) {
    fprintf(err, "%s:%u: error: expected-rules-unchecked needs rule ids, a colon and a reason\n",
            path, line);
    return 0;
  }
  return 1;
}

static const char *skip_space(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return p;
}

/* Parses one `expected-...` directive starting after the word `expected-`. Returns 0 and prints
 * a message on a malformed directive. */
static int parse_directive(const char *path, const char *p, const char *end, unsigned line,
                           expectation_vec *out, file_directives *d, FILE *err) {
  int is_note = 0;
  if (strncmp(p, "no-diagnostics", 14) == 0) {
    d->no_diags = 1;
    return 1;
  } else if (strncmp(p, "notes-unchecked", 15) == 0) {
    if (!has_reason(skip_space(p + 15, end), end)) {
      fprintf(err, "%s:%u: error: expected-notes-unchecked needs a colon and a reason\n", path,
              line);
      return 0;
    }
    d->notes_unchecked = 1;
    return 1;
  } else if (strncmp(p, "rules-unchecked", 15) == 0) {
    return parse_rules_unchecked(path, p + 15, end, line, d, err);
  } else if (strncmp(p, "warning", 7) == 0) {
    p += 7;
  } else if (strncmp(p, "error", 5) == 0) {
    p += 5; /* --werror findings; verified the same way */
  } else if (strncmp(p, "note", 4) == 0) {
    p += 4;
    is_note = 1;
  } else {
    return 1; /* some other expected-... word: not ours */
  }
  unsigned target = line;
  char *file = NULL;
  if (p < end && *p == '@') {
    p++;
    /* @FILE:LINE, as clang writes it: a note in another file (a header, another source) */
    const char *colon = p;
    while (colon < end && *colon != ':' && !isspace((unsigned char)*colon) && *colon != '{')
      colon++;
    if (colon < end && *colon == ':' && colon > p && !isdigit((unsigned char)*p) && *p != '+' &&
        *p != '-') {
      file = gm_xmalloc((size_t)(colon - p) + 1);
      memcpy(file, p, (size_t)(colon - p));
      file[colon - p] = 0;
      p = colon + 1;
    }
    char sign = (p < end && (*p == '+' || *p == '-')) ? *p++ : 0;
    char *num_end;
    long n = strtol(p, &num_end, 10);
    if (num_end == p || (file && sign)) {
      fprintf(err, "%s:%u: error: bad line offset in expected-%s\n", path, line,
              is_note ? "note" : "warning");
      free(file);
      return 0;
    }
    p = num_end;
    long t = sign == '+' ? (long)line + n : sign == '-' ? (long)line - n : n;
    if (t < 1 || t > UINT_MAX) {
      fprintf(err, "%s:%u: error: expected line %ld is outside the file\n", path, line, t);
      free(file);
      return 0;
    }
    target = (unsigned)t;
  }
  p = skip_space(p, end);
  int count = 1;
  if (p < end && isdigit((unsigned char)*p)) {
    count = (int)strtol(p, (char **)&p, 10);
    p = skip_space(p, end);
  }
  if (end - p < 2 || p[0] != '{' || p[1] != '{') {
    fprintf(err, "%s:%u: error: expected {{text}} after expected-%s\n", path, line,
            is_note ? "note" : "warning");
    free(file);
    return 0;
  }
  p += 2;
  const char *close = NULL;
  for (const char *q = p; q + 1 < end; q++)
    if (q[0] == '}' && q[1] == '}') {
      close = q;
      break;
    }
  if (!close) {
    fprintf(err, "%s:%u: error: missing }} in expected-%s\n", path, line,
            is_note ? "note" : "warning");
    free(file);
    return 0;
  }
  expectation e = {is_note, file, target, line, count, NULL, 0};
  e.text = gm_xmalloc((size_t)(close - p) + 1);
  memcpy(e.text, p, (size_t)(close - p));
  e.text[close - p] = 0;
  GM_PUSH(*out, e);
  return 1;
}

static int collect(const char *path, const gm_source *src, expectation_vec *out, file_directives *d,
                   FILE *err) {
  int ok = 1;
  for (unsigned line = 1; line <= src->line_starts.len; line++) {
    size_t len;
    const char *text = gm_source_line(src, line, &len);
    if (!text)
      continue;
    const char *end = text + len;
    const char *comment = NULL;
    for (const char *p = text; p + 1 < end; p++)
      if (p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
        comment = p;
        break;
      }
    if (!comment)
      continue;
    for (const char *p = comment; p + 9 <= end; p++) {
      if (strncmp(p, "expected-", 9) != 0)
        continue;
      if (!parse_directive(path, p + 9, end, line, out, d, err))
        ok = 0;
      p += 8;
    }
  }
  return ok;
}

static char *full_text(const gm_finding *f) {
  return gm_xasprintf("%s [%s %s]", f->message, f->rule->id, f->rule->name);
}

/* Whether a location's file is the one an expectation names: its own file when it names none
 * (as the user named it, or the same file reached another way), else a file named by that path
 * or ending in it after a slash. */
static int in_file(const gm_loc *loc, const char *path, const char *named) {
  if (!loc->file)
    return !named;
  if (named) {
    size_t n = strlen(named), len = strlen(loc->file);
    return strcmp(loc->file, named) == 0 ||
           (len > n && loc->file[len - n - 1] == '/' && strcmp(loc->file + len - n, named) == 0);
  }
  if (strcmp(loc->file, path) == 0)
    return 1;
  char *a = realpath(loc->file, NULL), *b = realpath(path, NULL);
  int same = a && b && strcmp(a, b) == 0;
  free(a);
  free(b);
  return same;
}

/* Matches a note or notice against the file's unseen note expectations. */
static int match_note(expectation_vec *exp, const char *path, const gm_loc *loc,
                      const char *message) {
  for (size_t k = 0; k < exp->len; k++) {
    expectation *e = &exp->items[k];
    if (e->is_note && e->line == loc->line && e->seen < e->count && in_file(loc, path, e->file) &&
        strstr(message, e->text)) {
      e->seen++;
      return 1;
    }
  }
  return 0;
}

static void print_note_problem(FILE *err, const char *path, const gm_loc *loc,
                               const char *message) {
  if (loc->file && !in_file(loc, path, NULL))
    fprintf(err, "%s: verify: unexpected note at %s:%u:%u: %s\n", path, loc->file, loc->line,
            loc->col, message);
  else
    fprintf(err, "%s:%u:%u: verify: unexpected note: %s\n", path, loc->line, loc->col, message);
}

static int rule_unchecked(const file_directives *d, const gm_rule *rule) {
  for (size_t i = 0; i < d->rules_unchecked.len; i++)
    if (strcmp(d->rules_unchecked.items[i], rule->id) == 0)
      return 1;
  return 0;
}

/* A finding and its notes against the expectations; returns the problems printed. */
static int verify_finding(const gm_finding *f, const char *path, expectation_vec *exp,
                          const file_directives *d, FILE *err) {
  int problems = 0;
  char *text = full_text(f);
  int matched = 0;
  for (size_t k = 0; k < exp->len && !matched; k++) {
    expectation *e = &exp->items[k];
    if (!e->is_note && e->line == f->loc.line && e->seen < e->count &&
        in_file(&f->loc, path, e->file) && strstr(text, e->text)) {
      e->seen++;
      matched = 1;
    }
  }
  if (!matched && f->loc.file && !in_file(&f->loc, path, NULL)) {
    fprintf(err, "%s: verify: unexpected warning at %s:%u:%u: %s\n", path, f->loc.file, f->loc.line,
            f->loc.col, text);
    problems++;
  } else if (!matched) {
    fprintf(err, "%s:%u:%u: verify: unexpected warning: %s\n", path, f->loc.line, f->loc.col, text);
    problems++;
  }
  free(text);
  if (d->notes_unchecked)
    return problems;
  for (int r = 0; r < f->nrelated; r++) {
    const gm_related *rel = &f->related[r];
    if (!match_note(exp, path, &rel->loc, rel->message)) {
      print_note_problem(err, path, &rel->loc, rel->message);
      problems++;
    }
  }
  return problems;
}

int gm_verify_file(const char *path, const gm_source *src, const gm_report *report,
                   int clang_errors, FILE *err) {
  expectation_vec exp = {0};
  file_directives d = {0};
  int problems = 0;
  if (!collect(path, src, &exp, &d, err))
    problems++;
  if (clang_errors) {
    fprintf(err, "%s: verify: the file has %d parse error(s)\n", path, clang_errors);
    problems++;
  }
  if (d.no_diags && exp.len) {
    fprintf(err, "%s: verify: expected-no-diagnostics together with expected-warning\n", path);
    problems++;
  }
  if (!d.no_diags && !exp.len) {
    fprintf(err, "%s: verify: no expected-warning or expected-no-diagnostics directive\n", path);
    problems++;
  }
  for (size_t i = 0; i < report->findings.len; i++)
    if (!rule_unchecked(&d, report->findings.items[i].rule))
      problems += verify_finding(&report->findings.items[i], path, &exp, &d, err);
  /* Notices about the analysis (a function cut short) are matched by expected-note on their line,
   * and always checked: a test whose function is cut short must say so. */
  for (size_t i = 0; i < report->notices.len; i++) {
    const gm_notice *n = &report->notices.items[i];
    if (!match_note(&exp, path, &n->loc, n->message)) {
      print_note_problem(err, path, &n->loc, n->message);
      problems++;
    }
  }
  for (size_t k = 0; k < exp.len; k++) {
    expectation *e = &exp.items[k];
    if (e->seen < e->count) {
      fprintf(err, "%s:%u: verify: expected %s not seen: {{%s}}", path, e->line,
              e->is_note ? "note" : "warning", e->text);
      if (e->file)
        fprintf(err, " (in %s)", e->file);
      if (e->count > 1)
        fprintf(err, " (%d of %d seen)", e->seen, e->count);
      if (e->line != e->src_line || e->file)
        fprintf(err, " (directive on line %u)", e->src_line);
      fputc('\n', err);
      problems++;
    }
    free(e->text);
    free(e->file);
  }
  for (size_t i = 0; i < d.rules_unchecked.len; i++)
    free(d.rules_unchecked.items[i]);
  GM_VEC_FREE(d.rules_unchecked);
  GM_VEC_FREE(exp);
  return problems;
}
