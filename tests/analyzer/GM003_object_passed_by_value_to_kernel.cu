// An owning object passed by value to a kernel: the launch copies the argument on the host, member
// by member, and that copy is destroyed on the host as soon as the launch returns, so its
// destructor frees the buffer while the kernel may still be reading it; the original's destructor
// frees it again where its scope ends (here, after a second launch with the freed buffer).
#include <cuda_runtime.h>

struct Buffer {
  float* data;
  int n;
  Buffer(int count) : n(count) { cudaMalloc(&data, count * sizeof(float)); }
  ~Buffer() { cudaFree(data); } // expected-note {{the copy's destructor frees it here}}
};

__global__ void scale(Buffer b, float by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b.n)
    b.data[i] *= by;
}

void scale_twice(int n) {
  Buffer b(n);
  scale<<<(n + 255) / 256, 256>>>(b, 2.0f); // expected-warning {{'b.data' is freed twice: 'b' is passed by value to kernel 'scale', and the launch's copy of it, made member by member (Buffer's copy or move constructor is implicit or defaulted), frees it in ~Buffer as soon as the launch returns, while the kernel may still use it; pass the kernel the pointer or a view without a destructor, or give Buffer a copy constructor that copies the buffer (or delete it) [GM003 double-free]}}
  scale<<<(n + 255) / 256, 256>>>(b, 0.5f); // expected-note {{passed by value again here: that copy frees it again}}
  cudaDeviceSynchronize();
} // expected-note {{'b' is destroyed here, and ~Buffer frees it again}}
