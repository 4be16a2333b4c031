#include "pool.cuh" // expected-warning@pool.cuh:8 {{'scratch' (device memory from cudaMalloc) is not freed on every path: a return leaves 'stage_scratch' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}} expected-note@pool.cuh:11 {{this return leaves without freeing 'scratch'}} expected-note {{'pool.cuh' is analysed where 'backward.cu' includes it}}

int backward(int n) { return stage_scratch(2 * n); }
