// The same buffer regrown in three spellings: the old buffer held in a struct
// field and replaced by the new one, the old pointer saved in a temporary
// before the allocation reuses its variable, and std::swap of old and new.
#include <cuda_runtime.h>
#include <utility>

struct DeviceVec {
  float* data;
  size_t n;
};

void append(DeviceVec* v, const float* const* d_parts, size_t part, int nparts) {
  for (int p = 0; p < nparts; ++p) {
    float* grown = nullptr;
    cudaMalloc(&grown, (v->n + part) * sizeof(float)); // expected-warning {{GM020}}
    cudaMemcpy(grown, v->data, v->n * sizeof(float), cudaMemcpyDeviceToDevice); // expected-note {{copied}}
    cudaMemcpy(grown + v->n, d_parts[p], part * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(v->data); // expected-note {{freed}}
    v->data = grown;
    v->n += part;
  }
}

int* gather(const int* const* d_hits, const int* counts, int nrounds) {
  int* all = nullptr;
  int total = 0;
  for (int r = 0; r < nrounds; ++r) {
    int* old = all;
    cudaMalloc(&all, (total + counts[r]) * sizeof(int)); // expected-warning {{GM020}}
    cudaMemcpy(all, old, total * sizeof(int), cudaMemcpyDeviceToDevice); // expected-note {{copied}}
    cudaMemcpy(all + total, d_hits[r], counts[r] * sizeof(int), cudaMemcpyDeviceToDevice);
    cudaFree(old); // expected-note {{freed}}
    total += counts[r];
  }
  return all;
}

double* history(const double* d_step, int steps, int width) {
  double* hist = nullptr;
  size_t len = 0;
  for (int s = 0; s < steps; ++s) {
    double* next = nullptr;
    cudaMalloc(&next, (len + width) * sizeof(double)); // expected-warning {{GM020}}
    cudaMemcpy(next, hist, len * sizeof(double), cudaMemcpyDeviceToDevice); // expected-note {{copied}}
    cudaMemcpy(next + len, d_step, width * sizeof(double), cudaMemcpyDeviceToDevice);
    std::swap(hist, next);
    cudaFree(next); // expected-note {{freed}}
    len += width;
  }
  return hist;
}
