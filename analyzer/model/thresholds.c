#include "model/thresholds.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { KIB = 1024, GIB_LIMIT = 1 << 30 };

/* Ordered as gm_threshold_id; docs/config.md lists the same names and defaults. */
const gm_threshold_def gm_threshold_defs[GM_THRESHOLD_COUNT] = {
    [GM_T_FEW_TRIPS] = {"few-trips", 8, 0, 1000000,
                        "a loop known to run at most this many times is setup, not a step"},
    [GM_T_DEVICE_COUNT] = {"device-count", 64, 0, 1000000,
                           "a constant loop bound of at most this may count devices"},
    [GM_T_SMALL_SLOT_BYTES] = {"small-slot-bytes", 64 * KIB, 0, GIB_LIMIT,
                               "one allocation per element of at most this many bytes could be "
                               "one block (GM010)"},
    [GM_T_SMALL_COPY_BYTES] = {"small-copy-bytes", 4 * KIB, 0, GIB_LIMIT,
                               "a copy of at most this many bytes in a loop is small (GM021)"},
    [GM_T_CALL_DEPTH] = {"call-depth", 3, 0, GM_CALL_DEPTH_LIMIT,
                         "functions followed between a loop's call and an allocation (GM010)"},
    [GM_T_GM010_CONFIRM_CALLS] = {"gm010-confirm-calls", 16, 1, 1000000000,
                                  "allocations a run must make at the site to confirm GM010"},
    [GM_T_GM020_CONFIRM_INCREASES] = {"gm020-confirm-increases", 4, 1, 1000000000,
                                      "increasing sizes a run must see to confirm GM020"},
    [GM_T_GM021_CONFIRM_COPIES] = {"gm021-confirm-copies", 16, 1, 1000000000,
                                   "copies a run must make at the site to confirm GM021"},
    [GM_T_GM021_SMALL_MEAN_BYTES] = {"gm021-small-mean-bytes", 64 * KIB, 1, GIB_LIMIT,
                                     "mean copy size below which a run confirms GM021"},
};

void gm_thresholds_init(gm_thresholds *t) {
  for (int i = 0; i < GM_THRESHOLD_COUNT; i++)
    t->value[i] = gm_threshold_defs[i].fallback;
}

long long gm_threshold(const gm_thresholds *t, gm_threshold_id id) {
  return t ? t->value[id] : gm_threshold_defs[id].fallback;
}

int gm_thresholds_set(gm_thresholds *t, const char *name, const char *value, char *err,
                      size_t errlen) {
  int id = 0;
  while (id < GM_THRESHOLD_COUNT && strcmp(gm_threshold_defs[id].name, name) != 0)
    id++;
  if (id == GM_THRESHOLD_COUNT) {
    snprintf(err, errlen, "unknown threshold '%s' (see docs/config.md for the names)", name);
    return 0;
  }
  const gm_threshold_def *d = &gm_threshold_defs[id];
  char *end;
  errno = 0;
  long long v = strtoll(value, &end, 10);
  long long scale = 1;
  if (end != value && (*end == 'K' || *end == 'M' || *end == 'G')) {
    scale = *end == 'K' ? KIB : *end == 'M' ? (long long)KIB * KIB : (long long)KIB * KIB * KIB;
    end++;
  }
  if (end == value || *end || errno || v < 0 || v > d->max / scale || v * scale < d->min) {
    snprintf(err, errlen, "threshold '%s' = '%s': expected a whole number from %lld to %lld (%s)",
             name, value, d->min, d->max, d->meaning);
    return 0;
  }
  t->value[id] = v * scale;
  return 1;
}
