// fragmenting_batches.cu — variable-length batches churn cudaMalloc/cudaFree around long-lived
// buffers, then one large allocation is attempted.
//
// A sequence-model server processes batches of varying length. Each batch gets a buffer sized
// to its length (cudaMalloc, then cudaFree at the end of the batch), and every 8th batch also
// publishes a small per-batch KV-cache block that stays alive for the rest of the run. The
// long-lived blocks land between the freed per-batch holes, so free device memory ends up split.
// Every allocation is freed correctly: gmemlint reports no GM001-GM003 finding here. The
// per-iteration, varying-size allocation is what GM010 (allocation-in-loop) is for; at run time
// the site shows many calls and many distinct sizes.
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

constexpr int kBatches = 400;
constexpr int kHidden = 1024;
constexpr int kMaxCached = kBatches / 8;

// One layer of a toy encoder: scale-and-shift each hidden unit, summing a checksum per row.
__global__ void encode_batch(float *act, float *row_sums, int rows, int hidden, int batch) {
  int r = blockIdx.x;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int h = threadIdx.x; h < hidden; h += blockDim.x) {
    float v = 0.01f * (float)((r + h + batch) % 97);
    act[(size_t)r * hidden + h] = v;
    sum += v;
  }
  atomicAdd(&row_sums[r % 32], sum);
}

// Deterministic pseudo-random sequence length between 64 and 4096 tokens.
static int batch_tokens(int b) {
  unsigned x = 2654435761u * (unsigned)(b + 1);
  return 64 + (int)((x >> 8) % 4033u);
}

int main() {
  float *d_row_sums;  // long-lived: reduction target for the whole run
  CUDA_CHECK(cudaMalloc(&d_row_sums, 32 * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_row_sums, 0, 32 * sizeof(float)));

  float *kv_cache[kMaxCached] = {};  // long-lived blocks interleaved with the churn
  int cached = 0;
  size_t churn_bytes = 0;

  for (int b = 0; b < kBatches; ++b) {
    int tokens = batch_tokens(b);
    size_t bytes = (size_t)tokens * kHidden * sizeof(float);  // 256 KiB .. 16 MiB
    float *d_act;
    CUDA_CHECK(cudaMalloc(&d_act, bytes));
    encode_batch<<<tokens, 128>>>(d_act, d_row_sums, tokens, kHidden, b);
    CUDA_CHECK(cudaGetLastError());

    if (b % 8 == 0 && cached < kMaxCached) {
      float *kv;
      CUDA_CHECK(cudaMalloc(&kv, 2u << 20));  // 2 MiB block kept until shutdown
      CUDA_CHECK(cudaMemcpy(kv, d_act, 2u << 20 < bytes ? 2u << 20 : bytes,
                            cudaMemcpyDeviceToDevice));
      kv_cache[cached++] = kv;
    }
    CUDA_CHECK(cudaFree(d_act));
    churn_bytes += bytes;
  }

  // With the churn over, try one allocation of most of what is reported free.
  size_t free_mem, total_mem;
  CUDA_CHECK(cudaMemGetInfo(&free_mem, &total_mem));
  size_t want = free_mem / 4 * 3;
  if (want > (1ull << 30)) want = 1ull << 30;  // stay within the sample's 1 GiB budget
  float *d_big = nullptr;
  cudaError_t big_err = cudaMalloc(&d_big, want);
  if (big_err == cudaSuccess) {
    CUDA_CHECK(cudaMemset(d_big, 0, want));
    CUDA_CHECK(cudaFree(d_big));
  } else {
    cudaGetLastError();
  }

  float h_sums[32];
  CUDA_CHECK(cudaMemcpy(h_sums, d_row_sums, sizeof h_sums, cudaMemcpyDeviceToHost));
  double checksum = 0.0;
  for (float s : h_sums) checksum += s;

  std::printf("fragmenting_batches: %d batches, %.0f MiB churned, %d cached blocks, "
              "large %.0f MiB allocation: %s, checksum %.1f\n",
              kBatches, (double)churn_bytes / (1 << 20), cached, (double)want / (1 << 20),
              big_err == cudaSuccess ? "ok" : cudaGetErrorString(big_err), checksum);

  for (int i = 0; i < cached; ++i) CUDA_CHECK(cudaFree(kv_cache[i]));
  CUDA_CHECK(cudaFree(d_row_sums));
  return 0;
}
