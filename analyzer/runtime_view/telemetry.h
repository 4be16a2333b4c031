/* The runtime's telemetry files (docs/telemetry-format.md), read and merged: several runs,
 * processes or MPI ranks become one table of sites. The reader checks the schema and names the
 * file and field of anything wrong; the verdicts are computed elsewhere (join.c, the rules). */
#ifndef GM_TELEMETRY_H
#define GM_TELEMETRY_H

#include "support/util.h"

#include <stdint.h>
#include <stdio.h>

/* The telemetry format versions this reader knows (docs/telemetry-format.md): 2 records the
 * out-of-memory figures without a verdict and names the program's prefetches
 * htod_user_prefetch_bytes. */
#define GM_TELEMETRY_VERSION 2
#define GM_TELEMETRY_OLDEST_VERSION 1

typedef struct gm_um_counts {
  uint64_t gpu_page_faults, cpu_page_faults, htod_bytes, dtoh_bytes, thrashing;
  uint64_t htod_on_demand_bytes;   /* coherence: migrated because the GPU touched it */
  uint64_t htod_prefetch_bytes;    /* by the program's cudaMemPrefetchAsync (cause "user") */
  uint64_t htod_speculative_bytes; /* by the driver's speculative prefetch around faults */
  /* files written before the two causes were told apart: by a prefetch, the program's or the
   * driver's, so no evidence that the program prefetched */
  uint64_t htod_prefetch_unsplit_bytes;
  /* transfers the other way than the one before; gmem_step() intervals that moved pages, and
   * that moved them both ways */
  uint64_t direction_changes, steps_moved, steps_both_ways;
  /* the most changes of direction one block of the site made: ping-pong is one block's pages
   * going back and forth, not blocks of one site each going their own way (older files: the
   * site's direction_changes, counted across its blocks) */
  uint64_t block_direction_changes_max;
  int has_migrating; /* the first and last transfer's start, ms since its process started */
  double migrating_first_ms, migrating_last_ms;
} gm_um_counts;

typedef struct gm_named_count {
  char *name;
  uint64_t n;
} gm_named_count;
typedef GM_VEC(gm_named_count) gm_named_counts;

typedef struct gm_tstack {
  uint64_t count;
  gm_str_vec frames; /* innermost first, as the runtime writes them */
} gm_tstack;

enum gm_site_kind { GM_SITE_ALLOC, GM_SITE_FREE, GM_SITE_OTHER };

/* One call site, merged over every file that has it (same file, line and API). */
typedef struct gm_tsite {
  char *file; /* as the runtime recorded it (the path given to the compiler) */
  char *real; /* its realpath here, or NULL when it does not resolve */
  int file_absolute;
  int no_source;  /* a return-address site without debug information: file is "module+0xoffset" */
  char *function; /* its function, when symbols name it */
  char *module;   /* the shared object of the call, when the runtime named it */
  unsigned line, column;
  char *api;
  enum gm_site_kind kind;
  char *family; /* alloc sites */
  uint64_t calls, failed_calls, bytes_total, bytes_min, bytes_max;
  GM_VEC(uint64_t) sizes; /* distinct sizes, the union over files */
  int sizes_truncated;
  uint64_t increasing_sizes, peak_live_bytes, live_bytes, live_count;
  uint64_t live_bytes_exit, live_count_exit; /* only from runs that ended normally ("exit") */
  gm_named_counts frees;                     /* by free API */
  /* failed calls by the error they returned (cudaErrorMemoryAllocation, ...); empty in files
   * written before the runtime named them */
  gm_named_counts failures;
  uint64_t wrong_family_frees, double_frees, alloc_ns, alloc_timed_calls;
  uint64_t free_calls, free_ns, copies, copy_bytes, copy_ns, prefetches;
  char *copy_direction; /* host-to-device, ..., mixed; NULL when the telemetry has none */
  /* copies that moved on by the same step as the one before (a loop over a range); known only
   * when the telemetry has the field */
  uint64_t copies_strided;
  int has_copies_strided;
  /* blocks freed once a larger block from the site replaced them, the longest chain of such
   * replacements, and the copies from a block into its replacement */
  uint64_t regrowths, regrowth_chain_max, regrowth_copies, regrowth_copy_bytes;
  GM_VEC(uint64_t) step_live; /* summed step by step over files */
  int has_um;                 /* a managed site: um holds its counters */
  gm_um_counts um;
  int um_collected; /* some file that ran it had CUPTI's counters */
  GM_VEC(gm_tstack) stacks;
  int nfiles;       /* how many files had the site */
  size_t first_run; /* the first file that had it (index into gm_telemetry.runs) */
  int has_active;   /* the first file's window of activity, ms since its process started */
  double active_first_ms, active_last_ms;
  int ended_early;     /* some file with it was written on a signal or by gmem_dump() */
  size_t next_on_line; /* the next site on the same line (position + 1; 0: the last) */
} gm_tsite;

/* The live device blocks in address order at one moment (process.address_space_at_peak, an
 * out-of-memory event's address_space). */
typedef struct gm_tblock {
  uint64_t offset, bytes; /* from the view's base */
  long site;              /* index into gm_telemetry.sites; -1 when the runtime had none */
} gm_tblock;

typedef struct gm_tspace {
  double time_ms;
  uint64_t live_bytes, base, span_bytes, block_bytes, gaps, gap_bytes, largest_gap_bytes;
  uint64_t blocks_left_out;
  GM_VEC(gm_tblock) blocks;
} gm_tspace;

typedef struct gm_tpoint {
  double ms; /* since the process started */
  uint64_t bytes;
} gm_tpoint;

typedef struct gm_tnvml {
  double ms;
  int device;
  uint64_t used_bytes, total_bytes;
  unsigned sm_percent, mem_percent;
} gm_tnvml;

typedef struct gm_tdevice {
  int device;
  uint64_t allocations, peak_live_bytes, live_bytes, live_count;
} gm_tdevice;

/* Why an allocation ran out of memory: gm_oom_judge (oom_verdict.h) decides from the figures. */
typedef enum gm_oom_verdict {
  GM_OOM_UNKNOWN,
  GM_OOM_FRAGMENTATION,
  GM_OOM_CAPACITY,
  GM_OOM_TRANSIENT,
} gm_oom_verdict;

typedef struct gm_toom {
  char *file; /* NULL when the runtime had no site */
  unsigned line, column;
  char *api;
  uint64_t requested_bytes, free_bytes, total_bytes, live_bytes; /* total 0: no figures */
  uint64_t held_unused_bytes; /* freed by the program, still held by the driver or pools */
  int has_held_unused;        /* files from before the runtime recorded it lack it */
  uint64_t largest_block_bytes;
  int has_largest_block;
  /* stream-ordered requests: what the sampled pools held */
  uint64_t pool_reserved_bytes, pool_used_bytes;
  int pool_sampled;
  /* version 1 files: the verdict the runtime wrote, judged only where the figures are missing */
  gm_oom_verdict recorded_verdict;
  int has_recorded_verdict;
  double time_ms;
  const char *source; /* the telemetry file */
  long pid;
  size_t run;       /* index into gm_telemetry.runs */
  int device;       /* the failing thread's device; -1 when not recorded */
  gm_tspace *space; /* the live blocks at the failure (the first events only), or NULL */
} gm_toom;

typedef struct gm_tpool {
  char *pool;
  int device;
  uint64_t reserved_bytes, used_bytes, reserved_high_bytes, used_high_bytes;
  const char *source;
  long pid;
} gm_tpool;

/* One telemetry file: one process. */
typedef struct gm_trun {
  char *path;
  char *real;
  long pid;
  char *program;
  char *reason;
  double duration_ms;
  uint64_t peak_live_bytes, live_bytes, live_count, steps;
  int um_available;
  char *um_reason;
  GM_VEC(gm_tpoint) timeline; /* process.timeline: live bytes over time, all devices */
  gm_tspace *peak_space;      /* process.address_space_at_peak, or NULL */
  GM_VEC(gm_tdevice) devices;
  int nvml_available;
  char *nvml_reason;
  GM_VEC(gm_tnvml) nvml;
  /* torch_view: a Python process under gmemrun says whether the PyTorch shim ran (NULL: not
   * said, a run that is no Python program); torch_view_reason: why it was off ("" when on) */
  char *torch_view_state;
  char *torch_view_reason;
} gm_trun;

typedef struct gm_telemetry {
  GM_VEC(gm_trun) runs;
  GM_VEC(struct gm_torch_view *) torch; /* PyTorch views (runtime_view/torch_view.h) */
  GM_VEC(gm_tsite) sites;
  GM_VEC(gm_toom) ooms;
  GM_VEC(gm_tpool) pools;
  size_t *index; /* sites by (file, line, api), for merging */
  size_t index_cap;
  /* sites by line, in their order, for gm_telemetry_find: a lookup scans one line's sites, not
   * every site */
  struct gm_line_sites *by_line;
  size_t by_line_cap;
} gm_telemetry;

/* Whether a run is a Python process whose PyTorch view was off (its torch_view_reason says why). */
int gm_trun_torch_view_off(const gm_trun *r);
/* Says on `out`, once a file, which of t's runs from `first` on had the PyTorch view off: their
 * findings rest on the CUDA calls alone. */
void gm_telemetry_say_views_off(const gm_telemetry *t, size_t first, FILE *out);

/* Reads one file and merges it into t: a telemetry file, with the PyTorch view's companion
 * beside it (T.json -> T.torch.json) when there is one, or a companion given alone. On failure
 * returns 0 with "FILE: what is wrong" in err and leaves t as it was, except that a bad
 * companion fails the load after its telemetry file was merged (the caller stops either way).
 * A file already read (same realpath) is skipped with a warning in err and returns 2. */
int gm_telemetry_load(gm_telemetry *t, const char *path, char *err, size_t errlen);
void gm_telemetry_free(gm_telemetry *t);

/* Whether path names the same source as site file `site` (see docs/join.md): by realpath when
 * both resolve, otherwise by their common trailing path components (at least the basename).
 * Returns 0 for no match, higher for a closer one. */
int gm_path_match(const char *path, const char *path_real, const char *site_file,
                  const char *site_real, int site_absolute);

/* The site of that kind at file:line that best matches (the same column, when both have one,
 * breaks ties), or NULL. GM_SITE_OTHER finds copy and prefetch sites. */
const gm_tsite *gm_telemetry_find(const gm_telemetry *t, const char *file, unsigned line,
                                  unsigned column, enum gm_site_kind kind);

/* Whether the site ran: successful allocations, copies, prefetches or free calls. */
int gm_site_ran(const gm_tsite *s);
uint64_t gm_site_frees_total(const gm_tsite *s);
/* "3 of 3 allocations from this site failed (cudaErrorNoDevice)", the errors as the telemetry
 * names them, with counts when several ("cudaErrorMemoryAllocation 2, cudaErrorInvalidValue 1");
 * without them for files that do not name them. Free it. */
char *gm_site_failed_text(const gm_tsite *s);

/* The site's most frequent host stack, outermost first: "main > train > forward" (runtime and
 * libc frames dropped), or NULL when none was captured. */
char *gm_site_stack(const gm_tsite *s);

/* Human units, for evidence and reports: gm_bytes(12582912).s is "12.0 MiB". The buffer lives
 * until the end of the full expression. */
typedef struct gm_human {
  char s[40];
} gm_human;
gm_human gm_bytes(uint64_t bytes);
gm_human gm_duration_ns(uint64_t ns);
gm_human gm_rate(uint64_t bytes, uint64_t ns); /* "1.5 GiB/s" */

/* gmemlint report: the runtime view alone. */
void gm_print_telemetry_report(FILE *out, const gm_telemetry *t, int top);

#endif
