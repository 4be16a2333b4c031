// One pair for the outcomes test: tests/inject/stub/gmemlint answers by what the mutant wrote.
int main(int n, char **) {
  float *d_a;
  cudaMalloc(&d_a, n);
  cudaFree(d_a);
  return 0;
}
