/* GM152 torch-oom (runtime only; the PyTorch view)
 *
 * An out-of-memory error in a PyTorch program, with its cause judged from the OOM observer's
 * figures and the snapshot taken then (gm_torch_judge_oom, torch_verdict.c), in this order:
 *   pending-free   blocks freed by the program but still in use on another stream
 *                  (record_stream, NCCL) cover the request;
 *   fragmentation  the free bytes in the cached segments of the request's pool plus the
 *                  device's free memory cover it, but no free block and not the device alone;
 *   external       memory held outside PyTorch (other processes, CUDA contexts, NCCL, other
 *                  libraries: limit - free - reserved) covers it;
 *   capacity       otherwise: the program needs more than the device has.
 * One finding per Python line and cause, at the first user frame of the snapshot's oom entry,
 * or at the companion file. */
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "runtime_view/torch_verdict.h"

#include <stdlib.h>

extern const gm_rule gm152_torch_oom;

static const char *const advice[] = {
    [GM_TORCH_OOM_PENDING_FREE] =
        "frees still pending on other streams (record_stream, NCCL) held the memory: "
        "synchronize the streams before the large allocation, or free those tensors earlier",
    [GM_TORCH_OOM_FRAGMENTATION] =
        "the cache held enough free memory, but in pieces smaller than the request: set "
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, or allocate the long-lived tensors "
        "first and keep sizes uniform",
    [GM_TORCH_OOM_EXTERNAL] =
        "memory held outside PyTorch (other processes, CUDA contexts, NCCL buffers, other "
        "libraries) took the rest of the device: free or move those, or run fewer processes "
        "per GPU",
    [GM_TORCH_OOM_CAPACITY] =
        "the program needs more memory than the device has: reduce the batch size or the "
        "model's footprint (mixed precision, activation checkpointing), or free what is no "
        "longer needed first",
};

static int same(const gm_torch_oom_verdict *a, const gm_torch_oom_verdict *b) {
  return a->cause == b->cause && a->at.file == b->at.file && a->at.line == b->at.line;
}

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->torch.len; i++) {
    const gm_torch_view *v = c->telemetry->torch.items[i];
    size_t n = v->ooms.len;
    gm_torch_oom_verdict *vs = gm_xcalloc(n ? n : 1, sizeof *vs);
    for (size_t k = 0; k < n; k++)
      vs[k] = gm_torch_judge_oom(v, &v->ooms.items[k]);
    char *proc = gm_torch_process_text(v);
    for (size_t k = 0; k < n; k++) {
      size_t seen = 0, count = 0;
      for (size_t j = 0; j < n; j++) {
        seen += j < k && same(&vs[j], &vs[k]);
        count += same(&vs[j], &vs[k]);
      }
      if (seen)
        continue;
      const gm_torch_oom *o = &v->ooms.items[k];
      const gm_torch_oom_verdict *r = &vs[k];
      unsigned line;
      const char *file = gm_torch_where(v, r->at, &line);
      char figure[160]; /* the figure the cause rests on */
      if (r->cause == GM_TORCH_OOM_PENDING_FREE)
        snprintf(figure, sizeof figure, "%s pending free", gm_bytes(r->pending).s);
      else if (r->cause == GM_TORCH_OOM_FRAGMENTATION && r->from_snapshot)
        snprintf(figure, sizeof figure, "%s free in the cache, the largest block %s",
                 gm_bytes(r->pool_free).s, gm_bytes(r->largest_free).s);
      else if (r->cause == GM_TORCH_OOM_FRAGMENTATION)
        snprintf(figure, sizeof figure, "%s cached beyond the tensors", gm_bytes(r->pool_free).s);
      else if (r->cause == GM_TORCH_OOM_EXTERNAL)
        snprintf(figure, sizeof figure, "%s held outside PyTorch", gm_bytes(r->external).s);
      else
        snprintf(figure, sizeof figure, "%s allocated by tensors", gm_bytes(o->allocated).s);
      gm_finding *f = gm_runtime_add(
          c, &gm152_torch_oom, file, line, 0,
          "CUDA out of memory in %s: %s asked for on device %d with %s free of %s (cause: "
          "%s, %s); %s",
          proc, gm_bytes(o->request).s, o->device, gm_bytes(o->device_free).s, gm_bytes(o->limit).s,
          gm_torch_oom_cause_name(r->cause), figure, advice[r->cause]);
      char *snapshot =
          r->from_snapshot
              ? gm_xasprintf("%s pool: %s free in cached segments, largest free block %s; %s "
                             "pending free on other streams",
                             r->large_pool ? "large" : "small", gm_bytes(r->pool_free).s,
                             gm_bytes(r->largest_free).s, gm_bytes(r->pending).s)
              : gm_xasprintf("no snapshot of it (%s): judged from the record's figures alone, "
                             "%s cached beyond the allocated bytes",
                             o->snapshot         ? "its file is missing"
                             : o->snapshot_error ? o->snapshot_error
                                                 : "none was taken",
                             gm_bytes(r->pool_free).s);
      gm_runtime_evidence(
          f,
          "%zu out-of-memory %s here (%s); the first asked for %s with %s free "
          "of the %s limit, %s allocated and %s reserved by PyTorch, %s held "
          "outside it; %s",
          count, gm_plural(count, "error", "errors"), gm_torch_oom_cause_name(r->cause),
          gm_bytes(o->request).s, gm_bytes(o->device_free).s, gm_bytes(o->limit).s,
          gm_bytes(o->allocated).s, gm_bytes(r->reserved).s, gm_bytes(r->external).s, snapshot);
      free(snapshot);
    }
    free(proc);
    free(vs);
  }
}

const gm_rule gm152_torch_oom = {
    .id = "GM152",
    .name = "torch-oom",
    .summary = "PyTorch view: an out-of-memory error and its cause.",
    .description =
        "The PyTorch view of a run recorded a CUDA out-of-memory error (torch's OOM observer "
        "and the snapshot taken then). gmemlint names its cause: frees pending on other "
        "streams, fragmentation of the cache, memory held outside PyTorch, or plain capacity, "
        "with the figures it was judged by.",
    .fix = "Pending frees: synchronize streams before the allocation. Fragmentation: "
           "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True. External: free the memory other "
           "processes or libraries hold. Capacity: shrink the batch or the model's footprint.",
    .runtime = runtime,
};
