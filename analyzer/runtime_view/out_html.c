/* gmemlint report --html: one self-contained page (inline CSS, SVG drawn here, a few lines of
 * inline script to sort tables; nothing fetched) with the run's memory over time and by step, the
 * sites and their findings, unified-memory traffic, the address space at the peak and NVML's
 * samples. What each chart shows and where its data comes from: docs/report.md.
 *
 * This file writes the page's frame (head, CSS, the sort script, footer), picks the sites drawn as
 * series, places each finding at its site, and holds the escaping and naming helpers the sections
 * share; the sections are in html_tables.c, html_memory.c and html_um_space.c (html.h).
 *
 * Every string that comes from telemetry, sources or the command line goes through html_esc(). */
#include "runtime_view/html.h"
#include "support/version.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const html_palette[MAX_SERIES] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                              "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
                                              "#9c755f", "#86bcb6"};

/* ---- escaping: the one function for text from outside ---- */

/* Escapes s for element content and for quoted attribute values alike. */
void html_esc(FILE *out, const char *s) {
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
void html_escf(FILE *out, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *buf = gm_xmalloc(n > 0 ? (size_t)n + 1 : 1);
  vsnprintf(buf, n > 0 ? (size_t)n + 1 : 1, fmt, ap2);
  va_end(ap2);
  html_esc(out, buf);
  free(buf);
}

/* ---- names ---- */

const char *html_base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash && slash[1] ? slash + 1 : path;
}

/* Where a site is, as recorded: "src/app.cu:41", or "train (libx.so+0x1a2b)" without a line. */
char *html_site_where(const gm_tsite *s) {
  if (s->no_source)
    return gm_xasprintf("%s (%s)", s->function ? s->function : "?", s->file);
  return gm_xasprintf("%s:%u", s->file, s->line);
}

/* Short, for legends and labels: "app.cu:41 cudaMalloc". */
char *html_site_short(const gm_tsite *s) {
  if (s->no_source)
    return gm_xasprintf("%s %s", s->function ? s->function : s->file, s->api);
  return gm_xasprintf("%s:%u %s", html_base_name(s->file), s->line, s->api);
}

const char *html_series_color(const html *h, long site) {
  if (site < 0 || h->series[site] < 0)
    return OTHER_COLOR;
  return html_palette[h->series[site]];
}

/* ---- placing the findings ---- */

/* The sites without a source line, by file and then position: a finding named at one of them
 * finds the first by binary search. */
typedef GM_VEC(size_t) site_ids;
static const gm_telemetry *order_t; /* qsort's comparator has no context argument */
static int by_file_then_position(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  int c = strcmp(order_t->sites.items[x].file, order_t->sites.items[y].file);
  return c ? c : x < y ? -1 : x > y;
}
static site_ids no_source_sites(const gm_telemetry *t) {
  site_ids ids = {0};
  for (size_t i = 0; i < t->sites.len; i++)
    if (t->sites.items[i].no_source)
      GM_PUSH(ids, i);
  order_t = t;
  if (ids.len)
    qsort(ids.items, ids.len, sizeof *ids.items, by_file_then_position);
  return ids;
}

/* The site a finding rests on: the telemetry site at its location (allocation, then copy, then
 * free), or the first site without a line named as the finding's file. -1 when none. */
static long finding_site(const gm_telemetry *t, const site_ids *no_source, const gm_finding *f) {
  static const enum gm_site_kind kinds[] = {GM_SITE_ALLOC, GM_SITE_OTHER, GM_SITE_FREE};
  for (size_t k = 0; k < 3; k++) {
    const gm_tsite *s = gm_telemetry_find(t, f->loc.file, f->loc.line, f->loc.col, kinds[k]);
    if (s)
      return (long)(s - t->sites.items);
  }
  if (!f->loc.file)
    return -1;
  size_t lo = 0, hi = no_source->len; /* the first whose file is not below the finding's */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(t->sites.items[no_source->items[mid]].file, f->loc.file) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < no_source->len && strcmp(t->sites.items[no_source->items[lo]].file, f->loc.file) == 0)
    return (long)no_source->items[lo];
  return -1;
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
    ".failed{color:#a33;font-size:12px}"
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
    ".v-bound{background:#6a3d9a}.v-none{background:#757575}h3.not-judged{color:#777}"
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
  site_ids no_source = no_source_sites(t);
  for (size_t i = 0; i < in->nfiles; i++)
    for (size_t k = 0; k < in->files[i].nfindings; k++) {
      placed p = {&in->files[i].findings[k],
                  finding_site(t, &no_source, &in->files[i].findings[k])};
      GM_PUSH(pl, p);
    }
  GM_VEC_FREE(no_source);

  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
        out);
  const char *program = t->runs.len && *t->runs.items[0].program ? t->runs.items[0].program : "";
  html_escf(out, "gmemlint report%s%s", *program ? ": " : "",
            *program ? html_base_name(program) : "");
  fprintf(out, "</title>\n<style>%s</style>\n</head><body>\n", style);
  fputs("<svg width=\"0\" height=\"0\" style=\"position:absolute\"><defs><pattern "
        "id=\"gap-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
        "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fafafa\"/>"
        "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#ddd\" stroke-width=\"2\"/>"
        "</pattern></defs></svg>\n",
        out);
  fputs("<h1>", out);
  html_escf(out, "gmemlint report%s%s", *program ? ": " : "",
            *program ? html_base_name(program) : "");
  fputs("</h1>\n", out);
  html_summary(&h);
  html_memory_section(&h);
  html_sites_section(&h, pl.items, pl.len);
  html_findings_section(&h, pl.items, pl.len);
  html_oom_section(&h);
  html_um_section(&h);
  html_space_section(&h);
  html_nvml_section(&h);
  html_torch_section(&h, pl.items, pl.len);
  fprintf(out,
          "<footer>gmemlint %s: %zu telemetry %s. This page is self-contained: it loads "
          "nothing.</footer>\n",
          GM_VERSION, t->runs.len, t->runs.len == 1 ? "file" : "files");
  fprintf(out, "<script id=\"gm-sort\">%s</script>\n</body></html>\n", sort_script);
  GM_VEC_FREE(pl);
  free(h.series);
  return ferror(out) ? -1 : 0;
}
