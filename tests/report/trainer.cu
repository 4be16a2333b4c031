// trainer.cu — the program behind the report fixtures (tests/report/README.md).
//
// A small training loop and an inference phase with one problem of each kind the report shows:
// a workspace that leaks on a skipped step, a history that grows every step, row-by-row
// uploads, managed memory faulted over by a kernel, and a fragmentation out-of-memory error
// when a large buffer is asked for after half of many small blocks were freed.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <vector>
#include <cuda_runtime.h>

#ifndef GMEMLINT_GMEMRT_H
static inline void gmem_step(void) {} // without gmemcc's forced include: no runtime
#endif

constexpr size_t kMiB = 1u << 20;
constexpr int kSteps = 12;
constexpr int kRows = 32;
constexpr size_t kRow = 1024; // bytes per uploaded row

__global__ void lookup(const float *table, size_t n, float *out) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    out[i % 256] += table[i];
}

// Never called in the fixture run: its leak stays not-exercised.
int debug_snapshot(size_t n) {
  float *copy = nullptr;
  if (cudaMalloc(&copy, n) != cudaSuccess)
    return -1;
  if (n > 64 * kMiB)
    return -2;
  cudaFree(copy);
  return 0;
}

// A host buffer: its leak is GM004's (off by default); the runtime does not record malloc.
static int write_log(const char *path, int step) {
  char *line = (char *)malloc(256);
  if (!line)
    return -1;
  snprintf(line, 256, "step %d\n", step);
  FILE *f = fopen(path, "a");
  if (!f)
    return -1;
  fputs(line, f);
  fclose(f);
  free(line);
  return 0;
}

static void upload_rows(char *d_batch, const char *h_batch) {
  for (int r = 0; r < kRows; ++r)
    cudaMemcpy(d_batch + r * kRow, h_batch + r * kRow, kRow, cudaMemcpyHostToDevice);
}

// Inference: KV blocks of 512 KiB to 1 MiB until the device is nearly full, every other one
// freed, then one large prefill buffer.
static void serve(void) {
  std::vector<void *> kv;
  size_t free_now = 0, total = 0;
  cudaMemGetInfo(&free_now, &total);
  for (int r = 0; free_now > 96 * kMiB; ++r) {
    void *block;
    if (cudaMalloc(&block, 512 * 1024 + (size_t)(r % 9) * 64 * 1024) != cudaSuccess)
      break;
    kv.push_back(block);
    if (r % 16 == 15)
      cudaMemGetInfo(&free_now, &total);
  }
  for (size_t i = 0; i < kv.size(); i += 2)
    cudaFree(kv[i]);
  void *prefill = nullptr;
  if (cudaMalloc(&prefill, 256 * kMiB) == cudaSuccess)
    cudaFree(prefill);
  else
    cudaGetLastError();
  for (size_t i = 1; i < kv.size(); i += 2)
    cudaFree(kv[i]);
}

int main() {
  float *weights = nullptr;
  if (cudaMalloc(&weights, 128 * kMiB) != cudaSuccess)
    return 1;
  const size_t table_n = 4 * kMiB; // floats: 16 MiB of managed embeddings
  float *table = nullptr;
  if (cudaMallocManaged(&table, table_n * sizeof(float)) != cudaSuccess)
    return 1;
  for (size_t i = 0; i < table_n; ++i)
    table[i] = 0.5f;
  char *d_batch = nullptr;
  if (cudaMalloc(&d_batch, kRows * kRow) != cudaSuccess)
    return 1;
  std::vector<char> h_batch(kRows * kRow, 1);
  std::vector<float *> history;

  for (int step = 0; step < kSteps; ++step) {
    float *act = nullptr;
    if (cudaMalloc(&act, 24 * kMiB) != cudaSuccess) // the step's activations
      return 1;
    upload_rows(d_batch, h_batch.data());
    lookup<<<64, 256>>>(table, table_n, act);
    float *snapshot = nullptr; // kept for the whole run: grows every step
    if (cudaMalloc(&snapshot, 2 * kMiB + (size_t)step * 256 * 1024) != cudaSuccess)
      return 1;
    history.push_back(snapshot);
    write_log("/dev/null", step);
    usleep(15000);
    gmem_step();
    if (step % 5 == 4)
      continue; // a padding-only batch: skipped before the free
    cudaFree(act);
  }
  for (float *h : history)
    cudaFree(h);
  serve();
  cudaFree(d_batch);
  cudaFree(table);
  cudaFree(weights);
  std::printf("trainer: %d steps\n", kSteps);
  return 0;
}
