// expected-no-diagnostics
// Buffers stored into the fields of a caller-owned struct.
#include <cuda_runtime.h>

struct Mesh {
  float3* d_vertices;
  int* d_indices;
  int nverts, nidx;
};

int mesh_upload(Mesh* m, const float3* v, int nv, const int* idx, int ni) {
  float3* dv = nullptr;
  int* di = nullptr;
  if (cudaMalloc(&dv, nv * sizeof(float3)) != cudaSuccess)
    return -1;
  if (cudaMalloc(&di, ni * sizeof(int)) != cudaSuccess) {
    cudaFree(dv);
    return -1;
  }
  cudaMemcpy(dv, v, nv * sizeof(float3), cudaMemcpyHostToDevice);
  cudaMemcpy(di, idx, ni * sizeof(int), cudaMemcpyHostToDevice);
  m->d_vertices = dv;
  m->d_indices = di;
  m->nverts = nv;
  m->nidx = ni;
  return 0;
}
