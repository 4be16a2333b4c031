/* Why an allocation ran out of memory, judged from the figures the runtime recorded at the
 * failure (docs/telemetry-format.md): GM103 and GM104 report the events, `gmemlint report` and
 * GM140 show them, and all of them ask gm_oom_judge, so they never disagree. */
#ifndef GM_OOM_VERDICT_H
#define GM_OOM_VERDICT_H

#include "runtime_view/telemetry.h"

/* The judgement of one out-of-memory event (gm_toom). */
gm_oom_verdict gm_oom_judge(const gm_toom *e);

/* "fragmentation", "capacity", "transient", "unknown": the names the telemetry format used. */
const char *gm_oom_verdict_name(gm_oom_verdict v);

/* The verdict named so, or -1 for a name it never used. */
int gm_oom_verdict_parse(const char *name);

#endif
