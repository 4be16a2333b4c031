/* The report's charts against time and step, with their axes: the "Device memory" section (live
 * bytes over time, per site at each gmem_step(), the series legend) and the "NVML samples"
 * section (memory used and utilization per device, with each run's GM140 verdict). What they
 * show: docs/report.md. */
#include "runtime_view/html.h"
#include "runtime_view/nvml_verdict.h"
#include "runtime_view/oom_verdict.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- axes ---- */

/* An axis draws at most this many ticks, whatever span the telemetry gives it. */
enum { MAX_TICKS = 64 };

/* A round tick step (1, 2 or 5 times a power of ten) for about `ticks` ticks over range. A span
 * too small for the arithmetic (a subnormal's tenth is 0) or not finite gets 1. */
static double nice_step(double range, int ticks) {
  if (!(range >= DBL_MIN) || !isfinite(range))
    return 1;
  double raw = range / ticks, mag = 1;
  while (mag * 10 <= raw)
    mag *= 10;
  while (mag > raw)
    mag /= 10;
  double norm = raw / mag;
  return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

typedef struct frame {
  double x0, y0, w, h; /* the plot area in SVG units */
  double xlo, xhi, ylo, yhi;
} frame;

/* A value far outside the plot (a negative time, a span of 1e-20 ms) is drawn at most a few
 * plot widths away: a coordinate stays a short number, never hundreds of digits. */
static double clamp_far(double v, double origin, double size) {
  double lo = origin - 4 * size, hi = origin + 5 * size;
  return !(v >= lo) ? lo : v > hi ? hi : v;
}
static double fx(const frame *f, double x) {
  return clamp_far(f->x0 + (f->xhi > f->xlo ? (x - f->xlo) / (f->xhi - f->xlo) : 0) * f->w, f->x0,
                   f->w);
}
static double fy(const frame *f, double y) {
  return clamp_far(f->y0 + f->h - (f->yhi > f->ylo ? (y - f->ylo) / (f->yhi - f->ylo) : 0) * f->h,
                   f->y0, f->h);
}

/* Byte ticks step in binary units: 256 MiB, not 268.4 MB. */
static double byte_step(double max, double *unit, const char **uname) {
  static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double u = 1;
  size_t k = 0;
  while (max / u >= 1024 && k + 1 < sizeof names / sizeof names[0]) {
    u *= 1024;
    k++;
  }
  *unit = u;
  *uname = names[k];
  return nice_step(max / u, 4) * u;
}

/* Grid lines and labels of a byte y axis; returns the axis top (a whole number of steps). */
static double byte_axis_max(double max) {
  double unit;
  const char *uname;
  double step = byte_step(max > 0 ? max : 1, &unit, &uname);
  double top = step;
  while (top < max)
    top += step;
  return top;
}

static void y_axis_bytes(FILE *out, const frame *f) {
  double unit;
  const char *uname;
  double step = byte_step(f->yhi, &unit, &uname);
  int n = 0;
  for (double v = 0; v <= f->yhi * 1.0001 && n < MAX_TICKS; v += step, n++) {
    double y = fy(f, v);
    fprintf(out,
            "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
            "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g %s</text>\n",
            f->x0, f->x0 + f->w, y, y, f->x0 - 6, y + 4, v / unit, uname);
  }
}

static void y_axis_percent(FILE *out, const frame *f) {
  for (int v = 0; v <= 100; v += 50) {
    double y = fy(f, v);
    fprintf(out,
            "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
            "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>\n",
            f->x0, f->x0 + f->w, y, y, f->x0 - 6, y + 4, v);
  }
}

/* x ticks with labels "<value><suffix>" (" ms", or "" for step numbers) */
static void x_axis(FILE *out, const frame *f, const char *suffix, int integers) {
  double step = nice_step(f->xhi - f->xlo, 8);
  if (integers && step < 1)
    step = 1;
  /* the slack for a tick on an end: 1e-9 ms, or a millionth of a step finer than that */
  double slack = step * 1e-6 < 1e-9 ? step * 1e-6 : 1e-9;
  double q = f->xlo / step; /* beyond a long long's range no tick fits the span anyway */
  double first = step * (q > -9e15 && q < 9e15 ? (double)(long long)q : 0);
  if (first < f->xlo - slack)
    first += step;
  double bottom = f->y0 + f->h;
  fprintf(out, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", f->x0,
          f->x0 + f->w, bottom, bottom);
  int n = 0;
  for (double v = first; v <= f->xhi + slack && n < MAX_TICKS; v += step, n++) {
    double x = fx(f, v);
    fprintf(out,
            "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
            "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g%s</text>\n",
            x, x, bottom, bottom + 4, x, bottom + 17, v, suffix);
  }
}

/* ---- the Device memory section ---- */

static void legend(html *h) {
  FILE *out = h->out;
  fputs("<ul class=\"legend\">\n", out);
  for (size_t i = 0; i < h->ntop; i++) {
    const gm_tsite *s = &h->t->sites.items[h->top[i]];
    char *name = html_site_short(s);
    fprintf(out, "<li><span class=\"swatch\" style=\"background:%s\"></span>", html_palette[i]);
    html_esc(out, name);
    fprintf(out, " <span class=\"dim\">peak %s</span></li>\n", gm_bytes(s->peak_live_bytes).s);
    free(name);
  }
  size_t others = 0;
  for (size_t i = 0; i < h->t->sites.len; i++)
    others += h->t->sites.items[i].kind == GM_SITE_ALLOC && h->t->sites.items[i].peak_live_bytes &&
              h->series[i] < 0;
  if (others)
    fprintf(out, "<li><span class=\"swatch\" style=\"background:%s\"></span>other (%zu %s)</li>\n",
            OTHER_COLOR, others, others == 1 ? "site" : "sites");
  fputs("</ul>\n", out);
}

/* The process's live bytes over time (process.timeline), one line per telemetry file, with the
 * out-of-memory events at their times. */
static void timeline_chart(html *h) {
  FILE *out = h->out;
  const gm_telemetry *t = h->t;
  double tmax = 0, ymax = 0;
  size_t points = 0;
  for (size_t i = 0; i < t->runs.len; i++) {
    const gm_trun *r = &t->runs.items[i];
    points += r->timeline.len;
    if (r->duration_ms > tmax)
      tmax = r->duration_ms;
    if (r->timeline.len && r->timeline.items[r->timeline.len - 1].ms > tmax)
      tmax = r->timeline.items[r->timeline.len - 1].ms;
    if ((double)r->peak_live_bytes > ymax)
      ymax = (double)r->peak_live_bytes;
    for (size_t k = 0; k < r->timeline.len; k++)
      if ((double)r->timeline.items[k].bytes > ymax)
        ymax = (double)r->timeline.items[k].bytes;
  }
  for (size_t i = 0; i < t->ooms.len; i++)
    if (t->ooms.items[i].time_ms > tmax)
      tmax = t->ooms.items[i].time_ms;
  fputs("<h3>Live memory over time</h3>\n", out);
  if (!points) {
    fputs("<p class=\"empty\">No timeline in the telemetry (GMEMRT_TIMELINE=0, or nothing was "
          "allocated).</p>\n",
          out);
    return;
  }
  frame f = {80, 16, 860, 220, 0, tmax > 0 ? tmax : 1, 0, byte_axis_max(ymax)};
  fputs("<svg id=\"timeline-chart\" class=\"chart\" viewBox=\"0 0 960 270\" role=\"img\">\n", out);
  y_axis_bytes(out, &f);
  x_axis(out, &f, " ms", 0);
  double bottom = f.y0 + f.h;
  for (size_t i = 0; i < t->runs.len; i++) {
    const gm_trun *r = &t->runs.items[i];
    if (!r->timeline.len)
      continue;
    const char *color = html_palette[i % MAX_SERIES];
    /* live bytes hold between samples: a step line from the start (nothing live) */
    gm_strbuf d = {0};
    gm_sb_printf(&d, "M%.1f %.1f", fx(&f, 0), bottom);
    for (size_t k = 0; k < r->timeline.len; k++)
      gm_sb_printf(&d, "H%.1fV%.1f", fx(&f, r->timeline.items[k].ms),
                   fy(&f, (double)r->timeline.items[k].bytes));
    double end = r->duration_ms > r->timeline.items[r->timeline.len - 1].ms
                     ? r->duration_ms
                     : r->timeline.items[r->timeline.len - 1].ms;
    gm_sb_printf(&d, "H%.1f", fx(&f, end));
    char *line = gm_sb_take(&d);
    fprintf(out, "<g class=\"run-line\"><path d=\"%sV%.1fZ\" fill=\"%s\" fill-opacity=\"%s\"/>",
            line, bottom, color, t->runs.len == 1 ? "0.25" : "0.08");
    fprintf(out, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"><title>", line,
            color);
    html_escf(out, "%s (pid %ld): %zu samples", r->path, r->pid, r->timeline.len);
    fputs("</title></path></g>\n", out);
    free(line);
    double py = fy(&f, (double)r->peak_live_bytes);
    fprintf(out,
            "<line class=\"peak\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
            "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">peak %s</text>\n",
            f.x0, f.x0 + f.w, py, py, color, f.x0 + f.w, py - 4, gm_bytes(r->peak_live_bytes).s);
    if (r->peak_space) {
      double x = fx(&f, r->peak_space->time_ms);
      fprintf(out,
              "<g class=\"peak-view-marker\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"none\" "
              "stroke=\"#333\"/><title>address-space view taken at %.1f ms (%s live)</title></g>\n",
              x, fy(&f, (double)r->peak_space->live_bytes), r->peak_space->time_ms,
              gm_bytes(r->peak_space->live_bytes).s);
    }
  }
  for (size_t i = 0; i < t->ooms.len; i++) {
    const gm_toom *e = &t->ooms.items[i];
    double x = fx(&f, e->time_ms);
    fprintf(out,
            "<g class=\"oom-marker\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"%s\" stroke-dasharray=\"4 3\"/><path d=\"M%.1f %.1fl-5 -8h10z\" fill=\"%s\"/>"
            "<text class=\"note oom\" x=\"%.1f\" y=\"%.1f\">OOM %zu</text><title>",
            x, x, f.y0, bottom, OOM_COLOR, x, f.y0, OOM_COLOR, x + 4, f.y0 + 10, i + 1);
    html_escf(out, "out of memory at %.1f ms (%s, pid %ld): %s %s asked for %s with %s free of %s",
              e->time_ms, gm_oom_verdict_name(gm_oom_judge(e)), e->pid,
              e->file ? e->file : "(no site)", e->api, gm_bytes(e->requested_bytes).s,
              gm_bytes(e->free_bytes).s, gm_bytes(e->total_bytes).s);
    fputs("</title></g>\n", out);
  }
  fputs("</svg>\n", out);
  if (t->runs.len > 1) {
    fputs("<ul class=\"legend\">", out);
    for (size_t i = 0; i < t->runs.len; i++) {
      fprintf(out, "<li><span class=\"swatch\" style=\"background:%s\"></span>",
              html_palette[i % MAX_SERIES]);
      html_escf(out, "%s (pid %ld)", t->runs.items[i].path, t->runs.items[i].pid);
      fputs("</li>", out);
    }
    fputs("</ul>\n", out);
  }
}

/* Per-site live bytes at each gmem_step() (step_live_bytes, summed over files), stacked: the
 * top sites by peak and the rest as "other". */
static void steps_chart(html *h) {
  FILE *out = h->out;
  const gm_telemetry *t = h->t;
  size_t n = 0;
  for (size_t i = 0; i < t->sites.len; i++)
    if (t->sites.items[i].step_live.len > n)
      n = t->sites.items[i].step_live.len;
  fputs("<h3>Live memory by site at each step</h3>\n", out);
  if (!n) {
    fputs("<p class=\"empty\">The program never called <code>gmem_step()</code>, so the "
          "telemetry has no per-site series; the address space at the peak (below) shows which "
          "sites held the memory then.</p>\n",
          out);
    return;
  }
  /* series values: [series][step]; series ntop is "other" */
  size_t ns = h->ntop + 1;
  double *v = gm_xcalloc(ns * n, sizeof *v);
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_tsite *s = &t->sites.items[i];
    size_t row = h->series[i] >= 0 ? (size_t)h->series[i] : h->ntop;
    for (size_t k = 0; k < s->step_live.len; k++)
      v[row * n + k] += (double)s->step_live.items[k];
  }
  double *cum = gm_xcalloc(n, sizeof *cum);
  double ymax = 0;
  for (size_t k = 0; k < n; k++) {
    double sum = 0;
    for (size_t r = 0; r < ns; r++)
      sum += v[r * n + k];
    if (sum > ymax)
      ymax = sum;
  }
  int bars = n <= BAR_STEPS;
  frame f = {80,
             16,
             860,
             220,
             bars ? 0.5 : 1,
             bars ? (double)n + 0.5 : (double)(n > 1 ? n : 2),
             0,
             byte_axis_max(ymax)};
  fputs("<svg id=\"steps-chart\" class=\"chart\" viewBox=\"0 0 960 285\" role=\"img\">\n", out);
  y_axis_bytes(out, &f);
  x_axis(out, &f, "", 1);
  double bw = f.w / (double)n * 0.7;
  for (size_t r = 0; r < ns; r++) {
    int any = 0;
    for (size_t k = 0; k < n && !any; k++)
      any = v[r * n + k] > 0;
    if (!any)
      continue;
    const char *color = r < h->ntop ? html_palette[r] : OTHER_COLOR;
    char *name =
        r < h->ntop ? html_site_short(&t->sites.items[h->top[r]]) : gm_xstrdup("other sites");
    fprintf(out, "<g class=\"series\" fill=\"%s\">", color);
    if (bars) {
      for (size_t k = 0; k < n; k++) {
        double val = v[r * n + k];
        if (val <= 0)
          continue;
        double y1 = fy(&f, cum[k] + val), y0 = fy(&f, cum[k]);
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.2f\"><title>step %zu: ",
                fx(&f, (double)k + 1) - bw / 2, y1, bw, y0 - y1, k + 1);
        html_esc(out, name);
        fprintf(out, " %s</title></rect>", gm_bytes((uint64_t)val).s);
      }
    } else {
      fputs("<polygon points=\"", out);
      for (size_t k = 0; k < n; k++)
        fprintf(out, "%.1f,%.1f ", fx(&f, (double)k + 1), fy(&f, cum[k] + v[r * n + k]));
      for (size_t k = n; k-- > 0;)
        fprintf(out, "%.1f,%.1f ", fx(&f, (double)k + 1), fy(&f, cum[k]));
      fputs("\"><title>", out);
      html_esc(out, name);
      fputs("</title></polygon>", out);
    }
    fputs("</g>\n", out);
    for (size_t k = 0; k < n; k++)
      cum[k] += v[r * n + k];
    free(name);
  }
  /* one marker per gmem_step() on the axis (thinned past MAX_STEP_MARKERS) */
  size_t every = (n + MAX_STEP_MARKERS - 1) / MAX_STEP_MARKERS;
  double bottom = f.y0 + f.h;
  double half = f.w / (double)((n + every - 1) / every) * 0.35; /* narrower as they crowd */
  half = half > 3 ? 3 : half < 0.5 ? 0.5 : half;
  fprintf(out, "<g class=\"step-markers\" data-every=\"%zu\">", every);
  for (size_t k = 0; k < n; k += every)
    fprintf(out,
            "<path class=\"step-marker\" d=\"M%.1f %.1fl%.2f 7h%.2fz\"><title>gmem_step() %zu: "
            "%s live</title></path>",
            fx(&f, (double)k + 1), bottom + 20, -half, 2 * half, k + 1,
            gm_bytes((uint64_t)cum[k]).s);
  fputs("</g>\n", out);
  fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">step</text>\n",
          f.x0 + f.w / 2, bottom + 42);
  fputs("</svg>\n", out);
  free(v);
  free(cum);
}

void html_memory_section(html *h) {
  FILE *out = h->out;
  fputs("<section id=\"memory\"><h2>Device memory</h2>\n", out);
  timeline_chart(h);
  steps_chart(h);
  legend(h);
  fputs("<p class=\"caption\">The runtime samples the process's live bytes (device, managed and "
        "pinned memory of every device together) after allocations and frees: the upper chart "
        "draws those samples against time, with out-of-memory events where they happened. It "
        "keeps no per-site time series; per site it records the live bytes at each "
        "<code>gmem_step()</code>, without the step's time. So the lower chart stacks the "
        "sites by step number, and the step markers cannot be placed on the time axis. Sites "
        "are the largest by peak live bytes; the rest are summed as \"other\".</p>\n",
        out);
  fputs("</section>\n", out);
}

/* ---- NVML ---- */

/* A small chart of one NVML column for one device over time. */
static void nvml_chart(html *h, const gm_trun *r, int device, int what, double tmax) {
  FILE *out = h->out;
  static const char *const titles[] = {"memory used", "SM utilization",
                                       "memory-bandwidth utilization"};
  double ymax = 100;
  if (what == 0) {
    ymax = 1;
    for (size_t i = 0; i < r->nvml.len; i++)
      if (r->nvml.items[i].device == device) {
        const gm_tnvml *x = &r->nvml.items[i];
        if ((double)x->total_bytes > ymax)
          ymax = (double)x->total_bytes;
        if ((double)x->used_bytes > ymax)
          ymax = (double)x->used_bytes;
      }
    ymax = byte_axis_max(ymax);
  }
  frame f = {62, 24, 230, 110, 0, tmax > 0 ? tmax : 1, 0, ymax};
  fprintf(out,
          "<svg class=\"chart nvml-chart\" viewBox=\"0 0 310 165\" role=\"img\">"
          "<text class=\"label\" x=\"62\" y=\"14\">%s</text>\n",
          titles[what]);
  if (what == 0)
    y_axis_bytes(out, &f);
  else
    y_axis_percent(out, &f);
  x_axis(out, &f, "", 0);
  gm_strbuf d = {0};
  uint64_t total = 0;
  for (size_t i = 0; i < r->nvml.len; i++) {
    const gm_tnvml *x = &r->nvml.items[i];
    if (x->device != device)
      continue;
    double v = what == 0 ? (double)x->used_bytes : what == 1 ? x->sm_percent : x->mem_percent;
    gm_sb_printf(&d, "%s%.1f %.1f", d.len ? "L" : "M", fx(&f, x->ms), fy(&f, v));
    total = x->total_bytes;
  }
  char *path = gm_sb_take(&d);
  fprintf(out, "<path class=\"nvml-line\" d=\"%s\" fill=\"none\" stroke=\"%s\"/>\n",
          path ? path : "", html_palette[what]);
  free(path);
  if (what == 0 && total) {
    double y = fy(&f, (double)total);
    fprintf(out,
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
            "stroke-dasharray=\"3 3\"/><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
            "text-anchor=\"end\">total %s</text>\n",
            f.x0, f.x0 + f.w, y, y, f.x0 + f.w, y - 3, gm_bytes(total).s);
    /* GM140's "full" line: a sample above it counts towards capacity-bound */
    y = fy(&f, (double)total * GM140_FULL_PERCENT / 100);
    fprintf(out,
            "<line class=\"full-line\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"#6a3d9a\" stroke-dasharray=\"1 3\"/><text class=\"tick\" x=\"%.1f\" "
            "y=\"%.1f\">%d%%</text>\n",
            f.x0, f.x0 + f.w, y, y, f.x0 + 2, y + 10, GM140_FULL_PERCENT);
  }
  fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"160\" text-anchor=\"middle\">ms</text>",
          f.x0 + f.w / 2);
  fputs("</svg>\n", out);
}

/* The run's GM140 verdict (nvml_verdict.h), the same words as the rule's evidence. */
static void nvml_verdict(FILE *out, const gm_telemetry *t, size_t run) {
  gm_nvml_verdict v = gm_nvml_judge_run(t, run);
  const char *name = gm_nvml_bound_name(v.bound);
  char *text = gm_nvml_verdict_text(&v, &t->runs.items[run]);
  int bound = v.bound == GM_BOUND_CAPACITY || v.bound == GM_BOUND_BANDWIDTH;
  fprintf(out, "<p class=\"nvml-verdict\" data-verdict=\"%s\"><span class=\"verdict v-%s\">",
          bound || v.bound == GM_BOUND_NEITHER ? name : "no-verdict", bound ? "bound" : "none");
  html_escf(out, "GM140 %s", name);
  fputs("</span> ", out);
  html_esc(out, text + strlen(name) + 2); /* past "name: ", which the chip shows */
  fputs("</p>\n", out);
  free(text);
}

enum { NVML_DEVICES_DRAWN = 64 };

void html_nvml_section(html *h) {
  FILE *out = h->out;
  const gm_telemetry *t = h->t;
  fputs("<section id=\"nvml\"><h2>NVML samples</h2>\n", out);
  int any = 0;
  for (size_t i = 0; i < t->runs.len; i++) {
    const gm_trun *r = &t->runs.items[i];
    if (!r->nvml.len) {
      fputs("<p class=\"empty\">", out);
      html_escf(out, "%s: no NVML samples (%s).", r->path,
                r->nvml_available ? "none were taken" : r->nvml_reason);
      fputs(" Sampling is on by default (<code>GMEMRT_NVML=1</code>) where the NVML library "
            "is installed.</p>\n",
            out);
      if (gm_nvml_judge_run(t, i).bound == GM_BOUND_CAPACITY) /* from its out-of-memory events */
        nvml_verdict(out, t, i);
      continue;
    }
    double tmax = r->duration_ms;
    for (size_t k = 0; k < r->nvml.len; k++)
      if (r->nvml.items[k].ms > tmax)
        tmax = r->nvml.items[k].ms;
    if (t->runs.len > 1) {
      fputs("<h3>", out);
      html_escf(out, "%s (pid %ld)", r->path, r->pid);
      fputs("</h3>\n", out);
    }
    nvml_verdict(out, t, i);
    gm_nvml_figures *fig = gm_xcalloc(NVML_DEVICES_DRAWN, sizeof *fig);
    size_t n = gm_nvml_device_figures(r, fig, NVML_DEVICES_DRAWN);
    for (size_t s = 0; s < n && s < NVML_DEVICES_DRAWN; s++) {
      const gm_nvml_figures *f = &fig[s];
      fprintf(out, "<h3 class=\"nvml-device%s\">", f->judged ? "" : " not-judged");
      html_escf(out,
                "Device %d (pid %ld): %zu samples; SM mean %.0f%%, memory bandwidth mean %.0f%%, "
                "used at most %s of %s%s",
                f->device, r->pid, f->samples, f->mean_sm, f->mean_mem, gm_bytes(f->peak_used).s,
                gm_bytes(f->total).s, f->judged ? "" : " (not the run's device: not judged)");
      fputs("</h3>\n<div class=\"nvml-row\">\n", out);
      for (int what = 0; what < 3; what++)
        nvml_chart(h, r, f->device, what, tmax);
      fputs("</div>\n", out);
      any = 1;
    }
    free(fig);
  }
  if (any)
    fputs("<p class=\"caption\">NVML's view of the whole device (every process on it, not only "
          "this program's allocations), sampled by the runtime's background thread every "
          "GMEMRT_NVML_MS. SM utilization is the share of time any kernel ran (not how many SMs "
          "worked); memory-bandwidth utilization the share of time device memory was read or "
          "written. The verdict (GM140) holds each of the run's devices against thresholds: "
          "capacity-bound when at least 90% full in half the samples, bandwidth-bound when "
          "memory was busy for most of the kernels' time (docs/rules/GM140.md).</p>\n",
          out);
  fputs("</section>\n", out);
}
