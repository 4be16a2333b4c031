/* Joins unit summaries into the program (program.h): a sorted function index and the members. */
#include "program/program.h"

#include <stdlib.h>
#include <string.h>

typedef struct func_ref {
  const gm_unit_func *func;
  size_t unit;
} func_ref;

typedef struct summary_ref {
  const gm_call_summary *summary;
  size_t unit;
} summary_ref;

typedef struct gm_program_index {
  func_ref *funcs;
  size_t nfuncs;
  summary_ref *summaries; /* by USR */
  size_t nsummaries;
  summary_ref *helpers; /* headers' helpers that fill or free through a parameter, by USR */
  size_t nhelpers;
  gm_member_summary *members; /* every member used, by record and member */
  size_t nmembers;
  gm_member_summary *allocated; /* those allocated into: pointers into members */
  size_t nallocated;
  const gm_unit_edge **edges; /* calls between the program's functions */
  size_t nedges;
  /* for gm_program_freed_global_sibling, which asks of each global who else a function
   * allocates and who calls it: each a binary search, not a scan of every member and edge */
  struct global_alloc *freed_allocs; /* into globals freed somewhere, by function and place */
  size_t nfreed_allocs;
  struct global_alloc *global_allocs; /* into any global, in a known file, by function */
  size_t nglobal_allocs;
  struct edge_ref *by_caller, *by_callee; /* the edges by caller or callee USR, then in order */
  gm_unit_member_use *through_helpers;    /* uses made of address handoffs to helpers (below) */
  const gm_unit_teardown **teardowns;     /* by record */
  size_t nteardowns;
  const char **some_calls; /* functions called under a branch somewhere, sorted */
  size_t nsome_calls;
} gm_program_index;

/* An allocation into a global: members[member] of the index. */
typedef struct global_alloc {
  const gm_unit_member_use *use;
  size_t unit, member;
} global_alloc;

typedef struct edge_ref {
  const gm_unit_edge *edge;
  size_t order; /* in edges */
  /* by_caller: the file holding all the caller's calls, NULL when they are in several */
  const char *caller_file;
} edge_ref;

static int func_cmp(const void *a, const void *b) {
  const func_ref *x = a, *y = b;
  int c = strcmp(x->func->usr, y->func->usr);
  if (c)
    return c;
  return x->unit < y->unit ? -1 : x->unit > y->unit;
}

static int summary_cmp(const void *a, const void *b) {
  const summary_ref *x = a, *y = b;
  int c = strcmp(x->summary->usr, y->summary->usr);
  if (c)
    return c;
  return x->unit < y->unit ? -1 : x->unit > y->unit;
}

typedef struct use_ref {
  const gm_unit_member_use *use;
  size_t unit;
} use_ref;

static int loc_cmp(gm_loc a, gm_loc b) {
  int c = strcmp(a.file ? a.file : "", b.file ? b.file : "");
  if (c)
    return c;
  if (a.line != b.line)
    return a.line < b.line ? -1 : 1;
  return a.col < b.col ? -1 : a.col > b.col;
}

static int use_cmp(const void *a, const void *b) {
  const use_ref *x = a, *y = b;
  int c = strcmp(x->use->record, y->use->record);
  if (!c)
    c = strcmp(x->use->member, y->use->member);
  if (!c)
    c = loc_cmp(x->use->loc, y->use->loc);
  if (!c)
    c = (int)x->use->kind - (int)y->use->kind;
  if (!c)
    c = x->unit < y->unit ? -1 : x->unit > y->unit;
  return c;
}

static int same_use(const use_ref *a, const use_ref *b) {
  return strcmp(a->use->record, b->use->record) == 0 &&
         strcmp(a->use->member, b->use->member) == 0 && loc_cmp(a->use->loc, b->use->loc) == 0 &&
         a->use->kind == b->use->kind;
}

/* The summary with this USR in a unit other than `except`, among those sorted by USR. */
static const gm_call_summary *find_summary(const summary_ref *refs, size_t n, const char *usr,
                                           size_t except) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(refs[mid].summary->usr, usr) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (; lo < n && strcmp(refs[lo].summary->usr, usr) == 0; lo++)
    if (refs[lo].unit != except)
      return refs[lo].summary;
  return NULL;
}

/* A handoff to a function of the program that only borrows that argument is a read. */
static int handoff_borrowed(const gm_program_index *ix, const gm_unit_member_use *u) {
  if (!u->via_usr || u->via_arg < 0 || u->via_addr)
    return 0; /* a helper given the member's address may store through it */
  const gm_call_summary *s = find_summary(ix->summaries, ix->nsummaries, u->via_usr, GM_ANY_UNIT);
  return s && u->via_arg < s->nparams && s->params[u->via_arg].effect == GM_PARAM_BORROWS;
}

/* A family by name, as some unit words it (the helper's file has it, or a file that allocates
 * from it directly); NULL when none does. */
static const gm_unit_family *family_named(const gm_program *p, const char *name) {
  for (size_t i = 0; name && i < p->nunits; i++)
    for (size_t k = 0; p->units[i] && k < p->units[i]->families.len; k++)
      if (strcmp(p->units[i]->families.items[k].name, name) == 0)
        return &p->units[i]->families.items[k];
  return NULL;
}

/* A member's address handed to a helper (`dev_alloc((void **)&s->buf, n)`) whose summary says it
 * allocates through that parameter on every path, or frees what it points to: the allocation or
 * free the helper makes, at the helper's call and named by it, as if it were the table's call
 * (*out filled in); 0 when the helper does something else with it (a handoff). */
static int through_helper(const gm_program *p, const gm_unit_member_use *u,
                          gm_unit_member_use *out) {
  if (!u->via_addr || !u->via_usr || u->via_arg < 0)
    return 0;
  const gm_program_index *ix = p->index;
  const gm_call_summary *s = find_summary(ix->summaries, ix->nsummaries, u->via_usr, GM_ANY_UNIT);
  if (!s)
    s = find_summary(ix->helpers, ix->nhelpers, u->via_usr, GM_ANY_UNIT);
  if (!s || u->via_arg >= s->nparams)
    return 0;
  const gm_param_summary *ps = &s->params[u->via_arg];
  *out = *u;
  if (ps->effect == GM_PARAM_OUT_ALLOC) {
    const gm_unit_family *f = family_named(p, ps->family);
    if (!f)
      return 0;
    out->kind = GM_MEMBER_ALLOC;
    out->family = *f;
    return 1;
  }
  if (ps->effect == GM_PARAM_FREES_DEREF) {
    out->kind = GM_MEMBER_FREE;
    out->nfrees = 0;
    for (int k = 0; k < ps->nfrees && k < 8; k++)
      out->frees[out->nfrees++] = ps->frees[k];
    return 1;
  }
  return 0;
}

static int same_file(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "") == 0;
}

/* By function, then place (file first, as loc_cmp), then member: the first entry of a function in
 * a file is the allocation a reader meets first, and of two at one place the first member. */
static int global_alloc_cmp(const void *a, const void *b) {
  const global_alloc *x = a, *y = b;
  int c = strcmp(x->use->function_usr, y->use->function_usr);
  if (!c)
    c = loc_cmp(x->use->loc, y->use->loc);
  if (!c)
    c = x->member < y->member ? -1 : x->member > y->member;
  return c;
}

/* An entry against a function (and a file, when by_file): below, at or above it. */
static int global_alloc_key(const global_alloc *x, const char *usr, const char *file, int by_file) {
  int c = strcmp(x->use->function_usr, usr);
  if (!c && by_file)
    c = strcmp(x->use->loc.file ? x->use->loc.file : "", file ? file : "");
  return c;
}

/* The first of the sorted allocations at the key (n when there is none). */
static size_t global_allocs_at(const global_alloc *a, size_t n, const char *usr, const char *file,
                               int by_file) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (global_alloc_key(&a[mid], usr, file, by_file) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static int by_caller_cmp(const void *a, const void *b) {
  const edge_ref *x = a, *y = b;
  int c = strcmp(x->edge->caller_usr, y->edge->caller_usr);
  return c ? c : (x->order < y->order ? -1 : x->order > y->order);
}

static int by_callee_cmp(const void *a, const void *b) {
  const edge_ref *x = a, *y = b;
  int c = strcmp(x->edge->usr, y->edge->usr);
  return c ? c : (x->order < y->order ? -1 : x->order > y->order);
}

/* The first edge whose caller (or callee) is usr, among the sorted refs (n when there is none). */
static size_t edges_at(const edge_ref *refs, size_t n, const char *usr, int by_caller) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const gm_unit_edge *e = refs[mid].edge;
    if (strcmp(by_caller ? e->caller_usr : e->usr, usr) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Fills the lists gm_program_freed_global_sibling searches, once the members are final. */
static void index_global_allocs(gm_program_index *ix) {
  GM_VEC(global_alloc) freed = {0}, all = {0};
  for (size_t i = 0; i < ix->nmembers; i++) {
    const gm_member_summary *m = &ix->members[i];
    for (size_t k = 0; m->global && k < m->allocs.len; k++) {
      global_alloc a = {m->allocs.items[k].use, m->allocs.items[k].unit, i};
      if (!a.use->function_usr)
        continue;
      if (a.use->loc.file)
        GM_PUSH(all, a);
      if (m->frees.len && !m->defined_twice)
        GM_PUSH(freed, a);
    }
  }
  if (freed.len)
    qsort(freed.items, freed.len, sizeof *freed.items, global_alloc_cmp);
  if (all.len)
    qsort(all.items, all.len, sizeof *all.items, global_alloc_cmp);
  ix->freed_allocs = freed.items;
  ix->nfreed_allocs = freed.len;
  ix->global_allocs = all.items;
  ix->nglobal_allocs = all.len;
  ix->by_caller = gm_xmalloc(sizeof(edge_ref) * (ix->nedges + 1));
  ix->by_callee = gm_xmalloc(sizeof(edge_ref) * (ix->nedges + 1));
  for (size_t k = 0; k < ix->nedges; k++)
    ix->by_caller[k] = ix->by_callee[k] = (edge_ref){ix->edges[k], k, NULL};
  if (ix->nedges) {
    qsort(ix->by_caller, ix->nedges, sizeof(edge_ref), by_caller_cmp);
    qsort(ix->by_callee, ix->nedges, sizeof(edge_ref), by_callee_cmp);
  }
  for (size_t first = 0, end; first < ix->nedges; first = end) {
    const char *caller = ix->by_caller[first].edge->caller_usr, *file = NULL;
    for (end = first; end < ix->nedges && strcmp(ix->by_caller[end].edge->caller_usr, caller) == 0;
         end++) {
      const char *at = ix->by_caller[end].edge->loc.file;
      file = end == first || (file && at && same_file(file, at)) ? at : NULL;
    }
    for (size_t k = first; k < end; k++)
      ix->by_caller[k].caller_file = file;
  }
}

static int teardown_cmp(const void *a, const void *b) {
  const gm_unit_teardown *x = *(const gm_unit_teardown *const *)a,
                         *y = *(const gm_unit_teardown *const *)b;
  return strcmp(x->record, y->record);
}

static int str_cmp(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The destructors by class, and the functions called under a branch. */
static void index_teardowns(gm_program *p, gm_program_index *ix) {
  GM_VEC(const gm_unit_teardown *) t = {0};
  GM_VEC(const char *) some = {0};
  for (size_t i = 0; i < p->nunits; i++) {
    const gm_unit *u = p->units[i];
    for (size_t k = 0; u && k < u->teardowns.len; k++)
      GM_PUSH(t, &u->teardowns.items[k]);
    for (size_t k = 0; u && k < u->funcs.len; k++)
      for (size_t c = 0; c < u->funcs.items[k].calls.len; c++)
        if (u->funcs.items[k].calls.items[c].conditional)
          GM_PUSH(some, u->funcs.items[k].calls.items[c].usr);
  }
  if (t.len)
    qsort(t.items, t.len, sizeof *t.items, teardown_cmp);
  if (some.len)
    qsort(some.items, some.len, sizeof *some.items, str_cmp);
  ix->teardowns = t.items;
  ix->nteardowns = t.len;
  ix->some_calls = some.items;
  ix->nsome_calls = some.len;
}

void gm_program_join(gm_program *p) {
  gm_program_index *ix = gm_xcalloc(1, sizeof *ix);
  GM_VEC(func_ref) funcs = {0};
  GM_VEC(use_ref) uses = {0};
  GM_VEC(summary_ref) summaries = {0}, helpers = {0};
  GM_VEC(const gm_unit_edge *) edges = {0};
  for (size_t i = 0; i < p->nunits; i++) {
    const gm_unit *u = p->units[i];
    if (!u)
      continue;
    for (size_t k = 0; k < u->edges.len; k++)
      GM_PUSH(edges, &u->edges.items[k]);
    for (size_t k = 0; k < u->funcs.len; k++)
      GM_PUSH(funcs, ((func_ref){&u->funcs.items[k], i}));
    for (size_t k = 0; k < u->members.len; k++)
      GM_PUSH(uses, ((use_ref){&u->members.items[k], i}));
    for (size_t k = 0; k < u->summaries.len; k++)
      GM_PUSH(summaries, ((summary_ref){&u->summaries.items[k], i}));
    for (size_t k = 0; k < u->helper_summaries.len; k++)
      GM_PUSH(helpers, ((summary_ref){&u->helper_summaries.items[k], i}));
  }
  if (summaries.len)
    qsort(summaries.items, summaries.len, sizeof *summaries.items, summary_cmp);
  ix->summaries = summaries.items;
  ix->nsummaries = summaries.len;
  if (helpers.len)
    qsort(helpers.items, helpers.len, sizeof *helpers.items, summary_cmp);
  ix->helpers = helpers.items;
  ix->nhelpers = helpers.len;
  if (funcs.len)
    qsort(funcs.items, funcs.len, sizeof *funcs.items, func_cmp);
  ix->funcs = funcs.items;
  ix->nfuncs = funcs.len;
  /* a header's function is summarised by every file that includes it: keep one of each use */
  if (uses.len)
    qsort(uses.items, uses.len, sizeof *uses.items, use_cmp);
  size_t w = 0;
  for (size_t i = 0; i < uses.len; i++)
    if (!w || !same_use(&uses.items[w - 1], &uses.items[i]))
      uses.items[w++] = uses.items[i];
  uses.len = w;
  GM_VEC(gm_member_summary) members = {0};
  p->index = ix; /* for through_helper's summary lookups */
  ix->through_helpers = gm_xcalloc(uses.len + 1, sizeof *ix->through_helpers);
  size_t nthrough = 0;
  for (size_t i = 0; i < uses.len; i++) {
    const gm_unit_member_use *u = uses.items[i].use;
    if (through_helper(p, u, &ix->through_helpers[nthrough]))
      u = &ix->through_helpers[nthrough++];
    gm_member_summary *m = members.len ? &members.items[members.len - 1] : NULL;
    if (!m || strcmp(m->record, u->record) != 0 || strcmp(m->member, u->member) != 0) {
      GM_PUSH(members, ((gm_member_summary){.record = u->record,
                                            .record_name = u->record_name,
                                            .member = u->member,
                                            .global = u->global,
                                            .internal = u->internal}));
      m = &members.items[members.len - 1];
    }
    if (u->defines) {
      if (!m->defined_in)
        m->defined_in = uses.items[i].unit + 1;
      else if (m->defined_in != uses.items[i].unit + 1)
        m->defined_twice = 1;
    }
    gm_member_use_ref ref = {u, uses.items[i].unit};
    if (u->kind == GM_MEMBER_ALLOC)
      GM_PUSH(m->allocs, ref);
    else if (u->kind == GM_MEMBER_FREE) {
      GM_PUSH(m->frees, ref);
      m->freed_every_path |= u->cover == 0;
    } else if (u->kind == GM_MEMBER_ASSIGN)
      m->assigned_other = 1;
    else if (u->kind == GM_MEMBER_ALIAS)
      GM_PUSH(m->aliases, ref);
    else if (!handoff_borrowed(ix, u))
      m->handed_off = 1;
  }
  GM_VEC_FREE(uses);
  /* a table handed on (`release_all(s->bufs)`) takes its elements with it; the members of one
   * record are adjacent, and "bufs" sorts before "bufs[]" */
  for (size_t i = 0; i < members.len; i++) {
    gm_member_summary *m = &members.items[i];
    size_t n = strlen(m->member);
    if (n < 3 || strcmp(m->member + n - 2, "[]") != 0)
      continue;
    for (size_t k = i; k-- > 0 && strcmp(members.items[k].record, m->record) == 0;)
      if (strlen(members.items[k].member) == n - 2 &&
          strncmp(members.items[k].member, m->member, n - 2) == 0)
        m->handed_off |= members.items[k].handed_off;
  }
  ix->members = members.items;
  ix->nmembers = members.len;
  ix->allocated = gm_xcalloc(members.len + 1, sizeof *ix->allocated);
  for (size_t i = 0; i < members.len; i++)
    if (members.items[i].allocs.len)
      ix->allocated[ix->nallocated++] = members.items[i];
  ix->edges = edges.items;
  ix->nedges = edges.len;
  index_global_allocs(ix);
  index_teardowns(p, ix);
  p->index = ix;
}

void gm_program_free(gm_program *p) {
  gm_program_index *ix = p->index;
  if (!ix)
    return;
  for (size_t i = 0; i < ix->nmembers; i++) {
    GM_VEC_FREE(ix->members[i].allocs);
    GM_VEC_FREE(ix->members[i].frees);
    GM_VEC_FREE(ix->members[i].aliases);
  }
  free(ix->members);
  free(ix->allocated);
  free(ix->edges);
  free(ix->freed_allocs);
  free(ix->global_allocs);
  free(ix->by_caller);
  free(ix->by_callee);
  free(ix->through_helpers);
  free(ix->teardowns);
  free(ix->some_calls);
  free(ix->funcs);
  free(ix->summaries);
  free(ix->helpers);
  free(ix);
  p->index = NULL;
}

const gm_unit_func *gm_program_function(const gm_program *p, const char *usr, size_t except,
                                        size_t *unit) {
  const gm_program_index *ix = p->index;
  size_t lo = 0, hi = ix->nfuncs;
  while (lo < hi) { /* the first entry with this USR */
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(ix->funcs[mid].func->usr, usr) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (; lo < ix->nfuncs && strcmp(ix->funcs[lo].func->usr, usr) == 0; lo++)
    if (ix->funcs[lo].unit != except) {
      *unit = ix->funcs[lo].unit;
      return ix->funcs[lo].func;
    }
  return NULL;
}

const gm_call_summary *gm_program_summary(const gm_program *p, const char *usr, size_t except) {
  return find_summary(p->index->summaries, p->index->nsummaries, usr, except);
}

const gm_member_summary *gm_program_members(const gm_program *p, size_t *n) {
  *n = p->index->nallocated;
  return p->index->allocated;
}

const gm_member_summary *gm_program_all_members(const gm_program *p, size_t *n) {
  *n = p->index->nmembers;
  return p->index->members;
}

const gm_member_summary *gm_program_sibling_named(const gm_program *p, const gm_member_summary *m,
                                                  const char *member) {
  const gm_program_index *ix = p->index;
  for (size_t i = 0; i < ix->nmembers; i++)
    if (strcmp(ix->members[i].record, m->record) == 0 && strcmp(ix->members[i].member, member) == 0)
      return &ix->members[i];
  return NULL;
}

/* Whether some free of the member releases what it is allocated with (or it is allocated
 * nowhere): a sibling freed the right way makes the better example. */
static int freed_rightly(const gm_member_summary *s) {
  if (!s->allocs.len)
    return 1;
  for (size_t k = 0; k < s->frees.len; k++)
    for (size_t a = 0; a < s->allocs.len; a++)
      if (gm_member_free_releases(s->frees.items[k].use, s->allocs.items[a].use->family.name))
        return 1;
  return 0;
}

const gm_member_summary *gm_program_freed_sibling(const gm_program *p, const gm_member_summary *m) {
  const gm_program_index *ix = p->index;
  const gm_member_summary *any = NULL;
  for (size_t i = 0; i < ix->nmembers; i++) {
    const gm_member_summary *s = &ix->members[i];
    if (s->frees.len && strcmp(s->record, m->record) == 0 && strcmp(s->member, m->member) != 0) {
      if (freed_rightly(s))
        return s;
      if (!any)
        any = s;
    }
  }
  return any;
}

const gm_member_use_ref *gm_program_sibling_freed_always(const gm_program *p,
                                                         const gm_member_summary *m,
                                                         const char *function_usr) {
  const gm_program_index *ix = p->index;
  for (size_t i = 0; function_usr && i < ix->nmembers; i++) {
    const gm_member_summary *s = &ix->members[i];
    if (!s->freed_every_path || strcmp(s->record, m->record) != 0 ||
        strcmp(s->member, m->member) == 0)
      continue;
    for (size_t k = 0; k < s->frees.len; k++) {
      const gm_unit_member_use *u = s->frees.items[k].use;
      if (u->cover == 0 && u->function_usr && strcmp(u->function_usr, function_usr) == 0)
        return &s->frees.items[k];
    }
  }
  return NULL;
}

/* One body of a function: its file, and the unit that compiled it (GM_ANY_UNIT: any). Two
 * programs linted together may each have their own `init`, and a header's function that
 * allocates into the file's own globals is a body per file that includes it. */
typedef struct body {
  const char *usr, *file;
  size_t unit;
} body;

/* The one body of a function that allocates into globals; 0 when there is none, or several
 * (in several files, or compiled by several units). */
static int function_body(const gm_program_index *ix, const char *function_usr, body *out) {
  *out = (body){function_usr, NULL, GM_ANY_UNIT};
  for (size_t i = global_allocs_at(ix->global_allocs, ix->nglobal_allocs, function_usr, NULL, 0);
       i < ix->nglobal_allocs &&
       global_alloc_key(&ix->global_allocs[i], function_usr, NULL, 0) == 0;
       i++) {
    const global_alloc *r = &ix->global_allocs[i];
    if (out->file && (!same_file(out->file, r->use->loc.file) || out->unit != r->unit))
      return 0;
    out->file = r->use->loc.file;
    out->unit = r->unit;
  }
  return out->file != NULL;
}

/* The file holding a caller's calls, or NULL when they are in several files. */
static const char *caller_file(const gm_program_index *ix, const char *caller_usr) {
  size_t k = edges_at(ix->by_caller, ix->nedges, caller_usr, 1);
  return k < ix->nedges && strcmp(ix->by_caller[k].edge->caller_usr, caller_usr) == 0
             ? ix->by_caller[k].caller_file
             : NULL;
}

/* Of the globals other than m that are freed somewhere, the one allocated first in this
 * function (what a reader meets first; of two at one place, the first member); NULL if none. */
static const gm_member_summary *freed_global_in(const gm_program_index *ix,
                                                const gm_member_summary *m, body in) {
  for (size_t i = global_allocs_at(ix->freed_allocs, ix->nfreed_allocs, in.usr, in.file, 1);
       i < ix->nfreed_allocs && global_alloc_key(&ix->freed_allocs[i], in.usr, in.file, 1) == 0;
       i++) {
    const global_alloc *a = &ix->freed_allocs[i];
    const gm_member_summary *s = &ix->members[a->member];
    if ((in.unit == GM_ANY_UNIT || a->unit == in.unit) &&
        (strcmp(s->record, m->record) != 0 || strcmp(s->member, m->member) != 0))
      return s;
  }
  return NULL;
}

/* A freed sibling the caller allocates itself (`scan() { cudaMalloc(&d_hash[t]); init(t); }`).
 * One its other callees allocate is not taken: a dispatcher that calls every module (a
 * thread's loop over algorithms, a main that sets up a cache and runs a job) sets up nothing of
 * its own, and what it calls need not live and die together. */
static const gm_member_summary *freed_global_under(const gm_program_index *ix,
                                                   const gm_member_summary *m, const char *caller) {
  const char *file = caller_file(ix, caller);
  return file ? freed_global_in(ix, m, (body){caller, file, GM_ANY_UNIT}) : NULL;
}

int gm_program_freed_global_sibling(const gm_program *p, const gm_member_summary *m,
                                    gm_global_sibling *out) {
  const gm_program_index *ix = p->index;
  for (size_t a = 0; a < m->allocs.len; a++) {
    const gm_unit_member_use *at = m->allocs.items[a].use;
    if (!at->function_usr)
      continue;
    const gm_member_summary *s =
        freed_global_in(ix, m, (body){at->function_usr, at->loc.file, m->allocs.items[a].unit});
    if (s) {
      *out = (gm_global_sibling){s, at, NULL};
      return 1;
    }
  }
  for (size_t a = 0; a < m->allocs.len; a++) {
    const gm_unit_member_use *at = m->allocs.items[a].use;
    body home;
    if (!at->function_usr || !function_body(ix, at->function_usr, &home))
      continue;
    for (size_t k = edges_at(ix->by_callee, ix->nedges, at->function_usr, 0);
         k < ix->nedges && strcmp(ix->by_callee[k].edge->usr, at->function_usr) == 0; k++) {
      const gm_unit_edge *e = ix->by_callee[k].edge;
      const gm_member_summary *s = freed_global_under(ix, m, e->caller_usr);
      if (s) {
        *out = (gm_global_sibling){s, at, e};
        return 1;
      }
    }
  }
  return 0;
}

int gm_program_sees_global(const gm_program *p, const gm_member_summary *m) {
  if (m->internal)
    return 1;
  if (m->defined_twice)
    return 0; /* two programs' globals of one name, each used by some of the files */
  for (size_t i = 0; i < p->nunits; i++)
    if (!p->units[i])
      return 0; /* a file with no summary may use it */
  return p->nunits > 1;
}

/* The first destructor whose class USR is record[0..len), or NULL. */
static const gm_unit_teardown *teardown_of(const gm_program_index *ix, const char *record,
                                           size_t len) {
  size_t lo = 0, hi = ix->nteardowns;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const char *t = ix->teardowns[mid]->record;
    int c = strncmp(t, record, len);
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (; lo < ix->nteardowns && strncmp(ix->teardowns[lo]->record, record, len) == 0; lo++)
    if (ix->teardowns[lo]->record[len] == '\0')
      return ix->teardowns[lo];
  return NULL;
}

/* The length of the class USR a member's record names, or 0: the record joins where the class
 * is defined to it (`c:@S@Ws@/a/ws.h:7`, frontend/expr.c), a destructor's is the USR alone. */
static size_t class_usr_len(const char *record) {
  const char *at = strstr(record, "@/");
  if (!at)
    at = strrchr(record, '@');
  return at && at > record ? (size_t)(at - record) : 0;
}

const gm_unit_teardown *gm_program_teardown(const gm_program *p, const char *record) {
  size_t len = class_usr_len(record);
  return len ? teardown_of(p->index, record, len) : NULL;
}

const gm_unit_object *gm_program_object_dying(const gm_program *p, const char *record) {
  size_t len = class_usr_len(record);
  for (size_t i = 0; len && i < p->nunits; i++) {
    const gm_unit *u = p->units[i];
    for (size_t k = 0; u && k < u->objects.len; k++) {
      const char *r = u->objects.items[k].record;
      if (strncmp(r, record, len) == 0 && r[len] == '\0')
        return &u->objects.items[k];
    }
  }
  return NULL;
}

int gm_program_called_on_some_calls(const gm_program *p, const char *usr) {
  const gm_program_index *ix = p->index;
  return usr && ix->nsome_calls &&
         bsearch(&usr, ix->some_calls, ix->nsome_calls, sizeof *ix->some_calls, str_cmp);
}

int gm_member_free_releases(const gm_unit_member_use *free_use, const char *family) {
  for (int i = 0; i < free_use->nfrees; i++)
    if (family && strcmp(free_use->frees[i], family) == 0)
      return 1;
  return 0;
}
