// Options read in a loop, each case setting its own variable: the paths after the loop differ only
// in which options were given (2^k of them for k options) and hold the same memory. Kept apart,
// they filled every state list for the rest of the function and its analysis was cut short
// (in real programs the step budget then ran out in nested loops and the leak at the end was
// lost). The options decide no allocation or free, so those paths go on as one: the analysis
// finishes and the leak at the last return is reported.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <unistd.h>

__global__ void trim(unsigned *bits, int part) { bits[part] = 0; }

int run_trims(int argc, char **argv) {
  int nthreads = 16384, trims = 32, tpb = 0, nonce = 0, range = 1, verbose = 0, parts = 4;
  int mode = 0, seed = 7, check = 0;
  int c;
  while ((c = getopt(argc, argv, "n:m:r:t:p:vP:M:s:c")) != -1) {
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
    case 'c': check = 1; break;
    }
  }
  if (!tpb)
    for (tpb = 1; tpb * tpb < nthreads; tpb *= 2)
      ;
  unsigned *bits;
  if (cudaMalloc(&bits, 1 << 20) != cudaSuccess) // expected-warning {{'bits' (device memory from cudaMalloc) is not freed on every path: a return leaves 'run_trims' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return 1;
  unsigned long found = 0;
  for (int r = 0; r < range; r++) {
    for (int round = 0; round < trims; round++)
      for (int uorv = 0; uorv < 2; uorv++)
        for (int part = 0; part < parts; part++)
          for (int lane = 0; lane < 4; lane++)
            for (int step = 0; step < 2; step++) {
              if (verbose && part == 0)
                found += uorv;
              if (lane == step)
                found += 2;
              trim<<<nthreads / tpb, tpb>>>(bits, part + mode + seed + lane);
            }
    for (unsigned block = 0; block < 64; block++)
      for (unsigned n = block; n & 7; n >>= 1)
        for (unsigned k = n; k; k >>= 2)
          for (unsigned j = k; j; j >>= 3) {
            found += j & nonce;
            if (j & 1)
              found ^= j;
            else
              found += block;
          }
  }
  return found > 0 ? 0 : 3; // expected-note {{this return leaves without freeing 'bits'}}
}
