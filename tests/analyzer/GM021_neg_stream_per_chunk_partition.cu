// expected-no-diagnostics
// A range split into as many chunks as the loop runs, each chunk copied on its own stream so that
// it overlaps with the kernels of the others (the copy loop, then the kernel loop): the size
// divides by the trip count, the trip count divides the range by the size, or the loop steps
// through the range by it.
#include <cuda_runtime.h>

__global__ void scale(float* d, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) d[i] *= 2.f;
}

void per_stream_share(float* d, const float* h, size_t n, cudaStream_t* streams, int nstreams) {
  size_t chunk = n / nstreams;
  for (int c = 0; c < nstreams; ++c)
    cudaMemcpyAsync(d + c * chunk, h + c * chunk, chunk * sizeof(float), cudaMemcpyHostToDevice, streams[c]);
  for (int c = 0; c < nstreams; ++c)
    scale<<<(chunk + 255) / 256, 256, 0, streams[c]>>>(d + c * chunk, chunk);
}

void fixed_chunks(float* d, const float* h, size_t n, size_t chunk, cudaStream_t* streams) {
  int nchunks = n / chunk;
  for (int c = 0; c < nchunks; ++c)
    cudaMemcpyAsync(d + c * chunk, h + c * chunk, chunk * sizeof(float), cudaMemcpyHostToDevice, streams[c % 4]);
  for (int c = 0; c < nchunks; ++c)
    scale<<<(chunk + 255) / 256, 256, 0, streams[c % 4]>>>(d + c * chunk, chunk);
}

void stepped_chunks(float* d, const float* h, size_t n, size_t chunk, cudaStream_t* streams) {
  int k = 0;
  for (size_t off = 0; off < n; off += chunk, ++k)
    cudaMemcpyAsync(d + off, h + off, chunk * sizeof(float), cudaMemcpyHostToDevice, streams[k % 4]);
}
