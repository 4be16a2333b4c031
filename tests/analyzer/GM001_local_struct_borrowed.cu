// A pointer stored into a member of a local struct (a descriptor filled in for a call) is still
// the function's own while the struct stays in the function: handing the struct, by address or
// by value, to calls that only use it (the toolkit's, libc's, a kernel launch) keeps nothing,
// and a buffer never freed is a leak. (Twin: GM001_neg_local_struct_escapes.cu.)
#include <cuda_runtime.h>
#include <string.h>

struct Params {
  float *data;
  int n;
};

__global__ void scale(Params p) {
  if (threadIdx.x < p.n)
    p.data[threadIdx.x] *= 2.0f;
}

int texture_of(int n, cudaTextureObject_t *tex) {
  float *d_buf;
  if (cudaMalloc(&d_buf, n * sizeof(float)) != cudaSuccess) // expected-warning {{'d_buf' (device memory from cudaMalloc) is not freed on every path: a return leaves 'texture_of' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return -1;
  cudaResourceDesc res;
  memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d_buf;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc td;
  memset(&td, 0, sizeof(td));
  if (cudaCreateTextureObject(tex, &res, &td, nullptr) != cudaSuccess)
    return -1;
  cudaDestroyTextureObject(*tex);
  return 0; // expected-note {{this return leaves without freeing 'd_buf'}}
}

int launch_params(int n) {
  float *d_buf;
  if (cudaMalloc(&d_buf, n * sizeof(float)) != cudaSuccess) // expected-warning {{'d_buf' (device memory from cudaMalloc) is not freed on every path: a return leaves 'launch_params' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return -1;
  Params p;
  p.data = d_buf;
  p.n = n;
  scale<<<1, 256>>>(p);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : -1; // expected-note {{this return leaves without freeing 'd_buf'}}
}

struct Plan {
  Params in, out;
};

int member_allocated(int n) {
  Plan plan;
  if (cudaMalloc(&plan.in.data, n * sizeof(float)) != cudaSuccess) // expected-warning {{'plan.in.data' (device memory from cudaMalloc) is not freed on every path: a return leaves 'member_allocated' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return -1;
  plan.in.n = n;
  scale<<<1, 256>>>(plan.in);
  return 0; // expected-note {{this return leaves without freeing 'plan.in.data'}}
}
