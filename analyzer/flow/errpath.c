/* Which paths are error paths: a test that finds a call failed (a fallible call's null or
 * negative result, an allocation's status read back through cudaGetLastError() or compared with
 * success inside an assertion's helper), and the status a process exit ends the program with. Leaks
 * only on such paths are reported as error-path leaks, or not at all where the failure means
 * nothing was allocated. */
#include "flow/engine.h"

#include <string.h>

/* ---- the runtime's last status (cudaGetLastError) ---- */

/* At most one object holds the runtime's last status, and status_obj names it: forgetting it
 * and reading it back touch that object alone, however many the state holds. */
void flow_forget_last_status(state *s) {
  if (s->status_obj >= 0 && s->status_obj < s->nobjs)
    s->objs[s->status_obj].last_status = 0;
  s->status_obj = -1;
}

/* The status an allocation returned is now the runtime's last one. */
void flow_set_last_status(state *s, int id) {
  flow_forget_last_status(s);
  s->objs[id].last_status = 1;
  s->status_obj = id;
}

/* cudaGetLastError() right after an allocation: that allocation's status (read once). */
val flow_read_last_status(state *s) {
  int id = s->status_obj;
  if (id < 0 || id >= s->nobjs || !s->objs[id].last_status)
    return mk(V_UNKNOWN, 0);
  flow_forget_last_status(s);
  return mk(V_RESULT, id);
}

/* What a call that is no allocation returns, from what it is given: an allocation's status
 * with the success constant (`compare_eq(cudaMalloc(&p, n), cudaSuccess)`, an assertion
 * macro's helper) is that status compared equal to success; another runtime call's status with
 * it (gtest's `ASSERT_EQ(cudaMemset(d, 0, n), cudaSuccess)`) is a success test of no object,
 * V_OK with no ref, whose false way is an error path; a status's truth and constants only
 * (`make_result(err == cudaSuccess)`) is that truth, carried on. */
val flow_status_comparison(const gm_node *call, const val *args) {
  int status = -1, truth = -1, call_status = -1, success = 0, others = 0;
  for (int i = 0; i < call->nkids; i++) {
    const gm_node *k = call->kids[i];
    const gm_node *inner = gm_strip(k);
    if (gm_is_success_status(k))
      success = 1;
    else if (args[i].kind == V_RESULT)
      status = status == -1 ? i : -2;
    else if (args[i].kind == V_OK)
      truth = truth == -1 ? i : -2;
    else if (args[i].kind == V_UNKNOWN && inner && inner->kind == GM_N_CALL && inner->sets_status)
      call_status = call_status == -1 ? i : -2;
    else if (k->kind != GM_N_CONST && !k->has_value)
      others++;
  }
  if (status >= 0 && truth == -1 && success)
    return mk(V_OK, args[status].ref);
  if (call_status >= 0 && status == -1 && truth == -1 && success && !others)
    return mk(V_OK, -1);
  if (truth >= 0 && status == -1 && !success && !others)
    return args[truth];
  return mk(V_UNKNOWN, 0);
}

/* ---- tests of a call's failure ---- */

/* `fd < 0`, `fd == -1`, `0 > fd` with fd from a fallible call: 1 when the true branch is the
 * failure's, 0 when the false one is, -1 when the test says nothing of failure. */
static int handle_fails_when(const gm_node *c, val va, val vb) {
  const gm_node *a = c->kids[0], *b = c->kids[1];
  int left = va.kind == V_HANDLE && b->has_value, right = vb.kind == V_HANDLE && a->has_value;
  if (!left && !right)
    return -1;
  long long k = left ? b->value : a->value;
  const char *op = c->op == '=' ? "==" : c->op == '!' ? "!=" : c->name ? c->name : "";
  if (right) /* `0 > fd` is `fd < 0` */
    op = strcmp(op, "<") == 0    ? ">"
         : strcmp(op, ">") == 0  ? "<"
         : strcmp(op, "<=") == 0 ? ">="
         : strcmp(op, ">=") == 0 ? "<="
                                 : op;
  if ((strcmp(op, "==") == 0 && k < 0) || (strcmp(op, "<") == 0 && k <= 0) ||
      (strcmp(op, "<=") == 0 && k < 0))
    return 1;
  if ((strcmp(op, "!=") == 0 && k < 0) || (strcmp(op, ">=") == 0 && k == 0) ||
      (strcmp(op, ">") == 0 && k == -1))
    return 0;
  return -1;
}

/* Splits on a test of a fallible call's result; the failure's branch is an error path. */
void flow_split_marking_failure(engine *e, state *s, const gm_node *c, int fails_when_true,
                                state_list *t, state_list *f) {
  state_list yes = {0}, no = {0};
  flow_split_unknown(e, s, c, &yes, &no);
  state_list *failed = fails_when_true ? &yes : &no;
  for (size_t i = 0; i < failed->len; i++)
    failed->items[i]->error_path = 1;
  flow_list_move_all(e, t, &yes);
  flow_list_move_all(e, f, &no);
}

/* `if (const Result r = check(...))`: the condition is the declared variable, converted by its
 * `operator bool` (a call the model gives no object). */
const gm_node *flow_condition_variable(const gm_node *c) {
  if (c->nkids != 2 || !c->kids[0] || c->kids[0]->kind != GM_N_DECL || !c->kids[1])
    return NULL;
  const gm_node *conv = c->kids[1];
  if (conv->kind != GM_N_CALL || conv->nkids || !conv->is_method || !conv->name ||
      strcmp(conv->name, "operator bool") != 0)
    return NULL;
  return c->kids[0];
}

int flow_split_on_failure_test(engine *e, state *s, const gm_node *c, val va, val vb, state_list *t,
                               state_list *f) {
  int fails = handle_fails_when(c, va, vb);
  if (fails < 0)
    return 0;
  flow_split_marking_failure(e, s, c, fails, t, f);
  return 1;
}

/* ---- the exit status ---- */

/* `exit(status)` in any function: the program ends as returning from main with that status ends
 * it. abort() and failed assertions crash it instead: nothing is checked there. */
static const gm_node *process_exit_status(const engine *e, const gm_node *call) {
  if (e->summary_mode || !call->name)
    return NULL;
  if (strcmp(call->name, "exit") != 0 && strcmp(call->name, "_exit") != 0 &&
      strcmp(call->name, "_Exit") != 0 && strcmp(call->name, "quick_exit") != 0)
    return NULL;
  return gm_arg(call, 0);
}

/* 1: the status says success (0, EXIT_SUCCESS); 0: failure (another constant); -1: unknown */
static int exit_status_succeeds(const gm_node *status) {
  if (status && status->kind == GM_N_NULL)
    return 1;
  if (status && status->has_value)
    return status->value == 0;
  return -1;
}

/* `exit(status)`, on each path by the status's value there: `exit(ok ? EXIT_SUCCESS :
 * EXIT_FAILURE)` is exit(0) where ok holds and exit(1) elsewhere. An arm's paths follow the
 * condition's decisions when it can be evaluated again (it is pure: it was evaluated once already,
 * with the call's arguments); otherwise both arms may run. Leaks are checked where the status
 * says success: exit(1), or a status it cannot tell, ends a failed run as an abort does (on real
 * code nearly every such exit was a check macro's, with every buffer of the program still held). */
static void check_exit_status(engine *e, state *s, const gm_node *at, const gm_node *status) {
  if (status && status->kind == GM_N_COND && status->nkids == 3) {
    state_list t = {0}, f = {0};
    uint64_t deps = 0;
    if (flow_is_pure(status->kids[0], &deps, e)) {
      flow_cond_split(e, flow_state_copy(e, s), status->kids[0], &t, &f);
    } else {
      GM_PUSH(t, flow_state_copy(e, s));
      GM_PUSH(f, flow_state_copy(e, s));
    }
    for (size_t i = 0; i < t.len; i++)
      check_exit_status(e, t.items[i], at, status->kids[1]);
    for (size_t i = 0; i < f.len; i++)
      check_exit_status(e, f.items[i], at, status->kids[2]);
    flow_list_free(&t);
    flow_list_free(&f);
    return;
  }
  if (exit_status_succeeds(status) == 1)
    flow_check_exit(e, s, at, GM_EXIT_PROCESS);
}

void flow_check_process_exit(engine *e, state *s, const gm_node *call) {
  const gm_node *status = process_exit_status(e, call);
  if (status)
    check_exit_status(e, s, call, status);
}
