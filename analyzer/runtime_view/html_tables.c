/* The report's tables: the run summary, the sites with the findings that rest on them, the
 * findings with their verdicts, and the out-of-memory events. */
#include "runtime_view/html.h"
#include "runtime_view/oom_verdict.h"
#include "findings/rule.h"

#include <stdlib.h>
#include <string.h>

void html_summary(html *h) {
  FILE *out = h->out;
  const gm_telemetry *t = h->t;
  fputs("<section id=\"summary\"><table class=\"kv\">\n", out);
  for (size_t i = 0; i < t->runs.len; i++) {
    const gm_trun *r = &t->runs.items[i];
    fputs("<tr><th>run</th><td>", out);
    html_escf(out,
              "%s (pid %ld), %s after %.1f ms; peak %s, %s live in %llu allocations at the end",
              *r->program ? r->program : "?", r->pid, r->reason, r->duration_ms,
              gm_bytes(r->peak_live_bytes).s, gm_bytes(r->live_bytes).s,
              (unsigned long long)r->live_count);
    fputs("<br><span class=\"dim\">", out);
    html_esc(out, r->path);
    html_escf(out, "; %llu gmem_step() calls; unified-memory counters: %s; NVML: %s",
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

/* ---- the sites and the findings ---- */

static int is_static(const gm_finding *f) {
  return f->rule->check != NULL;
}

static void verdict_chip(FILE *out, const gm_finding *f) {
  const char *v = gm_verdict_name(f->verdict);
  fprintf(out, "<span class=\"verdict v-%s\">%s %s</span>", *v ? v : "none", f->rule->id,
          *v ? v : "no verdict");
}

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

void html_sites_section(html *h, const placed *pl, size_t npl) {
  FILE *out = h->out;
  const gm_telemetry *t = h->t;
  /* alloc sites, copy and prefetch sites, and free sites a finding rests on */
  size_t *rows = gm_xcalloc(t->sites.len + 1, sizeof *rows);
  size_t nrows = 0;
  /* each site's findings, chained in their order (positions + 1): one pass, not one per site */
  size_t *first_at = gm_xcalloc(t->sites.len + 1, sizeof *first_at);
  size_t *last_at = gm_xcalloc(t->sites.len + 1, sizeof *last_at);
  size_t *next = gm_xcalloc(npl + 1, sizeof *next);
  for (size_t k = 0; k < npl; k++) {
    if (pl[k].site < 0)
      continue;
    size_t at = (size_t)pl[k].site;
    if (last_at[at])
      next[last_at[at] - 1] = k + 1;
    else
      first_at[at] = k + 1;
    last_at[at] = k + 1;
  }
  for (size_t i = 0; i < t->sites.len; i++)
    if (t->sites.items[i].kind != GM_SITE_FREE || first_at[i])
      rows[nrows++] = i;
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
    char *where = html_site_where(s);
    uint64_t calls = s->kind == GM_SITE_ALLOC  ? s->calls
                     : s->kind == GM_SITE_FREE ? s->free_calls
                                               : s->copies + s->prefetches;
    /* the site's colour as the cell's edge: a swatch would wrap apart from a long path */
    fprintf(out, "<tr class=\"site\"><td class=\"where\" style=\"border-left:5px solid %s\">",
            s->kind == GM_SITE_ALLOC ? html_series_color(h, (long)rows[r]) : "transparent");
    html_esc(out, where);
    fputs("</td><td>", out);
    html_esc(out, s->api);
    fputs("</td><td class=\"nowrap\">", out);
    html_esc(out, s->kind == GM_SITE_ALLOC  ? (s->family ? s->family : "")
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
    if (s->kind == GM_SITE_ALLOC && s->failed_calls) {
      /* with its errors: a failed call allocated nothing, so it was never freed either */
      char *failed = gm_site_failed_text(s);
      fputs("<div class=\"failed\">", out);
      html_esc(out, failed);
      fputs("</div>", out);
      free(failed);
    }
    for (size_t at = first_at[rows[r]]; at; at = next[at - 1]) {
      size_t k = at - 1;
      fputs("<div>", out);
      verdict_chip(out, pl[k].f);
      if (pl[k].f->evidence) {
        fputs(" <span class=\"evidence\">", out);
        html_esc(out, pl[k].f->evidence);
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
  free(first_at);
  free(last_at);
  free(next);
}

void html_findings_section(html *h, const placed *pl, size_t npl) {
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
    html_esc(out, f->loc.file ? f->loc.file : "?");
    if (f->loc.line)
      fprintf(out, ":%u", f->loc.line);
    if (f->loc.col)
      fprintf(out, ":%u", f->loc.col);
    fputs("</td><td>", out);
    html_escf(out, "%s %s", f->rule->id, f->rule->name);
    fputs("</td><td>", out);
    verdict_chip(out, f);
    fputs("</td><td>", out);
    html_esc(out, f->message);
    fputs("</td><td class=\"evidence\">", out);
    html_esc(out, f->evidence ? f->evidence : "");
    fputs("</td></tr>\n", out);
  }
  fputs("</tbody></table></section>\n", out);
}

/* ---- out of memory ---- */

void html_oom_section(html *h) {
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
    html_esc(out, gm_oom_verdict_name(gm_oom_judge(e)));
    fputs("</span></td><td class=\"where\">", out);
    if (e->file)
      html_escf(out, "%s:%u %s", e->file, e->line, e->api);
    else
      html_escf(out, "%s (no site)", e->api);
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
