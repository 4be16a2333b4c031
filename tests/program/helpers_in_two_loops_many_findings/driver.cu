// expected-no-diagnostics
void stage1(size_t n);
void stage2(size_t n);
void stage3(size_t n);
void stage4(size_t n);
void stage5(size_t n);
void stage6(size_t n);
void stage7(size_t n);
void stage8(size_t n);
void stage9(size_t n);

void run(int steps, size_t n) {
  for (int s = 0; s < steps; s++) {
    stage1(n);
    stage2(n);
    stage3(n);
    stage4(n);
    stage5(n);
    stage6(n);
    stage7(n);
    stage8(n);
    stage9(n);
  }
  for (int s = 0; s < steps; s++)
    stage1(2 * n);
}
