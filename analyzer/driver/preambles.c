/* The driver's plan of shared preambles (preambles.h): a trie of the files' leading includes per
 * set of flags, the runs that enough files share chosen bottom up, and the queue the workers take
 * builds and parses from. */
#include "driver/preambles.h"

#include <stdlib.h>
#include <string.h>

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

/* Plans the files of `which` that have files[which[0]]'s flags, marking them done. */
static void plan_flags(parse_queue *q, const preamble_file *files, const size_t *which, size_t n,
                       char *done) {
  const preamble_file *first = &files[which[0]];
  node_vec t = {0};
  GM_PUSH(t, ((node){0}));
  size_t *leaf = gm_xcalloc(n + 1, sizeof *leaf);
  char *mine = gm_xcalloc(n + 1, 1);
  for (size_t k = 0; k < n; k++) {
    const preamble_file *f = &files[which[k]];
    if (done[k] || !same_flags(f, first))
      continue;
    done[k] = mine[k] = 1;
    size_t at = 0;
    for (size_t h = 0; h < f->run->n; h++)
      at = child_of(&t, at, f->run->headers[h]);
    leaf[k] = at;
    t.items[at].unserved++;
  }
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
