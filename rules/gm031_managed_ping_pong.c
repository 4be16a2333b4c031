/* GM031 managed-ping-pong
 *
 * Flags managed memory that host code and a kernel both touch inside one loop: every iteration
 * migrates its pages to the GPU for the kernel and back to the CPU for the host, paying page
 * faults both ways.
 *
 *   bad:  for (step...) { update<<<g, b>>>(x, n); cudaDeviceSynchronize(); total += x[0]; }
 *   good: keep the data on the device and copy back only what the host needs (one value, with
 *         cudaMemcpy from a device buffer), or prefetch explicitly each way. */
#include "model/patterns.h"
#include "rules/rules.h"
#include "runtime_view/join.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const gm_rule gm031_managed_ping_pong;

static const gm_node *anchor(const gm_fact *f) {
  return f->via_call ? f->via_call : f->at;
}

/* The innermost loop that repeats and holds both nodes, or NULL. */
static const gm_node *common_loop(const gm_node *a, const gm_node *b) {
  for (const gm_node *loop = gm_enclosing_loop(a); loop; loop = gm_enclosing_loop(loop))
    if (gm_inside(b, loop))
      return loop;
  return NULL;
}

/* Where a prefetch sends the pages, from its destination argument (the third of every row:
 * cudaMemPrefetchAsync's cudaMemLocation or CUDA 11's device number, cuMemPrefetchAsync's
 * CUdevice). */
enum side { SIDE_UNKNOWN, SIDE_DEVICE, SIDE_HOST };

/* cudaMemLocationType: Device is 1; Host, HostNuma and HostNumaCurrent are 2 to 4. */
static enum side location_side(const gm_node *type) {
  type = gm_strip(type);
  if (!type || !type->has_value)
    return SIDE_UNKNOWN;
  return type->value == 1                       ? SIDE_DEVICE
         : type->value >= 2 && type->value <= 4 ? SIDE_HOST
                                                : SIDE_UNKNOWN;
}

/* The text of node n in the main file, or NULL (another file, no extent). */
static const char *text_of(const gm_check_ctx *ctx, const gm_node *n, size_t *len) {
  if (!ctx->source || !n->loc.file || !ctx->tu->path || strcmp(n->loc.file, ctx->tu->path) != 0 ||
      n->end_offset <= n->offset || n->end_offset > ctx->source->len)
    return NULL;
  *len = n->end_offset - n->offset;
  return ctx->source->text + n->offset;
}

/* A device number: cudaCpuDeviceId and CU_DEVICE_CPU are -1, a GPU's is 0 or more. The model
 * sees a negation as a wrapper of its operand (gm_strip takes `((int)-1)` for 1), so a minus
 * sign is read in the text, and the host's number known by its name. */
static enum side device_side(const gm_check_ctx *ctx, const gm_node *dev) {
  int negated = 0;
  for (; dev; dev = dev->kind == GM_N_OTHER && dev->nkids == 1 ? dev->kids[0] : NULL) {
    size_t len;
    const char *t = text_of(ctx, dev, &len);
    if (t && ((len == 15 && strncmp(t, "cudaCpuDeviceId", len) == 0) ||
              (len == 13 && strncmp(t, "CU_DEVICE_CPU", len) == 0)))
      return SIDE_HOST;
    negated ^= t && *t == '-' && dev->kind == GM_N_OTHER;
    if (dev->has_value || dev->kind == GM_N_NULL) {
      long long v = negated ? -dev->value : dev->value;
      return v == -1 ? SIDE_HOST : v >= 0 ? SIDE_DEVICE : SIDE_UNKNOWN;
    }
  }
  return SIDE_UNKNOWN;
}

struct var_side {
  const gm_check_ctx *ctx;
  int var;
  enum side side;
  int writes; /* assignments to it, or to its `type`, seen */
};

/* What the function stores into the variable: `loc = {type, id}`, `loc.type = T`, `dev = 0`,
 * cudaGetDevice(&dev). Writes that disagree, or that say nothing known, leave it unknown. */
static void find_var_side(const gm_node *n, void *arg) {
  struct var_side *c = arg;
  enum side got = SIDE_UNKNOWN;
  int hit = 0;
  if (n->kind == GM_N_DECL && n->var == c->var && gm_kid(n, 0)) {
    const gm_node *init = gm_strip(gm_kid(n, 0));
    hit = 1;
    got = init->kind == GM_N_AGGREGATE ? location_side(gm_kid(init, 0))
                                       : device_side(c->ctx, gm_kid(n, 0));
    if (init->kind == GM_N_AGGREGATE && !init->nkids)
      hit = 0; /* `cudaMemLocation loc = {}`: its fields are set next */
  } else if (n->kind == GM_N_ASSIGN) {
    const gm_node *lhs = gm_strip(gm_kid(n, 0));
    if (lhs && lhs->kind == GM_N_FIELD && lhs->name && strcmp(lhs->name, "type") == 0 &&
        gm_root_var(gm_kid(lhs, 0)) == c->var) {
      hit = 1;
      got = location_side(gm_kid(n, 1));
    } else if (lhs && lhs->kind == GM_N_VAR && lhs->var == c->var) {
      hit = 1;
      const gm_node *rhs = gm_strip(gm_kid(n, 1));
      got = rhs && rhs->kind == GM_N_AGGREGATE ? location_side(gm_kid(rhs, 0))
                                               : device_side(c->ctx, gm_kid(n, 1));
    }
  } else if (n->kind == GM_N_CALL && n->name && strcmp(n->name, "cudaGetDevice") == 0 &&
             gm_root_var(gm_arg(n, 0)) == c->var) {
    hit = 1;
    got = SIDE_DEVICE;
  }
  if (!hit)
    return;
  c->side = c->writes++ == 0 || c->side == got ? got : SIDE_UNKNOWN;
}

static enum side prefetch_side(const gm_check_ctx *ctx, const gm_node *call) {
  const gm_node *raw = gm_kid(call, 2), *dst = gm_arg(call, 2);
  if (!dst)
    return SIDE_UNKNOWN;
  if (dst->kind == GM_N_AGGREGATE)
    return location_side(gm_kid(dst, 0));
  if (dst->kind != GM_N_VAR)
    return device_side(ctx, raw);
  struct var_side c = {ctx, dst->var, SIDE_UNKNOWN, 0};
  gm_walk(ctx->fn->body, find_var_side, &c);
  return c.side;
}

static int before(const gm_node *a, const gm_node *b) {
  return a->loc.line < b->loc.line || (a->loc.line == b->loc.line && a->loc.col < b->loc.col);
}

/* The access of the allocation in `loop` that runs next after node `at`, in the order the loop
 * body is written: the first one after it, or the first of the next iteration. *side: the
 * kernel's (device) or the host's. NULL when the loop holds none. */
static const gm_node *next_access(const gm_check_ctx *ctx, const gm_node *alloc,
                                  const gm_node *loop, const gm_node *at, enum side *side) {
  const gm_node *after = NULL, *first = NULL;
  enum side after_side = SIDE_UNKNOWN, first_side = SIDE_UNKNOWN;
  for (int i = 0; i < ctx->nfacts; i++) {
    const gm_fact *f = &ctx->facts[i];
    if ((f->kind != GM_FACT_MANAGED_LAUNCH && f->kind != GM_FACT_MANAGED_HOST) || f->alloc != alloc)
      continue;
    const gm_node *n = f->kind == GM_FACT_MANAGED_LAUNCH ? anchor(f) : f->at;
    enum side s = f->kind == GM_FACT_MANAGED_LAUNCH ? SIDE_DEVICE : SIDE_HOST;
    if (!gm_inside(n, loop))
      continue;
    if (!first || before(n, first))
      first = n, first_side = s;
    if (before(at, n) && (!after || before(n, after)))
      after = n, after_side = s;
  }
  *side = after ? after_side : first_side;
  return after ? after : first;
}

/* Why the loop's migrations of the allocation are managed explicitly, or NULL when they are
 * not: a prefetch moves pages only where it sends them, so it counts when it sends them where
 * the next access is (the device before a kernel, the host before host code); one toward the
 * side that just used them moves them the wrong way. Advice (cudaMemAdvise), a prefetch of a
 * destination not known here, or one inside a helper are taken as managing it. */
static const char *prefetch_decides(const gm_check_ctx *ctx, const gm_node *alloc,
                                    const gm_node *loop) {
  for (int p = 0; p < ctx->nfacts; p++) {
    const gm_fact *f = &ctx->facts[p];
    if (f->kind != GM_FACT_MANAGED_PREFETCH || f->alloc != alloc || !gm_inside(f->at, loop))
      continue;
    const gm_node *call = f->at;
    if (!call->fn || call->fn->kind != GM_FN_PREFETCH)
      return "a helper called in the loop prefetches or advises it";
    if (!strstr(call->fn->name, "Prefetch"))
      return "the loop advises on its placement (cudaMemAdvise)";
    enum side to = prefetch_side(ctx, call), next;
    if (to == SIDE_UNKNOWN)
      return "the loop prefetches it to a destination not known here";
    if (next_access(ctx, alloc, loop, call, &next) && next == to)
      return to == SIDE_DEVICE ? "the loop prefetches it to the device before the kernel"
                               : "the loop prefetches it to the host before host code";
  }
  return NULL;
}

static void check(const gm_check_ctx *ctx) {
  for (int i = 0; i < ctx->nfacts; i++) {
    const gm_fact *launch = &ctx->facts[i];
    if (launch->kind != GM_FACT_MANAGED_LAUNCH)
      continue;
    int reported = 0;
    for (int k = 0; k < ctx->nfacts && !reported; k++) {
      const gm_fact *host = &ctx->facts[k];
      if (host->kind != GM_FACT_MANAGED_HOST || host->alloc != launch->alloc)
        continue;
      const gm_node *loop = common_loop(anchor(launch), host->at);
      if (!loop)
        continue;
      const char *placed = prefetch_decides(ctx, launch->alloc, loop);
      if (placed) {
        gm_report_suppressed(ctx->report, &gm031_managed_ping_pong, "prefetch", host->at->loc,
                             ctx->fn->name, "managed memory used by host and device in a loop: %s",
                             placed);
        continue;
      }
      int earlier = 0; /* one finding per allocation */
      for (int j = 0; j < i && !earlier; j++)
        earlier =
            ctx->facts[j].kind == GM_FACT_MANAGED_LAUNCH && ctx->facts[j].alloc == launch->alloc;
      reported = 1;
      if (earlier)
        break;
      char *what = gm_describe_allocation(launch);
      gm_finding *f = gm_report_add(
          ctx->report, &gm031_managed_ping_pong, launch->alloc->loc, ctx->fn->name,
          "%s is used by a kernel and by host code in the same loop, so its pages migrate to "
          "the GPU and back on every iteration; keep the data on the device and copy back only "
          "what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync)",
          what);
      free(what);
      gm_finding_note(f, anchor(launch)->loc, "a kernel uses it here");
      gm_finding_note(f, host->at->loc, "and host code touches it here, in the same loop");
      gm_finding_note(f, loop->loc, "the loop");
    }
  }
}

/* Runtime verdict (docs/rules/GM031.md), from CUPTI's counters on the allocation's range:
 * confirmed when bytes migrated both ways (host-to-device and device-to-host); dismissed when
 * the site ran and its pages moved one way or not at all; unverifiable without the counters. */
static gm_verdict judge(gm_judge_ctx *c) {
  const gm_tsite *s = gm_judge_find(c, c->finding->loc, GM_SITE_ALLOC);
  if (!gm_site_ran(s))
    return gm_judge_unseen(c, s, c->finding->loc, "allocation");
  c->site = s;
  const char *why;
  if (!gm_judge_um_collected(c, s, &why))
    return gm_judge_say(c, GM_VERDICT_UNVERIFIABLE,
                        "unified-memory counters were not collected: %s", why);
  const gm_um_counts *u = &s->um;
  char figures[384];
  snprintf(figures, sizeof figures,
           "%s host-to-device and %s device-to-host, %llu GPU and %llu CPU page faults",
           gm_bytes(u->htod_bytes).s, gm_bytes(u->dtoh_bytes).s,
           (unsigned long long)u->gpu_page_faults, (unsigned long long)u->cpu_page_faults);
  if (u->direction_changes) /* 0 in files from runtimes that did not record it */
    snprintf(figures + strlen(figures), sizeof figures - strlen(figures),
             ", %llu changes of direction", (unsigned long long)u->direction_changes);
  if (u->htod_bytes && u->dtoh_bytes)
    return gm_judge_say(c, GM_VERDICT_CONFIRMED,
                        "pages migrated both ways: %s (threshold: bytes moved each way)", figures);
  return gm_judge_say(c, GM_VERDICT_DISMISSED,
                      "pages did not move both ways: %s (threshold: bytes moved each way)",
                      figures);
}

const gm_rule gm031_managed_ping_pong = {
    .id = "GM031",
    .name = "managed-ping-pong",
    .summary = "Managed memory is touched by the host and by a kernel in the same loop.",
    .description =
        "Inside one loop, managed memory is read or written by host code and passed to a kernel "
        "launch. Each iteration migrates its pages to the GPU for the kernel and back to the CPU "
        "for the host, paying page faults and transfers both ways on every iteration.",
    .fix = "Keep the data on the device for the whole loop and copy back only what the host "
           "needs, or prefetch explicitly in each direction with cudaMemPrefetchAsync.",
    .check = check,
    .judge = judge,
};
