// Per-frame loop: the host writes the managed input, then a kernel reads it.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void brighten(unsigned char* px, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) px[i] = px[i] > 200 ? 255 : px[i] + 55;
}

void pipeline(int nframes, int w, int h, void (*show)(const unsigned char*)) {
  int n = w * h;
  unsigned char* frame = nullptr;
  cudaMallocManaged(&frame, n); // expected-warning {{'frame' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  for (int f = 0; f < nframes; ++f) { // expected-note {{the loop}}
    for (int i = 0; i < n; ++i)
      frame[i] = (unsigned char)((i + f) & 0xff); // expected-note {{and host code touches it here, in the same loop}}
    brighten<<<(n + 255) / 256, 256>>>(frame, n); // expected-note {{a kernel uses it here}}
    cudaDeviceSynchronize();
    show(frame);
  }
  cudaFree(frame);
}
// expected-rules-unchecked GM030: the managed memory is launched on without a prefetch as the shape needs; GM030's own tests cover that
