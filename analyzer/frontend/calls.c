/* Calls: the callee's name, allocator-table row and summary key, which arguments it may write
 * through, and calls clang could not resolve. */
#include "frontend/build.h"

#include <stdlib.h>
#include <string.h>

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

static enum CXChildVisitResult first_child_visitor(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
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

/* The callee expression of a call (its first child), implicit casts and parentheses taken off. */
static CXCursor callee_expr(cursor_vec *kids) {
  CXCursor e = kids->len ? kids->items[0] : clang_getNullCursor();
  for (int depth = 0; depth < 8 && !clang_Cursor_isNull(e); depth++) {
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
      break;
    CXCursor inner = clang_getNullCursor();
    clang_visitChildren(e, first_child_visitor, &inner);
    e = inner;
  }
  return e;
}

/* Whether a call calls a function by its name, the only calls the allocator table's names
 * describe. A call through a struct member or a function pointer (`b->iface.free(b)`,
 * `ops.free(p)`, `ctx->malloc(n)`) calls whatever the pointer holds: the member's name says
 * nothing about libc's free. A dependent call (ref null or an overload set) is by name unless
 * its callee is a member. */
static int callee_is_named_function(CXCursor ref, cursor_vec *kids) {
  enum CXCursorKind rk = clang_getCursorKind(ref);
  if (rk == CXCursor_FunctionDecl || rk == CXCursor_FunctionTemplate)
    return 1;
  if (!clang_Cursor_isNull(ref) && rk != CXCursor_OverloadedDeclRef)
    return 0; /* a field, variable or parameter of function-pointer type */
  return clang_getCursorKind(callee_expr(kids)) != CXCursor_MemberRefExpr;
}

/* A call clang could not resolve: an argument it could not type, a callee declared with a type
 * it could not type, an undeclared callee, the wrong arguments (CUDA 13's cudaMemAdvise called
 * with an int device). Its name's row is kept only where it can end or spare a finding, never
 * ground one: noreturn (`exit(p->code)` still ends the path) and prefetch (advice given with
 * the old signature is advice). With no row, summary or system-header mark it is an unknown
 * callee, which may keep what it is given. */
static gm_node *unresolved_call(builder *b, gm_node *n, int by_name) {
  const gm_fn *row = n->name && by_name ? gm_table_lookup(b->table, n->name) : NULL;
  n->fn = row && (row->kind == GM_FN_NORETURN || row->kind == GM_FN_PREFETCH) ? row : NULL;
  n->noreturn = n->fn && n->fn->kind == GM_FN_NORETURN;
  n->is_launch = 0;
  n->invalid = 1;
  n->arg_writes = ~0u;
  return n;
}

/* A recovery expression for a call: children are the callee, then the arguments. */
gm_node *fe_conv_recovery_call(builder *b, CXCursor c, cursor_vec *exprs) {
  gm_node *n = fe_new_node(b, GM_N_CALL, c, (int)exprs->len - 1);
  n->name = callee_name(b, c, exprs);
  for (size_t i = 1; i < exprs->len; i++)
    n->kids[i - 1] = fe_conv_expr(b, exprs->items[i]);
  return unresolved_call(b, n, callee_is_named_function(clang_getNullCursor(), exprs));
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

/* Whether a type is a pointer to const data that is itself no pointer (`const float *`,
 * `const void *`, `const S *`): what it points at can be read through it, not written or freed
 * (`float *const *` still reaches a block the callee may free). */
int fe_reads_only_type(CXType t) {
  t = clang_getCanonicalType(t);
  if (t.kind != CXType_Pointer)
    return 0;
  CXType pointee = clang_getPointeeType(t);
  CXType cp = clang_getCanonicalType(pointee);
  return clang_isConstQualifiedType(pointee) && cp.kind != CXType_Pointer &&
         cp.kind != CXType_MemberPointer;
}

/* Which arguments are bound to such a parameter (variadic ones are not). */
static unsigned read_only_args(CXType fn_type, int nargs) {
  int nparams = clang_getNumArgTypes(fn_type);
  unsigned mask = 0;
  for (int i = 0; i < nargs && i < nparams && i < 31; i++)
    if (fe_reads_only_type(clang_getArgType(fn_type, (unsigned)i)))
      mask |= 1u << i;
  return mask;
}

/* The table row of a call by name. The built-in rows are the C library's and the toolkit's
 * functions: a function of the user's own namespace that happens to share a name
 * (`pool::free`) is not libc's, and is followed through its body or summary instead. A
 * project's own rows (.gmemlint) name its functions wherever they are declared. */
static const gm_fn *table_row(builder *b, CXCursor ref, const char *name) {
  const gm_fn *row = gm_table_lookup(b->table, name);
  if (!row || clang_Cursor_isNull(ref) || clang_getCursorKind(ref) == CXCursor_OverloadedDeclRef ||
      row != gm_table_lookup(gm_table_builtin(), name) ||
      clang_Location_isInSystemHeader(clang_getCursorLocation(ref)))
    return row;
  CXCursor scope = clang_getCursorSemanticParent(ref);
  while (clang_getCursorKind(scope) == CXCursor_LinkageSpec)
    scope = clang_getCursorSemanticParent(scope);
  if (clang_getCursorKind(scope) == CXCursor_TranslationUnit)
    return row;
  if (clang_getCursorKind(scope) != CXCursor_Namespace)
    return NULL;
  CXString ns = clang_getCursorSpelling(scope);
  int is_std = strcmp(clang_getCString(ns), "std") == 0;
  clang_disposeString(ns);
  return is_std ? row : NULL;
}

static enum CXChildVisitResult overload_ref_visitor(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_OverloadedDeclRef)
    return CXChildVisit_Recurse;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

/* A dependent call in a template (`helper(d, n)` with d a `T *`): clang picks the callee per
 * instantiation, among the functions and templates of that name declared where the template is
 * (argument-dependent lookup may add others at instantiation; the unit's are those we can see).
 * One candidate is the callee; several are kept for the flow engine, which lets an argument go
 * only where one of them may keep or free it. A candidate of another kind (a using-declaration,
 * a member) leaves the call unknown; so does a set of the toolkit's and the user's functions. */
static void resolve_dependent(builder *b, gm_node *n, const cursor_vec *kids) {
  CXCursor ref = clang_getNullCursor();
  if (!kids->len)
    return;
  if (clang_getCursorKind(kids->items[0]) == CXCursor_OverloadedDeclRef)
    ref = kids->items[0];
  else
    clang_visitChildren(kids->items[0], overload_ref_visitor, &ref);
  unsigned count = clang_Cursor_isNull(ref) ? 0 : clang_getNumOverloadedDecls(ref);
  if (!count || count > 64)
    return;
  const char **usrs = gm_arena_alloc(b->arena, sizeof *usrs * count);
  unsigned in_system = 0;
  for (unsigned i = 0; i < count; i++) {
    CXCursor decl = clang_getOverloadedDecl(ref, i);
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
      return;
    in_system += clang_Location_isInSystemHeader(clang_getCursorLocation(decl)) != 0;
    usrs[i] = fe_arena_cxstring(b, clang_getCursorUSR(clang_getCanonicalCursor(decl)));
  }
  if (in_system == count) {
    n->in_system = 1; /* std::fill(d, d + n, T()): the toolkit's or the library's, as if resolved */
  } else if (in_system) {
    return;
  } else if (count == 1) {
    n->callee_usr = usrs[0];
  } else {
    n->overloads = usrs;
    n->noverloads = (int)count;
  }
}

/* The object a member function is called on, where it is a variable or a member of one:
 * `desc.run()` may keep what desc's members hold. */
static const gm_node *named_object(builder *b, const cursor_vec *kids) {
  if (!kids->len || clang_getCursorKind(kids->items[0]) != CXCursor_MemberRefExpr)
    return NULL;
  cursor_vec base = fe_children_of(kids->items[0]);
  CXCursor obj = base.len ? base.items[0] : clang_getNullCursor();
  GM_VEC_FREE(base);
  enum CXCursorKind k = clang_getCursorKind(obj);
  if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr && k != CXCursor_UnexposedExpr)
    return NULL;
  gm_node *n = fe_conv_expr(b, obj);
  return n && n->kind != GM_N_CALL && gm_root_var(n) >= 0 ? n : NULL;
}

gm_node *fe_conv_call(builder *b, CXCursor c, cursor_vec *kids) {
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
  gm_node *n = fe_new_node(b, GM_N_CALL, c, (int)args.len);
  n->name = name;
  n->is_launch = launch;
  n->sets_status = name && gm_table_sets_runtime_status(b->table, name);
  for (size_t i = 0; i < args.len; i++) {
    n->kids[i] = fe_conv_expr(b, args.items[i]);
    if (n->kids[i])
      n->kids[i]->copy_dtor = fe_shallow_copy_dtor(b, args.items[i]);
  }
  GM_VEC_FREE(args);

  CXCursor ref = clang_getCursorReferenced(c);
  if (b->has_errors && ((!b->dependent && fe_is_dependent(c)) || fe_declared_invalid(ref)))
    return unresolved_call(b, n, callee_is_named_function(ref, kids));
  enum CXCursorKind rk = clang_getCursorKind(ref);
  int is_member = rk == CXCursor_CXXMethod || rk == CXCursor_Constructor ||
                  rk == CXCursor_Destructor || rk == CXCursor_ConversionFunction;
  if (rk == CXCursor_Constructor && n->nkids == 1 && clang_CXXMethod_isDefaulted(ref) &&
      (clang_CXXConstructor_isCopyConstructor(ref) || clang_CXXConstructor_isMoveConstructor(ref)))
    return n->kids[0]; /* a struct copied member by member, as C copies it: its value */
  n->is_method = is_member && !clang_CXXMethod_isStatic(ref);
  if (n->is_method && strncmp(name, "operator", 8) != 0) /* `a = b`: a is among the kids */
    n->object = named_object(b, kids);
  if (n->is_method && kids->len && clang_getCursorKind(kids->items[0]) == CXCursor_MemberRefExpr)
    n->callee_member = fe_conv_expr(b, kids->items[0]);
  if (!launch && !is_member && callee_is_named_function(ref, kids))
    n->fn = table_row(b, ref, name);
  if (n->fn && n->fn->kind == GM_FN_NORETURN)
    n->noreturn = 1;
  n->arg_writes = ~0u;
  if (!clang_Cursor_isNull(ref) && fe_is_function_kind(rk)) {
    n->in_system = clang_Location_isInSystemHeader(clang_getCursorLocation(ref)) != 0;
    n->arg_writes = writable_args(clang_getCursorType(ref), n->nkids);
    n->read_only_args = read_only_args(clang_getCursorType(ref), n->nkids);
    n->returns_bool = clang_getResultType(clang_getCursorType(ref)).kind == CXType_Bool;
    CXString ts = clang_getTypeSpelling(clang_getCursorType(ref));
    if (strstr(clang_getCString(ts), "noreturn"))
      n->noreturn = 1;
    clang_disposeString(ts);
    if (!n->in_system) {
      /* a call to a template specialisation resolves to the template we modelled */
      CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
      CXCursor target = clang_Cursor_isNull(tmpl) ? ref : tmpl;
      n->callee_usr = rk == CXCursor_CXXMethod && strcmp(name, "operator()") == 0
                          ? fe_lambda_call_usr(b, target)
                          : NULL;
      if (!n->callee_usr)
        n->callee_usr = fe_arena_cxstring(b, clang_getCursorUSR(clang_getCanonicalCursor(target)));
    }
    n->is_kernel_callee = fe_has_child_attr(ref, CXCursor_CUDAGlobalAttr);
  } else if (clang_Cursor_isNull(ref) && !launch && fe_is_dependent(c)) {
    resolve_dependent(b, n, kids);
  }
  return n;
}
