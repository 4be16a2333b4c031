// Pinned host log buffer grown per message with host memcpy and freed with
// cudaFreeHost.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

const char* next_message(int i); // nullptr when there are no more

char* build_log(size_t* len_out) {
  char* log = nullptr;
  size_t len = 0;
  for (int i = 0;; ++i) {
    const char* msg = next_message(i);
    if (!msg)
      break;
    size_t m = strlen(msg);
    char* bigger = nullptr;
    cudaMallocHost(&bigger, len + m + 1); // expected-warning {{this buffer is regrown on every iteration: cudaMallocHost allocates a larger block and the old contents are copied into it, so n iterations copy O(n^2) bytes and fragment memory; compute the final size and allocate once, or keep a capacity and grow it geometrically (double it) only when it runs out [GM020 growing-concatenation]}}
    memcpy(bigger, log, len); // expected-note {{the old contents are copied here}}
    memcpy(bigger + len, msg, m + 1);
    cudaFreeHost(log); // expected-note {{and the old buffer is freed here}}
    log = bigger;
    len += m;
  }
  *len_out = len;
  return log;
}
