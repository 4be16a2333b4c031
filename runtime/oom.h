/* Out of memory (oom.c), called without the lock. Private to runtime/. */
#ifndef GMEMRT_OOM_H
#define GMEMRT_OOM_H

#include <stdint.h>

void gmemrt_oom_event(int site, uint64_t requested);
void gmemrt_note_baseline(int device);

#endif
