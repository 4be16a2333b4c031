/* GM021 small-transfer-in-loop
 *
 * Flags many small copies in a loop where one batched copy would do: a cudaMemcpy whose size is
 * a small constant (at most 4096 bytes) or the same every iteration, with a source or
 * destination that advances with the loop. Each cudaMemcpy costs microseconds of fixed overhead,
 * so a copy of a few bytes reaches a tiny fraction of PCIe or NVLink bandwidth.
 *
 *   bad:  for (i...) cudaMemcpy(d + i, h + i, sizeof(float), cudaMemcpyHostToDevice);
 *   good: cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
 *
 * Host rows found through a table or struct (`rows[r].values`) and uploaded into a destination
 * that advances with the loop are reported for any loop-invariant size: stage them on the host.
 *
 * Not raised for fixed-address copies (reading back a scalar each step), gathers through a
 * table of buffers (one per device, device-to-device chunks), per-stream chunks that split a range
 * by the loop's trip count, or loops that launch kernels between copies of a per-iteration size. */
#include "model/loop_counter.h"
#include "model/patterns.h"
#include "rules/rules.h"
#include "runtime_view/join.h"

#include <string.h>

extern const gm_rule gm021_small_transfer_in_loop;

/* Whether the copy reads host memory into the device: a host-to-device copy by the table
 * (cuMemcpyHtoD), or cudaMemcpyHostToDevice as its kind argument. (cudaMemcpyDefault or a kind
 * held in a variable: not known.) */
static int host_to_device(const gm_node *call) {
  if (call->fn->direction == GM_COPY_HTOD)
    return 1;
  const gm_node *kind = gm_arg(call, call->fn->kind_arg);
  return kind && kind->has_value && kind->value == 1; /* cudaMemcpyHostToDevice */
}

struct one_def {
  int var;
  const gm_node *init; /* its declaration's initialiser */
  int writes;          /* declarations, assignments, steps, address taken */
};

static void count_writes(const gm_node *n, void *arg) {
  struct one_def *d = arg;
  if (n->kind == GM_N_DECL && n->var == d->var) {
    d->writes++;
    d->init = gm_kid(n, 0);
  } else if ((n->kind == GM_N_ASSIGN || n->kind == GM_N_INCDEC || n->kind == GM_N_ADDR) &&
             gm_root_var(gm_kid(n, 0)) == d->var) {
    d->writes++;
  } else if (n->kind == GM_N_LAMBDA) {
    d->writes++; /* a capture by reference may write it */
  }
}

/* The value a local holds wherever it is read: its initialiser, when the function declares it
 * once and never writes it again; NULL otherwise. */
static const gm_node *defined_once(const gm_func *fn, const gm_node *e) {
  e = gm_strip(e);
  if (!e || e->kind != GM_N_VAR || e->var < 0 || e->var >= fn->nvars ||
      fn->vars[e->var].kind != GM_VAR_LOCAL)
    return NULL;
  struct one_def d = {e->var, NULL, 0};
  gm_walk(fn->body, count_writes, &d);
  return d.writes == 1 ? d.init : NULL;
}

/* Whether a and b name the same count: one variable, or one constant. */
static int same_count(const gm_node *a, const gm_node *b) {
  a = gm_strip(a), b = gm_strip(b);
  if (!a || !b)
    return 0;
  if (a->has_value && b->has_value)
    return a->value == b->value;
  return a->kind == GM_N_VAR && b->kind == GM_N_VAR && a->var == b->var;
}

/* Whether expression e (through the locals it reads, each defined once) mentions `count`. */
static int mentions_count(const gm_func *fn, const gm_node *e, const gm_node *count, int depth) {
  if (!e || depth > 6)
    return 0;
  if (same_count(e, count))
    return 1;
  const gm_node *def = defined_once(fn, e);
  if (def)
    return mentions_count(fn, def, count, depth + 1);
  for (int i = 0; i < e->nkids; i++)
    if (mentions_count(fn, e->kids[i], count, depth))
      return 1;
  return 0;
}

/* Whether expression e (through the locals it reads) divides by something that mentions
 * `count`: `n / nchunks`, `chunk = total / nstreams` read as `chunk * sizeof(float)`. */
static int divides_by(const gm_func *fn, const gm_node *e, const gm_node *count, int depth) {
  if (!e || depth > 6)
    return 0;
  if (e->kind == GM_N_ARITH && e->op == '/' && mentions_count(fn, gm_kid(e, 1), count, 0))
    return 1;
  const gm_node *def = defined_once(fn, e);
  if (def)
    return divides_by(fn, def, count, depth + 1);
  for (int i = 0; i < e->nkids; i++)
    if (divides_by(fn, e->kids[i], count, depth))
      return 1;
  return 0;
}

/* The variables and constants a size is made of, each tried as what a trip count divides by. */
static int bound_divides_size(const gm_func *fn, const gm_node *bound, const gm_node *size,
                              int depth) {
  if (!size || depth > 6)
    return 0;
  const gm_node *s = gm_strip(size);
  if (s && s->kind == GM_N_VAR && divides_by(fn, bound, s, 0))
    return 1;
  const gm_node *def = defined_once(fn, s);
  if (def)
    return bound_divides_size(fn, bound, def, depth + 1);
  for (int i = 0; s && i < s->nkids; i++)
    if (bound_divides_size(fn, bound, s->kids[i], depth))
      return 1;
  return 0;
}

/* Whether a loop's increment (`off += chunk`, among others after commas) steps by a variable
 * amount the copy's size is made of. */
static int steps_by_size(const gm_func *fn, const gm_node *inc, const gm_node *size) {
  if (inc && inc->kind == GM_N_COMMA) {
    for (int i = 0; i < inc->nkids; i++)
      if (steps_by_size(fn, inc->kids[i], size))
        return 1;
    return 0;
  }
  const gm_node *by = gm_kid(inc, 1);
  return inc && inc->kind == GM_N_ASSIGN && inc->op && inc->name && strcmp(inc->name, "+=") == 0 &&
         by && !by->has_value && mentions_count(fn, size, by, 0);
}

/* Why a copy in `loop` is one chunk of a pipeline rather than one of many small copies, or
 * NULL. A stream that changes each iteration (`streams[c % k]`) lets copies overlap with the
 * kernels on the other streams, but only chunks are worth overlapping: the bytes per copy must
 * be the loop's share of a larger range, the size dividing by the loop's trip count (`chunk =
 * n / nchunks`) or the trip count by the size (`nchunks = n / chunk`), so that the copies
 * together move the range in as many pieces as the program chose (or the loop steps through the
 * range by the size, `off += chunk`). A small constant, or a size
 * fixed by the data's shape (a row of `ncols`), is many small copies on whatever stream. */
static const char *stream_pipeline(const gm_func *fn, const gm_node *loop, const gm_node *call,
                                   const gm_node *size, int small) {
  const gm_node *stream = gm_arg(call, call->fn->stream_arg);
  if (!stream || !gm_depends_on_loop(loop, stream) || small)
    return NULL;
  if (steps_by_size(fn, gm_kid(loop, 2), size))
    return "a chunk of the range per stream: the loop steps through the range by the size";
  gm_counter c;
  if (!gm_loop_counter(loop, &c) || !c.bound || !c.unit)
    return NULL;
  if (divides_by(fn, size, c.bound, 0))
    return "a chunk of the range per stream: the size divides by the loop's trip count";
  if (bound_divides_size(fn, c.bound, size, 0))
    return "a chunk of the range per stream: the trip count divides the range by the size";
  return NULL;
}

static void visit(const gm_node *call, void *arg) {
  const gm_check_ctx *ctx = arg;
  if (call->kind != GM_N_CALL || !call->fn || call->fn->kind != GM_FN_COPY ||
      call->fn->direction == GM_COPY_HOST)
    return; /* GPU transfers only: cudaMemcpy*, cuMemcpy*, not memcpy */
  const gm_node *loop = gm_enclosing_loop(call);
  const gm_fn *row = call->fn;
  const gm_node *size = gm_arg(call, row->size_arg);
  long long small_bytes = gm_threshold(ctx->fn->limits, GM_T_SMALL_COPY_BYTES);
  if (!loop) {
    const gm_node *few = gm_few_trips_loop(call);
    if (few && size && size->has_value && size->value > 0 && size->value <= small_bytes)
      gm_report_suppressed(ctx->report, &gm021_small_transfer_in_loop, "few-trips", call->loc,
                           ctx->fn->name,
                           "%s of %lld bytes in a loop known to run %d times, no more than the "
                           "few-trips threshold (%lld)",
                           gm_call_display_name(call), size->value, few->trips,
                           gm_threshold(ctx->fn->limits, GM_T_FEW_TRIPS));
    return;
  }
  const gm_node *dst = gm_arg(call, row->dst_arg), *src = gm_arg(call, row->src_arg);
  if (!size || !dst || !src)
    return;
  /* One side must step regularly through memory (d + i, a row pointer); a table of buffers on
   * the other side still allows staging small pieces into one block, but not a bigger chunk. */
  int dst_stride = gm_address_stride(loop, dst), src_stride = gm_address_stride(loop, src);
  if (dst_stride != 1 && src_stride != 1)
    return; /* the same addresses each time, or a gather through a table */
  int irregular = dst_stride < 0 || src_stride < 0;
  int small = size->has_value && size->value > 0 && size->value <= small_bytes;
  const char *pipelined = stream_pipeline(ctx->fn, loop, call, size, small);
  if (pipelined) {
    gm_report_suppressed(ctx->report, &gm021_small_transfer_in_loop, "stream-pipeline", call->loc,
                         ctx->fn->name, "a copy in a loop on a stream per iteration: %s",
                         pipelined);
    return;
  }
  int invariant = gm_loop_invariant(ctx->fn, loop, size);
  int launches = gm_loop_launches(loop);
  /* scattered host pieces of one size packed into an advancing destination: stage them */
  int staged = invariant && dst_stride == 1 && src_stride < 0 && host_to_device(call) &&
               !launches && !gm_loop_switches_device(loop) /* one copy per GPU */;
  if (!small && !(invariant && !irregular && !launches) && !staged) {
    if (size->has_value && size->value > 0)
      gm_report_suppressed(ctx->report, &gm021_small_transfer_in_loop, "small-copy-bytes",
                           call->loc, ctx->fn->name,
                           "%s moves %lld bytes per iteration, more than the small-copy-bytes "
                           "threshold (%lld)",
                           gm_call_display_name(call), size->value, small_bytes);
    return;
  }
  gm_finding *f;
  if (staged && !small)
    f = gm_report_add(ctx->report, &gm021_small_transfer_in_loop, call->loc, ctx->fn->name,
                      "%s copies the same number of bytes on every iteration from host memory "
                      "found through a table or struct into a destination that advances with "
                      "the loop; pack the pieces into one host buffer (a host memcpy costs "
                      "nanoseconds) and upload it with one %s, instead of paying the per-call "
                      "cost for each piece",
                      gm_call_display_name(call), gm_call_display_name(call));
  else if (size->has_value)
    f = gm_report_add(
        ctx->report, &gm021_small_transfer_in_loop, call->loc, ctx->fn->name,
        "%s moves %lld bytes per iteration to or from an address that advances "
        "with the loop; the fixed cost of each call dominates such small copies. "
        "Copy the whole range with one %s (staging the pieces in one buffer if they are "
        "scattered), or a strided block with cudaMemcpy2D",
        gm_call_display_name(call), size->value, gm_call_display_name(call));
  else
    f = gm_report_add(ctx->report, &gm021_small_transfer_in_loop, call->loc, ctx->fn->name,
                      "%s copies the same number of bytes on every iteration to or from an "
                      "address that advances with the loop; one %s of the whole range (or "
                      "cudaMemcpy2D for a strided layout) moves the same bytes without the "
                      "per-call cost",
                      gm_call_display_name(call), gm_call_display_name(call));
  gm_finding_note(f, loop->loc, "the loop");
}

static void check(const gm_check_ctx *ctx) {
  if (ctx->fn->is_kernel || ctx->fn->is_device)
    return;
  gm_walk(ctx->fn->body, visit, (void *)ctx);
}

/* Runtime verdict (docs/rules/GM021.md), on the copy's own site: confirmed when it made at
 * least gm021-confirm-copies copies with a mean size below gm021-small-mean-bytes; dismissed
 * when it ran fewer times or its copies were larger. */
static gm_verdict judge(gm_judge_ctx *c) {
  long long confirm_copies = gm_threshold(c->limits, GM_T_GM021_CONFIRM_COPIES);
  long long small_mean = gm_threshold(c->limits, GM_T_GM021_SMALL_MEAN_BYTES);
  const gm_tsite *s = gm_judge_find(c, c->finding->loc, GM_SITE_OTHER);
  if (!s || !s->copies)
    return gm_judge_unseen(c, s, c->finding->loc, "copy");
  c->site = s; /* covers the copy site: no GM121 there */
  uint64_t mean = s->copy_bytes / s->copies;
  char figures[320];
  snprintf(figures, sizeof figures, "%llu %s of mean %s, %s in %s: %s achieved",
           (unsigned long long)s->copies, gm_plural(s->copies, "copy", "copies"), gm_bytes(mean).s,
           gm_bytes(s->copy_bytes).s, gm_duration_ns(s->copy_ns).s,
           gm_rate(s->copy_bytes, s->copy_ns).s);
  if (s->copies < (uint64_t)confirm_copies)
    return gm_judge_say(c, GM_VERDICT_DISMISSED, "%s; too few to matter (threshold: %lld copies)",
                        figures, confirm_copies);
  if (mean >= (uint64_t)small_mean)
    return gm_judge_say(c, GM_VERDICT_DISMISSED,
                        "%s; the copies are large enough to amortise the per-call cost "
                        "(threshold: mean below %s)",
                        figures, gm_bytes((uint64_t)small_mean).s);
  return gm_judge_say(c, GM_VERDICT_CONFIRMED,
                      "%s (thresholds: at least %lld copies, mean below %s)", figures,
                      confirm_copies, gm_bytes((uint64_t)small_mean).s);
}

const gm_rule gm021_small_transfer_in_loop = {
    .id = "GM021",
    .name = "small-transfer-in-loop",
    .summary = "Many small cudaMemcpy calls in a loop where one batched copy would do.",
    .description =
        "A cudaMemcpy (or cuMemcpy*) in a loop moves a small constant number of bytes (at most "
        "4096), or the same number every iteration, to or from an address that advances with "
        "the loop. Each call has a fixed cost of several microseconds, so small copies reach a "
        "tiny fraction of the link's bandwidth; one copy of the whole range moves the same bytes "
        "at full speed.",
    .fix = "Copy the whole range with one cudaMemcpy, a strided layout with cudaMemcpy2D, or "
           "stage the elements in a host buffer and copy it once.",
    .check = check,
    .judge = judge,
};
