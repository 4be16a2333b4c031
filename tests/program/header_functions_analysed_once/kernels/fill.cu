// A .cu file that forward.cu #includes (one unit built from several sources): its functions are
// the includer's. The host launcher forgets its temporary.
__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.0f;
}

static void fill_once(int n) {
  float *tmp;
  cudaMalloc(&tmp, n * sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(tmp, n);
}
