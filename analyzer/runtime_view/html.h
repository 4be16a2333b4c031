/* Private to the HTML report (out_html.c, html_tables.c, html_memory.c, html_um_space.c,
 * html_torch.c): the
 * page being written, the series colours, the escaping and site names every section uses, and
 * the sections themselves in page order. */
#ifndef GM_HTML_H
#define GM_HTML_H

#include "runtime_view/out_report.h"

#include <stdio.h>

enum { MAX_SERIES = 10, BAR_STEPS = 60, MAX_STEP_MARKERS = 2000 };
extern const char *const html_palette[MAX_SERIES]; /* a colour per series, as in the legend */
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

/* A finding and the site it rests on: an index into the telemetry's sites, or -1. */
typedef struct placed {
  const gm_finding *f;
  long site;
} placed;

/* ---- escaping: the one function for text from outside (out_html.c) ---- */

/* Escapes s for element content and for quoted attribute values alike. */
void html_esc(FILE *out, const char *s);
/* printf, escaped: for text that mixes figures with names from the telemetry */
void html_escf(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- names (out_html.c) ---- */

const char *html_base_name(const char *path);
/* Where a site is, as recorded: "src/app.cu:41", or "train (libx.so+0x1a2b)" without a line. */
char *html_site_where(const gm_tsite *s);
/* Short, for legends and labels: "app.cu:41 cudaMalloc". */
char *html_site_short(const gm_tsite *s);
/* The site's series colour; the sites that are not series, and site -1, are "other". */
const char *html_series_color(const html *h, long site);

/* ---- the page's sections, in page order ---- */

void html_summary(html *h);                                        /* html_tables.c */
void html_memory_section(html *h);                                 /* html_memory.c */
void html_sites_section(html *h, const placed *pl, size_t npl);    /* html_tables.c */
void html_findings_section(html *h, const placed *pl, size_t npl); /* html_tables.c */
void html_oom_section(html *h);                                    /* html_tables.c */
void html_um_section(html *h);                                     /* html_um_space.c */
void html_space_section(html *h);                                  /* html_um_space.c */
void html_nvml_section(html *h);                                   /* html_memory.c */
void html_torch_section(html *h, const placed *pl, size_t npl);    /* html_torch.c */

#endif
