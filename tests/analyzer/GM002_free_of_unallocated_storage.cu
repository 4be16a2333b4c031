// Frees of storage no allocator made: a __device__ array, a __constant__ array, a static array,
// a local array reached through a pointer a local assignment set, the address of a local, the
// address of a pointer variable instead of the pointer, a string literal held in a variable, and
// a __device__ array handed to a helper that frees its parameter.
#include <cuda_runtime.h>
#include <stdlib.h>

__device__ float d_table[256];
__constant__ float c_weights[16];
static float h_scratch[64];

static void release(float* p) {
  cudaFree(p);
}

void teardown(int n) {
  cudaFree(d_table); // expected-warning {{'d_table', a __device__ array, is released with cudaFree, which releases only device memory an allocation call returned; nothing allocated it, so remove the call [GM002 mismatched-free]}}
  cudaFree(c_weights); // expected-warning {{'c_weights', a __constant__ array, is released with cudaFree, which releases only device memory an allocation call returned; nothing allocated it, so remove the call [GM002 mismatched-free]}}
  free(h_scratch); // expected-warning {{'h_scratch', a static array, is released with free, which releases only host heap memory an allocation call returned; nothing allocated it, so remove the call [GM002 mismatched-free]}}
  float staging[32];
  float* cursor = staging;
  cursor[0] = (float)n;
  free(cursor); // expected-warning {{'cursor', which points to 'staging', a local array, is released with free, which releases only host heap memory an allocation call returned; nothing allocated it, so remove the call [GM002 mismatched-free]}}
  int count = n;
  cudaFreeHost(&count); // expected-warning {{the address of 'count', a local variable, is released with cudaFreeHost, which releases only pinned host memory an allocation call returned; nothing allocated it, so remove the call [GM002 mismatched-free]}}
  release(d_table); // expected-warning {{'d_table', a __device__ array, is released with release (which calls cudaFree), which releases only device memory an allocation call returned; nothing allocated it, so remove the call [GM002 mismatched-free]}}
}

void drop_buffer(size_t bytes) {
  float* d = NULL;
  if (cudaMalloc(&d, bytes) != cudaSuccess)
    return;
  cudaFree(&d); // expected-warning {{the address of 'd', a local variable, is released with cudaFree, which releases only device memory an allocation call returned; release what 'd' points to, not its address [GM002 mismatched-free]}}
}

void drop_name(int anonymous) {
  char* name = (char*)"unnamed";
  if (!anonymous)
    name = (char*)malloc(16);
  free(name); // expected-warning {{'name', which points to a string literal, is released with free, which releases only host heap memory an allocation call returned; nothing allocated it, so remove the call [GM002 mismatched-free]}}
}
// expected-rules-unchecked GM001: 'd' in drop_buffer really leaks (the free takes its address); GM001's tests cover that
