/* Local aggregates: a struct on the stack filled in for a call (`Desc desc; desc.data = d_buf;
 * libRun(&desc);`). A pointer stored into one of its members is still the function's own while
 * the struct stays in the function, and gets away with it only when the struct does: handed by
 * address or by value to a call that may keep it, or made the object of a member function. A
 * struct used any other way (copied, returned, its address or a member's address stored, an
 * element of an array, captured) is not followed: a store into it is an escape, as before. */
#include "flow/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether n, a use of a variable, is one the engine follows for a local aggregate: a member
 * access (read or written), an argument of a call (the struct, its address, a member's address),
 * or the object of a member function. */
static int followed_use(const gm_node *n) {
  const gm_node *top = n;
  while (top->parent && top->parent->kind == GM_N_FIELD && top->parent->kids[0] == top)
    top = top->parent;
  const gm_node *up = top->parent;
  if (up && up->kind == GM_N_ADDR)
    return up->parent && up->parent->kind == GM_N_CALL;
  if (top != n)
    return 1; /* desc.data read or written */
  return up && up->kind == GM_N_CALL;
}

static void mark_unfollowed(const gm_node *n, void *arg) {
  engine *e = arg;
  if (n->kind == GM_N_VAR && n->var >= 0 && n->var < e->fn->nvars && !followed_use(n))
    e->aggregate[n->var] = 0;
}

void flow_find_local_aggregates(engine *e) {
  for (int v = 0; v < e->fn->nvars; v++) {
    const gm_var *var = &e->fn->vars[v];
    e->aggregate[v] = var->kind == GM_VAR_LOCAL && !var->is_pointer && !var->is_handle;
  }
  gm_walk(e->fn->body, mark_unfollowed, e);
}

int flow_aggregate_root(const engine *e, const gm_node *lv) {
  if (!lv || lv->kind != GM_N_FIELD)
    return -1;
  while (lv && lv->kind == GM_N_FIELD)
    lv = gm_kid(lv, 0);
  return lv && lv->kind == GM_N_VAR && e->aggregate[lv->var] ? lv->var : -1;
}

/* The local aggregate a member slot ("v3.data", "v3.in.p") belongs to, or -1. */
static int slot_aggregate(const engine *e, int slot) {
  if (slot < e->fn->nvars)
    return -1;
  int var, len = 0;
  const char *t = e->paths.items[slot - e->fn->nvars];
  if (sscanf(t, "v%d%n", &var, &len) != 1 || t[len] != '.' || var < 0 || var >= e->fn->nvars)
    return -1;
  return e->aggregate[var] ? var : -1;
}

const char *flow_aggregate_member_name(engine *e, int slot) {
  int var = slot_aggregate(e, slot);
  if (var < 0)
    return NULL;
  const char *t = strchr(e->paths.items[slot - e->fn->nvars], '.');
  char *name = gm_xasprintf("%s%s", e->fn->vars[var].name, t);
  const char *kept = gm_arena_strdup(e->tu->arena, name);
  free(name);
  return kept;
}

int flow_aggregate_exposed(const engine *e, const state *s, int slot) {
  int var = slot_aggregate(e, slot);
  return var >= 0 && var < s->nslots && s->exposed[var];
}

/* The struct (or a member struct) that a call argument hands over, as a path, or NULL: the
 * struct by value, or its address or a member's. A member passed by value is a pointer the
 * call's own rules follow, or a member struct, whose members are paths under it. */
static char *handed_path(engine *e, const gm_node *arg) {
  if (arg && arg->kind == GM_N_ADDR)
    arg = gm_kid(arg, 0);
  if (!arg || (arg->kind != GM_N_VAR && flow_aggregate_root(e, arg) < 0))
    return NULL;
  if (arg->kind == GM_N_VAR && !e->aggregate[arg->var])
    return NULL;
  return flow_path_text(e, arg);
}

void flow_escape_aggregate(engine *e, state *s, const gm_node *arg) {
  char *path = handed_path(e, arg);
  if (!path)
    return;
  size_t len = strlen(path);
  for (size_t i = 0; i < e->paths.len; i++) {
    int slot = e->fn->nvars + (int)i;
    const char *t = e->paths.items[i];
    if (slot < s->nslots && strncmp(t, path, len) == 0 && t[len] == '.')
      flow_escape_val(s, s->slots[slot]);
  }
  free(path);
  if (arg->kind == GM_N_ADDR) {
    /* it has the address: what is stored into the struct from now on goes with it */
    int var = gm_root_var(arg);
    flow_slot_set_raw(s, var, slot_get(s, var));
    s->exposed[var] = 1;
  }
}

/* Calls that say what they do with every argument keep no struct handed to them: the table's
 * rows (but for a sink's own argument), the toolkit's and libc's functions, kernel launches.
 * A same-file helper's summary follows its parameters, not the members of what they point at,
 * and an unknown callee may keep anything. */
void flow_call_hands_over(engine *e, state *s, const gm_node *call) {
  const gm_fn *row = call->fn;
  for (int i = 0; i < call->nkids; i++) {
    int kept = row ? row->kind == GM_FN_SINK && (row->ptr_arg == GM_ARG_NONE || row->ptr_arg == i)
                   : !call->is_launch && !gm_call_borrows(call);
    if (kept)
      flow_escape_aggregate(e, s, call->kids[i]);
  }
  if (call->object)
    flow_escape_aggregate(e, s, call->object); /* desc.run(): a member function may keep them */
}
