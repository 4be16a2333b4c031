/* gmemlint report --html: one self-contained page (inline CSS, SVG drawn here, a few lines of
 * inline script to sort tables; nothing fetched) with the run's memory over time and by step, the
 * sites and their findings, unified-memory traffic, the address space at the peak and NVML's
 * samples. What each chart shows and where its data comes from: docs/report.md.
 *
 * Every string that comes from telemetry, sources or the command line goes through esc(). */
#include "rules/rules.h"
#include "runtime_view/out_report.h"
#include "support/version.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SERIES = 10, BAR_STEPS = 60, MAX_STEP_MARKERS = 2000 };
static const char *const palette[MAX_SERIES] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                                "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
                                                "#9c755f", "#86bcb6"};
#define OTHER_COLOR "#bab0ac"
#define OOM_COLOR "#d62728"

typedef struct html {
  FILE *out;
  const gm_html_input *in;
  const gm_telemetry *t;
  size_t top[MAX_SERIES]; /* the sites drawn as series, largest peak first */
  size_t ntop;
  int *series; /* per site: its index in top, or -1 ("other") */
} html;

/* ---- escaping: the one function for text from outside ---- */

/* Escapes s for element content and for quoted attribute values alike. */
static void esc(FILE *out, const char *s) {
  for (; s && *s; s++)
    switch (*s) {
    case '&':
      fputs("&amp;", out);
      break;
    case '<':
      fputs("&lt;", out);
      break;
    case '>':
      fputs("&gt;", out);
      break;
    case '"':
      fputs("&quot;", out);
      break;
    case '\'':
      fputs("&#39;", out);
      break;
    default:
      fputc(*s, out);
    }
}

/* printf, escaped: for text that mixes figures with names from the telemetry */
static void escf(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void escf(FILE *out, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *buf = gm_xmalloc(n > 0 ? (size_t)n + 1 : 1);
  vsnprintf(buf, n > 0 ? (size_t)n + 1 : 1, fmt, ap2);
  va_end(ap2);
  esc(out, buf);
  free(buf);
}

/* ---- names ---- */

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash && slash[1] ? slash + 1 : path;
}

/* Where a site is, as recorded: "src/app.cu:41", or "train (libx.so+0x1a2b)" without a line. */
static char *site_where(const gm_tsite *s) {
  if (s->no_source)
    return gm_xasprintf("%s (%s)", s->function ? s->function : "?", s->file);
  return gm_xasprintf("%s:%u", s->file, s->line);
}

/* Short, for legends and labels: "app.cu:41 cudaMalloc". */
static char *site_short(const gm_tsite *s) {
  if (s->no_source)
    return gm_xasprintf("%s %s", s->function ? s->function : s->file, s->api);
  return gm_xasprintf("%s:%u %s", base_name(s->file), s->line, s->api);
}

static const char *series_color(const html *h, long site) {
  if (site < 0 || h->series[site] < 0)
    return OTHER_COLOR;
  return palette[h->series[site]];
}

/* ---- axes ---- */

/* A round tick step (1, 2 or 5 times a power of ten) for about `ticks` ticks over range. */
static double nice_step(double range, int ticks) {
  if (range <= 0)
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

static double fx(const frame *f, double x) {
  return f->x0 + (f->xhi > f->xlo ? (x - f->xlo) / (f->xhi - f->xlo) : 0) * f->w;
}
static double fy(const frame *f, double y) {
  return f->y0 + f->h - (f->yhi > f->ylo ? (y - f->ylo) / (f->yhi - f->ylo) : 0) * f->h;
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
  for (double v = 0; v <= f->yhi * 1.0001; v += step) {
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
  double first = step * (double)(long long)(f->xlo / step);
  if (first < f->xlo - 1e-9)
    first += step;
  double bottom = f->y0 + f->h;
  fprintf(out, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", f->x0,
          f->x0 + f->w, bottom, bottom);
  for (double v = first; v <= f->xhi + 1e-9; v += step) {
    double x = fx(f, v);
    fprintf(out,
            "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
            "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g%s</text>\n",
            x, x, bottom, bottom + 4, x, bottom + 17, v, suffix);
  }
}

/* ---- page parts ---- */

static void summary(html *h) {
  FILE *out = h->out;
  const gm_telemetry *t = h->t;
  fputs("<section id=\"summary\"><table class=\"kv\">\n", out);
  for (size_t i = 0; i < t->runs.len; i++) {
    const gm_trun *r = &t->runs.items[i];
    fputs("<tr><th>run</th><td>", out);
    escf(out, "%s (pid %ld), %s after %.1f ms; peak %s, %s live in %llu allocations at the end",
         *r->program ? r->program : "?", r->pid, r->reason, r->duration_ms,
         gm_bytes(r->peak_live_bytes).s, gm_bytes(r->live_bytes).s,
         (unsigned long long)r->live_count);
    fputs("<br><span class=\"dim\">", out);
    esc(out, r->path);
    escf(out, "; %llu gmem_step() calls; unified-memory counters: %s; NVML: %s",
         (unsigned long long)r->steps, r->um_available ? "collected" : r->um_reason,
         r->nvml_available ? "sampled" : r->nvml_reason);
    fputs("</span></td></tr>\n", out);
    for (size_t d = 0; d < r->devices.len; d++) {
      const gm_tdevice *dv = &r->devices.items[d];
      fprintf(out,
              "<tr><th>device %d</th><td>%llu allocations, peak %s, %s live in %llu at the "
              "end</td></tr>\n",
              dv->device, (unsigned long long)dv->allocations, gm_bytes(dv->peak_live_bytes).s,
              gm_bytes(dv->live_bytes).s, (unsigned long long)dv->live_count);
    }
  }
  fprintf(out, "<tr><th>out of memory</th><td>%zu %s</td></tr>\n", t->ooms.len,
          t->ooms.len == 1 ? "event" : "events");
  fputs("</table></section>\n", out);
}

static void legend(html *h) {
  FILE *out = h->out;
  fputs("<ul class=\"legend\">\n", out);
  for (size_t i = 0; i < h->ntop; i++) {
    const gm_tsite *s = &h->t->sites.items[h->top[i]];
    char *name = site_short(s);
    fprintf(out, "<li><span class=\"swatch\" style=\"background:%s\"></span>", palette[i]);
    esc(out, name);
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
    const char *color = palette[i % MAX_SERIES];
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
    escf(out, "%s (pid %ld): %zu samples", r->path, r->pid, r->timeline.len);
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
    escf(out, "out of memory at %.1f ms (%s, pid %ld): %s %s asked for %s with %s free of %s",
         e->time_ms, e->verdict, e->pid, e->file ? e->file : "(no site)", e->api,
         gm_bytes(e->requested_bytes).s, gm_bytes(e->free_bytes).s, gm_bytes(e->total_bytes).s);
    fputs("</title></g>\n", out);
  }
  fputs("</svg>\n", out);
  if (t->runs.len > 1) {
    fputs("<ul class=\"legend\">", out);
    for (size_t i = 0; i < t->runs.len; i++) {
      fprintf(out, "<li><span class=\"swatch\" style=\"background:%s\"></span>",
              palette[i % MAX_SERIES]);
      escf(out, "%s (pid %ld)", t->runs.items[i].path, t->runs.items[i].pid);
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
    const char *color = r < h->ntop ? palette[r] : OTHER_COLOR;
    char *name = r < h->ntop ? site_short(&t->sites.items[h->top[r]]) : gm_xstrdup("other sites");
    fprintf(out, "<g class=\"series\" fill=\"%s\">", color);
    if (bars) {
      for (size_t k = 0; k < n; k++) {
        double val = v[r * n + k];
        if (val <= 0)
          continue;
        double y1 = fy(&f, cum[k] + val), y0 = fy(&f, cum[k]);
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.2f\"><title>step %zu: ",
                fx(&f, (double)k + 1) - bw / 2, y1, bw, y0 - y1, k + 1);
        esc(out, name);
        fprintf(out, " %s</title></rect>", gm_bytes((uint64_t)val).s);
      }
    } else {
      fputs("<polygon points=\"", out);
      for (size_t k = 0; k < n; k++)
        fprintf(out, "%.1f,%.1f ", fx(&f, (double)k + 1), fy(&f, cum[k] + v[r * n + k]));
      for (size_t k = n; k-- > 0;)
        fprintf(out, "%.1f,%.1f ", fx(&f, (double)k + 1), fy(&f, cum[k]));
      fputs("\"><title>", out);
      esc(out, name);
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

static void memory_section(html *h) {
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

/* ---- the sites and the findings ---- */

static int is_static(const gm_finding *f) {
  return f->rule->check != NULL;
}

static void verdict_chip(FILE *out, const gm_finding *f) {
  const char *v = gm_verdict_name(f->verdict);
  fprintf(out, "<span class=\"verdict v-%s\">%s %s</span>", *v ? v : "none", f->rule->id,
          *v ? v : "no verdict");
}

/* The site a finding rests on: the telemetry site at its location (allocation, then copy, then
 * free), or a site without a line named as the finding's file. -1 when none. */
static long finding_site(const gm_telemetry *t, const gm_finding *f) {
  static const enum gm_site_kind kinds[] = {GM_SITE_ALLOC, GM_SITE_OTHER, GM_SITE_FREE};
  for (size_t k = 0; k < 3; k++) {
    const gm_tsite *s = gm_telemetry_find(t, f->loc.file, f->loc.line, f->loc.col, kinds[k]);
    if (s)
      return (long)(s - t->sites.items);
  }
  for (size_t i = 0; f->loc.file && i < t->sites.len; i++)
    if (t->sites.items[i].no_source && strcmp(t->sites.items[i].file, f->loc.file) == 0)
      return (long)i;
  return -1;
}

typedef struct placed {
  const gm_finding *f;
  long site;
} placed;

static int by_peak_desc(const void *a, const void *b, const gm_telemetry *t) {
  const gm_tsite *x = &t->sites.items[*(const size_t *)a], *y = &t->sites.items[*(const size_t *)b];
  if (x->kind != y->kind)
    return (int)x->kind - (int)y->kind;
  uint64_t kx = x->kind == GM_SITE_ALLOC ? x->peak_live_bytes : x->copies + x->prefetches;
  uint64_t ky = y->kind == GM_SITE_ALLOC ? y->peak_live_bytes : y->copies + y->prefetches;
  if (kx != ky)
    return kx < ky ? 1 : -1;
  return x < y ? -1 : x > y ? 1 : 0; /* ties: in the telemetry's order */
}
static const gm_telemetry *sort_t;
static int site_order(const void *a, const void *b) {
  return by_peak_desc(a, b, sort_t);
}

static void sizes_text(FILE *out, const gm_tsite *s) {
  if (!s->sizes.len) {
    fputs("&#8211;", out);
    return;
  }
  uint64_t lo = s->sizes.items[0], hi = lo;
  for (size_t i = 1; i < s->sizes.len; i++) {
    if (s->sizes.items[i] < lo)
      lo = s->sizes.items[i];
    if (s->sizes.items[i] > hi)
      hi = s->sizes.items[i];
  }
  fprintf(out, "%zu%s", s->sizes.len, s->sizes_truncated ? "+" : "");
  if (lo == hi)
    fprintf(out, " <span class=\"dim\">(%s)</span>", gm_bytes(lo).s);
  else
    fprintf(out, " <span class=\"dim\">(%s &#8211; %s)</span>", gm_bytes(lo).s, gm_bytes(hi).s);
}

static void sites_section(html *h, const placed *pl, size_t npl) {
  FILE *out = h->out;
  const gm_telemetry *t = h->t;
  /* alloc sites, copy and prefetch sites, and free sites a finding rests on */
  size_t *rows = gm_xcalloc(t->sites.len + 1, sizeof *rows);
  size_t nrows = 0;
  for (size_t i = 0; i < t->sites.len; i++) {
    int shown = t->sites.items[i].kind != GM_SITE_FREE;
    for (size_t k = 0; k < npl && !shown; k++)
      shown = pl[k].site == (long)i;
    if (shown)
      rows[nrows++] = i;
  }
  sort_t = t;
  qsort(rows, nrows, sizeof *rows, site_order);
  fputs("<section id=\"sites-section\"><h2>Sites</h2>\n", out);
  /* fixed column widths: long paths and evidence wrap inside their own column */
  fputs("<table id=\"sites\" class=\"sortable fixed\"><colgroup><col style=\"width:19%\">"
        "<col style=\"width:13%\"><col style=\"width:9%\"><col style=\"width:7%\">"
        "<col style=\"width:8%\"><col style=\"width:8%\"><col style=\"width:12%\">"
        "<col style=\"width:24%\"></colgroup><thead><tr><th>site</th><th>api</th>"
        "<th>family</th><th class=\"num\">calls</th><th class=\"num\">peak live</th>"
        "<th class=\"num\">live at exit</th><th class=\"num\">distinct sizes</th>"
        "<th>findings</th></tr></thead><tbody>\n",
        out);
  for (size_t r = 0; r < nrows; r++) {
    const gm_tsite *s = &t->sites.items[rows[r]];
    char *where = site_where(s);
    uint64_t calls = s->kind == GM_SITE_ALLOC  ? s->calls
                     : s->kind == GM_SITE_FREE ? s->free_calls
                                               : s->copies + s->prefetches;
    /* the site's colour as the cell's edge: a swatch would wrap apart from a long path */
    fprintf(out, "<tr class=\"site\"><td class=\"where\" style=\"border-left:5px solid %s\">",
            s->kind == GM_SITE_ALLOC ? series_color(h, (long)rows[r]) : "transparent");
    esc(out, where);
    fputs("</td><td>", out);
    esc(out, s->api);
    fputs("</td><td class=\"nowrap\">", out);
    esc(out, s->kind == GM_SITE_ALLOC  ? (s->family ? s->family : "")
             : s->kind == GM_SITE_FREE ? "free"
             : s->copies               ? "copy"
                                       : "prefetch");
    fprintf(out, "</td><td class=\"num\" data-v=\"%llu\">%llu", (unsigned long long)calls,
            (unsigned long long)calls);
    if (s->failed_calls)
      fprintf(out, " <span class=\"dim\">(+%llu failed)</span>",
              (unsigned long long)s->failed_calls);
    if (s->kind == GM_SITE_ALLOC)
      fprintf(out,
              "</td><td class=\"num\" data-v=\"%llu\">%s</td><td class=\"num\" "
              "data-v=\"%llu\">%s</td><td class=\"num\" data-v=\"%zu\">",
              (unsigned long long)s->peak_live_bytes, gm_bytes(s->peak_live_bytes).s,
              (unsigned long long)s->live_bytes_exit,
              s->live_bytes_exit ? gm_bytes(s->live_bytes_exit).s : "0", s->sizes.len);
    else
      fputs("</td><td class=\"num\" data-v=\"0\">&#8211;</td><td class=\"num\" "
            "data-v=\"0\">&#8211;</td><td class=\"num\" data-v=\"0\">",
            out);
    if (s->kind == GM_SITE_ALLOC)
      sizes_text(out, s);
    else if (s->copies)
      fprintf(out, "<span class=\"dim\">%s copied</span>", gm_bytes(s->copy_bytes).s);
    else
      fputs("&#8211;", out);
    fputs("</td><td class=\"findings\">", out);
    for (size_t k = 0; k < npl; k++) {
      if (pl[k].site != (long)rows[r])
        continue;
      fputs("<div>", out);
      verdict_chip(out, pl[k].f);
      if (pl[k].f->evidence) {
        fputs(" <span class=\"evidence\">", out);
        esc(out, pl[k].f->evidence);
        fputs("</span>", out);
      }
      fputs("</div>", out);
    }
    fputs("</td></tr>\n", out);
    free(where);
  }
  fputs("</tbody></table>\n", out);
  if (!nrows)
    fputs("<p class=\"empty\">The telemetry has no sites.</p>\n", out);
  fputs("</section>\n", out);
  free(rows);
}

static void findings_section(html *h, const placed *pl, size_t npl) {
  FILE *out = h->out;
  fputs("<section id=\"findings-section\"><h2>Findings</h2>\n", out);
  if (h->in->with_sources)
    fputs("<p class=\"caption\">The static findings for the sources given, each with the "
          "verdict the run gives it (docs/join.md), then what the run alone showed "
          "(GM101&#8211;GM106).</p>\n",
          out);
  else
    fputs("<p class=\"caption\">No sources were given, so these are only what the run alone "
          "showed (GM101&#8211;GM106). Give the sources too (<code>gmemlint report --html "
          "FILE run.json src/*.cu</code>) to see the static findings with their "
          "verdicts.</p>\n",
          out);
  if (!npl) {
    fputs("<p class=\"empty\">No findings.</p></section>\n", out);
    return;
  }
  fputs("<table id=\"findings\" class=\"sortable fixed\"><colgroup><col style=\"width:15%\">"
        "<col style=\"width:13%\"><col style=\"width:16%\"><col style=\"width:32%\">"
        "<col style=\"width:24%\"></colgroup><thead><tr><th>location</th><th>rule</th>"
        "<th>verdict</th><th>message</th><th>evidence</th></tr></thead><tbody>\n",
        out);
  for (size_t k = 0; k < npl; k++) {
    const gm_finding *f = pl[k].f;
    fprintf(out, "<tr class=\"finding %s\"><td class=\"where\">",
            is_static(f) ? "static" : "runtime");
    esc(out, f->loc.file ? f->loc.file : "?");
    if (f->loc.line)
      fprintf(out, ":%u", f->loc.line);
    if (f->loc.col)
      fprintf(out, ":%u", f->loc.col);
    fputs("</td><td>", out);
    escf(out, "%s %s", f->rule->id, f->rule->name);
    fputs("</td><td>", out);
    verdict_chip(out, f);
    fputs("</td><td>", out);
    esc(out, f->message);
    fputs("</td><td class=\"evidence\">", out);
    esc(out, f->evidence ? f->evidence : "");
    fputs("</td></tr>\n", out);
  }
  fputs("</tbody></table></section>\n", out);
}

/* ---- out of memory ---- */

static void oom_section(html *h) {
  FILE *out = h->out;
  const gm_telemetry *t = h->t;
  fputs("<section id=\"oom-section\"><h2>Out-of-memory events</h2>\n", out);
  if (!t->ooms.len) {
    fputs("<p class=\"empty\">No allocation failed for lack of memory.</p></section>\n", out);
    return;
  }
  fputs("<table id=\"ooms\"><thead><tr><th>#</th><th>verdict</th><th>site</th>"
        "<th class=\"num\">asked</th><th class=\"num\">free</th><th class=\"num\">total</th>"
        "<th class=\"num\">largest block</th><th class=\"num\">held by the program</th>"
        "<th class=\"num\">freed, still held</th><th class=\"num\">time</th></tr></thead>"
        "<tbody>\n",
        out);
  for (size_t i = 0; i < t->ooms.len; i++) {
    const gm_toom *e = &t->ooms.items[i];
    fprintf(out, "<tr class=\"oom\"><td>%zu</td><td><span class=\"verdict v-oom\">", i + 1);
    esc(out, e->verdict);
    fputs("</span></td><td class=\"where\">", out);
    if (e->file)
      escf(out, "%s:%u %s", e->file, e->line, e->api);
    else
      escf(out, "%s (no site)", e->api);
    fprintf(out,
            "</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
            "<td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
            "<td class=\"num\">%.1f ms",
            gm_bytes(e->requested_bytes).s, gm_bytes(e->free_bytes).s, gm_bytes(e->total_bytes).s,
            e->has_largest_block ? gm_bytes(e->largest_block_bytes).s : "not probed",
            gm_bytes(e->live_bytes).s, gm_bytes(e->held_unused_bytes).s, e->time_ms);
    if (t->runs.len > 1)
      fprintf(out, " <span class=\"dim\">pid %ld</span>", e->pid);
    fputs("</td></tr>\n", out);
  }
  fputs("</tbody></table></section>\n", out);
}

/* ---- unified memory ---- */

static void um_section(html *h) {
  FILE *out = h->out;
  const gm_telemetry *t = h->t;
  fputs("<section id=\"um-section\"><h2>Unified memory by site</h2>\n", out);
  for (size_t i = 0; i < t->runs.len; i++)
    if (!t->runs.items[i].um_available) {
      fputs("<p class=\"caption\">No CUPTI counters in ", out);
      escf(out, "%s: %s", t->runs.items[i].path, t->runs.items[i].um_reason);
      fputs("</p>\n", out);
    }
  size_t n = 0;
  double max = 1;
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_tsite *s = &t->sites.items[i];
    if (!s->has_um)
      continue;
    n++;
    double bytes = (double)(s->um.htod_bytes + s->um.dtoh_bytes);
    if (bytes > max)
      max = bytes;
  }
  if (!n) {
    fputs("<p class=\"empty\">No managed allocations.</p></section>\n", out);
    return;
  }
  /* one row per managed site: bytes moved (host to device on demand, prefetched, device to
   * host) as a stacked bar, and the page-fault counts beside it */
  double row = 34, left = 260, width = 380;
  fprintf(out, "<svg id=\"um-chart\" class=\"chart\" viewBox=\"0 0 960 %.0f\" role=\"img\">\n",
          row * (double)n + 36);
  size_t r = 0;
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_tsite *s = &t->sites.items[i];
    if (!s->has_um)
      continue;
    double y = 8 + row * (double)r++;
    char *name = site_short(s);
    fputs("<g class=\"um-row\">", out);
    fprintf(out, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 8,
            y + 15);
    esc(out, name);
    fputs("</text>", out);
    uint64_t demand = s->um.htod_on_demand_bytes, prefetch = s->um.htod_prefetch_bytes;
    uint64_t other_htod =
        s->um.htod_bytes > demand + prefetch ? s->um.htod_bytes - demand - prefetch : 0;
    const struct {
      uint64_t v;
      const char *color, *what;
    } parts[] = {{demand, "#e15759", "host to device on demand"},
                 {prefetch, "#59a14f", "host to device by prefetch"},
                 {other_htod, "#f28e2b", "host to device, other"},
                 {s->um.dtoh_bytes, "#4e79a7", "device to host"}};
    double x = left;
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
      if (!parts[k].v)
        continue;
      double w = (double)parts[k].v / max * width;
      fprintf(out,
              "<rect class=\"um-bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"20\" "
              "fill=\"%s\"><title>%s: %s</title></rect>",
              x, y, w, parts[k].color, parts[k].what, gm_bytes(parts[k].v).s);
      x += w;
    }
    fprintf(out,
            "<text class=\"note\" x=\"%.1f\" y=\"%.1f\">%s moved, %llu GPU fault groups%s</text>",
            x + 6, y + 15, gm_bytes(s->um.htod_bytes + s->um.dtoh_bytes).s,
            (unsigned long long)s->um.gpu_page_faults, s->um_collected ? "" : " (not collected)");
    fputs("</g>\n", out);
    free(name);
  }
  double ly = 8 + row * (double)n + 10;
  static const struct {
    double x;
    const char *color, *what;
  } keys[] = {{0, "#e15759", "host to device on demand"},
              {175, "#59a14f", "prefetched"},
              {270, "#f28e2b", "host to device, other"},
              {425, "#4e79a7", "device to host"}};
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
    fprintf(out,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
            "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">%s</text>",
            left + keys[k].x, ly, keys[k].color, left + keys[k].x + 14, ly + 9, keys[k].what);
  fputs("</svg>\n", out);
  fputs("<table id=\"um\"><thead><tr><th>site</th><th class=\"num\">GPU page-fault groups</th>"
        "<th class=\"num\">CPU page faults</th><th class=\"num\">host to device</th>"
        "<th class=\"num\">on demand</th><th class=\"num\">prefetched</th>"
        "<th class=\"num\">device to host</th><th class=\"num\">thrashing</th></tr></thead>"
        "<tbody>\n",
        out);
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_tsite *s = &t->sites.items[i];
    if (!s->has_um)
      continue;
    char *where = site_where(s);
    fputs("<tr><td class=\"where\">", out);
    esc(out, where);
    fprintf(out,
            "</td><td class=\"num\">%llu</td><td class=\"num\">%llu</td><td class=\"num\">%s</td>"
            "<td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
            "<td class=\"num\">%llu</td></tr>\n",
            (unsigned long long)s->um.gpu_page_faults, (unsigned long long)s->um.cpu_page_faults,
            gm_bytes(s->um.htod_bytes).s, gm_bytes(s->um.htod_on_demand_bytes).s,
            gm_bytes(s->um.htod_prefetch_bytes).s, gm_bytes(s->um.dtoh_bytes).s,
            (unsigned long long)s->um.thrashing);
    free(where);
  }
  fputs("</tbody></table></section>\n", out);
}

/* ---- the address space ---- */

/* One bar along [lo, hi) of the view's offsets: live blocks coloured by site, gaps left pale,
 * the largest gap outlined. */
static void space_bar(html *h, const gm_tspace *sp, double y, uint64_t lo, uint64_t hi,
                      size_t largest, const char *label) {
  FILE *out = h->out;
  const double left = 20, width = 920, height = 34;
  double span = (double)(hi > lo ? hi - lo : 1);
  fprintf(out, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\">", left, y - 6);
  esc(out, label);
  fputs("</text>\n", out);
  fprintf(out,
          "<rect class=\"gap-bg\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
          "fill=\"url(#gap-hatch)\" stroke=\"#999\"/>\n",
          left, y, width, height);
  /* blocks that touch and share a site are drawn as one: no seams between them */
  for (size_t i = 0; i < sp->blocks.len;) {
    const gm_tblock *b = &sp->blocks.items[i];
    size_t j = i + 1;
    uint64_t run_end = b->offset + b->bytes, run_bytes = b->bytes;
    while (j < sp->blocks.len && sp->blocks.items[j].offset == run_end &&
           sp->blocks.items[j].site == b->site) {
      run_end += sp->blocks.items[j].bytes;
      run_bytes += sp->blocks.items[j].bytes;
      j++;
    }
    size_t count = j - i;
    i = j;
    if (run_end <= lo || b->offset >= hi)
      continue;
    uint64_t a = b->offset > lo ? b->offset : lo;
    uint64_t z = run_end < hi ? run_end : hi;
    double x = left + (double)(a - lo) / span * width;
    double w = (double)(z - a) / span * width;
    fprintf(out,
            "<rect class=\"block\" data-blocks=\"%zu\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
            "height=\"%.1f\" fill=\"%s\"><title>",
            count, x, y, w > 0.3 ? w : 0.3, height, series_color(h, b->site));
    if (b->site >= 0) {
      char *name = site_short(&h->t->sites.items[b->site]);
      esc(out, name);
      free(name);
    } else {
      fputs("unknown site", out);
    }
    if (count > 1)
      fprintf(out, ": %zu blocks, %s from +0x%llx</title></rect>\n", count, gm_bytes(run_bytes).s,
              (unsigned long long)b->offset);
    else
      fprintf(out, ": %s at +0x%llx</title></rect>\n", gm_bytes(b->bytes).s,
              (unsigned long long)b->offset);
  }
  if (largest < sp->blocks.len) {
    const gm_tblock *b = &sp->blocks.items[largest];
    uint64_t a = b->offset + b->bytes, z = sp->blocks.items[largest + 1].offset;
    if (a >= lo && z <= hi) {
      double x = left + (double)(a - lo) / span * width;
      double w = (double)(z - a) / span * width;
      fprintf(out,
              "<rect class=\"largest-gap\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
              "fill=\"none\" stroke=\"%s\" stroke-width=\"2\"><title>largest gap: %s at "
              "+0x%llx</title></rect>\n",
              x, y - 3, w > 2 ? w : 2, height + 6, OOM_COLOR, gm_bytes(z - a).s,
              (unsigned long long)a);
      double tx = x + w / 2;
      fprintf(out,
              "<text class=\"note oom\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">largest gap "
              "%s</text>\n",
              tx, y + height + 16,
              tx < 150   ? "start"
              : tx > 810 ? "end"
                         : "middle",
              gm_bytes(z - a).s);
    }
  }
  fprintf(out,
          "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">+0x%llx</text>"
          "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">+0x%llx</text>\n",
          left, y + height + 30, (unsigned long long)lo, left + width, y + height + 30,
          (unsigned long long)hi);
}

static void space_view(html *h, const gm_tspace *sp, const char *title, const char *id) {
  FILE *out = h->out;
  /* the largest gap, and the range that holds every gap (zoomed when it is a small part) */
  size_t largest = sp->blocks.len;
  uint64_t largest_bytes = 0, gap_lo = UINT64_MAX, gap_hi = 0, end = 0;
  for (size_t i = 0; i < sp->blocks.len; i++) {
    const gm_tblock *b = &sp->blocks.items[i];
    if (b->offset + b->bytes > end)
      end = b->offset + b->bytes;
    if (i + 1 < sp->blocks.len && sp->blocks.items[i + 1].offset > b->offset + b->bytes) {
      uint64_t gap = sp->blocks.items[i + 1].offset - (b->offset + b->bytes);
      if (gap > largest_bytes) {
        largest_bytes = gap;
        largest = i;
      }
      if (b->offset < gap_lo)
        gap_lo = b->offset;
      if (sp->blocks.items[i + 1].offset + sp->blocks.items[i + 1].bytes > gap_hi)
        gap_hi = sp->blocks.items[i + 1].offset + sp->blocks.items[i + 1].bytes;
    }
  }
  uint64_t span = sp->span_bytes > end ? sp->span_bytes : end;
  int zoom = gap_hi > gap_lo && (double)(gap_hi - gap_lo) < 0.5 * (double)span;
  fprintf(out, "<div class=\"space\" id=\"%s\"><h3>", id);
  esc(out, title);
  fputs("</h3>\n<p class=\"caption\">", out);
  escf(out, "At %.1f ms: %s live in %zu blocks over %s of addresses from 0x%llx; ", sp->time_ms,
       gm_bytes(sp->block_bytes ? sp->block_bytes : sp->live_bytes).s, sp->blocks.len,
       gm_bytes(span).s, (unsigned long long)sp->base);
  if (largest < sp->blocks.len)
    escf(out, "%llu gaps between them hold %s, the largest %s.", (unsigned long long)sp->gaps,
         gm_bytes(sp->gap_bytes).s,
         gm_bytes(sp->largest_gap_bytes ? sp->largest_gap_bytes : largest_bytes).s);
  else
    fputs("no gaps between them.", out);
  if (sp->blocks_left_out)
    escf(out, " %llu blocks were left out of the view.", (unsigned long long)sp->blocks_left_out);
  fputs("</p>\n", out);
  fprintf(out, "<svg class=\"chart space-chart\" viewBox=\"0 0 960 %d\" role=\"img\">\n",
          zoom ? 190 : 95);
  space_bar(h, sp, 24, 0, span, largest, "the whole range");
  if (zoom) {
    char label[160];
    snprintf(label, sizeof label, "zoomed: the %s from +0x%llx that holds every gap",
             gm_bytes(gap_hi - gap_lo).s, (unsigned long long)gap_lo);
    space_bar(h, sp, 119, gap_lo, gap_hi, largest, label);
  }
  fputs("</svg></div>\n", out);
}

static void space_section(html *h) {
  FILE *out = h->out;
  const gm_telemetry *t = h->t;
  fputs("<section id=\"fragmentation\"><h2>Address space at the peak</h2>\n", out);
  fputs("<p class=\"caption\">Live device and managed blocks in address order, coloured by site "
        "as above; the hatched gaps between them are freed or never-used addresses, which a "
        "request larger than the largest gap cannot use. The runtime takes the view at the peak "
        "of live bytes (retaken as live bytes grow by 1/16, so within 6% of the true peak) and "
        "at the first out-of-memory events.</p>\n",
        out);
  int any = 0;
  for (size_t i = 0; i < t->runs.len; i++) {
    const gm_trun *r = &t->runs.items[i];
    if (!r->peak_space)
      continue;
    char title[96], id[48];
    snprintf(title, sizeof title, "At the peak (pid %ld)", r->pid);
    snprintf(id, sizeof id, "space-peak-%zu", i);
    space_view(h, r->peak_space, title, id);
    any = 1;
    /* the first out-of-memory event of this run that has a view */
    for (size_t k = 0; k < t->ooms.len; k++) {
      const gm_toom *e = &t->ooms.items[k];
      if (e->run != i || !e->space)
        continue;
      char *otitle = gm_xasprintf("At out-of-memory event %zu (%s, %s asked, pid %ld)", k + 1,
                                  e->verdict, gm_bytes(e->requested_bytes).s, e->pid);
      snprintf(id, sizeof id, "space-oom-%zu", k);
      space_view(h, e->space, otitle, id);
      free(otitle);
      break;
    }
  }
  if (!any)
    fputs("<p class=\"empty\">The telemetry has no address-space view (no device memory was "
          "live, or the runtime predates the view).</p>\n",
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
          path ? path : "", palette[what]);
  free(path);
  if (what == 0 && total) {
    double y = fy(&f, (double)total);
    fprintf(out,
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
            "stroke-dasharray=\"3 3\"/><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
            "text-anchor=\"end\">total %s</text>\n",
            f.x0, f.x0 + f.w, y, y, f.x0 + f.w, y - 3, gm_bytes(total).s);
  }
  fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"160\" text-anchor=\"middle\">ms</text>",
          f.x0 + f.w / 2);
  fputs("</svg>\n", out);
}

static void nvml_section(html *h) {
  FILE *out = h->out;
  const gm_telemetry *t = h->t;
  fputs("<section id=\"nvml\"><h2>NVML samples</h2>\n", out);
  int any = 0;
  for (size_t i = 0; i < t->runs.len; i++) {
    const gm_trun *r = &t->runs.items[i];
    if (!r->nvml.len) {
      fputs("<p class=\"empty\">", out);
      escf(out, "%s: no NVML samples (%s).", r->path,
           r->nvml_available ? "none were taken" : r->nvml_reason);
      fputs(" Run with <code>GMEMRT_NVML=1</code> to sample the device.</p>\n", out);
      continue;
    }
    double tmax = r->duration_ms;
    for (size_t k = 0; k < r->nvml.len; k++)
      if (r->nvml.items[k].ms > tmax)
        tmax = r->nvml.items[k].ms;
    /* devices in the order they first appear */
    int seen[64];
    size_t nseen = 0;
    for (size_t k = 0; k < r->nvml.len && nseen < 64; k++) {
      int dev = r->nvml.items[k].device, have = 0;
      for (size_t s = 0; s < nseen && !have; s++)
        have = seen[s] == dev;
      if (!have)
        seen[nseen++] = dev;
    }
    for (size_t s = 0; s < nseen; s++) {
      size_t count = 0;
      for (size_t k = 0; k < r->nvml.len; k++)
        count += r->nvml.items[k].device == seen[s];
      fputs("<h3>", out);
      escf(out, "Device %d (pid %ld): %zu samples", seen[s], r->pid, count);
      fputs("</h3>\n<div class=\"nvml-row\">\n", out);
      for (int what = 0; what < 3; what++)
        nvml_chart(h, r, seen[s], what, tmax);
      fputs("</div>\n", out);
      any = 1;
    }
  }
  if (any)
    fputs("<p class=\"caption\">NVML's view of the whole device (every process on it, not only "
          "this program's allocations), sampled by the runtime's background thread every "
          "GMEMRT_NVML_MS.</p>\n",
          out);
  fputs("</section>\n", out);
}

/* ---- the page ---- */

static const char *const style =
    "body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
    "margin:0 auto;max-width:1100px;padding:16px 24px;color:#222;background:#fff}"
    "h1{font-size:22px;margin:4px 0 12px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px "
    "solid #ddd;padding-bottom:4px}h3{font-size:15px;margin:16px 0 4px}"
    "table{border-collapse:collapse;width:100%;margin:6px 0}th,td{padding:4px 8px;border-bottom:"
    "1px solid #eee;text-align:left;vertical-align:top}th{background:#f6f6f6;font-weight:600}"
    "table.kv th{width:130px}td.num,th.num{text-align:right;white-space:nowrap}"
    "td.where{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;"
    "overflow-wrap:anywhere}table.fixed{table-layout:fixed}table.fixed td{overflow-wrap:anywhere}"
    "table.fixed td.num,table.fixed td.nowrap{white-space:normal}td.nowrap{white-space:nowrap}"
    ".dim{color:#777}.caption{color:#555;font-size:13px;max-width:900px}"
    ".empty{color:#777;font-style:italic}.evidence{color:#555;font-size:12px}"
    ".verdict{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;font-weight:"
    "600;white-space:nowrap;color:#fff;background:#888}.v-confirmed,.v-oom{background:#c62828}"
    ".v-dismissed{background:#2e7d32}.v-not-exercised{background:#757575}.v-unverifiable{"
    "background:#ef8f00}.swatch{display:inline-block;width:10px;height:10px;margin-right:6px;"
    "border-radius:2px}ul.legend{list-style:none;padding:0;margin:4px 0;display:flex;flex-wrap:"
    "wrap;gap:4px 18px;font-size:12px}svg.chart{width:100%;height:auto;display:block}"
    "svg .grid{stroke:#e6e6e6}svg .axis{stroke:#888}svg .tick{font-size:11px;fill:#555}"
    "svg .label{font-size:12px;fill:#222}svg .note{font-size:11px;fill:#333}svg .oom{fill:"
    "#d62728}svg .peak{stroke-dasharray:2 3;stroke-width:1}svg .step-marker{fill:#555}"
    ".nvml-row{display:flex;gap:8px}.nvml-row svg{width:33%}th.sortable-h{cursor:pointer}"
    "footer{margin-top:32px;color:#888;font-size:12px}";

/* Sorts a table by a clicked header: numbers by data-v, the rest by text. No telemetry text
 * is ever placed in a script. */
static const char *const sort_script =
    "document.querySelectorAll('table.sortable').forEach(function(t){"
    "t.querySelectorAll('th').forEach(function(th,i){th.classList.add('sortable-h');"
    "th.addEventListener('click',function(){var b=t.tBodies[0],rows=[].slice.call(b.rows),"
    "d=th.dataset.dir==='a'?-1:1;th.dataset.dir=d>0?'a':'d';rows.sort(function(x,y){"
    "var p=x.cells[i],q=y.cells[i];if(p.dataset.v!==undefined&&q.dataset.v!==undefined)"
    "return d*(Number(q.dataset.v)-Number(p.dataset.v));"
    "return d*p.textContent.localeCompare(q.textContent);});"
    "rows.forEach(function(r){b.appendChild(r);});});});});";

size_t gm_report_top_sites(const gm_telemetry *t, size_t max, int with_steps, size_t *out) {
  size_t n = 0;
  for (size_t i = 0; i < t->sites.len && max; i++) {
    const gm_tsite *s = &t->sites.items[i];
    if (s->kind != GM_SITE_ALLOC || !s->peak_live_bytes || (with_steps && !s->step_live.len))
      continue;
    /* insertion into the sorted top list: largest peak first, the earlier site on ties */
    size_t k = n < max ? n : max;
    if (k == max && t->sites.items[out[max - 1]].peak_live_bytes >= s->peak_live_bytes)
      continue;
    if (k == max)
      k--;
    while (k > 0 && t->sites.items[out[k - 1]].peak_live_bytes < s->peak_live_bytes) {
      out[k] = out[k - 1];
      k--;
    }
    out[k] = i;
    if (n < max)
      n++;
  }
  return n;
}

int gm_write_html(FILE *out, const gm_html_input *in) {
  html h = {out, in, in->t, {0}, 0, NULL};
  const gm_telemetry *t = in->t;
  size_t want = in->top > 0 && (size_t)in->top < MAX_SERIES ? (size_t)in->top : MAX_SERIES;
  h.ntop = gm_report_top_sites(t, want, 0, h.top);
  h.series = gm_xcalloc(t->sites.len + 1, sizeof *h.series);
  for (size_t i = 0; i < t->sites.len; i++)
    h.series[i] = -1;
  for (size_t i = 0; i < h.ntop; i++)
    h.series[h.top[i]] = (int)i;
  GM_VEC(placed) pl = {0};
  for (size_t i = 0; i < in->nfiles; i++)
    for (size_t k = 0; k < in->files[i].nfindings; k++) {
      placed p = {&in->files[i].findings[k], finding_site(t, &in->files[i].findings[k])};
      GM_PUSH(pl, p);
    }

  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
        out);
  const char *program = t->runs.len && *t->runs.items[0].program ? t->runs.items[0].program : "";
  escf(out, "gmemlint report%s%s", *program ? ": " : "", *program ? base_name(program) : "");
  fprintf(out, "</title>\n<style>%s</style>\n</head><body>\n", style);
  fputs("<svg width=\"0\" height=\"0\" style=\"position:absolute\"><defs><pattern "
        "id=\"gap-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
        "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fafafa\"/>"
        "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#ddd\" stroke-width=\"2\"/>"
        "</pattern></defs></svg>\n",
        out);
  fputs("<h1>", out);
  escf(out, "gmemlint report%s%s", *program ? ": " : "", *program ? base_name(program) : "");
  fputs("</h1>\n", out);
  summary(&h);
  memory_section(&h);
  sites_section(&h, pl.items, pl.len);
  findings_section(&h, pl.items, pl.len);
  oom_section(&h);
  um_section(&h);
  space_section(&h);
  nvml_section(&h);
  fprintf(out,
          "<footer>gmemlint %s: %zu telemetry %s. This page is self-contained: it loads "
          "nothing.</footer>\n",
          GM_VERSION, t->runs.len, t->runs.len == 1 ? "file" : "files");
  fprintf(out, "<script id=\"gm-sort\">%s</script>\n</body></html>\n", sort_script);
  GM_VEC_FREE(pl);
  free(h.series);
  return ferror(out) ? -1 : 0;
}
