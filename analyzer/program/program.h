/* Whole-program analysis: the unit summaries of every file in a run (unit.h), joined. The
 * driver builds the program after pass one to give each file the summaries of the functions it
 * calls in other files (pass two), then again for the program-wide checks: each rule's
 * check_program reads it through the queries here and reports into the file that holds the
 * finding's location. */
#ifndef GM_PROGRAM_H
#define GM_PROGRAM_H

#include "program/unit.h"

#include <stddef.h>

typedef struct gm_program {
  gm_unit *const *units; /* NULL entries: files with no summary (not parsed, input errors) */
  size_t nunits;
  struct gm_program_index *index; /* built by gm_program_join */
} gm_program;

/* Indexes the units' functions and members. */
void gm_program_join(gm_program *p);
void gm_program_free(gm_program *p);

/* The function with this USR and a body in a unit other than `except` (GM_ANY_UNIT: any), with
 * the unit that holds it; NULL when none (or only `except` has it). Only functions that allocate
 * on every call, or call others on every call, are listed. */
#define GM_ANY_UNIT ((size_t)-1)
const gm_unit_func *gm_program_function(const gm_program *p, const char *usr, size_t except,
                                        size_t *unit);

/* The flow engine's summary of the function with this USR and a body in a unit other than
 * `except`, or NULL. */
const gm_call_summary *gm_program_summary(const gm_program *p, const char *usr, size_t except);

/* One member of one struct or class across the program: every allocation into it, every free
 * of it, and whether it is handed off anywhere (copied out, passed where it may be kept). A use
 * in a function defined in a header appears once, however many files include it. */
typedef struct gm_member_use_ref {
  const gm_unit_member_use *use;
  size_t unit;
} gm_member_use_ref;

typedef struct gm_member_summary {
  const char *record, *record_name, *member;
  int global;        /* a global variable (unit.h), `member` its name */
  int internal;      /* a global seen by one file alone */
  int defined_twice; /* a global two files define: two programs linted together, each its own */
  size_t defined_in; /* the first unit seen to define it, plus one; 0: none */
  GM_VEC(gm_member_use_ref) allocs;
  GM_VEC(gm_member_use_ref) frees;
  GM_VEC(gm_member_use_ref) aliases; /* it receives another address of a sibling's block */
  int handed_off;
  int assigned_other;   /* also assigned something else: a borrowed pointer, an unknown source */
  int freed_every_path; /* some function frees it on every path through it (unit.h's cover) */
} gm_member_summary;

/* Every member that receives an allocation somewhere, by record then member name; the members
 * of one record are adjacent. */
const gm_member_summary *gm_program_members(const gm_program *p, size_t *n);

/* Every member the program uses, allocated into or not, by record then member name. */
const gm_member_summary *gm_program_all_members(const gm_program *p, size_t *n);

/* The member of m's record named `member`, or NULL. */
const gm_member_summary *gm_program_sibling_named(const gm_program *p, const gm_member_summary *m,
                                                  const char *member);

/* A member of the same record as m, other than m, that some function frees; NULL if none. */
const gm_member_summary *gm_program_freed_sibling(const gm_program *p, const gm_member_summary *m);

/* For a global allocated somewhere: a sibling, another global set up with it and freed
 * somewhere. Set up with it: allocated in the same function, or by a caller of that function
 * (`scan() { cudaMalloc(&d_hash[t]); module_init(t); }`). */
typedef struct gm_global_sibling {
  const gm_member_summary *sibling;
  const gm_unit_member_use *alloc; /* the allocation of the global the relation rests on */
  const gm_unit_edge *via;         /* the caller's call of the function holding `alloc`;
                                      NULL when the sibling is allocated in that function */
} gm_global_sibling;

/* 0 when the global has no freed sibling. */
int gm_program_freed_global_sibling(const gm_program *p, const gm_member_summary *m,
                                    gm_global_sibling *out);

/* Whether the program holds every use of the global: one seen by a file alone, or any global
 * when the run is over several files (the program as the user named it), each with its
 * summary. A single file's other globals may be released by files the run does not see. */
int gm_program_sees_global(const gm_program *p, const gm_member_summary *m);

/* A free of a member of the same record as m, other than m, that `function_usr` makes on every
 * path through it (a release function that frees m in some cases only, and this one always);
 * NULL if none. */
const gm_member_use_ref *gm_program_sibling_freed_always(const gm_program *p,
                                                         const gm_member_summary *m,
                                                         const char *function_usr);

/* A destructor of the class (by USR) defined in the program, or NULL. */
const gm_unit_teardown *gm_program_teardown(const gm_program *p, const char *record);

/* A local object of the member's class that the program makes and destroys while it runs (in
 * a loop, or in a function other than main; unit.h), or NULL. */
const gm_unit_object *gm_program_object_dying(const gm_program *p, const char *record);

/* Whether the program's defined functions may call this one on some of their calls only (under
 * a branch): what it allocates, the program may not hold on every run. */
int gm_program_called_on_some_calls(const gm_program *p, const char *usr);

/* Whether a free releases a family (by name). */
int gm_member_free_releases(const gm_unit_member_use *free_use, const char *family);

#endif
