// expected-no-diagnostics
// Same-file helpers with guards, as sample and benchmark code writes them:
// - a release template taking `T *&` that frees when non-null and then nulls the pointer;
// - a loader that allocates only when `*out` is null and otherwise fills the given buffer;
// - a loader returning bool that fails only before it allocates;
// - an init returning an int status that is nonzero only when its allocation failed.
#include <cuda_runtime.h>
#include <stdlib.h>

template <typename T> void release(T*& ptr) {
  if (ptr) {
    cudaFree(ptr);
    ptr = nullptr;
  }
}

static void load_image(const char* path, unsigned char** out, size_t n) {
  if (*out == NULL)
    cudaMallocHost((void**)out, n);
  (void)path;
}

static bool load_table(const char* path, float** out, size_t n) {
  if (!path)
    return false;
  cudaMalloc((void**)out, n * sizeof(float));
  return true;
}

static int init_device(float** out, size_t n) {
  if (cudaMalloc((void**)out, n * sizeof(float)) != cudaSuccess)
    return 1;
  return 0;
}

int run(const char* path, size_t n) {
  float* d_a = nullptr;
  float* d_b = nullptr;
  cudaMalloc(&d_a, n);
  cudaMalloc(&d_b, n);
  release(d_a);
  release(d_b);
  release(d_b); // nulled by the first release: no double free

  unsigned char* img = NULL;
  cudaMallocHost((void**)&img, n);
  load_image(path, &img, n); // fills img; does not replace it
  cudaFreeHost(img);

  float* table = NULL;
  if (!load_table(path, &table, n))
    return -1; // nothing was allocated
  cudaFree(table);

  float* d_c = NULL;
  if (init_device(&d_c, n))
    return -1; // nothing was allocated
  cudaFree(d_c);
  return 0;
}
