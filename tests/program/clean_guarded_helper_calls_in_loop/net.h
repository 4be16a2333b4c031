// A network's layers set up once: a shared scratch buffer regrown only when a layer needs more
// than the largest so far (capacity-guarded), per-layer buffers made lazily (`if (!l.delta)`),
// and a per-layer helper that fills the layer it is handed (net.cu), all called in loops over
// the layers, and a lookup table made on the first step only (setup.cu). Each allocation runs
// once per layer, per new maximum or per run, not per step.
#pragma once
#include <stddef.h>

struct Layer {
  size_t outputs;
  float *delta;
  float *workspace;
};

struct Net {
  int n;
  Layer *layers;
  size_t max_scratch;
  float *scratch;
};

float *make_array(size_t n);
void free_array(float *p);
void align_layer(Layer *l);
