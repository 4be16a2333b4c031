/* GM121 runtime-small-copies (runtime only; the run's twin of GM021)
 *
 * A copy site that a run saw make many copies of a small mean size, where the static pass raised
 * no GM021: the loop is in a file it was not given, the copy is made by a helper called through a
 * function pointer or a virtual method, in a library, or in a Python program under gmemrun. Each
 * cudaMemcpy pays microseconds of fixed cost, so small copies reach a tiny fraction of what one
 * large copy in the same direction achieves in the same run; the evidence sets the two side by
 * side where the run has one.
 *
 *   seen:  cudaMemcpy at upload.cu:8, 4,096 copies host-to-device of mean 256 B, 48.8 MiB/s,
 *          against 29.8 GiB/s for the 1.0 MiB copies at upload.cu:13: 625x slower
 *   fix:   one cudaMemcpy of the whole range, cudaMemcpy2D for a strided layout, or stage the
 *          elements in a host buffer and copy it once
 *
 * Thresholds: at least GM121_MIN_COPIES copies with a mean below GM121_SMALL_MEAN_BYTES (GM021's
 * "small"), at least GM121_MIN_STRIDED_PERCENT of them moving on through a range by a constant
 * step (copies_strided: GM021's "address that advances with the loop"; a scalar read back to one
 * place every step, or a batch uploaded into the same buffer every step, is not one copy that
 * was split up); a copy site whose mean is at least GM121_LARGE_MEAN_BYTES is the large copy it is
 * compared with: the one with the highest achieved bandwidth in the same direction
 * (copy_direction), or in any direction when the small site's direction is not known (older
 * telemetry, cudaMemcpyDefault, mixed kinds), which the evidence says. */
#include "rules/rules.h"
#include "runtime_view/join.h"

#include <stdlib.h>
#include <string.h>

extern const gm_rule gm121_runtime_small_copies;

/* GM021 confirms a static finding at 16 copies, where the static pass has seen a loop whose
 * address advances (a range one copy could move). A run alone has no such loop to show, so it
 * asks for four times as many copies, and for most of them to walk a range by a constant step:
 * half, so that a helper that several loops call, each jumping to its own range, still counts,
 * while a flag read back to one place or two buffers taken in turn never do. Small is GM021's:
 * below 64 KiB a copy's fixed cost (several microseconds) outweighs its transfer on PCIe or
 * NVLink. A copy of 1 MiB or more spends most of its time moving data, so its bandwidth is what
 * the link can do. */
enum {
  GM121_MIN_COPIES = 64,
  GM121_SMALL_MEAN_BYTES = 64 * 1024,
  GM121_MIN_STRIDED_PERCENT = 50,
  GM121_LARGE_MEAN_BYTES = 1024 * 1024,
};

/* Whether the site's copies went one known way (not cudaMemcpyDefault, mixed or unrecorded). */
static int definite_direction(const gm_tsite *s) {
  const char *d = s->copy_direction;
  return d && strcmp(d, "mixed") != 0 && strcmp(d, "default") != 0 && strcmp(d, "unknown") != 0;
}

/* The large copy site to hold small against: the fastest with a mean of at least
 * GM121_LARGE_MEAN_BYTES, in small's direction when it has a definite one, else in any. */
static const gm_tsite *large_copy_for(const gm_telemetry *t, const gm_tsite *small) {
  const gm_tsite *best = NULL;
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_tsite *s = &t->sites.items[i];
    if (s->kind != GM_SITE_OTHER || !s->copies || !s->copy_ns ||
        s->copy_bytes / s->copies < GM121_LARGE_MEAN_BYTES)
      continue;
    /* same direction: the comparison that matters (a device-to-device copy says nothing of
     * what PCIe can do) */
    if (definite_direction(small) &&
        (!s->copy_direction || strcmp(s->copy_direction, small->copy_direction) != 0))
      continue;
    /* bytes per ns, compared without division: a/b > c/d */
    if (!best || (double)s->copy_bytes * (double)best->copy_ns >
                     (double)best->copy_bytes * (double)s->copy_ns)
      best = s;
  }
  return best;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* ", against 29.8 GiB/s for the 1.0 MiB copies at upload.cu:13: 625x slower" or what the run
 * lacked; empty when small's time was not measured. */
static void comparison_text(char *buf, size_t n, const gm_telemetry *t, const gm_tsite *small) {
  buf[0] = 0;
  if (!small->copy_ns || !small->copy_bytes)
    return;
  const gm_tsite *large = large_copy_for(t, small);
  int known = definite_direction(small);
  if (!large) {
    snprintf(buf, n, "; no copy of %s or more %s%s in the run to compare it with",
             gm_bytes(GM121_LARGE_MEAN_BYTES).s, known ? "" : "in any direction",
             known ? small->copy_direction : "");
    return;
  }
  double small_rate = (double)small->copy_bytes / (double)small->copy_ns;
  double large_rate = (double)large->copy_bytes / (double)large->copy_ns;
  double ratio = large_rate / small_rate;
  char times[32];
  if (ratio >= 10)
    snprintf(times, sizeof times, "%.0fx slower", ratio);
  else if (ratio > 1)
    snprintf(times, sizeof times, "%.1fx slower", ratio);
  else
    snprintf(times, sizeof times, "no slower");
  snprintf(buf, n, ", against %s for the %s copies at %s:%u%s: %s",
           gm_rate(large->copy_bytes, large->copy_ns).s,
           gm_bytes(large->copy_bytes / large->copies).s, base_name(large->file), large->line,
           known ? ""
                 : ", the fastest large copy in any direction, as this site's direction is not "
                   "known",
           times);
}

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->sites.len; i++) {
    const gm_tsite *s = &c->telemetry->sites.items[i];
    if (s->kind != GM_SITE_OTHER || s->copies < GM121_MIN_COPIES)
      continue;
    uint64_t mean = s->copy_bytes / s->copies;
    if (mean >= GM121_SMALL_MEAN_BYTES)
      continue;
    /* copies to and from the same place every time (a flag read back each step) cannot be
     * batched; older telemetry does not say, and the evidence says so */
    if (s->has_copies_strided && s->copies_strided * 100 < GM121_MIN_STRIDED_PERCENT * s->copies)
      continue;
    if (gm_runtime_covered(c, s, "GM021")) /* the static finding's verdict covers it */
      continue;
    gm_finding *f = gm_runtime_add(
        c, &gm121_runtime_small_copies, s->file, s->line, s->column,
        "%s here made %llu copies of mean %s: many small transfers, each paying the call's fixed "
        "cost, that the static pass did not see (a loop in another file or behind a call it "
        "cannot follow); copy the whole range with one %s, a strided layout with cudaMemcpy2D, "
        "or stage the elements in a host buffer and copy it once",
        s->api, (unsigned long long)s->copies, gm_bytes(mean).s, s->api);
    char direction[48] = "", compared[320], strided[160];
    if (s->has_copies_strided)
      snprintf(strided, sizeof strided,
               ", %llu of them moving on through a range by a constant step (threshold: %d%%)",
               (unsigned long long)s->copies_strided, GM121_MIN_STRIDED_PERCENT);
    else
      snprintf(strided, sizeof strided,
               " (the telemetry does not say whether their addresses advanced)");
    if (definite_direction(s))
      snprintf(direction, sizeof direction, " %s", s->copy_direction);
    else if (s->copy_direction && strcmp(s->copy_direction, "default") == 0)
      snprintf(direction, sizeof direction, " with cudaMemcpyDefault");
    else if (s->copy_direction && strcmp(s->copy_direction, "mixed") == 0)
      snprintf(direction, sizeof direction, " in mixed directions");
    comparison_text(compared, sizeof compared, c->telemetry, s);
    char *stack = gm_site_stack_text(s);
    gm_runtime_evidence(f,
                        "%llu copies%s (threshold: %d) of mean %s (threshold: below %s)%s, %s in "
                        "%s: %s achieved%s%s",
                        (unsigned long long)s->copies, direction, GM121_MIN_COPIES,
                        gm_bytes(mean).s, gm_bytes(GM121_SMALL_MEAN_BYTES).s, strided,
                        gm_bytes(s->copy_bytes).s, gm_duration_ns(s->copy_ns).s,
                        gm_rate(s->copy_bytes, s->copy_ns).s, compared, stack);
    free(stack);
  }
}

const gm_rule gm121_runtime_small_copies = {
    .id = "GM121",
    .name = "runtime-small-copies",
    .summary = "Runtime: a copy site made many small copies (no static GM021).",
    .description =
        "The telemetry of an instrumented run shows a cudaMemcpy or cudaMemcpyAsync site that "
        "made many copies of a small mean size, where the static pass raised no GM021: the loop "
        "is in a file it was not given, the copy is made by a helper called through a function "
        "pointer or virtual method, in a library, or in a Python program run under gmemrun. "
        "Each call has a fixed cost of several microseconds, so small copies reach a tiny "
        "fraction of the bandwidth one large copy in the same direction achieves.",
    .fix = "Copy the whole range with one cudaMemcpy, a strided layout with cudaMemcpy2D, or "
           "stage the elements in a host buffer and copy it once.",
    .runtime = runtime,
};
