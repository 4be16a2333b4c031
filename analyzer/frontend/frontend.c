#include "frontend/frontend.h"

#include "frontend/nvcc_compat.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef GM_VEC(CXCursor) cursor_vec;
typedef GM_VEC(gm_var) var_vec;

typedef struct builder {
  gm_arena *arena;
  const gm_table *table;
  CXTranslationUnit tu;
  gm_func *fn;
  var_vec vars;
  cursor_vec var_decls;
  int next_id;
  CXCursor func_cursor;
  GM_VEC(gm_func *) lambdas; /* lambda bodies met while building, analysed as functions */
  CXFile last_file;          /* a one-entry cache: most locations are in the same file */
  const char *last_file_name;
  int has_errors; /* clang reported errors: there may be code it could not type */
  int dependent;  /* the function is (in) a template: dependent types are no sign of error */
} builder;

static enum CXChildVisitResult collect_visitor(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  cursor_vec *v = data;
  GM_PUSH(*v, c);
  return CXChildVisit_Continue;
}

static cursor_vec children_of(CXCursor c) {
  cursor_vec v = {0};
  clang_visitChildren(c, collect_visitor, &v);
  return v;
}

static const char *arena_cxstring(builder *b, CXString s) {
  const char *c = clang_getCString(s);
  const char *r = gm_arena_strdup(b->arena, c ? c : "");
  clang_disposeString(s);
  return r;
}

/* Formats into the arena (the malloc'd temporary is released here). */
static const char *gm_xasprintf_tmp(builder *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static const char *gm_xasprintf_tmp(builder *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *tmp = NULL;
  if (vasprintf(&tmp, fmt, ap) < 0)
    tmp = NULL;
  va_end(ap);
  const char *r = gm_arena_strdup(b->arena, tmp ? tmp : "");
  free(tmp);
  return r;
}

static gm_loc loc_of_location(builder *b, CXSourceLocation l) {
  gm_loc loc = {0};
  CXFile file;
  clang_getExpansionLocation(l, &file, &loc.line, &loc.col, NULL);
  if (file) {
    if (!b->last_file || !clang_File_isEqual(file, b->last_file)) {
      b->last_file = file;
      b->last_file_name = arena_cxstring(b, clang_getFileName(file));
    }
    loc.file = b->last_file_name;
  }
  return loc;
}

static gm_loc loc_of(builder *b, CXCursor c) {
  return loc_of_location(b, clang_getCursorLocation(c));
}

static gm_node *new_node(builder *b, enum gm_node_kind kind, CXCursor c, int nkids) {
  gm_node *n = gm_arena_alloc(b->arena, sizeof *n);
  n->kind = kind;
  n->loc = loc_of(b, c);
  CXSourceRange r = clang_getCursorExtent(c);
  CXSourceLocation start = clang_getRangeStart(r);
  unsigned spell_off = 0;
  CXFile spell_file = NULL, exp_file = NULL;
  clang_getExpansionLocation(start, &exp_file, NULL, NULL, &n->offset);
  clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &n->end_offset);
  clang_getSpellingLocation(start, &spell_file, NULL, NULL, &spell_off);
  n->in_macro = spell_off != n->offset || !spell_file || !exp_file ||
                !clang_File_isEqual(spell_file, exp_file);
  n->var = -1;
  n->id = b->next_id++;
  n->nkids = nkids;
  n->kids = nkids ? gm_arena_alloc(b->arena, sizeof(gm_node *) * (size_t)nkids) : NULL;
  return n;
}

static gm_node *conv_stmt(builder *b, CXCursor c);
static gm_node *conv_expr(builder *b, CXCursor c);

static int is_function_kind(enum CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
         k == CXCursor_Destructor || k == CXCursor_FunctionTemplate ||
         k == CXCursor_ConversionFunction || k == CXCursor_LambdaExpr;
}

static int is_reference_type(CXType t) {
  return t.kind == CXType_LValueReference || t.kind == CXType_RValueReference;
}

static int var_index(builder *b, CXCursor decl) {
  unsigned h = clang_hashCursor(decl);
  for (size_t i = 0; i < b->vars.len; i++)
    if (b->vars.items[i].hash == h && clang_equalCursors(b->var_decls.items[i], decl))
      return (int)i;
  gm_var v = {0};
  v.name = arena_cxstring(b, clang_getCursorSpelling(decl));
  v.hash = h;
  v.param_index = -1;
  CXType t = clang_getCursorType(decl);
  CXType ct = clang_getCanonicalType(t);
  if (ct.kind == CXType_LValueReference || ct.kind == CXType_RValueReference)
    ct = clang_getCanonicalType(clang_getPointeeType(ct)); /* `T *&p` holds a pointer too */
  v.is_pointer = ct.kind == CXType_Pointer;
  v.is_pointer_to_pointer =
      v.is_pointer && clang_getCanonicalType(clang_getPointeeType(ct)).kind == CXType_Pointer;
  v.is_handle = v.is_pointer;
  if (!v.is_handle) {
    CXString ts = clang_getTypeSpelling(t);
    const char *tn = clang_getCString(ts);
    v.is_handle = strstr(tn, "CUdeviceptr") || strstr(tn, "CUmemGenericAllocationHandle") ||
                  strstr(tn, "CUarray") || strstr(tn, "cudaMemPool_t");
    clang_disposeString(ts);
  }
  if (clang_getCursorKind(decl) == CXCursor_ParmDecl) {
    v.kind = is_reference_type(t) ? GM_VAR_REF : GM_VAR_PARAM;
  } else if (clang_Cursor_hasVarDeclGlobalStorage(decl) == 1 ||
             !is_function_kind(clang_getCursorKind(clang_getCursorSemanticParent(decl)))) {
    v.kind = GM_VAR_GLOBAL;
  } else {
    v.kind = is_reference_type(t) ? GM_VAR_REF : GM_VAR_LOCAL;
  }
  GM_PUSH(b->vars, v);
  GM_PUSH(b->var_decls, decl);
  return (int)b->vars.len - 1;
}

/* Offsets in the file, for ordering the parts of a statement. */
static unsigned offset_of(CXSourceLocation l) {
  unsigned off = 0;
  clang_getFileLocation(l, NULL, NULL, NULL, &off);
  return off;
}

static int tokens_in(builder *b, CXSourceRange r, CXToken **toks, unsigned *n) {
  clang_tokenize(b->tu, r, toks, n);
  return *n > 0;
}

static char *token_text(builder *b, CXToken t) {
  CXString s = clang_getTokenSpelling(b->tu, t);
  char *r = gm_xstrdup(clang_getCString(s));
  clang_disposeString(s);
  return r;
}

/* `new T[n]` vs `new T`, and placement new (not an allocation): looks at the tokens. */
static const char *new_kind(builder *b, CXCursor c) {
  CXToken *toks = NULL;
  unsigned n = 0;
  const char *kind = "new";
  if (!tokens_in(b, clang_getCursorExtent(c), &toks, &n))
    return kind;
  unsigned i = 0;
  while (i < n) { /* skip `::` and find `new` */
    char *t = token_text(b, toks[i++]);
    int is_new = strcmp(t, "new") == 0;
    free(t);
    if (is_new)
      break;
  }
  int depth = 0;
  for (int first = 1; i < n; i++, first = 0) {
    char *t = token_text(b, toks[i]);
    if (first && strcmp(t, "(") == 0) {
      free(t);
      kind = NULL; /* placement new: constructs in memory the caller owns */
      break;
    }
    if (strcmp(t, "<") == 0)
      depth++;
    else if (strcmp(t, ">") == 0)
      depth--;
    else if (depth == 0 && strcmp(t, "[") == 0) {
      free(t);
      kind = "new-array";
      break;
    } else if (depth == 0 && (strcmp(t, "(") == 0 || strcmp(t, "{") == 0)) {
      free(t);
      break;
    }
    free(t);
  }
  clang_disposeTokens(b->tu, toks, n);
  return kind;
}

static const char *delete_kind(builder *b, CXCursor c) {
  CXToken *toks = NULL;
  unsigned n = 0;
  const char *kind = "delete";
  if (!tokens_in(b, clang_getCursorExtent(c), &toks, &n))
    return kind;
  for (unsigned i = 0; i + 1 < n; i++) {
    char *t = token_text(b, toks[i]);
    int is_delete = strcmp(t, "delete") == 0;
    free(t);
    if (is_delete) {
      char *next = token_text(b, toks[i + 1]);
      if (strcmp(next, "[") == 0)
        kind = "delete-array";
      free(next);
      break;
    }
  }
  clang_disposeTokens(b->tu, toks, n);
  return kind;
}

static int has_child_attr(CXCursor decl, enum CXCursorKind attr) {
  cursor_vec kids = children_of(decl);
  int found = 0;
  for (size_t i = 0; i < kids.len && !found; i++)
    found = clang_getCursorKind(kids.items[i]) == attr;
  GM_VEC_FREE(kids);
  return found;
}

static gm_node *other_node(builder *b, CXCursor c, cursor_vec *kids) {
  gm_node *n = new_node(b, GM_N_OTHER, c, (int)kids->len);
  for (size_t i = 0; i < kids->len; i++)
    n->kids[i] = conv_expr(b, kids->items[i]);
  return n;
}

/* ---- code clang could not type ----
 * After an error clang keeps going, and builds a recovery expression (RecoveryExpr) for what it
 * could not type: `p->seq` whose field has an undeclared type, a member of an incomplete struct,
 * a reference to a variable of an invalid type, a call to an undeclared function or with the
 * wrong number of arguments. libclang shows a RecoveryExpr as CXCursor_UnexposedExpr, as it shows
 * implicit casts, with the sub-expressions it kept as children (`p`; the callee and arguments),
 * so passing it through as a cast would take `p->seq` for `p`. Outside a template its type is
 * dependent (a call's may be the callee's return type), and so is the type of every call or
 * operator around it. Declarations clang could not type are invalid (clang_isInvalidDeclaration).
 * None of this happens in a file without errors, so only such a file pays for the checks.
 *
 * What clang could not type becomes an opaque node: GM_N_OTHER, no kids, `invalid`: neither
 * the pointer it was built from nor an escape of it; a variable clang could not type is one too,
 * in place of its declaration. A call clang could not resolve keeps its arguments but no table
 * row (but for noreturn and prefetch), summary or system-header mark, and is `invalid`: code we
 * cannot see, which may keep what it is given. */

static gm_node *opaque_node(builder *b, CXCursor c) {
  gm_node *n = new_node(b, GM_N_OTHER, c, 0);
  n->invalid = 1;
  return n;
}

static int is_dependent(CXCursor c) {
  return clang_getCursorType(c).kind == CXType_Dependent;
}

/* A function in a template (or a generic lambda): its dependent types are no sign of error. */
static int in_template(CXCursor c) {
  for (int depth = 0; depth < 64 && !clang_Cursor_isNull(c); depth++) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_FunctionTemplate || k == CXCursor_ClassTemplate ||
        k == CXCursor_ClassTemplatePartialSpecialization)
      return 1;
    if (k == CXCursor_TranslationUnit || clang_isInvalid(k))
      return 0;
    c = clang_getCursorSemanticParent(c);
  }
  return 0;
}

static int declared_invalid(CXCursor decl) {
  return !clang_Cursor_isNull(decl) && clang_isDeclaration(clang_getCursorKind(decl)) &&
         clang_isInvalidDeclaration(decl);
}

/* A reference or member expression naming something clang could not type. */
static int names_invalid(builder *b, CXCursor c) {
  if (!b->has_errors)
    return 0;
  if (!b->dependent && is_dependent(c))
    return 1;
  return declared_invalid(clang_getCursorReferenced(c));
}

/* A recovery expression standing for a call (an undeclared function, the wrong arguments): its
 * first child names the callee, as an unresolved name (overload type) or a member function. An
 * implicit cast has one child, and a function named as a value decays to a function pointer. */
static int is_recovery_call(CXCursor c, const cursor_vec *exprs) {
  if (!exprs->len)
    return 0;
  CXCursor callee = exprs->items[0];
  enum CXCursorKind k = clang_getCursorKind(callee);
  if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
    return 0;
  if (clang_getCursorType(callee).kind == CXType_Overload)
    return 1;
  enum CXCursorKind rk = clang_getCursorKind(clang_getCursorReferenced(callee));
  if (rk == CXCursor_CXXMethod && k == CXCursor_MemberRefExpr)
    return 1; /* a bound member function is only ever called */
  if (!is_function_kind(rk))
    return 0;
  if (exprs->len > 1)
    return 1;
  CXType t = clang_getCanonicalType(clang_getCursorType(c));
  if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference)
    t = clang_getCanonicalType(clang_getPointeeType(t));
  return t.kind != CXType_FunctionProto && t.kind != CXType_FunctionNoProto;
}

/* A recovery expression (CXCursor_UnexposedExpr) outside a template: dependent or untyped, and
 * not an implicit node (ExprWithCleanups, a temporary) around a dependent call or operator,
 * which is converted as itself. What it kept is dropped with it, calls included: a call whose
 * value goes into code clang could not type (`err = cudaMalloc(...)`, err undeclared) has a
 * status nobody can follow. */
static int is_recovery_value(builder *b, CXCursor c, const cursor_vec *exprs) {
  if (b->dependent)
    return 0;
  enum CXTypeKind tk = clang_getCursorType(c).kind;
  if (tk != CXType_Dependent && tk != CXType_Invalid)
    return 0;
  return !(exprs->len == 1 && is_dependent(exprs->items[0]));
}

/* The spelling of the first named cursor under c (depth-first), for unresolved callees. */
static enum CXChildVisitResult first_name_visitor(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  CXString *out = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_OverloadedDeclRef || k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr ||
      k == CXCursor_TemplateRef) {
    CXString s = clang_getCursorSpelling(c);
    if (clang_getCString(s) && *clang_getCString(s)) {
      *out = s;
      return CXChildVisit_Break;
    }
    clang_disposeString(s);
  }
  return CXChildVisit_Recurse;
}

static const char *callee_name(builder *b, CXCursor c, cursor_vec *kids) {
  CXString s = clang_getCursorSpelling(c);
  const char *name = clang_getCString(s);
  const char *r = "";
  if (name && *name) {
    r = gm_arena_strdup(b->arena, name);
  } else if (kids->len) {
    /* dependent call in a template: the callee is an unresolved reference */
    CXString found = {0};
    first_name_visitor(kids->items[0], c, &found);
    if (!found.data)
      clang_visitChildren(kids->items[0], first_name_visitor, &found);
    if (found.data) {
      r = gm_arena_strdup(b->arena, clang_getCString(found) ? clang_getCString(found) : "");
      clang_disposeString(found);
    }
  }
  clang_disposeString(s);
  return r;
}

/* A call clang could not resolve: an argument it could not type, a callee declared with a type
 * it could not type, an undeclared callee, the wrong arguments (CUDA 13's cudaMemAdvise called
 * with an int device). Its name's row is kept only where it can end or spare a finding, never
 * ground one: noreturn (`exit(p->code)` still ends the path) and prefetch (advice given with
 * the old signature is advice). With no row, summary or system-header mark it is an unknown
 * callee, which may keep what it is given. */
static gm_node *unresolved_call(builder *b, gm_node *n) {
  const gm_fn *row = n->name ? gm_table_lookup(b->table, n->name) : NULL;
  n->fn = row && (row->kind == GM_FN_NORETURN || row->kind == GM_FN_PREFETCH) ? row : NULL;
  n->noreturn = n->fn && n->fn->kind == GM_FN_NORETURN;
  n->is_launch = 0;
  n->invalid = 1;
  n->arg_writes = ~0u;
  return n;
}

/* A recovery expression for a call: children are the callee, then the arguments. */
static gm_node *conv_recovery_call(builder *b, CXCursor c, cursor_vec *exprs) {
  gm_node *n = new_node(b, GM_N_CALL, c, (int)exprs->len - 1);
  n->name = callee_name(b, c, exprs);
  for (size_t i = 1; i < exprs->len; i++)
    n->kids[i - 1] = conv_expr(b, exprs->items[i]);
  return unresolved_call(b, n);
}

/* Which arguments the callee may write through: those bound to a pointer or reference to
 * non-const. Variadic arguments (printf's) and by-value ones cannot be written. */
static unsigned writable_args(CXType fn_type, int nargs) {
  int nparams = clang_getNumArgTypes(fn_type);
  if (nparams < 0)
    return ~0u;
  unsigned mask = 0;
  for (int i = 0; i < nargs && i < nparams && i < 32; i++) {
    CXType t = clang_getCanonicalType(clang_getArgType(fn_type, (unsigned)i));
    if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference ||
        t.kind == CXType_RValueReference) {
      if (!clang_isConstQualifiedType(clang_getPointeeType(t)))
        mask |= 1u << i;
    } else if (t.kind != CXType_Void && t.kind >= CXType_FirstBuiltin &&
               t.kind <= CXType_LastBuiltin) {
      continue;
    } else if (t.kind == CXType_Enum || t.kind == CXType_Record) {
      continue;
    } else {
      mask |= 1u << i; /* something we do not read (a dependent type): assume it may */
    }
  }
  if (nargs > 32)
    mask |= ~0u << 31;
  return mask;
}

static gm_node *conv_call(builder *b, CXCursor c, cursor_vec *kids) {
  const char *name = callee_name(b, c, kids);
  int launch = 0;
  for (size_t i = 0; i < kids->len && i < 2; i++) {
    CXCursor k = kids->items[i];
    if (clang_getCursorKind(k) == CXCursor_CallExpr) {
      CXString ks = clang_getCursorSpelling(k);
      launch = strcmp(clang_getCString(ks), "__cudaPushCallConfiguration") == 0;
      clang_disposeString(ks);
      if (launch)
        break;
    }
  }
  int nargs = clang_Cursor_getNumArguments(c);
  cursor_vec args = {0};
  if (nargs >= 0) {
    for (int i = 0; i < nargs; i++)
      GM_PUSH(args, clang_Cursor_getArgument(c, (unsigned)i));
  } else {
    for (size_t i = 1; i < kids->len; i++)
      GM_PUSH(args, kids->items[i]);
  }
  gm_node *n = new_node(b, GM_N_CALL, c, (int)args.len);
  n->name = name;
  n->is_launch = launch;
  for (size_t i = 0; i < args.len; i++)
    n->kids[i] = conv_expr(b, args.items[i]);
  GM_VEC_FREE(args);

  CXCursor ref = clang_getCursorReferenced(c);
  if (b->has_errors && ((!b->dependent && is_dependent(c)) || declared_invalid(ref)))
    return unresolved_call(b, n);
  enum CXCursorKind rk = clang_getCursorKind(ref);
  int is_member = rk == CXCursor_CXXMethod || rk == CXCursor_Constructor ||
                  rk == CXCursor_Destructor || rk == CXCursor_ConversionFunction;
  n->is_method = is_member && !clang_CXXMethod_isStatic(ref);
  if (!launch && !is_member)
    n->fn = gm_table_lookup(b->table, name);
  if (n->fn && n->fn->kind == GM_FN_NORETURN)
    n->noreturn = 1;
  n->arg_writes = ~0u;
  if (!clang_Cursor_isNull(ref) && is_function_kind(rk)) {
    n->in_system = clang_Location_isInSystemHeader(clang_getCursorLocation(ref)) != 0;
    n->arg_writes = writable_args(clang_getCursorType(ref), (int)args.len);
    n->returns_bool = clang_getResultType(clang_getCursorType(ref)).kind == CXType_Bool;
    CXString ts = clang_getTypeSpelling(clang_getCursorType(ref));
    if (strstr(clang_getCString(ts), "noreturn"))
      n->noreturn = 1;
    clang_disposeString(ts);
    if (!n->in_system) {
      /* a call to a template specialisation resolves to the template we modelled */
      CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
      CXCursor target = clang_Cursor_isNull(tmpl) ? ref : tmpl;
      n->callee_usr = arena_cxstring(b, clang_getCursorUSR(clang_getCanonicalCursor(target)));
    }
    n->is_kernel_callee = has_child_attr(ref, CXCursor_CUDAGlobalAttr);
  }
  return n;
}

static int evaluate_int(CXCursor c, long long *value) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r)
    return 0;
  int ok = clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok)
    *value = clang_EvalResult_getAsLongLong(r);
  clang_EvalResult_dispose(r);
  return ok;
}

/* Folds + - * / << of two constants, so `64 * sizeof(float)` has a value. */
static void fold_constant(gm_node *n) {
  long long x = n->kids[0]->value, y = n->kids[1]->value;
  switch (n->op) {
  case '+':
    n->value = x + y;
    break;
  case '-':
    n->value = x - y;
    break;
  case '*':
    n->value = x * y;
    break;
  case '/':
    if (y == 0)
      return;
    n->value = x / y;
    break;
  case 'l':
    if (y < 0 || y > 62)
      return;
    n->value = x << y;
    break;
  default:
    return;
  }
  n->has_value = 1;
}

static int literal_is_zero(CXCursor c) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r)
    return 0;
  int zero = clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 0;
  clang_EvalResult_dispose(r);
  return zero;
}

/* Captured locals of a lambda: every reference inside its body to a variable of this function. */
struct capture_ctx {
  builder *b;
  GM_VEC(gm_node *) refs;
};

static enum CXChildVisitResult capture_visitor(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  struct capture_ctx *ctx = data;
  if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
    CXCursor ref = clang_getCursorReferenced(c);
    enum CXCursorKind rk = clang_getCursorKind(ref);
    if ((rk == CXCursor_VarDecl || rk == CXCursor_ParmDecl) &&
        clang_equalCursors(clang_getCursorSemanticParent(ref), ctx->b->func_cursor)) {
      gm_node *v = new_node(ctx->b, GM_N_VAR, c, 0);
      v->var = var_index(ctx->b, ref);
      GM_PUSH(ctx->refs, v);
    }
  }
  return CXChildVisit_Recurse;
}

static gm_func *build_function(builder *b, CXCursor c);

/* A lambda's body is a function of its own; the enclosing function's state is set aside. */
static gm_func *build_lambda_body(builder *b, CXCursor c) {
  gm_func *outer = b->fn;
  CXCursor outer_cursor = b->func_cursor;
  int outer_next_id = b->next_id;
  int outer_dependent = b->dependent;
  var_vec outer_vars = b->vars;
  cursor_vec outer_decls = b->var_decls;
  memset(&b->vars, 0, sizeof b->vars);
  memset(&b->var_decls, 0, sizeof b->var_decls);
  gm_func *fn = build_function(b, c);
  if (fn) {
    fn->name = gm_xasprintf_tmp(b, "lambda in %s", outer ? outer->name : "?");
    fn->usr = gm_xasprintf_tmp(b, "lambda@%s:%u:%u", fn->loc.file ? fn->loc.file : "", fn->loc.line,
                               fn->loc.col);
    GM_PUSH(b->lambdas, fn);
  }
  GM_VEC_FREE(b->vars);
  GM_VEC_FREE(b->var_decls);
  b->vars = outer_vars;
  b->var_decls = outer_decls;
  b->fn = outer;
  b->func_cursor = outer_cursor;
  b->next_id = outer_next_id;
  b->dependent = outer_dependent;
  return fn;
}

static gm_node *conv_lambda(builder *b, CXCursor c) {
  struct capture_ctx ctx = {b, {0}};
  clang_visitChildren(c, capture_visitor, &ctx);
  gm_func *body = build_lambda_body(b, c);
  gm_node *n = new_node(b, GM_N_LAMBDA, c, (int)ctx.refs.len);
  for (size_t i = 0; i < ctx.refs.len; i++)
    n->kids[i] = ctx.refs.items[i];
  n->callee_usr = body ? body->usr : NULL; /* the lambda's body, modelled as a function */
  GM_VEC_FREE(ctx.refs);
  return n;
}

static gm_node *conv_expr(builder *b, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  cursor_vec kids = children_of(c);
  gm_node *n = NULL;
  switch (k) {
  case CXCursor_UnexposedExpr:
  case CXCursor_ParenExpr:
  case CXCursor_CStyleCastExpr:
  case CXCursor_CXXStaticCastExpr:
  case CXCursor_CXXReinterpretCastExpr:
  case CXCursor_CXXConstCastExpr:
  case CXCursor_CXXFunctionalCastExpr:
  case CXCursor_CXXDynamicCastExpr:
  case CXCursor_CXXAddrspaceCastExpr: {
    /* conversions: the value passes through; type references among the kids are skipped */
    cursor_vec exprs = {0};
    for (size_t i = 0; i < kids.len; i++)
      if (clang_isExpression(clang_getCursorKind(kids.items[i])))
        GM_PUSH(exprs, kids.items[i]);
    if (b->has_errors && k == CXCursor_UnexposedExpr && is_recovery_call(c, &exprs))
      n = conv_recovery_call(b, c, &exprs);
    else if (b->has_errors && k == CXCursor_UnexposedExpr && is_recovery_value(b, c, &exprs))
      n = opaque_node(b, c);
    else if (exprs.len == 1)
      n = conv_expr(b, exprs.items[0]);
    else if (exprs.len == 0 && k == CXCursor_CStyleCastExpr && literal_is_zero(c))
      n = new_node(b, GM_N_NULL, c, 0);
    else
      n = other_node(b, c, &exprs);
    GM_VEC_FREE(exprs);
    break;
  }
  case CXCursor_DeclRefExpr: {
    CXCursor ref = clang_getCursorReferenced(c);
    enum CXCursorKind rk = clang_getCursorKind(ref);
    if (names_invalid(b, c))
      n = opaque_node(b, c);
    else if (rk == CXCursor_VarDecl || rk == CXCursor_ParmDecl) {
      n = new_node(b, GM_N_VAR, c, 0);
      n->var = var_index(b, ref);
      n->name = b->vars.items[n->var].name;
      if (clang_isConstQualifiedType(clang_getCursorType(ref)))
        n->has_value = evaluate_int(c, &n->value);
    } else if (rk == CXCursor_EnumConstantDecl) {
      n = new_node(b, clang_getEnumConstantDeclValue(ref) == 0 ? GM_N_NULL : GM_N_CONST, c, 0);
      n->name = arena_cxstring(b, clang_getCursorSpelling(ref));
      n->has_value = 1;
      n->value = clang_getEnumConstantDeclValue(ref);
    } else if (rk == CXCursor_NonTypeTemplateParameter) {
      n = new_node(b, GM_N_CONST, c, 0); /* a compile-time constant such as BLOCK */
    } else if (is_function_kind(rk)) {
      /* a function named as a value: a kernel handed to cudaLaunchKernel, say */
      n = new_node(b, GM_N_OTHER, c, 0);
      n->name = arena_cxstring(b, clang_getCursorSpelling(ref));
      CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
      CXCursor target = clang_Cursor_isNull(tmpl) ? ref : tmpl;
      if (!clang_Location_isInSystemHeader(clang_getCursorLocation(ref)))
        n->callee_usr = arena_cxstring(b, clang_getCursorUSR(clang_getCanonicalCursor(target)));
    } else {
      n = new_node(b, GM_N_OTHER, c, 0);
    }
    break;
  }
  case CXCursor_IntegerLiteral:
  case CXCursor_CXXBoolLiteralExpr:
    n = new_node(b, literal_is_zero(c) ? GM_N_NULL : GM_N_CONST, c, 0);
    n->has_value = evaluate_int(c, &n->value);
    break;
  case CXCursor_CXXNullPtrLiteralExpr:
  case CXCursor_GNUNullExpr:
    n = new_node(b, GM_N_NULL, c, 0);
    break;
  case CXCursor_UnaryExpr: /* sizeof, alignof: operands are not evaluated */
  case CXCursor_CharacterLiteral:
    n = new_node(b, GM_N_CONST, c, 0);
    n->has_value = evaluate_int(c, &n->value);
    break;
  case CXCursor_FloatingLiteral:
  case CXCursor_StringLiteral:
  case CXCursor_CXXThisExpr:
    n = new_node(b, GM_N_CONST, c, 0);
    break;
  case CXCursor_CallExpr:
    n = conv_call(b, c, &kids);
    break;
  case CXCursor_CXXNewExpr: {
    const char *kind = new_kind(b, c);
    n = other_node(b, c, &kids);
    if (kind) {
      /* size and initialiser are evaluated, but are not arguments of the allocation */
      gm_node *call = new_node(b, GM_N_CALL, c, 0);
      call->name = kind;
      call->fn = gm_table_lookup(b->table, kind);
      n->kind = GM_N_COMMA;
      gm_node **kids2 = gm_arena_alloc(b->arena, sizeof(gm_node *) * (size_t)(n->nkids + 1));
      if (n->nkids)
        memcpy(kids2, n->kids, sizeof(gm_node *) * (size_t)n->nkids);
      kids2[n->nkids++] = call;
      n->kids = kids2;
    }
    break;
  }
  case CXCursor_CXXDeleteExpr: {
    n = new_node(b, GM_N_CALL, c, kids.len ? 1 : 0);
    n->name = delete_kind(b, c);
    n->fn = gm_table_lookup(b->table, n->name);
    if (kids.len)
      n->kids[0] = conv_expr(b, kids.items[kids.len - 1]);
    break;
  }
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator: {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
    enum gm_node_kind nk = GM_N_OTHER;
    int nop = 0;
    if (k == CXCursor_CompoundAssignOperator ||
        (op >= CXBinaryOperator_MulAssign && op <= CXBinaryOperator_OrAssign))
      nk = GM_N_ASSIGN, nop = 1;
    else if (op == CXBinaryOperator_Assign)
      nk = GM_N_ASSIGN;
    else if (op == CXBinaryOperator_LAnd)
      nk = GM_N_LAND;
    else if (op == CXBinaryOperator_LOr)
      nk = GM_N_LOR;
    else if (op == CXBinaryOperator_EQ)
      nk = GM_N_CMP, nop = '=';
    else if (op == CXBinaryOperator_NE)
      nk = GM_N_CMP, nop = '!';
    else if (op >= CXBinaryOperator_Cmp && op <= CXBinaryOperator_GE)
      nk = GM_N_CMP, nop = '<';
    else if (op == CXBinaryOperator_Add)
      nk = GM_N_ARITH, nop = '+';
    else if (op == CXBinaryOperator_Sub)
      nk = GM_N_ARITH, nop = '-';
    else if (op == CXBinaryOperator_Comma)
      nk = GM_N_COMMA;
    else if (op == CXBinaryOperator_Mul)
      nk = GM_N_ARITH, nop = '*';
    else if (op == CXBinaryOperator_Div)
      nk = GM_N_ARITH, nop = '/';
    else if (op == CXBinaryOperator_Shl)
      nk = GM_N_ARITH, nop = 'l';
    else
      nk = GM_N_ARITH;
    n = other_node(b, c, &kids);
    n->kind = nk;
    n->op = nop;
    if ((nk == GM_N_ASSIGN && nop) || nk == GM_N_CMP) /* which operator: "+=", "<=", ... */
      n->name = arena_cxstring(b, clang_getBinaryOperatorKindSpelling(op));
    if ((nk == GM_N_ASSIGN || nk == GM_N_LAND || nk == GM_N_LOR || nk == GM_N_CMP) && n->nkids != 2)
      n->kind = GM_N_OTHER;
    if (nk == GM_N_ARITH && n->nkids == 2 && n->kids[0]->has_value && n->kids[1]->has_value)
      fold_constant(n);
    break;
  }
  case CXCursor_UnaryOperator: {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    n = other_node(b, c, &kids);
    if (n->nkids == 1) {
      if (op == CXUnaryOperator_AddrOf)
        n->kind = GM_N_ADDR;
      else if (op == CXUnaryOperator_Deref)
        n->kind = GM_N_DEREF;
      else if (op == CXUnaryOperator_LNot)
        n->kind = GM_N_NOT;
      else if (op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec)
        n->kind = GM_N_INCDEC;
      else if (op == CXUnaryOperator_Extension || op == CXUnaryOperator_Plus) {
        n = n->kids[0];
      }
    }
    break;
  }
  case CXCursor_MemberRefExpr: {
    if (names_invalid(b, c)) { /* a member of an incomplete or invalid struct */
      n = opaque_node(b, c);
      break;
    }
    cursor_vec exprs = {0};
    for (size_t i = 0; i < kids.len; i++)
      if (clang_isExpression(clang_getCursorKind(kids.items[i])))
        GM_PUSH(exprs, kids.items[i]);
    n = new_node(b, GM_N_FIELD, c, exprs.len ? 1 : 0);
    n->name = arena_cxstring(b, clang_getCursorSpelling(c));
    if (exprs.len)
      n->kids[0] = conv_expr(b, exprs.items[0]);
    GM_VEC_FREE(exprs);
    break;
  }
  case CXCursor_ArraySubscriptExpr:
    n = other_node(b, c, &kids);
    if (n->nkids == 2)
      n->kind = GM_N_INDEX;
    break;
  case CXCursor_ConditionalOperator:
    n = other_node(b, c, &kids);
    if (n->nkids == 3)
      n->kind = GM_N_COND;
    break;
  case CXCursor_LambdaExpr:
    n = conv_lambda(b, c);
    break;
  case CXCursor_InitListExpr:
    n = other_node(b, c, &kids);
    n->kind = GM_N_AGGREGATE;
    break;
  case CXCursor_CXXThrowExpr:
    n = other_node(b, c, &kids);
    n->kind = GM_N_THROW;
    break;
  case CXCursor_StmtExpr:
    n = kids.len ? conv_stmt(b, kids.items[0]) : new_node(b, GM_N_NOP, c, 0);
    break;
  default: {
    cursor_vec exprs = {0};
    for (size_t i = 0; i < kids.len; i++)
      if (clang_isExpression(clang_getCursorKind(kids.items[i])) ||
          clang_isStatement(clang_getCursorKind(kids.items[i])))
        GM_PUSH(exprs, kids.items[i]);
    n = other_node(b, c, &exprs);
    GM_VEC_FREE(exprs);
    break;
  }
  }
  GM_VEC_FREE(kids);
  return n;
}

static gm_node *conv_decl(builder *b, CXCursor var) {
  /* a variable clang could not type (`gpuError_t err = cudaMalloc(...)` without the header that
     declares gpuError_t) is opaque, initialiser and all: an allocation whose status goes where we
     cannot follow cannot be judged (clang mostly wraps such an initialiser in a recovery
     expression anyway) */
  if (b->has_errors && clang_isInvalidDeclaration(var))
    return opaque_node(b, var);
  gm_node *n = new_node(b, GM_N_DECL, var, 1);
  n->var = var_index(b, var);
  n->name = b->vars.items[n->var].name;
  cursor_vec kids = children_of(var);
  n->kids[0] = NULL;
  for (size_t i = kids.len; i-- > 0;)
    if (clang_isExpression(clang_getCursorKind(kids.items[i]))) {
      n->kids[0] = conv_expr(b, kids.items[i]);
      break;
    }
  if (!n->kids[0])
    n->nkids = 0;
  GM_VEC_FREE(kids);
  return n;
}

static gm_node *comma2(builder *b, CXCursor c, gm_node *first, gm_node *second) {
  if (!first)
    return second;
  gm_node *n = new_node(b, GM_N_COMMA, c, 2);
  n->kids[0] = first;
  n->kids[1] = second;
  return n;
}

/* A condition with an optional declaration in front (`if (T *p = f())`, `while (T x = g())`). */
static gm_node *conv_cond_part(builder *b, CXCursor c) {
  if (clang_getCursorKind(c) == CXCursor_VarDecl)
    return conv_decl(b, c);
  if (clang_getCursorKind(c) == CXCursor_DeclStmt)
    return conv_stmt(b, c);
  return conv_expr(b, c);
}

static gm_node *conv_seq(builder *b, CXCursor c, cursor_vec *kids, size_t from) {
  gm_node *n = new_node(b, GM_N_SEQ, c, (int)(kids->len - from));
  for (size_t i = from; i < kids->len; i++)
    n->kids[i - from] = conv_stmt(b, kids->items[i]);
  return n;
}

/* A for statement's children omit absent parts; place each by where it starts relative to the
 * header's two semicolons. */
static void for_parts(builder *b, CXCursor c, cursor_vec *kids, CXCursor parts[3], int present[3]) {
  present[0] = present[1] = present[2] = 0;
  size_t nparts = kids->len - 1;
  if (nparts == 3) {
    for (int i = 0; i < 3; i++)
      parts[i] = kids->items[i], present[i] = 1;
    return;
  }
  if (nparts == 0)
    return;
  CXSourceLocation start = clang_getRangeStart(clang_getCursorExtent(c));
  CXSourceLocation body = clang_getRangeStart(clang_getCursorExtent(kids->items[kids->len - 1]));
  CXToken *toks = NULL;
  unsigned ntoks = 0;
  unsigned semis[2] = {0, 0};
  int nsemis = 0;
  unsigned spell_off = 0, exp_off = 0;
  clang_getSpellingLocation(start, NULL, NULL, NULL, &spell_off);
  clang_getExpansionLocation(start, NULL, NULL, NULL, &exp_off);
  if (spell_off == exp_off) /* not inside a macro expansion */
    clang_tokenize(b->tu, clang_getRange(start, body), &toks, &ntoks);
  int depth = 0;
  for (unsigned i = 0; i < ntoks && nsemis < 2; i++) {
    if (clang_getTokenKind(toks[i]) != CXToken_Punctuation)
      continue;
    CXString s = clang_getTokenSpelling(b->tu, toks[i]);
    const char *t = clang_getCString(s);
    if (strcmp(t, "(") == 0)
      depth++;
    else if (strcmp(t, ")") == 0)
      depth--;
    else if (strcmp(t, ";") == 0 && depth == 1)
      semis[nsemis++] = offset_of(clang_getTokenLocation(b->tu, toks[i]));
    clang_disposeString(s);
  }
  if (ntoks)
    clang_disposeTokens(b->tu, toks, ntoks);
  if (nsemis == 2) {
    for (size_t i = 0; i < nparts; i++) {
      unsigned off = offset_of(clang_getRangeStart(clang_getCursorExtent(kids->items[i])));
      int slot = off < semis[0] ? 0 : off < semis[1] ? 1 : 2;
      parts[slot] = kids->items[i];
      present[slot] = 1;
    }
    return;
  }
  /* Inside a macro the tokens are not at hand: a declaration is the init, then cond, then inc. */
  size_t i = 0;
  if (clang_getCursorKind(kids->items[0]) == CXCursor_DeclStmt)
    parts[0] = kids->items[i++], present[0] = 1;
  for (int slot = 1; i < nparts && slot < 3; slot++, i++)
    parts[slot] = kids->items[i], present[slot] = 1;
}

static gm_node *conv_stmt(builder *b, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  cursor_vec kids = children_of(c);
  gm_node *n = NULL;
  switch (k) {
  case CXCursor_CompoundStmt:
    n = conv_seq(b, c, &kids, 0);
    break;
  case CXCursor_DeclStmt: {
    cursor_vec vars = {0};
    for (size_t i = 0; i < kids.len; i++)
      if (clang_getCursorKind(kids.items[i]) == CXCursor_VarDecl)
        GM_PUSH(vars, kids.items[i]);
    n = new_node(b, GM_N_SEQ, c, (int)vars.len);
    for (size_t i = 0; i < vars.len; i++)
      n->kids[i] = conv_decl(b, vars.items[i]);
    GM_VEC_FREE(vars);
    break;
  }
  case CXCursor_IfStmt: {
    size_t i = 0;
    gm_node *pre = NULL;
    if (kids.len >= 3 &&
        (clang_getCursorKind(kids.items[0]) == CXCursor_DeclStmt ||
         (kids.len >= 4 && clang_getCursorKind(kids.items[1]) == CXCursor_VarDecl)))
      pre = conv_stmt(b, kids.items[i++]);
    if (i < kids.len && clang_getCursorKind(kids.items[i]) == CXCursor_VarDecl)
      pre = comma2(b, c, pre, conv_decl(b, kids.items[i++]));
    n = new_node(b, GM_N_IF, c, 3);
    n->kids[0] = i < kids.len ? comma2(b, c, pre, conv_expr(b, kids.items[i++])) : pre;
    n->kids[1] = i < kids.len ? conv_stmt(b, kids.items[i++]) : NULL;
    n->kids[2] = i < kids.len ? conv_stmt(b, kids.items[i++]) : NULL;
    break;
  }
  case CXCursor_ForStmt: {
    CXCursor parts[3];
    int present[3];
    n = new_node(b, GM_N_LOOP, c, 4);
    n->op = GM_LOOP_FOR;
    if (kids.len) {
      for_parts(b, c, &kids, parts, present);
      n->kids[0] = present[0] ? conv_cond_part(b, parts[0]) : NULL;
      n->kids[1] = present[1] ? conv_cond_part(b, parts[1]) : NULL;
      n->kids[2] = present[2] ? conv_expr(b, parts[2]) : NULL;
      n->kids[3] = conv_stmt(b, kids.items[kids.len - 1]);
    }
    break;
  }
  case CXCursor_WhileStmt: {
    n = new_node(b, GM_N_LOOP, c, 4);
    n->op = GM_LOOP_WHILE;
    if (kids.len >= 2) {
      gm_node *cond = conv_expr(b, kids.items[kids.len - 2]);
      if (kids.len >= 3)
        cond = comma2(b, c, conv_cond_part(b, kids.items[kids.len - 3]), cond);
      n->kids[1] = cond;
      n->kids[3] = conv_stmt(b, kids.items[kids.len - 1]);
    }
    break;
  }
  case CXCursor_DoStmt:
    n = new_node(b, GM_N_LOOP, c, 4);
    n->op = GM_LOOP_DO;
    if (kids.len == 2) {
      n->kids[3] = conv_stmt(b, kids.items[0]);
      n->kids[1] = conv_expr(b, kids.items[1]);
    }
    break;
  case CXCursor_CXXForRangeStmt:
    n = new_node(b, GM_N_LOOP, c, 4);
    n->op = GM_LOOP_RANGE;
    if (kids.len >= 2) {
      /* the range expression is evaluated once; the loop variable is set each iteration */
      gm_node *pre = NULL;
      for (size_t i = 0; i + 1 < kids.len; i++) {
        enum CXCursorKind kk = clang_getCursorKind(kids.items[i]);
        if (kk == CXCursor_VarDecl)
          n->kids[2] = comma2(b, c, n->kids[2], conv_decl(b, kids.items[i]));
        else if (clang_isExpression(kk))
          pre = comma2(b, c, pre, conv_expr(b, kids.items[i]));
      }
      n->kids[0] = pre;
      n->kids[3] = conv_stmt(b, kids.items[kids.len - 1]);
      /* the loop variable is bound before the body: run its declaration first */
      if (n->kids[2]) {
        gm_node *body = new_node(b, GM_N_SEQ, c, 2);
        body->kids[0] = n->kids[2];
        body->kids[1] = n->kids[3];
        n->kids[3] = body;
        n->kids[2] = NULL;
      }
    }
    break;
  case CXCursor_SwitchStmt:
    n = new_node(b, GM_N_SWITCH, c, 2);
    if (kids.len >= 2) {
      gm_node *cond = conv_expr(b, kids.items[kids.len - 2]);
      for (size_t i = kids.len - 2; i-- > 0;)
        cond = comma2(b, c, conv_cond_part(b, kids.items[i]), cond);
      n->kids[0] = cond;
      n->kids[1] = conv_stmt(b, kids.items[kids.len - 1]);
    }
    break;
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
    n = new_node(b, GM_N_CASE, c, 1);
    n->op = k == CXCursor_DefaultStmt;
    if (!n->op && kids.len >= 2) /* `case K:` — its value pairs the cases of two switches */
      n->has_value = evaluate_int(kids.items[0], &n->value);
    n->kids[0] = kids.len ? conv_stmt(b, kids.items[kids.len - 1]) : NULL;
    break;
  case CXCursor_ReturnStmt:
    n = new_node(b, GM_N_RETURN, c, 1);
    n->kids[0] = kids.len ? conv_expr(b, kids.items[0]) : NULL;
    if (!n->kids[0])
      n->nkids = 0;
    break;
  case CXCursor_BreakStmt:
    n = new_node(b, GM_N_BREAK, c, 0);
    break;
  case CXCursor_ContinueStmt:
    n = new_node(b, GM_N_CONTINUE, c, 0);
    break;
  case CXCursor_GotoStmt:
    n = new_node(b, GM_N_GOTO, c, 0);
    n->name = arena_cxstring(b, clang_getCursorSpelling(clang_getCursorReferenced(c)));
    break;
  case CXCursor_LabelStmt:
    n = new_node(b, GM_N_LABEL, c, 1);
    n->name = arena_cxstring(b, clang_getCursorSpelling(c));
    n->kids[0] = kids.len ? conv_stmt(b, kids.items[kids.len - 1]) : NULL;
    break;
  case CXCursor_CXXTryStmt:
    n = new_node(b, GM_N_TRY, c, (int)kids.len);
    for (size_t i = 0; i < kids.len; i++) {
      CXCursor k = kids.items[i];
      if (clang_getCursorKind(k) == CXCursor_CXXCatchStmt) {
        cursor_vec hk = children_of(k);
        n->kids[i] = hk.len ? conv_stmt(b, hk.items[hk.len - 1]) : NULL;
        GM_VEC_FREE(hk);
      } else {
        n->kids[i] = conv_stmt(b, k);
      }
    }
    break;
  case CXCursor_NullStmt:
  case CXCursor_AsmStmt:
  case CXCursor_MSAsmStmt:
    n = new_node(b, GM_N_NOP, c, 0);
    break;
  case CXCursor_IndirectGotoStmt:
    n = new_node(b, GM_N_THROW, c, 0); /* ends the path as far as the model can tell */
    break;
  default:
    if (clang_isExpression(k))
      n = conv_expr(b, c);
    else if (clang_isDeclaration(k))
      n = new_node(b, GM_N_NOP, c, 0);
    else
      n = conv_seq(b, c, &kids, 0);
    break;
  }
  GM_VEC_FREE(kids);
  return n;
}

/* `[](auto x) {...}` and `[]<class T>(T x) {...}` are templates. */
static int generic_lambda(const cursor_vec *kids) {
  for (size_t i = 0; i < kids->len; i++)
    if (clang_getCursorKind(kids->items[i]) == CXCursor_ParmDecl) {
      enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(kids->items[i])).kind;
      if (tk == CXType_Unexposed || tk == CXType_Dependent)
        return 1;
    }
  return 0;
}

static gm_func *build_function(builder *b, CXCursor c) {
  cursor_vec kids = children_of(c);
  CXCursor body = clang_getNullCursor();
  for (size_t i = kids.len; i-- > 0;)
    if (clang_getCursorKind(kids.items[i]) == CXCursor_CompoundStmt) {
      body = kids.items[i];
      break;
    }
  if (clang_Cursor_isNull(body)) {
    GM_VEC_FREE(kids);
    return NULL;
  }
  gm_func *fn = gm_arena_alloc(b->arena, sizeof *fn);
  if (b->has_errors)
    b->dependent = clang_getCursorKind(c) == CXCursor_LambdaExpr
                       ? b->dependent || generic_lambda(&kids) /* b->dependent: the outer's */
                       : in_template(c);
  b->fn = fn;
  b->func_cursor = c;
  b->vars.len = 0;
  b->var_decls.len = 0;
  b->next_id = 0;
  fn->name = arena_cxstring(b, clang_getCursorSpelling(c));
  fn->usr = arena_cxstring(b, clang_getCursorUSR(clang_getCanonicalCursor(c)));
  fn->loc = loc_of(b, c);
  fn->end_loc = loc_of_location(b, clang_getRangeEnd(clang_getCursorExtent(body)));
  if (fn->end_loc.col > 1)
    fn->end_loc.col--; /* the range ends just past the brace */
  fn->in_main_file = clang_Location_isFromMainFile(clang_getCursorLocation(c)) != 0;
  fn->is_kernel = has_child_attr(c, CXCursor_CUDAGlobalAttr);
  fn->is_device =
      has_child_attr(c, CXCursor_CUDADeviceAttr) && !has_child_attr(c, CXCursor_CUDAHostAttr);
  int nparams = clang_Cursor_getNumArguments(c);
  if (nparams < 0) { /* templates: parameters are the ParmDecl children */
    nparams = 0;
    for (size_t i = 0; i < kids.len; i++)
      if (clang_getCursorKind(kids.items[i]) == CXCursor_ParmDecl) {
        int v = var_index(b, kids.items[i]);
        b->vars.items[v].param_index = nparams++;
      }
  } else {
    for (int i = 0; i < nparams; i++) {
      int v = var_index(b, clang_Cursor_getArgument(c, (unsigned)i));
      b->vars.items[v].param_index = i;
    }
  }
  fn->nparams = nparams;
  fn->body = conv_stmt(b, body);
  if (clang_getCursorKind(c) == CXCursor_Constructor) {
    /* member initialisers (`: p_(p)`) run first; storing into a member hands the value over */
    cursor_vec inits = {0};
    for (size_t i = 0; i < kids.len; i++)
      if (clang_isExpression(clang_getCursorKind(kids.items[i])))
        GM_PUSH(inits, kids.items[i]);
    if (inits.len) {
      gm_node *seq = new_node(b, GM_N_SEQ, c, 2);
      gm_node *agg = new_node(b, GM_N_AGGREGATE, c, (int)inits.len);
      for (size_t i = 0; i < inits.len; i++)
        agg->kids[i] = conv_expr(b, inits.items[i]);
      seq->kids[0] = agg;
      seq->kids[1] = fn->body;
      fn->body = seq;
    }
    GM_VEC_FREE(inits);
  }
  fn->nvars = (int)b->vars.len;
  fn->vars = gm_arena_alloc(b->arena, sizeof(gm_var) * (b->vars.len ? b->vars.len : 1));
  if (b->vars.len)
    memcpy(fn->vars, b->vars.items, sizeof(gm_var) * b->vars.len);
  fn->nnodes = b->next_id;
  gm_model_finish(fn, b->arena);
  GM_VEC_FREE(kids);
  return fn;
}

struct collect_ctx {
  builder *b;
  GM_VEC(gm_func *) funcs;
};

static enum CXChildVisitResult decl_visitor(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  struct collect_ctx *ctx = data;
  CXSourceLocation l = clang_getCursorLocation(c);
  if (clang_Location_isInSystemHeader(l))
    return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (is_function_kind(k) && k != CXCursor_LambdaExpr) {
    if (clang_isCursorDefinition(c)) {
      gm_func *fn = build_function(ctx->b, c);
      if (fn)
        GM_PUSH(ctx->funcs, fn);
      for (size_t i = 0; i < ctx->b->lambdas.len; i++)
        GM_PUSH(ctx->funcs, ctx->b->lambdas.items[i]);
      ctx->b->lambdas.len = 0;
    }
    return CXChildVisit_Continue;
  }
  if (k == CXCursor_Namespace || k == CXCursor_StructDecl || k == CXCursor_ClassDecl ||
      k == CXCursor_ClassTemplate || k == CXCursor_LinkageSpec || k == CXCursor_UnionDecl ||
      k == CXCursor_ClassTemplatePartialSpecialization || k == CXCursor_UnexposedDecl)
    return CXChildVisit_Recurse;
  return CXChildVisit_Continue;
}

static void on_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  (void)stack;
  (void)depth;
  gm_parse *out = data;
  CXString name = clang_getFileName(file);
  const char *s = clang_getCString(name);
  if (s && *s && !gm_nvcc_compat_is(s)) /* in memory: nothing on disk for the cache to check */
    GM_PUSH(out->includes, gm_xstrdup(s));
  clang_disposeString(name);
}

int gm_frontend_parse(CXIndex index, const char *path, const char *const *args, int nargs,
                      const gm_table *table, gm_parse *out) {
  memset(out, 0, sizeof *out);
  CXTranslationUnit tu = NULL;
  unsigned options =
      CXTranslationUnit_KeepGoing | CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles;
  struct CXUnsavedFile compat = gm_nvcc_compat_unsaved(); /* what the driver's -include names */
  enum CXErrorCode rc =
      clang_parseTranslationUnit2(index, path, args, nargs, &compat, 1, options, &tu);
  if (rc != CXError_Success || !tu)
    return -1;
  builder b = {0};
  b.arena = gm_arena_new();
  b.table = table;
  b.tu = tu;
  unsigned ndiag = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < ndiag; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    if (sev >= CXDiagnostic_Error) {
      gm_clang_diag cd = {0};
      cd.loc = loc_of_location(&b, clang_getDiagnosticLocation(d));
      CXString s = clang_getDiagnosticSpelling(d);
      cd.message = gm_xstrdup(clang_getCString(s));
      clang_disposeString(s);
      cd.is_fatal = sev == CXDiagnostic_Fatal;
      GM_PUSH(out->diags, cd);
      out->error_count++;
    }
    clang_disposeDiagnostic(d);
  }
  b.has_errors = out->error_count > 0;
  struct collect_ctx ctx = {&b, {0}};
  clang_visitChildren(clang_getTranslationUnitCursor(tu), decl_visitor, &ctx);
  gm_tu *model = gm_arena_alloc(b.arena, sizeof *model);
  model->arena = b.arena;
  model->path = gm_arena_strdup(b.arena, path);
  model->nfuncs = (int)ctx.funcs.len;
  model->funcs = gm_arena_alloc(b.arena, sizeof(gm_func *) * (ctx.funcs.len ? ctx.funcs.len : 1));
  if (ctx.funcs.len)
    memcpy(model->funcs, ctx.funcs.items, sizeof(gm_func *) * ctx.funcs.len);
  GM_VEC_FREE(ctx.funcs);
  GM_VEC_FREE(b.vars);
  GM_VEC_FREE(b.var_decls);
  GM_VEC_FREE(b.lambdas);
  clang_getInclusions(tu, on_inclusion, out);
  clang_disposeTranslationUnit(tu);
  out->tu = model;
  return 0;
}

void gm_parse_free(gm_parse *p) {
  if (p->tu)
    gm_arena_free(p->tu->arena);
  for (size_t i = 0; i < p->diags.len; i++)
    free(p->diags.items[i].message);
  GM_VEC_FREE(p->diags);
  for (size_t i = 0; i < p->includes.len; i++)
    free(p->includes.items[i]);
  GM_VEC_FREE(p->includes);
  memset(p, 0, sizeof *p);
}
