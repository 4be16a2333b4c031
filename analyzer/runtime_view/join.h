/* The join: static findings meet runtime telemetry on their allocation site. Each
 * rule judges its own findings (gm_rule.judge) with the helpers here; runtime-only rules (GM1xx,
 * gm_rule.runtime) report what the telemetry shows where no static finding is. Thresholds live
 * in the rules' files and in docs/join.md. */
#ifndef GM_JOIN_H
#define GM_JOIN_H

#include "findings/report.h"
#include "findings/rule.h"
#include "model/thresholds.h"
#include "runtime_view/oom_verdict.h"
#include "runtime_view/telemetry.h"

typedef struct gm_join gm_join;

/* ---- for judges (gm_rule.judge) ---- */

struct gm_judge_ctx {
  const gm_finding *finding;
  const gm_telemetry *telemetry;
  const gm_source *src;        /* the finding's source text, when it can be read */
  const gm_thresholds *limits; /* its file's thresholds (confirm counts); NULL: the defaults */
  const gm_tsite *site; /* set by the judge: the site (allocation or copy) its verdict rests on */
  char *evidence;       /* set through gm_judge_say */
};

/* Sets the evidence (one line, without the verdict word) and returns v. */
gm_verdict gm_judge_say(gm_judge_ctx *c, gm_verdict v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The runtime site of that kind at loc, or NULL. */
const gm_tsite *gm_judge_find(const gm_judge_ctx *c, gm_loc loc, enum gm_site_kind kind);

/* The verdict for a site that is absent or never ran: not-exercised, or unverifiable when the
 * call at loc is one the runtime does not hook (malloc, new, free, ...). `what` names the call
 * in the evidence ("allocation", "copy", "free"). */
gm_verdict gm_judge_unseen(gm_judge_ctx *c, const gm_tsite *s, gm_loc loc, const char *what);

/* Whether CUPTI's unified-memory counters were collected in a run that ran s; if not, *reason
 * says why (from the telemetry). */
int gm_judge_um_collected(const gm_judge_ctx *c, const gm_tsite *s, const char **reason);

/* Shared wording: gm_plural(n, "allocation", "allocations"); the site's frees by API
 * ("cudaFree 4, cudaFreeHost 1", or "none"); ", stack: main > train" or "" (free both). */
const char *gm_plural(uint64_t n, const char *one, const char *many);
char *gm_site_frees_text(const gm_tsite *s);
/* A site that ran and whose memory was all freed: "ran 7 times and every allocation was freed
 * (frees: cudaFree 7<frees_more>)", or, when some of its calls failed, "ran 9 times: 2 of 9
 * allocations from this site failed (cudaErrorMemoryAllocation) and the 7 that succeeded were
 * all freed (frees: ...)". Free it. */
char *gm_site_all_freed_text(const gm_tsite *s, const char *frees_more);
/* The site's allocator family in the built-in table, or NULL (no family, or one it lacks). */
const struct gm_family *gm_site_family(const gm_tsite *s);
char *gm_site_stack_text(const gm_tsite *s);

/* ---- for runtime-only rules (gm_rule.runtime) ---- */

struct gm_runtime_ctx {
  const gm_telemetry *telemetry;
  const gm_join *join;
  gm_report *report;
};

/* A regrown buffer in a run: a chain of at least this many replacements by a larger block from
 * the same site (gm_tsite.regrowth_chain_max). GM120 reports such a site; GM110 leaves it to
 * GM120. */
enum { GM_REGROWTH_CHAIN_MIN = 4 };

/* Managed memory that ping-pongs in a run: one block whose pages changed direction (to the GPU,
 * back to the host) at least this many times, two round trips
 * (gm_um_counts.block_direction_changes_max). GM131
 * reports such a site; GM130 leaves its on-demand migration to GM131. */
enum { GM_PING_PONG_CHANGES_MIN = 4 };

/* Whether a static finding of rule `rule_id` rests on site s (then it has the verdict instead). */
int gm_runtime_covered(const gm_runtime_ctx *c, const gm_tsite *s, const char *rule_id);

/* Adds a confirmed runtime finding at file:line:col with its message; set its evidence with
 * gm_runtime_evidence. */
gm_finding *gm_runtime_add(const gm_runtime_ctx *c, const gm_rule *rule, const char *file,
                           unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void gm_runtime_evidence(gm_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Out-of-memory events with this verdict, one finding per site: returns how many events share
 * event i's site when i is the first of them, and 0 otherwise. */
size_t gm_runtime_oom_group(const gm_runtime_ctx *c, size_t i, gm_oom_verdict verdict);

/* ---- for the driver and main ---- */

/* The join of telemetry t with the findings of rules (whose judges and runtime checks it runs);
 * both stay valid until gm_join_free. */
gm_join *gm_join_new(const gm_telemetry *t, const gm_rule_table *rules);
void gm_join_free(gm_join *j);

/* Gives every finding of one input file its verdict and evidence, judged by the file's
 * thresholds (NULL: the defaults). path and src stay valid until gm_join_free. */
void gm_join_file(gm_join *j, const char *path, const gm_source *src, const gm_thresholds *limits,
                  gm_report *r);

/* Runs the runtime-only rules whose bit (index in the join's rules) is set in `enabled`; their
 * findings
 * name an input file's path when the site is in one. */
void gm_join_runtime(gm_join *j, uint64_t enabled, gm_report *out);

/* The text of an input file given to gm_join_file, for carets; NULL if none matches. */
const gm_source *gm_join_source(const gm_join *j, const char *path);

/* Precomputed findings: gmemlint's own JSON output (--format=json; gmemcc --gmem-lint writes it
 * next to objects as *.gmemlint.json), read instead of parsing a source. */
int gm_is_findings_file(const char *path);
int gm_findings_read(const char *path, const gm_rule_table *rules, gm_report *out, char *err,
                     size_t errlen);

#endif
