/* The judges of the PyTorch view (rules GM150-GM154, docs/rules/GM15x.md): their thresholds,
 * and the one function per verdict that applies them, shared by the rules and `gmemlint
 * report`. Each works on one process's view (torch_view.h). */
#ifndef GM_TORCH_VERDICT_H
#define GM_TORCH_VERDICT_H

#include "runtime_view/torch_view.h"

/* The first steps build the model, the optimizer state and the cache: not judged. */
#define GM_TORCH_WARMUP_STEPS 2
/* Step-based verdicts (GM150, GM151) need at least this many steps after the warm-up. */
#define GM_TORCH_MIN_STEPS 5
/* GM151: reserved memory grew by at least max(this, GM_TORCH_CACHE_GROWTH_SHARE of the device)
 * while allocated memory grew by less than GM_TORCH_CACHE_ALLOCATED_SHARE of that. */
#define GM_TORCH_CACHE_GROWTH_MIN_BYTES (256ull << 20)
#define GM_TORCH_CACHE_GROWTH_SHARE 0.02
#define GM_TORCH_CACHE_ALLOCATED_SHARE 0.10
/* GM151: this many distinct sizes among large segments: expandable segments help. */
#define GM_TORCH_DISTINCT_SEGMENT_SIZES 4
/* GM152: requests above this size use the large pool. */
#define GM_TORCH_SMALL_REQUEST_MAX (1ull << 20)
/* GM153: free bytes inside partly used large segments of at least max(this, a share of the
 * reserved bytes), in holes no larger than half of them (score 1 - largest/free). */
#define GM_TORCH_FRAG_MIN_BYTES (1ull << 30)
#define GM_TORCH_FRAG_RESERVED_SHARE 0.10
#define GM_TORCH_FRAG_SCORE_MIN 0.5
/* GM154: a chain of at least this many allocations from one line, each larger than the one
 * before and made while it was still allocated (which was freed after). */
#define GM_TORCH_REGROWTH_CHAIN_MIN 5

/* The steps after the warm-up, and allocated_bytes' least-squares slope over them. */
typedef struct gm_torch_trend {
  size_t first, n; /* steps[first .. first+n) */
  double slope;    /* allocated bytes a step */
  uint64_t total;  /* the device's memory (0: not known) */
  /* the step where reserved memory would reach the device's total at that slope; 0: none */
  long oom_step;
  size_t rising; /* post-warm-up steps whose allocated bytes rose over the step before */
} gm_torch_trend;
gm_torch_trend gm_torch_trend_of(const gm_torch_view *v);

/* GM150: one leaking line. */
typedef struct gm_torch_leak {
  gm_pyframe at;
  size_t steps_with;       /* post-warm-up steps with survivors from it */
  uint64_t bytes_per_step; /* the median over those steps */
  uint64_t alive_bytes;    /* all its survivors from those steps */
} gm_torch_leak;
typedef struct gm_torch_leaks {
  gm_torch_trend trend;
  int judged;          /* enough steps and a usable history */
  const char *partial; /* why the history could not be used, or NULL */
  int allocated_rises; /* partial: allocated bytes rose in n-1 of n steps */
  /* the steps judged from the history: steps_judged from first_step (all after the warm-up;
   * of an overflowed history, those it kept whole: window is then its entries) */
  long first_step;
  size_t steps_judged;
  uint64_t window;
  GM_VEC(gm_torch_leak) lines;
} gm_torch_leaks;
gm_torch_leaks gm_torch_judge_leaks(const gm_torch_view *v);

/* GM150 for loops that are not training steps (an inference or serving loop with no optimizer
 * and no mark, an evaluation loop between optimizer steps): a line's allocations come in
 * repetitions, each a run of them that an allocation from another line ends (the rest of the
 * loop body). A line leaks when at least GM_TORCH_MIN_REPEATS repetitions left survivors at
 * exit, from all but at most one of its repetitions, and the loop around it did other work in
 * all but one of them: something was freed between a repetition's start and the next one's (a
 * forward pass drops its intermediates). A loop that only allocates and keeps, as one building a
 * model's layers, frees nothing: that is state being built, not a leak. A model's parameters,
 * made at one line in one go, are one repetition. */
#define GM_TORCH_MIN_REPEATS 8
typedef struct gm_torch_repeat_leak {
  gm_pyframe at;
  size_t repeats, repeats_with; /* its repetitions, and those with survivors */
  size_t blocks;                /* its blocks still allocated at exit (the exit snapshot's) */
  uint64_t bytes_per_repeat;    /* the median over repetitions with survivors */
  uint64_t alive_bytes;         /* its bytes still allocated at exit (the exit snapshot's) */
  uint64_t total, allocated;    /* the device's memory and the allocated bytes at exit (0: not
                                   known) */
} gm_torch_repeat_leak;
typedef struct gm_torch_repeat_leaks {
  GM_VEC(gm_torch_repeat_leak) lines;
  /* the history overflowed: the repetitions are those of its last `window` entries */
  uint64_t window;
} gm_torch_repeat_leaks;
/* Judged when the history and the exit snapshot are there; an overflowed history is judged on
 * the entries it kept. Lines by_step (gm_torch_judge_leaks' verdict on the same view) reports
 * are left out. */
gm_torch_repeat_leaks gm_torch_judge_repeats(const gm_torch_view *v, const gm_torch_leaks *by_step);
void gm_torch_repeat_leaks_free(gm_torch_repeat_leaks *r);

/* The exit snapshot's allocated blocks grouped by the Python line that allocated them (a block
 * keeps its frames when the history's entry for it is gone), most bytes first; what the report
 * says is still live even where the history cannot say how it came. */
typedef struct gm_torch_live_line {
  gm_pyframe at; /* file NULL: the framework's own, or no frames */
  size_t blocks;
  uint64_t bytes, common_size; /* common_size: the size most of its blocks have */
  size_t common_blocks;        /* how many have it */
} gm_torch_live_line;
typedef GM_VEC(gm_torch_live_line) gm_torch_live_lines;
gm_torch_live_lines gm_torch_live_by_line(const gm_torch_view *v);

int gm_torch_leaks_found(const gm_torch_leaks *l);
void gm_torch_leaks_free(gm_torch_leaks *l);

/* GM151. */
typedef struct gm_torch_cache_growth {
  int grew;
  uint64_t reserved_growth, allocated_growth, threshold, cached_at_last;
  size_t distinct_sizes; /* among large segments of the peak (else exit) snapshot */
  const char *snapshot;  /* "peak", "exit" or NULL */
  gm_pyframe at;         /* the largest segment made after the warm-up */
  uint64_t at_bytes;
} gm_torch_cache_growth;
gm_torch_cache_growth gm_torch_judge_cache(const gm_torch_view *v);

/* GM152. */
typedef enum gm_torch_oom_cause {
  GM_TORCH_OOM_PENDING_FREE,
  GM_TORCH_OOM_FRAGMENTATION,
  GM_TORCH_OOM_EXTERNAL,
  GM_TORCH_OOM_CAPACITY,
} gm_torch_oom_cause;
typedef struct gm_torch_oom_verdict {
  gm_torch_oom_cause cause;
  int from_snapshot; /* 0: judged from the record's figures alone */
  uint64_t pending, pool_free, largest_free, external, reserved;
  int large_pool;
  gm_pyframe at;
} gm_torch_oom_verdict;
gm_torch_oom_verdict gm_torch_judge_oom(const gm_torch_view *v, const gm_torch_oom *o);
const char *gm_torch_oom_cause_name(gm_torch_oom_cause c);

/* GM153, per device. */
typedef struct gm_torch_fragmentation {
  int device, fragmented;
  uint64_t free_bytes, largest, holes, reserved, small_reserved;
  double score;
  gm_pyframe at;    /* the segment with the most free bytes in holes */
  uint64_t at_free; /* its free bytes */
} gm_torch_fragmentation;
typedef GM_VEC(gm_torch_fragmentation) gm_torch_fragmentations;
/* The devices of the peak (else exit) snapshot; *snapshot names which ("peak", "exit"). */
gm_torch_fragmentations gm_torch_judge_fragmentation(const gm_torch_view *v, const char **snapshot);

/* GM154, per line. */
typedef struct gm_torch_regrowth {
  gm_pyframe at;
  size_t chain;
  uint64_t from, to, copied;
} gm_torch_regrowth;
typedef GM_VEC(gm_torch_regrowth) gm_torch_regrowths;
gm_torch_regrowths gm_torch_judge_regrowth(const gm_torch_view *v);

/* Where a finding goes: the Python line, or the companion file (line 0) when none. */
const char *gm_torch_where(const gm_torch_view *v, gm_pyframe at, unsigned *line);
/* "train.py (pid 4242, rank 1)"; free it. */
char *gm_torch_process_text(const gm_torch_view *v);

/* gmemlint report's "PyTorch view" section (out_torch.c); nothing without views. */
void gm_print_torch_report(FILE *out, const gm_telemetry *t);

/* The snapshot files the view names but could not read, "a.json, b.json", or NULL; free it. */
char *gm_torch_missing_snapshots(const gm_torch_view *v);

#endif
