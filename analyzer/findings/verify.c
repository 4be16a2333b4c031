#include "findings/verify.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct expectation {
  int is_note;
  unsigned line;     /* expected line */
  unsigned src_line; /* where the comment is */
  int count;
  char *text;
  int seen;
} expectation;

typedef GM_VEC(expectation) expectation_vec;

static const char *skip_space(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return p;
}

/* Parses one `expected-...` directive starting after the word `expected-`. Returns 0 and prints
 * a message on a malformed directive. */
static int parse_directive(const char *path, const char *p, const char *end, unsigned line,
                           expectation_vec *out, int *no_diags, FILE *err) {
  int is_note = 0;
  if (strncmp(p, "no-diagnostics", 14) == 0) {
    *no_diags = 1;
    return 1;
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
  if (p < end && *p == '@') {
    p++;
    char sign = (p < end && (*p == '+' || *p == '-')) ? *p++ : 0;
    char *num_end;
    long n = strtol(p, &num_end, 10);
    if (num_end == p) {
      fprintf(err, "%s:%u: error: bad line offset in expected-%s\n", path, line,
              is_note ? "note" : "warning");
      return 0;
    }
    p = num_end;
    long t = sign == '+' ? (long)line + n : sign == '-' ? (long)line - n : n;
    if (t < 1) {
      fprintf(err, "%s:%u: error: expected line %ld is before the file starts\n", path, line, t);
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
    return 0;
  }
  expectation e = {is_note, target, line, count, NULL, 0};
  e.text = gm_xmalloc((size_t)(close - p) + 1);
  memcpy(e.text, p, (size_t)(close - p));
  e.text[close - p] = 0;
  GM_PUSH(*out, e);
  return 1;
}

static int collect(const char *path, const gm_source *src, expectation_vec *out, int *no_diags,
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
      if (!parse_directive(path, p + 9, end, line, out, no_diags, err))
        ok = 0;
      p += 8;
    }
  }
  return ok;
}

static char *full_text(const gm_finding *f) {
  return gm_xasprintf("%s [%s %s]", f->message, f->rule->id, f->rule->name);
}

int gm_verify_file(const char *path, const gm_source *src, const gm_report *report,
                   int clang_errors, FILE *err) {
  expectation_vec exp = {0};
  int no_diags = 0;
  int problems = 0;
  if (!collect(path, src, &exp, &no_diags, err))
    problems++;
  if (clang_errors) {
    fprintf(err, "%s: verify: the file has %d parse error(s)\n", path, clang_errors);
    problems++;
  }
  if (no_diags && exp.len) {
    fprintf(err, "%s: verify: expected-no-diagnostics together with expected-warning\n", path);
    problems++;
  }
  if (!no_diags && !exp.len) {
    fprintf(err, "%s: verify: no expected-warning or expected-no-diagnostics directive\n", path);
    problems++;
  }
  int check_notes = 0;
  for (size_t i = 0; i < exp.len; i++)
    check_notes |= exp.items[i].is_note;

  for (size_t i = 0; i < report->findings.len; i++) {
    const gm_finding *f = &report->findings.items[i];
    char *text = full_text(f);
    int matched = 0;
    for (size_t k = 0; k < exp.len && !matched; k++) {
      expectation *e = &exp.items[k];
      if (!e->is_note && e->line == f->loc.line && e->seen < e->count && strstr(text, e->text)) {
        e->seen++;
        matched = 1;
      }
    }
    if (!matched) {
      fprintf(err, "%s:%u:%u: verify: unexpected warning: %s\n", path, f->loc.line, f->loc.col,
              text);
      problems++;
    }
    free(text);
    if (!check_notes)
      continue;
    for (int r = 0; r < f->nrelated; r++) {
      const gm_related *rel = &f->related[r];
      int note_matched = 0;
      for (size_t k = 0; k < exp.len && !note_matched; k++) {
        expectation *e = &exp.items[k];
        if (e->is_note && e->line == rel->loc.line && e->seen < e->count &&
            strstr(rel->message, e->text)) {
          e->seen++;
          note_matched = 1;
        }
      }
      if (!note_matched) {
        fprintf(err, "%s:%u:%u: verify: unexpected note: %s\n", path, rel->loc.line, rel->loc.col,
                rel->message);
        problems++;
      }
    }
  }
  /* Notices about the analysis (a function cut short) are matched by expected-note on their line,
   * and always checked: a test whose function is cut short must say so. */
  for (size_t i = 0; i < report->notices.len; i++) {
    const gm_notice *n = &report->notices.items[i];
    int matched = 0;
    for (size_t k = 0; k < exp.len && !matched; k++) {
      expectation *e = &exp.items[k];
      if (e->is_note && e->line == n->loc.line && e->seen < e->count &&
          strstr(n->message, e->text)) {
        e->seen++;
        matched = 1;
      }
    }
    if (!matched) {
      fprintf(err, "%s:%u:%u: verify: unexpected note: %s\n", path, n->loc.line, n->loc.col,
              n->message);
      problems++;
    }
  }
  for (size_t k = 0; k < exp.len; k++) {
    expectation *e = &exp.items[k];
    if (e->seen < e->count) {
      fprintf(err, "%s:%u: verify: expected %s not seen: {{%s}}", path, e->line,
              e->is_note ? "note" : "warning", e->text);
      if (e->count > 1)
        fprintf(err, " (%d of %d seen)", e->seen, e->count);
      if (e->line != e->src_line)
        fprintf(err, " (directive on line %u)", e->src_line);
      fputc('\n', err);
      problems++;
    }
    free(e->text);
  }
  GM_VEC_FREE(exp);
  return problems;
}
