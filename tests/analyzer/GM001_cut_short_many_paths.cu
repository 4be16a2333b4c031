// A function with 40 independent branches, each holding its own allocation to the end: 2^40
// combinations of live buffers, far past the flow engine's state budget. Its analysis is cut
// short, and a notice at the function says so; nothing leaks.
#include <cuda_runtime.h>
#include <stdlib.h>

void many_buffers(size_t n) { // expected-note {{analysis of 'many_buffers' was cut short (too many paths); findings in it may be incomplete}}
  float *p0 = nullptr, *p1 = nullptr, *p2 = nullptr, *p3 = nullptr, *p4 = nullptr, *p5 = nullptr, *p6 = nullptr, *p7 = nullptr, *p8 = nullptr, *p9 = nullptr, *p10 = nullptr, *p11 = nullptr, *p12 = nullptr, *p13 = nullptr, *p14 = nullptr, *p15 = nullptr, *p16 = nullptr, *p17 = nullptr, *p18 = nullptr, *p19 = nullptr, *p20 = nullptr, *p21 = nullptr, *p22 = nullptr, *p23 = nullptr, *p24 = nullptr, *p25 = nullptr, *p26 = nullptr, *p27 = nullptr, *p28 = nullptr, *p29 = nullptr, *p30 = nullptr, *p31 = nullptr, *p32 = nullptr, *p33 = nullptr, *p34 = nullptr, *p35 = nullptr, *p36 = nullptr, *p37 = nullptr, *p38 = nullptr, *p39 = nullptr;
  if (rand() & 1)
    cudaMalloc(&p0, n);
  if (rand() & 1)
    cudaMalloc(&p1, n);
  if (rand() & 1)
    cudaMalloc(&p2, n);
  if (rand() & 1)
    cudaMalloc(&p3, n);
  if (rand() & 1)
    cudaMalloc(&p4, n);
  if (rand() & 1)
    cudaMalloc(&p5, n);
  if (rand() & 1)
    cudaMalloc(&p6, n);
  if (rand() & 1)
    cudaMalloc(&p7, n);
  if (rand() & 1)
    cudaMalloc(&p8, n);
  if (rand() & 1)
    cudaMalloc(&p9, n);
  if (rand() & 1)
    cudaMalloc(&p10, n);
  if (rand() & 1)
    cudaMalloc(&p11, n);
  if (rand() & 1)
    cudaMalloc(&p12, n);
  if (rand() & 1)
    cudaMalloc(&p13, n);
  if (rand() & 1)
    cudaMalloc(&p14, n);
  if (rand() & 1)
    cudaMalloc(&p15, n);
  if (rand() & 1)
    cudaMalloc(&p16, n);
  if (rand() & 1)
    cudaMalloc(&p17, n);
  if (rand() & 1)
    cudaMalloc(&p18, n);
  if (rand() & 1)
    cudaMalloc(&p19, n);
  if (rand() & 1)
    cudaMalloc(&p20, n);
  if (rand() & 1)
    cudaMalloc(&p21, n);
  if (rand() & 1)
    cudaMalloc(&p22, n);
  if (rand() & 1)
    cudaMalloc(&p23, n);
  if (rand() & 1)
    cudaMalloc(&p24, n);
  if (rand() & 1)
    cudaMalloc(&p25, n);
  if (rand() & 1)
    cudaMalloc(&p26, n);
  if (rand() & 1)
    cudaMalloc(&p27, n);
  if (rand() & 1)
    cudaMalloc(&p28, n);
  if (rand() & 1)
    cudaMalloc(&p29, n);
  if (rand() & 1)
    cudaMalloc(&p30, n);
  if (rand() & 1)
    cudaMalloc(&p31, n);
  if (rand() & 1)
    cudaMalloc(&p32, n);
  if (rand() & 1)
    cudaMalloc(&p33, n);
  if (rand() & 1)
    cudaMalloc(&p34, n);
  if (rand() & 1)
    cudaMalloc(&p35, n);
  if (rand() & 1)
    cudaMalloc(&p36, n);
  if (rand() & 1)
    cudaMalloc(&p37, n);
  if (rand() & 1)
    cudaMalloc(&p38, n);
  if (rand() & 1)
    cudaMalloc(&p39, n);
  cudaFree(p0);
  cudaFree(p1);
  cudaFree(p2);
  cudaFree(p3);
  cudaFree(p4);
  cudaFree(p5);
  cudaFree(p6);
  cudaFree(p7);
  cudaFree(p8);
  cudaFree(p9);
  cudaFree(p10);
  cudaFree(p11);
  cudaFree(p12);
  cudaFree(p13);
  cudaFree(p14);
  cudaFree(p15);
  cudaFree(p16);
  cudaFree(p17);
  cudaFree(p18);
  cudaFree(p19);
  cudaFree(p20);
  cudaFree(p21);
  cudaFree(p22);
  cudaFree(p23);
  cudaFree(p24);
  cudaFree(p25);
  cudaFree(p26);
  cudaFree(p27);
  cudaFree(p28);
  cudaFree(p29);
  cudaFree(p30);
  cudaFree(p31);
  cudaFree(p32);
  cudaFree(p33);
  cudaFree(p34);
  cudaFree(p35);
  cudaFree(p36);
  cudaFree(p37);
  cudaFree(p38);
  cudaFree(p39);
}
