/* Human units for evidence and reports: byte sizes, durations and rates ("12.0 MiB", "1.5 ms",
 * "1.5 GiB/s"). */
#include "runtime_view/telemetry_private.h"

#include <string.h>

gm_human gm_bytes(uint64_t b) {
  gm_human h;
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (b < 1024) {
    snprintf(h.s, sizeof h.s, "%llu B", (unsigned long long)b);
    return h;
  }
  double v = (double)b / 1024;
  size_t u = 0;
  while (v >= 1024 && u + 1 < N(units)) {
    v /= 1024;
    u++;
  }
  snprintf(h.s, sizeof h.s, "%.1f %s", v, units[u]);
  return h;
}

gm_human gm_duration_ns(uint64_t ns) {
  gm_human h;
  if (ns < 1000)
    snprintf(h.s, sizeof h.s, "%llu ns", (unsigned long long)ns);
  else if (ns < 1000000)
    snprintf(h.s, sizeof h.s, "%.1f us", (double)ns / 1e3);
  else if (ns < 1000000000)
    snprintf(h.s, sizeof h.s, "%.1f ms", (double)ns / 1e6);
  else
    snprintf(h.s, sizeof h.s, "%.2f s", (double)ns / 1e9);
  return h;
}

gm_human gm_rate(uint64_t bytes, uint64_t ns) {
  gm_human h;
  if (!ns) {
    snprintf(h.s, sizeof h.s, "unknown");
    return h;
  }
  h = gm_bytes((uint64_t)((double)bytes * 1e9 / (double)ns));
  size_t n = strlen(h.s);
  if (n + 3 <= sizeof h.s)
    memcpy(h.s + n, "/s", 3);
  return h;
}
