/* Code clang could not type (a file with errors): opaque nodes and the tests that find them.
 *
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
 * What clang could not type becomes an opaque node: GM_N_OTHER, `invalid`, never the pointer it
 * was built from; a variable clang could not type is one too, in place of its declaration. Its
 * kids are the variables it names (`buffer_t b = wrap(ptr, n);` names ptr and n): code we cannot
 * see may keep or free what they hold, so that escapes, and no finding rests on it. A call clang
 * could not resolve (calls.c) keeps its arguments but no table row (but for noreturn and
 * prefetch), summary or system-header mark, and is `invalid`: code we cannot see, which may keep
 * what it is given. */
#include "frontend/build.h"

#include <stdlib.h>

typedef GM_VEC(gm_node *) node_vec;

static void add_named_var(builder *b, CXCursor c, node_vec *out) {
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
    return;
  CXCursor ref = clang_getCursorReferenced(c);
  enum CXCursorKind rk = clang_getCursorKind(ref);
  if ((rk != CXCursor_VarDecl && rk != CXCursor_ParmDecl) || fe_declared_invalid(ref))
    return;
  int var = fe_var_index(b, ref);
  for (size_t i = 0; i < out->len; i++)
    if (out->items[i]->var == var)
      return;
  gm_node *n = fe_new_node(b, GM_N_VAR, c, 0);
  n->var = var;
  n->name = b->vars.items[var].name;
  GM_PUSH(*out, n);
}

struct named_vars {
  builder *b;
  node_vec vars;
};

static enum CXChildVisitResult named_var_visitor(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  struct named_vars *nv = d;
  add_named_var(nv->b, c, &nv->vars);
  return CXChildVisit_Recurse;
}

gm_node *fe_opaque_node(builder *b, CXCursor c) {
  struct named_vars nv = {b, {0}};
  add_named_var(b, c, &nv.vars);
  clang_visitChildren(c, named_var_visitor, &nv);
  gm_node *n = fe_new_node(b, GM_N_OTHER, c, (int)nv.vars.len);
  for (size_t i = 0; i < nv.vars.len; i++)
    n->kids[i] = nv.vars.items[i];
  GM_VEC_FREE(nv.vars);
  n->invalid = 1;
  return n;
}

int fe_is_dependent(CXCursor c) {
  return clang_getCursorType(c).kind == CXType_Dependent;
}

/* A function in a template (or a generic lambda): its dependent types are no sign of error. */
int fe_in_template(CXCursor c) {
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

int fe_declared_invalid(CXCursor decl) {
  return !clang_Cursor_isNull(decl) && clang_isDeclaration(clang_getCursorKind(decl)) &&
         clang_isInvalidDeclaration(decl);
}

/* A reference or member expression naming something clang could not type. */
int fe_names_invalid(builder *b, CXCursor c) {
  if (!b->has_errors)
    return 0;
  if (!b->dependent && fe_is_dependent(c))
    return 1;
  return fe_declared_invalid(clang_getCursorReferenced(c));
}

/* A recovery expression standing for a call (an undeclared function, the wrong arguments): its
 * first child names the callee, as an unresolved name (overload type) or a member function. An
 * implicit cast has one child, and a function named as a value decays to a function pointer. */
int fe_is_recovery_call(CXCursor c, const cursor_vec *exprs) {
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
  if (!fe_is_function_kind(rk))
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
int fe_is_recovery_value(builder *b, CXCursor c, const cursor_vec *exprs) {
  if (b->dependent)
    return 0;
  enum CXTypeKind tk = clang_getCursorType(c).kind;
  if (tk != CXType_Dependent && tk != CXType_Invalid)
    return 0;
  return !(exprs->len == 1 && fe_is_dependent(exprs->items[0]));
}
