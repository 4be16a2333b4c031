/* Private to the front end (analyzer/frontend/): the builder that turns one function's libclang
 * cursors into its model, and the functions its files share. frontend.h is the public interface. */
#ifndef GM_FRONTEND_BUILD_H
#define GM_FRONTEND_BUILD_H

#include "model/families.h"
#include "model/model.h"

#include <clang-c/Index.h>

typedef GM_VEC(CXCursor) cursor_vec;
typedef GM_VEC(gm_var) var_vec;

/* A lambda met while building: its closure class, and the key calls of its operator() get. */
typedef struct {
  unsigned hash; /* clang_hashCursor of the closure class */
  CXCursor closure;
  const char *call_usr;
} fe_closure;

/* A reference inside a lambda to a variable the enclosing function declares: a capture. */
typedef struct {
  CXCursor ref;  /* the DeclRefExpr */
  CXCursor decl; /* the variable */
} fe_capture;

/* The captures of one lambda within the outermost lambda being built (function.c). */
typedef struct {
  unsigned hash; /* clang_hashCursor of the LambdaExpr */
  CXCursor lambda;
  unsigned closure_hash;
  CXCursor
      closure; /* its class: the semantic parent of its operator(), which declares its locals */
  GM_VEC(fe_capture) refs;
} fe_capture_list;

/* A local object whose destructor runs where its scope ends (objects.c). */
typedef struct {
  int var;
  const char *dtor_name;
} fe_scoped;
typedef GM_VEC(fe_scoped) fe_scoped_vec;

typedef struct builder {
  gm_arena *arena;
  const gm_table *table;
  const gm_thresholds *limits;
  CXTranslationUnit tu;
  gm_func *fn;
  var_vec vars;
  cursor_vec var_decls;
  /* vars by cursor hash (open addressing, -1 free) for fe_var_index, so that a function of
   * thousands of variables finds each in one probe; it indexes exactly vars.items[0, vars.len)
   * and is rebuilt when those change behind its back (a new function, a lambda's own vars) */
  int *var_table;
  size_t var_table_cap, var_table_len;
  const gm_var *var_table_for;
  int next_id;
  CXCursor func_cursor;
  GM_VEC(gm_func *) lambdas;        /* lambda bodies met while building, analysed as functions */
  GM_VEC(fe_closure) closures;      /* every lambda of the translation unit met so far */
  GM_VEC(fe_capture_list) captures; /* of the outermost lambda met last and those within it */
  size_t captures_next;             /* where the next lambda's captures are looked for first */
  CXFile last_file;                 /* a one-entry cache: most locations are in the same file */
  const char *last_file_name;
  int has_errors;   /* clang reported errors: there may be code it could not type */
  int dependent;    /* the function is (in) a template: dependent types are no sign of error */
  int lambda_depth; /* lambdas around the code being built, itself included if one */
  const char *lambda_host; /* the name of the function around the outermost of them */
  /* the local objects with destructors in scope where the builder is, outermost first */
  fe_scoped_vec scoped;
} builder;

/* build.c: cursors, strings, locations, nodes and variables */
cursor_vec fe_children_of(CXCursor c);                 /* free with GM_VEC_FREE */
const char *fe_arena_cxstring(builder *b, CXString s); /* copies s into the arena, disposes s */
gm_loc fe_loc_of_location(builder *b, CXSourceLocation l);
gm_loc fe_loc_of(builder *b, CXCursor c);
gm_node *fe_new_node(builder *b, enum gm_node_kind kind, CXCursor c, int nkids);
int fe_is_function_kind(enum CXCursorKind k);
int fe_var_index(builder *b, CXCursor decl); /* the function's variable for decl, added if new */
int fe_has_child_attr(CXCursor decl, enum CXCursorKind attr);
/* calls.c: a pointer to const data that is no pointer (`const T *`), read through, not freed */
int fe_reads_only_type(CXType t);

/* invalid.c: code clang could not type */
gm_node *fe_opaque_node(builder *b, CXCursor c);
int fe_is_dependent(CXCursor c);
int fe_in_template(CXCursor c);
int fe_declared_invalid(CXCursor decl);
int fe_names_invalid(builder *b, CXCursor c);
int fe_is_recovery_call(CXCursor c, const cursor_vec *exprs);
int fe_is_recovery_value(builder *b, CXCursor c, const cursor_vec *exprs);

/* calls.c */
gm_node *fe_conv_recovery_call(builder *b, CXCursor c, cursor_vec *exprs);
gm_node *fe_conv_call(builder *b, CXCursor c, cursor_vec *kids);

/* expr.c */
gm_node *fe_conv_expr(builder *b, CXCursor c);
int fe_evaluate_int(CXCursor c, long long *value); /* an integer constant expression's value */

/* objects.c: classes with user-written destructors */
/* A call argument copied member by member into a by-value parameter (an implicit or defaulted
 * copy or move constructor) of a class with a user-written destructor: its USR, else NULL. */
const char *fe_shallow_copy_dtor(builder *b, CXCursor arg);
/* A declared local: enters the scope when it is an object with a destructor. */
void fe_scope_enter_local(builder *b, CXCursor decl);
/* The destructor calls, at `at`, of the locals entered since scoped.len was `from` (latest
 * first), but for variable `keep` (a returned local, or -1); *n is their count. */
gm_node **fe_scope_destructors(builder *b, CXCursor c, size_t from, gm_loc at, int keep, int *n);

/* stmt.c */
gm_node *fe_conv_stmt(builder *b, CXCursor c);

/* function.c */
gm_func *fe_build_function(builder *b, CXCursor c); /* NULL without a body */
gm_node *fe_conv_lambda(builder *b, CXCursor c);
const char *fe_lambda_call_usr(builder *b, CXCursor method); /* NULL: not a modelled lambda's */

#endif
