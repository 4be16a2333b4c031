/* What the injected runtime's calls (inject_calls.c) and its attach (inject.c) share: the
 * wrapped driver entry points, the runtime APIs handed over to them, and the steps a call may
 * set off. Private to runtime/inject*.c. */
#ifndef GMEMRT_INJECT_H
#define GMEMRT_INJECT_H

#include <cupti.h>
#include <pthread.h>
#include <stddef.h>

#include "internal.h" /* GMEMRT_API */

/* The CUDA driver calls it once it has loaded the library named by CUDA_INJECTION64_PATH. */
GMEMRT_API int InitializeInjection(void);

/* Shared by the injected runtime's files only: hidden, so that they stay out of the library's
 * exported symbols and are reached as directly as one file's statics. */
#pragma GCC visibility push(hidden)

/* A driver function the runtime's calls are handed over to (inject_calls.c says how). */
enum { WRAP_SLOTS = 4 }; /* distinct entry points under one name: legacy and per-thread stream */
enum { NOT_NAMED = -1, NAMED_BY_MANY = -2 };
typedef struct wrap {
  const char *symbol; /* cuGetProcAddress's name for it */
  int version;        /* the CUDA version from which that name means this signature */
  unsigned id;        /* the driver callback id whose parameters the wrapper replays */
  void *wrappers[WRAP_SLOTS];
  void *real[WRAP_SLOTS];
  int named_as; /* the runtime API seen calling it, NOT_NAMED or NAMED_BY_MANY */
} wrap;

enum { RT_IDS = CUPTI_RUNTIME_TRACE_CBID_SIZE };
extern unsigned char runtime_watched[RT_IDS]; /* callbacks on */
extern pthread_mutex_t hand_lock;

enum { WRAP_COUNT = 10 };
extern wrap wraps[WRAP_COUNT];

/* The name and family of each watched runtime API, read once (inject_calls.c). */
void name_runtime_apis(void);
/* The wrapper of real function `real` under wrap index, or NULL (inject_calls.c). */
void *wrapper_for(size_t index, void *real);
/* CUPTI's API callback: every call it reports (inject_calls.c). */
void on_api(void *data, int domain, unsigned id, const void *info);
/* Per thread: the runtime's own work, whose calls are not the program's (inject_calls.c). */
extern __thread int own_work;
/* GMEMRT_STEP_API's callback, which marks a step (set by inject.c). */
extern int step_domain;
extern unsigned step_id;

/* Objects loaded since the last look that link a driver allocation function (inject.c). */
void read_new_objects(void);
/* A call of cuInit, or the one the driver loaded this library in (inject.c). */
void on_cu_init(void);

#pragma GCC visibility pop

#endif
