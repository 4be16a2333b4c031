/* The flow engine: follows every path through a function (forking at branches, unrolling loops a
 * few times, following goto and switch), tracking what each allocation's pointer holds, and
 * records memory facts: leaks at exits, frees by the wrong family, frees of interior pointers and
 * double frees. Rules judge these facts; the engine itself reports nothing. Same-TU functions are
 * summarised first (allocates and returns, frees a parameter, never returns) so a call to a
 * wrapper acts as the allocation or free it wraps. */
#ifndef GM_FLOW_H
#define GM_FLOW_H

#include "model/model.h"
#include "model/summary.h"

enum gm_fact_kind {
  GM_FACT_LEAK,
  GM_FACT_MISMATCH,
  GM_FACT_OFFSET_FREE,
  GM_FACT_DOUBLE_FREE,
  GM_FACT_FREE_UNALLOCATED, /* a free of storage no allocator made: an array, &x, a literal */
  GM_FACT_MANAGED_LAUNCH,   /* managed memory passed to a kernel (perhaps prefetched first) */
  GM_FACT_MANAGED_HOST,     /* managed memory read or written by host code */
  GM_FACT_MANAGED_PREFETCH, /* managed memory prefetched or advised */
  /* a free and the block it receives on a path: `alloc` and `family` are the allocation's when
   * the function made it, NULL when the block came from outside (what a member or parameter
   * held on entry, a value not followed), whose family only the program knows (GM002's
   * program check reads which it was) */
  GM_FACT_FREED_BLOCK
};

enum gm_exit_kind {
  GM_EXIT_RETURN,    /* a return statement */
  GM_EXIT_END,       /* falls off the end of the function */
  GM_EXIT_OVERWRITE, /* the only pointer to it is assigned something else */
  GM_EXIT_REDECLARE, /* its variable is declared again (next loop iteration) */
  GM_EXIT_PROCESS    /* `exit(0)` in any function: the program ends as `return 0` ends it */
};

typedef struct gm_fact {
  enum gm_fact_kind kind;
  const gm_node *alloc;    /* the allocation call (or the wrapper call that allocates) */
  const gm_family *family; /* the allocation's family */
  const char *var;         /* the variable that received it, or NULL */
  const gm_node *at;       /* leak: where it is lost; free facts: the free call */
  enum gm_exit_kind exit;  /* leak only */
  /* leak: lost where the process ends (a return from or the end of main, a process exit
   * anywhere), not while it keeps running; the engine alone decides it */
  int ends_process;
  const gm_node *first_free;   /* double free: the earlier free */
  const char *first_free_name; /* double free: the function of the earlier free (a destructor) */
  const char *free_name;       /* free facts: the function that frees */
  const gm_family *const *free_families; /* mismatch: what that function releases */
  int nfree_families;
  const char *via;           /* free through a same-TU helper: the inner free's name */
  const gm_node *skipped_by; /* leak on a later iteration: the continue that skipped the free */
  int prefetched;            /* managed launch: it was prefetched or advised on this path */
  /* unallocated free: freed as `&x` or through a pointer to x (1), and x holds a pointer, likely
   * the one meant (2); else 0 */
  int freed_address;
  const char *kernel_usr; /* managed launch: the kernel (USR), and its name */
  const char *kernel_name;
  int kernel_param;             /* managed launch: which kernel parameter receives it */
  const gm_node *via_call;      /* managed launch inside a same-file helper: the call to it */
  int error_path;               /* leak: only on paths after a failed call (an error status, a null
                                   result), not on the normal path */
  const gm_node *remote_access; /* managed launch through another file's helper: where its kernel
                                   indexes the memory by thread (that file's location), or NULL */
  const char *remote_where;     /* the function holding that access */
  int latent; /* leak, mismatch, double or interior free: only on paths that rest on a decision
                 the engine could not keep (a call it does not follow may have changed a value
                 tested twice) or on a condition clang could not type; reported with --latent */
  const char *storage; /* unallocated free: what was freed ("a __device__ array"); var
                          names it (NULL for a string literal) */
  const char *through; /* unallocated free: the pointer variable given to the free, when
                          it is not the object itself */
  /* mismatch: the allocation and the free inside the helpers that `alloc` and `at` call
   * (innermost), each the call itself when it is no helper; double free: inner_free is the
   * free inside the first free (a destructor's cudaFree for a by-value copy's) */
  const gm_node *inner_alloc, *inner_free;
  /* double or wrong free: a call that gave the block another address (its notes name it) */
  const gm_node *alias_call;
} gm_fact;

enum { GM_CUT_PATHS = 1, GM_CUT_STEPS = 2, GM_CUT_RECURSION = 3 };

typedef struct gm_func_facts {
  const gm_func *fn;
  gm_fact *facts;
  int nfacts;
  int truncated; /* GM_CUT_PATHS: paths were dropped to stay within the state budget;
                    GM_CUT_STEPS: the step budget ran out first;
                    GM_CUT_RECURSION: its summary, with the functions it recurses through,
                    did not settle, so its callers take its pointers as handed over */
} gm_func_facts;

/* What other files of the program say of functions this file only declares (whole-program
 * analysis): find returns the summary for a USR, or NULL; families are looked up by name in
 * `table`, the file's allocator table. */
typedef struct gm_flow_imports {
  const gm_call_summary *(*find)(void *arg, const char *usr);
  void *arg;
  const gm_table *table;
} gm_flow_imports;

/* Summarises the TU's functions and computes facts for those in the main file; a call to a
 * function with no body here uses its imported summary (imports may be NULL: the other files of
 * the run are not known yet; given, a function it does not find is defined nowhere in the run). The
 * summaries of the main file's functions, and of the user's headers' functions they reach, are
 * exported (may be NULL). Facts, summaries and their strings live in tu->arena. */
void gm_flow_analyze(const gm_tu *tu, const gm_flow_imports *imports, gm_func_facts **out,
                     int *nout, gm_call_summary **exported, int *nexported);

/* The free calls that receive their own function's allocation on every path that reaches them
 * (GM_FACT_FREED_BLOCK), in tu->arena. */
gm_node_set gm_flow_own_block_frees(const gm_tu *tu, const gm_func_facts *facts, int nfacts);

#endif
