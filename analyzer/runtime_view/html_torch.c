/* The HTML report's PyTorch section: per process, its verdicts (GM150-GM154) and a picture of
 * each snapshot's segments and blocks, the way memory_viz's segment view draws them: a bar per
 * segment, its blocks coloured by state, the largest free block outlined. Bounded: the largest
 * HTML_TORCH_MAX_SEGMENTS segments and HTML_TORCH_MAX_BLOCKS blocks are drawn, the page says how
 * many were left out. */
#include "runtime_view/html.h"
#include "runtime_view/torch_verdict.h"

#include <stdlib.h>
#include <string.h>

enum {
  HTML_TORCH_MAX_SEGMENTS = 48,
  HTML_TORCH_MAX_BLOCKS = 4000, /* per snapshot; a segment's bar stays, its blocks go */
  BAR_WIDTH = 640,
  ROW = 16,
  LABEL = 150
};

static const char *const state_color[] = {
    [GM_BLOCK_INACTIVE] = "#e4e4e4",
    [GM_BLOCK_ALLOCATED] = "#4e79a7",
    [GM_BLOCK_PENDING_FREE] = "#f28e2b",
};

typedef struct ranked {
  uint64_t total;
  size_t index;
} ranked;

static int by_size_desc(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  return x->total < y->total   ? 1
         : x->total > y->total ? -1
                               : (x->index > y->index) - (x->index < y->index);
}

static void draw_snapshot(html *h, const gm_torch_snapshot *s, const char *title) {
  FILE *out = h->out;
  size_t n = s->segments.len;
  fputs("<h4>", out);
  html_escf(out, "%s (%s): %zu %s", title, s->file, n, n == 1 ? "segment" : "segments");
  fputs("</h4>\n", out);
  if (!n) {
    fputs("<p class=\"empty\">No segments.</p>\n", out);
    return;
  }
  ranked *order = gm_xmalloc(n * sizeof *order);
  for (size_t i = 0; i < n; i++)
    order[i] = (ranked){s->segments.items[i].total, i};
  qsort(order, n, sizeof *order, by_size_desc);
  size_t drawn = n < HTML_TORCH_MAX_SEGMENTS ? n : HTML_TORCH_MAX_SEGMENTS;
  uint64_t largest_seg = s->segments.items[order[0].index].total;
  /* the largest free block among those drawn, outlined */
  const gm_torch_block *largest_free = NULL;
  for (size_t r = 0; r < drawn; r++) {
    const gm_torch_segment *g = &s->segments.items[order[r].index];
    for (size_t k = 0; k < g->nblocks; k++) {
      const gm_torch_block *b = &s->blocks.items[g->first_block + k];
      if (b->state == GM_BLOCK_INACTIVE && (!largest_free || b->size > largest_free->size))
        largest_free = b;
    }
  }
  size_t blocks_drawn = 0, blocks_left = 0;
  fprintf(out, "<svg class=\"torch-segments\" width=\"%d\" height=\"%zu\" role=\"img\">\n",
          LABEL + BAR_WIDTH + 10, drawn * ROW + 4);
  for (size_t r = 0; r < drawn; r++) {
    const gm_torch_segment *g = &s->segments.items[order[r].index];
    double width = (double)BAR_WIDTH * (double)g->total / (double)(largest_seg ? largest_seg : 1);
    if (width < 2)
      width = 2;
    double y = (double)(r * ROW) + 2;
    fprintf(out, "<text x=\"0\" y=\"%.0f\" font-size=\"11\">", y + 11);
    html_escf(out, "%s %s, dev %d", gm_bytes(g->total).s, g->large ? "large" : "small", g->device);
    fputs("</text>\n", out);
    fprintf(out,
            "<rect x=\"%d\" y=\"%.0f\" width=\"%.1f\" height=\"%d\" fill=\"#fafafa\" "
            "stroke=\"#999\"/>\n",
            LABEL, y, width, ROW - 3);
    for (size_t k = 0; k < g->nblocks; k++) {
      const gm_torch_block *b = &s->blocks.items[g->first_block + k];
      if (b->address < g->address || !g->total)
        continue;
      if (blocks_drawn == HTML_TORCH_MAX_BLOCKS) {
        blocks_left++;
        continue;
      }
      blocks_drawn++;
      double x = (double)LABEL + width * (double)(b->address - g->address) / (double)g->total;
      double w = width * (double)b->size / (double)g->total;
      fprintf(out, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"%s>", x, y,
              w < 0.5 ? 0.5 : w, ROW - 3, state_color[b->state],
              b == largest_free ? " stroke=\"" OOM_COLOR "\" stroke-width=\"2\"" : "");
      fputs("<title>", out);
      const char *state = b->state == GM_BLOCK_INACTIVE    ? "free"
                          : b->state == GM_BLOCK_ALLOCATED ? "allocated"
                                                           : "pending free";
      const char *mark = b == largest_free ? " (the largest free block)" : "";
      if (b->at.file)
        html_escf(out, "%s %s%s, from %s:%u", gm_bytes(b->size).s, state, mark,
                  html_base_name(b->at.file), b->at.line);
      else
        html_escf(out, "%s %s%s", gm_bytes(b->size).s, state, mark);
      fputs("</title></rect>\n", out);
    }
  }
  fputs("</svg>\n", out);
  if (drawn < n)
    fprintf(out, "<p class=\"caption\">The %zu largest segments drawn; %zu left out.</p>\n", drawn,
            n - drawn);
  if (blocks_left)
    fprintf(out, "<p class=\"caption\">%zu blocks drawn; %zu left out.</p>\n", blocks_drawn,
            blocks_left);
  if (largest_free)
    fprintf(out, "<p class=\"caption\">Largest free block (outlined): %s.</p>\n",
            gm_bytes(largest_free->size).s);
  free(order);
}

/* The findings of the PyTorch rules about process v (each names its pid). */
static void verdicts(html *h, const gm_torch_view *v, const placed *pl, size_t npl) {
  char pid[48];
  snprintf(pid, sizeof pid, "(pid %ld", v->pid);
  int any = 0;
  for (size_t i = 0; i < npl; i++) {
    const gm_finding *f = pl[i].f;
    if (strncmp(f->rule->id, "GM15", 4) != 0 ||
        !(strstr(f->message, pid) || (f->evidence && strstr(f->evidence, pid))))
      continue;
    if (!any)
      fputs("<ul class=\"torch-verdicts\">\n", h->out);
    any = 1;
    fputs("<li>", h->out);
    html_escf(h->out, "%s %s: %s", f->rule->id, f->rule->name, f->message);
    fputs("</li>\n", h->out);
  }
  fputs(any ? "</ul>\n" : "<p class=\"empty\">No PyTorch finding for this process.</p>\n", h->out);
}

void html_torch_section(html *h, const placed *pl, size_t npl) {
  const gm_telemetry *t = h->t;
  if (!t->torch.len)
    return;
  FILE *out = h->out;
  fputs("<section id=\"torch\"><h2>PyTorch view</h2>\n", out);
  fputs("<p class=\"caption\">The caching allocator's snapshots: a bar per segment (the largest "
        "first, scaled to the largest), its blocks allocated (blue), pending free on another "
        "stream (orange) or free (grey); the largest free block is outlined in red.</p>\n",
        out);
  for (size_t i = 0; i < t->torch.len; i++) {
    const gm_torch_view *v = t->torch.items[i];
    char *proc = gm_torch_process_text(v);
    fputs("<h3>", out);
    html_escf(out, "%s", proc);
    fputs("</h3>\n", out);
    free(proc);
    verdicts(h, v, pl, npl);
    if (v->peak && v->peak->loaded)
      draw_snapshot(h, v->peak, "At the peak");
    for (size_t k = 0; k < v->ooms.len; k++)
      if (v->ooms.items[k].snapshot && v->ooms.items[k].snapshot->loaded) {
        char title[64];
        snprintf(title, sizeof title, "At out-of-memory error %zu", k + 1);
        draw_snapshot(h, v->ooms.items[k].snapshot, title);
      }
    if (v->exit && v->exit->loaded)
      draw_snapshot(h, v->exit, "At exit");
  }
  fputs("</section>\n", out);
}
