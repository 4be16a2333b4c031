/* Statements and control flow: blocks, declarations, if, loops, switch and case, jumps, try. */
#include "frontend/build.h"

#include <stdlib.h>
#include <string.h>

/* Offsets in the file, for ordering the parts of a statement. */
static unsigned offset_of(CXSourceLocation l) {
  unsigned off = 0;
  clang_getFileLocation(l, NULL, NULL, NULL, &off);
  return off;
}

static gm_node *conv_decl(builder *b, CXCursor var) {
  /* a variable clang could not type (`gpuError_t err = cudaMalloc(...)` without the header that
     declares gpuError_t) is opaque, initialiser and all: an allocation whose status goes where we
     cannot follow cannot be judged (clang mostly wraps such an initialiser in a recovery
     expression anyway) */
  if (b->has_errors && clang_isInvalidDeclaration(var))
    return fe_opaque_node(b, var);
  gm_node *n = fe_new_node(b, GM_N_DECL, var, 1);
  n->var = fe_var_index(b, var);
  n->name = b->vars.items[n->var].name;
  cursor_vec kids = fe_children_of(var);
  n->kids[0] = NULL;
  for (size_t i = kids.len; i-- > 0;)
    if (clang_isExpression(clang_getCursorKind(kids.items[i]))) {
      n->kids[0] = fe_conv_expr(b, kids.items[i]);
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
  gm_node *n = fe_new_node(b, GM_N_COMMA, c, 2);
  n->kids[0] = first;
  n->kids[1] = second;
  return n;
}

/* A condition with an optional declaration in front (`if (T *p = f())`, `while (T x = g())`). */
static gm_node *conv_cond_part(builder *b, CXCursor c) {
  if (clang_getCursorKind(c) == CXCursor_VarDecl)
    return conv_decl(b, c);
  if (clang_getCursorKind(c) == CXCursor_DeclStmt)
    return fe_conv_stmt(b, c);
  return fe_conv_expr(b, c);
}

static gm_node *conv_seq(builder *b, CXCursor c, cursor_vec *kids, size_t from) {
  gm_node *n = fe_new_node(b, GM_N_SEQ, c, (int)(kids->len - from));
  for (size_t i = from; i < kids->len; i++)
    n->kids[i - from] = fe_conv_stmt(b, kids->items[i]);
  return n;
}

/* A block: its statements, then the destructors of the local objects it declared, at its
 * closing brace. */
static gm_node *conv_block(builder *b, CXCursor c, cursor_vec *kids) {
  size_t scope = b->scoped.len;
  gm_node *n = fe_new_node(b, GM_N_SEQ, c, (int)kids->len);
  for (size_t i = 0; i < kids->len; i++) {
    n->kids[i] = fe_conv_stmt(b, kids->items[i]);
    if (clang_getCursorKind(kids->items[i]) != CXCursor_DeclStmt)
      continue;
    cursor_vec decls = fe_children_of(kids->items[i]);
    for (size_t k = 0; k < decls.len; k++)
      if (clang_getCursorKind(decls.items[k]) == CXCursor_VarDecl)
        fe_scope_enter_local(b, decls.items[k]);
    GM_VEC_FREE(decls);
  }
  gm_loc end = fe_loc_of_location(b, clang_getRangeEnd(clang_getCursorExtent(c)));
  if (end.col > 1)
    end.col--; /* the range ends just past the brace */
  int ndtors;
  gm_node **dtors = fe_scope_destructors(b, c, scope, end, -1, &ndtors);
  b->scoped.len = scope;
  if (ndtors) {
    gm_node **all = gm_arena_alloc(b->arena, sizeof *all * (size_t)(n->nkids + ndtors));
    memcpy(all, n->kids, sizeof *all * (size_t)n->nkids);
    memcpy(all + n->nkids, dtors, sizeof *all * (size_t)ndtors);
    n->kids = all;
    n->nkids += ndtors;
  }
  return n;
}

/* `return v;`: the value, then the destructors of every local object in scope but a local
 * returned by name (built in the caller's place, not destroyed). */
static gm_node *conv_return(builder *b, CXCursor c, cursor_vec *kids) {
  gm_node *value = kids->len ? fe_conv_expr(b, kids->items[0]) : NULL;
  int returned = value && value->kind == GM_N_VAR ? value->var : -1;
  int ndtors;
  gm_node **dtors = fe_scope_destructors(b, c, 0, fe_loc_of(b, c), returned, &ndtors);
  gm_node *n = fe_new_node(b, GM_N_RETURN, c, 1 + ndtors);
  n->kids[0] = value;
  for (int i = 0; i < ndtors; i++)
    n->kids[1 + i] = dtors[i];
  if (!value && !ndtors)
    n->nkids = 0;
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

gm_node *fe_conv_stmt(builder *b, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  cursor_vec kids = fe_children_of(c);
  gm_node *n = NULL;
  switch (k) {
  case CXCursor_CompoundStmt:
    n = conv_block(b, c, &kids);
    break;
  case CXCursor_DeclStmt: {
    cursor_vec vars = {0};
    for (size_t i = 0; i < kids.len; i++)
      if (clang_getCursorKind(kids.items[i]) == CXCursor_VarDecl)
        GM_PUSH(vars, kids.items[i]);
    n = fe_new_node(b, GM_N_SEQ, c, (int)vars.len);
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
      pre = fe_conv_stmt(b, kids.items[i++]);
    if (i < kids.len && clang_getCursorKind(kids.items[i]) == CXCursor_VarDecl)
      pre = comma2(b, c, pre, conv_decl(b, kids.items[i++]));
    n = fe_new_node(b, GM_N_IF, c, 3);
    n->kids[0] = i < kids.len ? comma2(b, c, pre, fe_conv_expr(b, kids.items[i++])) : pre;
    n->kids[1] = i < kids.len ? fe_conv_stmt(b, kids.items[i++]) : NULL;
    n->kids[2] = i < kids.len ? fe_conv_stmt(b, kids.items[i++]) : NULL;
    break;
  }
  case CXCursor_ForStmt: {
    CXCursor parts[3];
    int present[3];
    n = fe_new_node(b, GM_N_LOOP, c, 4);
    n->op = GM_LOOP_FOR;
    if (kids.len) {
      for_parts(b, c, &kids, parts, present);
      n->kids[0] = present[0] ? conv_cond_part(b, parts[0]) : NULL;
      n->kids[1] = present[1] ? conv_cond_part(b, parts[1]) : NULL;
      n->kids[2] = present[2] ? fe_conv_expr(b, parts[2]) : NULL;
      n->kids[3] = fe_conv_stmt(b, kids.items[kids.len - 1]);
    }
    break;
  }
  case CXCursor_WhileStmt: {
    n = fe_new_node(b, GM_N_LOOP, c, 4);
    n->op = GM_LOOP_WHILE;
    if (kids.len >= 2) {
      gm_node *cond = fe_conv_expr(b, kids.items[kids.len - 2]);
      if (kids.len >= 3)
        cond = comma2(b, c, conv_cond_part(b, kids.items[kids.len - 3]), cond);
      n->kids[1] = cond;
      n->kids[3] = fe_conv_stmt(b, kids.items[kids.len - 1]);
    }
    break;
  }
  case CXCursor_DoStmt:
    n = fe_new_node(b, GM_N_LOOP, c, 4);
    n->op = GM_LOOP_DO;
    if (kids.len == 2) {
      n->kids[3] = fe_conv_stmt(b, kids.items[0]);
      n->kids[1] = fe_conv_expr(b, kids.items[1]);
    }
    break;
  case CXCursor_CXXForRangeStmt:
    n = fe_new_node(b, GM_N_LOOP, c, 4);
    n->op = GM_LOOP_RANGE;
    if (kids.len >= 2) {
      /* the range expression is evaluated once; the loop variable is set each iteration */
      gm_node *pre = NULL;
      for (size_t i = 0; i + 1 < kids.len; i++) {
        enum CXCursorKind kk = clang_getCursorKind(kids.items[i]);
        if (kk == CXCursor_VarDecl)
          n->kids[2] = comma2(b, c, n->kids[2], conv_decl(b, kids.items[i]));
        else if (clang_isExpression(kk))
          pre = comma2(b, c, pre, fe_conv_expr(b, kids.items[i]));
      }
      n->kids[0] = pre;
      n->kids[3] = fe_conv_stmt(b, kids.items[kids.len - 1]);
      /* the loop variable is bound before the body: run its declaration first */
      if (n->kids[2]) {
        gm_node *body = fe_new_node(b, GM_N_SEQ, c, 2);
        body->kids[0] = n->kids[2];
        body->kids[1] = n->kids[3];
        n->kids[3] = body;
        n->kids[2] = NULL;
      }
    }
    break;
  case CXCursor_SwitchStmt:
    n = fe_new_node(b, GM_N_SWITCH, c, 2);
    if (kids.len >= 2) {
      gm_node *cond = fe_conv_expr(b, kids.items[kids.len - 2]);
      for (size_t i = kids.len - 2; i-- > 0;)
        cond = comma2(b, c, conv_cond_part(b, kids.items[i]), cond);
      n->kids[0] = cond;
      n->kids[1] = fe_conv_stmt(b, kids.items[kids.len - 1]);
    }
    break;
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
    n = fe_new_node(b, GM_N_CASE, c, 1);
    n->op = k == CXCursor_DefaultStmt;
    if (!n->op && kids.len >= 2) /* `case K:` — its value pairs the cases of two switches */
      n->has_value = fe_evaluate_int(kids.items[0], &n->value);
    n->kids[0] = kids.len ? fe_conv_stmt(b, kids.items[kids.len - 1]) : NULL;
    break;
  case CXCursor_ReturnStmt:
    n = conv_return(b, c, &kids);
    break;
  case CXCursor_BreakStmt:
    n = fe_new_node(b, GM_N_BREAK, c, 0);
    break;
  case CXCursor_ContinueStmt:
    n = fe_new_node(b, GM_N_CONTINUE, c, 0);
    break;
  case CXCursor_GotoStmt:
    n = fe_new_node(b, GM_N_GOTO, c, 0);
    n->name = fe_arena_cxstring(b, clang_getCursorSpelling(clang_getCursorReferenced(c)));
    break;
  case CXCursor_LabelStmt:
    n = fe_new_node(b, GM_N_LABEL, c, 1);
    n->name = fe_arena_cxstring(b, clang_getCursorSpelling(c));
    n->kids[0] = kids.len ? fe_conv_stmt(b, kids.items[kids.len - 1]) : NULL;
    break;
  case CXCursor_CXXTryStmt:
    n = fe_new_node(b, GM_N_TRY, c, (int)kids.len);
    for (size_t i = 0; i < kids.len; i++) {
      CXCursor k = kids.items[i];
      if (clang_getCursorKind(k) == CXCursor_CXXCatchStmt) {
        cursor_vec hk = fe_children_of(k);
        n->kids[i] = hk.len ? fe_conv_stmt(b, hk.items[hk.len - 1]) : NULL;
        GM_VEC_FREE(hk);
      } else {
        n->kids[i] = fe_conv_stmt(b, k);
      }
    }
    break;
  case CXCursor_NullStmt:
  case CXCursor_AsmStmt:
  case CXCursor_MSAsmStmt:
    n = fe_new_node(b, GM_N_NOP, c, 0);
    break;
  case CXCursor_IndirectGotoStmt:
    n = fe_new_node(b, GM_N_THROW, c, 0); /* ends the path as far as the model can tell */
    break;
  default:
    if (clang_isExpression(k))
      n = fe_conv_expr(b, c);
    else if (clang_isDeclaration(k))
      n = fe_new_node(b, GM_N_NOP, c, 0);
    else
      n = conv_seq(b, c, &kids, 0);
    break;
  }
  GM_VEC_FREE(kids);
  return n;
}
