/* Statements: sequences, if, loops unrolled a few rounds, try, switch and case, return, break
 * and continue, goto and labels; each maps the states that enter it to the states that leave. */
#include "flow/engine.h"

#include <stdlib.h>
#include <string.h>

/* `for (i = 0; i < 4; i++)`: a counter set to a constant and compared with a constant that
 * lets it in, so the body runs at least once. */
static int counted_loop_enters(const gm_node *loop) {
  const gm_node *cond = gm_kid(loop, 1), *start;
  int var = gm_loop_init(loop, &start);
  if (var < 0 || !start || !start->has_value || !cond || cond->kind != GM_N_CMP || !cond->name)
    return 0;
  const gm_node *lhs = gm_kid(cond, 0), *rhs = gm_kid(cond, 1);
  if (!lhs || lhs->kind != GM_N_VAR || lhs->var != var || !rhs || !rhs->has_value)
    return 0;
  int truth;
  return flow_compare(cond->name, start->value, rhs->value, &truth) && truth;
}

static void exec_loop(engine *e, state_list *in, const gm_node *n, flow_out *out) {
  flow_out init = {0};
  flow_exec(e, in, gm_kid(n, 0), &init);
  flow_list_move_all(e, &out->brk, &init.brk); /* not expected in an init, kept for safety */
  flow_list_move_all(e, &out->cont, &init.cont);
  state_list cur = init.next;
  state_list exits = {0};
  state_list seen = {0};
  const gm_node *cond = gm_kid(n, 1);
  int enters = counted_loop_enters(n);
  flow_loop_begin(e, n, &cur); /* what the counter says about each iteration */
  for (int round = 0; round < LOOP_ROUNDS && cur.len; round++) {
    state_list t = {0};
    if ((n->op == GM_LOOP_DO || enters) && round == 0) {
      t = cur;
    } else {
      for (size_t i = 0; i < cur.len; i++)
        flow_loop_test(e, cur.items[i], round == 0, &t, &exits);
      GM_VEC_FREE(cur);
      if (n->op == GM_LOOP_RANGE && !cond) {
        /* a range loop may run no times at all */
        for (size_t i = 0; i < t.len; i++)
          flow_list_add(e, &exits, flow_state_copy(e, t.items[i]));
      }
    }
    memset(&cur, 0, sizeof cur);
    flow_out body = {0};
    flow_exec(e, &t, gm_kid(n, 3), &body);
    for (size_t i = 0; i < body.next.len; i++)
      body.next.items[i]->skipped_by = NULL; /* this iteration ran to its end */
    flow_list_move_all(e, &exits, &body.brk);
    flow_list_move_all(e, &body.next, &body.cont);
    flow_out inc = {0};
    e->stepping = &e->loops.items[e->loops.len - 1];
    flow_exec(e, &body.next, gm_kid(n, 2), &inc);
    e->stepping = NULL;
    flow_list_free(&inc.brk);
    flow_list_free(&inc.cont);
    /* states already seen at the loop head add nothing new */
    for (size_t i = 0; i < inc.next.len; i++) {
      state *s = inc.next.items[i];
      int dup = 0;
      for (size_t k = 0; k < seen.len && !dup; k++)
        dup = flow_state_equal_in_lists(e, seen.items[k], s);
      if (dup) {
        flow_state_free(s);
      } else {
        flow_list_add(e, &seen, flow_state_copy(e, s));
        flow_list_add(e, &cur, s);
      }
    }
    GM_VEC_FREE(inc.next);
  }
  /* states still looping after the last round leave when the condition fails */
  for (size_t i = 0; i < cur.len; i++) {
    if (cond) {
      state_list t = {0};
      flow_loop_test(e, cur.items[i], 0, &t, &exits);
      flow_list_free(&t);
    } else if (n->op == GM_LOOP_RANGE) {
      flow_list_add(e, &exits, cur.items[i]);
    } else {
      flow_state_free(cur.items[i]);
    }
  }
  GM_VEC_FREE(cur);
  flow_list_free(&seen);
  flow_loop_end(e, &exits);
  flow_list_move_all(e, &out->next, &exits);
}

/* The constants of a switch's own cases (not those of a switch nested in it). */
static void collect_cases(const gm_node *n, struct switch_ctx *sw) {
  if (!n || n->kind == GM_N_SWITCH)
    return;
  if (n->kind == GM_N_CASE && !n->op && n->has_value)
    GM_PUSH(sw->values, n->value);
  for (int i = 0; i < n->nkids; i++)
    collect_cases(n->kids[i], sw);
}

/* Which case label an entry state may reach: with a remembered condition, only the case whose
 * constant it equals (two switches on one `kind` pair case by case). Adds what the label
 * implies to the state; returns 0 when the state cannot reach the label. */
static int case_admits(const struct switch_ctx *sw, const gm_node *label, state *s) {
  if (!sw->pure)
    return 1;
  if (!label->op) {
    if (!label->has_value)
      return 1;
    int known = flow_eq_find(s, sw->base, label->value);
    if (known == 0)
      return 0;
    if (known < 0)
      flow_eq_decision_add(s, sw->base, sw->deps, label->value, 1);
    return 1;
  }
  for (size_t i = 0; i < sw->values.len; i++)
    if (flow_eq_find(s, sw->base, sw->values.items[i]) == 1)
      return 0; /* it goes to that case, not to default */
  for (size_t i = 0; i < sw->values.len; i++)
    if (flow_eq_find(s, sw->base, sw->values.items[i]) < 0)
      flow_eq_decision_add(s, sw->base, sw->deps, sw->values.items[i], 0);
  return 1;
}

static void exec_switch(engine *e, state_list *in, const gm_node *n, flow_out *out) {
  state_list entries = {0};
  for (size_t i = 0; i < in->len; i++) {
    state *s = in->items[i];
    (void)flow_eval(e, s, gm_kid(n, 0));
    flow_list_add(e, &entries, s);
  }
  GM_VEC_FREE(*in);
  struct switch_ctx sw = {&entries, 0, 0, 0, {0}};
  sw.pure = gm_kid(n, 0) && flow_is_pure(gm_kid(n, 0), &sw.deps, e);
  sw.base = sw.pure ? flow_node_key(gm_kid(n, 0), 0) : 0;
  sw.pure =
      sw.pure && flow_retested(e, sw.base); /* one switch alone needs no memory of its cases */
  collect_cases(gm_kid(n, 1), &sw);
  GM_PUSH(e->switch_entries, &sw);
  int has_default = 0;
  /* find a default label among the body's direct statements */
  const gm_node *body = gm_kid(n, 1);
  for (int i = 0; body && i < body->nkids; i++)
    for (const gm_node *k = body->kids[i]; k && k->kind == GM_N_CASE; k = gm_kid(k, 0))
      if (k->op)
        has_default = 1;
  state_list none = {0};
  flow_out r = {0};
  flow_exec(e, &none, body, &r);
  e->switch_entries.len--;
  flow_list_move_all(e, &out->next, &r.next);
  flow_list_move_all(e, &out->next, &r.brk);
  flow_list_move_all(e, &out->cont, &r.cont);
  if (!has_default) {
    /* no case matched: as a default label at the end would see it */
    gm_node none_matched = {0};
    none_matched.kind = GM_N_CASE;
    none_matched.op = 1;
    for (size_t i = 0; i < entries.len; i++) {
      if (case_admits(&sw, &none_matched, entries.items[i]))
        flow_list_add(e, &out->next, entries.items[i]);
      else
        flow_state_free(entries.items[i]);
    }
    GM_VEC_FREE(entries);
  } else {
    flow_list_free(&entries);
  }
  GM_VEC_FREE(sw.values);
}

void flow_exec(engine *e, state_list *in, const gm_node *n, flow_out *out) {
  if (!n) {
    flow_list_move_all(e, &out->next, in);
    return;
  }
  if (e->steps > STEP_BUDGET) {
    e->truncated = GM_CUT_STEPS;
    flow_list_free(in);
    return;
  }
  switch (n->kind) {
  case GM_N_SEQ: {
    state_list cur = *in;
    memset(in, 0, sizeof *in);
    for (int i = 0; i < n->nkids; i++) {
      flow_out r = {0};
      flow_exec(e, &cur, n->kids[i], &r);
      flow_list_move_all(e, &out->brk, &r.brk);
      flow_list_move_all(e, &out->cont, &r.cont);
      cur = r.next;
    }
    flow_list_move_all(e, &out->next, &cur);
    return;
  }
  case GM_N_IF:
  case GM_N_COND: {
    /* `c ? a : b;` as a statement (glibc's C++ assert, check macros) branches as `if` does, so
     * an arm that never returns ends only its own path, and the other knows how c came out */
    state_list t = {0}, f = {0};
    for (size_t i = 0; i < in->len; i++)
      flow_cond_split(e, in->items[i], gm_kid(n, 0), &t, &f);
    GM_VEC_FREE(*in);
    flow_out r1 = {0}, r2 = {0};
    flow_exec(e, &t, gm_kid(n, 1), &r1);
    flow_exec(e, &f, gm_kid(n, 2), &r2);
    flow_list_move_all(e, &out->next, &r1.next);
    flow_list_move_all(e, &out->next, &r2.next);
    flow_list_move_all(e, &out->brk, &r1.brk);
    flow_list_move_all(e, &out->brk, &r2.brk);
    flow_list_move_all(e, &out->cont, &r1.cont);
    flow_list_move_all(e, &out->cont, &r2.cont);
    return;
  }
  case GM_N_LOOP:
    exec_loop(e, in, n, out);
    return;
  case GM_N_TRY: {
    /* A handler may be entered from anywhere in the try block: model its two ends, before
     * anything in it ran and after all of it did. */
    state_list entry = {0};
    for (size_t i = 0; i < in->len; i++)
      GM_PUSH(entry, flow_state_copy(e, in->items[i]));
    flow_out body = {0};
    flow_exec(e, in, gm_kid(n, 0), &body);
    flow_list_move_all(e, &out->brk, &body.brk);
    flow_list_move_all(e, &out->cont, &body.cont);
    for (int h = 1; h < n->nkids; h++) {
      state_list hin = {0};
      for (size_t i = 0; i < entry.len; i++)
        flow_list_add(e, &hin, flow_state_copy(e, entry.items[i]));
      for (size_t i = 0; i < body.next.len; i++)
        flow_list_add(e, &hin, flow_state_copy(e, body.next.items[i]));
      for (size_t i = 0; i < hin.len; i++)
        hin.items[i]->error_path = 1; /* something threw */
      flow_out r = {0};
      flow_exec(e, &hin, n->kids[h], &r);
      flow_list_move_all(e, &out->next, &r.next);
      flow_list_move_all(e, &out->brk, &r.brk);
      flow_list_move_all(e, &out->cont, &r.cont);
    }
    flow_list_move_all(e, &out->next, &body.next);
    flow_list_free(&entry);
    return;
  }
  case GM_N_SWITCH:
    exec_switch(e, in, n, out);
    return;
  case GM_N_CASE: {
    if (e->switch_entries.len) {
      struct switch_ctx *sw = e->switch_entries.items[e->switch_entries.len - 1];
      for (size_t i = 0; i < sw->entries->len; i++) {
        state *c = flow_state_copy(e, sw->entries->items[i]);
        if (case_admits(sw, n, c))
          flow_list_add(e, in, c);
        else
          flow_state_free(c);
      }
    }
    flow_exec(e, in, gm_kid(n, 0), out);
    return;
  }
  case GM_N_RETURN:
    for (size_t i = 0; i < in->len; i++) {
      state *s = in->items[i];
      val v = flow_eval(e, s, gm_kid(n, 0));
      for (int k = 1; k < n->nkids && !s->dead; k++)
        (void)flow_eval(e, s, n->kids[k]); /* the locals it leaves are destroyed */
      if (!s->dead) {
        if (e->summary_mode) {
          e->returning = gm_kid(n, 0);
          flow_observe_exit(e, s, v);
          e->returning = NULL;
        }
        flow_escape_val(s, v);
        if (!e->summary_mode)
          flow_check_exit(e, s, n, GM_EXIT_RETURN);
      }
      flow_state_free(s);
    }
    GM_VEC_FREE(*in);
    return;
  case GM_N_BREAK:
    flow_list_move_all(e, &out->brk, in);
    return;
  case GM_N_CONTINUE:
    for (size_t i = 0; i < in->len; i++)
      in->items[i]->skipped_by = n;
    flow_list_move_all(e, &out->cont, in);
    return;
  case GM_N_GOTO:
    for (size_t i = 0; i < in->len; i++) {
      struct pending_goto g = {n->name, in->items[i]};
      GM_PUSH(e->gotos, g);
    }
    GM_VEC_FREE(*in);
    return;
  case GM_N_LABEL: {
    size_t w = 0;
    for (size_t i = 0; i < e->gotos.len; i++) {
      if (n->name && strcmp(e->gotos.items[i].label, n->name) == 0)
        flow_list_add(e, in, e->gotos.items[i].st);
      else
        e->gotos.items[w++] = e->gotos.items[i];
    }
    e->gotos.len = w;
    flow_exec(e, in, gm_kid(n, 0), out);
    return;
  }
  case GM_N_THROW:
    for (size_t i = 0; i < in->len; i++) {
      (void)flow_eval(e, in->items[i], gm_kid(n, 0));
      flow_state_free(in->items[i]);
    }
    GM_VEC_FREE(*in);
    return;
  case GM_N_NOP:
    flow_list_move_all(e, &out->next, in);
    return;
  default:
    for (size_t i = 0; i < in->len; i++) {
      state *s = in->items[i];
      (void)flow_eval(e, s, n);
      flow_list_add(e, &out->next, s);
    }
    GM_VEC_FREE(*in);
    return;
  }
}
