/* Teardown coverage (teardown.h): how a release function's frees of a member cover its paths,
 * and the objects a program destroys while it runs. */
#include "program/teardown.h"

#include <string.h>

struct cover {
  int element;
  gm_member_match match;
  void *arg;
};

static int frees_member(const struct cover *c, const gm_node *n) {
  return n->kind == GM_N_CALL && n->fn && n->fn->kind == GM_FN_FREE &&
         c->match(gm_arg(n, n->fn->ptr_arg), c->element, c->arg);
}

/* Whether the condition reads the member (or one of its elements): a null check. */
static int mentions(const struct cover *c, const gm_node *n) {
  if (!n)
    return 0;
  if (c->match(n, 0, c->arg) || c->match(n, 1, c->arg))
    return 1;
  for (int i = 0; i < n->nkids; i++)
    if (mentions(c, n->kids[i]))
      return 1;
  return 0;
}

static int covers(const struct cover *c, const gm_node *n);

/* How a statement of a switch's body ends the path entered at a case before it. */
enum step { STEP_ON, STEP_FREES, STEP_LEAVES };

static enum step step(const struct cover *c, const gm_node *s) {
  if (!s)
    return STEP_ON;
  if (covers(c, s))
    return STEP_FREES;
  switch (s->kind) {
  case GM_N_CASE:
    return step(c, gm_kid(s, 0));
  case GM_N_BREAK:
  case GM_N_RETURN:
  case GM_N_CONTINUE:
  case GM_N_GOTO:
  case GM_N_THROW:
    return STEP_LEAVES;
  case GM_N_SEQ:
    for (int i = 0; i < s->nkids; i++) {
      enum step r = step(c, s->kids[i]);
      if (r != STEP_ON)
        return r;
    }
    return STEP_ON;
  default:
    return STEP_ON; /* a branch that may break is let through: prefer silence */
  }
}

/* Whether every case of a switch's body, entered at its label, frees the member before it
 * leaves the switch. */
static int switch_covers(const struct cover *c, const gm_node *body) {
  if (!body)
    return 0;
  const gm_node *const *items = (const gm_node *const *)body->kids;
  int n = body->nkids;
  if (body->kind != GM_N_SEQ) {
    items = (const gm_node *const *)&body;
    n = 1;
  }
  int entries = 0;
  for (int i = 0; i < n; i++) {
    if (!items[i] || items[i]->kind != GM_N_CASE)
      continue;
    entries++;
    enum step r = STEP_ON;
    for (int j = i; j < n && r == STEP_ON; j++)
      r = step(c, items[j]);
    if (r != STEP_FREES)
      return 0; /* leaves, or falls out of the switch, without freeing it */
  }
  return entries > 0;
}

/* Whether every path through n (early returns aside) frees the member. */
static int covers(const struct cover *c, const gm_node *n) {
  if (!n)
    return 0;
  if (frees_member(c, n))
    return 1;
  switch (n->kind) {
  case GM_N_IF:
  case GM_N_COND:
    if (covers(c, gm_kid(n, 0)))
      return 1;
    if (mentions(c, gm_kid(n, 0)))
      return covers(c, gm_kid(n, 1)) || covers(c, gm_kid(n, 2));
    return covers(c, gm_kid(n, 1)) && covers(c, gm_kid(n, 2));
  case GM_N_LAND:
  case GM_N_LOR:
  case GM_N_TRY:
    return covers(c, gm_kid(n, 0));
  case GM_N_SWITCH:
    return covers(c, gm_kid(n, 0)) || switch_covers(c, gm_kid(n, 1));
  case GM_N_LAMBDA:
    return 0;
  default:
    for (int i = 0; i < n->nkids; i++)
      if (covers(c, n->kids[i]))
        return 1;
    return 0;
  }
}

enum gm_free_cover gm_free_coverage(const gm_node *body, const gm_node *free_call, int element,
                                    gm_member_match match, void *arg) {
  struct cover c = {element, match, arg};
  if (covers(&c, body))
    return GM_FREE_EVERY_PATH;
  for (const gm_node *kid = free_call, *up = free_call->parent; up && kid != body;
       kid = up, up = up->parent) {
    if (up->kids[0] == kid)
      continue;
    if (up->kind == GM_N_SWITCH)
      return GM_FREE_SOME_CASES;
    if ((up->kind == GM_N_IF || up->kind == GM_N_COND || up->kind == GM_N_LAND ||
         up->kind == GM_N_LOR) &&
        !mentions(&c, up->kids[0]))
      return GM_FREE_SOME_BRANCHES;
  }
  return GM_FREE_EVERY_PATH; /* in a lambda, a handler: not judged */
}

int gm_on_every_call(const gm_node *n, const gm_node *body) {
  for (const gm_node *kid = n, *up = n->parent; up && kid != body; kid = up, up = up->parent) {
    switch (up->kind) {
    case GM_N_LAMBDA:
      return 0;
    case GM_N_IF:
    case GM_N_COND:
    case GM_N_SWITCH:
    case GM_N_LAND:
    case GM_N_LOR:
    case GM_N_TRY:
      if (up->kids[0] != kid)
        return 0;
      break;
    default:
      break;
    }
  }
  return 1;
}

struct object_uses {
  int var;
  int handed; /* copied, returned, passed or its address taken */
};

/* Whether a read of the object gives it away: anything but a member access or a method call
 * on it (which the model keeps as the call's object, not among its arguments). */
static void find_object_handed(const gm_node *n, void *arg) {
  struct object_uses *c = arg;
  for (int i = 0; i < n->nkids; i++) {
    const gm_node *k = n->kids[i];
    if (!k || k->kind != GM_N_VAR || k->var != c->var)
      continue;
    if (n->kind != GM_N_FIELD && n->kind != GM_N_CMP && !(n->kind == GM_N_CALL && n->implicit_dtor))
      c->handed = 1;
  }
}

/* A class's constructor: its USR is the class's, then `@F@` and the class's own name. */
static int constructor_record(const gm_node *call, size_t *len) {
  const char *usr = call->callee_usr, *at = usr ? strstr(usr, "@F@") : NULL;
  if (!call->is_method || !at || at == usr || !call->name)
    return 0;
  const char *own = at;
  while (own > usr && own[-1] != '@')
    own--;
  size_t n = strlen(call->name);
  if ((size_t)(at - own) != n || strncmp(own, call->name, n) != 0 ||
      strncmp(at + 3, call->name, n) != 0 || (at[3 + n] != '#' && at[3 + n] != '\0'))
    return 0;
  *len = (size_t)(at - usr);
  return 1;
}

int gm_dying_object(const gm_func *fn, const gm_node *decl, size_t *record_len, int *in_loop) {
  if (decl->kind != GM_N_DECL || decl->var < 0 || fn->vars[decl->var].kind != GM_VAR_LOCAL)
    return 0;
  const gm_node *init = gm_kid(decl, 0);
  if (!init || init->kind != GM_N_CALL || !constructor_record(init, record_len))
    return 0;
  *in_loop = 0;
  for (const gm_node *up = decl->parent; up && !*in_loop; up = up->parent)
    *in_loop = up->kind == GM_N_LOOP && gm_loop_repeats(up);
  if (!*in_loop && fn->name && strcmp(fn->name, "main") == 0)
    return 0; /* main's objects live as long as the process */
  struct object_uses c = {decl->var, 0};
  gm_walk(fn->body, find_object_handed, &c);
  return !c.handed;
}
