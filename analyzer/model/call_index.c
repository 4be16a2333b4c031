/* Who calls each function of a file, indexed once per file: a rule that asks where a function is
 * called looks the answer up instead of walking every body for each question. */
#include "model/model.h"
#include "model/patterns.h"

#include <stdlib.h>
#include <string.h>

struct collect {
  GM_VEC(gm_call_site) sites;
  int func;
  unsigned char *switches; /* per function: it makes a device current itself */
};

static void collect_call(const gm_node *n, void *arg) {
  struct collect *c = arg;
  if (gm_call_switches_device(n))
    c->switches[c->func] = 1;
  if (n->kind == GM_N_CALL && n->callee_usr) {
    gm_call_site site = {n->callee_usr, c->func, n};
    GM_PUSH(c->sites, site);
  }
}

/* By callee; collection order (caller index, then gm_walk order) is kept within one callee, so a
 * search that takes the first match finds the one a walk over the bodies would. */
struct ordered_site {
  gm_call_site site;
  size_t order;
};

static int site_cmp(const void *a, const void *b) {
  const struct ordered_site *x = a, *y = b;
  int c = strcmp(x->site.callee_usr, y->site.callee_usr);
  if (c)
    return c;
  return (x->order > y->order) - (x->order < y->order);
}

static void mark_device_wrappers(gm_tu *tu, const unsigned char *switches);

void gm_tu_index_calls(gm_tu *tu) {
  struct collect c = {{0}, 0, gm_xcalloc((size_t)tu->nfuncs + 1, 1)};
  for (c.func = 0; c.func < tu->nfuncs; c.func++)
    gm_walk(tu->funcs[c.func]->body, collect_call, &c);
  tu->ncalls = c.sites.len;
  tu->calls = gm_arena_alloc(tu->arena, sizeof(gm_call_site) * (c.sites.len ? c.sites.len : 1));
  if (c.sites.len) {
    struct ordered_site *sorted = gm_xcalloc(c.sites.len, sizeof *sorted);
    for (size_t i = 0; i < c.sites.len; i++)
      sorted[i] = (struct ordered_site){c.sites.items[i], i};
    qsort(sorted, c.sites.len, sizeof *sorted, site_cmp);
    for (size_t i = 0; i < c.sites.len; i++)
      tu->calls[i] = sorted[i].site;
    free(sorted);
  }
  GM_VEC_FREE(c.sites);
  mark_device_wrappers(tu, c.switches);
  free(c.switches);
}

/* A call of a function that itself makes a device current (`select_gpu(d)` wrapping
 * cudaSetDevice) selects a device as well: one level of wrapper, within the file (the calls are
 * marked after every body was walked, so a wrapper of a wrapper is not one). */
static void mark_device_wrappers(gm_tu *tu, const unsigned char *switches) {
  for (int i = 0; i < tu->nfuncs; i++) {
    const gm_func *f = tu->funcs[i];
    if (!f->usr || !switches[i])
      continue;
    size_t n;
    const gm_call_site *sites = gm_calls_to(tu, f->usr, &n);
    for (size_t k = 0; sites && k < n; k++)
      ((gm_node *)sites[k].call)->selects_device = 1; /* the file's own node, built here */
  }
}

const gm_call_site *gm_calls_to(const gm_tu *tu, const char *usr, size_t *n) {
  size_t lo = 0, hi = tu->ncalls;
  if (!tu->calls) {
    *n = 0;
    return NULL;
  }
  while (lo < hi) { /* the first site whose callee is not before usr */
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(tu->calls[mid].callee_usr, usr) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  size_t end = lo;
  while (end < tu->ncalls && strcmp(tu->calls[end].callee_usr, usr) == 0)
    end++;
  *n = end - lo;
  return tu->calls + lo;
}

const gm_loc *gm_tu_included_at(const gm_tu *tu, const char *file) {
  if (!file)
    return NULL;
  for (size_t i = 0; i < tu->ninclude_sites; i++)
    if (strcmp(tu->include_sites[i].file, file) == 0)
      return &tu->include_sites[i].at;
  return NULL;
}
