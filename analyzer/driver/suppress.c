#include "driver/suppress.h"

#include "findings/rule.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Whether the check list that follows a NOLINT marker covers rule id. No list, or `*`, covers
 * every rule; a list that names no gm rule (e.g. NOLINT(bugprone-*)) covers none of ours. */
static int list_covers(const char *after, const char *end, const char *id) {
  if (after >= end || *after != '(')
    return 1;
  const char *close = memchr(after, ')', (size_t)(end - after));
  if (!close)
    return 0;
  const char *p = after + 1;
  while (p < close) {
    while (p < close && (isspace((unsigned char)*p) || *p == ','))
      p++;
    const char *q = p;
    while (q < close && *q != ',')
      q++;
    const char *e = q;
    while (e > p && isspace((unsigned char)e[-1]))
      e--;
    size_t n = (size_t)(e - p);
    if ((n == 1 && *p == '*') || (n == strlen(id) && strncasecmp(p, id, n) == 0) ||
        (n == 2 && strncasecmp(p, "gm", 2) == 0) || (n == 3 && strncasecmp(p, "GM*", 3) == 0))
      return 1;
    p = q;
  }
  return 0;
}

/* Finds `marker` inside a comment on the line and checks its list. `marker` must not be directly
 * followed by a letter (so NOLINT does not match NOLINTNEXTLINE). */
static int line_has(const char *line, size_t len, const char *marker, const char *id) {
  const char *end = line + len;
  const char *comment = NULL;
  for (const char *p = line; p + 1 < end; p++)
    if (p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
      comment = p;
      break;
    }
  if (!comment)
    return 0;
  size_t mlen = strlen(marker);
  for (const char *p = comment; p + mlen <= end; p++) {
    if (strncmp(p, marker, mlen) != 0)
      continue;
    const char *after = p + mlen;
    if (after < end && isalpha((unsigned char)*after))
      continue;
    if (list_covers(after, end, id))
      return 1;
  }
  return 0;
}

/* What a line's NOLINT comments say about one rule. */
enum { SUPPRESS_SAME_LINE = 1, SUPPRESS_NEXT_LINE = 2 };

struct rule_marks {
  const char *id;
  unsigned char *marks; /* per marked line: SUPPRESS_* bits */
  int *open_after;      /* per marked line: NOLINTBEGIN regions open once it is read */
};

/* A file's NOLINT comments, read on the first question: the lines that hold any, then, per rule
 * asked about, what each of those lines says. */
typedef struct nolint_table {
  const gm_source *src;
  int scanned;
  GM_VEC(unsigned) lines; /* the lines holding "NOLINT", ascending: no other line can matter */
  GM_VEC(struct rule_marks) rules; /* one per rule asked about, filled on its first question */
} nolint_table;

static nolint_table *table_new(const gm_source *src) {
  nolint_table *s = gm_xcalloc(1, sizeof *s);
  s->src = src;
  return s;
}

static void table_free(nolint_table *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->rules.len; i++)
    free(s->rules.items[i].marks), free(s->rules.items[i].open_after);
  GM_VEC_FREE(s->rules);
  GM_VEC_FREE(s->lines);
  free(s);
}

static void find_marked_lines(nolint_table *s) {
  const gm_source *src = s->src;
  s->scanned = 1;
  if (!src->text)
    return;
  const char *text = src->text, *end = text + src->len, *p = text;
  const char *hit;
  while (p < end && (hit = memmem(p, (size_t)(end - p), "NOLINT", 6))) {
    unsigned line = gm_source_line_of(src, (size_t)(hit - text));
    GM_PUSH(s->lines, line);
    if (line >= src->line_starts.len)
      break;
    p = text + src->line_starts.items[line]; /* the next line */
  }
}

/* Reads each marked line once for rule `id`, in order, as a scan from the top would. */
static struct rule_marks *marks_for(nolint_table *s, const char *id) {
  for (size_t i = 0; i < s->rules.len; i++)
    if (strcmp(s->rules.items[i].id, id) == 0)
      return &s->rules.items[i];
  size_t n = s->lines.len;
  struct rule_marks r = {id, gm_xcalloc(n + 1, 1), gm_xcalloc(n + 1, sizeof(int))};
  int open = 0;
  for (size_t k = 0; k < n; k++) {
    size_t len;
    const char *text = gm_source_line(s->src, s->lines.items[k], &len);
    if (!text)
      continue;
    if (line_has(text, len, "NOLINT", id))
      r.marks[k] |= SUPPRESS_SAME_LINE;
    if (line_has(text, len, "NOLINTNEXTLINE", id))
      r.marks[k] |= SUPPRESS_NEXT_LINE;
    if (line_has(text, len, "NOLINTBEGIN", id))
      open++;
    if (line_has(text, len, "NOLINTEND", id) && open > 0)
      open--;
    r.open_after[k] = open;
  }
  GM_PUSH(s->rules, r);
  return &s->rules.items[s->rules.len - 1];
}

/* Whether a finding of rule `id` (kept for later questions about that rule: a rule's id outlives
 * the table) on `line` is suppressed. */
static int is_suppressed(nolint_table *s, unsigned line, const char *id) {
  if (!s->scanned)
    find_marked_lines(s);
  if (!s->lines.len)
    return 0;
  const struct rule_marks *r = marks_for(s, id);
  /* first marked line at or after `line` */
  size_t lo = 0, hi = s->lines.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->lines.items[mid] < line)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < s->lines.len && s->lines.items[lo] == line && (r->marks[lo] & SUPPRESS_SAME_LINE))
    return 1;
  if (lo == 0)
    return 0;
  if (line > 1 && s->lines.items[lo - 1] == line - 1 && (r->marks[lo - 1] & SUPPRESS_NEXT_LINE))
    return 1;
  return r->open_after[lo - 1] > 0; /* NOLINTBEGIN ... NOLINTEND regions opened above */
}

void gm_drop_suppressed(gm_report *report, size_t first, const char *path, const gm_source *src) {
  nolint_table *nolint = table_new(src);
  size_t w = first;
  for (size_t i = first; i < report->findings.len; i++) {
    gm_finding *f = &report->findings.items[i];
    if (strcmp(f->loc.file, path) == 0 && is_suppressed(nolint, f->loc.line, f->rule->id)) {
      /* kept for --explain, which says so; dropped with the rest otherwise */
      gm_report_suppressed(report, f->rule, "nolint", f->loc, f->function,
                           "a NOLINT comment suppresses it: %s", f->message);
      gm_finding_free(f);
    } else
      report->findings.items[w++] = *f;
  }
  report->findings.len = w;
  table_free(nolint);
}
