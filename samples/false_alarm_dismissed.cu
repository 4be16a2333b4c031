// false_alarm_dismissed.cu — a static warning that the run dismisses.
//
// A histogram tool stages its image through an optional pinned buffer: whether to stage is a
// runtime setting (HIST_STAGING, default on), read through staging_enabled() both where the
// buffer is allocated and where it is released. The two calls always agree, but a static checker
// cannot know that a call returns the same value twice, so gmemlint warns (GM001) that the staging
// buffer may leak on the path where the first call says yes and the second says no. Run it with
// gmemcc and join the telemetry: the site allocated once and nothing from it is live at exit, so
// the warning is `dismissed`. The other buffers are released through a cleanup stack (the
// scope-guard / "defer" idiom), which gmemlint follows as an ownership escape.
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// How a deferred buffer is released. (A kind rather than a pointer to cudaFree: gmemcc's
// forced-include build sees calls it can name, and a call through a function pointer is not one.)
enum class Release { device, pinned };

struct Deferred {
  void *ptr;
  Release release;
  const char *what;
};

struct CleanupStack {
  Deferred items[8];
  int count;
};

static void defer_release(CleanupStack *cs, void *ptr, Release release, const char *what) {
  if (cs->count == 8) {
    std::fprintf(stderr, "cleanup stack full (%s)\n", what);
    std::exit(1);
  }
  cs->items[cs->count++] = Deferred{ptr, release, what};
}

static int unwind(CleanupStack *cs) {
  int released = 0;
  while (cs->count > 0) {
    Deferred d = cs->items[--cs->count];
    if (d.release == Release::pinned)
      CUDA_CHECK(cudaFreeHost(d.ptr));
    else
      CUDA_CHECK(cudaFree(d.ptr));
    ++released;
  }
  return released;
}

// A runtime setting, read where it matters (as configuration objects do).
static bool staging_enabled() {
  const char *v = std::getenv("HIST_STAGING");
  return v == nullptr || std::strcmp(v, "0") != 0;
}

constexpr int kPixels = 4096 * 4096;

// Copies the image to the device, through a pinned staging buffer when staging is enabled.
static void upload_image(unsigned char *d_img, const unsigned char *h_img) {
  unsigned char *h_stage = nullptr;
  if (staging_enabled()) {
    CUDA_CHECK(cudaMallocHost(&h_stage, kPixels));
    std::memcpy(h_stage, h_img, kPixels);
    CUDA_CHECK(cudaMemcpy(d_img, h_stage, kPixels, cudaMemcpyHostToDevice));
  } else {
    CUDA_CHECK(cudaMemcpy(d_img, h_img, kPixels, cudaMemcpyHostToDevice));
  }
  if (staging_enabled())
    CUDA_CHECK(cudaFreeHost(h_stage));
}
constexpr int kBins = 256;

// Intensity histogram of an 8-bit image, one shared-memory histogram per block.
__global__ void histogram(const unsigned char *img, int n, unsigned *bins) {
  __shared__ unsigned local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[img[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

int main() {
  size_t free_start, free_end, total;
  CUDA_CHECK(cudaFree(0));  // create the context so the baseline below includes it
  CUDA_CHECK(cudaMemGetInfo(&free_start, &total));

  CleanupStack cleanup{};
  unsigned char *h_img, *d_img;
  unsigned *d_hist;
  CUDA_CHECK(cudaMallocHost(&h_img, kPixels));
  defer_release(&cleanup, h_img, Release::pinned, "pinned image");
  CUDA_CHECK(cudaMalloc(&d_img, kPixels));
  defer_release(&cleanup, d_img, Release::device, "device image");
  CUDA_CHECK(cudaMalloc(&d_hist, kBins * sizeof(unsigned)));
  defer_release(&cleanup, d_hist, Release::device, "histogram");

  for (int i = 0; i < kPixels; ++i) h_img[i] = (unsigned char)((i * 2654435761u) >> 24);
  upload_image(d_img, h_img);
  CUDA_CHECK(cudaMemset(d_hist, 0, kBins * sizeof(unsigned)));
  histogram<<<264, 256>>>(d_img, kPixels, d_hist);
  CUDA_CHECK(cudaGetLastError());

  unsigned h_hist[kBins];
  CUDA_CHECK(cudaMemcpy(h_hist, d_hist, sizeof h_hist, cudaMemcpyDeviceToHost));
  unsigned long long counted = 0;
  for (unsigned c : h_hist) counted += c;

  int released = unwind(&cleanup);  // frees d_hist, d_img, h_img through the stored pointers
  CUDA_CHECK(cudaMemGetInfo(&free_end, &total));
  std::printf("false_alarm_dismissed: %llu pixels binned, %d buffers released via the cleanup "
              "stack, device memory in use changed by %lld KiB\n",
              counted, released, ((long long)free_start - (long long)free_end) / 1024);
  return 0;
}
