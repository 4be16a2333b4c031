/* The driver's plan of shared preambles (preambles.h): a trie of the files' leading includes per
 * set of flags, the runs that enough files share chosen bottom up, and the queue the workers take
 * builds and parses from. */
#include "driver/preambles.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void parse_queue_init(parse_queue *q, size_t n) {
  memset(q, 0, sizeof *q);
  q->n = n;
  q->pch = gm_xcalloc(n + 1, sizeof *q->pch);
  q->taken = gm_xcalloc(n + 1, 1);
}

void parse_queue_free(parse_queue *q) {
  free(q->pch);
  free(q->taken);
  GM_VEC_FREE(q->builds);
}

static void add_build(parse_queue *q, gm_preamble *p) {
  for (size_t i = 0; i < q->builds.len; i++)
    if (q->builds.items[i] == p)
      return;
  GM_PUSH(q->builds, p);
}

/* A node of the trie: the run of includes from the root to it. Children come after their parent
 * in the array, so walking it backwards visits every child before its parent. */
typedef struct node {
  const char *header; /* the last include of its run */
  size_t parent, depth;
  size_t child, sibling; /* first child, next sibling; 0: none (the root is never either) */
  size_t unserved;       /* files whose run passes here that no deeper chosen run serves */
  int chosen;
  gm_preamble *pch; /* chosen (or the root): its preamble */
} node;

typedef GM_VEC(node) node_vec;

static size_t child_of(node_vec *t, size_t at, const char *header) {
  for (size_t c = t->items[at].child; c; c = t->items[c].sibling)
    if (strcmp(t->items[c].header, header) == 0)
      return c;
  node n = {.header = header,
            .parent = at,
            .depth = t->items[at].depth + 1,
            .sibling = t->items[at].child};
  GM_PUSH(*t, n);
  t->items[at].child = t->len - 1;
  return t->len - 1;
}

static int same_flags(const preamble_file *a, const preamble_file *b) {
  if (a->nargs != b->nargs)
    return 0;
  for (int i = 0; i < a->nargs; i++)
    if (strcmp(a->args[i], b->args[i]) != 0)
      return 0;
  return 1;
}

/* The preamble of a chosen node: its run, built on the nearest chosen node above it. */
static gm_preamble *make_preamble(const node_vec *t, size_t i, const preamble_file *f) {
  size_t depth = t->items[i].depth, below = t->items[i].parent;
  while (below && !t->items[below].chosen)
    below = t->items[below].parent;
  char **headers = gm_xcalloc(depth + 1, sizeof(char *));
  for (size_t at = i; at; at = t->items[at].parent)
    headers[t->items[at].depth - 1] = (char *)t->items[at].header;
  gm_preamble *p =
      gm_pch_get((const char *const *)f->args, f->nargs, headers, depth, t->items[below].pch);
  free(headers);
  return p;
}

/* Whether a header may be moved within a file's run: not when one of the flags' own include
 * directories (-I, -isystem, -idirafter, outside the CUDA toolkit) holds it, since a project's
 * or a third party's headers may depend on the order they come in. The C and C++ standards let
 * their headers be included in any order, and the toolkit's (cub, thrust, libcu++) are written
 * to be: those are what a file's run holds otherwise. */
static int movable(const preamble_file *f, const char *header) {
  const char *cuda = "";
  for (int i = 0; i < f->nargs; i++)
    if (strncmp(f->args[i], "--cuda-path=", 12) == 0)
      cuda = f->args[i] + 12;
  static const char *const dir_flags[] = {"-I", "-isystem", "-idirafter", "--include-directory="};
  for (int i = 0; i < f->nargs; i++)
    for (size_t k = 0; k < sizeof dir_flags / sizeof *dir_flags; k++) {
      size_t n = strlen(dir_flags[k]);
      if (strncmp(f->args[i], dir_flags[k], n) != 0)
        continue;
      const char *d = f->args[i][n] ? f->args[i] + n : i + 1 < f->nargs ? f->args[i + 1] : "";
      if (!*d || (*cuda && strncmp(d, cuda, strlen(cuda)) == 0))
        continue;
      char *path = gm_xasprintf("%s/%s", d, header);
      int there = access(path, F_OK) == 0;
      free(path);
      if (there)
        return 0;
    }
  return 1;
}

/* The rank of a header in a canonical run: the headers of a library's own directory (cub/,
 * thrust/, cuda/: seconds of parse each) first, then the C++ library's (no extension: <chrono>,
 * <iostream>, tenths of a second), then the C and CUDA C headers (milliseconds, or in the CUDA
 * base already); in each, the headers more files include first. Runs that hold the same headers
 * in other orders then begin alike, and the costly ones are shared first. */
static int header_class(const char *h) {
  size_t n = strlen(h);
  int ext = n > 4 && (strcmp(h + n - 4, ".cuh") == 0 || strcmp(h + n - 4, ".hpp") == 0);
  if (ext || (strchr(h, '/') && strncmp(h, "sys/", 4) != 0 && strncmp(h, "bits/", 5) != 0))
    return 0;
  return strchr(h, '.') ? 2 : 1;
}

typedef struct header_count {
  const char *header;
  size_t files;
} header_count;
typedef GM_VEC(header_count) header_counts;

static size_t files_including(const header_counts *counts, const char *h) {
  for (size_t i = 0; i < counts->len; i++)
    if (strcmp(counts->items[i].header, h) == 0)
      return counts->items[i].files;
  return 0;
}

/* The order a file's run is entered in the trie: its own, when a header of it is not movable;
 * otherwise each header once, canonically (a preamble then holds some of the file's headers in
 * another order, never one it does not include). */
static size_t run_order(const preamble_file *f, const header_counts *counts, const char **order) {
  size_t n = 0;
  for (size_t h = 0; h < f->run->n; h++)
    if (!movable(f, f->run->headers[h])) {
      for (size_t i = 0; i < f->run->n; i++)
        order[i] = f->run->headers[i];
      return f->run->n;
    }
  for (size_t h = 0; h < f->run->n; h++) {
    const char *name = f->run->headers[h];
    int seen = 0;
    for (size_t i = 0; i < n && !seen; i++)
      seen = strcmp(order[i], name) == 0;
    if (seen)
      continue;
    int cls = header_class(name);
    size_t files = files_including(counts, name);
    size_t at = n++;
    for (; at > 0; at--) { /* insertion: few headers */
      const char *o = order[at - 1];
      int oc = header_class(o);
      size_t of = files_including(counts, o);
      if (oc < cls || (oc == cls && (of > files || (of == files && strcmp(o, name) < 0))))
        break;
      order[at] = o;
    }
    order[at] = name;
  }
  return n;
}

/* Plans the files of `which` that have files[which[0]]'s flags, marking them done. */
static void plan_flags(parse_queue *q, const preamble_file *files, const size_t *which, size_t n,
                       char *done) {
  const preamble_file *first = &files[which[0]];
  node_vec t = {0};
  GM_PUSH(t, ((node){0}));
  size_t *leaf = gm_xcalloc(n + 1, sizeof *leaf);
  char *mine = gm_xcalloc(n + 1, 1);
  header_counts counts = {0};
  for (size_t k = 0; k < n; k++) {
    const preamble_file *f = &files[which[k]];
    if (done[k] || !same_flags(f, first))
      continue;
    done[k] = mine[k] = 1;
    for (size_t h = 0; h < f->run->n; h++) {
      int again = 0; /* a file counts once for a header */
      for (size_t i = 0; i < h && !again; i++)
        again = strcmp(f->run->headers[i], f->run->headers[h]) == 0;
      size_t c = 0;
      while (c < counts.len && strcmp(counts.items[c].header, f->run->headers[h]) != 0)
        c++;
      if (c == counts.len)
        GM_PUSH(counts, ((header_count){f->run->headers[h], 0}));
      counts.items[c].files += !again;
    }
  }
  for (size_t k = 0; k < n; k++) {
    if (!mine[k])
      continue;
    const preamble_file *f = &files[which[k]];
    const char **order = gm_xcalloc(f->run->n + 1, sizeof *order);
    size_t len = run_order(f, &counts, order), at = 0;
    for (size_t h = 0; h < len; h++)
      at = child_of(&t, at, order[h]);
    free(order);
    leaf[k] = at;
    t.items[at].unserved++;
  }
  GM_VEC_FREE(counts);
  t.items[0].pch = gm_pch_get((const char *const *)first->args, first->nargs, NULL, 0, NULL);
  add_build(q, t.items[0].pch);
  /* bottom up: a run shared by enough files that no deeper chosen run serves is chosen */
  for (size_t i = t.len - 1; i > 0; i--) {
    if (t.items[i].unserved >= PREAMBLE_MIN_SHARE)
      t.items[i].chosen = 1;
    else
      t.items[t.items[i].parent].unserved += t.items[i].unserved;
  }
  /* top down, so that the preamble below each is made first */
  for (size_t i = 1; i < t.len; i++)
    if (t.items[i].chosen) {
      t.items[i].pch = make_preamble(&t, i, first);
      add_build(q, t.items[i].pch);
    }
  for (size_t k = 0; k < n; k++) {
    if (!mine[k])
      continue;
    size_t at = leaf[k];
    while (at && !t.items[at].chosen)
      at = t.items[at].parent;
    q->pch[which[k]] = t.items[at].pch;
  }
  free(mine);
  free(leaf);
  GM_VEC_FREE(t);
}

void parse_queue_plan(parse_queue *q, const preamble_file *files, const size_t *which, size_t n) {
  char *done = gm_xcalloc(n + 1, 1);
  for (size_t k = 0; k < n; k++)
    if (!done[k])
      plan_flags(q, files, which + k, n - k, done + k);
  free(done);
}

enum parse_task parse_queue_next(parse_queue *q, size_t *file, gm_preamble **pch) {
  for (size_t i = 0; i < q->builds.len; i++)
    if (gm_pch_claim(q->builds.items[i])) {
      *pch = q->builds.items[i];
      return TASK_BUILD;
    }
  while (q->first < q->n && q->taken[q->first])
    q->first++;
  int waiting = 0;
  for (size_t i = q->first; i < q->n; i++) {
    if (q->taken[i])
      continue;
    gm_preamble *p = q->pch[i];
    while (p && gm_pch_state_of(p) == GM_PCH_FAILED)
      p = gm_pch_below(p);
    if (!p || gm_pch_state_of(p) == GM_PCH_READY) {
      q->taken[i] = 1;
      *file = i;
      *pch = p;
      return TASK_PARSE;
    }
    waiting = 1;
  }
  return waiting ? TASK_WAIT : TASK_DONE;
}
