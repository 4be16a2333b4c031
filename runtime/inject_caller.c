/* Which frames of the stack are CUDA's own and which is the program's call into it, by a full
 * unwind or, for a wrapped call, by the return addresses learnt for the place it came from. */
#include "inject_caller.h"
#include "attach.h"
#include "internal.h"
#include "symbols.h"

#define UNW_LOCAL_ONLY /* this process's own stack: libunwind's faster local-only entry points */
#include <libunwind.h>
#include <pthread.h>
#include <string.h>

enum { CLASS_SLOTS = 8192 };
static struct {
  uintptr_t pc;
  int kind;
} classes[CLASS_SLOTS];
static pthread_mutex_t class_lock = PTHREAD_MUTEX_INITIALIZER;

static int starts(const char *s, const char *prefix) {
  return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The driver (libcuda, CUPTI, NVIDIA's libraries), the CUDA runtime (libcudart, or the one
 * linked statically into the program: functions cuda*, cu[A-Z]*, cudart:: and __cudart*, and the
 * C++ wrappers of cuda_runtime.h), this runtime, or the program. */
static int classify_slow(uintptr_t pc) {
  gmemrt_symbol sym;
  if (!gmemrt_symbolise(pc, &sym))
    return FRAME_CALLER;
  const char *mod = sym.module ? strrchr(sym.module, '/') : NULL;
  mod = mod ? mod + 1 : sym.module;
  const char *fn = sym.function;
  if (starts(mod, "libgmemrt"))
    return FRAME_OWN;
  if (mod && strstr(mod, "cudart"))
    return FRAME_RUNTIME;
  if (starts(mod, "libcuda") || starts(mod, "libcupti") || starts(mod, "libnvidia"))
    return FRAME_DRIVER;
  /* the static runtime's own functions are named libcudart_static_<hash> */
  if (starts(fn, "cuda") || starts(fn, "__cuda") || starts(fn, "_ZN6cudart") ||
      starts(fn, "__cudart") || starts(fn, "libcudart_static_") ||
      gmemrt_is_cuda_wrapper_name(fn) ||
      (fn && fn[0] == 'c' && fn[1] == 'u' && fn[2] >= 'A' && fn[2] <= 'Z'))
    return FRAME_RUNTIME;
  return FRAME_CALLER;
}

/* A frame's class, cached by address: read without a lock (a slot's kind is written before its
 * pc is published), symbolised once under it. */
static int classify(uintptr_t pc) {
  size_t h = (size_t)((pc * 0x9E3779B97F4A7C15ULL) >> 51) & (CLASS_SLOTS - 1);
  for (size_t i = h, n = 0; n < 16; i = (i + 1) & (CLASS_SLOTS - 1), n++) {
    uintptr_t seen = __atomic_load_n(&classes[i].pc, __ATOMIC_ACQUIRE);
    if (seen == pc)
      return classes[i].kind;
    if (!seen)
      break;
  }
  int kind = classify_slow(pc);
  pthread_mutex_lock(&class_lock);
  for (size_t i = h, n = 0; n < 16; i = (i + 1) & (CLASS_SLOTS - 1), n++)
    if (!classes[i].pc || classes[i].pc == pc) {
      classes[i].kind = kind;
      __atomic_store_n(&classes[i].pc, pc, __ATOMIC_RELEASE);
      break;
    }
  pthread_mutex_unlock(&class_lock);
  return kind;
}

/* The program's call into CUDA: the first frame that is not CUDA's own code. A short unwind
 * (libunwind's cached fast path) finds it in the usual case; a deep one only when needed.
 * *via_runtime says whether the CUDA runtime stood between the program and this library;
 * *entry, which kind of CUDA code the program called (FRAME_DRIVER: the driver API itself);
 * *runtime_pc, the first frame in the CUDA runtime, if any. */
gmemrt_where find_caller(int *via_runtime, int *entry, uintptr_t *runtime_pc) {
  *via_runtime = 0;
  *entry = FRAME_UNKNOWN;
  *runtime_pc = 0;
  /* as deep as the callers found so far needed, so that one walk usually suffices */
  static int depth_hint = 8;
  void *frames[64];
  for (int depth = __atomic_load_n(&depth_hint, __ATOMIC_RELAXED);; depth = 64) {
    int n = unw_backtrace(frames, depth);
    for (int i = 1; i < n; i++) {
      int kind = classify((uintptr_t)frames[i]);
      if (kind == FRAME_CALLER) {
        if (i + 2 > depth && i + 2 <= 64)
          __atomic_store_n(&depth_hint, i + 2, __ATOMIC_RELAXED);
        return (gmemrt_where){.pc = (uintptr_t)frames[i], .ret = (uintptr_t)frames[i]};
      }
      if (kind == FRAME_RUNTIME && !*via_runtime)
        *runtime_pc = (uintptr_t)frames[i];
      *via_runtime |= kind == FRAME_RUNTIME;
      if (kind != FRAME_OWN)
        *entry = kind;
    }
    if (n < depth || depth == 64)
      return (gmemrt_where){.pc = n > 1 ? (uintptr_t)frames[n - 1] : 1, .ret = 0};
  }
}

/* ---- the caller of a wrapped call (inject_caller.h says how) ---- */
chain chains[CHAIN_SLOTS];
static pthread_mutex_t chain_lock = PTHREAD_MUTEX_INITIALIZER;
__thread unsigned chain_calls;

static chain *find_chain(uintptr_t ra0) {
  size_t h = chain_slot(ra0);
  for (size_t i = h, n = 0; n < 8; i = (i + 1) & (CHAIN_SLOTS - 1), n++) {
    uintptr_t seen = __atomic_load_n(&chains[i].ra0, __ATOMIC_ACQUIRE);
    if (seen == ra0 || !seen)
      return &chains[i];
  }
  return NULL;
}

/* Walks the stack once with libunwind's cursor from here up to the program, noting where each
 * frame above the wrapper keeps its return address. */
static void learn_chain(chain *c, uintptr_t *slot0) {
  chain learnt = {.ra0 = *slot0, .state = CHAIN_UNUSABLE};
  unw_context_t context;
  unw_cursor_t cursor;
  int started = 0, frames = 0;
  if (unw_getcontext(&context) == 0 && unw_init_local(&cursor, &context) == 0) {
    for (int steps = 0; steps < 64 && unw_step(&cursor) > 0; steps++) {
      unw_word_t ip;
      unw_save_loc_t loc;
      if (unw_get_reg(&cursor, UNW_REG_IP, &ip) != 0 ||
          unw_get_save_loc(&cursor, UNW_REG_IP, &loc) != 0 || loc.type != UNW_SLT_MEMORY)
        break;
      uintptr_t *slot = (uintptr_t *)loc.u.addr;
      started |= slot == slot0;
      if (!started)
        continue; /* this library's own frames */
      ptrdiff_t offset = slot - slot0;
      if (offset < 0 || offset >= CHAIN_REACH || *slot != (uintptr_t)ip)
        break;
      int kind = classify((uintptr_t)ip);
      if (kind == FRAME_CALLER) {
        learnt.frames = frames;
        learnt.offset[frames] = (int)offset;
        learnt.state = CHAIN_USABLE;
        break;
      }
      if (kind == FRAME_OWN || frames == CHAIN_FRAMES)
        break;
      learnt.via_runtime |= kind == FRAME_RUNTIME;
      learnt.ra[frames] = (uintptr_t)ip;
      learnt.offset[frames++] = (int)offset;
    }
  }
  uintptr_t ra0 = learnt.ra0;
  learnt.ra0 = 0; /* c->ra0 is still 0: it is published last, once the rest is in */
  *c = learnt;
  __atomic_store_n(&c->ra0, ra0, __ATOMIC_RELEASE);
}

/* The program's call, through the shortcut; 0 when it does not apply. */
static int chain_caller(uintptr_t *slot0, int *via_runtime, gmemrt_where *where) {
  uintptr_t ra0 = *slot0;
  chain *c = find_chain(ra0);
  if (!c)
    return 0;
  if (__atomic_load_n(&c->ra0, __ATOMIC_ACQUIRE) != ra0) {
    pthread_mutex_lock(&chain_lock);
    if (c->ra0 == 0)
      learn_chain(c, slot0);
    pthread_mutex_unlock(&chain_lock);
    if (__atomic_load_n(&c->ra0, __ATOMIC_ACQUIRE) != ra0)
      return 0;
  }
  if (__atomic_load_n(&c->state, __ATOMIC_RELAXED) != CHAIN_USABLE)
    return 0;
  uintptr_t pc = chain_program_pc(c, slot0);
  if (!pc)
    return 0;
  if (pc != __atomic_load_n(&c->last_caller, __ATOMIC_RELAXED)) {
    if (classify(pc) != FRAME_CALLER)
      return 0;
    __atomic_store_n(&c->last_caller, pc, __ATOMIC_RELAXED);
  }
  if ((++chain_calls & 1023) == 0) {
    int full_via_runtime, entry;
    uintptr_t runtime_pc;
    if (find_caller(&full_via_runtime, &entry, &runtime_pc).pc != pc) {
      __atomic_store_n(&c->state, CHAIN_UNUSABLE, __ATOMIC_RELAXED);
      __atomic_add_fetch(&gmemrt_attach.shortcut_failures, 1, __ATOMIC_RELAXED);
      return 0;
    }
  }
  *via_runtime = c->via_runtime;
  *where = (gmemrt_where){.pc = pc, .ret = pc};
  return 1;
}

/* The program's call, without the shortcut's fast path: learning a place, further probes, a
 * new caller, the periodic full unwind, or no shortcut at all. */
__attribute__((noinline)) gmemrt_where caller_slow(int *via_runtime, uintptr_t *slot0) {
  int entry;
  uintptr_t runtime_pc;
  if (!gmemrt_opt.caller_sites) {
    *via_runtime = 1; /* unknown: named as the runtime would call it */
    return (gmemrt_where){.file = "(all callers)", .line = 0}; /* one site per API */
  }
  gmemrt_where where;
  if (slot0 && chain_caller(slot0, via_runtime, &where))
    return where;
  return find_caller(via_runtime, &entry, &runtime_pc);
}
