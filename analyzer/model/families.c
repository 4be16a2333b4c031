#include "model/families.h"

#include "support/util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char gm_families_ini[]; /* generated from rules/families.ini */

enum { TABLE_BUCKETS = 512 };

struct entry {
  gm_fn fn;
  size_t prefix_len; /* a prefix pattern (`mylib_*`): the length before the `*`; 0 otherwise */
  struct entry *next;
};
struct fam_entry {
  gm_family fam;
  struct fam_entry *next;
};

struct gm_table {
  const gm_table *base;
  struct entry *buckets[TABLE_BUCKETS];
  struct fam_entry *families;
  GM_VEC(struct entry *) prefixes; /* the pattern rows, longest prefix first */
  GM_VEC(char *) strings;          /* owned strings */
  /* [runtime-status]: names and prefix patterns of calls whose failure cudaGetLastError reports
     (owned by strings) */
  GM_VEC(const char *) status_calls;
};

static unsigned bucket_of(const char *name) {
  return (unsigned)(gm_hash64(name, strlen(name), 0) % TABLE_BUCKETS);
}

static const char *own(gm_table *t, const char *s) {
  char *copy = gm_xstrdup(s);
  GM_PUSH(t->strings, copy);
  return copy;
}

static gm_fn *table_add(gm_table *t, const char *name) {
  unsigned b = bucket_of(name);
  for (struct entry *e = t->buckets[b]; e; e = e->next)
    if (strcmp(e->fn.name, name) == 0)
      return &e->fn; /* a later section for the same function refines it */
  struct entry *e = gm_xcalloc(1, sizeof *e);
  e->fn.name = own(t, name);
  e->fn.ptr_arg = 0;
  e->fn.size_arg = GM_ARG_NONE;
  e->fn.dst_arg = 0;
  e->fn.src_arg = 1;
  e->fn.old_arg = 0;
  e->fn.direction = GM_COPY_HOST;
  e->fn.kind_arg = GM_ARG_NONE;
  e->fn.stream_arg = GM_ARG_NONE;
  e->fn.host_touch = 1;
  e->next = t->buckets[b];
  t->buckets[b] = e;
  size_t len = strlen(name);
  if (len > 1 && name[len - 1] == '*') {
    /* kept in order, longest first, so that a lookup stops at its first match */
    e->prefix_len = len - 1;
    GM_PUSH(t->prefixes, e);
    size_t i = t->prefixes.len - 1;
    for (; i > 0 && t->prefixes.items[i - 1]->prefix_len < e->prefix_len; i--)
      t->prefixes.items[i] = t->prefixes.items[i - 1];
    t->prefixes.items[i] = e;
  }
  return &e->fn;
}

/* Exact names first, in the config's table and then in the built-in one; then the longest
 * matching prefix pattern, the config's at equal length. Every call of every file is looked up,
 * and most are in no table: a miss costs a hash probe per table, and a comparison per pattern
 * (a handful, in a project's config). */
const gm_fn *gm_table_lookup(const gm_table *t, const char *name) {
  unsigned b = bucket_of(name);
  for (const gm_table *u = t; u; u = u->base)
    for (struct entry *e = u->buckets[b]; e; e = e->next)
      if (strcmp(e->fn.name, name) == 0)
        return &e->fn;
  const gm_fn *best = NULL;
  size_t best_len = 0;
  for (const gm_table *u = t; u; u = u->base)
    for (size_t i = 0; i < u->prefixes.len; i++) {
      const struct entry *e = u->prefixes.items[i];
      if (e->prefix_len <= best_len)
        break;
      if (e->fn.name[0] == name[0] && strncmp(e->fn.name, name, e->prefix_len) == 0) {
        best = &e->fn;
        best_len = e->prefix_len;
        break;
      }
    }
  return best;
}

const gm_family *gm_table_family(const gm_table *t, const char *name) {
  for (; t; t = t->base)
    for (struct fam_entry *f = t->families; f; f = f->next)
      if (strcmp(f->fam.name, name) == 0)
        return &f->fam;
  return NULL;
}

int gm_table_sets_runtime_status(const gm_table *t, const char *name) {
  for (; t; t = t->base)
    for (size_t i = 0; i < t->status_calls.len; i++) {
      const char *pattern = t->status_calls.items[i];
      size_t len = strlen(pattern);
      if (pattern[len - 1] == '*' ? strncmp(pattern, name, len - 1) == 0
                                  : strcmp(pattern, name) == 0)
        return 1;
    }
  return 0;
}

int gm_fn_frees_family(const gm_fn *fn, const gm_family *fam) {
  for (int i = 0; i < fn->nfrees; i++)
    if (fn->frees[i] == fam)
      return 1;
  return 0;
}

struct parse_ctx {
  gm_table *table;
  const char *origin;
  char *err;
  size_t errlen;
  int failed;
  int line; /* the line being read, for messages; 0 once the file has been read */
  gm_strbuf enable, disable;
  gm_thresholds *thresholds; /* [thresholds] sets these; NULL for the built-in table */
  /* the sections met so far, and the keys of the current one, with their lines: a repeated
     section or key is an error, not a silent merge or override */
  struct seen_list {
    GM_VEC(struct seen {
      char *name;
      int line;
      size_t next; /* the next in its hash chain (index + 1), or 0 */
    })
    v;
    size_t *chains; /* by name hash (index + 1): a generated file may hold many sections; NULL for
                       the keys of one section, which are few */
  } sections, keys;
  /* Rows may name families defined later in the same file: resolve them at the end. */
  GM_VEC(struct pending_family {
    gm_fn *fn;
    char *family;
    int is_free;
  })
  pending;
};

static int fail(struct parse_ctx *c, const char *fmt, const char *a, const char *b) {
  if (!c->failed) {
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, b);
    if (c->line)
      snprintf(c->err, c->errlen, "%s:%d: %s", c->origin, c->line, msg);
    else
      snprintf(c->err, c->errlen, "%s: %s", c->origin, msg);
  }
  c->failed = 1;
  return 0;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  char *e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == ','))
    *--e = 0;
  return s;
}

/* A matching pair of quotes around a whole name or value is not part of it. */
static char *unquote(char *s) {
  size_t n = strlen(s);
  if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0] && !memchr(s + 1, s[0], n - 2)) {
    s[n - 1] = 0;
    return s + 1;
  }
  return s;
}

/* Calls fn(ctx, item) for each comma-separated item of value. */
static int for_each_item(struct parse_ctx *c, const char *value,
                         int (*fn)(struct parse_ctx *, const char *, void *), void *arg) {
  char *copy = gm_xstrdup(value);
  int ok = 1;
  for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && ok;
       tok = strtok_r(NULL, ",", &save)) {
    char *item = unquote(trim(tok));
    if (*item)
      ok = fn(c, item, arg);
  }
  free(copy);
  return ok;
}

static int parse_arg_index(const char *v, int allow_return, int allow_none, int *out,
                           const char **field) {
  if (allow_return && strncmp(v, "return", 6) == 0 && (v[6] == 0 || v[6] == '.')) {
    *out = GM_ARG_RETURN;
    if (field)
      *field = v[6] == '.' ? v + 7 : NULL;
    return v[6] == 0 || (field && v[7]);
  }
  if (allow_none && strcmp(v, "none") == 0) {
    *out = GM_ARG_NONE;
    return 1;
  }
  char *end;
  long n = strtol(v, &end, 10);
  if (end == v || n < 0 || n > 64)
    return 0;
  if (*end == '.' && field && end[1]) {
    *field = end + 1;
  } else if (*end) {
    return 0;
  }
  *out = (int)n;
  return 1;
}

/* A function name, or a prefix pattern: a name that ends in `*`. */
static int check_name(struct parse_ctx *c, const char *name) {
  if (name[strcspn(name, " \t\"',;#")])
    return fail(c, "'%s' is not a function name or pattern (%s)", name,
                "a name has no blanks, quotes, commas, ';' or '#'");
  const char *star = strchr(name, '*');
  if (!star)
    return 1;
  if (star == name)
    return fail(c, "'%s' is not a function name or pattern (a pattern needs a prefix: %s)", name,
                "mylib_*");
  if (star[1])
    return fail(c, "'%s' is not a function name or pattern (%s)", name,
                "'*' may only end a name, as in mylib_*");
  return 1;
}

/* The sections that list functions (`functions = a, b, c`): each gives its rows a kind, and
 * says whether the host touches what they are given. */
static const struct list_section {
  const char *name;
  enum gm_fn_kind kind;
  int host_touch;
} list_sections[] = {
    {"use", GM_FN_USE, 1},           {"device-use", GM_FN_USE, 0},
    {"borrow", GM_FN_BORROW, 1},     {"device-fill", GM_FN_DEVICE_FILL, 0},
    {"prefetch", GM_FN_PREFETCH, 0}, {"launch", GM_FN_LAUNCH, 0},
    {"noreturn", GM_FN_NORETURN, 1}, {"last-error", GM_FN_LAST_ERROR, 1},
    {"fallible", GM_FN_FALLIBLE, 1},
};

static const struct list_section *find_list_section(const char *what) {
  for (size_t i = 0; i < sizeof list_sections / sizeof list_sections[0]; i++)
    if (strcmp(list_sections[i].name, what) == 0)
      return &list_sections[i];
  return NULL;
}

static int add_plain_fn(struct parse_ctx *c, const char *name, void *section) {
  if (!check_name(c, name))
    return 0;
  const struct list_section *ls = section;
  gm_fn *fn = table_add(c->table, name);
  fn->kind = ls->kind;
  fn->host_touch = ls->host_touch;
  return 1;
}

static int add_status_call(struct parse_ctx *c, const char *name, void *unused) {
  (void)unused;
  if (!check_name(c, name))
    return 0;
  GM_PUSH(c->table->status_calls, own(c->table, name));
  return 1;
}

static const char *const copy_directions[] = {[GM_COPY_HOST] = "host",
                                              [GM_COPY_DEVICE] = "device",
                                              [GM_COPY_HTOD] = "htod",
                                              [GM_COPY_DTOH] = "dtoh",
                                              [GM_COPY_DTOD] = "dtod"};

static int parse_direction(const char *v, enum gm_copy_direction *out) {
  for (size_t i = 0; i < sizeof copy_directions / sizeof copy_directions[0]; i++)
    if (strcmp(v, copy_directions[i]) == 0) {
      *out = (enum gm_copy_direction)i;
      return 1;
    }
  return 0;
}

static int add_free_family(struct parse_ctx *c, const char *name, void *fnp) {
  struct pending_family p = {fnp, gm_xstrdup(name), 1};
  GM_PUSH(c->pending, p);
  return 1;
}

static int handler(void *user, const char *section, const char *name, const char *value) {
  struct parse_ctx *c = user;
  if (c->failed)
    return 0;
  /* trim() moves past leading blanks: free what was allocated, not what it returns */
  char *copy = gm_xstrdup(section);
  char *sec = trim(copy);
  char *space = strchr(sec, ' ');
  const char *what = sec, *subject = NULL;
  if (space) {
    *space = 0;
    subject = trim(space + 1);
  }
  int ok = 1;
  if (strcmp(what, "rules") == 0 && !subject) {
    gm_strbuf *sb = strcmp(name, "enable") == 0    ? &c->enable
                    : strcmp(name, "disable") == 0 ? &c->disable
                                                   : NULL;
    if (!sb)
      ok = fail(c, "unknown key '%s' in [rules] (expected enable or disable)", name, "");
    else {
      if (sb->len)
        gm_sb_append(sb, ",");
      gm_sb_append(sb, value);
    }
  } else if (strcmp(what, "thresholds") == 0 && !subject && c->thresholds) {
    char msg[384], *copy_value = gm_xstrdup(value);
    if (!gm_thresholds_set(c->thresholds, name, unquote(trim(copy_value)), msg, sizeof msg))
      ok = fail(c, "%s%s", msg, "");
    free(copy_value);
  } else if (find_list_section(what) && !subject) {
    if (strcmp(name, "functions") != 0)
      ok = fail(c, "unknown key '%s' in [%s] (expected functions)", name, what);
    else
      ok = for_each_item(c, value, add_plain_fn, (void *)find_list_section(what));
  } else if (strcmp(what, "runtime-status") == 0 && !subject) {
    if (strcmp(name, "functions") != 0)
      ok = fail(c, "unknown key '%s' in [%s] (expected functions)", name, what);
    else
      ok = for_each_item(c, value, add_status_call, NULL);
  } else if (strcmp(what, "family") == 0 && subject) {
    struct fam_entry *f = NULL;
    for (struct fam_entry *e = c->table->families; e; e = e->next)
      if (strcmp(e->fam.name, subject) == 0)
        f = e;
    if (!f) {
      f = gm_xcalloc(1, sizeof *f);
      f->fam.name = own(c->table, subject);
      f->fam.description = f->fam.name;
      f->fam.free_fn = "the matching free";
      f->next = c->table->families;
      c->table->families = f;
    }
    if (strcmp(name, "description") == 0)
      f->fam.description = own(c->table, value);
    else if (strcmp(name, "free") == 0)
      f->fam.free_fn = own(c->table, value);
    else if (strcmp(name, "managed") == 0 || strcmp(name, "gpu") == 0 ||
             strcmp(name, "heap") == 0 || strcmp(name, "pinned") == 0) {
      int yes = strcmp(value, "yes") == 0 || strcmp(value, "true") == 0;
      int *flag = name[0] == 'm'   ? &f->fam.managed
                  : name[0] == 'h' ? &f->fam.heap
                  : name[0] == 'p' ? &f->fam.pinned
                                   : &f->fam.gpu;
      if (!yes && strcmp(value, "no") != 0 && strcmp(value, "false") != 0)
        ok = fail(c, "bad value '%s' for %s (expected yes or no)", value, name);
      else
        *flag = yes;
    } else
      ok = fail(c, "unknown key '%s' in [family %s]", name, subject);
  } else if (strcmp(what, "sink") == 0 && subject) {
    if (strcmp(name, "pointer") != 0) {
      ok = fail(c, "unknown key '%s' in [sink %s] (expected pointer)", name, subject);
    } else if (check_name(c, subject)) {
      gm_fn *fn = table_add(c->table, subject);
      fn->kind = GM_FN_SINK;
      if (strcmp(value, "all") == 0)
        fn->ptr_arg = GM_ARG_NONE;
      else if (!parse_arg_index(value, 0, 0, &fn->ptr_arg, NULL))
        ok = fail(c, "bad pointer '%s' in [sink %s] (expected an argument index from 0, or 'all')",
                  value, subject);
    } else {
      ok = 0;
    }
  } else if (strcmp(what, "alias") == 0 && subject) {
    if (!check_name(c, subject)) {
      ok = 0;
    } else {
      gm_fn *fn = table_add(c->table, subject);
      fn->kind = GM_FN_ALIAS;
      int *index = strcmp(name, "pointer") == 0  ? &fn->ptr_arg
                   : strcmp(name, "source") == 0 ? &fn->src_arg
                                                 : NULL;
      if (!index)
        ok = fail(c, "unknown key '%s' in [alias %s] (expected pointer or source)", name, subject);
      else if (!parse_arg_index(value, 0, 0, index, NULL))
        ok = fail(c, "bad argument index '%s' in [alias %s]", value, subject);
    }
  } else if (strcmp(what, "copy") == 0 && subject) {
    if (!check_name(c, subject)) {
      free(copy);
      return 0;
    }
    gm_fn *fn = table_add(c->table, subject);
    fn->kind = GM_FN_COPY;
    int *slot = strcmp(name, "dst") == 0      ? &fn->dst_arg
                : strcmp(name, "src") == 0    ? &fn->src_arg
                : strcmp(name, "size") == 0   ? &fn->size_arg
                : strcmp(name, "kind") == 0   ? &fn->kind_arg
                : strcmp(name, "stream") == 0 ? &fn->stream_arg
                                              : NULL;
    if (strcmp(name, "direction") == 0) {
      if (!parse_direction(value, &fn->direction))
        ok = fail(c, "bad direction '%s' in [copy %s] (expected host, device, htod, dtoh or dtod)",
                  value, subject);
      fn->host_touch = fn->direction == GM_COPY_HOST;
    } else if (!slot)
      ok = fail(
          c, "unknown key '%s' in [copy %s] (expected dst, src, size, direction, kind or stream)",
          name, subject);
    else if (!parse_arg_index(value, 0, slot != &fn->dst_arg && slot != &fn->src_arg, slot, NULL))
      ok = fail(c, "bad argument index '%s' in [copy %s]", value, subject);
  } else if ((strcmp(what, "alloc") == 0 || strcmp(what, "realloc") == 0 ||
              strcmp(what, "free") == 0) &&
             subject) {
    if (!check_name(c, subject)) {
      free(copy);
      return 0;
    }
    gm_fn *fn = table_add(c->table, subject);
    fn->kind = what[0] == 'a' ? GM_FN_ALLOC : what[0] == 'r' ? GM_FN_REALLOC : GM_FN_FREE;
    if (strcmp(name, "family") == 0 && fn->kind != GM_FN_FREE) {
      struct pending_family p = {fn, gm_xstrdup(value), 0};
      GM_PUSH(c->pending, p);
    } else if (strcmp(name, "pointer") == 0) {
      const char *field = NULL;
      if (!parse_arg_index(value, fn->kind != GM_FN_FREE, 0, &fn->ptr_arg, &field))
        ok = fail(c, "bad pointer '%s' in [%s ...] (expected an argument index or 'return')", value,
                  what);
      fn->ptr_field = field ? own(c->table, field) : NULL;
    } else if (strcmp(name, "size") == 0 && fn->kind != GM_FN_FREE) {
      if (!parse_arg_index(value, 0, 1, &fn->size_arg, NULL))
        ok = fail(c, "bad size '%s' in [%s ...] (expected an argument index or 'none')", value,
                  what);
    } else if (strcmp(name, "old") == 0 && fn->kind == GM_FN_REALLOC) {
      if (!parse_arg_index(value, 0, 0, &fn->old_arg, NULL))
        ok = fail(c, "bad old '%s' in [%s ...] (expected an argument index)", value, what);
    } else if (strcmp(name, "frees") == 0 && fn->kind == GM_FN_FREE) {
      ok = for_each_item(c, value, add_free_family, fn);
    } else {
      ok = fail(c, "unknown key '%s' in [%s ...]", name, what);
    }
  } else {
    ok = fail(c, "unknown section [%s]%s", section,
              " (expected rules, thresholds, family, alloc, realloc, free, copy, sink, alias, use, "
              "device-use, borrow, device-fill, prefetch, launch, noreturn, last-error, fallible "
              "or runtime-status)");
  }
  free(copy);
  return ok;
}

static int fail_at(struct parse_ctx *c, int line, const char *fmt, const char *a, const char *b) {
  if (!c->failed) {
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, b);
    snprintf(c->err, c->errlen, "%s:%d: %s", c->origin, line, msg);
  }
  c->failed = 1;
  return 0;
}

static void forget(struct seen_list *seen) {
  for (size_t i = 0; i < seen->v.len; i++)
    free(seen->v.items[i].name);
  seen->v.len = 0;
}

enum { SEEN_CHAINS = 1024 };

/* The line where name was met before, or 0 (and name is remembered at line). */
static int first_seen(struct seen_list *seen, const char *name, int line) {
  size_t *chain =
      seen->chains ? &seen->chains[gm_hash64(name, strlen(name), 0) % SEEN_CHAINS] : NULL;
  for (size_t i = chain ? *chain : seen->v.len; i; i = chain ? seen->v.items[i - 1].next : i - 1)
    if (strcmp(seen->v.items[i - 1].name, name) == 0)
      return seen->v.items[i - 1].line;
  struct seen s = {gm_xstrdup(name), line, chain ? *chain : 0};
  GM_PUSH(seen->v, s);
  if (chain)
    *chain = seen->v.len;
  return 0;
}

/* A section header, `[what subject]`: checks it, and returns its name as the handler gets it
 * (blanks around its parts and quotes around its subject removed). */
static char *header(struct parse_ctx *c, char *inside, int line) {
  static const char *const named[][2] = {{"family", "NAME"}, {"alloc", "FUNC"}, {"realloc", "FUNC"},
                                         {"free", "FUNC"},   {"copy", "FUNC"},  {"sink", "FUNC"},
                                         {"alias", "FUNC"}};
  char *what = trim(inside), *subject = what + strcspn(what, " \t");
  if (*subject)
    *subject++ = 0;
  subject = unquote(trim(subject));
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (strcmp(what, named[i][0]) == 0 && !*subject) {
      char want[64];
      snprintf(want, sizeof want, "[%s %s]", what, named[i][1]);
      fail_at(c, line, "[%s] needs a name: %s", what, want);
    }
  char *name = *subject ? gm_xasprintf("%s %s", what, subject) : gm_xstrdup(what);
  int first = first_seen(&c->sections, name, line);
  if (first) {
    char at[32];
    snprintf(at, sizeof at, "%d", first);
    fail_at(c, line, "duplicate section [%s] (first at line %s)", name, at);
  }
  return name;
}

static int is_blank(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* Blanks, a carriage return among them, are not part of a value. */
static char *strip(char *s) {
  while (is_blank(*s))
    s++;
  char *end = s + strlen(s);
  while (end > s && is_blank(end[-1]))
    *--end = 0;
  return s;
}

/* Cuts a comment off a line: `;` or `#` at its start or after a blank. */
static void cut_comment(char *s) {
  for (char *p = s; *p; p++)
    if ((*p == ';' || *p == '#') && (p == s || is_blank(p[-1]))) {
      *p = 0;
      return;
    }
}

/* A key line, `name = value` (or `name: value`): a key repeated in one section is an error. */
static void key_line(struct parse_ctx *c, const char *section, char *s) {
  char *eq = s + strcspn(s, "=:");
  if (!*eq) {
    fail(c, "syntax error (expected %s or %s)", "[section]", "key = value");
    return;
  }
  *eq = 0;
  char *name = trim(s), *value = strip(eq + 1);
  int first = first_seen(&c->keys, name, c->line);
  if (first) {
    char at[32], where[600];
    snprintf(at, sizeof at, "%d", first);
    snprintf(where, sizeof where, "'%s' in [%s]", name, section);
    fail(c, "duplicate key %s (first at line %s)", where, at);
    return;
  }
  handler(c, section, name, unquote(value));
}

/* A section's end: a [sink FUNC] without pointer would be a silent no-op, so it is an error at
 * its header; an [alias FUNC] without keys takes the defaults. */
static void end_section(struct parse_ctx *c, const char *section, int line) {
  if (strncmp(section, "alias ", 6) == 0 && !c->keys.v.len) {
    /* no keys: the defaults (pointer 0, source 1), as cudaHostGetDevicePointer has them */
    if (check_name(c, section + 6))
      table_add(c->table, section + 6)->kind = GM_FN_ALIAS;
    return;
  }
  if (strncmp(section, "sink ", 5) != 0)
    return;
  for (size_t i = 0; i < c->keys.v.len; i++)
    if (strcmp(c->keys.v.items[i].name, "pointer") == 0)
      return;
  fail_at(c, line, "[sink %s] needs pointer = N (the argument it keeps, from 0) or pointer = %s",
          section + 5, "all");
}

/* The .gmemlint syntax (docs/config.md), line by line: lines of any length, and every message
 * at its own line. (inih, used before, split lines over 199 characters, cut section names at
 * 49 and took a `#` after a value for part of the value.) */
static void read_lines(struct parse_ctx *c, const char *text) {
  char *section = gm_xstrdup(""), *prev_name = NULL;
  int section_line = 0;
  c->sections.chains = gm_xcalloc(SEEN_CHAINS, sizeof *c->sections.chains);
  if (strncmp(text, "\xEF\xBB\xBF", 3) == 0) /* a UTF-8 byte order mark */
    text += 3;
  for (const char *p = text; *p && !c->failed;) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    char *buf = gm_xmalloc(len + 1);
    memcpy(buf, p, len);
    buf[len] = 0;
    c->line++;
    char *s = buf;
    while (is_blank(*s))
      s++;
    if (!*s || *s == ';' || *s == '#') {
      /* a blank line or a comment */
    } else if (s > buf && prev_name) {
      /* an indented line under a key continues its value */
      cut_comment(s);
      handler(c, section, prev_name, unquote(strip(s)));
    } else if (*s == '[') {
      cut_comment(s);
      char *close = strchr(s, ']');
      if (!close) {
        fail(c, "syntax error (expected %s or %s)", "[section]", "key = value");
      } else {
        *close = 0;
        end_section(c, section, section_line);
        free(section);
        section = header(c, s + 1, c->line);
        section_line = c->line;
        free(prev_name);
        prev_name = NULL;
        forget(&c->keys);
      }
    } else {
      cut_comment(s);
      key_line(c, section, s);
      free(prev_name);
      prev_name = c->keys.v.len ? gm_xstrdup(c->keys.v.items[c->keys.v.len - 1].name) : NULL;
    }
    free(buf);
    p = eol ? eol + 1 : p + len;
  }
  end_section(c, section, section_line);
  free(section);
  free(prev_name);
  forget(&c->sections);
  GM_VEC_FREE(c->sections.v);
  free(c->sections.chains);
  forget(&c->keys);
  GM_VEC_FREE(c->keys.v);
  c->line = 0;
}

static gm_table *parse_into(const gm_table *base, const char *text, const char *origin, char *err,
                            size_t errlen, char **enable, char **disable,
                            gm_thresholds *thresholds) {
  gm_table *t = gm_xcalloc(1, sizeof *t);
  t->base = base;
  struct parse_ctx c = {
      .table = t, .origin = origin, .err = err, .errlen = errlen, .thresholds = thresholds};
  read_lines(&c, text);
  for (size_t i = 0; i < c.pending.len && !c.failed; i++) {
    struct pending_family *p = &c.pending.items[i];
    const gm_family *fam = gm_table_family(t, p->family);
    if (!fam) {
      snprintf(err, errlen, "%s: function '%s' names unknown family '%s'", origin, p->fn->name,
               p->family);
      c.failed = 1;
    } else if (!p->is_free) {
      p->fn->family = fam;
    } else if (p->fn->nfrees < GM_MAX_FREES) {
      p->fn->frees[p->fn->nfrees++] = fam;
    }
  }
  for (size_t i = 0; i < c.pending.len; i++)
    free(c.pending.items[i].family);
  GM_VEC_FREE(c.pending);
  for (unsigned b = 0; b < TABLE_BUCKETS && !c.failed; b++)
    for (struct entry *e = t->buckets[b]; e; e = e->next)
      if ((e->fn.kind == GM_FN_ALLOC || e->fn.kind == GM_FN_REALLOC) && !e->fn.family) {
        snprintf(err, errlen, "%s: [alloc %s] has no family", origin, e->fn.name);
        c.failed = 1;
        break;
      }
  if (enable)
    *enable = gm_sb_take(&c.enable);
  else
    free(c.enable.data);
  if (disable)
    *disable = gm_sb_take(&c.disable);
  else
    free(c.disable.data);
  if (c.failed) {
    gm_table_free(t);
    return NULL;
  }
  return t;
}

static gm_table *builtin;

static void parse_builtin(void) {
  char err[1024];
  builtin =
      parse_into(NULL, gm_families_ini, "rules/families.ini", err, sizeof err, NULL, NULL, NULL);
  if (!builtin) {
    fprintf(stderr, GM_PROGRAM ": internal error: %s\n", err);
    abort();
  }
}

/* Workers may be the first to ask (the join's and the report's readers do): parse it once. */
const gm_table *gm_table_builtin(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, parse_builtin);
  return builtin;
}

gm_table *gm_table_extend(const gm_table *base, const char *text, const char *origin, char *err,
                          size_t errlen, char **enable, char **disable, gm_thresholds *thresholds) {
  return parse_into(base, text, origin, err, errlen, enable, disable, thresholds);
}

void gm_table_free(gm_table *t) {
  if (!t)
    return;
  for (unsigned b = 0; b < TABLE_BUCKETS; b++)
    for (struct entry *e = t->buckets[b], *n; e; e = n) {
      n = e->next;
      free(e);
    }
  for (struct fam_entry *f = t->families, *n; f; f = n) {
    n = f->next;
    free(f);
  }
  GM_VEC_FREE(t->prefixes);
  GM_VEC_FREE(t->status_calls);
  for (size_t i = 0; i < t->strings.len; i++)
    free(t->strings.items[i]);
  GM_VEC_FREE(t->strings);
  free(t);
}
