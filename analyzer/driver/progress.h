/* The progress line: "[12/128] src/foo.cu" on standard error, redrawn in place while files are
 * analysed and erased before anything else is printed and at the end. Shown when standard error
 * is a terminal, or always with --progress; never with --no-progress. */
#ifndef GM_PROGRESS_H
#define GM_PROGRESS_H

#include <stddef.h>

typedef struct gm_progress {
  int on;
  size_t total;
  size_t shown_len; /* columns on screen now: what clearing overwrites */
  size_t width;     /* the terminal's columns (80 when unknown) */
} gm_progress;

/* mode: 0 on a terminal, 1 always, -1 never (gm_options.progress). */
void gm_progress_init(gm_progress *p, int mode, size_t total);
/* Shows that `done` files are finished and `path` is being analysed. */
void gm_progress_show(gm_progress *p, size_t done, const char *path);
/* Erases the line (and leaves the cursor at its start). */
void gm_progress_clear(gm_progress *p);

#endif
