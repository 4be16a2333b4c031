/* A unit summary as JSON and back, for the result cache (jansson). */
#include "program/unit.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

enum { UNIT_FORMAT = 17 };

static json_t *str_or_null(const char *s) {
  return s ? json_string(s) : json_null();
}

static json_t *loc_json(gm_loc l) {
  return json_pack("[o,i,i]", str_or_null(l.file), (json_int_t)l.line, (json_int_t)l.col);
}

static json_t *family_json(const gm_unit_family *f) {
  return json_pack("{s:o,s:o,s:o,s:b,s:b,s:b,s:b}", "name", str_or_null(f->name), "description",
                   str_or_null(f->description), "free_fn", str_or_null(f->free_fn), "gpu", f->gpu,
                   "heap", f->heap, "pinned", f->pinned, "managed", f->managed);
}

static json_t *summary_json(const gm_call_summary *s) {
  json_t *params = json_array();
  for (int i = 0; i < s->nparams; i++) {
    const gm_param_summary *p = &s->params[i];
    json_t *frees = json_array();
    for (int k = 0; k < p->nfrees; k++)
      json_array_append_new(frees, json_string(p->frees[k]));
    json_array_append_new(
        params,
        json_pack("{s:i,s:b,s:b,s:o,s:o,s:o,s:b,s:b,s:o,s:o,s:o,s:i,s:o,s:o}", "effect",
                  (int)p->effect, "reads_only", p->reads_only, "nulls", p->nulls, "via",
                  str_or_null(p->via), "frees", frees, "family", str_or_null(p->family),
                  "prefetches", p->prefetches, "host_touch", p->host_touch, "launch",
                  loc_json(p->launch), "kernel_usr", str_or_null(p->kernel_usr), "kernel_name",
                  str_or_null(p->kernel_name), "kernel_param", p->kernel_param, "dense",
                  loc_json(p->dense), "dense_where", str_or_null(p->dense_where)));
  }
  json_t *members = json_array();
  for (int i = 0; i < s->nmember_frees; i++) {
    const gm_member_free_summary *m = &s->member_frees[i];
    json_t *frees = json_array();
    for (int k = 0; k < m->nfrees; k++)
      json_array_append_new(frees, json_string(m->frees[k]));
    json_array_append_new(members,
                          json_pack("{s:s,s:o,s:o,s:o}", "member", m->member, "via",
                                    str_or_null(m->via), "frees", frees, "at", loc_json(m->at)));
  }
  json_t *effects = json_array();
  for (int k = 0; k < s->nmembers; k++) {
    const gm_member_effect *m = &s->members[k];
    json_array_append_new(effects, json_pack("{s:i,s:s,s:b,s:b,s:o}", "root", m->root, "member",
                                             m->member, "clobbers", m->clobbers, "fills", m->fills,
                                             "family", str_or_null(m->family)));
  }
  return json_pack("{s:s,s:o,s:b,s:o,s:o,s:o,s:o}", "usr", s->usr, "name", str_or_null(s->name),
                   "noreturn", s->noreturn, "returns_fresh", str_or_null(s->returns_fresh),
                   "params", params, "member_frees", members, "members", effects);
}

char *gm_call_summary_json(const gm_call_summary *s) {
  json_t *j = summary_json(s);
  char *text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(j);
  return text;
}

char *gm_unit_to_json(const gm_unit *u) {
  json_t *defined = json_array(), *called = json_array(), *summaries = json_array(),
         *funcs = json_array(), *calls = json_array(), *members = json_array(),
         *symbols = json_array();
  for (size_t i = 0; i < u->defined.len; i++)
    json_array_append_new(defined, json_string(u->defined.items[i]));
  for (size_t i = 0; i < u->symbols.len; i++)
    json_array_append_new(symbols, json_string(u->symbols.items[i]));
  for (size_t i = 0; i < u->funcs.len; i++) {
    const gm_unit_func *f = &u->funcs.items[i];
    json_t *per_call = json_array();
    for (size_t k = 0; k < f->per_call.len; k++) {
      const gm_unit_alloc *a = &f->per_call.items[k];
      json_array_append_new(per_call,
                            json_pack("{s:o,s:o,s:o,s:i,s:b,s:b,s:b}", "loc", loc_json(a->loc),
                                      "api", str_or_null(a->api), "family", family_json(&a->family),
                                      "out_param", a->out_param, "returned", a->returned, "freed",
                                      a->freed, "global", a->global));
    }
    json_t *every = json_array();
    for (size_t k = 0; k < f->calls.len; k++)
      json_array_append_new(every, json_pack("{s:s,s:o,s:o,s:b}", "usr", f->calls.items[k].usr,
                                             "name", str_or_null(f->calls.items[k].name), "loc",
                                             loc_json(f->calls.items[k].loc), "conditional",
                                             f->calls.items[k].conditional));
    json_array_append_new(funcs, json_pack("{s:o,s:s,s:o,s:o,s:o}", "calls", every, "usr", f->usr,
                                           "name", str_or_null(f->name), "loc", loc_json(f->loc),
                                           "per_call", per_call));
  }
  for (size_t i = 0; i < u->loop_calls.len; i++) {
    const gm_unit_loop_call *c = &u->loop_calls.items[i];
    json_array_append_new(
        calls, json_pack("{s:o,s:s,s:o,s:o,s:o,s:I}", "caller", str_or_null(c->caller), "usr",
                         c->usr, "name", str_or_null(c->name), "call", loc_json(c->call), "loop",
                         loc_json(c->loop), "per_element", (json_int_t)c->per_element));
  }
  for (size_t i = 0; i < u->called.len; i++)
    json_array_append_new(called, json_string(u->called.items[i]));
  for (size_t i = 0; i < u->summaries.len; i++)
    json_array_append_new(summaries, summary_json(&u->summaries.items[i]));
  json_t *helper_summaries = json_array();
  for (size_t i = 0; i < u->helper_summaries.len; i++)
    json_array_append_new(helper_summaries, summary_json(&u->helper_summaries.items[i]));
  for (size_t i = 0; i < u->members.len; i++) {
    const gm_unit_member_use *m = &u->members.items[i];
    json_t *frees = json_array();
    for (int k = 0; k < m->nfrees; k++)
      json_array_append_new(frees, json_string(m->frees[k]));
    json_array_append_new(
        members,
        json_pack(
            "{s:i,s:s,s:o,s:s,s:b,s:b,s:b,s:o,s:i,s:b,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:i,s:b,s:o}",
            "kind", (int)m->kind, "record", m->record, "record_name", str_or_null(m->record_name),
            "member", m->member, "global", m->global, "internal", m->internal, "defines",
            m->defines, "via_usr", str_or_null(m->via_usr), "via_arg", m->via_arg, "via_addr",
            m->via_addr, "loc", loc_json(m->loc), "function", str_or_null(m->function),
            "function_usr", str_or_null(m->function_usr), "api", str_or_null(m->api), "family",
            family_json(&m->family), "frees", frees, "conditional", m->conditional, "cover",
            m->cover, "own_block", m->own_block, "source", str_or_null(m->source)));
  }
  json_t *edges = json_array();
  for (size_t i = 0; i < u->edges.len; i++) {
    const gm_unit_edge *e = &u->edges.items[i];
    json_array_append_new(edges, json_pack("{s:s,s:o,s:s,s:o,s:o}", "caller_usr", e->caller_usr,
                                           "caller", str_or_null(e->caller), "usr", e->usr, "name",
                                           str_or_null(e->name), "loc", loc_json(e->loc)));
  }
  json_t *families = json_array(), *teardowns = json_array();
  for (size_t i = 0; i < u->families.len; i++)
    json_array_append_new(families, family_json(&u->families.items[i]));
  for (size_t i = 0; i < u->teardowns.len; i++) {
    const gm_unit_teardown *t = &u->teardowns.items[i];
    json_array_append_new(teardowns,
                          json_pack("{s:s,s:s,s:o,s:o,s:b}", "record", t->record, "usr", t->usr,
                                    "name", str_or_null(t->name), "loc", loc_json(t->loc),
                                    "calls_elsewhere", t->calls_elsewhere));
  }
  json_t *objects = json_array();
  for (size_t i = 0; i < u->objects.len; i++) {
    const gm_unit_object *o = &u->objects.items[i];
    json_array_append_new(objects, json_pack("{s:s,s:o,s:o,s:b}", "record", o->record, "function",
                                             str_or_null(o->function), "loc", loc_json(o->loc),
                                             "in_loop", o->in_loop));
  }
  json_t *root =
      json_pack("{s:i,s:b,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "unit_format",
                UNIT_FORMAT, "allocates", u->allocates, "defined", defined, "symbols", symbols,
                "called", called, "summaries", summaries, "funcs", funcs, "loop_calls", calls,
                "members", members, "edges", edges, "families", families, "teardowns", teardowns,
                "helper_summaries", helper_summaries, "objects", objects);
  char *text = json_dumps(root, JSON_COMPACT);
  json_decref(root);
  return text;
}

/* Readers: each returns 0 when the value is not of the expected shape. */
static int get_str(gm_unit *u, json_t *v, const char **out) {
  if (json_is_null(v)) {
    *out = NULL;
    return 1;
  }
  if (!json_is_string(v))
    return 0;
  *out = gm_arena_strdup(u->arena, json_string_value(v));
  return 1;
}

static int get_loc(gm_unit *u, json_t *v, gm_loc *out) {
  json_t *file;
  json_int_t line, col;
  if (json_unpack(v, "[o,I,I]", &file, &line, &col) != 0 || !get_str(u, file, &out->file))
    return 0;
  out->line = (unsigned)line;
  out->col = (unsigned)col;
  return 1;
}

static int get_family(gm_unit *u, json_t *v, gm_unit_family *out) {
  json_t *name, *description, *free_fn;
  return json_unpack(v, "{s:o,s:o,s:o,s:b,s:b,s:b,s:b}", "name", &name, "description", &description,
                     "free_fn", &free_fn, "gpu", &out->gpu, "heap", &out->heap, "pinned",
                     &out->pinned, "managed", &out->managed) == 0 &&
         get_str(u, name, &out->name) && get_str(u, description, &out->description) &&
         get_str(u, free_fn, &out->free_fn);
}

static int read_funcs(gm_unit *u, json_t *funcs) {
  size_t i, k;
  json_t *v, *a;
  json_array_foreach(funcs, i, v) {
    gm_unit_func f = {0};
    json_t *usr, *name, *loc, *per_call, *every, *c;
    if (json_unpack(v, "{s:o,s:o,s:o,s:o,s:o}", "usr", &usr, "name", &name, "loc", &loc, "per_call",
                    &per_call, "calls", &every) != 0 ||
        !get_str(u, usr, &f.usr) || !f.usr || !get_str(u, name, &f.name) ||
        !get_loc(u, loc, &f.loc) || !json_is_array(per_call) || !json_is_array(every))
      return 0;
    json_array_foreach(every, k, c) {
      gm_unit_call call = {0};
      json_t *cusr, *cname, *cloc;
      if (json_unpack(c, "{s:o,s:o,s:o,s:b}", "usr", &cusr, "name", &cname, "loc", &cloc,
                      "conditional", &call.conditional) != 0 ||
          !get_str(u, cusr, &call.usr) || !call.usr || !get_str(u, cname, &call.name) ||
          !get_loc(u, cloc, &call.loc)) {
        GM_VEC_FREE(f.calls);
        return 0;
      }
      GM_PUSH(f.calls, call);
    }
    GM_PUSH(u->funcs, f);
    gm_unit_func *kept = &u->funcs.items[u->funcs.len - 1];
    json_array_foreach(per_call, k, a) {
      gm_unit_alloc al = {0};
      json_t *aloc, *api, *family;
      if (json_unpack(a, "{s:o,s:o,s:o,s:i,s:b,s:b,s:b}", "loc", &aloc, "api", &api, "family",
                      &family, "out_param", &al.out_param, "returned", &al.returned, "freed",
                      &al.freed, "global", &al.global) != 0 ||
          !get_loc(u, aloc, &al.loc) || !get_str(u, api, &al.api) ||
          !get_family(u, family, &al.family))
        return 0;
      GM_PUSH(kept->per_call, al);
    }
  }
  return 1;
}

static int read_loop_calls(gm_unit *u, json_t *calls) {
  size_t i;
  json_t *v;
  json_array_foreach(calls, i, v) {
    gm_unit_loop_call c = {0};
    json_t *caller, *usr, *name, *call, *loop;
    json_int_t per_element;
    if (json_unpack(v, "{s:o,s:o,s:o,s:o,s:o,s:I}", "caller", &caller, "usr", &usr, "name", &name,
                    "call", &call, "loop", &loop, "per_element", &per_element) != 0 ||
        !get_str(u, caller, &c.caller) || !get_str(u, usr, &c.usr) || !c.usr ||
        !get_str(u, name, &c.name) || !get_loc(u, call, &c.call) || !get_loc(u, loop, &c.loop))
      return 0;
    c.per_element = (unsigned)per_element;
    GM_PUSH(u->loop_calls, c);
  }
  return 1;
}

static int read_edges(gm_unit *u, json_t *edges) {
  size_t i;
  json_t *v;
  json_array_foreach(edges, i, v) {
    gm_unit_edge e = {0};
    json_t *caller_usr, *caller, *usr, *name, *loc;
    if (json_unpack(v, "{s:o,s:o,s:o,s:o,s:o}", "caller_usr", &caller_usr, "caller", &caller, "usr",
                    &usr, "name", &name, "loc", &loc) != 0 ||
        !get_str(u, caller_usr, &e.caller_usr) || !e.caller_usr || !get_str(u, caller, &e.caller) ||
        !get_str(u, usr, &e.usr) || !e.usr || !get_str(u, name, &e.name) ||
        !get_loc(u, loc, &e.loc))
      return 0;
    GM_PUSH(u->edges, e);
  }
  return 1;
}

enum string_list { DEFINED, CALLED, SYMBOLS };

static int read_strings(gm_unit *u, json_t *array, enum string_list which) {
  size_t i;
  json_t *v;
  json_array_foreach(array, i, v) {
    const char *s;
    if (!json_is_string(v) || !get_str(u, v, &s))
      return 0;
    if (which == CALLED)
      GM_PUSH(u->called, s);
    else if (which == SYMBOLS)
      GM_PUSH(u->symbols, s);
    else
      GM_PUSH(u->defined, s);
  }
  return 1;
}

static int read_summaries(gm_unit *u, json_t *summaries, int helpers) {
  size_t i, k, f;
  json_t *v, *pv, *fv;
  json_array_foreach(summaries, i, v) {
    gm_call_summary cs = {0};
    json_t *usr, *name, *fresh, *params, *members, *effects;
    if (json_unpack(v, "{s:o,s:o,s:b,s:o,s:o,s:o,s:o}", "usr", &usr, "name", &name, "noreturn",
                    &cs.noreturn, "returns_fresh", &fresh, "params", &params, "member_frees",
                    &members, "members", &effects) != 0 ||
        !get_str(u, usr, &cs.usr) || !cs.usr || !get_str(u, name, &cs.name) ||
        !get_str(u, fresh, &cs.returns_fresh) || !json_is_array(params) ||
        !json_is_array(members) || !json_is_array(effects))
      return 0;
    cs.member_frees =
        gm_arena_alloc(u->arena, sizeof *cs.member_frees * (json_array_size(members) + 1));
    json_array_foreach(members, k, pv) {
      gm_member_free_summary *m = &cs.member_frees[cs.nmember_frees++];
      json_t *member, *via, *frees, *at;
      if (json_unpack(pv, "{s:o,s:o,s:o,s:o}", "member", &member, "via", &via, "frees", &frees,
                      "at", &at) != 0 ||
          !get_str(u, member, &m->member) || !m->member || !get_str(u, via, &m->via) ||
          !json_is_array(frees) || !get_loc(u, at, &m->at))
        return 0;
      json_array_foreach(frees, f, fv) {
        if (m->nfrees < GM_SUMMARY_MAX_FREES && !get_str(u, fv, &m->frees[m->nfrees++]))
          return 0;
      }
    }
    cs.members = gm_arena_alloc(u->arena, sizeof *cs.members * (json_array_size(effects) + 1));
    json_array_foreach(effects, k, pv) {
      gm_member_effect *m = &cs.members[cs.nmembers++];
      json_t *member, *family;
      if (json_unpack(pv, "{s:i,s:o,s:b,s:b,s:o}", "root", &m->root, "member", &member, "clobbers",
                      &m->clobbers, "fills", &m->fills, "family", &family) != 0 ||
          !get_str(u, member, &m->member) || !m->member || !get_str(u, family, &m->family))
        return 0;
    }
    cs.nparams = (int)json_array_size(params);
    cs.params = gm_arena_alloc(u->arena, sizeof *cs.params * (size_t)(cs.nparams + 1));
    json_array_foreach(params, k, pv) {
      gm_param_summary *p = &cs.params[k];
      int effect;
      json_t *via, *frees, *family, *launch, *kusr, *kname, *dense, *dwhere;
      if (json_unpack(pv, "{s:i,s:b,s:b,s:o,s:o,s:o,s:b,s:b,s:o,s:o,s:o,s:i,s:o,s:o}", "effect",
                      &effect, "reads_only", &p->reads_only, "nulls", &p->nulls, "via", &via,
                      "frees", &frees, "family", &family, "prefetches", &p->prefetches,
                      "host_touch", &p->host_touch, "launch", &launch, "kernel_usr", &kusr,
                      "kernel_name", &kname, "kernel_param", &p->kernel_param, "dense", &dense,
                      "dense_where", &dwhere) != 0 ||
          effect < GM_PARAM_BORROWS || effect > GM_PARAM_FREES_DEREF || !get_str(u, via, &p->via) ||
          !get_str(u, family, &p->family) || !json_is_array(frees) ||
          !get_loc(u, launch, &p->launch) || !get_str(u, kusr, &p->kernel_usr) ||
          !get_str(u, kname, &p->kernel_name) || !get_loc(u, dense, &p->dense) ||
          !get_str(u, dwhere, &p->dense_where))
        return 0;
      p->effect = (enum gm_param_effect)effect;
      json_array_foreach(frees, f, fv) {
        if (p->nfrees < GM_SUMMARY_MAX_FREES && !get_str(u, fv, &p->frees[p->nfrees++]))
          return 0;
      }
    }
    if (helpers)
      GM_PUSH(u->helper_summaries, cs);
    else
      GM_PUSH(u->summaries, cs);
  }
  return 1;
}

static int read_members(gm_unit *u, json_t *members) {
  size_t i, k;
  json_t *v, *f;
  json_array_foreach(members, i, v) {
    gm_unit_member_use m = {0};
    int kind;
    json_t *record, *record_name, *member, *via_usr, *loc, *function, *function_usr, *api, *family,
        *frees, *source;
    if (json_unpack(
            v, "{s:i,s:o,s:o,s:o,s:b,s:b,s:b,s:o,s:i,s:b,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:i,s:b,s:o}",
            "kind", &kind, "record", &record, "record_name", &record_name, "member", &member,
            "global", &m.global, "internal", &m.internal, "defines", &m.defines, "via_usr",
            &via_usr, "via_arg", &m.via_arg, "via_addr", &m.via_addr, "loc", &loc, "function",
            &function, "function_usr", &function_usr, "api", &api, "family", &family, "frees",
            &frees, "conditional", &m.conditional, "cover", &m.cover, "own_block", &m.own_block,
            "source", &source) != 0 ||
        !get_str(u, via_usr, &m.via_usr) || kind < GM_MEMBER_ALLOC || kind > GM_MEMBER_ALIAS ||
        !get_str(u, source, &m.source) || !get_str(u, record, &m.record) || !m.record ||
        !get_str(u, record_name, &m.record_name) || !get_str(u, member, &m.member) || !m.member ||
        !get_loc(u, loc, &m.loc) || !get_str(u, function, &m.function) ||
        !get_str(u, function_usr, &m.function_usr) || !get_str(u, api, &m.api) ||
        !get_family(u, family, &m.family) || !json_is_array(frees))
      return 0;
    m.kind = (enum gm_member_use_kind)kind;
    json_array_foreach(frees, k, f) {
      if (m.nfrees < 8 && !get_str(u, f, &m.frees[m.nfrees++]))
        return 0;
    }
    GM_PUSH(u->members, m);
  }
  return 1;
}

static int read_families(gm_unit *u, json_t *families) {
  size_t i;
  json_t *v;
  json_array_foreach(families, i, v) {
    gm_unit_family f = {0};
    if (!get_family(u, v, &f) || !f.name)
      return 0;
    GM_PUSH(u->families, f);
  }
  return 1;
}

static int read_teardowns(gm_unit *u, json_t *teardowns) {
  size_t i;
  json_t *v;
  json_array_foreach(teardowns, i, v) {
    gm_unit_teardown t = {0};
    json_t *record, *usr, *name, *loc;
    if (json_unpack(v, "{s:o,s:o,s:o,s:o,s:b}", "record", &record, "usr", &usr, "name", &name,
                    "loc", &loc, "calls_elsewhere", &t.calls_elsewhere) != 0 ||
        !get_str(u, record, &t.record) || !t.record || !get_str(u, usr, &t.usr) || !t.usr ||
        !get_str(u, name, &t.name) || !get_loc(u, loc, &t.loc))
      return 0;
    GM_PUSH(u->teardowns, t);
  }
  return 1;
}

static int read_objects(gm_unit *u, json_t *objects) {
  size_t i;
  json_t *v;
  json_array_foreach(objects, i, v) {
    gm_unit_object o = {0};
    json_t *record, *function, *loc;
    if (json_unpack(v, "{s:o,s:o,s:o,s:b}", "record", &record, "function", &function, "loc", &loc,
                    "in_loop", &o.in_loop) != 0 ||
        !get_str(u, record, &o.record) || !o.record || !get_str(u, function, &o.function) ||
        !get_loc(u, loc, &o.loc))
      return 0;
    GM_PUSH(u->objects, o);
  }
  return 1;
}

gm_unit *gm_unit_from_json(const char *text, const char *path) {
  json_t *root = json_loads(text, 0, NULL);
  if (!root)
    return NULL;
  gm_unit *u = gm_xcalloc(1, sizeof *u);
  u->arena = gm_arena_new();
  u->path = gm_arena_strdup(u->arena, path);
  int format = 0;
  json_t *defined, *called, *summaries, *funcs, *calls, *members, *edges, *families, *teardowns,
      *helper_summaries, *objects, *symbols;
  int ok =
      json_unpack(root, "{s:i,s:b,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "unit_format",
                  &format, "allocates", &u->allocates, "defined", &defined, "symbols", &symbols,
                  "called", &called, "summaries", &summaries, "funcs", &funcs, "loop_calls", &calls,
                  "members", &members, "edges", &edges, "families", &families, "teardowns",
                  &teardowns, "helper_summaries", &helper_summaries, "objects", &objects) == 0 &&
      format == UNIT_FORMAT && json_is_array(defined) && json_is_array(symbols) &&
      json_is_array(called) && json_is_array(summaries) && json_is_array(funcs) &&
      json_is_array(calls) && json_is_array(members) && json_is_array(edges) &&
      json_is_array(families) && json_is_array(teardowns) && json_is_array(helper_summaries) &&
      json_is_array(objects);
  ok = ok && read_strings(u, defined, DEFINED) && read_strings(u, symbols, SYMBOLS) &&
       read_strings(u, called, CALLED) && read_summaries(u, summaries, 0) && read_funcs(u, funcs) &&
       read_loop_calls(u, calls) && read_members(u, members) && read_edges(u, edges) &&
       read_families(u, families) && read_teardowns(u, teardowns) &&
       read_summaries(u, helper_summaries, 1) && read_objects(u, objects);
  json_decref(root);
  if (!ok) {
    gm_unit_free(u);
    return NULL;
  }
  return u;
}
