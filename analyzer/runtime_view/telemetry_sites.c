/* What the rules and reports ask of the merged sites: which site a source location names,
 * whether a site ran, and its most frequent host stack. */
#include "runtime_view/telemetry_private.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- matching a source location to a site ---- */

/* The path's components from the end: returns how many trailing components a and b share. */
static int common_tail(const char *a, const char *b) {
  const char *ea = a + strlen(a), *eb = b + strlen(b);
  int n = 0;
  for (;;) {
    /* skip separators and "." components */
    for (;;) {
      while (ea > a && ea[-1] == '/')
        ea--;
      while (eb > b && eb[-1] == '/')
        eb--;
      if (ea - a >= 1 && ea[-1] == '.' && (ea - a == 1 || ea[-2] == '/')) {
        ea--;
        continue;
      }
      if (eb - b >= 1 && eb[-1] == '.' && (eb - b == 1 || eb[-2] == '/')) {
        eb--;
        continue;
      }
      break;
    }
    if (ea == a || eb == b)
      return n;
    const char *sa = ea, *sb = eb;
    while (sa > a && sa[-1] != '/')
      sa--;
    while (sb > b && sb[-1] != '/')
      sb--;
    if (ea - sa != eb - sb || memcmp(sa, sb, (size_t)(ea - sa)) != 0 ||
        (ea - sa == 2 && sa[0] == '.' && sa[1] == '.'))
      return n;
    n++;
    ea = sa;
    eb = sb;
  }
}

int gm_path_match(const char *path, const char *path_real, const char *site_file,
                  const char *site_real, int site_absolute) {
  if (path_real && site_real) {
    if (strcmp(path_real, site_real) == 0)
      return 1000;
    /* an absolute path that resolves here names this machine's file: a different one */
    if (site_absolute)
      return 0;
  }
  return common_tail(path, site_file);
}

const gm_tsite *gm_telemetry_find(const gm_telemetry *t, const char *file, unsigned line,
                                  unsigned column, enum gm_site_kind kind) {
  if (!file || !t->by_line)
    return NULL;
  char real[PATH_MAX];
  const char *resolved = NULL;
  int resolved_yet = 0;
  const gm_tsite *best = NULL;
  int best_score = 0;
  /* the line's sites in their order: the first of the best score wins, as over all sites */
  for (size_t i = gm_line_bucket(t, line)->first; i; i = t->sites.items[i - 1].next_on_line) {
    const gm_tsite *s = &t->sites.items[i - 1];
    if (s->kind != kind || s->no_source)
      continue;
    if (!resolved_yet) {
      resolved = realpath(file, real);
      resolved_yet = 1;
    }
    int score = 2 * gm_path_match(file, resolved, s->file, s->real, s->file_absolute);
    /* The column only breaks ties between calls on one line: clang's __builtin_COLUMN() in the
     * forced-include macros gives the end of the outermost macro expansion, not the call's
     * column that libclang reports, so a column mismatch must not rule a site out. */
    if (score && column && s->column == column)
      score++;
    if (score > best_score) {
      best = s;
      best_score = score;
    }
  }
  return best;
}

int gm_site_ran(const gm_tsite *s) {
  if (!s)
    return 0;
  switch (s->kind) {
  case GM_SITE_ALLOC:
    return s->calls > 0;
  case GM_SITE_FREE:
    return s->free_calls > 0;
  case GM_SITE_OTHER:
    return s->copies > 0 || s->prefetches > 0;
  }
  return 0;
}

uint64_t gm_site_frees_total(const gm_tsite *s) {
  uint64_t n = 0;
  for (size_t i = 0; i < s->frees.len; i++)
    n += s->frees.items[i].n;
  return n;
}

char *gm_site_failed_text(const gm_tsite *s) {
  uint64_t made = s->calls + s->failed_calls, named = 0;
  gm_strbuf sb = {0};
  gm_sb_printf(&sb, "%llu of %llu %s from this site failed", (unsigned long long)s->failed_calls,
               (unsigned long long)made, made == 1 ? "allocation" : "allocations");
  for (size_t i = 0; i < s->failures.len; i++) {
    const gm_named_count *f = &s->failures.items[i];
    named += f->n;
    gm_sb_printf(&sb, "%s%s", i ? ", " : " (", f->name);
    if (s->failures.len > 1 || f->n != s->failed_calls)
      gm_sb_printf(&sb, " %llu", (unsigned long long)f->n);
  }
  /* the runtime names at most a few errors per site; a success without an address (0 bytes)
   * counts as failed but names none */
  if (s->failures.len && named < s->failed_calls)
    gm_sb_printf(&sb, ", %llu other", (unsigned long long)(s->failed_calls - named));
  if (s->failures.len)
    gm_sb_append(&sb, ")");
  return gm_sb_take(&sb);
}

/* ---- stacks ---- */

/* "train+0x55 (app)" -> "train"; NULL for frames of no interest (the runtime's own hooks, the C
 * library's start-up, frames without a symbol). Simple Itanium names (_Z5trainv) are shortened
 * to the function's name. */
static char *frame_name(const char *frame) {
  const char *plus = strstr(frame, "+0x");
  if (!plus || !strstr(plus, " ("))
    return NULL; /* "libc.so.6+0x2724a" or a bare address: no symbol */
  size_t n = (size_t)(plus - frame);
  const char *paren = memchr(frame, '(', n); /* "train(int)": the name without its parameters */
  if (paren && paren > frame)
    n = (size_t)(paren - frame);
  char *name = gm_xmalloc(n + 1);
  memcpy(name, frame, n);
  name[n] = 0;
  static const char *const skip_prefix[] = {"gmemrt_", "gmem_", "__libc_start"};
  int skip = strcmp(name, "_start") == 0;
  for (size_t i = 0; i < N(skip_prefix) && !skip; i++)
    skip = strncmp(name, skip_prefix[i], strlen(skip_prefix[i])) == 0;
  if (skip) {
    free(name);
    return NULL;
  }
  if (name[0] == '_' && name[1] == 'Z') {
    const char *p = name + 2;
    while (*p == 'N' || *p == 'L') /* nested (keep the last component), internal linkage */
      p++;
    const char *last = NULL;
    size_t last_len = 0;
    while (isdigit((unsigned char)*p)) {
      char *end;
      unsigned long len = strtoul(p, &end, 10);
      if (len == 0 || strlen(end) < len)
        break;
      last = end;
      last_len = len;
      p = end + len;
    }
    if (last) {
      char *plain = gm_xmalloc(last_len + 1);
      memcpy(plain, last, last_len);
      plain[last_len] = 0;
      free(name);
      return plain;
    }
  }
  return name;
}

enum { STACK_SHOWN = 6 }; /* frames shown in evidence, nearest the allocation */

char *gm_site_stack(const gm_tsite *s) {
  const gm_tstack *top = NULL;
  for (size_t i = 0; i < s->stacks.len; i++)
    if (!top || s->stacks.items[i].count > top->count)
      top = &s->stacks.items[i];
  if (!top)
    return NULL;
  gm_str_vec names = {0};
  for (size_t i = 0; i < top->frames.len; i++) {
    char *n = frame_name(top->frames.items[i]);
    if (n)
      GM_PUSH(names, n);
  }
  if (!names.len) {
    GM_VEC_FREE(names);
    return NULL;
  }
  gm_strbuf sb = {0};
  size_t shown = names.len < STACK_SHOWN ? names.len : STACK_SHOWN;
  if (shown < names.len)
    gm_sb_append(&sb, "... > ");
  for (size_t k = shown; k-- > 0;) {
    gm_sb_append(&sb, names.items[k]);
    if (k)
      gm_sb_append(&sb, " > ");
  }
  for (size_t i = 0; i < names.len; i++)
    free(names.items[i]);
  GM_VEC_FREE(names);
  return gm_sb_take(&sb);
}
