/* How the injected runtime (gmemrun) sees the program's calls, for runtime.attach: CUDA runtime
 * APIs handed over from CUPTI callbacks to wrapped driver entry points (inject*.c; writer.c writes
 * them). Private to runtime/. */
#ifndef GMEMRT_ATTACH_H
#define GMEMRT_ATTACH_H

#include <stdint.h>

enum { MAX_HANDED_OVER = 32 };
typedef struct gmemrt_attach_facts {
  uint64_t entry_points_wrapped; /* fetches of a driver entry point answered with a wrapper */
  uint64_t entry_points_adopted; /* pointers fetched before this library came, swapped in place */
  const char *adopted_in;        /* the object that held them */
  uint64_t wrapper_calls; /* calls a wrapper recorded, less each thread's last unflushed batch */
  uint64_t shortcut_failures; /* caller shortcuts a full unwind contradicted (inject_caller.c) */
  const char *handed_over[MAX_HANDED_OVER];
  int nhanded_over;
  const char *driver_callbacks; /* why the driver's allocation callbacks are on, or NULL */
} gmemrt_attach_facts;
extern gmemrt_attach_facts gmemrt_attach;
/* wrapper_calls with the calling thread's unflushed batch (other threads' stay unflushed) */
uint64_t gmemrt_attach_wrapper_calls(void);

#endif
