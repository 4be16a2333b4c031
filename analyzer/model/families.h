/* The allocator-family table: which calls allocate, free, or merely use memory, read from
 * rules/families.ini (compiled in) and extended by a project's .gmemlint file. */
#ifndef GM_FAMILIES_H
#define GM_FAMILIES_H

#include "model/thresholds.h"

#include <stddef.h>

enum gm_fn_kind {
  GM_FN_ALLOC,
  GM_FN_REALLOC,
  GM_FN_FREE,
  GM_FN_USE,         /* reads or writes through pointer arguments, takes no ownership */
  GM_FN_COPY,        /* a memory copy: use, and what GM020/GM021 look for */
  GM_FN_DEVICE_FILL, /* cudaMemset: use, written on the device (GM030's first touch) */
  GM_FN_PREFETCH,    /* cudaMemPrefetchAsync, cudaMemAdvise: places managed memory */
  GM_FN_LAUNCH,      /* cudaLaunchKernel(kernel, grid, block, args, ...) */
  GM_FN_NORETURN,
  GM_FN_SINK,   /* keeps or releases what argument ptr_arg gets (GM_ARG_NONE: every pointer) */
  GM_FN_BORROW, /* uses its pointer arguments and keeps none: no escape, no free */
  /* writes through out-argument ptr_arg another address of the block that argument src_arg
   * points at (cudaHostGetDevicePointer): both name one block, freed once */
  GM_FN_ALIAS,
  /* returns the status of the last runtime call (cudaGetLastError): a borrower whose result
   * says whether the allocation just before it failed */
  GM_FN_LAST_ERROR,
  /* returns null or a negative value when it fails (fopen, open): a borrower whose failure
   * test starts an error path */
  GM_FN_FALLIBLE
};

/* Who makes a copy, and in which direction (a [copy] row's `direction`). */
enum gm_copy_direction {
  GM_COPY_HOST,   /* the host copies (memcpy): it reads and writes both sides */
  GM_COPY_DEVICE, /* the device copies; its kind argument or the pointers give the direction */
  GM_COPY_HTOD,
  GM_COPY_DTOH,
  GM_COPY_DTOD
};

#define GM_ARG_RETURN (-1)
#define GM_ARG_NONE (-2)
#define GM_MAX_FREES 8

typedef struct gm_family {
  const char *name;
  const char *description; /* "pinned host memory" */
  const char *free_fn;     /* "cudaFreeHost": named in messages */
  int managed;             /* unified memory: pages migrate on demand */
  int gpu;                 /* device, managed or pinned memory: what GM010 is about */
  int pinned;              /* page-locked host memory: allocating it pins pages (GM010's cost) */
  int heap;                /* host heap (malloc, new): leaks are GM004's, not GM001's */
} gm_family;

typedef struct gm_fn {
  const char *name;
  enum gm_fn_kind kind;
  const gm_family *family;          /* alloc, realloc */
  int ptr_arg;                      /* alloc/realloc/free/alias: argument index or GM_ARG_RETURN */
  const char *ptr_field;            /* alloc: field of the out-parameter, e.g. "ptr" */
  int size_arg;                     /* alloc, copy: argument index or GM_ARG_NONE */
  int dst_arg, src_arg;             /* copy: destination and source; alias: src_arg's block */
  int old_arg;                      /* realloc: the argument it releases */
  enum gm_copy_direction direction; /* copy: who copies, which way */
  int kind_arg;                     /* copy: the cudaMemcpyKind argument, or GM_ARG_NONE */
  int stream_arg;                   /* copy: the stream argument, or GM_ARG_NONE */
  /* use, copy: the host reads or writes through the pointer arguments (memset, memcpy), as
   * opposed to the device or the driver (cudaMemcpy2D, cuMemMap) */
  int host_touch;
  const gm_family *frees[GM_MAX_FREES]; /* free: the families it may release */
  int nfrees;
} gm_fn;

typedef struct gm_table gm_table;

/* The built-in table (parsed once, whichever thread asks first; aborts the program if the
 * compiled-in text is broken). */
const gm_table *gm_table_builtin(void);

/* A table extended by a config file's text; `base` is consulted after it. Returns NULL and
 * writes a message to err on a syntax or meaning error. Rule switches from a [rules] section
 * are returned through enable/disable (comma lists, caller frees); a [thresholds] section sets
 * `thresholds`. */
gm_table *gm_table_extend(const gm_table *base, const char *text, const char *origin, char *err,
                          size_t errlen, char **enable, char **disable, gm_thresholds *thresholds);
void gm_table_free(gm_table *t);

const gm_fn *gm_table_lookup(const gm_table *t, const char *name);
const gm_family *gm_table_family(const gm_table *t, const char *name);
int gm_fn_frees_family(const gm_fn *fn, const gm_family *fam);
/* Whether a call of this name may change the status cudaGetLastError reports ([runtime-status]:
 * the CUDA runtime, the driver and their libraries). */
int gm_table_sets_runtime_status(const gm_table *t, const char *name);

#endif
