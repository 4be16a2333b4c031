/* Fingerprints of a file's findings (fingerprint.h). */
#include "driver/fingerprint.h"

#include "findings/rule.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct hashed_finding {
  uint64_t hash;
  size_t index; /* in the report's order */
} hashed_finding;

/* By hash, then by place in the report: a run of equal hashes lists them in report order. */
static int hashed_cmp(const void *a, const void *b) {
  const hashed_finding *x = a, *y = b;
  if (x->hash != y->hash)
    return x->hash < y->hash ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

void driver_fingerprint_findings(gm_report *report, const char *path, const gm_source *src) {
  size_t n = report->findings.len;
  hashed_finding *order = gm_xmalloc(sizeof *order * (n ? n : 1));
  for (size_t i = 0; i < n; i++) {
    const gm_finding *f = &report->findings.items[i];
    uint64_t h = gm_hash64(f->rule->id, strlen(f->rule->id), 0);
    h = gm_hash64(f->function, strlen(f->function), h);
    size_t len = 0;
    const char *line =
        strcmp(f->loc.file, path) == 0 ? gm_source_line(src, f->loc.line, &len) : NULL;
    for (size_t k = 0; line && k < len; k++)
      if (!isspace((unsigned char)line[k]))
        h = gm_hash64(&line[k], 1, h);
    order[i] = (hashed_finding){h, i};
  }
  qsort(order, n, sizeof *order, hashed_cmp);
  int occurrence = 0;
  for (size_t i = 0; i < n; i++) {
    occurrence = i && order[i].hash == order[i - 1].hash ? occurrence + 1 : 1;
    gm_finding *f = &report->findings.items[order[i].index];
    free(f->fingerprint);
    f->fingerprint = gm_xasprintf("%016llx:%d", (unsigned long long)order[i].hash, occurrence);
  }
  free(order);
}
