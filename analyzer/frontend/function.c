/* One function's model: its parameters, body and constructor initialisers; a lambda's body is
 * modelled as a function of its own. */
#include "frontend/build.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The children already listed: visiting them again costs, per visit, the depth of the
 * declaration's nesting in libclang (deeply nested lambdas). */
static int has_kid(const cursor_vec *kids, enum CXCursorKind kind) {
  for (size_t i = 0; i < kids->len; i++)
    if (clang_getCursorKind(kids->items[i]) == kind)
      return 1;
  return 0;
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

/* A lambda is named after the function it is in and the lambdas between ("lambda in lambda in
 * main"), before its body is built, as the lambdas within it are. Deeper than a few lambdas the
 * name counts them: a name that spelled each would make N nested lambdas cost N^2 in memory. */
enum { LAMBDAS_SPELLED = 4 };
static const char *lambda_name(builder *b) {
  if (b->lambda_depth > LAMBDAS_SPELLED)
    return gm_xasprintf_tmp(b, "lambda in %d lambdas in %s", b->lambda_depth - 1, b->lambda_host);
  char spelled[sizeof "lambda in " * LAMBDAS_SPELLED] = "";
  for (int i = 0; i < b->lambda_depth; i++)
    strcat(spelled, "lambda in ");
  return gm_xasprintf_tmp(b, "%s%s", spelled, b->lambda_host);
}

gm_func *fe_build_function(builder *b, CXCursor c) {
  cursor_vec kids = fe_children_of(c);
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
                       : fe_in_template(c);
  if (clang_getCursorKind(c) == CXCursor_LambdaExpr)
    fn->name = lambda_name(b);
  else
    fn->name = fe_arena_cxstring(b, clang_getCursorSpelling(c));
  b->fn = fn;
  b->func_cursor = c;
  b->vars.len = 0;
  b->var_decls.len = 0;
  b->scoped.len = 0;
  b->next_id = 0;
  fn->limits = b->limits;
  fn->usr = fe_arena_cxstring(b, clang_getCursorUSR(clang_getCanonicalCursor(c)));
  fn->loc = fe_loc_of(b, c);
  fn->end_loc = fe_loc_of_location(b, clang_getRangeEnd(clang_getCursorExtent(body)));
  if (fn->end_loc.col > 1)
    fn->end_loc.col--; /* the range ends just past the brace */
  fn->in_main_file = clang_Location_isFromMainFile(clang_getCursorLocation(c)) != 0;
  fn->links_once = fn->in_main_file && clang_getCursorLinkage(c) == CXLinkage_External &&
                   !clang_Cursor_isFunctionInlined(c) &&
                   clang_getTemplateCursorKind(c) == CXCursor_NoDeclFound &&
                   clang_getCursorKind(clang_getCursorSemanticParent(c)) != CXCursor_ClassTemplate;
  fn->is_kernel = has_kid(&kids, CXCursor_CUDAGlobalAttr);
  fn->is_constructor = clang_getCursorKind(c) == CXCursor_Constructor;
  fn->is_device = has_kid(&kids, CXCursor_CUDADeviceAttr) && !has_kid(&kids, CXCursor_CUDAHostAttr);
  int nparams = clang_Cursor_getNumArguments(c);
  if (nparams < 0) { /* templates: parameters are the ParmDecl children */
    nparams = 0;
    for (size_t i = 0; i < kids.len; i++)
      if (clang_getCursorKind(kids.items[i]) == CXCursor_ParmDecl) {
        int v = fe_var_index(b, kids.items[i]);
        b->vars.items[v].param_index = nparams++;
      }
  } else {
    for (int i = 0; i < nparams; i++) {
      int v = fe_var_index(b, clang_Cursor_getArgument(c, (unsigned)i));
      b->vars.items[v].param_index = i;
    }
  }
  fn->nparams = nparams;
  fn->body = fe_conv_stmt(b, body);
  if (clang_getCursorKind(c) == CXCursor_Constructor) {
    /* member initialisers (`: p_(p)`) run first; storing into a member hands the value over */
    cursor_vec inits = {0};
    for (size_t i = 0; i < kids.len; i++)
      if (clang_isExpression(clang_getCursorKind(kids.items[i])))
        GM_PUSH(inits, kids.items[i]);
    if (inits.len) {
      gm_node *seq = fe_new_node(b, GM_N_SEQ, c, 2);
      gm_node *agg = fe_new_node(b, GM_N_AGGREGATE, c, (int)inits.len);
      for (size_t i = 0; i < inits.len; i++)
        agg->kids[i] = fe_conv_expr(b, inits.items[i]);
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

/* Captured locals of a lambda: every reference inside its body, however deep, to a variable of
 * the function that encloses it (for a lambda within a lambda, of the outer lambda's operator()).
 * One walk from the outermost lambda finds the captures of every lambda within it, each reference
 * credited to the lambda just inside the function that declares its variable: walking each nested
 * lambda's subtree again made N nested lambdas cost N^2 cursor visits. */
struct capture_walk {
  builder *b;
  /* indexes in b->captures of the lambdas around the cursor, outermost first */
  GM_VEC(size_t) open;
};

/* The closure class whose operator() declares `decl` (a local or parameter of a lambda; a generic
 * lambda's operator() is a template, but its semantic parent is still the closure). */
static CXCursor closure_declaring(CXCursor decl) {
  CXCursor method = clang_getCursorSemanticParent(decl);
  enum CXCursorKind k = clang_getCursorKind(method);
  if (k != CXCursor_CXXMethod && k != CXCursor_FunctionTemplate)
    return clang_getNullCursor();
  return clang_getCursorSemanticParent(method);
}

static void capture_ref(struct capture_walk *w, CXCursor ref_expr, CXCursor decl) {
  CXCursor owner = clang_getCursorSemanticParent(decl);
  size_t inside = w->open.len; /* the lambda just inside the declaring function, if open */
  if (clang_equalCursors(owner, w->b->func_cursor)) {
    inside = 0;
  } else {
    CXCursor closure = closure_declaring(decl);
    if (clang_Cursor_isNull(closure))
      return;
    unsigned h = clang_hashCursor(closure);
    for (size_t i = w->open.len; i-- > 0;) {
      fe_capture_list *l = &w->b->captures.items[w->open.items[i]];
      if (l->closure_hash == h && clang_equalCursors(l->closure, closure)) {
        inside = i + 1;
        break;
      }
    }
  }
  if (inside >= w->open.len)
    return; /* declared within the lambda that uses it, or in no function around it */
  fe_capture ref = {ref_expr, decl};
  GM_PUSH(w->b->captures.items[w->open.items[inside]].refs, ref);
}

static enum CXChildVisitResult capture_visitor(CXCursor c, CXCursor parent, CXClientData data);

static void walk_lambda(struct capture_walk *w, CXCursor lambda) {
  CXCursor closure = clang_getTypeDeclaration(clang_getCursorType(lambda));
  fe_capture_list l = {clang_hashCursor(lambda), lambda, clang_hashCursor(closure), closure, {0}};
  GM_PUSH(w->b->captures, l);
  GM_PUSH(w->open, w->b->captures.len - 1);
  clang_visitChildren(lambda, capture_visitor, w);
  w->open.len--;
}

static enum CXChildVisitResult capture_visitor(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  struct capture_walk *w = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_LambdaExpr) {
    walk_lambda(w, c);
    return CXChildVisit_Continue;
  }
  if (k == CXCursor_DeclRefExpr) {
    CXCursor ref = clang_getCursorReferenced(c);
    enum CXCursorKind rk = clang_getCursorKind(ref);
    if (rk == CXCursor_VarDecl || rk == CXCursor_ParmDecl)
      capture_ref(w, c, ref);
  }
  return CXChildVisit_Recurse;
}

/* The captures of lambda `c`: walked now if it is outermost, else found where the walk of the
 * outermost lambda around it left them (lambdas are converted in about the order walked). */
static const fe_capture_list *captures_of(builder *b, CXCursor c) {
  if (clang_isDeclaration(clang_getCursorKind(b->func_cursor))) {
    for (size_t i = 0; i < b->captures.len; i++)
      GM_VEC_FREE(b->captures.items[i].refs);
    b->captures.len = 0;
    b->captures_next = 0;
    struct capture_walk w = {b, {0}};
    walk_lambda(&w, c);
    GM_VEC_FREE(w.open);
  }
  unsigned h = clang_hashCursor(c);
  for (size_t n = 0; n < b->captures.len; n++) {
    size_t i = (b->captures_next + n) % b->captures.len;
    if (b->captures.items[i].hash == h && clang_equalCursors(b->captures.items[i].lambda, c)) {
      b->captures_next = i + 1;
      return &b->captures.items[i];
    }
  }
  return NULL;
}

/* A lambda's body is a function of its own; the enclosing function's state is set aside. */
static gm_func *build_lambda_body(builder *b, CXCursor c) {
  gm_func *outer = b->fn;
  CXCursor outer_cursor = b->func_cursor;
  int outer_next_id = b->next_id;
  int outer_dependent = b->dependent;
  var_vec outer_vars = b->vars;
  cursor_vec outer_decls = b->var_decls;
  fe_scoped_vec outer_scoped = b->scoped;
  memset(&b->vars, 0, sizeof b->vars);
  memset(&b->var_decls, 0, sizeof b->var_decls);
  memset(&b->scoped, 0, sizeof b->scoped);
  const char *outer_host = b->lambda_host;
  if (!b->lambda_depth++)
    b->lambda_host = outer ? outer->name : "?";
  gm_func *fn = fe_build_function(b, c);
  b->lambda_depth--;
  b->lambda_host = outer_host;
  if (fn) {
    fn->usr = gm_xasprintf_tmp(b, "lambda@%s:%u:%u", fn->loc.file ? fn->loc.file : "", fn->loc.line,
                               fn->loc.col);
    GM_PUSH(b->lambdas, fn);
    CXCursor closure = clang_getTypeDeclaration(clang_getCursorType(c));
    fe_closure k = {clang_hashCursor(closure), closure,
                    gm_xasprintf_tmp(b, "%s:operator()", fn->usr)};
    GM_PUSH(b->closures, k);
  }
  GM_VEC_FREE(b->vars);
  GM_VEC_FREE(b->var_decls);
  GM_VEC_FREE(b->scoped);
  b->vars = outer_vars;
  b->var_decls = outer_decls;
  b->scoped = outer_scoped;
  b->fn = outer;
  b->func_cursor = outer_cursor;
  b->next_id = outer_next_id;
  b->dependent = outer_dependent;
  return fn;
}

gm_node *fe_conv_lambda(builder *b, CXCursor c) {
  const fe_capture_list *caps = captures_of(b, c);
  size_t ncaps = caps ? caps->refs.len : 0;
  gm_node **refs = gm_arena_alloc(b->arena, sizeof *refs * (ncaps ? ncaps : 1));
  for (size_t i = 0; i < ncaps; i++) {
    refs[i] = fe_new_node(b, GM_N_VAR, caps->refs.items[i].ref, 0);
    refs[i]->var = fe_var_index(b, caps->refs.items[i].decl);
  }
  gm_func *body = build_lambda_body(b, c);
  gm_node *n = fe_new_node(b, GM_N_LAMBDA, c, (int)ncaps);
  for (size_t i = 0; i < ncaps; i++)
    n->kids[i] = refs[i];
  n->callee_usr = body ? body->usr : NULL; /* the lambda's body, modelled as a function */
  return n;
}

/* Calls of a lambda are keyed by its closure, not by clang's USR of its operator(): that USR
 * spells every enclosing lambda, so N nested lambdas cost N^2 in time and memory. The key names
 * no modelled function, as the USR did not: a lambda's call is modelled through its captures
 * (GM_N_LAMBDA), not through its body's summary. Most calls are of the lambda met last. */
const char *fe_lambda_call_usr(builder *b, CXCursor method) {
  CXCursor closure = clang_getCursorSemanticParent(method);
  unsigned h = clang_hashCursor(closure);
  for (size_t i = b->closures.len; i-- > 0;)
    if (b->closures.items[i].hash == h && clang_equalCursors(b->closures.items[i].closure, closure))
      return b->closures.items[i].call_usr;
  return NULL;
}
