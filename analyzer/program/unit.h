/* Whole-program analysis, per translation unit: what one file exports about itself for the
 * program-wide rules (a unit summary). It is plain data built from the function model alone, so
 * the result cache can keep it with the file's findings and a later run joins the summaries of
 * unchanged files without parsing them again. What it holds:
 *   - for each host function defined in the file: the GPU and heap allocations it makes on every
 *     call (outside loops, on no branch), with how the memory leaves (returned, stored through a
 *     parameter, freed before the function returns), and the functions it calls on every call;
 *   - each call in a loop to a function with no body in this file (it may live in another);
 *   - the flow engine's summary of each function (model/summary.h), and the functions the file
 *     calls without a body here, so that a second pass can give it the others' summaries;
 *   - each use of a struct or class member that holds memory: allocated into, freed, or handed
 *     on (copied out, passed to a function that may keep or free it; its address passed to a
 *     helper, which the program reads in the helper's summary), with where and in which
 *     function;
 *   - the families its allocations are of, for the program to word a helper's by name;
 *   - the destructors it defines (a class's teardown), and the local objects it makes and
 *     destroys while the program goes on. */
#ifndef GM_UNIT_H
#define GM_UNIT_H

#include "model/model.h"
#include "model/summary.h"
#include "support/util.h"

/* A family as the summary needs it: enough to word a finding and to judge a free. */
typedef struct gm_unit_family {
  const char *name;        /* "cuda-device" */
  const char *description; /* "device memory" */
  const char *free_fn;     /* "cudaFree" */
  int gpu, heap, pinned, managed;
} gm_unit_family;

typedef struct gm_unit_alloc {
  gm_loc loc;
  const char *api; /* "cudaMalloc" */
  gm_unit_family family;
  int out_param; /* stored through this parameter (`cudaMalloc(p, ..)`, `&s->buf`), or -1 */
  int returned;  /* returned to the caller */
  int freed;     /* freed again before the function returns: a churn source */
  int global;    /* stored into a global variable itself, overwriting the previous block */
} gm_unit_alloc;

/* A call a function makes outside its own loops, to a function that is not in the table. */
typedef struct gm_unit_call {
  const char *usr, *name;
  gm_loc loc;
  int conditional; /* under a branch: made on some calls only */
} gm_unit_call;

typedef struct gm_unit_func {
  const char *usr, *name;
  gm_loc loc;
  GM_VEC(gm_unit_alloc) per_call; /* allocations made on every call */
  GM_VEC(gm_unit_call) calls;     /* functions called outside its loops */
} gm_unit_func;

/* A call, inside a loop, to a function that has no body in this file. */
enum { GM_UNIT_RESULT_PER_ELEMENT = 1u << 31 };
typedef struct gm_unit_loop_call {
  const char *caller; /* the function holding the loop */
  const char *usr, *name;
  gm_loc call, loop;
  unsigned per_element; /* bit k: argument k reaches a different element on each iteration
                           (`&bufs[i]`, `plan + i`); GM_UNIT_RESULT_PER_ELEMENT: the result is
                           stored in one (`bufs[i] = make(..)`) */
} gm_unit_loop_call;

enum gm_member_use_kind {
  GM_MEMBER_ALLOC,   /* receives an allocation */
  GM_MEMBER_FREE,    /* passed to a free */
  GM_MEMBER_HANDOFF, /* copied out or passed where it may be kept or freed: ownership unknown */
  GM_MEMBER_ASSIGN,  /* assigned a value that is no allocation the table knows (not null) */
  /* receives another address of the block a member of the same object holds (the table's
   * [alias] calls: cudaHostGetDevicePointer(&s->dev, s->host, 0)); `source` names that member */
  GM_MEMBER_ALIAS
};

/* A file-scope or static variable is a member of the program's global object: its use is
 * recorded like a member's, with the variable's USR as `record` (prefixed by the file for one
 * seen by that file alone, of which each file has its own), its name as `member` and
 * `record_name` NULL. */
typedef struct gm_unit_member_use {
  enum gm_member_use_kind kind;
  const char *record;      /* the struct or class, by USR; a global: the variable's identity */
  const char *record_name; /* as written for people: "Ctx"; NULL for a global */
  const char *member;
  int global;   /* a variable, not a struct or class member */
  int internal; /* a global seen by its file alone: the file holds its whole life */
  int defines;  /* a global this file defines: two files that define it are two programs */
  /* handoff to a call: the callee (by USR) and the argument, so that the program can look up
   * what the callee does with it; NULL, -1 otherwise */
  const char *via_usr;
  int via_arg;
  /* handoff of the member's address (`dev_alloc((void **)&s->buf, n)`): the callee may fill or
   * free the member itself, which its summary says (allocates through it, frees *p); `loc` and
   * `api` are then the call's */
  int via_addr;
  gm_loc loc;
  const char *function, *function_usr;
  const char *api;       /* alloc, free: the function called */
  gm_unit_family family; /* alloc: the family allocated */
  const char *frees[8];  /* free: the families that function releases (names) */
  int nfrees;
  const char *source; /* alias: the member of the same object whose block it names */
  int conditional;    /* alloc, address handoff: under a branch, so made on some calls only */
  int cover;          /* free: how the function's frees of it cover its paths (enum gm_free_cover,
                         program/teardown.h: 0 every path, 1 some cases of a switch, 2 some
                         branches) */
  /* free: on every path that reaches it, the free receives a block its own function allocated
   * (the flow engine judged its family there); 0 when some path gives it what the member held
   * on entry, which only the program's other functions allocate */
  int own_block;
} gm_unit_member_use;

/* A destructor defined in the file: the class has a teardown, which should free what the
 * class's members hold. */
typedef struct gm_unit_teardown {
  const char *record; /* the class, by USR */
  const char *usr, *name;
  gm_loc loc;
  int calls_elsewhere; /* calls a function of the program with no body in this file */
} gm_unit_teardown;

/* A local object of a class, made by its constructor and destroyed where its scope ends while
 * the program goes on: in a loop, or in a function other than main, and never copied or handed
 * out (returned, passed, its address taken). What its constructor and methods allocate into its
 * members is lost each time unless a teardown frees it. */
typedef struct gm_unit_object {
  const char *record; /* the class, by USR (as a teardown's) */
  const char *function;
  gm_loc loc;  /* its declaration */
  int in_loop; /* made on every iteration of a loop; else on every call of `function` */
} gm_unit_object;

/* A call from a host function of the file to a function of the program (none of the table's or
 * the system's), once per caller and callee: which functions set up together what they
 * allocate into globals. */
typedef struct gm_unit_edge {
  const char *caller_usr, *caller;
  const char *usr, *name;
  gm_loc loc;
} gm_unit_edge;

typedef struct gm_unit {
  const char *path;             /* the source file as named */
  gm_arena *arena;              /* every string of the summary */
  GM_VEC(const char *) defined; /* USRs of the functions with a body in this file */
  GM_VEC(const char *) called;  /* USRs of functions called here with no body here (sorted) */
  GM_VEC(const char *) symbols; /* USRs of its functions the linker takes once (links_once) */
  int allocates;                /* the main file's host code calls an allocator (the table's) */
  GM_VEC(gm_call_summary) summaries; /* the main file's functions, as the flow engine saw them */
  /* the user's headers' functions the main file reaches that allocate through a parameter or
   * free what it points to (`static inline void dev_alloc(void **p, ..)`): read for the members
   * they fill or free alone, as every file that includes the header has their body */
  GM_VEC(gm_call_summary) helper_summaries;
  GM_VEC(gm_unit_func) funcs;
  GM_VEC(gm_unit_loop_call) loop_calls;
  GM_VEC(gm_unit_member_use) members;
  GM_VEC(gm_unit_edge) edges;
  /* every family the file's host code allocates from, once each: the program words a member
   * filled through a helper in another file by the family its summary names */
  GM_VEC(gm_unit_family) families;
  GM_VEC(gm_unit_teardown) teardowns;
  GM_VEC(gm_unit_object) objects;
} gm_unit;

/* The summary of one parsed file, with the flow engine's exported summaries (copied), and the
 * free calls that receive their own function's allocation on every path that reaches them (the
 * flow engine's facts). */
gm_unit *gm_unit_build(const gm_tu *tu, const char *path, const gm_call_summary *summaries,
                       int nsummaries, gm_node_set own_frees);
void gm_unit_free(gm_unit *u);

/* The summary as JSON text (malloc'd), and back: NULL when the text is not a summary of this
 * version (the caller then parses the file again). */
char *gm_unit_to_json(const gm_unit *u);
/* One function's summary as JSON text (malloc'd). */
char *gm_call_summary_json(const gm_call_summary *s);
gm_unit *gm_unit_from_json(const char *text, const char *path);

#endif
