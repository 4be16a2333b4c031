/* The judges of the PyTorch view: what the steps, the snapshots and the allocator's trace say
 * about one process (thresholds and contracts in torch_verdict.h). */
#include "runtime_view/torch_verdict.h"

#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

/* ---- the trace: when each block was freed ---- */

/* Open addressing from (device, address) to the trace entry of its latest allocation. */
typedef struct addr_map {
  uint64_t *keys; /* key + 1; 0: empty */
  size_t *vals, cap;
} addr_map;

static size_t *slot_of(addr_map *m, uint64_t key) {
  size_t h = (size_t)gm_hash64(&key, sizeof key, 0) & (m->cap - 1);
  while (m->keys[h] && m->keys[h] != key + 1)
    h = (h + 1) & (m->cap - 1);
  if (!m->keys[h]) {
    m->keys[h] = key + 1;
    m->vals[h] = NONE;
  }
  return &m->vals[h];
}

/* The value at key, or NONE; inserts nothing. */
static size_t map_get(const addr_map *m, uint64_t key) {
  size_t h = (size_t)gm_hash64(&key, sizeof key, 0) & (m->cap - 1);
  while (m->keys[h] && m->keys[h] != key + 1)
    h = (h + 1) & (m->cap - 1);
  return m->keys[h] ? m->vals[h] : NONE;
}

static addr_map map_new(size_t n) {
  addr_map m = {0};
  m.cap = 64;
  while (m.cap < 2 * n)
    m.cap *= 2;
  m.keys = gm_xcalloc(m.cap, sizeof *m.keys);
  m.vals = gm_xcalloc(m.cap, sizeof *m.vals);
  return m;
}

static void map_free(addr_map *m) {
  free(m->keys);
  free(m->vals);
}

static uint64_t block_key(int device, uint64_t addr) {
  return addr ^ ((uint64_t)(unsigned)device << 56);
}

static uint64_t addr_key(const gm_torch_trace *t) {
  return block_key(t->device, t->addr);
}

/* For each alloc entry, the index of the first free of its block after it (NONE: never). */
static size_t *free_points(const gm_torch_snapshot *s) {
  size_t n = s->traces.len;
  size_t *freed = gm_xmalloc((n ? n : 1) * sizeof *freed);
  addr_map m = map_new(n);
  for (size_t i = 0; i < n; i++) {
    const gm_torch_trace *t = &s->traces.items[i];
    freed[i] = NONE;
    if (t->action == GM_TRACE_ALLOC) {
      *slot_of(&m, addr_key(t)) = i;
    } else if (t->action == GM_TRACE_FREE_REQUESTED || t->action == GM_TRACE_FREE_COMPLETED) {
      size_t *a = slot_of(&m, addr_key(t));
      if (*a != NONE && freed[*a] == NONE)
        freed[*a] = i;
    }
  }
  map_free(&m);
  return freed;
}

/* The blocks allocated in the snapshot's segments, by (device, address): value 1. */
static addr_map allocated_blocks(const gm_torch_snapshot *s) {
  addr_map m = map_new(s->blocks.len);
  for (size_t i = 0; i < s->segments.len; i++) {
    const gm_torch_segment *g = &s->segments.items[i];
    for (size_t k = 0; k < g->nblocks; k++) {
      const gm_torch_block *b = &s->blocks.items[g->first_block + k];
      if (b->state == GM_BLOCK_ALLOCATED)
        *slot_of(&m, block_key(g->device, b->address)) = 1;
    }
  }
  return m;
}

/* The step an entry was made in: the shim tags entries with the last step marked (K, 0 before
 * the first), so a tag K is step K+1; untagged entries by time, step s covering the time after
 * step s-1's marker up to its own. -1: after the last step. */
static long step_of(const gm_torch_view *v, const gm_torch_trace *t) {
  if (t->step >= 0)
    return t->step + 1;
  for (size_t i = 0; i < v->steps.len; i++)
    if (t->time_us <= v->steps.items[i].time_us)
      return v->steps.items[i].step;
  return -1;
}

static int same_line(gm_pyframe a, gm_pyframe b) {
  return a.file == b.file && a.line == b.line;
}

/* ---- steps ---- */

gm_torch_trend gm_torch_trend_of(const gm_torch_view *v) {
  gm_torch_trend tr = {0};
  if (v->steps.len <= GM_TORCH_WARMUP_STEPS)
    return tr;
  tr.first = GM_TORCH_WARMUP_STEPS;
  tr.n = v->steps.len - tr.first;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = tr.first; i < v->steps.len; i++) {
    double x = (double)v->steps.items[i].step, y = (double)v->steps.items[i].allocated;
    sx += x, sy += y, sxx += x * x, sxy += x * y;
    tr.rising += v->steps.items[i].allocated > v->steps.items[i - 1].allocated;
  }
  double den = (double)tr.n * sxx - sx * sx;
  tr.slope = den != 0 ? ((double)tr.n * sxy - sx * sy) / den : 0;
  const gm_torch_step *last = &v->steps.items[v->steps.len - 1];
  for (size_t i = 0; i < v->devices.len; i++)
    if (v->devices.items[i].index == last->device)
      tr.total = v->devices.items[i].total;
  if (tr.slope >= 1 && tr.total > last->reserved) {
    double left =
        (double)(tr.total - last->reserved) / tr.slope; /* rounded up: the step it fails */
    tr.oom_step = last->step + (long)left + ((double)(long)left < left);
  }
  return tr;
}

/* ---- GM150 ---- */

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

typedef struct leak_line {
  gm_pyframe at;
  uint64_t *bytes; /* by post-warm-up step */
} leak_line;

/* The steps judged: those after the warm-up, and of an overflowed history only those it kept
 * whole (from the step after the one its oldest entry was made in). */
static void judged_steps(const gm_torch_view *v, gm_torch_leaks *l) {
  l->first_step = v->steps.items[l->trend.first].step;
  long last_step = v->steps.items[v->steps.len - 1].step;
  if (v->history_overflowed && v->exit->traces.len) {
    long oldest = step_of(v, &v->exit->traces.items[0]);
    if (oldest < 0) /* after the last marker: no step kept whole */
      oldest = last_step;
    if (oldest + 1 > l->first_step)
      l->first_step = oldest + 1;
    l->window = v->exit->traces.len;
  }
  l->steps_judged = last_step >= l->first_step ? (size_t)(last_step - l->first_step + 1) : 0;
}

static void find_leaks(const gm_torch_view *v, gm_torch_leaks *l) {
  const gm_torch_snapshot *s = v->exit;
  size_t *freed = free_points(s);
  addr_map alive = allocated_blocks(s);
  long first_step = l->first_step;
  long last_step = v->steps.items[v->steps.len - 1].step;
  size_t n = l->steps_judged;
  GM_VEC(leak_line) lines = {0};
  for (size_t i = 0; i < s->traces.len; i++) {
    const gm_torch_trace *t = &s->traces.items[i];
    if (t->action != GM_TRACE_ALLOC || freed[i] != NONE || map_get(&alive, addr_key(t)) != 1)
      continue;
    long k = step_of(v, t);
    if (k < first_step || k > last_step)
      continue;
    size_t g = 0;
    while (g < lines.len && !same_line(lines.items[g].at, t->at))
      g++;
    if (g == lines.len) {
      leak_line nl = {t->at, gm_xcalloc(n, sizeof(uint64_t))};
      GM_PUSH(lines, nl);
    }
    size_t slot = (size_t)(k - first_step); /* steps are numbered 1, 2, ... in order */
    if (slot < n)
      lines.items[g].bytes[slot] += t->size;
  }
  for (size_t g = 0; g < lines.len; g++) {
    uint64_t *with = gm_xmalloc(n * sizeof *with);
    gm_torch_leak lk = {lines.items[g].at, 0, 0, 0};
    for (size_t k = 0; k < n; k++)
      if (lines.items[g].bytes[k]) {
        with[lk.steps_with++] = lines.items[g].bytes[k];
        lk.alive_bytes += lines.items[g].bytes[k];
      }
    if (lk.steps_with + 1 >= n) {
      qsort(with, lk.steps_with, sizeof *with, cmp_u64);
      lk.bytes_per_step = with[lk.steps_with / 2];
      GM_PUSH(l->lines, lk);
    }
    free(with);
    free(lines.items[g].bytes);
  }
  GM_VEC_FREE(lines);
  map_free(&alive);
  free(freed);
}

gm_torch_leaks gm_torch_judge_leaks(const gm_torch_view *v) {
  gm_torch_leaks l = {0};
  l.trend = gm_torch_trend_of(v);
  if (l.trend.n < GM_TORCH_MIN_STEPS)
    return l;
  l.judged = 1;
  if (!v->history_recorded && v->backend && strcmp(v->backend, "cudaMallocAsync") == 0)
    l.partial = "the allocator's history was not recorded: the cudaMallocAsync backend keeps "
                "none (each tensor is a cudaMallocAsync the runtime's own sites see)";
  else if (!v->history_recorded)
    l.partial = "the allocator's history was not recorded";
  else if (!v->exit || !v->exit->loaded)
    l.partial = "the exit snapshot is missing";
  else {
    judged_steps(v, &l);
    if (l.steps_judged < GM_TORCH_MIN_STEPS)
      l.partial = "the allocator's history overflowed (its oldest entries were dropped) and "
                  "kept too few whole steps";
  }
  if (l.partial)
    l.allocated_rises = l.trend.rising + 1 >= l.trend.n;
  else
    find_leaks(v, &l);
  return l;
}

static int by_bytes_desc(const void *a, const void *b) {
  const gm_torch_live_line *x = a, *y = b;
  return x->bytes > y->bytes ? -1 : x->bytes < y->bytes;
}

gm_torch_live_lines gm_torch_live_by_line(const gm_torch_view *v) {
  gm_torch_live_lines out = {0};
  const gm_torch_snapshot *s = v->exit;
  if (!s || !s->loaded)
    return out;
  typedef GM_VEC(uint64_t) u64_vec;
  GM_VEC(u64_vec) sizes = {0}; /* by line, in out's order */
  for (size_t i = 0; i < s->segments.len; i++) {
    const gm_torch_segment *g = &s->segments.items[i];
    for (size_t k = 0; k < g->nblocks; k++) {
      const gm_torch_block *b = &s->blocks.items[g->first_block + k];
      if (b->state != GM_BLOCK_ALLOCATED)
        continue;
      size_t n = 0;
      while (n < out.len && !same_line(out.items[n].at, b->at))
        n++;
      if (n == out.len) {
        gm_torch_live_line nl = {b->at, 0, 0, 0, 0};
        GM_PUSH(out, nl);
        u64_vec none = {0};
        GM_PUSH(sizes, none);
      }
      out.items[n].blocks++;
      out.items[n].bytes += b->size;
      GM_PUSH(sizes.items[n], b->size);
    }
  }
  for (size_t n = 0; n < out.len; n++) { /* the commonest size: the longest run once sorted */
    uint64_t *z = sizes.items[n].items;
    size_t len = sizes.items[n].len;
    qsort(z, len, sizeof *z, cmp_u64);
    for (size_t i = 0, j; i < len; i = j) {
      for (j = i; j < len && z[j] == z[i]; j++)
        ;
      if (j - i > out.items[n].common_blocks) {
        out.items[n].common_blocks = j - i;
        out.items[n].common_size = z[i];
      }
    }
    GM_VEC_FREE(sizes.items[n]);
  }
  GM_VEC_FREE(sizes);
  qsort(out.items, out.len, sizeof *out.items, by_bytes_desc);
  return out;
}

struct repeat_line {
  gm_pyframe at;
  size_t repeats, working;
  size_t frees_at_start;  /* frees in the history when its latest repetition began */
  GM_VEC(uint64_t) alive; /* survivor bytes of each repetition with survivors */
};

gm_torch_repeat_leaks gm_torch_judge_repeats(const gm_torch_view *v,
                                             const gm_torch_leaks *by_step) {
  gm_torch_repeat_leaks out = {0};
  const gm_torch_snapshot *s = v->exit;
  if (!v->history_recorded || !s || !s->loaded || !s->traces.len)
    return out;
  if (v->history_overflowed)
    out.window = s->traces.len;
  gm_torch_trend tr = gm_torch_trend_of(v);
  size_t *freed = free_points(s);
  addr_map alive = allocated_blocks(s);
  GM_VEC(struct repeat_line) lines = {0};
  size_t current = NONE; /* the line whose repetition runs, if any */
  uint64_t run_alive = 0;
  size_t frees = 0;
  int prev_device = -1;
  for (size_t i = 0; i <= s->traces.len; i++) {
    const gm_torch_trace *t = i < s->traces.len ? &s->traces.items[i] : NULL;
    size_t g = NONE;
    if (t && t->action == GM_TRACE_ALLOC && t->at.file) {
      g = 0;
      while (g < lines.len && !same_line(lines.items[g].at, t->at))
        g++;
    }
    /* another line's allocation ends a repetition (the rest of the loop body); frees within
     * it (one forward pass frees its intermediates), segments the cache maps for it and
     * markers do not */
    int ends = !t || t->device != prev_device || (t->action == GM_TRACE_ALLOC && g != current) ||
               t->action == GM_TRACE_OOM;
    if (ends && current != NONE) { /* the repetition of `current` ends here */
      if (run_alive)
        GM_PUSH(lines.items[current].alive, run_alive);
      current = NONE;
    }
    if (!t)
      break;
    prev_device = t->device;
    frees += t->action == GM_TRACE_FREE_REQUESTED;
    if (g == NONE)
      continue;
    if (g == lines.len) {
      struct repeat_line nl = {t->at, 0, 0, 0, {0}};
      GM_PUSH(lines, nl);
    }
    struct repeat_line *rl = &lines.items[g];
    if (current != g) {
      current = g;
      run_alive = 0;
      rl->working += rl->repeats && frees > rl->frees_at_start;
      rl->frees_at_start = frees;
      rl->repeats++;
    }
    if (freed[i] == NONE && map_get(&alive, addr_key(t)) == 1)
      run_alive += t->size;
  }
  gm_torch_live_lines live = gm_torch_live_by_line(v);
  uint64_t allocated = 0; /* at exit: every line's live bytes */
  for (size_t n = 0; n < live.len; n++)
    allocated += live.items[n].bytes;
  for (size_t g = 0; g < lines.len; g++) {
    struct repeat_line *rl = &lines.items[g];
    rl->working += rl->repeats && frees > rl->frees_at_start; /* the last one, to the end */
    size_t with = rl->alive.len, k = 0;
    while (k < by_step->lines.len && !same_line(by_step->lines.items[k].at, rl->at))
      k++;
    if (with >= GM_TORCH_MIN_REPEATS && with + 1 >= rl->repeats && rl->working + 1 >= rl->repeats &&
        k == by_step->lines.len) {
      gm_torch_repeat_leak lk = {rl->at, rl->repeats, with, 0, 0, 0, tr.total, allocated};
      for (size_t n = 0; n < live.len; n++)
        if (same_line(live.items[n].at, rl->at)) {
          lk.blocks = live.items[n].blocks;
          lk.alive_bytes = live.items[n].bytes;
        }
      qsort(rl->alive.items, with, sizeof(uint64_t), cmp_u64);
      lk.bytes_per_repeat = rl->alive.items[with / 2];
      if (!lk.total && v->devices.len)
        lk.total = v->devices.items[0].total;
      GM_PUSH(out.lines, lk);
    }
    GM_VEC_FREE(rl->alive);
  }
  GM_VEC_FREE(live);
  GM_VEC_FREE(lines);
  map_free(&alive);
  free(freed);
  return out;
}

void gm_torch_repeat_leaks_free(gm_torch_repeat_leaks *r) {
  GM_VEC_FREE(r->lines);
}

int gm_torch_leaks_found(const gm_torch_leaks *l) {
  return l->lines.len > 0 || (l->partial && l->allocated_rises);
}

void gm_torch_leaks_free(gm_torch_leaks *l) {
  GM_VEC_FREE(l->lines);
}

/* ---- GM151 ---- */

static const gm_torch_snapshot *segments_view(const gm_torch_view *v, const char **which) {
  if (v->peak && v->peak->loaded) {
    *which = "peak";
    return v->peak;
  }
  if (v->exit && v->exit->loaded) {
    *which = "exit";
    return v->exit;
  }
  *which = NULL;
  return NULL;
}

gm_torch_cache_growth gm_torch_judge_cache(const gm_torch_view *v) {
  gm_torch_cache_growth c = {0};
  gm_torch_trend tr = gm_torch_trend_of(v);
  if (tr.n < GM_TORCH_MIN_STEPS)
    return c;
  const gm_torch_step *a = &v->steps.items[tr.first], *b = &v->steps.items[v->steps.len - 1];
  c.reserved_growth = b->reserved > a->reserved ? b->reserved - a->reserved : 0;
  c.allocated_growth = b->allocated > a->allocated ? b->allocated - a->allocated : 0;
  c.cached_at_last = b->reserved > b->allocated ? b->reserved - b->allocated : 0;
  uint64_t share = (uint64_t)((double)tr.total * GM_TORCH_CACHE_GROWTH_SHARE);
  c.threshold = share > GM_TORCH_CACHE_GROWTH_MIN_BYTES ? share : GM_TORCH_CACHE_GROWTH_MIN_BYTES;
  c.grew = c.reserved_growth >= c.threshold &&
           (double)c.allocated_growth < GM_TORCH_CACHE_ALLOCATED_SHARE * (double)c.reserved_growth;
  const gm_torch_snapshot *s = segments_view(v, &c.snapshot);
  GM_VEC(uint64_t) sizes = {0};
  for (size_t i = 0; s && i < s->segments.len; i++) {
    const gm_torch_segment *g = &s->segments.items[i];
    size_t k = 0;
    while (k < sizes.len && sizes.items[k] != g->total)
      k++;
    if (g->large && k == sizes.len)
      GM_PUSH(sizes, g->total);
  }
  c.distinct_sizes = sizes.len;
  GM_VEC_FREE(sizes);
  if (v->exit && v->exit->loaded)
    for (size_t i = 0; i < v->exit->traces.len; i++) {
      const gm_torch_trace *t = &v->exit->traces.items[i];
      if (t->action == GM_TRACE_SEGMENT_ALLOC && t->at.file && step_of(v, t) >= a->step &&
          t->size > c.at_bytes) {
        c.at = t->at;
        c.at_bytes = t->size;
      }
    }
  return c;
}

/* ---- GM152 ---- */

const char *gm_torch_oom_cause_name(gm_torch_oom_cause c) {
  static const char *const names[] = {"pending-free", "fragmentation", "external", "capacity"};
  return names[c];
}

gm_torch_oom_verdict gm_torch_judge_oom(const gm_torch_view *v, const gm_torch_oom *o) {
  (void)v;
  gm_torch_oom_verdict r = {0};
  const gm_torch_snapshot *s = o->snapshot && o->snapshot->loaded ? o->snapshot : NULL;
  r.from_snapshot = s != NULL;
  r.large_pool = o->request > GM_TORCH_SMALL_REQUEST_MAX;
  r.reserved = o->reserved;
  uint64_t segments_total = 0;
  for (size_t i = 0; s && i < s->segments.len; i++) {
    const gm_torch_segment *g = &s->segments.items[i];
    if (g->device != o->device)
      continue;
    segments_total += g->total;
    for (size_t k = 0; k < g->nblocks; k++) {
      const gm_torch_block *b = &s->blocks.items[g->first_block + k];
      if (b->state == GM_BLOCK_PENDING_FREE)
        r.pending += b->size;
      if (b->state == GM_BLOCK_INACTIVE && g->large == r.large_pool) {
        r.pool_free += b->size;
        if (b->size > r.largest_free)
          r.largest_free = b->size;
      }
    }
  }
  if (!r.reserved)
    r.reserved = segments_total;
  if (!s) /* without the blocks: what the cache held beyond the allocated bytes */
    r.pool_free = o->reserved > o->allocated ? o->reserved - o->allocated : 0;
  uint64_t used = o->device_free + r.reserved;
  r.external = o->limit > used ? o->limit - used : 0;
  if (s && r.pending >= o->request)
    r.cause = GM_TORCH_OOM_PENDING_FREE;
  else if (r.pool_free + o->device_free >= o->request && o->device_free < o->request &&
           (!s || r.largest_free < o->request))
    r.cause = GM_TORCH_OOM_FRAGMENTATION;
  else if (r.external >= o->request)
    r.cause = GM_TORCH_OOM_EXTERNAL;
  else
    r.cause = GM_TORCH_OOM_CAPACITY;
  for (size_t i = 0; s && i < s->traces.len; i++) {
    const gm_torch_trace *t = &s->traces.items[i];
    if (t->action == GM_TRACE_OOM && t->device == o->device && t->size == o->request)
      r.at = t->at; /* the last one */
  }
  return r;
}

/* ---- GM153 ---- */

gm_torch_fragmentations gm_torch_judge_fragmentation(const gm_torch_view *v,
                                                     const char **snapshot) {
  gm_torch_fragmentations out = {0};
  const gm_torch_snapshot *s = segments_view(v, snapshot);
  for (size_t i = 0; s && i < s->segments.len; i++) {
    const gm_torch_segment *g = &s->segments.items[i];
    size_t d = 0;
    while (d < out.len && out.items[d].device != g->device)
      d++;
    if (d == out.len) {
      gm_torch_fragmentation f = {0};
      f.device = g->device;
      GM_PUSH(out, f);
    }
    gm_torch_fragmentation *f = &out.items[d];
    f->reserved += g->total;
    if (!g->large) {
      f->small_reserved += g->total;
      continue;
    }
    uint64_t free_here = 0, holes = 0, largest = 0;
    int active = 0;
    gm_pyframe first_active = {0};
    for (size_t k = 0; k < g->nblocks; k++) {
      const gm_torch_block *b = &s->blocks.items[g->first_block + k];
      if (b->state != GM_BLOCK_INACTIVE) {
        if (!active)
          first_active = b->at;
        active = 1;
        continue;
      }
      free_here += b->size;
      holes++;
      if (b->size > largest)
        largest = b->size;
    }
    if (!active || !free_here)
      continue;
    if (free_here > f->at_free) { /* the segment with the most free bytes names the place */
      f->at = g->at.file ? g->at : first_active;
      f->at_free = free_here;
    }
    f->free_bytes += free_here;
    f->holes += holes;
    if (largest > f->largest)
      f->largest = largest;
  }
  for (size_t d = 0; d < out.len; d++) {
    gm_torch_fragmentation *f = &out.items[d];
    f->score = f->free_bytes ? 1.0 - (double)f->largest / (double)f->free_bytes : 0;
    uint64_t share = (uint64_t)((double)f->reserved * GM_TORCH_FRAG_RESERVED_SHARE);
    uint64_t min = share > GM_TORCH_FRAG_MIN_BYTES ? share : GM_TORCH_FRAG_MIN_BYTES;
    f->fragmented = f->free_bytes >= min && f->score >= GM_TORCH_FRAG_SCORE_MIN;
  }
  return out;
}

/* ---- GM154 ---- */

typedef struct chain {
  gm_pyframe at;
  size_t head; /* the chain's latest block: its alloc entry */
  size_t prev; /* the block head replaced, or NONE */
  size_t len;
  uint64_t from, copied;
  gm_torch_regrowth best;
} chain;

gm_torch_regrowths gm_torch_judge_regrowth(const gm_torch_view *v) {
  gm_torch_regrowths out = {0};
  const gm_torch_snapshot *s = v->exit;
  if (!s || !s->loaded)
    return out;
  size_t *freed = free_points(s);
  GM_VEC(chain) chains = {0};
  for (size_t i = 0; i < s->traces.len; i++) {
    const gm_torch_trace *t = &s->traces.items[i];
    if (t->action != GM_TRACE_ALLOC || !t->at.file)
      continue;
    size_t g = 0;
    while (g < chains.len && !same_line(chains.items[g].at, t->at))
      g++;
    if (g == chains.len) {
      chain c = {t->at, i, NONE, 1, t->size, 0, {t->at, 1, t->size, t->size, 0}};
      GM_PUSH(chains, c);
      continue;
    }
    chain *c = &chains.items[g];
    const gm_torch_trace *head = &s->traces.items[c->head];
    int head_live = freed[c->head] == NONE || freed[c->head] > i;
    if (head_live && t->size <= head->size)
      continue; /* a smaller temporary from the same line while the buffer lives */
    /* the block before the head must be gone by now: a regrown tensor keeps one copy at a time
     * past each step (larger tensors that all stay allocated a while are not one tensor) */
    int prev_gone = c->prev == NONE || (freed[c->prev] != NONE && freed[c->prev] < i);
    if (head_live && freed[c->head] != NONE && prev_gone) { /* replaced, then dropped */
      c->len++;
      c->copied += head->size;
      c->prev = c->head;
    } else {
      c->len = 1;
      c->from = t->size;
      c->copied = 0;
      c->prev = NONE;
    }
    c->head = i;
    if (c->len > c->best.chain)
      c->best = (gm_torch_regrowth){t->at, c->len, c->from, t->size, c->copied};
  }
  for (size_t g = 0; g < chains.len; g++)
    if (chains.items[g].best.chain >= GM_TORCH_REGROWTH_CHAIN_MIN)
      GM_PUSH(out, chains.items[g].best);
  GM_VEC_FREE(chains);
  free(freed);
  return out;
}

char *gm_torch_missing_snapshots(const gm_torch_view *v) {
  gm_strbuf sb = {0};
  const gm_torch_snapshot *all[2] = {v->peak, v->exit};
  for (size_t i = 0; i < v->ooms.len + 2; i++) {
    const gm_torch_snapshot *s = i < 2 ? all[i] : v->ooms.items[i - 2].snapshot;
    if (s && !s->loaded)
      gm_sb_printf(&sb, "%s%s", sb.len ? ", " : "", s->file);
  }
  return sb.len ? gm_sb_take(&sb) : NULL;
}

const char *gm_torch_where(const gm_torch_view *v, gm_pyframe at, unsigned *line) {
  *line = at.file ? at.line : 0;
  return at.file ? at.file : v->path;
}

char *gm_torch_process_text(const gm_torch_view *v) {
  const char *base = strrchr(v->program, '/') ? strrchr(v->program, '/') + 1 : v->program;
  if (v->has_rank)
    return gm_xasprintf("%s (pid %ld, rank %ld)", *base ? base : "python", v->pid, v->rank);
  return gm_xasprintf("%s (pid %ld)", *base ? base : "python", v->pid);
}
