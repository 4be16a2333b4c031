/* The PyTorch view (docs/telemetry-format.md, "The PyTorch view"): the companion file
 * T.torch.json that the Python shim writes beside a telemetry file, and the caching allocator's
 * snapshots it names, read and checked like the telemetry (the file and field of anything
 * wrong), kept as the judges need them (torch_verdict.h). Python frames are reduced to the
 * program's own: the first user frame of each record. */
#ifndef GM_TORCH_VIEW_H
#define GM_TORCH_VIEW_H

#include "runtime_view/telemetry.h"

#include <stdint.h>

#define GM_TORCH_VERSION 1

/* A Python source line; file NULL when every frame was the framework's (or there were none).
 * file points into the view's interned names. */
typedef struct gm_pyframe {
  const char *file;
  unsigned line;
} gm_pyframe;

enum gm_torch_block_state { GM_BLOCK_INACTIVE, GM_BLOCK_ALLOCATED, GM_BLOCK_PENDING_FREE };

typedef struct gm_torch_block {
  uint64_t address, size, requested;
  enum gm_torch_block_state state;
  gm_pyframe at;
} gm_torch_block;

typedef struct gm_torch_segment {
  int device, large, expandable;
  uint64_t address, total, allocated, active, requested;
  int64_t stream;
  gm_pyframe at;
  size_t first_block, nblocks; /* into gm_torch_snapshot.blocks */
} gm_torch_segment;

enum gm_torch_action {
  GM_TRACE_ALLOC,
  GM_TRACE_FREE_REQUESTED,
  GM_TRACE_FREE_COMPLETED,
  GM_TRACE_SEGMENT_ALLOC,
  GM_TRACE_SEGMENT_FREE,
  GM_TRACE_OOM,
  GM_TRACE_OTHER, /* segment_map, snapshot, ...: kept for order, judged by none */
};

typedef struct gm_torch_trace {
  enum gm_torch_action action;
  int device;
  uint64_t addr, size; /* addr: device_free for an oom entry */
  int64_t time_us;
  long step; /* from user_metadata "gmemlint.step=K"; -1 when untagged */
  gm_pyframe at;
} gm_torch_trace;

/* One snapshot file (torch.cuda.memory._snapshot()). loaded 0: the file was missing or
 * unreadable (a warning said so); the judges then say their view is partial. */
typedef struct gm_torch_snapshot {
  char *file; /* as the companion names it */
  char *path; /* resolved against the companion's directory */
  int loaded;
  GM_VEC(gm_torch_segment) segments;
  GM_VEC(gm_torch_block) blocks;
  GM_VEC(gm_torch_trace) traces; /* device by device, each in time order */
} gm_torch_snapshot;

typedef struct gm_torch_step {
  long step;
  int64_t time_us;
  int device;
  uint64_t allocated, reserved, active, requested, inactive_split, alloc_retries, ooms;
} gm_torch_step;

typedef struct gm_torch_oom {
  int64_t time_us;
  int device;
  uint64_t request, limit, device_free, allocated, reserved;
  gm_torch_snapshot *snapshot; /* NULL: none was taken (snapshot_error says why) */
  char *snapshot_error;
} gm_torch_oom;

typedef struct gm_torch_device {
  int index;
  char *name;
  uint64_t total;
} gm_torch_device;

typedef struct gm_torch_view {
  char *path, *real; /* the companion */
  long pid;
  int has_rank;
  long rank;
  char *program; /* argv[0], or "" */
  char *backend; /* "native" or "cudaMallocAsync" */
  int caching, expandable;
  char *settings; /* NULL when none were given */
  GM_VEC(gm_torch_device) devices;
  int history_recorded, history_overflowed;
  char *history_reason;
  uint64_t history_entries, history_max_entries;
  GM_VEC(gm_torch_step) steps;
  GM_VEC(gm_torch_oom) ooms;
  gm_torch_snapshot *peak, *exit; /* NULL when the companion names none */
  gm_str_vec names;               /* interned Python file names */
  struct gm_name_slot *name_index;
  size_t name_cap;
} gm_torch_view;

/* Whether root (a parsed JSON document) is a companion: its "format" is "gmemlint-torch". */
struct json_t;
int gm_torch_is_companion(const struct json_t *root);

/* Reads a companion and its snapshot files into t->torch. On a bad file returns 0 with
 * "FILE: what is wrong" in err. A missing snapshot file is not an error: a warning on standard
 * error names it and the snapshot stays unloaded (the judges say their view is partial). A
 * companion already read (found beside its telemetry file, then given) is read once. */
int gm_torch_load(gm_telemetry *t, const char *path, char *err, size_t errlen);

/* The companion beside telemetry file path (T.json -> T.torch.json), or NULL; free it. */
char *gm_torch_companion_of(const char *telemetry_path);

void gm_torch_view_free(gm_torch_view *v);

/* The torch view of the process that wrote run `run` of t (same pid), or NULL. */
const gm_torch_view *gm_torch_view_of_run(const gm_telemetry *t, size_t run);

/* Whether s is a site of PyTorch's caching allocator (its module is libc10_cuda*.so) in a run
 * whose torch view has caching on: what it holds is the cache, judged by the torch view
 * (GM150-GM154), never a leak by GM101 or growth by GM102. */
int gm_torch_caches_site(const gm_telemetry *t, const gm_tsite *s);

/* Whether s is memory of the framework's libraries (a module in the torch or nvidia package
 * directories, other than the caching allocator: cuBLAS workspaces, PyTorch's pinned-memory
 * cache) in a run with a torch view: held until the process ends by design, never the
 * program's leak at exit (GM101); the torch view judges the program's tensors. */
int gm_torch_framework_site(const gm_telemetry *t, const gm_tsite *s);

/* Whether out-of-memory event e is one the torch view judges (GM152), not GM103/GM104 or
 * GM140's capacity count: its run has a torch view that caches and recorded out-of-memory
 * errors. The runtime saw the caching allocator's cudaMalloc fail after PyTorch emptied its
 * cache; only the view knows whether the missing memory sat free in cached segments. */
int gm_torch_judges_oom(const gm_telemetry *t, const gm_toom *e);

/* The first frame, innermost first, whose file is the program's: frames in the framework
 * (paths with /torch/, /site-packages/, /dist-packages/ or /lib/python3, names like
 * "<frozen ...>") and the shim's own files (gmemlint_torch.py, sitecustomize.py) are skipped. */
int gm_pyframe_is_user(const char *filename);

#endif
