/* The function model: a small tree per function, built once from libclang's AST by the front end
 * (analyzer/frontend/), then read by the flow engine (analyzer/flow/) and by the rules. It keeps
 * only what memory rules need: control structure, calls with their allocator-table row,
 * assignments, variables, member paths, null constants, launches, and where each thing is in the
 * user's source. */
#ifndef GM_MODEL_H
#define GM_MODEL_H

#include "model/families.h"
#include <stdio.h>
#include "support/util.h"

typedef struct gm_loc {
  const char *file; /* as the user named it; NULL when unknown */
  unsigned line, col;
} gm_loc;

enum gm_node_kind {
  /* statements */
  GM_N_SEQ,    /* kids in order */
  GM_N_IF,     /* kids: cond, then, else (then/else may be NULL) */
  GM_N_LOOP,   /* kids: init, cond, inc, body (any may be NULL); op: enum gm_loop_kind */
  GM_N_SWITCH, /* kids: cond, body */
  GM_N_CASE,   /* kids: body; op 1 for `default:`; has_value/value: the case's constant */
  GM_N_RETURN, /* kids: value or NULL, then the destructor calls of the locals it leaves */
  GM_N_BREAK,
  GM_N_CONTINUE,
  GM_N_GOTO,  /* name: label */
  GM_N_LABEL, /* name: label; kids: body */
  GM_N_THROW, /* kids: value or NULL; ends the path */
  GM_N_DECL,  /* var; kids: initialiser or NULL */
  GM_N_TRY,   /* kids: the try block, then each handler's body */
  GM_N_NOP,
  /* expressions */
  GM_N_CALL,      /* name, fn, callee_usr; kids: arguments */
  GM_N_ASSIGN,    /* kids: lhs, rhs; op: 0 plain, 1 compound (+=, -=, ...) */
  GM_N_VAR,       /* var */
  GM_N_FIELD,     /* name: member; kids: base or NULL (implicit this) */
  GM_N_DEREF,     /* kids: pointer */
  GM_N_INDEX,     /* kids: base, index */
  GM_N_ADDR,      /* kids: lvalue */
  GM_N_NULL,      /* null pointer, 0, false, or an enumerator equal to 0 (cudaSuccess) */
  GM_N_CONST,     /* any other constant */
  GM_N_ARITH,     /* kids: lhs, rhs; op: '+', '-', '*', '/', '%', 'l' (<<), 'r' (>>), '&', '|',
                     '^', or 0 for any other operator */
  GM_N_INCDEC,    /* kids: lvalue; op: '+' for ++, '-' for -- */
  GM_N_LAND,      /* kids: lhs, rhs */
  GM_N_LOR,       /* kids: lhs, rhs */
  GM_N_NOT,       /* kids: operand */
  GM_N_CMP,       /* kids: lhs, rhs; op: '=' for ==, '!' for !=, '<' for others; name: "<=" */
  GM_N_COND,      /* kids: cond, then, else */
  GM_N_COMMA,     /* kids in order; value of the last */
  GM_N_LAMBDA,    /* kids: VAR nodes of captured locals */
  GM_N_AGGREGATE, /* kids: elements of an initialiser list */
  GM_N_OTHER      /* kids evaluated; value unknown */
};

enum gm_loop_kind { GM_LOOP_FOR, GM_LOOP_WHILE, GM_LOOP_DO, GM_LOOP_RANGE };

typedef struct gm_node {
  enum gm_node_kind kind;
  int op;
  gm_loc loc;
  struct gm_node **kids;
  int nkids;
  const char *name;
  int var;                 /* GM_N_VAR, GM_N_DECL: index into the function's vars */
  const gm_fn *fn;         /* GM_N_CALL: allocator-table row, or NULL */
  const char *callee_usr;  /* GM_N_CALL: callee's USR, for same-TU summaries; NULL if unknown */
  const char *record;      /* GM_N_FIELD: the struct or class declaring the member (USR) */
  const char *record_name; /* GM_N_FIELD: that type's name as written ("Ctx") */
  unsigned is_launch : 1;  /* GM_N_CALL: a kernel launch k<<<...>>>(args) */
  unsigned noreturn : 1;   /* GM_N_CALL: the callee is declared noreturn */
  unsigned in_system : 1;  /* GM_N_CALL: the callee is declared in a system header */
  unsigned is_kernel_callee : 1; /* GM_N_CALL: the callee is a __global__ function */
  unsigned is_method : 1;        /* GM_N_CALL: a non-static member function or constructor */
  unsigned returns_bool : 1;     /* GM_N_CALL: the callee returns bool (true is success) */
  unsigned sets_status : 1;      /* GM_N_CALL: the table's [runtime-status] names the callee */
  unsigned selects_device : 1;   /* GM_N_CALL: a function of the file that makes a device current
                                    (a project's wrapper of cudaSetDevice; gm_tu_index_calls) */
  /* GM_N_CALL: not written in the source: a local object's destructor, run where its scope ends
   * (the block's closing brace, a return); callee_usr is the destructor, object the variable */
  unsigned implicit_dtor : 1;
  unsigned arg_writes;     /* GM_N_CALL: bit i: the callee may write through argument i (bit 31:
                              any argument from 31 on); all ones when unknown */
  unsigned read_only_args; /* GM_N_CALL: bit i (i < 31): argument i is bound to a pointer to
                              const data (`const float *`, `const void *`), through which the
                              callee reads; 0 when unknown */
  unsigned has_value : 1;  /* an integer constant expression; its value is `value` */
  unsigned in_macro : 1;   /* written inside a macro expansion */
  unsigned is_string : 1;  /* GM_N_CONST: a string literal */
  unsigned invalid : 1;    /* clang could not type it (recovery expression, invalid declaration):
                              opaque, never its operands; kids: the variables it names */
  long long value;
  unsigned offset, end_offset; /* byte extent in loc.file (expansion range), for fix-its */
  int id;                      /* unique within the function, for state keys */
  struct gm_node *parent;      /* set by gm_model_finish */
  /* GM_N_CALL whose callee clang picks only per instantiation (a dependent call in a template),
   * with several candidates: the USRs of the functions and templates of its name that the unit
   * declares, any of which it may call */
  const char **overloads;
  int noverloads;
  /* GM_N_CALL of a member function on a variable or its member (`desc.run()`): that object,
   * which is not among the kids; NULL otherwise */
  const struct gm_node *object;
  /* A call's argument copied member by member into a by-value parameter (an implicit or
   * defaulted copy or move constructor) of a class with a user-written destructor: that
   * destructor's USR. The copy dies when the call ends, and its destructor runs then. The
   * argument is the object copied, or `std::move(obj)` (a class with no move constructor of
   * its own is copied all the same). */
  const char *copy_dtor;
  /* GM_N_CALL of a member function: the callee as written, a GM_N_FIELD whose kid is the
   * object (`bufs[i].alloc`, `bufs.push_back`); NULL otherwise */
  const struct gm_node *callee_member;
  /* GM_N_LOOP only, set by gm_model_finish: */
  unsigned char *modified; /* per var: assigned somewhere in the loop (cond, inc, body) */
  unsigned runs_once : 1;  /* provably runs at most once (do-while(0), i < 1, always exits) */
  unsigned few_trips : 1;  /* a counted loop of a handful of iterations known when compiled, or
                              one that flips its mode flag (gm_loop_flips_flag): twice */
  int trips;               /* the iterations known when compiled (at most INT_MAX), or -1 */
} gm_node;

enum gm_var_kind {
  GM_VAR_LOCAL,  /* automatic local: owns what it points to */
  GM_VAR_PARAM,  /* by-value parameter */
  GM_VAR_GLOBAL, /* global, static or extern: storing into it is an escape */
  GM_VAR_REF     /* reference (local or parameter): storing into it is an escape */
};

/* Where a variable lives on the GPU: __device__ (and __managed__), __constant__, __shared__. */
enum gm_var_space { GM_SPACE_HOST, GM_SPACE_DEVICE, GM_SPACE_CONSTANT, GM_SPACE_SHARED };

typedef struct gm_var {
  const char *name;
  enum gm_var_kind kind;
  int param_index; /* for parameters, else -1 */
  unsigned hash;   /* clang_hashCursor of the declaration, for lookup while building */
  unsigned is_pointer : 1;
  unsigned is_pointer_to_pointer : 1;
  unsigned is_handle : 1;  /* a pointer, or an integer handle such as CUdeviceptr */
  unsigned is_array : 1;   /* an array object (not a parameter, whose array type is a pointer) */
  unsigned reads_only : 1; /* a pointer to const data that is no pointer (`const T *`) */
  unsigned space : 2;      /* enum gm_var_space */
  /* GM_VAR_GLOBAL: the variable's USR, which names it across the program's files, and whether
   * it is seen by this file alone (`static`, an anonymous namespace, a function's static) */
  const char *usr;
  unsigned internal : 1;
  unsigned defined_here : 1; /* the file defines it (not only an `extern` declaration) */
  /* GM_VAR_LOCAL: an object of a class with a user-written destructor, which runs where its
   * scope ends (GM_N_CALL.implicit_dtor): the destructor's USR; NULL otherwise */
  const char *dtor_usr;
} gm_var;

typedef struct gm_func {
  const char *name;
  const char *usr;
  gm_loc loc;
  gm_loc end_loc; /* the closing brace */
  gm_node *body;
  gm_var *vars;
  int nvars;
  int nparams;
  int nnodes;
  unsigned is_kernel : 1;
  unsigned is_device : 1; /* __device__ only: runs on the GPU, not host code */
  unsigned in_main_file : 1;
  /* a definition the linker takes once a program: external linkage, not inline, in the main
   * file (two files defining one such function, main or another, are two programs) */
  unsigned links_once : 1;
  unsigned is_constructor : 1; /* its object's members hold nothing on entry */
  const gm_thresholds *limits; /* the .gmemlint's thresholds in force for its file */
} gm_func;

/* One call of a function, found in the body of funcs[func] (gm_tu_index_calls). */
typedef struct gm_call_site {
  const char *callee_usr;
  int func;
  const gm_node *call;
} gm_call_site;

/* A file the parse read through an #include: where the main file's own #include that brought it in
 * (directly or through other headers) stands, for the note that names the includer of a header
 * function's finding. */
typedef struct gm_include_site {
  const char *file;
  gm_loc at;
} gm_include_site;

typedef struct gm_tu {
  const char *path;
  gm_arena *arena;
  gm_func **funcs;
  int nfuncs;
  /* Every call with a known callee, by callee, then by caller index, then in gm_walk order: who
   * calls a function is looked up, not searched for in every body (generated files hold
   * thousands of functions). */
  gm_call_site *calls;
  size_t ncalls;
  gm_include_site *include_sites;
  size_t ninclude_sites;
} gm_tu;

/* Where the main file includes `file` (NULL: it does not, or it is the main file). */
const gm_loc *gm_tu_included_at(const gm_tu *tu, const char *file);

/* Builds tu->calls once the file's functions are all built. */
void gm_tu_index_calls(gm_tu *tu);
/* The calls of `usr` in the file, in the order of tu->calls; *n is their count. */
const gm_call_site *gm_calls_to(const gm_tu *tu, const char *usr, size_t *n);

/* Kids helpers */
static inline gm_node *gm_kid(const gm_node *n, int i) {
  return n && i < n->nkids ? n->kids[i] : NULL;
}

const char *gm_node_kind_name(enum gm_node_kind k);

/* Derived facts every rule may read, computed once after the front end built a function: parent
 * links, and for each loop what it modifies and whether it provably runs at most once. */
void gm_model_finish(gm_func *fn, gm_arena *arena);

/* Loops of at most the few-trips threshold's iterations (8 by default), known when compiled
 * (`for (f = 0; f < 3; ++f)`, a walk over an enumeration's values), repeat what they hold a
 * handful of times: like straight-line code, not per step. */

/* Whether a loop repeats its body per step: it may run more than once, and more than a handful
 * of times known when compiled. */
int gm_loop_repeats(const gm_node *loop);

/* The innermost loop around n (within its function) that repeats (gm_loop_repeats), or NULL. */
gm_node *gm_enclosing_loop(const gm_node *n);
/* The innermost loop around n that may run more than once but no more than the few-trips
 * threshold, or NULL: what --explain names when no repeating loop holds n. */
const gm_node *gm_few_trips_loop(const gm_node *n);
/* Whether expression e reads only what `loop` leaves unchanged (and calls nothing); a local
 * declared once in the loop and never written there counts as its initialiser. */
int gm_loop_invariant(const gm_func *fn, const gm_node *loop, const gm_node *e);
/* e with single-operand wrappers (casts, parentheses) seen through. */
const gm_node *gm_strip(const gm_node *e);
/* Whether variable var appears anywhere in expression e. */
int gm_mentions_var(const gm_node *e, int var);
/* The variable an lvalue-ish expression is rooted at (`p`, `p[i]`, `*p`, `&p`, `s.p`), or -1. */
int gm_root_var(const gm_node *e);
/* Calls visit(n, ctx) for every node under n, parents first. */
void gm_walk(const gm_node *n, void (*visit)(const gm_node *, void *), void *ctx);
/* Calls that use their pointer arguments and keep none: a borrower in the table, or a free
 * function declared in a system header (the toolkit, libc, libstdc++) that the table does not
 * list as anything else. Member functions of system classes (push_back, reset) may keep what
 * they get, so they are not borrowers. */
int gm_call_borrows(const gm_node *call);

/* cudaSuccess, CUDA_SUCCESS, CUBLAS_STATUS_SUCCESS, ncclSuccess: a status that says it worked. */
int gm_is_success_status(const gm_node *n);

/* x op y for a GM_N_ARITH operator ('+', '-', '*', '/', '%', 'l', 'r', '&', '|', '^'); 0 where C
 * leaves it undefined (division by zero, LLONG_MIN / -1, shifting a negative value or by too
 * much) or long long cannot hold it, and for any other operator. */
int gm_arith_apply(int op, long long x, long long y, long long *r);

/* Whether a call may change the status cudaGetLastError() reports: another runtime or driver
 * call, a kernel launch, or code the analysis does not see into. */
int gm_may_set_runtime_status(const gm_node *call);
/* A call's argument with conversions seen through, or NULL. */
const gm_node *gm_arg(const gm_node *call, int i);
void gm_model_dump(const gm_func *fn, FILE *out);
/* Orders pointers to nodes by address (qsort, bsearch over `const gm_node *` arrays). */
int gm_node_ptr_cmp(const void *a, const void *b);
/* A set of nodes, sorted by address (gm_node_ptr_cmp). */
typedef struct gm_node_set {
  const gm_node **items;
  size_t len;
} gm_node_set;

#endif
