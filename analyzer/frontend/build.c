/* The builder's basics, used by every part of the front end: a cursor's children, clang's strings
 * and locations kept in the arena, new nodes, the variables of the function being built. */
#include "frontend/build.h"

#include <stdlib.h>
#include <string.h>

static enum CXChildVisitResult collect_visitor(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  cursor_vec *v = data;
  GM_PUSH(*v, c);
  return CXChildVisit_Continue;
}

cursor_vec fe_children_of(CXCursor c) {
  cursor_vec v = {0};
  clang_visitChildren(c, collect_visitor, &v);
  return v;
}

const char *fe_arena_cxstring(builder *b, CXString s) {
  const char *c = clang_getCString(s);
  const char *r = gm_arena_strdup(b->arena, c ? c : "");
  clang_disposeString(s);
  return r;
}

gm_loc fe_loc_of_location(builder *b, CXSourceLocation l) {
  gm_loc loc = {0};
  CXFile file;
  clang_getExpansionLocation(l, &file, &loc.line, &loc.col, NULL);
  if (file) {
    if (!b->last_file || !clang_File_isEqual(file, b->last_file)) {
      b->last_file = file;
      b->last_file_name = fe_arena_cxstring(b, clang_getFileName(file));
    }
    loc.file = b->last_file_name;
  }
  return loc;
}

gm_loc fe_loc_of(builder *b, CXCursor c) {
  return fe_loc_of_location(b, clang_getCursorLocation(c));
}

gm_node *fe_new_node(builder *b, enum gm_node_kind kind, CXCursor c, int nkids) {
  gm_node *n = gm_arena_alloc(b->arena, sizeof *n);
  n->kind = kind;
  n->loc = fe_loc_of(b, c);
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

int fe_is_function_kind(enum CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
         k == CXCursor_Destructor || k == CXCursor_FunctionTemplate ||
         k == CXCursor_ConversionFunction || k == CXCursor_LambdaExpr;
}

static int is_reference_type(CXType t) {
  return t.kind == CXType_LValueReference || t.kind == CXType_RValueReference;
}

/* __constant__ and __shared__ variables carry the device attribute too in some headers: the
 * narrower space wins. */
static unsigned var_space(CXCursor decl) {
  cursor_vec kids = fe_children_of(decl);
  unsigned space = GM_SPACE_HOST;
  for (size_t i = 0; i < kids.len; i++) {
    enum CXCursorKind k = clang_getCursorKind(kids.items[i]);
    if (k == CXCursor_CUDAConstantAttr)
      space = GM_SPACE_CONSTANT;
    else if (k == CXCursor_CUDASharedAttr)
      space = GM_SPACE_SHARED;
    else if (k == CXCursor_CUDADeviceAttr && space == GM_SPACE_HOST)
      space = GM_SPACE_DEVICE;
  }
  GM_VEC_FREE(kids);
  return space;
}

/* Where decl's variable is in the table, or the free entry where it goes. */
static size_t var_table_slot(const builder *b, unsigned h, CXCursor decl) {
  size_t mask = b->var_table_cap - 1, k = (size_t)gm_hash64(&h, sizeof h, 0) & mask;
  for (int i; (i = b->var_table[k]) >= 0; k = (k + 1) & mask)
    if (b->vars.items[i].hash == h && clang_equalCursors(b->var_decls.items[i], decl))
      break;
  return k;
}

/* Sizes the table for vars.len + 1 entries at half load and enters vars.items[0, len). */
static void var_table_rebuild(builder *b) {
  size_t cap = 16;
  while (cap < 2 * (b->vars.len + 1))
    cap *= 2;
  if (cap != b->var_table_cap) {
    free(b->var_table);
    b->var_table = gm_xmalloc(sizeof(int) * cap);
    b->var_table_cap = cap;
  }
  for (size_t k = 0; k < cap; k++)
    b->var_table[k] = -1;
  for (size_t i = 0; i < b->vars.len; i++)
    b->var_table[var_table_slot(b, b->vars.items[i].hash, b->var_decls.items[i])] = (int)i;
  b->var_table_len = b->vars.len;
  b->var_table_for = b->vars.items;
}

int fe_var_index(builder *b, CXCursor decl) {
  unsigned h = clang_hashCursor(decl);
  if (b->var_table_for != b->vars.items || b->var_table_len != b->vars.len ||
      2 * (b->vars.len + 1) > b->var_table_cap)
    var_table_rebuild(b);
  size_t slot = var_table_slot(b, h, decl);
  if (b->var_table[slot] >= 0)
    return b->var_table[slot];
  gm_var v = {0};
  v.name = fe_arena_cxstring(b, clang_getCursorSpelling(decl));
  v.hash = h;
  v.param_index = -1;
  CXType t = clang_getCursorType(decl);
  CXType ct = clang_getCanonicalType(t);
  if (ct.kind == CXType_LValueReference || ct.kind == CXType_RValueReference)
    ct = clang_getCanonicalType(clang_getPointeeType(ct)); /* `T *&p` holds a pointer too */
  v.is_pointer = ct.kind == CXType_Pointer;
  v.is_pointer_to_pointer =
      v.is_pointer && clang_getCanonicalType(clang_getPointeeType(ct)).kind == CXType_Pointer;
  v.reads_only = clang_getCursorKind(decl) == CXCursor_ParmDecl && fe_reads_only_type(t);
  v.is_handle = v.is_pointer;
  if (!v.is_handle) {
    CXString ts = clang_getTypeSpelling(t);
    const char *tn = clang_getCString(ts);
    v.is_handle = strstr(tn, "CUdeviceptr") || strstr(tn, "CUmemGenericAllocationHandle") ||
                  strstr(tn, "CUarray") || strstr(tn, "cudaMemPool_t");
    clang_disposeString(ts);
  }
  v.is_array = clang_getCursorKind(decl) != CXCursor_ParmDecl &&
               (ct.kind == CXType_ConstantArray || ct.kind == CXType_IncompleteArray ||
                ct.kind == CXType_VariableArray || ct.kind == CXType_DependentSizedArray);
  v.space = var_space(decl);
  if (clang_getCursorKind(decl) == CXCursor_ParmDecl) {
    v.kind = is_reference_type(t) ? GM_VAR_REF : GM_VAR_PARAM;
  } else if (clang_Cursor_hasVarDeclGlobalStorage(decl) == 1 ||
             !fe_is_function_kind(clang_getCursorKind(clang_getCursorSemanticParent(decl)))) {
    v.kind = GM_VAR_GLOBAL;
    v.usr = fe_arena_cxstring(b, clang_getCursorUSR(decl));
    v.internal = clang_getCursorLinkage(decl) != CXLinkage_External;
    v.defined_here = !clang_Cursor_isNull(clang_getCursorDefinition(decl));
  } else {
    v.kind = is_reference_type(t) ? GM_VAR_REF : GM_VAR_LOCAL;
  }
  GM_PUSH(b->vars, v);
  GM_PUSH(b->var_decls, decl);
  b->var_table[slot] = (int)b->vars.len - 1;
  b->var_table_len = b->vars.len;
  b->var_table_for = b->vars.items;
  return (int)b->vars.len - 1;
}

int fe_has_child_attr(CXCursor decl, enum CXCursorKind attr) {
  cursor_vec kids = fe_children_of(decl);
  int found = 0;
  for (size_t i = 0; i < kids.len && !found; i++)
    found = clang_getCursorKind(kids.items[i]) == attr;
  GM_VEC_FREE(kids);
  return found;
}
