// A per-stream context with tables of device buffers: the table itself comes from malloc, each
// element from cudaMalloc (streams_setup.cu); the teardown (streams_teardown.cu) frees the input
// buffers and both tables, but not the output buffers.
#pragma once
#include <cstddef>

struct StreamSet {
  int count;
  float **d_inputs;
  float **d_outputs;
};

void streams_setup(StreamSet *set, int count, size_t bytes);
void streams_teardown(StreamSet *set);
