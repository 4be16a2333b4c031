// expected-no-diagnostics
// Loading a checkpoint: every layer's weights live in their own host and
// device allocations (pointer tables), all of the same shape. Each copy moves
// a whole tensor between separate allocations; the addresses are loaded from
// the tables, they do not advance through one range, so no single copy could
// replace the loop.
#include <cuda_runtime.h>
#include <stdio.h>

struct Checkpoint {
  float* host[16];
};

struct Model {
  float* dev[16];
  int nlayers;
};

void load(Model* m, const Checkpoint* ck, size_t layer_bytes) {
  for (int l = 0; l < m->nlayers; ++l)
    cudaMemcpy(m->dev[l], ck->host[l], layer_bytes, cudaMemcpyHostToDevice);
}

void save(const Model* m, Checkpoint* ck, size_t layer_bytes) {
  for (int l = 0; l < m->nlayers; ++l)
    cudaMemcpy(ck->host[l], m->dev[l], layer_bytes, cudaMemcpyDeviceToHost);
}
