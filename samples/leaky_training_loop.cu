// leaky_training_loop.cu — a training-style loop that leaks its per-step activation buffer.
//
// Each step allocates an activation/gradient workspace with cudaMalloc, runs a forward kernel and
// a loss reduction, and frees the workspace at the end of the step. When a batch turns out to be
// all padding (no valid tokens) the step is skipped with `continue` — before the cudaFree. Every
// skipped batch leaks one workspace; device memory in use grows across steps until the process
// exits. gmemlint reports GM001 at the cudaMalloc (and GM010 allocation-in-loop, once that rule
// lands); a run with gmemcc shows the site's allocations still live at exit.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    cudaError_t err_ = (call);                                                             \
    if (err_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,            \
                   cudaGetErrorString(err_));                                              \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

constexpr int kSteps = 200;
constexpr int kBatch = 64;
constexpr int kSeqLen = 128;
constexpr int kHidden = 256;  // 64*128*256 floats = 8 MiB of activations per step

// Forward pass stand-in: a masked tanh layer; accumulates the masked loss and the valid count.
__global__ void forward_loss(const float *x, const int *mask, float *act, float *loss,
                             int *valid, int tokens, int hidden) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= tokens * hidden) return;
  int tok = i / hidden;
  float a = tanhf(x[i]) * (float)mask[tok];
  act[i] = a;
  atomicAdd(loss, a * a);
  if (i % hidden == 0 && mask[tok]) atomicAdd(valid, 1);
}

__global__ void init_weights(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0.02f * (float)((int)((unsigned)i * 7919u % 101u) - 50);
}

// Backward stand-in: gradient of the squared activation, applied to the input in place.
__global__ void backward_update(float *x, const float *act, float lr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] -= lr * 2.0f * act[i] * (1.0f - act[i] * act[i]);
}

// Every 7th batch is pure padding, as happens at the tail of a bucketed data loader.
static void load_batch_mask(int *h_mask, int step, int tokens) {
  bool padding_only = (step % 7 == 6);
  for (int t = 0; t < tokens; ++t) h_mask[t] = padding_only ? 0 : (t % kSeqLen < 100);
}

int main() {
  const int tokens = kBatch * kSeqLen;
  const int n = tokens * kHidden;
  const size_t act_bytes = (size_t)n * sizeof(float);

  float *d_x, *d_loss;
  int *d_mask, *d_valid;
  CUDA_CHECK(cudaMalloc(&d_x, act_bytes));
  CUDA_CHECK(cudaMalloc(&d_mask, tokens * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_loss, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_valid, sizeof(int)));

  int *h_mask = (int *)std::malloc(tokens * sizeof(int));
  size_t free_before, free_after, total;
  CUDA_CHECK(cudaMemGetInfo(&free_before, &total));

  int skipped = 0;
  float last_loss = 0.0f;
  const int threads = 256, blocks = (n + threads - 1) / threads;
  init_weights<<<blocks, threads>>>(d_x, n);
  CUDA_CHECK(cudaGetLastError());
  for (int step = 0; step < kSteps; ++step) {
    float *d_act;
    CUDA_CHECK(cudaMalloc(&d_act, act_bytes));  // per-step activation/gradient workspace

    load_batch_mask(h_mask, step, tokens);
    CUDA_CHECK(cudaMemcpy(d_mask, h_mask, tokens * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_loss, 0, sizeof(float)));
    CUDA_CHECK(cudaMemset(d_valid, 0, sizeof(int)));
    forward_loss<<<blocks, threads>>>(d_x, d_mask, d_act, d_loss, d_valid, tokens, kHidden);
    CUDA_CHECK(cudaGetLastError());

    int valid = 0;
    CUDA_CHECK(cudaMemcpy(&valid, d_valid, sizeof(int), cudaMemcpyDeviceToHost));
    if (valid == 0) {
      ++skipped;
      continue;  // BUG: skips the cudaFree(d_act) below; the workspace leaks
    }

    CUDA_CHECK(cudaMemcpy(&last_loss, d_loss, sizeof(float), cudaMemcpyDeviceToHost));
    backward_update<<<blocks, threads>>>(d_x, d_act, 1e-3f, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_act));
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemGetInfo(&free_after, &total));

  std::printf("leaky_training_loop: %d steps, %d skipped, loss %.3f, device memory grew by %.1f MiB "
              "(%d x %.1f MiB leaked)\n",
              kSteps, skipped, last_loss, (double)(free_before - free_after) / (1 << 20), skipped,
              (double)act_bytes / (1 << 20));

  std::free(h_mask);
  CUDA_CHECK(cudaFree(d_valid));
  CUDA_CHECK(cudaFree(d_loss));
  CUDA_CHECK(cudaFree(d_mask));
  CUDA_CHECK(cudaFree(d_x));
  return 0;
}
