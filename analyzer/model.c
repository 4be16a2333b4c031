#include "model.h"

static const char *const kind_names[] = {
    [GM_N_SEQ] = "seq",
    [GM_N_IF] = "if",
    [GM_N_LOOP] = "loop",
    [GM_N_SWITCH] = "switch",
    [GM_N_CASE] = "case",
    [GM_N_RETURN] = "return",
    [GM_N_BREAK] = "break",
    [GM_N_CONTINUE] = "continue",
    [GM_N_GOTO] = "goto",
    [GM_N_LABEL] = "label",
    [GM_N_THROW] = "throw",
    [GM_N_DECL] = "decl",
    [GM_N_TRY] = "try",
    [GM_N_NOP] = "nop",
    [GM_N_CALL] = "call",
    [GM_N_ASSIGN] = "assign",
    [GM_N_VAR] = "var",
    [GM_N_FIELD] = "field",
    [GM_N_DEREF] = "deref",
    [GM_N_INDEX] = "index",
    [GM_N_ADDR] = "addr",
    [GM_N_NULL] = "null",
    [GM_N_CONST] = "const",
    [GM_N_ARITH] = "arith",
    [GM_N_INCDEC] = "incdec",
    [GM_N_LAND] = "and",
    [GM_N_LOR] = "or",
    [GM_N_NOT] = "not",
    [GM_N_CMP] = "cmp",
    [GM_N_COND] = "cond",
    [GM_N_COMMA] = "comma",
    [GM_N_LAMBDA] = "lambda",
    [GM_N_AGGREGATE] = "aggregate",
    [GM_N_OTHER] = "other",
};

const char *gm_node_kind_name(enum gm_node_kind k) {
  return kind_names[k];
}

static void dump(const gm_func *fn, const gm_node *n, int depth, FILE *out) {
  if (!n) {
    fprintf(out, "%*s-\n", depth * 2, "");
    return;
  }
  fprintf(out, "%*s%s", depth * 2, "", kind_names[n->kind]);
  if (n->name)
    fprintf(out, " '%s'", n->name);
  if (n->var >= 0 && n->var < fn->nvars)
    fprintf(out, " var=%s", fn->vars[n->var].name);
  if (n->op)
    fprintf(out, " op=%d", n->op);
  if (n->fn)
    fprintf(out, " [%s]", n->fn->family ? n->fn->family->name : "table");
  if (n->is_launch)
    fprintf(out, " launch");
  if (n->noreturn)
    fprintf(out, " noreturn");
  fprintf(out, " @%u:%u\n", n->loc.line, n->loc.col);
  for (int i = 0; i < n->nkids; i++)
    dump(fn, n->kids[i], depth + 1, out);
}

void gm_model_dump(const gm_func *fn, FILE *out) {
  fprintf(out, "function %s%s @%s:%u\n", fn->name, fn->is_kernel ? " (kernel)" : "",
          fn->loc.file ? fn->loc.file : "?", fn->loc.line);
  static const char *const var_kinds[] = {"local", "param", "global", "ref"};
  for (int i = 0; i < fn->nvars; i++)
    fprintf(out, "  var %s: %s%s\n", fn->vars[i].name, var_kinds[fn->vars[i].kind],
            fn->vars[i].is_pointer ? " pointer" : "");
  dump(fn, fn->body, 1, out);
}
