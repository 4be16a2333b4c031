/* Retry loops (patterns.h, gm_retry_loop): a loop that goes round again only after an
 * allocation failed makes it succeed once. Which way the status test goes decides it: the loop's
 * condition holds only on a failure, or the branch a success takes leaves the loop. */
#include "model/patterns.h"

/* The innermost loop or switch around n: where a `break` in n goes. */
static const gm_node *break_target(const gm_node *n) {
  for (const gm_node *p = n->parent; p; p = p->parent)
    if (p->kind == GM_N_LOOP || p->kind == GM_N_SWITCH)
      return p;
  return NULL;
}

/* Whether every path through statement n leaves `loop`: a return, a throw, a goto, a call that
 * does not return, or a break out of `loop` itself. */
static int leaves_loop(const gm_node *n, const gm_node *loop) {
  if (!n)
    return 0;
  switch (n->kind) {
  case GM_N_RETURN:
  case GM_N_THROW:
  case GM_N_GOTO:
    return 1;
  case GM_N_BREAK:
    return break_target(n) == loop;
  case GM_N_CALL:
    return n->noreturn;
  case GM_N_SEQ:
    for (int i = 0; i < n->nkids; i++) {
      if (leaves_loop(n->kids[i], loop))
        return 1;
      if (gm_skips_rest(n->kids[i], 0))
        return 0;
    }
    return 0;
  case GM_N_IF:
    return leaves_loop(n->kids[1], loop) && leaves_loop(n->kids[2], loop);
  default:
    return 0;
  }
}

static int reads_last_status(const gm_node *n) {
  n = gm_strip(n);
  if (n && n->kind == GM_N_ASSIGN) /* (err = cudaGetLastError()) != cudaSuccess */
    n = gm_strip(gm_kid(n, 1));
  return n && n->kind == GM_N_CALL && n->fn && n->fn->kind == GM_FN_LAST_ERROR;
}

static int is_gpu_allocation(const gm_node *n) {
  n = gm_strip(n);
  if (n && n->kind == GM_N_ASSIGN)
    n = gm_strip(gm_kid(n, 1));
  return n && n->kind == GM_N_CALL && n->fn &&
         (n->fn->kind == GM_FN_ALLOC || n->fn->kind == GM_FN_REALLOC) && n->fn->family &&
         n->fn->family->gpu;
}

struct status_var_search {
  int var;
  const gm_node *call; /* the call judged: its own status counts, allocation or helper */
  int statuses, writes;
};

/* What a loop writes into a status variable: `err = cudaMalloc(..)`, or `cudaMalloc(&a, n);
 * err = cudaGetLastError();` (statuses), against every write. */
static void find_status_var(const gm_node *n, void *arg) {
  struct status_var_search *s = arg;
  if (((n->kind == GM_N_ASSIGN || n->kind == GM_N_INCDEC || n->kind == GM_N_ADDR) &&
       gm_root_var(n->kids[0]) == s->var) ||
      (n->kind == GM_N_DECL && n->var == s->var))
    s->writes++;
  if (n->kind == GM_N_ASSIGN && !n->op && gm_strip(n->kids[0])->kind == GM_N_VAR &&
      gm_strip(n->kids[0])->var == s->var &&
      (is_gpu_allocation(n->kids[1]) || gm_strip(n->kids[1]) == s->call))
    s->statuses++;
  if (n->kind != GM_N_SEQ)
    return;
  for (int i = 1; i < n->nkids; i++) {
    const gm_node *k = n->kids[i];
    int assigned = k && k->kind == GM_N_DECL ? k->var
                   : k && k->kind == GM_N_ASSIGN && gm_strip(k->kids[0])->kind == GM_N_VAR
                       ? gm_strip(k->kids[0])->var
                       : -1;
    const gm_node *from = !k ? NULL : k->kind == GM_N_DECL ? gm_kid(k, 0) : gm_kid(k, 1);
    if (assigned == s->var && from && reads_last_status(from) && n->kids[i - 1] &&
        is_gpu_allocation(n->kids[i - 1]))
      s->statuses++;
  }
}

struct status_setter_search {
  const gm_node *except;
  int found;
};

static void find_status_setter(const gm_node *n, void *arg) {
  struct status_setter_search *s = arg;
  if (n != s->except && n->kind == GM_N_CALL && gm_may_set_runtime_status(n))
    s->found = 1;
}

/* Whether `call`, directly in `loop`'s body (no inner loop between), is the last call on its
 * way back to the loop's condition that may set the runtime's status: nothing after it in the
 * blocks it sits in, up to the body, calls the runtime, launches or calls unseen code. */
static int last_status_before_cond(const gm_node *loop, const gm_node *call) {
  for (const gm_node *kid = call, *p = call->parent; kid != loop; kid = p, p = p->parent) {
    if (!p || (p->kind == GM_N_LOOP && p != loop) || p->kind == GM_N_SWITCH)
      return 0;
    if (p == loop) {
      struct status_setter_search step = {call, 0}; /* a for loop's increment runs in between */
      if (loop->kids[2])
        gm_walk(loop->kids[2], find_status_setter, &step);
      return kid == loop->kids[3] && !step.found;
    }
    struct status_setter_search after = {call, 0};
    int past = 0;
    for (int i = 0; i < p->nkids && p->kind == GM_N_SEQ; i++) {
      if (past && p->kids[i])
        gm_walk(p->kids[i], find_status_setter, &after);
      past |= p->kids[i] == kid;
    }
    if (after.found)
      return 0;
  }
  return 0;
}

/* Whether a status tested in a loop condition is one an allocation of the loop set: the call
 * itself (`while (cudaMalloc(..) != cudaSuccess)`), the runtime's last status when `call` set
 * it, or a variable that the loop writes only with allocations' statuses. */
static int set_in_loop(const gm_node *status, const gm_node *loop, const gm_node *call) {
  status = gm_strip(status);
  const gm_node *value = status && status->kind == GM_N_ASSIGN ? gm_strip(status->kids[1]) : NULL;
  if (status == call || (value == call && value))
    return 1;
  if (reads_last_status(status))
    return last_status_before_cond(loop, call);
  if (status->kind == GM_N_ASSIGN)
    status = gm_strip(status->kids[0]); /* (err = step()) != cudaSuccess: no allocation's */
  if (!status || status->kind != GM_N_VAR || status->var < 0)
    return 0;
  struct status_var_search search = {status->var, call, 0, 0};
  for (int i = 1; i < 4; i++)
    gm_walk(gm_kid(loop, i), find_status_var, &search);
  return search.statuses && search.statuses == search.writes;
}

/* A status test: the status it reads (*status) and whether the test holding means it failed
 * (`s != cudaSuccess`, `!(s == cudaSuccess)`, the bare status: failed when true; for a call
 * returning bool, true is success). */
static int status_test(const gm_node *cond, const gm_node **status, int *failed_when_true) {
  int negated = 0;
  cond = gm_strip(cond);
  while (cond && cond->kind == GM_N_NOT) {
    negated = !negated;
    cond = gm_strip(gm_kid(cond, 0));
  }
  if (!cond)
    return 0;
  *status = cond;
  *failed_when_true = !negated;
  if (cond->kind == GM_N_CMP && (cond->op == '=' || cond->op == '!')) {
    const gm_node *a = gm_strip(cond->kids[0]), *b = gm_strip(cond->kids[1]);
    *status = gm_is_success_status(b) ? a : gm_is_success_status(a) ? b : NULL;
    *failed_when_true = (cond->op == '!') != negated;
    if (!*status && cond->op == '=' && !negated) { /* s == cudaErrorMemoryAllocation */
      *status = b->has_value && b->value && !a->has_value   ? a
                : a->has_value && a->value && !b->has_value ? b
                                                            : NULL;
      *failed_when_true = 1;
    }
    return *status != NULL;
  }
  const gm_node *call = cond->kind == GM_N_ASSIGN ? gm_strip(gm_kid(cond, 1)) : cond;
  if (call && call->kind == GM_N_CALL && call->returns_bool)
    *failed_when_true = negated;
  return 1;
}

/* Whether a loop condition, when it holds, says an allocation of this iteration failed (see
 * set_in_loop for which statuses count); `A && B` when either does, `A || B` when both do. */
static int continues_on_failure(const gm_node *cond, const gm_node *loop, const gm_node *call) {
  cond = gm_strip(cond);
  if (!cond)
    return 0;
  if (cond->kind == GM_N_LAND)
    return continues_on_failure(cond->kids[0], loop, call) ||
           continues_on_failure(cond->kids[1], loop, call);
  if (cond->kind == GM_N_LOR)
    return continues_on_failure(cond->kids[0], loop, call) &&
           continues_on_failure(cond->kids[1], loop, call);
  const gm_node *status;
  int failed_when_true;
  return status_test(cond, &status, &failed_when_true) && failed_when_true &&
         set_in_loop(status, loop, call);
}

/* The if that tests `call`'s status right where it is made, and the status it tests: the call
 * in the if's condition (`if (cudaMalloc(..) == cudaSuccess)`), or the variable it is stored in
 * tested by a later statement of the same block, with nothing between that writes the variable
 * or skips ahead (`e = cudaMalloc(..); if (e == cudaSuccess) break;`). */
static const gm_node *status_if(const gm_node *call, const gm_node *loop, const gm_node **status) {
  const gm_node *kid = call, *p = call->parent;
  while (p && (p->kind == GM_N_OTHER || p->kind == GM_N_NOT || p->kind == GM_N_CMP ||
               (p->kind == GM_N_ASSIGN && p->kids[1] == kid))) {
    kid = p;
    p = p->parent;
  }
  if (p && p->kind == GM_N_IF && p->kids[0] == kid) {
    *status = call;
    return p;
  }
  int var = kid->kind == GM_N_ASSIGN && gm_strip(kid->kids[0])->kind == GM_N_VAR
                ? gm_strip(kid->kids[0])->var
            : p && p->kind == GM_N_DECL ? p->var
                                        : -1;
  if (p && p->kind == GM_N_DECL)
    kid = p, p = p->parent;
  if (p && p->kind == GM_N_SEQ && p->nkids == 1 && p->parent && p->parent->kind == GM_N_SEQ)
    kid = p, p = p->parent; /* a declaration's own block */
  if (var < 0 || !p || p->kind != GM_N_SEQ)
    return NULL;
  int past = 0;
  for (int i = 0; i < p->nkids; i++) {
    const gm_node *s = p->kids[i];
    if (!past) {
      past = s == kid;
      continue;
    }
    if (!s)
      continue;
    if (s->kind == GM_N_IF && gm_mentions_var(s->kids[0], var)) {
      const gm_node *tested;
      int failed;
      if (!status_test(s->kids[0], &tested, &failed) || tested->kind != GM_N_VAR ||
          tested->var != var)
        return NULL;
      *status = tested;
      return s;
    }
    struct status_var_search w = {var, NULL, 0, 0};
    gm_walk(s, find_status_var, &w);
    if (w.writes || gm_skips_rest(s, 0) || leaves_loop(s, loop) || s->kind == GM_N_LOOP)
      return NULL;
  }
  return NULL;
}

/* `do { e = cudaMalloc(&d, n); if (e == cudaSuccess) break; n /= 2; } while (n >= 4096);`: the
 * branch the allocation's success takes leaves the loop, so another round follows only a
 * failure. */
static int success_leaves(const gm_node *loop, const gm_node *call) {
  const gm_node *status;
  const gm_node *s = status_if(call, loop, &status);
  const gm_node *tested;
  int failed_when_true;
  if (!s || !status_test(s->kids[0], &tested, &failed_when_true))
    return 0;
  return leaves_loop(failed_when_true ? s->kids[2] : s->kids[1], loop);
}

gm_exemption gm_retry_loop(const gm_node *loop, const gm_node *call) {
  /* while (cudaMalloc(&p, n) != cudaSuccess) n /= 2;, or cudaMalloc(&p, n); while
   * (cudaGetLastError() != cudaSuccess) { n /= 2; cudaMalloc(&p, n); }: the loop goes round
   * again only when the allocation failed, so it succeeds at most once */
  if (loop->kids[1] && continues_on_failure(loop->kids[1], loop, call))
    return GM_EXEMPT_RETRY_CONDITION;
  if (success_leaves(loop, call))
    return GM_EXEMPT_RETRY_SUCCESS_LEAVES;
  return GM_EXEMPT_NONE;
}
