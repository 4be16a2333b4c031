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
  gm_member_summary *members; /* every member used, by record and member */
  size_t nmembers;
  gm_member_summary *allocated; /* those allocated into: pointers into members */
  size_t nallocated;
  const gm_unit_edge **edges; /* calls between the program's functions */
  size_t nedges;
} gm_program_index;

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
  if (!u->via_usr || u->via_arg < 0)
    return 0;
  const gm_call_summary *s = find_summary(ix->summaries, ix->nsummaries, u->via_usr, GM_ANY_UNIT);
  return s && u->via_arg < s->nparams && s->params[u->via_arg].effect == GM_PARAM_BORROWS;
}

void gm_program_join(gm_program *p) {
  gm_program_index *ix = gm_xcalloc(1, sizeof *ix);
  GM_VEC(func_ref) funcs = {0};
  GM_VEC(use_ref) uses = {0};
  GM_VEC(summary_ref) summaries = {0};
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
  }
  if (summaries.len)
    qsort(summaries.items, summaries.len, sizeof *summaries.items, summary_cmp);
  ix->summaries = summaries.items;
  ix->nsummaries = summaries.len;
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
  for (size_t i = 0; i < uses.len; i++) {
    const gm_unit_member_use *u = uses.items[i].use;
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
    else if (u->kind == GM_MEMBER_FREE)
      GM_PUSH(m->frees, ref);
    else if (u->kind == GM_MEMBER_ASSIGN)
      m->assigned_other = 1;
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
  p->index = ix;
}

void gm_program_free(gm_program *p) {
  gm_program_index *ix = p->index;
  if (!ix)
    return;
  for (size_t i = 0; i < ix->nmembers; i++) {
    GM_VEC_FREE(ix->members[i].allocs);
    GM_VEC_FREE(ix->members[i].frees);
  }
  free(ix->members);
  free(ix->allocated);
  free(ix->edges);
  free(ix->funcs);
  free(ix->summaries);
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

const gm_member_summary *gm_program_freed_sibling(const gm_program *p, const gm_member_summary *m) {
  const gm_program_index *ix = p->index;
  for (size_t i = 0; i < ix->nmembers; i++) {
    const gm_member_summary *s = &ix->members[i];
    if (s->frees.len && strcmp(s->record, m->record) == 0 && strcmp(s->member, m->member) != 0)
      return s;
  }
  return NULL;
}

static int same_file(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "") == 0;
}

/* One body of a function: its file, and the unit that compiled it (GM_ANY_UNIT: any). Two
 * programs linted together may each have their own `init`, and a header's function that
 * allocates into the file's own globals is a body per file that includes it. */
typedef struct body {
  const char *usr, *file;
  size_t unit;
} body;

/* Where m is first allocated in this body; NULL when it is not. */
static const gm_unit_member_use *first_alloc_in(const gm_member_summary *m, body in) {
  const gm_unit_member_use *first = NULL;
  for (size_t i = 0; i < m->allocs.len; i++) {
    const gm_unit_member_use *a = m->allocs.items[i].use;
    if (a->function_usr && strcmp(a->function_usr, in.usr) == 0 &&
        same_file(a->loc.file, in.file) &&
        (in.unit == GM_ANY_UNIT || m->allocs.items[i].unit == in.unit) &&
        (!first || loc_cmp(a->loc, first->loc) < 0))
      first = a;
  }
  return first;
}

/* The one body of a function that allocates into globals; 0 when there is none, or several
 * (in several files, or compiled by several units). */
static int function_body(const gm_program_index *ix, const char *function_usr, body *out) {
  *out = (body){function_usr, NULL, GM_ANY_UNIT};
  for (size_t i = 0; i < ix->nmembers; i++)
    for (size_t k = 0; ix->members[i].global && k < ix->members[i].allocs.len; k++) {
      const gm_member_use_ref *r = &ix->members[i].allocs.items[k];
      if (!r->use->function_usr || strcmp(r->use->function_usr, function_usr) != 0 ||
          !r->use->loc.file)
        continue;
      if (out->file && (!same_file(out->file, r->use->loc.file) || out->unit != r->unit))
        return 0;
      out->file = r->use->loc.file;
      out->unit = r->unit;
    }
  return out->file != NULL;
}

/* The file holding a caller's calls, or NULL when they are in several files. */
static const char *caller_file(const gm_program_index *ix, const char *caller_usr) {
  const char *file = NULL;
  for (size_t k = 0; k < ix->nedges; k++) {
    const gm_unit_edge *e = ix->edges[k];
    if (strcmp(e->caller_usr, caller_usr) != 0)
      continue;
    if (!e->loc.file || (file && !same_file(file, e->loc.file)))
      return NULL;
    file = e->loc.file;
  }
  return file;
}

/* Of the globals other than m that are freed somewhere, the one allocated first in this
 * function (what a reader meets first); NULL if none. */
static const gm_member_summary *freed_global_in(const gm_program_index *ix,
                                                const gm_member_summary *m, body in) {
  const gm_member_summary *best = NULL;
  const gm_unit_member_use *best_at = NULL;
  for (size_t i = 0; i < ix->nmembers; i++) {
    const gm_member_summary *s = &ix->members[i];
    if (!s->global || !s->frees.len || s->defined_twice ||
        (strcmp(s->record, m->record) == 0 && strcmp(s->member, m->member) == 0))
      continue;
    const gm_unit_member_use *at = first_alloc_in(s, in);
    if (at && (!best_at || loc_cmp(at->loc, best_at->loc) < 0))
      best = s, best_at = at;
  }
  return best;
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
    for (size_t k = 0; k < ix->nedges; k++) {
      const gm_unit_edge *e = ix->edges[k];
      if (strcmp(e->usr, at->function_usr) != 0)
        continue;
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

int gm_member_free_releases(const gm_unit_member_use *free_use, const char *family) {
  for (int i = 0; i < free_use->nfrees; i++)
    if (family && strcmp(free_use->frees[i], family) == 0)
      return 1;
  return 0;
}
