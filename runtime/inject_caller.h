/* How the injected runtime finds the program's call behind a CUDA call (inject_caller.c): which
 * frames are CUDA's own, a full unwind, and the shortcut for a wrapped call, whose common case
 * is inline here for the wrappers. Private to runtime/inject*.c. */
#ifndef GMEMRT_INJECT_CALLER_H
#define GMEMRT_INJECT_CALLER_H

#include "internal.h"

#include <stddef.h>
#include <stdint.h>

/* Shared by the injected runtime's files only: hidden, so that they stay out of the library's
 * exported symbols and are reached as directly as one file's statics. */
#pragma GCC visibility push(hidden)

/* ---- which frames are CUDA's own ---- */

enum { FRAME_UNKNOWN, FRAME_DRIVER, FRAME_RUNTIME, FRAME_OWN, FRAME_CALLER };

/* The program's call into CUDA: the first frame that is not CUDA's own code. A short unwind
 * (libunwind's cached fast path) finds it in the usual case; a deep one only when needed.
 * *via_runtime says whether the CUDA runtime stood between the program and this library;
 * *entry, which kind of CUDA code the program called (FRAME_DRIVER: the driver API itself);
 * *runtime_pc, the first frame in the CUDA runtime, if any. */
gmemrt_where find_caller(int *via_runtime, int *entry, uintptr_t *runtime_pc);

/* ---- the caller of a wrapped call, without walking the whole stack ----
 * A wrapper is called from a few places in the CUDA runtime, and from each place the way up to
 * the program is the same: the same return addresses, kept in the same stack slots relative to
 * the slot of the wrapper's own return address (slot0). The first call from a place is walked
 * with libunwind's cursor, which says where each frame's return address is kept; later calls
 * read those slots, and take the shortcut only when every runtime frame's return address is the
 * one seen before and the last is the program's code. One call in 1024 is unwound in full as
 * well, and a difference ends the shortcut for that place. */
enum { CHAIN_SLOTS = 256, CHAIN_FRAMES = 8, CHAIN_REACH = 512 /* words above slot0 */ };
enum { CHAIN_UNKNOWN, CHAIN_USABLE, CHAIN_UNUSABLE };
typedef struct chain {
  uintptr_t ra0; /* the wrapper's return address: published last */
  int state, frames, via_runtime;
  uintptr_t ra[CHAIN_FRAMES];   /* the CUDA frames' return addresses, ra[0] == ra0 */
  int offset[CHAIN_FRAMES + 1]; /* their slots, and the program's, in words above slot0 */
  uintptr_t last_caller;        /* the program's return address last found through it */
} chain;
extern chain chains[CHAIN_SLOTS];
extern __thread unsigned chain_calls;

static inline size_t chain_slot(uintptr_t ra0) {
  return (size_t)((ra0 * 0x9E3779B97F4A7C15ULL) >> 56) & (CHAIN_SLOTS - 1);
}

/* The program's return address from its slot, when every runtime frame between holds the return
 * address learnt for it; else 0. */
static inline uintptr_t chain_program_pc(const chain *c, const uintptr_t *slot0) {
  for (int i = 0; i < c->frames; i++)
    if (slot0[c->offset[i]] != c->ra[i])
      return 0;
  return slot0[c->offset[c->frames]];
}

/* The program's call, without the shortcut's fast path: learning a place, further probes, a
 * new caller, the periodic full unwind, or no shortcut at all. */
__attribute__((noinline)) gmemrt_where caller_slow(int *via_runtime, uintptr_t *slot0);

/* The program's call: through the shortcut from a wrapper (slot0: where its return address is
 * kept), else by unwinding. The common case, a place seen before and the same program call as
 * last time from it, is inline: the chain in its first slot, its frames checked, and no full
 * unwind due; anything else goes to caller_slow(). */
static inline __attribute__((always_inline)) gmemrt_where caller(int *via_runtime,
                                                                 uintptr_t *slot0) {
  if (slot0 && gmemrt_opt.caller_sites) {
    uintptr_t ra0 = *slot0;
    chain *c = &chains[chain_slot(ra0)];
    if (__atomic_load_n(&c->ra0, __ATOMIC_ACQUIRE) == ra0 &&
        __atomic_load_n(&c->state, __ATOMIC_RELAXED) == CHAIN_USABLE && (chain_calls + 1) & 1023) {
      uintptr_t pc = chain_program_pc(c, slot0);
      if (pc && pc == __atomic_load_n(&c->last_caller, __ATOMIC_RELAXED)) {
        chain_calls++;
        *via_runtime = c->via_runtime;
        return (gmemrt_where){.pc = pc, .ret = pc};
      }
    }
  }
  return caller_slow(via_runtime, slot0);
}

#pragma GCC visibility pop

#endif
