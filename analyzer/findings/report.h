/* Findings: what rules produce and every output format prints. One path for all formats. */
#ifndef GM_REPORT_H
#define GM_REPORT_H

#include "model/model.h"
#include "support/source.h"

typedef struct gm_rule gm_rule; /* findings/rule.h */

/* What the runtime telemetry says about a finding (docs/join.md). */
typedef enum gm_verdict {
  GM_VERDICT_NONE, /* no telemetry given */
  GM_VERDICT_CONFIRMED,
  GM_VERDICT_DISMISSED,
  GM_VERDICT_NOT_EXERCISED,
  GM_VERDICT_UNVERIFIABLE
} gm_verdict;

/* "confirmed", "dismissed", "not-exercised", "unverifiable" ("" for none). */
const char *gm_verdict_name(gm_verdict v);

typedef struct gm_related {
  gm_loc loc;
  char *message;
} gm_related;

/* A mechanical edit that fixes a finding: replace `length` bytes at `offset` with `text`. */
typedef struct gm_fixit {
  char *file;
  unsigned offset, length;
  char *text;
} gm_fixit;

/* How much a finding matters. A defect on the normal path is a warning; a leak only on an error
 * path (after a failed call) is a note: SARIF level "note", JSON severity "note". The text
 * printer still says `warning:` (editors and CI matchers show those), and the message says "on
 * an error path". --werror makes every finding an error. */
typedef enum gm_level { GM_LEVEL_WARNING, GM_LEVEL_NOTE } gm_level;

/* Which paths a leak is on (JSON "path"); GM_PATH_NONE for findings that are not leaks. */
typedef enum gm_path_kind { GM_PATH_NONE, GM_PATH_NORMAL, GM_PATH_ERROR } gm_path_kind;

typedef struct gm_finding {
  const gm_rule *rule;
  gm_loc loc; /* loc.file is owned by the finding */
  char *function;
  char *message;
  gm_related *related;
  int nrelated;
  char *fingerprint; /* "hash:occurrence", set by the driver */
  int error;         /* reported as an error (--werror) */
  int baselined;     /* in the --baseline file: kept for --write-baseline, not reported */
  gm_fixit *fixits;  /* exported with --export-fixes */
  int nfixits;
  gm_verdict verdict; /* with --telemetry */
  char *evidence;     /* the figures behind the verdict, one line */
  int filtered;       /* --only-confirmed: not confirmed, so not reported */
  gm_level level;
  gm_path_kind path;
  /* The allocation the finding is about, where the rule names one (GM002, GM003): the site the
   * join's judges look up in the telemetry. site.file is owned; NULL when there is none. */
  gm_loc site;
  /* Where the old contents are copied into the regrown buffer (GM020): the copy the join's judge
   * looks up for the bytes it moved. copy_site.file is owned; NULL when there is none. */
  gm_loc copy_site;
} gm_finding;

/* Something about the analysis itself, not a defect: JSON "notices", SARIF
 * toolExecutionNotifications, text `note:` lines (kinds that repeat across a run are counted
 * once at its end: gm_notice_counted_once). Never filtered by --baseline; only "parse-errors"
 * changes the exit status (the driver's). */
typedef struct gm_notice {
  /* "cut-short": a function's paths were dropped to stay within the budget; "parse-errors":
   * clang could not parse all of the file; "compdb-similar-entry", "compdb-default-flags": the
   * file has no entry in compile_commands.json */
  char *kind;
  gm_loc loc; /* loc.file is owned by the notice */
  char *function;
  char *message;
  /* "parse-errors" only: clang's error count, the first error (its file may be a header) and
   * whether no function of the file could be analysed at all */
  int count;
  gm_related first;
  int fatal;
  /* and the file's functions, with the names of those holding an error (owned) */
  int functions;
  gm_str_vec functions_with_errors;
  /* "suppressed" only (--explain): the rule whose finding was kept from the report ("" where the
   * loss is not one rule's: a function cut short) and why: the exemption, threshold or filter
   * that decided it ("latent", "cut-short", a rule's own reason) */
  char *rule_id;
  char *reason;
} gm_notice;

typedef struct gm_report {
  GM_VEC(gm_finding) findings;
  GM_VEC(gm_notice) notices;
} gm_report;

gm_finding *gm_report_add(gm_report *r, const gm_rule *rule, gm_loc loc, const char *function,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void gm_finding_note(gm_finding *f, gm_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Records loc as the finding's allocation site (gm_finding.site). */
void gm_finding_site(gm_finding *f, gm_loc loc);
/* Records loc as the finding's copy site (gm_finding.copy_site). */
void gm_finding_copy_site(gm_finding *f, gm_loc loc);
void gm_finding_fix(gm_finding *f, const char *file, unsigned offset, unsigned length,
                    const char *text);
gm_notice *gm_report_notice(gm_report *r, const char *kind, gm_loc loc, const char *function,
                            const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* A finding `rule` would have reported at loc and did not, and why (--explain): reason names
 * the exemption, threshold or filter ("retry-loop", "few-trips", "latent"); the message says
 * what the program showed. A notice of kind "suppressed"; the driver keeps them only under
 * --explain. rule may be NULL where the loss is not one rule's. */
gm_notice *gm_report_suppressed(gm_report *r, const gm_rule *rule, const char *reason, gm_loc loc,
                                const char *function, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* The notice that a function's analysis was cut short (gm_func_facts.truncated). */
void gm_report_cut_short(gm_report *r, const gm_func *fn, int why);
void gm_report_clear(gm_report *r);
void gm_notice_free(gm_notice *n);
/* Whether text output counts notices of this kind once at the end of the run (they repeat, one
 * per function or file, and would bury the findings) rather than printing each one. */
int gm_notice_counted_once(const gm_notice *n);

/* "error" (--werror), "note" (a leak only on an error path) or "warning": JSON's severity and
 * SARIF's level. */
const char *gm_finding_severity(const gm_finding *f);
/* "normal" or "error" for a leak (JSON "path"); NULL for other findings. */
const char *gm_path_kind_name(gm_path_kind p);
void gm_finding_free(gm_finding *f);

/* "cudaMalloc", "new", "new[]": how an allocation or free call is named in messages. */
const char *gm_call_display_name(const gm_node *call);

#endif
