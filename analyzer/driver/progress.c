#include "driver/progress.h"

#include "support/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

void gm_progress_init(gm_progress *p, int mode, size_t total) {
  memset(p, 0, sizeof *p);
  p->total = total;
  p->on = mode > 0 || (mode == 0 && isatty(STDERR_FILENO));
  p->width = 80;
  struct winsize ws;
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
    p->width = ws.ws_col;
}

/* Spaces over what was there rather than an escape sequence: works on any terminal. */
static void pad_to(size_t from, size_t to) {
  for (size_t i = from; i < to; i++)
    fputc(' ', stderr);
}

void gm_progress_show(gm_progress *p, size_t done, const char *path) {
  if (!p->on)
    return;
  char counter[48];
  int n = snprintf(counter, sizeof counter, "[%zu/%zu] ", done, p->total);
  size_t clen = n > 0 ? (size_t)n : 0;
  /* one line short of the width: a line that wraps could not be redrawn in place */
  size_t room = p->width - 1 > clen ? p->width - 1 - clen : 0;
  size_t plen = strlen(path);
  const char *shown = path;
  const char *ellipsis = "";
  if (plen > room) { /* keep the end of the path: the file name */
    ellipsis = room >= 3 ? "..." : "";
    shown = path + plen - (room >= 3 ? room - 3 : room);
    while ((*shown & 0xC0) == 0x80) /* not in the middle of a UTF-8 character */
      shown++;
  }
  size_t len = clen + strlen(ellipsis) + strlen(shown);
  fprintf(stderr, "\r%s%s%s", counter, ellipsis, shown);
  pad_to(len, p->shown_len);
  if (p->shown_len > len)
    fprintf(stderr, "\r%s%s%s", counter, ellipsis, shown);
  p->shown_len = len;
  fflush(stderr);
}

void gm_progress_clear(gm_progress *p) {
  if (!p->on || !p->shown_len)
    return;
  fputc('\r', stderr);
  pad_to(0, p->shown_len);
  fputc('\r', stderr);
  p->shown_len = 0;
  fflush(stderr);
}
