/* Evaluation of expressions on one path state: what calls (allocations, frees, borrows, sinks,
 * kernel launches, same-file helpers through their summaries), assignments, declarations and
 * pointer arithmetic do to objects and slots. */
#include "flow/engine.h"

#include <stdlib.h>
#include <string.h>

void flow_escape_val(state *s, val v) {
  if (v.kind == V_OBJ && v.ref < s->nobjs)
    s->objs[v.ref].escaped = 1, s->objs[v.ref].member_only = 0;
  if (v.kind == V_ADDR && v.ref < s->nslots) {
    /* the variable's address got away: what it holds now, or later, may be freed through it */
    val held = s->slots[v.ref];
    if (held.kind == V_OBJ && held.ref < s->nobjs)
      s->objs[held.ref].escaped = 1, s->objs[held.ref].member_only = 0;
    s->exposed[v.ref] = 1;
  }
}

/* An argument of a call the engine does not follow: it may keep or free what it is given, and
 * read or write it on the host (`init(a, n)`, `load(&a)`). Memory that is only stored away
 * (a struct, a kernel's argument array) is not taken for touched: that needs such a call. */
static void hand_to_unknown_code(state *s, val v) {
  flow_escape_val(s, v);
  val held = v.kind == V_ADDR && v.ref < s->nslots ? s->slots[v.ref] : v;
  if (held.kind == V_OBJ && held.ref < s->nobjs)
    flow_touch_on_host(s, held.ref);
}

/* Stores v into slot, reporting the object the slot held if this loses its last pointer. */
static void assign_slot(engine *e, state *s, int slot, int owning, val v, const gm_node *at,
                        enum gm_exit_kind how) {
  val old = slot_get(s, slot);
  flow_slot_set_raw(s, slot, v);
  int exposed = s->exposed[slot] || flow_aggregate_exposed(e, s, slot);
  if (exposed)
    owning = 0;
  flow_decisions_invalidate(e, s, slot);
  /* a member of an object from outside: the object owns what is stored there */
  int in_member = !exposed && flow_outside_member_slot(e, slot);
  if (slot < e->fn->nvars)
    flow_forget_members_of(e, s, slot); /* a root rebound: its members are another object's */
  if (v.kind == V_OBJ) {
    obj *o = &s->objs[v.ref];
    if (!o->owner)
      o->owner = flow_slot_name(e, slot);
    if (!owning) {
      o->member_only = in_member && !o->escaped;
      o->escaped = 1;
    }
  }
  if (old.kind == V_OBJ && !(v.kind == V_OBJ && v.ref == old.ref)) {
    obj *o = &s->objs[old.ref];
    int lost = o->state == OBJ_LIVE && !flow_obj_referenced(s, old.ref);
    if (lost && ((!o->escaped && owning) || (o->member_only && in_member && o->site)))
      flow_report_leak(e, s, old.ref, at, how);
  }
  if (e->summary_mode)
    flow_note_member_store(e, s, slot, old);
}

/* The slot an out-parameter argument names (`&p`, `&pitched` with field "ptr", `out` for
 * `T **out`), or -1; *owning: whether this function owns what is stored there. */
static int out_arg_slot(engine *e, state *s, const gm_node *arg, const char *field, int id,
                        int *owning_out) {
  const gm_node *lv = NULL;
  char *text = NULL;
  int owning = 0, slot = -1;
  if (arg && arg->kind == GM_N_ADDR) {
    lv = gm_kid(arg, 0);
  } else if (arg) {
    /* `cudaMalloc(out, n)` with `T **out`: the pointee of out receives it */
    char *base = flow_path_text(e, arg);
    if (base)
      text = gm_xasprintf("*%s", base);
    free(base);
  }
  if (lv && !field) {
    slot = flow_lvalue_slot(e, lv, &owning);
  } else {
    if (lv)
      text = flow_path_text(e, lv);
    if (text && field) {
      char *t = gm_xasprintf("%s.%s", text, field);
      free(text);
      text = t;
    }
    slot = text ? flow_path_slot(e, text) : -1;
    owning = 0;
    if (lv && lv->kind == GM_N_VAR && field) {
      /* cudaMalloc3D(&pitched, ...): the struct is local, so its .ptr is owned here */
      const gm_var *v = &e->fn->vars[lv->var];
      owning = v->kind == GM_VAR_LOCAL || v->kind == GM_VAR_PARAM;
      if (id >= 0)
        s->objs[id].owner = v->name;
    }
  }
  *owning_out = owning; /* flow_path_slot kept text */
  return slot;
}

/* Binds a fresh object to the lvalue an out-parameter argument designates. */
static void bind_out_arg(engine *e, state *s, const gm_node *arg, const char *field, int id,
                         const gm_node *call) {
  int owning;
  int slot = out_arg_slot(e, s, arg, field, id, &owning);
  if (slot < 0) {
    s->objs[id].escaped = 1;
    return;
  }
  assign_slot(e, s, slot, owning, mk(V_OBJ, id), call, GM_EXIT_OVERWRITE);
}

static int new_alloc(state *s, const gm_node *site, const gm_family *fam) {
  obj o = {0};
  o.site = site;
  o.inner_site = site;
  o.family = fam;
  o.param = -1;
  o.deref_param = -1;
  o.state = OBJ_LIVE;
  o.touch = fam && fam->managed ? TOUCH_NONE : TOUCH_HOST;
  return flow_obj_new(s, o);
}

/* A copy the device makes from device memory: the table's direction says so (cuMemcpyDtoD), or
 * the call's cudaMemcpyKind argument does. Its destination's pages are written on the device. */
static int copies_from_device(const gm_node *n, const gm_fn *row) {
  if (row->direction == GM_COPY_DTOD)
    return 1;
  const gm_node *kind = row->kind_arg == GM_ARG_NONE ? NULL : gm_arg(n, row->kind_arg);
  return kind && kind->name && strcmp(kind->name, "cudaMemcpyDeviceToDevice") == 0;
}

static int is_identity(const gm_node *n) {
  return n->nkids == 1 && n->name &&
         (strcmp(n->name, "move") == 0 || strcmp(n->name, "forward") == 0);
}

/* The slot holding what a `T **` argument points at: `&p` names p, a `T **q` names *q. */
static int pointee_slot(engine *e, const gm_node *arg, val v) {
  if (v.kind == V_ADDR)
    return v.ref;
  char *base = flow_path_text(e, arg);
  if (!base)
    return -1;
  char *t = gm_xasprintf("*%s", base);
  free(base);
  return flow_path_slot(e, t);
}

/* A call got the variable's address and may have written it: what it held is out of our hands,
 * and branch decisions that read it no longer hold. */
static void forget_variable(engine *e, state *s, int slot) {
  if (slot < e->fn->nvars)
    flow_forget_members_of(e, s, slot);
  flow_escape_val(s, slot_get(s, slot));
  flow_slot_set_raw(s, slot, mk(V_UNKNOWN, 0));
  flow_decisions_invalidate(e, s, slot);
}

/* Whether a function the program has no body for (no summary here or from another file) gets
 * the block through a `const T *` parameter: it reads it and keeps nothing, as const says. A
 * method may store it in its object, and a function this unit defines but did not summarise is
 * no unknown code: both are handed it as before. A summary made before the other files of the
 * run are known (pass one, no imports) keeps it an escape: another file may define the function
 * and keep the pointer, and the summary would carry that guess to callers in other files. */
static int reads_through_const(engine *e, const gm_node *n, int i, val v) {
  return v.kind == V_OBJ && i < 31 && (n->read_only_args & (1u << i)) && !n->is_method &&
         !n->invalid && n->callee_usr && (e->imports || !e->summary_mode) &&
         flow_function_of(e, n->callee_usr) < 0;
}

static val eval_call(engine *e, state *s, const gm_node *n) {
  if (n->implicit_dtor) {
    flow_destroy_object(e, s, n->object, n->callee_usr, n); /* its scope ended */
    return mk(V_UNKNOWN, 0);
  }
  const gm_fn *row = n->fn;
  summary *sum = row ? NULL : flow_summary_for(e, n->callee_usr);
  member_before *members = flow_member_effects_before(e, s, n, sum);
  int out_arg = -1;
  if (row && (row->kind == GM_FN_ALLOC || row->kind == GM_FN_ALIAS) && row->ptr_arg >= 0)
    out_arg = row->ptr_arg;
  val *args = gm_xcalloc((size_t)(n->nkids ? n->nkids : 1), sizeof(val));
  for (int i = 0; i < n->nkids; i++) {
    if (i == out_arg)
      continue;
    if (sum && i < sum->nparams && sum->params[i].effect == P_OUT_ALLOC)
      continue;
    args[i] = flow_eval(e, s, n->kids[i]);
  }
  val result = mk(V_UNKNOWN, 0);
  if (!(row && row->kind == GM_FN_LAST_ERROR) && gm_may_set_runtime_status(n))
    flow_forget_last_status(s);
  flow_call_hands_over(e, s, n);
  if (sum && sum->pending) {
    s->dead = 1; /* a recursive call with no exit seen yet: the paths that return come later */
    e->obs.pending_cuts++;
  } else if (n->noreturn || (sum && sum->noreturn)) {
    flow_check_process_exit(e, s, n); /* `exit(0)` ends main as `return 0` does */
    s->dead = 1;
  } else if (row && (row->kind == GM_FN_ALLOC || row->kind == GM_FN_REALLOC)) {
    int id = new_alloc(s, n, row->family);
    if (row->kind == GM_FN_REALLOC && row->old_arg < n->nkids) {
      /* the old block is released on success and kept on failure: stop judging it */
      flow_escape_val(s, args[row->old_arg]);
    }
    if (row->ptr_arg == GM_ARG_RETURN) {
      result = mk(V_OBJ, id);
    } else if (row->ptr_arg < n->nkids) {
      bind_out_arg(e, s, n->kids[row->ptr_arg], row->ptr_field, id, n);
      result = mk(V_RESULT, id);
      flow_set_last_status(s, id);
    } else {
      s->objs[id].escaped = 1;
    }
  } else if (row && row->kind == GM_FN_ALIAS) {
    /* the out-parameter now names the source's block: one block, two addresses */
    val source = row->src_arg < n->nkids ? args[row->src_arg] : mk(V_UNKNOWN, 0);
    if (row->ptr_arg < n->nkids && source.kind == V_OBJ && !source.offset) {
      /* another name for the block, not a hand-over: ownership stays with the source */
      int owning;
      int slot = out_arg_slot(e, s, n->kids[row->ptr_arg], NULL, -1, &owning);
      s->objs[source.ref].alias_call = n;
      s->objs[source.ref].alias_slot = slot;
      if (slot >= 0)
        assign_slot(e, s, slot, 1, source, n, GM_EXIT_OVERWRITE);
    } else if (row->ptr_arg < n->nkids) {
      val out = flow_eval(e, s, n->kids[row->ptr_arg]);
      if (out.kind == V_ADDR)
        forget_variable(e, s, out.ref); /* an alias of a block we do not follow */
    }
  } else if (row && row->kind == GM_FN_FREE) {
    if (row->ptr_arg < n->nkids) {
      val v = args[row->ptr_arg];
      flow_do_free(e, s, n, v, row, NULL, NULL);
      if (v.kind == V_OBJ && s->objs[v.ref].freed_at == n)
        result = mk(V_FREED, v.ref);
    }
  } else if (row && (row->kind == GM_FN_USE || row->kind == GM_FN_COPY)) {
    /* reads or writes through its pointers; ownership stays here */
    flow_drop_memory_decisions(e, s, n);
    int host = row->host_touch; /* memcpy, memset: the host touches it */
    for (int i = 0; host && i < n->nkids; i++)
      flow_note_host_touch(e, s, args[i], n);
    /* a copy from the host's memory may be made by the host: it counts as the host's touch */
    if (row->kind == GM_FN_COPY && row->dst_arg < n->nkids && args[row->dst_arg].kind == V_OBJ) {
      if (copies_from_device(n, row))
        flow_note_device_write(s, args[row->dst_arg]);
      else
        flow_touch_on_host(s, args[row->dst_arg].ref);
    }
  } else if (row && row->kind == GM_FN_DEVICE_FILL) {
    flow_drop_memory_decisions(e, s, n);
    for (int i = 0; i < n->nkids; i++)
      flow_note_device_write(s, args[i]);
  } else if (row && row->kind == GM_FN_PREFETCH) {
    if (n->nkids)
      flow_note_prefetch(e, s, args[0], n);
  } else if (row && row->kind == GM_FN_LAUNCH) {
    flow_launch_through_api(e, s, n);
  } else if (n->is_launch) {
    /* kernel arguments are used on the device, not taken over */
    for (int i = 0; i < n->nkids; i++)
      flow_note_launch_arg(e, s, args[i], n, n->callee_usr, n->name, i, NULL);
  } else if (sum) {
    for (int i = 0; i < n->nkids; i++) {
      const param_summary *p = i < sum->nparams ? &sum->params[i] : NULL;
      if (!p || p->effect == P_ESCAPES) {
        hand_to_unknown_code(s, args[i]);
        if (args[i].kind == V_ADDR)
          forget_variable(e, s, args[i].ref);
      } else if (p->effect == P_FREES) {
        flow_do_free(e, s, n, args[i], &p->free_row, p->via, p->inner);
        int owning, slot = p->nulls ? flow_lvalue_slot(e, n->kids[i], &owning) : -1;
        if (slot >= 0) {
          flow_slot_set_raw(s, slot, mk(V_NULL, 0));
          flow_decisions_invalidate(e, s, slot);
        }
      } else if (p->effect == P_FREES_DEREF) {
        int slot = pointee_slot(e, n->kids[i], args[i]);
        if (slot >= 0) {
          flow_do_free(e, s, n, slot_get(s, slot), &p->free_row, p->via, p->inner);
          if (p->nulls) {
            flow_slot_set_raw(s, slot, mk(V_NULL, 0));
            flow_decisions_invalidate(e, s, slot);
          }
        }
      }
      if (p && p->prefetches)
        flow_note_prefetch(e, s, args[i], n);
      if (p && p->host_touch)
        flow_note_host_touch(e, s, args[i], n); /* the helper reads or writes it on the host */
      if (p && p->launch && args[i].kind == V_OBJ && !s->objs[args[i].ref].prefetched) {
        e->launching = p->remote_access ? p : NULL;
        flow_note_launch_arg(e, s, args[i], p->launch, p->kernel_usr, p->kernel_name,
                             p->kernel_param, n);
        e->launching = NULL;
      }
      if (p && p->effect == P_OUT_ALLOC) {
        int id = new_alloc(s, n, p->family);
        if (p->inner)
          s->objs[id].inner_site = p->inner;
        bind_out_arg(e, s, n->kids[i], NULL, id, n);
        /* a create helper's status, as cudaMalloc's: a failure allocated nothing */
        if (!sum->returns_fresh && result.kind == V_UNKNOWN) {
          result = mk(n->returns_bool ? V_OK : V_RESULT, id);
          flow_set_last_status(s, id);
        }
      }
    }
    if (sum->returns_fresh) {
      int id = new_alloc(s, n, sum->returns_fresh);
      if (sum->returns_site)
        s->objs[id].inner_site = sum->returns_site;
      result = mk(V_OBJ, id);
    } else if (sum->returns_arg && sum->returns_arg <= n->nkids) {
      /* it gives back what it was given: a status checked and passed on, a pointer aligned */
      result = args[sum->returns_arg - 1];
      if (result.kind == V_OBJ && sum->returns_arg_offset)
        result.offset = 1;
    }
    flow_drop_memory_decisions(e, s, n);
  } else if (row && row->kind == GM_FN_LAST_ERROR) {
    result = flow_read_last_status(s);
  } else if (n->noverloads) {
    /* a dependent call with several candidates: an argument stays ours where all borrow it */
    for (int i = 0; i < n->nkids; i++) {
      if (flow_overloads_borrow(e, n, i))
        continue;
      flow_escape_val(s, args[i]);
      if (args[i].kind == V_ADDR)
        forget_variable(e, s, args[i].ref);
    }
    flow_drop_memory_decisions(e, s, n);
  } else if (gm_call_borrows(n)) {
    /* the toolkit, libc, a declared borrower: uses what it is given and keeps none of it */
    if (n->in_system && !row && is_identity(n))
      result = args[0]; /* std::move(p), std::forward<T>(p) */
    if (row && row->kind == GM_FN_FALLIBLE)
      result = mk(V_HANDLE, 0);
    for (int i = 0; i < n->nkids; i++) {
      if (args[i].kind == V_ADDR)
        forget_variable(e, s, args[i].ref); /* it may write it: cudaStreamCreate(&s) */
    }
    flow_drop_memory_decisions(e, s, n);
  } else {
    /* unknown callee, or a sink: it may keep or free what it is given */
    for (int i = 0; i < n->nkids; i++) {
      if (row && row->kind == GM_FN_SINK && row->ptr_arg != GM_ARG_NONE && row->ptr_arg != i)
        continue; /* a sink takes one argument and borrows the rest */
      if (!row && reads_through_const(e, n, i, args[i])) {
        flow_touch_on_host(s, args[i].ref);
        continue;
      }
      hand_to_unknown_code(s, args[i]);
      if (args[i].kind == V_ADDR)
        forget_variable(e, s, args[i].ref);
    }
    /* globals and members may have changed: forget branch decisions that read them */
    flow_drop_memory_decisions(e, s, n);
  }
  if (!s->dead) {
    flow_apply_member_frees(e, s, n, sum);
    flow_forget_outside_members(e, s, n);
    flow_forget_written_objects(e, s, n);
    /* a by-value parameter copied member by member dies with the call: its destructor frees
     * the original's buffers */
    for (int i = 0; i < n->nkids; i++)
      if (n->kids[i] && n->kids[i]->copy_dtor)
        flow_destroy_object(e, s, n->kids[i], n->kids[i]->copy_dtor, n->kids[i]);
  }
  flow_member_effects_apply(e, s, n, sum, members);
  if (result.kind == V_UNKNOWN && !s->dead && !(row && row->kind != GM_FN_BORROW))
    result = flow_status_comparison(n, args);
  free(args);
  return result;
}

/* ---- one function per kind of expression (flow_eval below is their table) ---- */

static val unknown_val(void) {
  return mk(V_UNKNOWN, 0);
}

static val eval_constant(const gm_node *n) {
  return n->is_string ? mk(V_STATIC, -1) : mk(V_CONST, 0);
}

static val eval_var(engine *e, state *s, const gm_node *n) {
  const gm_var *var = &e->fn->vars[n->var];
  if (var->is_array && var->kind != GM_VAR_PARAM && var->kind != GM_VAR_REF)
    return mk(V_STATIC, n->var); /* the array's address, fixed for its lifetime */
  return slot_get(s, n->var);
}

/* `p->field`, `*p`, `*(p + i)`: a host access to what p points at, and the value the member or
 * pointee path holds. */
static val eval_member_or_deref(engine *e, state *s, const gm_node *n) {
  if (n->kind == GM_N_DEREF) {
    const gm_node *ptr = gm_kid(n, 0);
    val pv = ptr && ptr->kind == GM_N_VAR ? slot_get(s, ptr->var)
             : ptr && ptr->kind == GM_N_ARITH && gm_kid(ptr, 0) && ptr->kids[0]->kind == GM_N_VAR
                 ? slot_get(s, ptr->kids[0]->var)
                 : unknown_val();
    flow_note_host_touch(e, s, pv, n);
  }
  if (n->kind == GM_N_FIELD && gm_kid(n, 0) && n->kids[0]->kind == GM_N_VAR)
    flow_note_host_touch(e, s, slot_get(s, n->kids[0]->var), n); /* p->field */
  int owning;
  int slot = flow_lvalue_slot(e, n, &owning);
  if (slot >= 0 && slot < s->nslots)
    return s->slots[slot];
  if (n->kind == GM_N_DEREF || gm_kid(n, 0))
    (void)flow_eval(e, s, gm_kid(n, 0));
  return unknown_val();
}

static val eval_index(engine *e, state *s, const gm_node *n) {
  val base = flow_eval(e, s, gm_kid(n, 0));
  flow_note_host_touch(e, s, base, n);
  (void)flow_eval(e, s, gm_kid(n, 1));
  return unknown_val();
}

static val eval_address(engine *e, state *s, const gm_node *n) {
  int owning;
  const gm_node *lv = gm_kid(n, 0);
  int slot = flow_lvalue_slot(e, lv, &owning);
  if (slot >= 0) {
    flow_slot_set_raw(s, slot, slot_get(s, slot)); /* materialise the slot so it can be exposed */
    return mk(V_ADDR, slot);
  }
  if (lv && lv->kind == GM_N_INDEX) {
    /* &p[i] points into p, as p + i does */
    val base = flow_eval(e, s, gm_kid(lv, 0));
    (void)flow_eval(e, s, gm_kid(lv, 1));
    const gm_node *index = gm_kid(lv, 1);
    if (base.kind == V_OBJ && !(index && index->has_value && index->value == 0))
      base.offset = 1;
    return base.kind == V_OBJ ? base : unknown_val();
  }
  (void)flow_eval(e, s, gm_kid(n, 0));
  return unknown_val();
}

/* `p += k`, `++p`: the same object, now through an interior pointer. */
static val step_pointer(engine *e, state *s, int slot) {
  if (slot < e->fn->nvars)
    flow_forget_members_of(e, s, slot);
  val old = slot_get(s, slot);
  if (old.kind == V_OBJ)
    old.offset = 1;
  else
    old = unknown_val();
  flow_slot_set_raw(s, slot, old);
  flow_decisions_invalidate(e, s, slot);
  return old;
}

static val eval_assign(engine *e, state *s, const gm_node *n) {
  val v = flow_eval(e, s, gm_kid(n, 1));
  int owning;
  const gm_node *lhs = gm_kid(n, 0);
  int slot = flow_lvalue_slot(e, lhs, &owning);
  if (slot < 0) {
    if (lhs && lhs->kind == GM_N_INDEX) {
      val base = flow_eval(e, s, gm_kid(lhs, 0));
      flow_note_host_touch(e, s, base, lhs);
      (void)flow_eval(e, s, gm_kid(lhs, 1));
    }
    flow_escape_val(s, v);
    if (v.kind == V_OBJ)
      s->objs[v.ref].stored_away = 1;
    return v;
  }
  if (n->op)
    return step_pointer(e, s, slot);
  assign_slot(e, s, slot, owning, v, n, GM_EXIT_OVERWRITE);
  return v;
}

static val eval_decl(engine *e, state *s, const gm_node *n) {
  if (n->nkids && n->kids[0]->kind == GM_N_AGGREGATE && e->array_init)
    e->array_init[n->var] = n->kids[0];
  if (e->fn->vars[n->var].kind == GM_VAR_LOCAL)
    flow_forget_declared_members(e, s, n->var);
  val v = n->nkids ? flow_eval(e, s, n->kids[0]) : unknown_val();
  const gm_var *var = &e->fn->vars[n->var];
  int owning = var->kind == GM_VAR_LOCAL || var->kind == GM_VAR_PARAM;
  if (var->kind == GM_VAR_GLOBAL && !n->nkids)
    return unknown_val(); /* `static T *p;` keeps its value across calls */
  assign_slot(e, s, n->var, owning, v, n, GM_EXIT_REDECLARE);
  if (var->dtor_usr)
    flow_construct_local(e, s, n);
  return v;
}

static val eval_incdec(engine *e, state *s, const gm_node *n) {
  int owning;
  int slot = flow_lvalue_slot(e, gm_kid(n, 0), &owning);
  if (slot < 0) {
    (void)flow_eval(e, s, gm_kid(n, 0));
    return unknown_val();
  }
  return step_pointer(e, s, slot);
}

static val eval_arith(engine *e, state *s, const gm_node *n) {
  val a = flow_eval(e, s, gm_kid(n, 0));
  val b = flow_eval(e, s, gm_kid(n, 1));
  int ptr_arith = n->op == '+' || n->op == '-';
  if (ptr_arith && a.kind == V_OBJ && b.kind != V_OBJ) {
    a.offset = 1;
    return a;
  }
  if (n->op == '+' && b.kind == V_OBJ && a.kind != V_OBJ) {
    b.offset = 1;
    return b;
  }
  return unknown_val();
}

/* `c ? a : b`: an arm that never returns leaves the other as the only way on; each arm is
 * evaluated once (nested ?: stays linear). */
static val eval_conditional(engine *e, state *s, const gm_node *n) {
  (void)flow_eval(e, s, gm_kid(n, 0));
  if (s->dead)
    return unknown_val();
  state *before = flow_state_copy(e, s);
  val a = flow_eval(e, s, gm_kid(n, 1));
  if (s->dead) {
    val b = flow_eval(e, before, gm_kid(n, 2));
    flow_state_swap(s, before);
    flow_state_free(before);
    return b;
  }
  flow_state_free(before);
  state *after_a = flow_state_copy(e, s);
  val b = flow_eval(e, s, gm_kid(n, 2));
  if (s->dead) {
    flow_state_swap(s, after_a);
    flow_state_free(after_a);
    return a;
  }
  flow_state_free(after_a);
  if (a.kind == V_OBJ && (b.kind == V_NULL || (b.kind == V_OBJ && b.ref == a.ref)))
    return a;
  if (b.kind == V_OBJ && a.kind == V_NULL)
    return b;
  flow_escape_val(s, a);
  flow_escape_val(s, b);
  return unknown_val();
}

static val eval_comma(engine *e, state *s, const gm_node *n) {
  val v = unknown_val();
  for (int i = 0; i < n->nkids; i++)
    v = flow_eval(e, s, n->kids[i]);
  return v;
}

static val eval_lambda(engine *e, state *s, const gm_node *n) {
  flow_note_lambda_launches(e, s, n);
  /* captured variables: by reference, the lambda may free what they hold later */
  for (int i = 0; i < n->nkids; i++) {
    int var = n->kids[i]->var;
    flow_escape_val(s, slot_get(s, var));
    flow_slot_set_raw(s, var, slot_get(s, var));
    s->exposed[var] = 1;
  }
  return unknown_val();
}

static val eval_aggregate(engine *e, state *s, const gm_node *n) {
  for (int i = 0; i < n->nkids; i++)
    flow_escape_val(s, flow_eval(e, s, n->kids[i]));
  return unknown_val();
}

static val eval_throw(engine *e, state *s, const gm_node *n) {
  for (int i = 0; i < n->nkids; i++)
    (void)flow_eval(e, s, n->kids[i]);
  s->dead = 1;
  return unknown_val();
}

/* An allocation's status compared with success, kept as a value (an assertion's argument). */
static val eval_comparison(engine *e, state *s, const gm_node *n) {
  val a = flow_eval(e, s, gm_kid(n, 0));
  val b = flow_eval(e, s, gm_kid(n, 1));
  val status = gm_is_success_status(gm_kid(n, 1))   ? a
               : gm_is_success_status(gm_kid(n, 0)) ? b
                                                    : unknown_val();
  if (status.kind == V_RESULT && (n->op == '=' || n->op == '!'))
    return n->op == '=' ? mk(V_OK, status.ref) : status;
  return unknown_val();
}

/* `&&`, `||`, `!` and what the model does not tell apart: the operands are evaluated, the value
 * is unknown, and an operation we do not model may keep the pointer. */
static val eval_operands(engine *e, state *s, const gm_node *n) {
  for (int i = 0; i < n->nkids; i++) {
    val v = flow_eval(e, s, n->kids[i]);
    if (n->kind == GM_N_OTHER)
      flow_escape_val(s, v);
  }
  return unknown_val();
}

val flow_eval(engine *e, state *s, const gm_node *n) {
  if (!n || s->dead)
    return unknown_val();
  e->steps++;
  switch (n->kind) {
  case GM_N_NULL:
    return mk(V_NULL, 0);
  case GM_N_CONST:
    return eval_constant(n);
  case GM_N_VAR:
    return eval_var(e, s, n);
  case GM_N_FIELD:
  case GM_N_DEREF:
    return eval_member_or_deref(e, s, n);
  case GM_N_INDEX:
    return eval_index(e, s, n);
  case GM_N_ADDR:
    return eval_address(e, s, n);
  case GM_N_CALL:
    return eval_call(e, s, n);
  case GM_N_ASSIGN:
    return eval_assign(e, s, n);
  case GM_N_DECL:
    return eval_decl(e, s, n);
  case GM_N_INCDEC:
    return eval_incdec(e, s, n);
  case GM_N_ARITH:
    return eval_arith(e, s, n);
  case GM_N_COND:
    return eval_conditional(e, s, n);
  case GM_N_COMMA:
    return eval_comma(e, s, n);
  case GM_N_LAMBDA:
    return eval_lambda(e, s, n);
  case GM_N_AGGREGATE:
    return eval_aggregate(e, s, n);
  case GM_N_THROW:
    return eval_throw(e, s, n);
  case GM_N_CMP:
    return eval_comparison(e, s, n);
  case GM_N_SEQ:
  case GM_N_IF:
  case GM_N_LOOP:
  case GM_N_SWITCH:
  case GM_N_CASE:
  case GM_N_RETURN:
  case GM_N_BREAK:
  case GM_N_CONTINUE:
  case GM_N_GOTO:
  case GM_N_LABEL:
  case GM_N_NOP:
    /* statements inside expressions (GNU statement expressions): not followed */
    return unknown_val();
  case GM_N_LAND:
  case GM_N_LOR:
  case GM_N_NOT:
  case GM_N_OTHER:
  default:
    return eval_operands(e, s, n);
  }
}
