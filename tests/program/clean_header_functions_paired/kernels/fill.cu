// expected-no-diagnostics
__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.0f;
}

static void fill_once(int n) {
  float *tmp;
  cudaMalloc(&tmp, n * sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(tmp, n);
  cudaFree(tmp);
}
