// expected-no-diagnostics
// The clean twin of GM010_conditional_call_chain_per_step: the same chain of
// calls from a loop, but what the helpers allocate is made once (a global
// under a test of itself) or handed out to the caller's table, one buffer per
// device, or made by a call under a once-only flag: nothing is allocated and
// dropped on each iteration.
#include <cuda_runtime.h>

static int use_sm5_path;
static float* g_scratch;

__global__ void smooth(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.5f * in[i];
}

static void smooth_lazily(const float* d_in, int n) {
  if (!g_scratch)
    cudaMalloc(&g_scratch, n * sizeof(float));
  smooth<<<(n + 255) / 256, 256>>>(d_in, g_scratch, n);
}

static float* g_frame;
static int frame_ready[8];

static void make_frame(int n) { cudaMalloc(&g_frame, n * sizeof(float)); }

static void advance(const float* d_in, int n) {
  if (use_sm5_path)
    smooth_lazily(d_in, n);
  if (!frame_ready[0]) {
    make_frame(n);
    frame_ready[0] = 1;
  }
}

int run(const float* d_in, int n, int steps) {
  for (int s = 0; s < steps; ++s)
    advance(d_in, n);
  for (int s = 0; s < steps; ++s)
    smooth_lazily(d_in, n);
  return 0;
}

static void make_buffer(float** out, size_t n) { cudaMalloc(out, n * sizeof(float)); }

static void init_device(float** out, int dev, size_t n) {
  cudaSetDevice(dev);
  if (n)
    make_buffer(out, n);
}

void init_all(float** bufs, int ndev, size_t n) {
  for (int dev = 0; dev < ndev; ++dev)
    init_device(&bufs[dev], dev, n);
}
