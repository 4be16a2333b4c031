// Managed-memory edge list grown per vertex while building a graph on the
// host: allocate bigger, memcpy old edges, free old.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

int neighbours_of(int v, int* out, int max); // fills out, returns count

int* build_edges(int nverts, int* nedges_out) {
  int* edges = nullptr;
  int nedges = 0;
  int tmp[64];
  for (int v = 0; v < nverts; ++v) {
    int deg = neighbours_of(v, tmp, 64);
    int* grown = nullptr;
    cudaMallocManaged(&grown, (nedges + deg) * sizeof(int)); // expected-warning {{this buffer is regrown on every iteration: cudaMallocManaged allocates a larger block and the old contents are copied into it, so n iterations copy O(n^2) bytes and fragment memory; compute the final size and allocate once, or keep a capacity and grow it geometrically (double it) only when it runs out [GM020 growing-concatenation]}}
    memcpy(grown, edges, nedges * sizeof(int)); // expected-note {{the old contents are copied here}}
    memcpy(grown + nedges, tmp, deg * sizeof(int));
    cudaFree(edges); // expected-note {{and the old buffer is freed here}}
    edges = grown;
    nedges += deg;
  }
  *nedges_out = nedges;
  return edges;
}
