// Templates used with several types: each leak is reported once, at the template as written,
// however many instantiations clang makes of it (in-class and out-of-line members of a class
// template, a member template, a function template); an explicit specialization is code of
// its own and is judged on its own.
#include <cuda_runtime.h>
#include <vector>

template <typename T> struct Staging {
  T *scratch(size_t n) {
    T *d = nullptr;
    cudaMalloc(&d, n * sizeof(T)); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'scratch' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    if (n == 0)
      return nullptr; // expected-note {{this return leaves without freeing 'd'}}
    cudaFree(d);
    return nullptr;
  }
  void upload(const std::vector<T> &host);
  template <typename U> void convert(const U *src, size_t n) {
    U *d = nullptr;
    cudaMalloc(&d, n * sizeof(U)); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'convert' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    if (src == nullptr)
      return; // expected-note {{this return after a failed call leaves without freeing 'd'}}
    cudaMemcpy(d, src, n * sizeof(U), cudaMemcpyHostToDevice);
    cudaFree(d);
  }
};

template <typename T> void Staging<T>::upload(const std::vector<T> &host) {
  T *d = nullptr;
  cudaMalloc(&d, host.size() * sizeof(T)); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'upload' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  if (host.empty())
    return; // expected-note {{this return leaves without freeing 'd'}}
  cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaFree(d);
}

template <> void Staging<char>::upload(const std::vector<char> &host) {
  char *d = nullptr;
  cudaMalloc(&d, host.size()); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'upload' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  if (host.size() < 16)
    return; // expected-note {{this return leaves without freeing 'd'}}
  cudaFree(d);
}

template <typename T> T *fill(size_t n) {
  T *d = nullptr;
  cudaMalloc(&d, n * sizeof(T)); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'fill' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  if (n > 1024)
    return nullptr; // expected-note {{this return leaves without freeing 'd'}}
  cudaMemset(d, 0, n * sizeof(T));
  cudaFree(d);
  return nullptr;
}

void use_them() {
  Staging<float> f;
  Staging<double> g;
  Staging<char> c;
  std::vector<float> vf(8);
  std::vector<double> vd(8);
  std::vector<char> vc(8);
  f.scratch(4);
  g.scratch(4);
  f.upload(vf);
  g.upload(vd);
  c.upload(vc);
  f.convert(vf.data(), vf.size());
  f.convert(vd.data(), vd.size());
  g.convert(vc.data(), vc.size());
  fill<int>(8);
  fill<float>(8);
  fill<double>(8);
}
