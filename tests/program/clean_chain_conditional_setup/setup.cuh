// The clean twin of helper_chain_conditional_call: the same shape of calls
// from loops in main.cu through a conditional call in step.cu to helpers in
// buffers.cu, but nothing churns: the scratch buffer is made once (a global
// under a test of itself), and the per-thread hash buffers fill one element of
// a file-scope table per thread, from a loop over devices; the frame buffer
// is made by a call under a once-only flag (`if (!ready[t]) { ...; ready[t] = 1; }`).
#pragma once
#include <cstddef>

void advance(const float *d_in, size_t n);
void init_thread(int thr_id, size_t n);
void ensure_scratch(size_t n);
void alloc_hash(int thr_id, size_t n);
void make_frame(size_t n);
