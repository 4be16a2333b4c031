/* Teardown coverage, for the unit summary (unit.c; shared inside program/ only): whether a
 * function that frees a member frees it on every path through its body, or only in some cases
 * of a switch or on some branches of an if. Structural and lenient: an early return is a guard
 * (`if (!w) return;`), a loop may run, a test of the member itself (`if (w->buf) cudaFree(..)`)
 * is a null check, and a switch without a default is taken to list every case. Also which local
 * objects the program destroys while it runs: what a class with no teardown loses each time. */
#ifndef GM_PROGRAM_TEARDOWN_H
#define GM_PROGRAM_TEARDOWN_H

#include "model/model.h"

/* Whether the node names the member (a free's argument, a read in a condition); `element`:
 * one of its elements (`s->bufs[i]`) is asked for. */
typedef int (*gm_member_match)(const gm_node *n, int element, void *arg);

enum gm_free_cover {
  GM_FREE_EVERY_PATH,    /* freed on every path through the function */
  GM_FREE_SOME_CASES,    /* in some cases of a switch only */
  GM_FREE_SOME_BRANCHES, /* on some branches of an if (or ?:, &&, ||) only */
};

/* How `free_call`, a free of the member in `body`, covers the function's paths, together with
 * the function's other frees of it. */
enum gm_free_cover gm_free_coverage(const gm_node *body, const gm_node *free_call, int element,
                                    gm_member_match match, void *arg);

/* Whether `n` runs whenever its function runs as far as it: under no branch (if, ?:, switch,
 * &&, ||, a handler) but in the condition, and in no lambda; loops are let run. */
int gm_on_every_call(const gm_node *n, const gm_node *body);

/* Whether declaration `decl` of fn makes a local object of a class that the program destroys
 * while it runs: made by the class's constructor (*record_len: the length of the class's USR
 * at the start of the constructor's), in a loop that repeats (*in_loop) or in a function other
 * than main, and never copied or handed out (returned, passed, its address taken). */
int gm_dying_object(const gm_func *fn, const gm_node *decl, size_t *record_len, int *in_loop);

#endif
