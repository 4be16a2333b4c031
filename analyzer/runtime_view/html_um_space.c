/* The report's per-site bars: the "Unified memory by site" section (bytes moved and page faults
 * per managed site, chart and table) and the "Address space at the peak" section (live blocks in
 * address order, coloured by site, with the gaps between them). */
#include "runtime_view/html.h"
#include "runtime_view/oom_verdict.h"

#include <stdlib.h>

/* ---- unified memory ---- */

void html_um_section(html *h) {
  FILE *out = h->out;
  const gm_telemetry *t = h->t;
  fputs("<section id=\"um-section\"><h2>Unified memory by site</h2>\n", out);
  for (size_t i = 0; i < t->runs.len; i++)
    if (!t->runs.items[i].um_available) {
      fputs("<p class=\"caption\">No CUPTI counters in ", out);
      html_escf(out, "%s: %s", t->runs.items[i].path, t->runs.items[i].um_reason);
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
    char *name = html_site_short(s);
    fputs("<g class=\"um-row\">", out);
    fprintf(out, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 8,
            y + 15);
    html_esc(out, name);
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
    char *where = html_site_where(s);
    fputs("<tr><td class=\"where\">", out);
    html_esc(out, where);
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
  html_esc(out, label);
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
            count, x, y, w > 0.3 ? w : 0.3, height, html_series_color(h, b->site));
    if (b->site >= 0) {
      char *name = html_site_short(&h->t->sites.items[b->site]);
      html_esc(out, name);
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
  html_esc(out, title);
  fputs("</h3>\n<p class=\"caption\">", out);
  html_escf(out, "At %.1f ms: %s live in %zu blocks over %s of addresses from 0x%llx; ",
            sp->time_ms, gm_bytes(sp->block_bytes ? sp->block_bytes : sp->live_bytes).s,
            sp->blocks.len, gm_bytes(span).s, (unsigned long long)sp->base);
  if (largest < sp->blocks.len)
    html_escf(out, "%llu gaps between them hold %s, the largest %s.", (unsigned long long)sp->gaps,
              gm_bytes(sp->gap_bytes).s,
              gm_bytes(sp->largest_gap_bytes ? sp->largest_gap_bytes : largest_bytes).s);
  else
    fputs("no gaps between them.", out);
  if (sp->blocks_left_out)
    html_escf(out, " %llu blocks were left out of the view.",
              (unsigned long long)sp->blocks_left_out);
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

void html_space_section(html *h) {
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
                                  gm_oom_verdict_name(gm_oom_judge(e)),
                                  gm_bytes(e->requested_bytes).s, e->pid);
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
