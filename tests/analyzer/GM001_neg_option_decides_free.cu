// expected-no-diagnostics
// The clean twin of GM001_option_paths_joined: one option (`own`) decides both the allocation and
// the free. Paths that differ in it are never joined, so the free still follows the allocation
// on every path; the other options' paths go on as one.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <unistd.h>

__global__ void trim(unsigned *bits, int part) { bits[part] = 0; }

int run_trims(int argc, char **argv) {
  int nthreads = 16384, trims = 32, tpb = 0, nonce = 0, range = 1, verbose = 0, parts = 4;
  int mode = 0, seed = 7, own = 0;
  int c;
  while ((c = getopt(argc, argv, "n:m:r:t:p:vP:M:s:o")) != -1) {
    switch (c) {
    case 'n': nonce = atoi(optarg); break;
    case 'm': trims = atoi(optarg); break;
    case 'r': range = atoi(optarg); break;
    case 't': nthreads = atoi(optarg); break;
    case 'p': tpb = atoi(optarg); break;
    case 'v': verbose = 1; break;
    case 'P': parts = atoi(optarg); break;
    case 'M': mode = atoi(optarg); break;
    case 's': seed = atoi(optarg); break;
    case 'o': own = 1; break;
    }
  }
  if (!tpb)
    tpb = 256;
  unsigned *bits = NULL;
  if (own && cudaMalloc(&bits, 1 << 20) != cudaSuccess)
    return 1;
  unsigned long found = 0;
  for (int r = 0; r < range; r++)
    for (int round = 0; round < trims; round++)
      for (int part = 0; part < parts; part++) {
        if (verbose && part == 0)
          found += nonce;
        if (own)
          trim<<<nthreads / tpb, tpb>>>(bits, part + mode + seed);
      }
  if (own)
    cudaFree(bits);
  return found > 0 ? 0 : 3;
}
