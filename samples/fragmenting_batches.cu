// fragmenting_batches.cu — a serving loop whose variable-length requests fragment device memory
// until a large allocation fails while the program has plenty of memory freed.
//
// An inference server holds its model weights (here: everything the device has free, except a
// 3 GiB working budget) and serves requests of varying length. Each request gets a KV-cache block
// sized by its length (cudaMalloc in the loop, 512 KiB to 1 MiB) until the budget is nearly used;
// then the short requests (every other one) finish and free their blocks, while the long ones
// stay in flight. The driver packs such small blocks into shared
// 2 MiB pages, so once the budget is used, every page still holds an in-flight block: half the
// budget is free, but few pages are. Then a 1 GiB prefill buffer is asked for, and fails.
// Every allocation is freed at shutdown: gmemlint reports no GM001-GM003 finding. The per-request,
// varying-size allocation is what GM010 (allocation-in-loop) flags; the run shows the failure and
// its verdict, fragmentation, with the freed-but-held memory that would have covered it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    cudaError_t err_ = (call);                                                             \
    if (err_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,            \
                   cudaGetErrorString(err_));                                              \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

constexpr size_t kMiB = 1u << 20;
constexpr size_t kBudget = 3072 * kMiB;  // what the server leaves itself beside the weights
constexpr size_t kPrefill = 1024 * kMiB;

// Writes a request's keys and values: one float per element, a function of position and request.
__global__ void fill_kv(float *kv, size_t n, int request) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    kv[i] = 0.001f * (float)((i + (size_t)request) % 1021);
}

// Deterministic pseudo-random KV block size: 512 KiB to 1 MiB in 64 KiB steps.
static size_t kv_bytes(int request) {
  unsigned x = 2654435761u * (unsigned)(request + 1);
  return 512 * 1024 + (size_t)((x >> 8) % 9u) * 64 * 1024;
}

int main() {
  size_t free_mem, total_mem;
  CUDA_CHECK(cudaMemGetInfo(&free_mem, &total_mem));
  if (free_mem < kBudget + 64 * kMiB) {
    std::fprintf(stderr, "fragmenting_batches: needs more than %zu MiB free\n", kBudget / kMiB);
    return 1;
  }
  void *d_weights;
  CUDA_CHECK(cudaMalloc(&d_weights, free_mem - kBudget));

  // A wave of requests arrives: each gets its KV block while the device has more than 5% of the
  // budget free (the driver packs small blocks into pages, so it uses more than they add up to).
  std::vector<float *> kv_blocks;
  std::vector<size_t> kv_sizes;
  size_t free_now = free_mem;
  for (int r = 0; free_now > kBudget / 20; ++r) {
    size_t bytes = kv_bytes(r);
    float *kv;
    CUDA_CHECK(cudaMalloc(&kv, bytes));
    fill_kv<<<64, 256>>>(kv, bytes / sizeof(float), r);
    CUDA_CHECK(cudaGetLastError());
    kv_blocks.push_back(kv);
    kv_sizes.push_back(bytes);
    if (r % 16 == 15)
      CUDA_CHECK(cudaMemGetInfo(&free_now, &total_mem));
  }
  CUDA_CHECK(cudaDeviceSynchronize());

  // The short requests (every other one) finish and release their blocks; the long ones decode on.
  std::vector<float *> in_flight;
  size_t held = 0, freed = 0;
  for (size_t i = 0; i < kv_blocks.size(); ++i) {
    if (i % 2 == 0) {
      CUDA_CHECK(cudaFree(kv_blocks[i]));
      freed += kv_sizes[i];
    } else {
      in_flight.push_back(kv_blocks[i]);
      held += kv_sizes[i];
    }
  }

  // A large prefill batch arrives: half the budget was freed, but it lies in half-used pages.
  CUDA_CHECK(cudaMemGetInfo(&free_mem, &total_mem));
  void *d_prefill = nullptr;
  cudaError_t rc = cudaMalloc(&d_prefill, kPrefill);
  if (rc == cudaSuccess)
    CUDA_CHECK(cudaFree(d_prefill));
  else
    cudaGetLastError();  // clear the sticky-free error state before shutting down

  std::printf("fragmenting_batches: %zu requests in flight (%zu MiB), %zu MiB freed by finished "
              "requests, %zu MiB reported free; %zu MiB prefill buffer: %s\n",
              in_flight.size(), held / kMiB, freed / kMiB, free_mem / kMiB, kPrefill / kMiB,
              rc == cudaSuccess ? "allocated" : cudaGetErrorString(rc));
  for (float *kv : in_flight)
    CUDA_CHECK(cudaFree(kv));
  CUDA_CHECK(cudaFree(d_weights));
  return 0;
}
