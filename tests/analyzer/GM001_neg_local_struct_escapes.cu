// expected-no-diagnostics
// The twin of GM001_local_struct_borrowed.cu: the same descriptors with the buffers freed; and
// local structs that get away with what their members hold (handed to a function that may keep
// it, to a same-file helper, whose summary follows its parameters and not their members, copied
// out, made the object of a member function), where the buffer's fate is not ours to judge.
#include <cuda_runtime.h>
#include <string.h>

struct Params {
  float *data;
  int n;
  void submit();
};

__global__ void scale(Params p) {
  if (threadIdx.x < p.n)
    p.data[threadIdx.x] *= 2.0f;
}

int texture_of(int n, cudaTextureObject_t *tex) {
  float *d_buf;
  if (cudaMalloc(&d_buf, n * sizeof(float)) != cudaSuccess)
    return -1;
  cudaResourceDesc res;
  memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d_buf;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc td;
  memset(&td, 0, sizeof(td));
  if (cudaCreateTextureObject(tex, &res, &td, nullptr) != cudaSuccess) {
    cudaFree(d_buf);
    return -1;
  }
  cudaDestroyTextureObject(*tex);
  cudaFree(d_buf);
  return 0;
}

int launch_params(int n) {
  float *d_buf;
  if (cudaMalloc(&d_buf, n * sizeof(float)) != cudaSuccess)
    return -1;
  Params p;
  p.data = d_buf;
  p.n = n;
  scale<<<1, 256>>>(p);
  cudaError_t err = cudaDeviceSynchronize();
  cudaFree(p.data);
  return err == cudaSuccess ? 0 : -1;
}

struct Plan {
  Params in, out;
};

int member_allocated(int n) {
  Plan plan;
  if (cudaMalloc(&plan.in.data, n * sizeof(float)) != cudaSuccess)
    return -1;
  plan.in.n = n;
  scale<<<1, 256>>>(plan.in);
  cudaFree(plan.in.data);
  return 0;
}

void register_params(Params *p);
void release_params(Params *p) { cudaFree(p->data); }

int handed_to_unknown(int n) {
  Params p;
  if (cudaMalloc(&p.data, n * sizeof(float)) != cudaSuccess)
    return -1;
  register_params(&p);
  return 0;
}

int handed_to_helper(int n) {
  float *d_buf;
  if (cudaMalloc(&d_buf, n * sizeof(float)) != cudaSuccess)
    return -1;
  Params p;
  p.data = d_buf;
  release_params(&p);
  return 0;
}

Params g_params;

int copied_out(int n) {
  Params p;
  if (cudaMalloc(&p.data, n * sizeof(float)) != cudaSuccess)
    return -1;
  g_params = p;
  return 0;
}

int submitted(int n) {
  Params p;
  if (cudaMalloc(&p.data, n * sizeof(float)) != cudaSuccess)
    return -1;
  p.submit();
  return 0;
}

Params *g_pending;

int address_kept(int n) {
  Params p;
  g_pending = &p;
  if (cudaMalloc(&p.data, n * sizeof(float)) != cudaSuccess)
    return -1;
  return 0;
}
