// `typeof` is a GNU keyword, not a C++17 one: a file that names a member `typeof` parses under
// -std=c++17 (as g++ -std=c++17 and nvcc accept it), since GNU's `typeof` is made a keyword only
// in the second parse of a file whose errors name it (GM001_parse_nvcc_typeof.cu).
#include <cuda_runtime.h>

struct info {
  int typeof;
  size_t bytes;
};

int upload(const info *in, const float *h) {
  float *d = nullptr;
  if (cudaMalloc(&d, in->bytes) != cudaSuccess) // expected-warning {{'d' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'upload' without releasing it; call cudaFree before returning}}
    return -1;
  if (in->typeof != 0 && cudaMemcpy(d, h, in->bytes, cudaMemcpyHostToDevice) != cudaSuccess)
    return -2; // expected-note {{this return after a failed call leaves without freeing 'd'}}
  cudaFree(d);
  return in->typeof;
}
