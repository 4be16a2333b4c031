/* Expressions: each libclang expression cursor becomes a model node (variables, constants,
 * operators, new and delete, member accesses; calls and lambdas are handed on). */
#include "frontend/build.h"

#include <stdlib.h>
#include <string.h>

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

static gm_node *other_node(builder *b, CXCursor c, cursor_vec *kids) {
  gm_node *n = fe_new_node(b, GM_N_OTHER, c, (int)kids->len);
  for (size_t i = 0; i < kids->len; i++)
    n->kids[i] = fe_conv_expr(b, kids->items[i]);
  return n;
}

int fe_evaluate_int(CXCursor c, long long *value) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r)
    return 0;
  int ok = clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok)
    *value = clang_EvalResult_getAsLongLong(r);
  clang_EvalResult_dispose(r);
  return ok;
}

/* Folds + - * / % << >> & | ^ of two constants, so `64 * sizeof(float)` has a value. A result that
 * long long cannot hold (overflow, LLONG_MIN / -1, division by zero, shifting a negative value)
 * stays unknown: folding it would be undefined behaviour here, and a trap for LLONG_MIN / -1. */
static void fold_constant(gm_node *n) {
  long long r;
  if (!gm_arith_apply(n->op, n->kids[0]->value, n->kids[1]->value, &r))
    return;
  n->value = r;
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

/* The struct or class that declares the member `c` refers to: its USR, and its name as written
 * (a typedef's name for an unnamed struct), for whole-program analysis of members. */
static void set_member_record(builder *b, gm_node *n, CXCursor c) {
  CXCursor field = clang_getCursorReferenced(c);
  if (clang_getCursorKind(field) != CXCursor_FieldDecl)
    return;
  CXCursor record = clang_getCursorSemanticParent(field);
  /* Two programs linted together may each define their own `struct Context`: the USR joined
   * with where the definition is tells them apart, and names one struct from a shared header
   * alike in every file that includes it. */
  CXString usr = clang_getCursorUSR(record);
  const char *u = clang_getCString(usr);
  CXFile file;
  unsigned line;
  clang_getSpellingLocation(clang_getCursorLocation(record), &file, &line, NULL, NULL);
  CXString where = file ? clang_File_tryGetRealPathName(file) : (CXString){0};
  const char *w = file ? clang_getCString(where) : NULL;
  if ((!w || !*w) && file) {
    clang_disposeString(where);
    where = clang_getFileName(file);
    w = clang_getCString(where);
  }
  if (u && *u) {
    char *key = gm_xasprintf("%s@%s:%u", u, w ? w : "", line);
    n->record = gm_arena_strdup(b->arena, key);
    free(key);
  }
  clang_disposeString(usr);
  if (file)
    clang_disposeString(where);
  if (!n->record)
    return;
  CXString spelled = clang_getCursorSpelling(record); /* "BodySystemCUDA" for a template too */
  const char *sp = clang_getCString(spelled);
  if (sp && *sp && *sp != '(') {
    n->record_name = gm_arena_strdup(b->arena, sp);
    clang_disposeString(spelled);
    return;
  }
  clang_disposeString(spelled);
  CXString name = clang_getTypeSpelling(clang_getCursorType(record));
  const char *text = clang_getCString(name);
  const char *plain = text ? text : "";
  for (const char *kw = "struct \0class \0union \0"; *kw; kw += strlen(kw) + 1)
    if (strncmp(plain, kw, strlen(kw)) == 0)
      plain += strlen(kw);
  for (const char *k = plain; *k && *k != '<'; k++) /* "ns::Ctx<T>" -> "Ctx<T>" */
    if (k[0] == ':' && k[1] == ':')
      plain = k + 2;
  n->record_name = gm_arena_strdup(b->arena, plain && *plain ? plain : "(unnamed)");
  clang_disposeString(name);
}

/* The kids that are expressions (and statements, with `statements`): type and template
 * references among them are skipped. */
static cursor_vec expression_kids(const cursor_vec *kids, int statements) {
  cursor_vec exprs = {0};
  for (size_t i = 0; i < kids->len; i++) {
    enum CXCursorKind k = clang_getCursorKind(kids->items[i]);
    if (clang_isExpression(k) || (statements && clang_isStatement(k)))
      GM_PUSH(exprs, kids->items[i]);
  }
  return exprs;
}

/* A va_list (x86-64: an array of __va_list_tag), or a pointer it decays to. */
static int is_va_list(CXType t) {
  t = clang_getCanonicalType(t);
  if (t.kind == CXType_ConstantArray)
    t = clang_getArrayElementType(t);
  else if (t.kind == CXType_Pointer)
    t = clang_getPointeeType(t);
  if (t.kind != CXType_Record)
    return 0;
  CXString name = clang_getCursorSpelling(clang_getTypeDeclaration(t));
  int is = strcmp(clang_getCString(name), "__va_list_tag") == 0;
  clang_disposeString(name);
  return is;
}

/* `va_arg(list, T)` (libclang shows a VAArgExpr unexposed, its one kid the list): the next of
 * the caller's arguments, not the list's own storage. */
static int is_va_arg(CXCursor c, const cursor_vec *exprs) {
  if (exprs->len != 1)
    return 0;
  CXType of = clang_getCursorType(exprs->items[0]);
  CXType list = clang_getCanonicalType(of);
  if (list.kind != CXType_Pointer && list.kind != CXType_ConstantArray)
    return 0; /* most conversions: no type's name read for them */
  return is_va_list(of) && !is_va_list(clang_getCursorType(c));
}

/* Conversions, casts and parentheses: the value passes through. */
static gm_node *conv_conversion(builder *b, CXCursor c, enum CXCursorKind k,
                                const cursor_vec *kids) {
  cursor_vec exprs = expression_kids(kids, 0);
  gm_node *n;
  if (k == CXCursor_UnexposedExpr && is_va_arg(c, &exprs))
    n = other_node(b, c, &(cursor_vec){0}); /* unknown: whatever the caller passed */
  else if (b->has_errors && k == CXCursor_UnexposedExpr && fe_is_recovery_call(c, &exprs))
    n = fe_conv_recovery_call(b, c, &exprs);
  else if (b->has_errors && k == CXCursor_UnexposedExpr && fe_is_recovery_value(b, c, &exprs))
    n = fe_opaque_node(b, c);
  else if (exprs.len == 1)
    n = fe_conv_expr(b, exprs.items[0]);
  else if (exprs.len == 0 && k == CXCursor_CStyleCastExpr && literal_is_zero(c))
    n = fe_new_node(b, GM_N_NULL, c, 0);
  else
    n = other_node(b, c, &exprs);
  GM_VEC_FREE(exprs);
  return n;
}

/* A name: a variable, an enumerator, a template's constant, or a function named as a value. */
static gm_node *conv_decl_ref(builder *b, CXCursor c) {
  CXCursor ref = clang_getCursorReferenced(c);
  enum CXCursorKind rk = clang_getCursorKind(ref);
  gm_node *n;
  if (fe_names_invalid(b, c)) {
    n = fe_opaque_node(b, c);
  } else if (rk == CXCursor_VarDecl || rk == CXCursor_ParmDecl) {
    n = fe_new_node(b, GM_N_VAR, c, 0);
    n->var = fe_var_index(b, ref);
    n->name = b->vars.items[n->var].name;
    if (clang_isConstQualifiedType(clang_getCursorType(ref)))
      n->has_value = fe_evaluate_int(c, &n->value);
  } else if (rk == CXCursor_EnumConstantDecl) {
    n = fe_new_node(b, clang_getEnumConstantDeclValue(ref) == 0 ? GM_N_NULL : GM_N_CONST, c, 0);
    n->name = fe_arena_cxstring(b, clang_getCursorSpelling(ref));
    n->has_value = 1;
    n->value = clang_getEnumConstantDeclValue(ref);
  } else if (rk == CXCursor_NonTypeTemplateParameter) {
    n = fe_new_node(b, GM_N_CONST, c, 0); /* a compile-time constant such as BLOCK */
  } else if (fe_is_function_kind(rk)) {
    /* a function named as a value: a kernel handed to cudaLaunchKernel, say */
    n = fe_new_node(b, GM_N_OTHER, c, 0);
    n->name = fe_arena_cxstring(b, clang_getCursorSpelling(ref));
    CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
    CXCursor target = clang_Cursor_isNull(tmpl) ? ref : tmpl;
    if (!clang_Location_isInSystemHeader(clang_getCursorLocation(ref)))
      n->callee_usr = fe_arena_cxstring(b, clang_getCursorUSR(clang_getCanonicalCursor(target)));
  } else {
    n = fe_new_node(b, GM_N_OTHER, c, 0);
  }
  return n;
}

/* A literal or other constant; its value when clang can compute one. */
static gm_node *conv_constant(builder *b, CXCursor c, enum CXCursorKind k) {
  gm_node *n;
  switch (k) {
  case CXCursor_IntegerLiteral:
  case CXCursor_CXXBoolLiteralExpr:
    n = fe_new_node(b, literal_is_zero(c) ? GM_N_NULL : GM_N_CONST, c, 0);
    n->has_value = fe_evaluate_int(c, &n->value);
    break;
  case CXCursor_CXXNullPtrLiteralExpr:
  case CXCursor_GNUNullExpr:
    n = fe_new_node(b, GM_N_NULL, c, 0);
    break;
  case CXCursor_UnaryExpr: /* sizeof, alignof: operands are not evaluated */
  case CXCursor_CharacterLiteral:
    n = fe_new_node(b, GM_N_CONST, c, 0);
    n->has_value = fe_evaluate_int(c, &n->value);
    break;
  default: /* floating-point and string literals, `this` */
    n = fe_new_node(b, GM_N_CONST, c, 0);
    n->is_string = k == CXCursor_StringLiteral;
    if (k == CXCursor_CXXThisExpr)
      n->name = "this"; /* `this->w` is the member path `w` names */
    break;
  }
  return n;
}

/* `new`: its operands, then the allocation as a call of the table's operator new. */
static gm_node *conv_new(builder *b, CXCursor c, cursor_vec *kids) {
  const char *kind = new_kind(b, c);
  gm_node *n = other_node(b, c, kids);
  if (kind) {
    /* size and initialiser are evaluated, but are not arguments of the allocation */
    gm_node *call = fe_new_node(b, GM_N_CALL, c, 0);
    call->name = kind;
    call->fn = gm_table_lookup(b->table, kind);
    n->kind = GM_N_COMMA;
    gm_node **kids2 = gm_arena_alloc(b->arena, sizeof(gm_node *) * (size_t)(n->nkids + 1));
    if (n->nkids)
      memcpy(kids2, n->kids, sizeof(gm_node *) * (size_t)n->nkids);
    kids2[n->nkids++] = call;
    n->kids = kids2;
  }
  return n;
}

/* `delete p` and `delete[] p`: a call of the table's operator delete on p. */
static gm_node *conv_delete(builder *b, CXCursor c, const cursor_vec *kids) {
  gm_node *n = fe_new_node(b, GM_N_CALL, c, kids->len ? 1 : 0);
  n->name = delete_kind(b, c);
  n->fn = gm_table_lookup(b->table, n->name);
  if (kids->len)
    n->kids[0] = fe_conv_expr(b, kids->items[kids->len - 1]);
  return n;
}

/* The model's kind for a binary operator, and in *nop which one where the kind needs it
 * (compound assignment: 1; comparison: '=', '!' or '<'; arithmetic: '+', '-', '*', '/', '%', 'l'
 * and 'r' for the shifts, '&', '|', '^'). */
static enum gm_node_kind binary_kind(enum CXCursorKind k, enum CXBinaryOperatorKind op, int *nop) {
  *nop = 0;
  if (k == CXCursor_CompoundAssignOperator ||
      (op >= CXBinaryOperator_MulAssign && op <= CXBinaryOperator_OrAssign))
    return *nop = 1, GM_N_ASSIGN;
  if (op == CXBinaryOperator_Assign)
    return GM_N_ASSIGN;
  if (op == CXBinaryOperator_LAnd)
    return GM_N_LAND;
  if (op == CXBinaryOperator_LOr)
    return GM_N_LOR;
  if (op == CXBinaryOperator_EQ)
    return *nop = '=', GM_N_CMP;
  if (op == CXBinaryOperator_NE)
    return *nop = '!', GM_N_CMP;
  if (op >= CXBinaryOperator_Cmp && op <= CXBinaryOperator_GE)
    return *nop = '<', GM_N_CMP;
  if (op == CXBinaryOperator_Comma)
    return GM_N_COMMA;
  static const struct {
    enum CXBinaryOperatorKind op;
    int nop;
  } arith[] = {{CXBinaryOperator_Add, '+'}, {CXBinaryOperator_Sub, '-'},
               {CXBinaryOperator_Mul, '*'}, {CXBinaryOperator_Div, '/'},
               {CXBinaryOperator_Rem, '%'}, {CXBinaryOperator_Shl, 'l'},
               {CXBinaryOperator_Shr, 'r'}, {CXBinaryOperator_And, '&'},
               {CXBinaryOperator_Or, '|'},  {CXBinaryOperator_Xor, '^'}};
  for (size_t i = 0; i < sizeof arith / sizeof arith[0]; i++)
    if (op == arith[i].op)
      *nop = arith[i].nop;
  return GM_N_ARITH;
}

/* Assignments, comparisons, && and ||, arithmetic (constants folded), the comma. */
static gm_node *conv_binary(builder *b, CXCursor c, enum CXCursorKind k, cursor_vec *kids) {
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
  int nop;
  enum gm_node_kind nk = binary_kind(k, op, &nop);
  gm_node *n = other_node(b, c, kids);
  n->kind = nk;
  n->op = nop;
  if ((nk == GM_N_ASSIGN && nop) || nk == GM_N_CMP) /* which operator: "+=", "<=", ... */
    n->name = fe_arena_cxstring(b, clang_getBinaryOperatorKindSpelling(op));
  if ((nk == GM_N_ASSIGN || nk == GM_N_LAND || nk == GM_N_LOR || nk == GM_N_CMP) && n->nkids != 2)
    n->kind = GM_N_OTHER;
  if (nk == GM_N_ARITH && n->nkids == 2 && n->kids[0]->has_value && n->kids[1]->has_value)
    fold_constant(n);
  return n;
}

/* &x, *p, !x, ++ and --; unary + and __extension__ pass their operand through. */
static gm_node *conv_unary(builder *b, CXCursor c, cursor_vec *kids) {
  enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
  gm_node *n = other_node(b, c, kids);
  if (n->nkids != 1)
    return n;
  if (op == CXUnaryOperator_AddrOf)
    n->kind = GM_N_ADDR;
  else if (op == CXUnaryOperator_Deref)
    n->kind = GM_N_DEREF;
  else if (op == CXUnaryOperator_LNot)
    n->kind = GM_N_NOT;
  else if (op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec) {
    n->kind = GM_N_INCDEC;
    n->op = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc ? '+' : '-';
  } else if (op == CXUnaryOperator_Extension || op == CXUnaryOperator_Plus) {
    n = n->kids[0];
  }
  return n;
}

/* `s.f` and `p->f`, with the record that declares f. */
static gm_node *conv_member(builder *b, CXCursor c, const cursor_vec *kids) {
  if (fe_names_invalid(b, c)) /* a member of an incomplete or invalid struct */
    return fe_opaque_node(b, c);
  cursor_vec exprs = expression_kids(kids, 0);
  gm_node *n = fe_new_node(b, GM_N_FIELD, c, exprs.len ? 1 : 0);
  n->name = fe_arena_cxstring(b, clang_getCursorSpelling(c));
  set_member_record(b, n, c);
  if (exprs.len)
    n->kids[0] = fe_conv_expr(b, exprs.items[0]);
  GM_VEC_FREE(exprs);
  return n;
}

/* A node of the given kind over all the operands, when it has `arity` of them. */
static gm_node *conv_operands(builder *b, CXCursor c, cursor_vec *kids, enum gm_node_kind kind,
                              int arity) {
  gm_node *n = other_node(b, c, kids);
  if (arity < 0 || n->nkids == arity)
    n->kind = kind;
  return n;
}

/* Anything else: its operands, for what they do, under a node the analysis does not read. */
static gm_node *conv_other(builder *b, CXCursor c, const cursor_vec *kids) {
  cursor_vec exprs = expression_kids(kids, 1);
  gm_node *n = other_node(b, c, &exprs);
  GM_VEC_FREE(exprs);
  return n;
}

gm_node *fe_conv_expr(builder *b, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  cursor_vec kids = fe_children_of(c);
  gm_node *n;
  switch (k) {
  case CXCursor_UnexposedExpr:
  case CXCursor_ParenExpr:
  case CXCursor_CStyleCastExpr:
  case CXCursor_CXXStaticCastExpr:
  case CXCursor_CXXReinterpretCastExpr:
  case CXCursor_CXXConstCastExpr:
  case CXCursor_CXXFunctionalCastExpr:
  case CXCursor_CXXDynamicCastExpr:
  case CXCursor_CXXAddrspaceCastExpr:
    n = conv_conversion(b, c, k, &kids);
    break;
  case CXCursor_DeclRefExpr:
    n = conv_decl_ref(b, c);
    break;
  case CXCursor_IntegerLiteral:
  case CXCursor_CXXBoolLiteralExpr:
  case CXCursor_CXXNullPtrLiteralExpr:
  case CXCursor_GNUNullExpr:
  case CXCursor_UnaryExpr:
  case CXCursor_CharacterLiteral:
  case CXCursor_FloatingLiteral:
  case CXCursor_StringLiteral:
  case CXCursor_CXXThisExpr:
    n = conv_constant(b, c, k);
    break;
  case CXCursor_CallExpr:
    n = fe_conv_call(b, c, &kids);
    break;
  case CXCursor_CXXNewExpr:
    n = conv_new(b, c, &kids);
    break;
  case CXCursor_CXXDeleteExpr:
    n = conv_delete(b, c, &kids);
    break;
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator:
    n = conv_binary(b, c, k, &kids);
    break;
  case CXCursor_UnaryOperator:
    n = conv_unary(b, c, &kids);
    break;
  case CXCursor_MemberRefExpr:
    n = conv_member(b, c, &kids);
    break;
  case CXCursor_ArraySubscriptExpr:
    n = conv_operands(b, c, &kids, GM_N_INDEX, 2);
    break;
  case CXCursor_ConditionalOperator:
    n = conv_operands(b, c, &kids, GM_N_COND, 3);
    break;
  case CXCursor_InitListExpr:
    n = conv_operands(b, c, &kids, GM_N_AGGREGATE, -1);
    break;
  case CXCursor_CXXThrowExpr:
    n = conv_operands(b, c, &kids, GM_N_THROW, -1);
    break;
  case CXCursor_LambdaExpr:
    n = fe_conv_lambda(b, c);
    break;
  case CXCursor_StmtExpr:
    n = kids.len ? fe_conv_stmt(b, kids.items[0]) : fe_new_node(b, GM_N_NOP, c, 0);
    break;
  default:
    n = conv_other(b, c, &kids);
    break;
  }
  GM_VEC_FREE(kids);
  return n;
}
