// A member function leaks a local scratch buffer (not a member) on the
// early-out path.
#include <cuda_runtime.h>

class Solver {
public:
  explicit Solver(int n) : n_(n) { cudaMalloc(&d_x_, n * sizeof(float)); }
  ~Solver() { cudaFree(d_x_); }

  int residual_norm(float* out) {
    float* d_tmp = nullptr;
    if (cudaMalloc(&d_tmp, n_ * sizeof(float)) != cudaSuccess) // expected-warning {{'d_tmp' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'residual_norm' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
      return -1;
    if (cudaMemcpy(d_tmp, d_x_, n_ * sizeof(float), cudaMemcpyDeviceToDevice) != cudaSuccess)
      return -1; // expected-note {{this return after a failed call leaves without freeing 'd_tmp'}}
    cudaMemcpy(out, d_tmp, sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_tmp);
    return 0;
  }

private:
  int n_;
  float* d_x_ = nullptr;
};
