// The clean twin of global_tables_release_forgets_one: release.cu frees every table with its
// own family's free; a buffer handed to a function that keeps it (kernels.cu) is that
// function's to release, and a single file's tables could be freed by another.
#pragma once
#include <stddef.h>
#include <stdint.h>

#define MAX_THREADS 8

extern uint32_t *d_state[MAX_THREADS];
extern uint32_t *d_found[MAX_THREADS];
extern uint32_t *h_found[MAX_THREADS];
extern uint32_t *d_history[MAX_THREADS];

void worker_init(int thr, size_t n);
int worker_scan(int thr);
void worker_release(int thr);
void launch_step(uint32_t *state, uint32_t *found);
void keep_history(uint32_t *history);
