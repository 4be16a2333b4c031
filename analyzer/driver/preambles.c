/* The driver's plan of shared preambles (preambles.h): a trie of the files' leading includes per
 * set of flags, the runs that enough files share chosen bottom up, and the queue the workers take
 * builds and parses from. */
#include "driver/preambles.h"

#include "driver/cache.h"
#include "frontend/pch_store.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void preamble_store_open(const gm_options *opt) {
  if (opt->pch == GM_PCH_NEVER || opt->no_pch_store || opt->verify)
    return;
  char *dir = gm_cache_dir(opt);
  if (!dir)
    return;
  char *store = gm_xasprintf("%s/preambles", dir);
  uint64_t identity[2];
  gm_cache_identity(identity);
  gm_pch_store_open(store, identity, opt->pch_store_max);
  free(store);
  free(dir);
}

void preamble_store_close(const gm_options *opt) {
  gm_pch_store_close(opt->cache_stats ? stderr : NULL);
}

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
  size_t ends;           /* files whose whole run it is */
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

/* What the plan knows of one header of the runs of a set of flags: how many files include it,
 * its rank and whether it may be moved, each found once (the files share the flags). */
typedef struct header_info {
  const char *header;
  size_t files;
  int rank; /* header_class */
  int movable;
} header_info;
typedef GM_VEC(header_info) header_infos;

static header_info *info_of(header_infos *infos, const char *h) {
  for (size_t i = 0; i < infos->len; i++)
    if (strcmp(infos->items[i].header, h) == 0)
      return &infos->items[i];
  return NULL;
}

/* Whether a comes before b in a canonical run. */
static int comes_before(const header_info *a, const header_info *b) {
  if (a->rank != b->rank)
    return a->rank < b->rank;
  if (a->files != b->files)
    return a->files > b->files;
  return strcmp(a->header, b->header) < 0;
}

/* The order a file's run is entered in the trie: its own, when a header of it is not movable;
 * otherwise each header once, canonically (a preamble then holds some of the file's headers in
 * another order, never one it does not include). */
static size_t run_order(const preamble_file *f, header_infos *infos, const char **order) {
  const header_info **ranked = gm_xcalloc(f->run->n + 1, sizeof *ranked);
  size_t n = 0;
  for (size_t h = 0; h < f->run->n; h++) {
    const header_info *in = info_of(infos, f->run->headers[h]);
    if (!in->movable) {
      free(ranked);
      for (size_t i = 0; i < f->run->n; i++)
        order[i] = f->run->headers[i];
      return f->run->n;
    }
    int seen = 0;
    for (size_t i = 0; i < n && !seen; i++)
      seen = ranked[i] == in;
    if (seen)
      continue;
    size_t at = n++;
    for (; at > 0 && !comes_before(ranked[at - 1], in); at--) /* insertion: few headers */
      ranked[at] = ranked[at - 1];
    ranked[at] = in;
  }
  for (size_t i = 0; i < n; i++)
    order[i] = ranked[i]->header;
  free(ranked);
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
  header_infos infos = {0};
  for (size_t k = 0; k < n; k++) {
    const preamble_file *f = &files[which[k]];
    if (done[k] || !same_flags(f, first))
      continue;
    done[k] = mine[k] = 1;
    for (size_t h = 0; h < f->run->n; h++) {
      int again = 0; /* a file counts once for a header */
      for (size_t i = 0; i < h && !again; i++)
        again = strcmp(f->run->headers[i], f->run->headers[h]) == 0;
      const char *name = f->run->headers[h];
      header_info *in = info_of(&infos, name);
      if (!in) {
        GM_PUSH(infos, ((header_info){name, 0, header_class(name), movable(f, name)}));
        in = &infos.items[infos.len - 1];
      }
      in->files += !again;
    }
  }
  for (size_t k = 0; k < n; k++) {
    if (!mine[k])
      continue;
    const preamble_file *f = &files[which[k]];
    const char **order = gm_xcalloc(f->run->n + 1, sizeof *order);
    size_t len = run_order(f, &infos, order), at = 0;
    for (size_t h = 0; h < len; h++)
      at = child_of(&t, at, order[h]);
    free(order);
    leaf[k] = at;
    t.items[at].unserved++;
    t.items[at].ends++;
  }
  GM_VEC_FREE(infos);
  t.items[0].pch = gm_pch_get((const char *const *)first->args, first->nargs, NULL, 0, NULL);
  add_build(q, t.items[0].pch);
  /* bottom up: a run shared by enough files that no deeper chosen run serves is chosen; with
   * the store, a file's whole run too, which later runs then take ready-made */
  int kept = gm_pch_store_enabled();
  for (size_t i = t.len - 1; i > 0; i--) {
    if (t.items[i].unserved >= PREAMBLE_MIN_SHARE || (kept && t.items[i].ends))
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
