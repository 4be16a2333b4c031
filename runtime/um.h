/* Unified-memory counters (um.c) and the process's one CUPTI subscription they come through.
 * Private to runtime/. */
#ifndef GMEMRT_UM_H
#define GMEMRT_UM_H

#include "internal.h"

#include <stdint.h>

extern int gmemrt_um_available;
extern gmemrt_um_counts gmemrt_um_unattributed;
extern uint64_t gmemrt_um_records[16]; /* records seen, by counter kind */
void gmemrt_um_start(void);
void gmemrt_um_flush(void);           /* without the lock: CUPTI calls back into us */
void gmemrt_um_note_step(void);       /* at gmem_step(), lock held */
void gmemrt_um_after_cuda_call(void); /* enables the counters once the driver is up */
const char *gmemrt_um_reason(void);
/* The process's one CUPTI subscription, shared with the injected runtime's API callbacks. */
extern void (*gmemrt_cupti_api_callback)(void *, int, unsigned, const void *);
int gmemrt_cupti_subscribed(void);
int gmemrt_cupti_enable_callback(int domain, unsigned id, int on);
const char *gmemrt_cupti_callback_name(int domain, unsigned id);

#endif
