/* Objects with destructors: which user-written destructor a class has, the arguments copied
 * member by member into a by-value parameter (the copy's destructor runs when the call ends),
 * and the destructor calls the compiler makes where a local object's scope ends. */
#include "frontend/build.h"

#include <stdlib.h>
#include <string.h>

static enum CXChildVisitResult destructor_visitor(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_Destructor)
    return CXChildVisit_Continue;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

/* The user-written destructor of a class (a declaration in its body), or a null cursor. A
 * class of the toolkit or a library is left alone: its teardown is theirs to get right. */
static CXCursor destructor_of_class(CXCursor cls) {
  CXCursor found = clang_getNullCursor();
  enum CXCursorKind k = clang_getCursorKind(cls);
  if (k != CXCursor_StructDecl && k != CXCursor_ClassDecl)
    return found;
  CXCursor def = clang_getCursorDefinition(cls);
  if (clang_Cursor_isNull(def) || clang_Location_isInSystemHeader(clang_getCursorLocation(def)))
    return found;
  clang_visitChildren(def, destructor_visitor, &found);
  if (!clang_Cursor_isNull(found) && clang_CXXMethod_isDeleted(found))
    return clang_getNullCursor();
  return found;
}

static const char *destructor_usr(builder *b, CXCursor dtor) {
  if (clang_Cursor_isNull(dtor))
    return NULL;
  return fe_arena_cxstring(b, clang_getCursorUSR(clang_getCanonicalCursor(dtor)));
}

/* `f(obj)` with `void f(T obj)`: clang builds the parameter with T's copy (or move)
 * constructor. One the user did not write (implicit or `= default`) copies each member, so a
 * pointer member is shared by the copy, and the copy's destructor frees what the original's
 * still holds. A user-written one (a deep copy, a count, an owner flag) is trusted; a deleted
 * one allows no such call. */
const char *fe_shallow_copy_dtor(builder *b, CXCursor arg) {
  /* the construction sits under implicit nodes (a temporary's materialisation, a cast) */
  for (int depth = 0; depth < 4 && clang_getCursorKind(arg) == CXCursor_UnexposedExpr; depth++) {
    cursor_vec kids = fe_children_of(arg);
    CXCursor inner = kids.len == 1 ? kids.items[0] : clang_getNullCursor();
    GM_VEC_FREE(kids);
    arg = inner;
  }
  if (clang_getCursorKind(arg) != CXCursor_CallExpr)
    return NULL;
  CXCursor ctor = clang_getCursorReferenced(arg);
  if (clang_getCursorKind(ctor) != CXCursor_Constructor || !clang_CXXMethod_isDefaulted(ctor) ||
      !(clang_CXXConstructor_isCopyConstructor(ctor) ||
        clang_CXXConstructor_isMoveConstructor(ctor)))
    return NULL;
  return destructor_usr(b, destructor_of_class(clang_getCursorSemanticParent(ctor)));
}

/* A local object (not static, not a reference) of a class with a user-written destructor: its
 * scope ends at the enclosing block's end or a return out of it. */
void fe_scope_enter_local(builder *b, CXCursor decl) {
  int var = fe_var_index(b, decl);
  gm_var *v = &b->vars.items[var];
  if (v->kind != GM_VAR_LOCAL || v->is_array || v->is_pointer)
    return;
  CXType ct = clang_getCanonicalType(clang_getCursorType(decl));
  if (ct.kind != CXType_Record)
    return;
  CXCursor dtor = destructor_of_class(clang_getTypeDeclaration(ct));
  if (clang_Cursor_isNull(dtor))
    return;
  v->dtor_usr = destructor_usr(b, dtor);
  fe_scoped local = {var, fe_arena_cxstring(b, clang_getCursorSpelling(dtor))};
  GM_PUSH(b->scoped, local);
}

/* The call of the local's destructor, at `at`. */
static gm_node *destructor_call(builder *b, CXCursor c, const fe_scoped *local, gm_loc at) {
  int var = local->var;
  const gm_var *v = &b->vars.items[var];
  gm_node *obj = fe_new_node(b, GM_N_VAR, c, 0);
  obj->var = var;
  obj->name = v->name;
  obj->loc = at;
  gm_node *n = fe_new_node(b, GM_N_CALL, c, 0);
  n->loc = at;
  n->name = local->dtor_name;
  n->callee_usr = v->dtor_usr;
  n->is_method = 1;
  n->implicit_dtor = 1;
  n->object = obj;
  n->arg_writes = 0;
  return n;
}

gm_node **fe_scope_destructors(builder *b, CXCursor c, size_t from, gm_loc at, int keep, int *n) {
  *n = 0;
  if (b->scoped.len <= from)
    return NULL;
  gm_node **calls = gm_arena_alloc(b->arena, sizeof *calls * (b->scoped.len - from));
  for (size_t i = b->scoped.len; i-- > from;) /* in reverse order of construction */
    if (b->scoped.items[i].var != keep)
      calls[(*n)++] = destructor_call(b, c, &b->scoped.items[i], at);
  return calls;
}
