/* A function's effect on its callers, as plain data (whole-program analysis): the flow engine
 * (analyzer/flow/) summarises every function of a file; those of the main file are kept in the
 * file's unit summary (analyzer/program/) and handed back to the flow engine of the files that
 * call them. Names, not pointers: families are looked up again in the calling file's allocator
 * table. */
#ifndef GM_SUMMARY_H
#define GM_SUMMARY_H

#include "model/model.h"

enum gm_param_effect {
  GM_PARAM_BORROWS,    /* uses it and keeps nothing */
  GM_PARAM_ESCAPES,    /* may keep or free it: ownership leaves the caller */
  GM_PARAM_FREES,      /* frees it on every path */
  GM_PARAM_OUT_ALLOC,  /* allocates and stores through it on every path */
  GM_PARAM_FREES_DEREF /* frees *p on every path (`destroy(T **pp)`) */
};

enum { GM_SUMMARY_MAX_FREES = 8 };

typedef struct gm_param_summary {
  enum gm_param_effect effect;
  /* declared a pointer to const data (`const T *`): a caller that has no body for the function
   * takes it as read only, so an escape here changes what that caller found */
  int reads_only;
  int nulls;       /* frees: leaves the caller's pointer null on every path */
  const char *via; /* frees: the inner free, when it is another helper's */
  const char *frees[GM_SUMMARY_MAX_FREES]; /* frees: the families it releases */
  int nfrees;
  const char *family; /* out-alloc: the family allocated */
  /* managed memory: */
  int prefetches; /* prefetches or advises it on every path */
  int host_touch; /* host code reads or writes through it */
  gm_loc launch;  /* a launch of a kernel with it, unprefetched (line 0: none) */
  const char *kernel_usr, *kernel_name;
  int kernel_param;
  gm_loc dense; /* where that kernel (or its helper) indexes it by thread (line 0: not) */
  const char *dense_where; /* the function holding that access */
} gm_param_summary;

/* A member of `this` that a method (a destructor) frees on every path. */
typedef struct gm_member_free_summary {
  const char *member;                      /* its path under the object: "data", "buf.ptr" */
  const char *via;                         /* the inner free's name */
  const char *frees[GM_SUMMARY_MAX_FREES]; /* the families it releases */
  int nfrees;
  gm_loc at; /* the free inside */
} gm_member_free_summary;
/* What a function does to a member of an object it is given (`this`, or a pointer or reference
 * parameter's): it overwrites what the member held on entry without freeing or testing it first
 * (clobbers), and/or leaves a fresh block there on every path (fills). */
typedef struct gm_member_effect {
  int root;           /* the parameter's index; -1: this */
  const char *member; /* its name, one member deep */
  int clobbers, fills;
  const char *family; /* fills: the family allocated */
} gm_member_effect;

typedef struct gm_call_summary {
  const char *usr, *name;
  int noreturn;
  const char *returns_fresh; /* the family of fresh memory it returns on every path, or NULL */
  int nparams;
  gm_param_summary *params;
  int nmember_frees;
  gm_member_free_summary *member_frees;
  int nmembers;
  gm_member_effect *members;
} gm_call_summary;

#endif
