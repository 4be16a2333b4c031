// expected-no-diagnostics
// The clean twin of GM010_small_buffer_per_data_element: the same small
// per-slot buffers, but one per device or per stream, where a table of
// separate allocations is the design (each device needs its own memory).
#include <cuda_runtime.h>

#define MAX_GPUS 16

static int* d_flags[MAX_GPUS];

void per_counted_device(int** d_counters) {
  int ndev = 0;
  cudaGetDeviceCount(&ndev);
  for (int dev = 0; dev < ndev; ++dev)
    cudaMalloc(&d_counters[dev], 4 * sizeof(int));
}

void per_gpu_slot(void) {
  for (int t = 0; t < MAX_GPUS; ++t)
    cudaMalloc(&d_flags[t], sizeof(int));
}

void per_stream(cudaStream_t* streams, float** d_partial, int nstreams) {
  for (int s = 0; s < nstreams; ++s) {
    cudaStreamCreate(&streams[s]);
    cudaMalloc(&d_partial[s], 256 * sizeof(float));
  }
}

void per_selected_device(float** d_sums, int ngpu) {
  for (int g = 0; g < ngpu; ++g) {
    cudaSetDevice(g);
    cudaMalloc(&d_sums[g], 64);
  }
}

// Large buffers per element: each is worth its own allocation.
void large_per_element(float** d_layers, int nlayers) {
  for (int l = 0; l < nlayers; ++l)
    cudaMalloc(&d_layers[l], 4 << 20);
}
