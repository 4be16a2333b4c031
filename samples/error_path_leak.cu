// error_path_leak.cu — an inference setup routine that leaks on its error paths, and pinned
// staging memory released with the wrong call.
//
// create_workspace() allocates input, output and scratch buffers and returns an error code.
// When a later cudaMalloc fails it returns at once, leaving the buffers already allocated behind
// (GM001 at those allocations). The caller first asks for a scratch size the device cannot
// provide — as happens when a config is tuned on a larger card — then retries with a smaller one,
// so the leaked buffers are real and stay live until exit. upload_batch() releases its
// cudaMallocHost staging buffer with cudaFree instead of cudaFreeHost (GM002 at that call).
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

struct Workspace {
  float *d_input;
  float *d_output;
  float *d_scratch;
  size_t n;
};

__global__ void gelu_layer(const float *in, float *out, float *scratch, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  scratch[i] = x * x * x;
  out[i] = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * scratch[i])));
}

static cudaError_t create_workspace(Workspace *ws, size_t n, size_t scratch_bytes) {
  float *d_input = nullptr, *d_output = nullptr, *d_scratch = nullptr;
  cudaError_t err = cudaMalloc(&d_input, n * sizeof(float));
  if (err != cudaSuccess) return err;
  err = cudaMalloc(&d_output, n * sizeof(float));
  if (err != cudaSuccess) return err;  // BUG: d_input leaks
  err = cudaMalloc(&d_scratch, scratch_bytes);
  if (err != cudaSuccess) return err;  // BUG: d_input and d_output leak
  ws->d_input = d_input;
  ws->d_output = d_output;
  ws->d_scratch = d_scratch;
  ws->n = n;
  return cudaSuccess;
}

static void destroy_workspace(Workspace *ws) {
  CUDA_CHECK(cudaFree(ws->d_scratch));
  CUDA_CHECK(cudaFree(ws->d_output));
  CUDA_CHECK(cudaFree(ws->d_input));
}

// Stages a batch through pinned memory so the copy can run at full PCIe/NVLink bandwidth.
static cudaError_t upload_batch(float *d_dst, size_t n, float scale) {
  float *h_stage = nullptr;
  CUDA_CHECK(cudaMallocHost(&h_stage, n * sizeof(float)));
  for (size_t i = 0; i < n; ++i) h_stage[i] = scale * (float)(i % 1000) / 1000.0f - 0.5f;
  CUDA_CHECK(cudaMemcpy(d_dst, h_stage, n * sizeof(float), cudaMemcpyHostToDevice));
  return cudaFree(h_stage);  // BUG: pinned memory must be released with cudaFreeHost
}

int main() {
  const size_t n = 16u << 20;  // 16M floats: 64 MiB per buffer
  size_t free_mem, total_mem;
  CUDA_CHECK(cudaMemGetInfo(&free_mem, &total_mem));

  Workspace ws{};
  // Scratch sized for "the big card": more than the whole device, so the third cudaMalloc fails.
  cudaError_t err = create_workspace(&ws, n, total_mem * 2);
  int retries = 0;
  while (err == cudaErrorMemoryAllocation && retries < 3) {
    cudaGetLastError();  // clear the non-sticky allocation error
    ++retries;
    err = create_workspace(&ws, n, n * sizeof(float));
  }
  CUDA_CHECK(err);

  cudaError_t stage_err = upload_batch(ws.d_input, n, 2.0f);
  cudaGetLastError();
  const unsigned threads = 256, blocks = (unsigned)((n + threads - 1) / threads);
  gelu_layer<<<blocks, threads>>>(ws.d_input, ws.d_output, ws.d_scratch, n);
  CUDA_CHECK(cudaGetLastError());

  float sample = 0.0f;
  CUDA_CHECK(cudaMemcpy(&sample, ws.d_output + 999, sizeof(float), cudaMemcpyDeviceToHost));
  destroy_workspace(&ws);

  size_t free_end;
  CUDA_CHECK(cudaMemGetInfo(&free_end, &total_mem));
  std::printf("error_path_leak: %d retry, gelu[999]=%.4f, staging free: %s, %.0f MiB still held "
              "after teardown\n",
              retries, sample, cudaGetErrorString(stage_err),
              (double)(free_mem - free_end) / (1 << 20));
  return 0;
}
