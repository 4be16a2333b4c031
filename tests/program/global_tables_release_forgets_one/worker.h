// Per-thread tables shared by the files of one program: init.cu allocates each thread's set,
// release.cu frees it and forgets one (and frees the pinned one with the device free).
#pragma once
#include <stddef.h>
#include <stdint.h>

#define MAX_THREADS 8

extern uint32_t *d_state[MAX_THREADS];
extern uint32_t *d_found[MAX_THREADS];
extern uint32_t *h_found[MAX_THREADS];

void worker_init(int thr, size_t n);
int worker_scan(int thr);
void worker_release(int thr);
void launch_step(uint32_t *state, uint32_t *found);
