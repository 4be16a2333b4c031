/* The numbers that decide verdicts: how few trips make a loop setup, how large a constant bound
 * may still count devices, what copy is small, how far calls are followed, how often the
 * telemetry must see a site before it confirms a finding. Each has a name a .gmemlint's
 * [thresholds] section may set (docs/config.md); thresholds.c holds the one table. */
#ifndef GM_THRESHOLDS_H
#define GM_THRESHOLDS_H

#include <stddef.h>

typedef enum gm_threshold_id {
  GM_T_FEW_TRIPS,        /* a loop known to run at most this many times is setup, not a step */
  GM_T_DEVICE_COUNT,     /* a constant loop bound of at most this may count devices */
  GM_T_SMALL_SLOT_BYTES, /* per-element allocations this small could share one block (GM010) */
  GM_T_SMALL_COPY_BYTES, /* a copy of at most this many bytes is small (GM021) */
  GM_T_CALL_DEPTH,       /* functions between a loop's call and an allocation (GM010) */
  GM_T_GM010_CONFIRM_CALLS,
  GM_T_GM020_CONFIRM_INCREASES,
  GM_T_GM021_CONFIRM_COPIES,
  GM_T_GM021_SMALL_MEAN_BYTES,
  GM_THRESHOLD_COUNT
} gm_threshold_id;

/* The largest call-depth a file may set: the rules keep the chain of calls in arrays this long. */
enum { GM_CALL_DEPTH_LIMIT = 8 };

typedef struct gm_thresholds {
  long long value[GM_THRESHOLD_COUNT];
} gm_thresholds;

typedef struct gm_threshold_def {
  const char *name; /* the key in [thresholds]: "few-trips" */
  long long fallback, min, max;
  const char *meaning; /* for error messages */
} gm_threshold_def;

extern const gm_threshold_def gm_threshold_defs[GM_THRESHOLD_COUNT];

/* Sets every threshold to its documented default. */
void gm_thresholds_init(gm_thresholds *t);

/* A threshold's value; `t` NULL reads the defaults. */
long long gm_threshold(const gm_thresholds *t, gm_threshold_id id);

/* Sets the threshold named `name` from `value` (a decimal integer, optionally followed by K, M or
 * G for 1024, 1024^2, 1024^3). Returns 0 and writes why into err for an unknown name or a value
 * that is not a number in the threshold's range. */
int gm_thresholds_set(gm_thresholds *t, const char *name, const char *value, char *err,
                      size_t errlen);

#endif
